"""The tape versions of ``math``'s functions, with their local derivatives.

Expects Values or plain numbers (then each function is just ``math``'s).  Guarantees one
function per ``math`` function the tape differentiates, named as in ``math``, raising
where ``math`` raises; each states its derivative here, in terms of its argument ``x``
and its value ``y``, and notes it in ``PARTIALS`` for numpy's spellings to reuse.

    sin(Value(0.5))        value math.sin(0.5), derivative math.cos(0.5)
    floor(Value(2.5))      the plain int 2: derivative 0
    hypot(Value(0.0), 0.0) value 0.0, partial 0 at the origin (like abs)
"""

import math

from symdiff.witnesses.tape import polygamma
from symdiff.witnesses.tape.value import (
    Value,
    _binary,
    _data,
    _div,
    _offer,
    _partials,
    _partials_of,
    _power_partials,
    _record,
    _sign,
    _unary,
)

__all__ = [
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt",
    "pow", "hypot", "fabs", "erf", "erfc", "floor", "ceil", "fmod", "copysign",
    "degrees", "radians", "cbrt", "exp2", "lgamma", "gamma", "ldexp", "remainder", "nextafter",
    "fsum", "prod", "dist", "sumprod", "fma", "frexp", "modf",
]

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _define(name, derivative):
    """The tape version of ``math.<name>``; ``derivative(x, y)`` is dy/dx at y = f(x)."""
    forward = getattr(math, name)
    _partials(name, derivative)

    def function(x):
        return _unary(x, forward, derivative)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``math.{name}`` on a Value or a number."
    return function


sin = _define("sin", lambda x, y: math.cos(x))
cos = _define("cos", lambda x, y: -math.sin(x))
tan = _define("tan", lambda x, y: 1.0 + y * y)
asin = _define("asin", lambda x, y: _div(1.0, math.sqrt((1.0 - x) * (1.0 + x))))
acos = _define("acos", lambda x, y: _div(-1.0, math.sqrt((1.0 - x) * (1.0 + x))))
atan = _define("atan", lambda x, y: 1.0 / (1.0 + x * x))
sinh = _define("sinh", lambda x, y: math.cosh(x))
cosh = _define("cosh", lambda x, y: math.sinh(x))
tanh = _define("tanh", lambda x, y: 1.0 - y * y)
asinh = _define("asinh", lambda x, y: 1.0 / math.sqrt(x * x + 1.0))
acosh = _define("acosh", lambda x, y: _div(1.0, math.sqrt((x - 1.0) * (x + 1.0))))
atanh = _define("atanh", lambda x, y: 1.0 / ((1.0 - x) * (1.0 + x)))
exp = _define("exp", lambda x, y: y)
expm1 = _define("expm1", lambda x, y: y + 1.0)
log1p = _define("log1p", lambda x, y: _div(1.0, 1.0 + x))
log2 = _define("log2", lambda x, y: _div(1.0, x * math.log(2.0)))
log10 = _define("log10", lambda x, y: _div(1.0, x * math.log(10.0)))
sqrt = _define("sqrt", lambda x, y: _div(0.5, y))
fabs = _define("fabs", lambda x, y: _sign(x))
erf = _define("erf", lambda x, y: _TWO_OVER_SQRT_PI * math.exp(-x * x))
erfc = _define("erfc", lambda x, y: -_TWO_OVER_SQRT_PI * math.exp(-x * x))


def floor(x):
    """``math.floor``: a plain int, so its derivative is 0."""
    return math.floor(_data(x))


def ceil(x):
    """``math.ceil``: a plain int, so its derivative is 0."""
    return math.ceil(_data(x))


def log(x, base=None):
    """``math.log(x)`` or ``math.log(x, base)``."""
    if base is None:
        return _unary(x, math.log, _log_derivative)
    return _binary(x, base, math.log, lambda x, b, y: (
        _div(1.0, x * math.log(b)), _div(-y, b * math.log(b))))


_log_derivative = _partials("log", lambda x, y: _div(1.0, x))


def atan2(y, x):
    """``math.atan2(y, x)``; both partials are nan at the origin."""
    return _binary(y, x, math.atan2, _atan2_partials)


@_partials_of("atan2")
def _atan2_partials(y, x, out):
    h = math.hypot(x, y)
    return (x / h / h, -y / h / h) if h else (math.nan, math.nan)


def fmod(x, y):
    """``math.fmod``: partials 1 and ``-trunc(x / y)``."""
    return _binary(x, y, math.fmod, _fmod_partials)


@_partials_of("fmod")
def _fmod_partials(x, y, out):
    q = x / y if y else math.nan  # fmod(x, 0) succeeds only for x = nan
    return 1.0, -(q if math.isinf(q) or math.isnan(q) else float(math.trunc(q)))


def copysign(x, y):
    """``math.copysign``: the magnitude of ``x`` with the sign of ``y``; ±1 in ``x``
    (1 when the two signs agree), 0 in ``y``."""
    return _binary(x, y, math.copysign, _copysign_partials)


@_partials_of("copysign")
def _copysign_partials(x, y, out):
    return (1.0 if (x >= 0) == (math.copysign(1.0, y) > 0) else -1.0), 0.0


degrees = _define("degrees", lambda x, y: 180.0 / math.pi)
radians = _define("radians", lambda x, y: math.pi / 180.0)


def cbrt(x):
    """The real cube root (``math.cbrt`` from Python 3.11); derivative ``inf`` at 0."""
    def forward(x):  # before 3.11: not always the nearest float, but close
        return math.copysign(abs(x) ** (1.0 / 3.0), x)
    return _unary(x, getattr(math, "cbrt", forward), _cbrt_derivative)


_cbrt_derivative = _partials("cbrt", lambda x, y: _div(1.0, 3.0 * y * y))


def exp2(x):
    """``2 ** x`` (``math.exp2`` from Python 3.11); derivative ``2 ** x * ln 2``."""
    return _unary(x, getattr(math, "exp2", lambda x: 2.0 ** x), _exp2_derivative)


_exp2_derivative = _partials("exp2", lambda x, y: y * math.log(2.0))


def pow(x, y):
    """``math.pow``: ``x ** y`` with ``math``'s errors (``ValueError`` for ``0 ** -1``)."""
    return _binary(x, y, math.pow, _power_partials)


_partials("pow", _power_partials)


def hypot(*coordinates):
    """``math.hypot`` of any number of coordinates; partials 0 at the origin."""
    data = [_data(c) for c in coordinates]
    h = math.hypot(*data)
    edges = ()
    for c, d in zip(coordinates, data):
        if isinstance(c, Value):
            edges += (c, _hypot_partial(d, h))
    return Value(h, edges) if edges else h


_hypot_partial = _partials("hypot", lambda x, h: x / h if h else 0.0)  # by one coordinate


# the gamma family, and math's other functions of numbers

lgamma = _define("lgamma", lambda x, y: polygamma.digamma(x))
gamma = _define("gamma", lambda x, y: y * polygamma.digamma(x))


def ldexp(x, i):
    """``x * 2 ** i``: derivative ``2 ** i`` in ``x``; ``i`` is an integer."""
    return _unary(x, lambda x: math.ldexp(x, i), lambda x, y: math.ldexp(1.0, i))


def remainder(x, y):
    """IEEE remainder ``x - n * y``, ``n`` the nearest integer to ``x / y``: partials 1, ``-n``."""
    def partials(x, y, r):
        n = (x - r) / y
        return 1.0, -(float(round(n)) if math.isfinite(n) else n)
    return _binary(x, y, math.remainder, partials)


def nextafter(x, y):
    """The float after ``x`` toward ``y``: ``x`` plus a step that is constant nearby."""
    return _binary(x, y, math.nextafter, lambda x, y, out: (1.0, 0.0))


def frexp(x):
    """``(m, e)`` with ``x = m * 2 ** e``: ``m`` has derivative ``2 ** -e`` (1 at 0), ``e``
    none."""
    m, e = math.frexp(_data(x))
    return (Value(m, (x, _div(m, _data(x)) if _data(x) else 1.0)) if isinstance(x, Value)
            else m), e


def modf(x):
    """``(x - trunc(x), trunc(x))``: derivatives 1 and 0."""
    fraction, whole = math.modf(_data(x))
    return (Value(fraction, (x, 1.0)) if isinstance(x, Value) else fraction), whole


def fsum(values):
    """``math.fsum`` of Values and numbers: every partial is 1."""
    values = list(values)
    return _record(math.fsum([_data(v) for v in values]), values, lambda: [1.0] * len(values))


def prod(values, *, start=1):
    """``math.prod`` of Values and numbers: the partial by each factor (``start`` among them)
    is the product of the others, from products before and after it (exact at zeros)."""
    factors = [start] + list(values)
    numbers = [_data(v) for v in factors]

    def partials():
        before, after = [1] * (len(numbers) + 1), [1] * (len(numbers) + 1)
        for i, n in enumerate(numbers):
            before[i + 1] = before[i] * n
        for i in range(len(numbers) - 1, -1, -1):
            after[i] = after[i + 1] * numbers[i]
        return [before[i] * after[i + 1] for i in range(len(numbers))]
    return _record(math.prod(numbers[1:], start=numbers[0]), factors, partials)


def dist(p, q):
    """``math.dist(p, q)``: partials ``(p_i - q_i) / out`` and their negatives, 0 if p == q."""
    p, q = list(p), list(q)
    a, b = [_data(v) for v in p], [_data(v) for v in q]
    out = math.dist(a, b)
    return _record(out, p + q, lambda: [_div(u - v, out) if out else 0.0 for u, v in zip(a, b)]
                   + [_div(v - u, out) if out else 0.0 for u, v in zip(a, b)])


def sumprod(p, q):
    """``math.sumprod(p, q)`` (Python 3.12): partials ``q_i`` and ``p_i``."""
    p, q = list(p), list(q)
    a, b = [_data(v) for v in p], [_data(v) for v in q]
    return _record(math.fsum(u * v for u, v in zip(a, b)) if not hasattr(math, "sumprod")
                   else math.sumprod(a, b), p + q, lambda: b + a)


def fma(x, y, z):
    """``x * y + z`` rounded once (Python 3.13): partials ``y``, ``x``, 1."""
    args = (x, y, z)
    a, b, c = (_data(v) for v in args)
    return _record(math.fma(a, b, c), args, lambda: (b, a, 1.0))


_offer(tanh=tanh, exp=exp, log=log, sin=sin, cos=cos, sqrt=sqrt)  # a Value's methods
