"""NumPy's elementwise functions (ufuncs) on ArrayValues, with NumPy broadcasting.

Expects ArrayValues, Values and plain data mixed (numpy imported by the user).  Guarantees
``UFUNCS``: a ufunc's name -> the tape's version, for NumPy's and SciPy's ufuncs the tape
differentiates; each states its local derivatives here, elementwise, in terms of its
arguments and its value ``y``.  The VJP of an operand that broadcasting stretched is the
sum over the stretched axes (``arrays.unbroadcast``).  The selections (``maximum``,
``minimum``, ``fmax``, ``fmin``) pass the gradient to the argument NumPy returns, the
first one on a tie (as the scalar tape); the piecewise-constant ufuncs (``floor``,
``sign``...) and the tests (``less``, ``isnan``...) return plain arrays: derivative 0.

    exp(x)       y = exp(x), local derivative y
    x * b        for x: g * b summed to x's shape; for b: g * x summed to b's shape
    maximum(x, 0.0)  g where x >= 0, else 0

Conventions as the scalar tape's: ``abs`` has derivative 0 at 0, ``sqrt`` ``inf`` at 0,
``x ** p`` 0 for ``p == 0`` and, with respect to ``p``, 0 at ``x == 0`` and ``nan`` for
``x < 0``.  NumPy's warnings are silenced, as they are for the scalar stand-ins.
"""

import math
import sys

from symdiff.witnesses.tape.arrays import lift, numpy, offer, record, unbroadcast

_LN2, _LN10 = math.log(2.0), math.log(10.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def _special(name):
    return getattr(sys.modules["scipy.special"], name)


# name -> dy/dx as (np, x, y) -> array
_UNARY = {
    "exp": lambda np, x, y: y,
    "exp2": lambda np, x, y: y * _LN2,
    "expm1": lambda np, x, y: y + 1.0,
    "log": lambda np, x, y: 1.0 / x,
    "log2": lambda np, x, y: 1.0 / (x * _LN2),
    "log10": lambda np, x, y: 1.0 / (x * _LN10),
    "log1p": lambda np, x, y: 1.0 / (1.0 + x),
    "sqrt": lambda np, x, y: 0.5 / y,
    "cbrt": lambda np, x, y: 1.0 / (3.0 * y * y),
    "sin": lambda np, x, y: np.cos(x),
    "cos": lambda np, x, y: -np.sin(x),
    "tan": lambda np, x, y: 1.0 + y * y,
    "arcsin": lambda np, x, y: 1.0 / np.sqrt((1.0 - x) * (1.0 + x)),
    "arccos": lambda np, x, y: -1.0 / np.sqrt((1.0 - x) * (1.0 + x)),
    "arctan": lambda np, x, y: 1.0 / (1.0 + x * x),
    "sinh": lambda np, x, y: np.cosh(x),
    "cosh": lambda np, x, y: np.sinh(x),
    "tanh": lambda np, x, y: 1.0 - y * y,
    "arcsinh": lambda np, x, y: 1.0 / np.sqrt(x * x + 1.0),
    "arccosh": lambda np, x, y: 1.0 / np.sqrt((x - 1.0) * (x + 1.0)),
    "arctanh": lambda np, x, y: 1.0 / ((1.0 - x) * (1.0 + x)),
    "absolute": lambda np, x, y: np.sign(x),
    "fabs": lambda np, x, y: np.sign(x),
    "square": lambda np, x, y: 2.0 * x,
    "reciprocal": lambda np, x, y: -(y * y),
    "negative": lambda np, x, y: -1.0,
    "positive": lambda np, x, y: 1.0,
    "degrees": lambda np, x, y: 180.0 / math.pi,
    "rad2deg": lambda np, x, y: 180.0 / math.pi,
    "radians": lambda np, x, y: math.pi / 180.0,
    "deg2rad": lambda np, x, y: math.pi / 180.0,
    # SciPy's special ufuncs, when the user's code calls them on arrays
    "expit": lambda np, x, y: y * (1.0 - y),
    "log_expit": lambda np, x, y: np.exp(-np.logaddexp(0.0, x)),  # 1 / (1 + exp(x))
    "logit": lambda np, x, y: 1.0 / (x * (1.0 - x)),
    "erf": lambda np, x, y: 2.0 / math.sqrt(math.pi) * np.exp(-x * x),
    "erfc": lambda np, x, y: -2.0 / math.sqrt(math.pi) * np.exp(-x * x),
    "ndtr": lambda np, x, y: _INV_SQRT_2PI * np.exp(-x * x / 2.0),
    "log_ndtr": lambda np, x, y: _INV_SQRT_2PI * np.exp(-x * x / 2.0 - y),
    "ndtri": lambda np, x, y: np.exp(y * y / 2.0) / _INV_SQRT_2PI,
    "gammaln": lambda np, x, y: _special("digamma")(x),
    "digamma": lambda np, x, y: _special("polygamma")(1, x),
}


def _power(np, a, b, y):
    da = np.where(b == 0, 0.0, b * a ** (b - 1.0))
    db = np.where(a > 0, y * np.log(np.where(a > 0, a, 1.0)), np.where(a == 0, 0.0, np.nan))
    return da, db


def _hypot(np, a, b, y):
    safe = np.where(y == 0, 1.0, y)
    return np.where(y == 0, 0.0, a / safe), np.where(y == 0, 0.0, b / safe)


def _copysign(np, a, b, y):
    return np.where(np.signbit(a) == np.signbit(b), 1.0, -1.0), np.zeros(np.shape(b))


# name -> (np, a, b, y) -> (dy/da, dy/db)
_BINARY = {
    "add": lambda np, a, b, y: (1.0, 1.0),
    "subtract": lambda np, a, b, y: (1.0, -1.0),
    "multiply": lambda np, a, b, y: (b, a),
    "divide": lambda np, a, b, y: (1.0 / b, -y / b),
    "power": _power,
    "float_power": _power,
    "arctan2": lambda np, a, b, y: (b / (a * a + b * b), -a / (a * a + b * b)),
    "hypot": _hypot,
    "logaddexp": lambda np, a, b, y: (np.exp(a - y), np.exp(b - y)),
    "logaddexp2": lambda np, a, b, y: (2.0 ** (a - y), 2.0 ** (b - y)),
    "remainder": lambda np, a, b, y: (1.0, -np.floor(a / b)),
    "fmod": lambda np, a, b, y: (1.0, -np.trunc(a / b)),
    "copysign": _copysign,
    "xlogy": lambda np, a, b, y: (np.where(a == 0, 0.0, np.log(b)), a / b),
    "xlog1py": lambda np, a, b, y: (np.where(a == 0, 0.0, np.log1p(b)), a / (1.0 + b)),
    "zeta": lambda np, a, b, y: (np.full_like(y, np.nan), -a * _special("zeta")(a + 1.0, b)),
}

# name -> whether the first argument is returned, given (np, a, b)
_SELECTIONS = {
    "maximum": lambda np, a, b: np.isnan(a) | ~np.isnan(b) & (a >= b),
    "minimum": lambda np, a, b: np.isnan(a) | ~np.isnan(b) & (a <= b),
    "fmax": lambda np, a, b: np.isnan(b) | (a >= b),
    "fmin": lambda np, a, b: np.isnan(b) | (a <= b),
}

_FLAT = ("floor", "ceil", "trunc", "rint", "sign", "heaviside", "floor_divide", "less",
         "less_equal",
         "greater", "greater_equal", "equal", "not_equal", "isnan", "isinf", "isfinite",
         "signbit", "logical_and", "logical_or", "logical_xor", "logical_not")


def unary(ufunc, derivative):
    """The tape's version of the one-argument ``ufunc``."""
    def apply(x):
        np = numpy()
        xd, node = lift(x)
        with np.errstate(all="ignore"):
            y = ufunc(xd)
        if node is None:
            return y

        def vjp(g):
            with np.errstate(all="ignore"):
                return g * derivative(np, xd, y)
        return record(y, (node, vjp))
    return apply


def binary(ufunc, partials):
    """The tape's version of the two-argument ``ufunc``: each operand's VJP is ``g`` times
    its partial, summed back to the operand's shape."""
    def apply(a, b):
        np = numpy()
        (ad, an), (bd, bn) = lift(a), lift(b)
        with np.errstate(all="ignore"):
            y = ufunc(ad, bd)
        edges = ()
        for index, data, node in ((0, ad, an), (1, bd, bn)):
            if node is not None:
                edges += (node, _binary_vjp(np, partials, ad, bd, y, index, np.shape(data)))
        return record(y, edges)
    return apply


def _binary_vjp(np, partials, a, b, y, index, shape):
    def vjp(g):
        with np.errstate(all="ignore"):
            return unbroadcast(g * partials(np, a, b, y)[index], shape)
    return vjp


def selection(ufunc, first):
    """The tape's version of a two-argument selection: the gradient goes, elementwise, to
    the argument ``ufunc`` returns there."""
    def apply(a, b):
        np = numpy()
        (ad, an), (bd, bn) = lift(a), lift(b)
        y = ufunc(ad, bd)
        mask = first(np, ad, bd)
        edges = ()
        if an is not None:
            edges += (an, lambda g: unbroadcast(np.where(mask, g, 0.0), np.shape(ad)))
        if bn is not None:
            edges += (bn, lambda g: unbroadcast(np.where(mask, 0.0, g), np.shape(bd)))
        return record(y, edges)
    return apply


def flat(ufunc):
    """A piecewise-constant ufunc or a test: NumPy's result on the numbers, plain."""
    def apply(*args):
        with numpy().errstate(all="ignore"):
            return ufunc(*(lift(a)[0] for a in args))
    return apply


def ufuncs(np):
    """name -> the tape's version, for NumPy's ufuncs and those of ``scipy.special``."""
    special = sys.modules.get("scipy.special")
    found = lambda name: getattr(np, name, None) or getattr(special, name, None)  # noqa: E731
    table = {}
    for name, derivative in _UNARY.items():
        if found(name) is not None:
            table[name] = unary(found(name), derivative)
    for name, partials in _BINARY.items():
        if found(name) is not None:
            table[name] = binary(found(name), partials)
    for name, first in _SELECTIONS.items():
        table[name] = selection(getattr(np, name), first)
    for name in _FLAT:
        table[name] = flat(getattr(np, name))
    table["true_divide"], table["mod"], table["abs"] = (
        table["divide"], table["remainder"], table["absolute"])
    if "digamma" in table:
        table["psi"] = table["digamma"]     # the name of SciPy's digamma ufunc
    if "zeta" in table:  # SciPy's zeta(s, x), a function, calls its ufunc ``_zeta``
        table["_zeta"] = table["zeta"]
    return table


def _arithmetic(name):
    def apply(*args):
        return ufunc_table()[name](*args)
    return apply


_TABLES = {}  # "ufuncs" -> the table, and "special" -> whether SciPy was in it


def ufunc_table():
    """``ufuncs(numpy)``, made once (and again once SciPy is imported since)."""
    special = "scipy.special" in sys.modules
    if "ufuncs" not in _TABLES or _TABLES["special"] != special:
        _TABLES["ufuncs"], _TABLES["special"] = ufuncs(numpy()), special
    return _TABLES["ufuncs"]


offer(**{name: _arithmetic(name) for name in (
    "add", "subtract", "multiply", "divide", "power", "remainder", "floor_divide",
    "negative", "positive", "absolute")})
