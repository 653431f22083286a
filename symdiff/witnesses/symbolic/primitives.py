"""The primitives the sympy witness knows: name -> a builder over sympy values, and how the
Python objects the user's code calls (math, builtins, numpy, SciPy) map to those names.

Expects sympy; numpy and SciPy only if the user's code imported them (nothing here
imports them).  Guarantees ``_PRIMITIVES`` (``None`` for ``min``/``max``/``fmin``/``fmax``/
``clip``, which the interpreter decides at the point), ``_primitive_name(func)`` (the name
of a math function, builtin, numpy ufunc or ``scipy.stats.norm`` method, else None), and
the tables of Python's operators and comparisons over sympy values.

    _primitive_name(math.sin) -> "sin"      _PRIMITIVES["sin"](x) -> sin(x)
    _primitive_name(np.arctan2) -> "atan2"  _OPERATORS[ast.FloorDiv](x, y) -> Floor(x/y)
"""

import ast
import math
import operator
import statistics
import sys

import sympy

from symdiff import markers
from symdiff.witnesses.symbolic.functions import (
    _SQRT2,
    Ceiling,
    Floor,
    LogAbsGamma,
    RealAbs,
    Round,
    Sign,
    Signum,
    Step,
    StopGradient,
    Trunc,
    _Exponent,
    _isclose,
    _ndtr,
    _normal,
    _numeric,
)

# name -> builder over sympy arguments; math, builtins and numpy map onto these names
def _mean(xs, weights=None):
    if weights is None:
        return sympy.Add(*xs) / len(xs)
    return sympy.Add(*[x * w for x, w in zip(xs, weights)]) / sympy.Add(*weights)


def _variance(ddof):
    def variance(xs):
        centre = _mean(xs)
        return sympy.Add(*[(x - centre) ** 2 for x in xs]) / (len(xs) - ddof)
    return variance


# ``statistics``' means and spreads of a list (what its exact sums with fractions give)
_STATISTICS = {
    "stat_mean": _mean, "stat_fmean": _mean, "stat_variance": _variance(1),
    "stat_pvariance": _variance(0), "stat_stdev": lambda xs: sympy.sqrt(_variance(1)(xs)),
    "stat_pstdev": lambda xs: sympy.sqrt(_variance(0)(xs)),
    "stat_geometric_mean": lambda xs: sympy.exp(sympy.Add(*map(sympy.log, xs)) / len(xs)),
    "stat_harmonic_mean": lambda xs: len(xs) / sympy.Add(*[1 / x for x in xs]),
}

_PRIMITIVES = {
    "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "asin": sympy.asin,
    "acos": sympy.acos, "atan": sympy.atan, "atan2": sympy.atan2, "sinh": sympy.sinh,
    "cosh": sympy.cosh, "tanh": sympy.tanh, "asinh": sympy.asinh, "acosh": sympy.acosh,
    "atanh": sympy.atanh, "exp": sympy.exp, "expm1": lambda x: sympy.exp(x) - 1,
    "log": lambda x, base=sympy.E: sympy.log(x) / sympy.log(base), "sqrt": sympy.sqrt,
    "log1p": lambda x: sympy.log(1 + x), "log2": lambda x: sympy.log(x) / sympy.log(2),
    "log10": lambda x: sympy.log(x) / sympy.log(10), "pow": operator.pow,
    "hypot": lambda *xs: sympy.sqrt(sympy.Add(*[x**2 for x in xs])),
    "fabs": RealAbs, "abs": RealAbs, "copysign": lambda x, y: RealAbs(x) * Sign(y),
    "erf": sympy.erf, "erfc": sympy.erfc, "floor": Floor,
    "ceil": Ceiling, "trunc": Trunc, "int": Trunc, "fmod": lambda x, y: x - y * Trunc(x / y),
    "float": lambda x: x, "stop_gradient": StopGradient, "round": Round,
    "degrees": lambda x: x * 180 / sympy.pi, "radians": lambda x: x * sympy.pi / 180,
    "cbrt": lambda x: Sign(x) * RealAbs(x) ** sympy.Rational(1, 3),
    "exp2": lambda x: 2 ** x, "square": lambda x: x ** 2, "reciprocal": lambda x: 1 / x,
    "sinc": lambda x: sympy.sinc(sympy.pi * x), "floordiv": lambda x, y: Floor(x / y),
    "sign": Signum, "heaviside": Step, "rint": lambda x: Floor(x + sympy.Rational(1, 2)),
    "logaddexp": lambda x, y: sympy.log(sympy.exp(x) + sympy.exp(y)),
    "logaddexp2": lambda x, y: sympy.log(2 ** x + 2 ** y) / sympy.log(2),
    "neg": operator.neg, "pos": operator.pos, "add": operator.add, "sub": operator.sub,
    "mul": operator.mul, "div": operator.truediv, "mod": lambda x, y: x - y * Floor(x / y),
    "min": None, "max": None, "fmin": None, "fmax": None,  # decided at the point: pick
    "clip": None,  # max, then min: see Interpreter.pick
    "lgamma": LogAbsGamma, "gamma": sympy.gamma, "factorial": sympy.factorial,
    "comb": sympy.binomial, "perm": lambda n, k=None: sympy.factorial(n) if k is None else (
        sympy.ff(n, k)), "isnan": _numeric("IsNan", math.isnan),
    "isinf": _numeric("IsInf", math.isinf), "isfinite": _numeric("IsFinite", math.isfinite),
    "isclose": _isclose, "ulp": _numeric("Ulp", math.ulp),
    "nextafter": _numeric("NextAfter", getattr(math, "nextafter", None),
                          (lambda x, y: sympy.S.One, lambda x, y: sympy.S.Zero)),
    "ldexp": lambda x, i: x * 2 ** i, "remainder": lambda x, y: x - y * Round(x / y),
    "fma": lambda x, y, z: x * y + z, "fsum": lambda xs: sympy.Add(*xs),
    "frexp": lambda x: (x * 2 ** -_Exponent(x), _Exponent(x)),
    "modf": lambda x: (x - Trunc(x), Trunc(x)),
    "divmod": lambda x, y: (Floor(x / y), x - y * Floor(x / y)),
    "prod": lambda xs, start=sympy.S.One: sympy.Mul(start, *xs),
    "dist": lambda p, q: sympy.sqrt(sympy.Add(*[(a - b) ** 2 for a, b in zip(p, q)])),
    "sumprod": lambda p, q: sympy.Add(*[a * b for a, b in zip(p, q)]),
    # scipy.special (its ufuncs by their own names) and scipy.stats.norm
    "gammaln": LogAbsGamma, "psi": lambda x: sympy.polygamma(0, x),
    "expit": lambda x: 1 / (1 + sympy.exp(-x)), "log_expit": lambda x: -sympy.log(1 + sympy.exp(-x)),
    "logit": lambda x: sympy.log(x / (1 - x)),
    "xlogy": lambda x, y: x * sympy.log(y), "xlog1py": lambda x, y: x * sympy.log(1 + y),
    "zeta": lambda s, x: sympy.zeta(s, x),  # Hurwitz's: d/dx is -s * zeta(s + 1, x)
    "ndtr": _ndtr, "log_ndtr": lambda x: sympy.log(_ndtr(x)),
    "ndtri": lambda x: _SQRT2 * sympy.erfinv(2 * x - 1),
    **{f"norm_{method}": _normal(method)
       for method in ("cdf", "sf", "pdf", "logpdf", "logcdf", "ppf")},
}
_KEYWORDS = ("isclose", "prod") + tuple(f"norm_{m}" for m in ("cdf", "sf", "pdf", "logpdf", "logcdf",
                                                          "ppf"))
_PRIMITIVES.update(_STATISTICS)
_OF_POINTS = ("fsum", "prod", "dist", "sumprod") + tuple(_STATISTICS)  # of lists of numbers
_BY_OBJECT = {getattr(math, name): name for name in _PRIMITIVES if hasattr(math, name)}
_BY_OBJECT.update({getattr(statistics, name[5:]): name for name in _STATISTICS})
_BY_OBJECT.update({getattr(operator, name): op for name, op in (  # as values: ``op = mul``
    ("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div"), ("pow", "pow"),
    ("mod", "mod"), ("floordiv", "floordiv"), ("neg", "neg"), ("pos", "pos"))})
_BY_OBJECT.update({abs: "abs", pow: "pow", float: "float", int: "int", round: "round",
                   min: "min", max: "max", divmod: "divmod",
                   markers.stop_gradient: "stop_gradient"})
_NUMPY_NAMES = {
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2",
    "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "power": "pow",
    "float_power": "pow", "absolute": "abs", "minimum": "min", "maximum": "max",
    "rad2deg": "degrees", "deg2rad": "radians", "negative": "neg", "positive": "pos",
    "subtract": "sub", "multiply": "mul", "divide": "div", "true_divide": "div",
    "remainder": "mod", "floor_divide": "floordiv",
}
_OPERATORS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Pow: operator.pow, ast.FloorDiv: lambda a, b: Floor(a / b),
    ast.Mod: lambda a, b: a - b * Floor(a / b), ast.USub: operator.neg, ast.UAdd: operator.pos,
}
_COMPARISONS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
                ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}


def _primitive_name(func):
    """The ``_PRIMITIVES`` name of a math function, builtin or numpy ufunc, else None."""
    try:
        name = _BY_OBJECT.get(func)
    except TypeError:  # unhashable, so not a primitive
        return None
    numpy = sys.modules.get("numpy")  # imported already if the user's code uses it
    if name is None and numpy is not None and isinstance(func, numpy.ufunc):
        name = _NUMPY_NAMES.get(func.__name__, func.__name__)
    elif name is None and numpy is not None:
        name = next((n for n in ("clip", "sinc") if func is getattr(numpy, n, None)), None)
        # plain functions in numpy, not ufuncs
    if name is None and _is_norm(getattr(func, "__self__", None)):
        name = f"norm_{func.__name__}"
    return name if name in _PRIMITIVES else None


def _is_norm(obj):
    stats = sys.modules.get("scipy.stats")
    return obj is not None and stats is not None and obj is getattr(stats, "norm", None)

