"""The public entry points: ``grad``, ``value_and_grad``, ``source``.

They run the pipeline once per function, ``wrt`` and options:

    parse -> fence -> lower -> hoist -> differentiate -> optimize -> emit -> compile

(``symdiff.pipeline``; the dependency graph is built beside it, for display)

and cache the result; a second request for the same gradient costs a dictionary
look-up and a check that the globals the function reads are still the same
objects.  The gradient is built when ``grad`` is applied if every name the
function reads already exists; otherwise (a helper defined further down the
module) on first use.

A gradient is a snapshot, as ``jax.jit`` makes one: it is built from the function and
the values it reads (module constants, tables, helpers, closure values) at the moment
it is built, its text binds them, and it keeps them.  Every call of an entry point
builds from the values of that moment (the cache serves only while they are the same
objects with the same contents), so applying ``grad`` again is the way to rebuild.
The cache keeps the ``CACHE_SIZE`` gradients used last.
"""

import functools
import operator

from symdiff.core import types as t
from symdiff.analysis.graph import build_graph
from symdiff.backend.compile import compile_module
from symdiff.backend.jit import (check_target, compile_numba, numba_signature,
                                 untyped_parameter)
from symdiff.backend.travel import wrap
from symdiff.errors import UndefinedNameError, UnsupportedSyntaxError
from symdiff.frontend.parse import parse_function
from symdiff.frontend.wrappers import transparent
from symdiff.core.records import watched_values
from symdiff.pipeline import collector_paused, generate, stage
from symdiff.specialized import (BuiltLater, MethodGradient, Specialized,
                                 SpecializedOfGradient, bound_instance, examples_needed,
                                 container_kinds, method_wrt, per_kinds)

CACHE_SIZE = 512
_CACHE = {}  # in order of use, the least recently used first


class Gradient:
    """Everything built for one function: the generated text, function and graph."""

    def __init__(self, fn, wrt, with_value, optimize, mode="reverse", prefer=None,
                 debug=None, kinds=None, jit=None, pack=True):
        # held, so the ids in ``build``'s key stay those of these objects
        self.owners = (getattr(fn, "__code__", fn), getattr(fn, "__globals__", None),
                       tuple(getattr(fn, "__closure__", None) or ()))
        with collector_paused():  # the graph and the compiled function too (``pipeline``)
            self._build(fn, wrt, with_value, optimize, mode, prefer, debug, kinds, jit, pack)

    def _build(self, fn, wrt, with_value, optimize, mode, prefer, debug, kinds, jit=None,
               pack=True):
        parsed = parse_function(fn)
        untyped = untyped_parameter(kinds) if jit else None
        if untyped is not None:
            raise parsed.error(UnsupportedSyntaxError, parsed.tree, (
                f"{untyped[0]} holds {untyped[1]}, which numba does not take from "
                "Python: it is not compiled with jit='numba'"),
                "pass its values as numbers or a tuple, or use the gradient without jit")
        built = generate(parsed, wrt, prefer=prefer, with_value=with_value, optimize=optimize,
                         forward=mode == "forward", debug=debug, kinds=kinds,
                         target=jit or "python", seeded=mode == "vjp", pack=pack)
        program, self.source = built.program, built.source
        self.wrt_names, self.single = list(built.wrt.names), built.wrt.single
        self._parsed, self._defuse = parsed, built.defuse  # for the graph, when asked
        self.program = program
        self.name = built.function.name
        names = ", ".join(self.wrt_names) + ("," if len(self.wrt_names) == 1 else "")
        named = wrt is not None or prefer is not None
        variant = [] if not named else [f"wrt {self.wrt_names[0]}" if self.single
                                        else f"wrt ({names})"]
        variant += ["value"] * with_value + ["unoptimized"] * (not optimize) + [jit] * bool(jit)
        variant += ["saves one by one"] * (optimize and not pack and jit is None)
        self.function = compile_module(self.source, self.name, program.namespace,
                                       parsed.filename, "; ".join(variant), built.module)
        if jit == "numba":  # compiled at once for the numbers the parameters hold
            signature = numba_signature(program.params, program.types, program.scalars) if (
                mode == "reverse" and not program.defaults) else None
            divert = _compiled_by_kinds(fn, wrt, with_value, optimize, program.numpy_name
                                        is not None) if kinds is None and mode == "reverse" \
                else None
            self.function = compile_numba(self.function, self.source, parsed.filename,
                                          parsed.tree.lineno, signature, parsed.globals,
                                          kinds, divert)
        self.reads = program.reads
        self._watched = _watched_reads(self.reads)

    @functools.cached_property
    def graph(self):
        """The dependency graph (``analysis.graph``), built the first time it is asked
        for: it is for display, and most gradients are only called."""
        with collector_paused(), stage("graph", self._parsed):
            graph = build_graph(self.program, self._defuse)
        self._defuse = None
        return graph

    def watched(self):
        """``(scopes, names, objects, current)`` for ``frontend.guards.guard``: the
        globals the build read, and ``is_current`` when it read a table (None if not)."""
        scopes, names, objects, tables = self._watched
        return scopes, names, objects, self.is_current if tables else None

    def is_current(self):
        """Whether each global the build read is still the same object, and each table
        among them holds the same numbers (the names compared at C speed: a gradient
        per kind of arguments asks on every call)."""
        scopes, names, objects, tables = self._watched
        return all(map(operator.is_, map(dict.get, scopes, names), objects)) and (
            not tables or all(watched_values(obj) == contents for obj, contents in tables))


def _watched_reads(reads):
    """``reads`` once each, as ``(scopes, names, objects, tables)``: three columns and
    the ``(object, contents)`` of each table."""
    unique = {(id(scope), name): (scope, name, obj) for scope, name, obj, _ in reads}
    scopes, names, objects = zip(*unique.values()) if unique else ((), (), ())
    tables = tuple((obj, contents) for _, _, obj, contents in reads if contents is not None)
    return scopes, names, objects, tables


def build(fn, wrt=None, *, with_value=False, optimize=True, mode="reverse", prefer=None,
          debug=None, kinds=None, jit=None, pack=True):
    """The cached ``Gradient`` of ``fn`` (``mode="forward"``: its forward-mode function;
    ``mode="vjp"``: its vector-Jacobian product, ``symdiff.vjp``).

    ``prefer="active"``: with ``wrt=None``, only the parameters a derivative can flow
    from (``check``'s default; see ``symdiff.frontend.wrt``).  ``debug``: called after
    each pipeline stage (``symdiff.pipeline.generate``); the gradient is then built
    afresh (and cached as any other).  ``kinds``: the container parameters' types
    (``specialized.container_kinds``), part of the key.  ``jit="numba"``: the text
    written for numba and compiled with ``numba.njit`` (``backend.jit``).  ``pack=False``:
    a loop's saves pushed one by one, never as a tuple (``optimize.saves``), the text
    symdiff itself reads again (a gradient differentiated: ``hvp``, ``grad(grad(f))``).
    """
    check_target(jit)
    if isinstance(fn, Specialized):
        raise _per_kinds_error(fn)
    items = wrt if isinstance(wrt, (list, tuple)) else (wrt,)
    wrt_key = (isinstance(wrt, (list, tuple)),) + tuple((type(w), w) for w in items)
    # by identity: equal code objects in two modules, or two generated functions, differ
    code, scope = getattr(fn, "__code__", fn), getattr(fn, "__globals__", None)
    key = (id(code), id(scope), _closure_key(fn), wrt_key, with_value, optimize, mode, prefer,
           tuple(sorted((kinds or {}).items())), jit, pack)
    cached = _CACHE.get(key)
    if cached is not None and cached.is_current() and debug is None:
        _CACHE[key] = _CACHE.pop(key)  # now the most recently used
        return cached
    gradient = Gradient(fn, wrt, with_value, optimize, mode, prefer, debug, kinds,
                        **jit_options({}, jit), **({} if pack else {"pack": False}))
    _CACHE.pop(key, None)
    _CACHE[key] = gradient
    while len(_CACHE) > CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]
    return gradient


def grad(fn=None, *, wrt=None, optimize=True, jit=None):
    """The gradient of ``fn``: ``@grad``, ``@grad(wrt="x")`` or ``grad(f, wrt=(0, 1))``;
    ``jit="numba"``: compiled with ``numba.njit`` (``backend.jit``)."""
    if fn is None:
        return functools.partial(grad, wrt=wrt, optimize=optimize, jit=jit)
    return _wrap(fn, wrt, with_value=False, optimize=optimize, jit=jit)


def value_and_grad(fn=None, *, wrt=None, optimize=True, jit=None):
    """Like ``grad``, but the function returns ``(value, gradient)``."""
    if fn is None:
        return functools.partial(value_and_grad, wrt=wrt, optimize=optimize, jit=jit)
    return _wrap(fn, wrt, with_value=True, optimize=optimize, jit=jit)


def source(fn, *example_args, wrt=None, optimize=True, debug=None, jit=None):
    """The generated module text of ``fn``'s gradient; with ``example_args``, the text
    generated for arguments of their kinds (a function with container parameters is
    specialized to them).  With ``debug``, built afresh, calling ``debug(stage, value)``
    after every stage (``pipeline.generate``); with ``jit="numba"``, the text compiled."""
    fn = _unwrap(fn)
    bound = bound_instance(fn)
    if bound is not None:  # a method: its function, the instance the first argument
        fn, example_args, wrt = bound[0], (bound[1],) + example_args, method_wrt(bound[0], wrt)
    if not example_args:
        missing = examples_needed(fn, wrt, "give example arguments: symdiff.source({name}, "
                                  "{params}) with values of the kinds it is called with")
        if missing is not None:
            raise missing
    return build(fn, wrt, optimize=optimize, debug=debug,
                 kinds=container_kinds(fn, example_args, scalars=jit is not None),
                 jit=jit).source


class GradFunction(BuiltLater):
    """A gradient built on first use (its function reads names defined later), and from
    then on a snapshot like any other."""

    def __init__(self, fn, wrt, with_value, optimize, jit=None):
        self.fn = fn
        self._options = (wrt, with_value, optimize)
        self._jit = jit
        self._built = None
        self.__name__ = self.__qualname__ = f"grad_{fn.__name__}"
        self.__doc__ = f"Gradient of {fn.__name__}, generated by symdiff."

    def _gradient(self):
        if self._built is None:
            wrt, with_value, optimize = self._options
            self._built = build(self.fn, wrt, with_value=with_value, optimize=optimize,
                                jit=self._jit)
        return self._built

    def _reread(self):
        """The gradient as symdiff reads it again: its saves pushed one by one."""
        wrt, with_value, optimize = self._options
        return build(self.fn, wrt, with_value=with_value, optimize=optimize, jit=self._jit,
                     pack=False)

    def __call__(self, *args, **kwargs):
        return self._gradient().function(*args, **kwargs)

    _built_gradient = _gradient

    def __repr__(self):
        return f"<symdiff gradient of {self.fn.__qualname__}>"


def _wrap(fn, wrt, with_value, optimize, jit=None):
    if isinstance(fn, Specialized) and jit is None:
        return SpecializedOfGradient(fn, wrt, with_value, optimize, _of_gradient(fn))
    subject, fn = fn, _unwrap(fn)
    check_target(jit)
    bound = bound_instance(fn)
    if bound is not None:  # ``model.loss``, ``spring``: the function, the instance its data
        return MethodGradient(*bound, wrt, lambda function, inner_wrt: _wrap(
            function, inner_wrt, with_value, optimize, jit))
    if per_kinds(fn, wrt):  # decided from the source: built on each call's kinds
        return Specialized(fn, wrt, with_value, optimize,
                           functools.partial(build, jit=jit) if jit else build, jit=jit)
    try:
        gradient = build(fn, wrt, with_value=with_value, optimize=optimize, jit=jit)
    except UndefinedNameError:
        return GradFunction(fn, wrt, with_value, optimize, jit)
    arrays = _by_kinds(fn, wrt, with_value, optimize) if (
        jit is None and gradient.program.numpy_name is not None) else None
    made = wrap(gradient, "value_and_grad" if with_value else "grad", subject,
                jit_options({"wrt": wrt, "optimize": optimize}, jit), fn=fn, arrays=arrays)
    if optimize and jit is None:  # read again (grad of a gradient): saves one by one
        made._reread = functools.partial(_reread, fn, wrt, with_value, optimize)
    return made


def _of_gradient(inner):
    """What builds the gradient of ``inner`` (a gradient built per kind of the
    arguments) for given kinds: the gradient of the text ``inner`` is built as for those
    kinds, its saves pushed one by one (the text symdiff reads again)."""
    inner_wrt, inner_value, inner_optimize = inner._options

    def of_gradient(fn, wrt, *, with_value, optimize, kinds):
        first = inner._build(fn, inner_wrt, with_value=inner_value, optimize=inner_optimize,
                             kinds=kinds, pack=False)
        return build(first.function, wrt, with_value=with_value, optimize=optimize,
                     kinds=kinds)
    return of_gradient


def _by_kinds(fn, wrt, with_value, optimize):
    """The gradient of a function of numbers that calls NumPy, for a call given an array
    (a 0-d one): built for that call's kinds, so the gradient by a 0-d array is a 0-d
    array of its dtype, as the gradient by any array is an array of its shape."""
    def call(args, kwargs):
        kinds = container_kinds(fn, args, kwargs)
        gradient = build(fn, wrt, with_value=with_value, optimize=optimize, kinds=kinds)
        return gradient.function(*args, **kwargs)
    return call


def _compiled_by_kinds(fn, wrt, with_value, optimize, arrays):
    """What runs a call of the compiled gradient of a function of numbers that numba has
    not compiled it for (``jit.compile_numba``'s ``divert``): where an argument is a
    ``np.float32`` (or, for code calling NumPy, ``arrays``, an array: a 0-d one), the
    gradient compiled for that call's kinds, which computes in float32 as NumPy does and
    gives a 0-d array as the Python gradient does; None for any other call.  A call of
    floats, which numba has compiled for, never comes here: it pays nothing."""
    def divert(args, kwargs):
        kinds = container_kinds(fn, args, kwargs, scalars=True)
        if not kinds or not arrays and any(isinstance(k, t.Array) for k in kinds.values()):
            return None
        return build(fn, wrt, with_value=with_value, optimize=optimize, kinds=kinds,
                     jit="numba").function
    return divert


def _reread(fn, wrt, with_value, optimize):
    """``fn``'s gradient as symdiff reads it again (``function``, ``source``)."""
    return build(fn, wrt, with_value=with_value, optimize=optimize, pack=False)


def jit_options(options, jit):
    """``options`` with ``jit`` when it is set (a gradient without it pickles as before)."""
    return {**options, "jit": jit} if jit else options


def _unwrap(fn):
    """A gradient built on first use stands for its generated function (``grad(grad(f))``);
    a wrapper that changes no value (``functools.lru_cache``) for what it wraps."""
    if isinstance(fn, Specialized):
        raise _per_kinds_error(fn)
    return fn._reread().function if isinstance(fn, GradFunction) else transparent(fn)


def _per_kinds_error(specialized):
    """Why a gradient generated per kind of the arguments cannot itself be differentiated."""
    code = specialized.fn.__code__
    return UnsupportedSyntaxError(
        f"the gradient of {specialized.fn.__name__} is generated per kind of its container "
        "arguments, and a gradient of it is not taken yet", filename=code.co_filename,
        lineno=code.co_firstlineno, col_offset=0,
        hint="for second derivatives use symdiff.hessian or symdiff.hvp of the function "
             "itself, which take its container arguments")


def _closure_key(fn):
    cells = getattr(fn, "__closure__", None) or ()
    key = []
    for cell in cells:
        try:
            key.append(id(cell.cell_contents))
        except ValueError:
            key.append(None)
    return tuple(key)

