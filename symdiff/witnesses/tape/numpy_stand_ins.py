"""NumPy's functions on scalars, on the tape, with NumPy's semantics.

Expects numpy.  Guarantees ``numpy_stand_ins(numpy)``: name -> the tape's stand-in for
``numpy.<name>``, which ``symdiff.tape.grad`` gives the user's code in numpy's place.

NumPy and ``math`` part at the edges: ``np.log(0.0)`` is ``-inf`` where ``math.log(0.0)``
raises, ``np.sin(inf)`` and ``np.power(-1.0, 0.5)`` are nan, ``np.divide(1.0, 0.0)`` is
``inf``.  A stand-in computes its value with numpy's own function, and its local
derivatives with the hand-written formulas of the tape (``PARTIALS``) evaluated in
numpy's arithmetic: the operands are numpy float64s and ``math`` inside a formula reads as
numpy's functions, with numpy's warnings silenced.  So a pole gives ±inf and a point
outside the domain nan, as numpy's own arithmetic would, and nothing raises where numpy
does not.  No derivative is written here: the formulas are the tape's, and only the
arithmetic they are evaluated in changes.

    np.log(Value(0.0))      value -inf, derivative 1 / 0 -> inf
    np.arctanh(Value(1.0))  value inf, derivative 1 / ((1 - 1) * (1 + 1)) -> inf
    np.sin(Value(inf))      value nan, derivative cos(inf) -> nan

Called with plain numbers only, a stand-in is numpy's function itself (warnings and all).
A Value handed to numpy's function directly (``np.tanh(v)``, ``np.float64(2) * v``) reaches
the same stand-in, through ``Value.__array_ufunc__``.
"""

import math
import types

# the function families note their partials in PARTIALS as they define them
from symdiff.witnesses.tape import math_functions, numpy_functions  # noqa: F401
from symdiff.witnesses.tape.value import PARTIALS, Value, _data, _saturated, on_numbers

_SPELLINGS = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "atan2": "arctan2",
              "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh", "pow": "power",
              "fabs": "absolute"}  # math's name -> numpy's, where they differ

# numpy's name -> the tape's name of the same function's partials
_SMOOTH = {
    "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "asin", "arccos": "acos",
    "arctan": "atan", "arctan2": "atan2", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
    "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "exp": "exp", "expm1": "expm1",
    "log": "log", "log1p": "log1p", "log2": "log2", "log10": "log10", "sqrt": "sqrt",
    "fabs": "fabs", "abs": "fabs", "absolute": "fabs", "degrees": "degrees",
    "rad2deg": "degrees", "radians": "radians", "deg2rad": "radians", "cbrt": "cbrt",
    "exp2": "exp2", "square": "square", "sinc": "sinc", "reciprocal": "reciprocal",
    "power": "pow", "float_power": "pow", "fmod": "fmod", "copysign": "copysign",
    "logaddexp": "logaddexp", "logaddexp2": "logaddexp2", "add": "add", "subtract": "sub",
    "multiply": "mul", "divide": "div", "true_divide": "div", "remainder": "mod", "mod": "mod",
}
_FLAT = ("floor", "ceil", "trunc", "rint", "sign", "heaviside", "floor_divide")  # derivative 0
_TESTS = ("isnan", "isinf", "isfinite", "less", "less_equal", "greater", "greater_equal",
          "equal", "not_equal")  # no derivative: they read the numbers


def numpy_stand_ins(numpy):
    """numpy's name -> its stand-in on the tape, for every function the tape knows."""
    namespace = _NumpyMath(numpy)
    table = {name: _smooth(numpy, getattr(numpy, name), PARTIALS[ours], namespace)
             for name, ours in _SMOOTH.items() if hasattr(numpy, name)}
    table["hypot"] = _smooth(numpy, numpy.hypot, _hypot_partials, namespace)
    table["negative"] = _smooth(numpy, numpy.negative, lambda x, y: -1.0, namespace)
    table["positive"] = _smooth(numpy, numpy.positive, lambda x, y: 1.0, namespace)
    table.update({name: _flat(numpy, getattr(numpy, name)) for name in _FLAT})
    table.update({name: on_numbers(getattr(numpy, name)) for name in _TESTS})
    for name, choose in (("maximum", _maximum), ("minimum", _minimum), ("fmax", _fmax),
                         ("fmin", _fmin), ("clip", _clip)):
        table[name] = _selection(numpy, getattr(numpy, name), choose)
    return table


def _hypot_partials(x, y, h):
    return PARTIALS["hypot"](x, h), PARTIALS["hypot"](y, h)


class _NumpyMath:
    """``math`` as a formula evaluated in numpy's arithmetic sees it: numpy's functions
    under math's names (math's own where numpy has none, as for ``erf``)."""

    def __init__(self, numpy):
        self._numpy = numpy

    def __getattr__(self, name):
        found = getattr(self._numpy, _SPELLINGS.get(name, name), None)
        return found if found is not None else getattr(math, name)


def _in_numpy_arithmetic(formula, namespace):
    """``formula`` (a function of the tape) reading ``math`` as ``namespace``."""
    scope = dict(formula.__globals__, math=namespace)
    return types.FunctionType(formula.__code__, scope, formula.__name__, formula.__defaults__,
                              formula.__closure__)


def _smooth(numpy, function, partials, namespace):
    """The stand-in of numpy's ``function``: numpy's value, the tape's ``partials``."""
    formula = _in_numpy_arithmetic(partials, namespace)
    float64 = numpy.float64

    def stand_in(*args):
        if not any(isinstance(a, Value) for a in args):
            return function(*args)
        data = [_data(a) for a in args]
        with numpy.errstate(all="ignore"):
            out = function(*data)
            local = formula(*[float64(_saturated(d)) for d in data], out)
        local = local if isinstance(local, tuple) else (local,)
        edges = ()
        for arg, derivative in zip(args, local):
            if isinstance(arg, Value):
                edges += (arg, float(derivative))
        return Value(float(out), edges)

    stand_in.__name__ = stand_in.__qualname__ = function.__name__
    stand_in.__doc__ = f"``numpy.{function.__name__}`` on Values or numbers."
    return stand_in


def _flat(numpy, function):
    """A piecewise-constant function: numpy's value as a plain float (derivative 0)."""
    def stand_in(*args):
        if not any(isinstance(a, Value) for a in args):
            return function(*args)
        with numpy.errstate(all="ignore"):
            return float(function(*map(_data, args)))

    stand_in.__name__ = stand_in.__qualname__ = function.__name__
    return stand_in


# the selections: the gradient goes to the argument numpy returns (the first on a tie, as
# for max and min), and the value is numpy's (which, on a tie of 0.0 and -0.0, may be the
# other zero)

def _selection(numpy, function, choose):
    """numpy's ``function``, its gradient to the argument ``choose`` picks."""
    def stand_in(*args):
        if not any(isinstance(a, Value) for a in args):
            return function(*args)
        picked = choose(*args)
        with numpy.errstate(all="ignore"):
            out = float(function(*map(_data, args)))
        return Value(out, (picked, 1.0)) if isinstance(picked, Value) else out

    stand_in.__name__ = stand_in.__qualname__ = function.__name__
    return stand_in


def _isnan(x):
    x = _data(x)
    return x != x


def _maximum(a, b):
    """``numpy.maximum``: a nan argument wins (the first of two)."""
    return a if _isnan(a) or not _isnan(b) and _data(a) >= _data(b) else b


def _minimum(a, b):
    """``numpy.minimum``: a nan argument wins (the first of two)."""
    return a if _isnan(a) or not _isnan(b) and _data(a) <= _data(b) else b


def _fmax(a, b):
    """``numpy.fmax``: a nan argument loses."""
    return a if _isnan(b) or _data(a) >= _data(b) else b


def _fmin(a, b):
    """``numpy.fmin``: a nan argument loses."""
    return a if _isnan(b) or _data(a) <= _data(b) else b


def _clip(x, lo, hi):
    """``numpy.clip``: ``minimum(maximum(x, lo), hi)``; on a bound itself, ``x``."""
    return _minimum(_maximum(x, lo), hi)
