"""Wrappers: what a call of a function runs, and where to say so when it cannot be read.

Expects what a user hands to ``grad``.  Guarantees that a wrapper which changes no
value (``functools.lru_cache``, ``staticmethod``) is seen through (``transparent``),
that a decorator's wrapper passing ``*args`` on, a ``functools.partial`` and a file
edited after import are refused with an error located where the user can act (the
decorator's line, the bound function's ``def``, the function's ``def``), and never
that the function a wrapper wraps is read in the wrapper's place.

    @twice                    grad(f) ──► DecoratorError at model.py:11:0 (the @twice)
    def f(x): ...             (twice's wrapper takes *args: what it does is unread)
"""

import ast
import functools
import inspect
import linecache
import sys
import types

from symdiff.errors import DecoratorError, SourceChangedError, SourceUnavailableError
from symdiff.frontend.provenance import DEFS, def_starts, module_tree


class StandsFor:
    """A base of the callables symdiff returns (``backend.travel``'s): ``_stands_for()`` is
    the function whose code a call runs, or None when the call runs it through another
    function (an evaluator of rows).  Here, so the front end sees through them without
    importing the back end that makes them."""

    def _stands_for(self):
        return None


def transparent(fn):
    """The function a wrapper that changes no value calls: ``functools.lru_cache`` (and
    ``cache``) return what it returns, ``staticmethod`` only rebinds it, a gradient
    symdiff returned runs the code it generated, and a function compiled by numba
    (``@numba.njit``, or a gradient compiled with ``jit="numba"``) compiles the Python
    function it holds (``py_func``), which is read."""
    cached = getattr(functools, "_lru_cache_wrapper", None)
    while True:
        if isinstance(fn, StandsFor) and fn._stands_for() is not None:
            fn = fn._stands_for()
        elif _compiled_by_numba(fn):
            fn = fn.py_func
        elif isinstance(fn, staticmethod):
            fn = fn.__func__
        elif cached is not None and isinstance(fn, cached):
            fn = fn.__wrapped__
        else:
            return fn


def _compiled_by_numba(fn):
    """Whether ``fn`` is numba's dispatcher of a Python function (``@numba.njit``, and
    the gradients compiled with ``jit="numba"``)."""
    return type(fn).__module__.partition(".")[0] == "numba" and inspect.isfunction(
        getattr(fn, "py_func", None))


def as_numpy(obj):
    """``obj`` as the NumPy it wraps, where it is autograd's: the module
    ``autograd.numpy`` (and its submodules, ``autograd.numpy.linalg``) is ``numpy``'s,
    and a function of theirs (a primitive, which computes its ``fun`` on arrays, or a
    wrapper such as ``array``) is NumPy's function of the same name.  Code written for
    autograd reads as NumPy, and what symdiff generates calls NumPy itself."""
    name = getattr(obj, "__name__", None)
    if isinstance(obj, types.ModuleType):
        if name is not None and (name == "autograd.numpy" or name.startswith("autograd.numpy.")):
            return sys.modules.get("numpy" + name[len("autograd.numpy"):], obj)
        return obj
    module = getattr(obj, "__module__", None)
    if not (isinstance(module, str) and module.startswith("autograd.")) or not callable(obj):
        return obj
    raw = getattr(obj, "fun", None) if getattr(obj, "_is_autograd_primitive", False) else None
    if raw is not None:
        return raw
    numpy = sys.modules.get("numpy")
    wrapper = sys.modules.get("autograd.numpy")
    if numpy is not None and wrapper is not None and name and getattr(wrapper, name, None) is obj:
        return getattr(numpy, name, obj)
    return obj


def check_wrapper(fn):
    """Refuse a decorator's wrapper that passes ``*args`` on: what it computes from them
    cannot be read.  The error points at the decorator, where the user can act."""
    code = fn.__code__
    if not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return  # named parameters: the wrapper is read like any function
    inner = inspect.unwrap(fn)
    filename, lineno, col, node = _def_line(fn)
    if inspect.isfunction(inner):
        filename, lineno, col, node = _def_line(inner)
        if node is not None and node.decorator_list:
            decorator = node.decorator_list[0]
            lineno, col = decorator.lineno, decorator.col_offset - 1  # at the @
    passes = "*args" if code.co_flags & inspect.CO_VARARGS else "**kwargs"
    raise DecoratorError(
        f"{fn.__name__} is decorated: calling it runs the wrapper {code.co_name} "
        f"({code.co_filename}:{code.co_firstlineno}), which passes {passes} on, so what it "
        f"computes cannot be read", filename=filename, lineno=lineno, col_offset=max(col, 0),
        source_line=linecache.getline(filename, lineno) or None,
        hint=f"apply grad to the undecorated function ({fn.__name__}.__wrapped__), give the "
             f"wrapper {fn.__name__}'s own parameters, or give {fn.__name__} a rule with "
             "symdiff.defgrad for the functions that call it")



def partial_error(fn):
    """A ``functools.partial`` has no source of its own: point at the function it binds."""
    inner = fn.func
    what = getattr(inner, "__name__", repr(inner))
    message = (f"functools.partial({what}, ...) is a partial object, not a function: it has "
               "no source text to read")
    hint = f"differentiate a lambda or def that calls {what} with those arguments"
    if inspect.isfunction(inner):
        filename, lineno, col, _ = _def_line(inner)
        return SourceUnavailableError(
            message + f" (it binds {what}, defined here)", filename=filename, lineno=lineno,
            col_offset=col, source_line=linecache.getline(filename, lineno) or None, hint=hint)
    return SourceUnavailableError(message + f", and {what} has none either", hint=hint)



def reloaded(filename):
    """Re-read ``filename`` when it changed on disk; True when the text is new."""
    before = linecache.getlines(filename)
    linecache.checkcache(filename)
    return linecache.getlines(filename) != before



def changed_error(fn, name):
    filename, lineno, col, _ = _def_line(fn)
    return SourceChangedError(
        f"the source of {name} in {filename} is not the code that runs: the file was "
        "changed after it was imported", filename=filename, lineno=lineno, col_offset=col,
        source_line=linecache.getline(filename, lineno) or None,
        hint="re-import the module (importlib.reload), or restore the file")



def _def_line(fn):
    """(filename, line, column, the ``def`` node or None) where ``fn`` is defined."""
    code = fn.__code__
    node = None
    module = module_tree(code.co_filename)
    if module is not None:
        node = next((n for n in ast.walk(module) if isinstance(n, DEFS)
                     and n.name == code.co_name and code.co_firstlineno in def_starts(n)), None)
    line = linecache.getline(code.co_filename, code.co_firstlineno)
    col = len(line) - len(line.lstrip()) if line.strip() else 0
    return code.co_filename, code.co_firstlineno, col, node
