"""The sympy witness's entry points: a user function -> its sympy expression, sympy's
derivatives of it, and both as floats at a point.

Expects a function in the language symdiff supports.  Guarantees ``symbolic``,
``symbolic_grad``, ``evaluate`` and ``evaluate_grad`` (see the package): the function is
read by ``interpreter.Interpreter`` in real symbols named after its positional
parameters (one per number of a container parameter, named by its path: ``xs_2``,
``p_w``; see ``arguments``); the derivatives are sympy's ``diff``, in the structure of
the parameter (an array's in its shape and dtype).  An expression so deep that sympy's own
recursion gives up is refused with a ``SymdiffError``, not crashed on, and so is a point
whose arrays hold more than ``MAX_ELEMENTS`` numbers in all (element by element, sympy's
expressions grow with the arrays: the tape and finite differences check large ones).

    def f(x, y):                 symbolic(f)                  ->  x*y + sin(x)
        return x * y + sin(x)    evaluate_grad(f, (0.0, 2.0)) ->  (3.0, 0.0)
"""

import functools
import numbers

import sympy

from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.frontend.parse import parse_function
from symdiff.witnesses.symbolic.arguments import arguments, structure_map
from symdiff.witnesses.symbolic.arrays import is_array
from symdiff.witnesses.symbolic.interpreter import Interpreter, _parameters
from symdiff.witnesses.symbolic.point import _evaluate, _NoNumber
from symdiff.witnesses.symbolic.values import _describe

MAX_ELEMENTS = 64  # array elements of a point, in all, the witness takes

def _build(fn, at, kwargs=None, wrt=None, containers="wrt"):
    """(expression, {name: the parameter's symbols}, the names ``wrt`` selects, whether one
    value is asked for, the point as {Symbol: Float} or None).  ``kwargs`` are the keyword
    arguments a ``**kwargs`` parameter receives (data: no symbols); ``containers`` names
    the container parameters that get a symbol per number: "wrt" (those selected), "all"
    or "none" (the others go in as data)."""
    parsed = parse_function(fn)
    positional = _parameters(parsed)
    keywords = [a.arg for a in parsed.tree.args.kwonlyargs]
    chosen, single = _select(wrt, positional, fn, keywords)
    keywords = [k for k in keywords if k in chosen]  # the others: data, given by ``kwargs``
    kwargs = dict(kwargs or {})
    names = positional + keywords
    values = None
    star = parsed.tree.args.vararg
    if star is not None and at is None:
        raise parsed.error(UnsupportedSyntaxError, star, f"the sympy witness reads "
                           f"*{star.arg} at a point: how many arguments it gathers is the "
                           "call's", hint="give a point (evaluate_grad(f, point)), or name "
                           "each parameter")
    if at is not None:
        if isinstance(at, dict) and sorted(at) != sorted(positional):
            raise ValueError(f"at= must give exactly the parameters {positional}, "
                             f"not {list(at)}")
        values = [at[name] for name in positional] if isinstance(at, dict) else (
            [at] if isinstance(at, numbers.Real) or is_array(at) else list(at))
        defaults = getattr(parsed.fn, "__defaults__", None) or ()
        missing = len(positional) - len(values)
        if 0 < missing <= len(defaults):  # the last parameters left to their defaults
            values += list(defaults[len(defaults) - missing:])
        if len(values) != len(positional):
            raise ValueError(f"at= gives {len(values)} values for {len(positional)} "
                             "parameters")
        given = dict(getattr(parsed.fn, "__kwdefaults__", None) or {}, **kwargs)
        if any(k not in given for k in keywords):
            raise ValueError(f"kwargs= must give the keyword-only parameters {keywords}")
        values += [given[k] for k in keywords]
    if values is not None:
        _bounded_arrays(parsed, values)
    symbolized = {"wrt": set(chosen), "all": set(names), "none": set()}[containers]
    passed, point, symbols = arguments(names, values, symbolized)
    kwargs.update(zip(keywords, passed[len(positional):]))
    given = passed[:len(positional)]
    if star is not None:  # the tuple of ``*args``, spread as the call passes it
        given = [*given[:-1], *given[-1]]
    value = Interpreter(parsed, point).call(parsed.fn, given, kwargs, parsed.tree)
    if is_array(value) and value.ndim == 0:  # a 0-d array: its number
        value = value[()]
    if not isinstance(value, sympy.Expr):
        raise parsed.error(SymdiffError, parsed.tree, f"{parsed.name} returns "
                           f"{_describe(value)}, not a number", hint="return one float")
    return value, symbols, chosen, single, point


def _bounded_arrays(parsed, values):
    """Refuse a point whose arrays hold more than ``MAX_ELEMENTS`` numbers in all."""
    count, stack = 0, list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack += value.values()
        elif isinstance(value, (tuple, list)):
            stack += value
        elif is_array(value):
            count += value.size
    if count > MAX_ELEMENTS:
        raise parsed.error(SymdiffError, parsed.tree, f"the arrays of the point hold {count} "
                           f"numbers, more than the {MAX_ELEMENTS} the sympy witness reads "
                           "element by element", hint="check smaller arrays with sympy; "
                           "the tape and finite differences check any size")


def _select(wrt, names, fn=None, keywords=()):
    """(the names ``wrt`` selects, whether the caller gets one value, not a tuple).  By
    default every positional parameter of ``fn`` (``names``) but those defaulting to
    None (optional ones), an int or a bool (a count, an index, a flag); ``wrt`` may also
    name the keyword-only parameters ``keywords``."""
    if wrt is None:
        defaults = getattr(fn, "__defaults__", None) or ()
        optional = {n for n, d in zip(names[len(names) - len(defaults):], defaults)
                    if d is None or isinstance(d, int)}
        keys = [i for i, n in enumerate(names) if n not in optional] or list(range(len(names)))
        single = len(keys) == 1
    else:
        single = isinstance(wrt, (str, int))
        keys = [wrt] if single else list(wrt)
    chosen = []
    for key in keys:
        if isinstance(key, str) and key in keywords:
            chosen.append(key)
            continue
        index = names.index(key) if isinstance(key, str) and key in names else key
        if isinstance(index, bool) or not isinstance(index, numbers.Integral) or not (
                0 <= index < len(names)):
            raise ValueError(f"wrt={key!r} is not a parameter of the function {names}")
        chosen.append(names[index])
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
    return _build(fn, at, kwargs, containers="all")[0]


@_bounded
def symbolic_grad(fn, wrt=None, at=None, kwargs=None):
    """sympy's derivatives of ``symbolic(fn, at)``.

    ``wrt=None`` means every positional parameter (one expression for a
    one-parameter function, else a tuple); a name or an index gives one
    expression; a tuple of them gives a tuple, in that order.
    """
    value, symbols, chosen, single, _ = _build(fn, at, kwargs, wrt)
    grads = tuple(structure_map(value.diff, symbols[name]) for name in chosen)
    return grads[0] if single else grads


@_bounded
def evaluate(fn, point, kwargs=None):
    """``fn``'s value at ``point`` as a float, computed from its sympy expression."""
    value, _, _, _, values = _build(fn, point, kwargs, containers="none")
    return _to_float(value, values, {}, "value")


@_bounded
def evaluate_grad(fn, point, wrt=None, kwargs=None):
    """The gradient at ``point`` as floats, from the expression valid around it.

    Same shapes as ``symbolic_grad``: a float for one number parameter, the parameter's
    structure of floats for a container (a list for a list, a dict with its keys), one
    parameter alone, else a tuple of them.
    """
    value, symbols, chosen, single, values = _build(fn, point, kwargs, wrt)
    memo = {}

    def derivative(symbol):
        return _to_float(value.diff(symbol), values, memo, f"derivative by {symbol}")
    grads = tuple(structure_map(derivative, symbols[name]) for name in chosen)
    return grads[0] if single else grads

