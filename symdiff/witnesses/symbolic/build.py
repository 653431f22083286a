"""The sympy witness's entry points: a user function -> its sympy expression, sympy's
derivatives of it, and both as floats at a point.

Expects a function in the language symdiff supports.  Guarantees ``symbolic``,
``symbolic_grad``, ``evaluate`` and ``evaluate_grad`` (see the package): the function is
read by ``interpreter.Interpreter`` in real symbols named after its positional
parameters; the derivatives are sympy's ``diff``.  An expression so deep that sympy's own
recursion gives up is refused with a ``SymdiffError``, not crashed on.

    def f(x, y):                 symbolic(f)                  ->  x*y + sin(x)
        return x * y + sin(x)    evaluate_grad(f, (0.0, 2.0)) ->  (3.0, 0.0)
"""

import functools
import numbers

import sympy

from symdiff.errors import SymdiffError
from symdiff.frontend.parse import parse_function
from symdiff.witnesses.symbolic.interpreter import Interpreter, _parameters
from symdiff.witnesses.symbolic.point import _evaluate, _NoNumber
from symdiff.witnesses.symbolic.values import _describe

def _build(fn, at, kwargs=None):
    """(expression, parameter symbols, point as {Symbol: Float} or None); ``kwargs`` are
    the keyword arguments a ``**kwargs`` parameter receives (data: no symbols)."""
    parsed = parse_function(fn)
    names = _parameters(parsed)
    symbols = tuple(sympy.Symbol(name, real=True) for name in names)
    point = None
    if at is not None:
        if isinstance(at, dict) and sorted(at) != sorted(names):
            raise ValueError(f"at= must give exactly the parameters {names}, not {list(at)}")
        values = [at[name] for name in names] if isinstance(at, dict) else (
            [at] if isinstance(at, numbers.Real) else list(at))
        defaults = getattr(parsed.fn, "__defaults__", None) or ()
        missing = len(names) - len(values)
        if 0 < missing <= len(defaults):  # the last parameters left to their defaults
            values += list(defaults[len(defaults) - missing:])
        if len(values) != len(names):
            raise ValueError(f"at= gives {len(values)} values for {len(names)} parameters")
        point = {symbol: sympy.Float(float(v)) for symbol, v in zip(symbols, values)
                 if isinstance(v, numbers.Real)}  # a string flag or a table goes in as it is
        arguments = [s if isinstance(v, numbers.Real) else v for s, v in zip(symbols, values)]
    else:
        arguments = symbols
    value = Interpreter(parsed, point).call(parsed.fn, arguments, kwargs or {}, parsed.tree)
    if not isinstance(value, sympy.Expr):
        raise parsed.error(SymdiffError, parsed.tree, f"{parsed.name} returns "
                           f"{_describe(value)}, not a number", hint="return one float")
    return value, symbols, point


def _select(wrt, symbols, fn=None):
    """(the symbols ``wrt`` names, whether the caller gets one value, not a tuple).  By
    default every parameter of ``fn`` but those defaulting to None (optional ones)."""
    names = [symbol.name for symbol in symbols]
    if wrt is None:
        defaults = getattr(fn, "__defaults__", None) or ()
        optional = {n for n, d in zip(names[len(names) - len(defaults):], defaults) if d is None}
        keys = [i for i, n in enumerate(names) if n not in optional] or list(range(len(names)))
        single = len(keys) == 1
    else:
        single = isinstance(wrt, (str, int))
        keys = [wrt] if single else list(wrt)
    chosen = []
    for key in keys:
        index = names.index(key) if isinstance(key, str) and key in names else key
        if isinstance(index, bool) or not isinstance(index, numbers.Integral) or not (
                0 <= index < len(names)):
            raise ValueError(f"wrt={key!r} is not a parameter of the function {names}")
        chosen.append(symbols[index])
    return chosen, single


def _to_float(expr, point, memo, what):
    try:
        return _evaluate(expr, point, memo)
    except _NoNumber:
        at = {symbol.name: float(value) for symbol, value in point.items()}
        raise SymdiffError(f"the {what} is not a real number at {at}") from None


def _bounded(entry):
    """Expressions so deep that sympy's own recursion gives up are refused, not crashed on."""
    @functools.wraps(entry)
    def guarded(fn, *args, **kwargs):
        try:
            return entry(fn, *args, **kwargs)
        except RecursionError:
            raise SymdiffError(f"the expression of {getattr(fn, '__name__', fn)} is nested too "
                               "deeply for sympy", hint="use fewer loop iterations, or check "
                               "with the tape and finite differences only") from None
    return guarded


@_bounded
def symbolic(fn, at=None, kwargs=None):
    """``fn``'s value as a sympy expression of its positional parameters.

    ``at`` (a tuple in parameter order, or a dict name -> float) decides the
    branches and loop counts that depend on the inputs; it is needed only then.
    ``kwargs``: what a ``**kwargs`` parameter receives.
    """
    return _build(fn, at, kwargs)[0]


@_bounded
def symbolic_grad(fn, wrt=None, at=None, kwargs=None):
    """sympy's derivatives of ``symbolic(fn, at)``.

    ``wrt=None`` means every positional parameter (one expression for a
    one-parameter function, else a tuple); a name or an index gives one
    expression; a tuple of them gives a tuple, in that order.
    """
    value, symbols, _ = _build(fn, at, kwargs)
    chosen, single = _select(wrt, symbols, fn)
    grads = tuple(value.diff(symbol) for symbol in chosen)
    return grads[0] if single else grads


@_bounded
def evaluate(fn, point, kwargs=None):
    """``fn``'s value at ``point`` as a float, computed from its sympy expression."""
    value, _, values = _build(fn, point, kwargs)
    return _to_float(value, values, {}, "value")


@_bounded
def evaluate_grad(fn, point, wrt=None, kwargs=None):
    """The gradient at ``point`` as floats, from the expression valid around it.

    Same shapes as ``symbolic_grad``: a float for one parameter, else a tuple.
    """
    value, symbols, values = _build(fn, point, kwargs)
    chosen, single = _select(wrt, symbols, fn)
    memo = {}
    grads = tuple(_to_float(value.diff(symbol), values, memo, f"derivative by {symbol}")
                  for symbol in chosen)
    return grads[0] if single else grads

