"""Jit: a generated function compiled with ``numba.njit``, its refusals located.

Expects the generated function ``backend.compile`` made from text written for the numba target
(``to_python(..., target="numba")``), that text, the user's file and the line of the
user's ``def``.  Guarantees ``compile_numba(...)``: numba's dispatcher of the function
(``numba.njit``, no ``fastmath``: every operation rounds as Python's does, but for
``x ** 2`` and whole powers, which numba multiplies out, and NumPy's functions on a
number, which it takes from the C library), compiled at once for the argument types
given (``signature``) and by numba for any other types on the first call with them.  Where numba cannot compile the text, the error is an
``UnsupportedSyntaxError`` at the user's line the failing generated line comes from
(the ``# line K:`` comment above it), naming what numba could not type: never numba's
own traceback.  numba is imported only here, when asked for; without it the error says
how to install it.

    grad(f, jit="numba")      f.py:7:8: numba does not compile the gradient of line 7
                              (t = table[k] * t): Untyped global name 'table' ...
"""

import re

from symdiff.core import types as t
from symdiff.core.records import Row
from symdiff.errors import SymdiffError
from symdiff.backend.numba_target import located_error

TARGETS = (None, "numba")
INSTALL = "pip install 'symdiff[numba]' (or pip install numba)"
_USER_LINE = re.compile(r"#\s*line (\d+)(?: \(in ([\w.]+)\))?:")  # (in a helper inlined)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def check_target(jit):
    """``jit`` if it is an option symdiff has (None, ``"numba"``), else a ``ValueError``."""
    if jit not in TARGETS:
        raise ValueError(f"jit={jit!r}: the compiled targets are {TARGETS[1:]} (or None)")
    return jit


def load_numba():
    """The ``numba`` module; without it, a ``SymdiffError`` saying how to install it."""
    try:
        import numba
    except ImportError:
        raise SymdiffError("jit='numba' compiles the gradient with numba, which is not "
                           "installed", hint=f"install it: {INSTALL}") from None
    return numba


def untyped_parameter(kinds):
    """``(parameter, what it holds)`` for the first parameter whose kind holds a dict or
    a list of unlike values (numba types no Python dict, and a list only of one type),
    or None."""
    for name, kind in (kinds or {}).items():
        what = _untyped(kind)
        if what is not None:
            return name, what
    return None


def _untyped(kind):
    if isinstance(kind, t.Dict):
        return "a dict"
    if isinstance(kind, Row) and len(set(kind.elts)) > 1:
        return "a list of values of unlike types (" + ", ".join(
            dict.fromkeys(str(e) for e in kind.elts)) + ")"
    if isinstance(kind, t.Tuple):
        return next((w for w in map(_untyped, kind.elts) if w is not None), None)
    return _untyped(kind.elem) if isinstance(kind, t.List) else None


def numba_signature(params, types, scalars=None):
    """The numba types of ``params`` (from their ``core.types`` in ``types``, or the NumPy
    dtype ``scalars`` gives one), or None when one is not a number: those are compiled
    on the first call, for what is passed."""
    numba = load_numba()
    found = []
    for name in params:
        kind = types.get(name)
        if name in (scalars or {}):  # a NumPy scalar: numba's type of that dtype
            found.append(getattr(numba, scalars[name]))
        elif kind == t.BOOL:
            found.append(numba.boolean)
        elif isinstance(kind, t.Int):
            found.append(numba.int64)
        elif isinstance(kind, (t.Float, t.Number)):
            found.append(numba.float64)
        else:
            return None
    return tuple(found)


def compile_numba(function, text, origin, first_line, signature=None, scope=None,
                  kinds=None, divert=None):
    """``function`` (compiled from ``text``) under ``numba.njit``: numba's dispatcher,
    whose compiles for new argument types raise their errors located at the user's lines
    (``origin``, ``first_line``: the user's file and ``def`` line; ``scope``: its
    globals, where the helpers it calls are).  A call whose types were compiled before
    goes straight to the machine code.  Where ``kinds`` (the parameters' types) has a
    list of lists, the dispatcher is called through ``RowsAsTuples``.  ``divert(args,
    kwargs)``, when given, is asked first by a call of types not compiled for: the
    function to run it instead (a build for its kinds), or None to compile for them."""
    numba = load_numba()
    # what numba refuses, and what its compiler raises from inside where it cannot lower a
    # construct (an ``AssertionError`` on a boolean mask of two axes): compiling runs none
    # of the function, so nothing it raises is the user's
    failure = Exception
    located = _Locator(text, function.__code__.co_filename, origin, first_line, scope or {})
    try:
        dispatcher = numba.njit(function)
        if signature is not None:
            dispatcher.compile(signature)
    except failure as error:
        raise located(error) from None
    compile_for = dispatcher._compile_for_args  # what a call of types not compiled runs

    def compile_located(*args, **kwargs):
        other = divert(args, kwargs) if divert is not None else None
        if other is not None:  # (what numba then calls with the arguments, as it calls
            return other  # the machine code a compile gives)
        try:
            return compile_for(*args, **kwargs)
        except failure as error:
            raise located(error) from None

    dispatcher._compile_for_args = compile_located
    rows = [name for name, kind in (kinds or {}).items() if _holds_rows(kind)]
    return RowsAsTuples(dispatcher, function.__code__, rows) if rows else dispatcher


def _holds_rows(kind):
    """Whether ``kind`` is a list of lists (or a list of them, or a tuple of them)."""
    if isinstance(kind, t.List):
        return isinstance(kind.elem, t.List) or _holds_rows(kind.elem)
    return isinstance(kind, t.Tuple) and any(_holds_rows(e) for e in kind.elts)


class RowsAsTuples:
    """numba's dispatcher, called with each list of lists of the parameters ``rows``
    passed as the tuple of its rows: numba takes no list of lists from Python, and a
    tuple of lists it does.  The rows are the caller's lists, so what the function
    writes into them is seen as in Python; the outer list is read only (a write into it
    is a tuple's, which numba refuses when it compiles)."""

    def __init__(self, dispatcher, code, rows):
        self.dispatcher, self.rows = dispatcher, frozenset(rows)
        names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        self.positions = [i for i, name in enumerate(names) if name in self.rows]

    def __call__(self, *args, **kwargs):
        args = [_as_rows(a) if i in self.positions else a for i, a in enumerate(args)]
        kwargs = {k: _as_rows(v) if k in self.rows else v for k, v in kwargs.items()}
        return self.dispatcher(*args, **kwargs)

    def __getattr__(self, name):  # ``py_func``, ``signatures``...: the dispatcher's
        return getattr(self.dispatcher, name)


def _as_rows(value):
    """A list that holds lists as a tuple of them (theirs as tuples too, but the last)."""
    if type(value) is list and value and all(type(v) is list for v in value):
        inner = [_as_rows(v) for v in value]
        return tuple(inner)
    if type(value) is tuple:
        return tuple(_as_rows(v) for v in value)
    return value


class _Locator:
    """numba's error -> the ``UnsupportedSyntaxError`` at the user's line."""

    def __init__(self, text, generated_file, origin, first_line, scope):
        self.lines = text.splitlines()
        self.generated_file, self.origin, self.first_line = generated_file, origin, first_line
        self.scope = scope

    def __call__(self, error):
        message = _ANSI.sub("", str(error)) or f"its compiler raised {type(error).__name__}"
        filename, line = self.user_line(self.generated_line(message))
        what = _first_reason(message)
        construct = f"the gradient of line {line}" if line != self.first_line else \
            "the gradient"
        return located_error(f"numba does not compile {construct}: {what}", filename,
                             line, "use the gradient without jit (its Python text runs "
                             "anywhere), or write that line in what numba compiles")

    def generated_line(self, message):
        """The line of the generated text numba names (``File "...", line 12`` in a typing
        error, ``Raised from ... (12)`` in a refusal of the bytecode)."""
        name = re.escape(self.generated_file)
        found = re.search(f'File "{name}", line ' + r"(\d+)", message) or re.search(
            name + r" \((\d+)\)", message)
        return int(found.group(1)) if found else None

    def user_line(self, generated):
        """``(file, line)`` of the user's line a generated line comes from: the ``# line
        K:`` comment above it, in the file of the helper it names when it names one (the
        ``def`` line when there is none)."""
        for text in reversed(self.lines[:generated or 0]):
            found = _USER_LINE.search(text)
            if found and found.group(2) is None:
                return self.origin, int(found.group(1))
            helper = getattr(self.scope.get(found.group(2)), "__code__", None) if found \
                else None
            if helper is not None:
                return helper.co_filename, int(found.group(1))
        return self.origin, self.first_line


def _first_reason(message):
    """The line of numba's message that says what failed (not which pipeline step)."""
    for text in message.splitlines():
        text = text.strip()
        if text and not text.startswith(("Failed in", "- Resolution failure", "During:",
                                          "File ")):
            return text.partition(" Raised from ")[0].rstrip(":")
    return "numba refused it"


__all__ = ["INSTALL", "RowsAsTuples", "TARGETS", "check_target", "compile_numba", "load_numba",
           "numba_signature", "untyped_parameter"]
