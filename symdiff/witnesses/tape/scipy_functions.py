"""The tape versions of SciPy's ``special`` functions and ``stats.norm``'s methods.

Expects SciPy to have been imported by the user's code (nothing here imports it): the
values are computed by SciPy, the local derivatives are written here.  Guarantees one
function per name in ``__all__``, ``norm`` (``cdf``, ``sf``, ``pdf``, ``logpdf``,
``logcdf``, ``ppf`` with ``loc`` and ``scale`` by position or keyword) and
``special_stand_ins(special)``: name -> the stand-in for ``scipy.special.<name>``.
A ``scale <= 0`` gives ``nan`` (SciPy's value) and derivative ``nan``.

    expit(Value(0.0))             value 0.5, derivative 0.25
    norm.cdf(Value(0.0))          value 0.5, derivative 1 / sqrt(2 pi)
"""

import math
import sys

from symdiff.witnesses.tape import polygamma
from symdiff.witnesses.tape.math_functions import _TWO_OVER_SQRT_PI
from symdiff.witnesses.tape.value import _binary, _data, _div, _record, _unary

__all__ = ["expit", "log_expit", "logit", "gammaln", "digamma", "xlogy", "xlog1py", "zeta",
           "ndtr", "log_ndtr", "ndtri", "norm"]

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def _special(name):
    return getattr(sys.modules["scipy.special"], name)


def _scipy_unary(name, derivative):
    def function(x):
        return _unary(x, lambda v: _special(name)(v), derivative)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``scipy.special.{name}`` on a Value or a number."
    return function


def _log_or(x, zero):
    return math.log(x) if x > 0 else zero if x == 0 else math.nan


expit = _scipy_unary("expit", lambda x, y: y * (1.0 - y))
log_expit = _scipy_unary("log_expit", lambda x, y: (
    1.0 / (1.0 + math.exp(x)) if x < 0 else math.exp(-x) / (1.0 + math.exp(-x))))
logit = _scipy_unary("logit", lambda x, y: 1.0 / (x - x * x) if 0.0 < x < 1.0 else math.nan)
gammaln = _scipy_unary("gammaln", lambda x, y: polygamma.digamma(x))
digamma = _scipy_unary("digamma", lambda x, y: polygamma.trigamma(x))
ndtr = _scipy_unary("ndtr", lambda x, y: _INV_SQRT_2PI * math.exp(-x * x / 2.0))
log_ndtr = _scipy_unary("log_ndtr", lambda x, y: _INV_SQRT_2PI * math.exp(-x * x / 2.0 - y))
ndtri = _scipy_unary("ndtri", lambda x, y: _exp_half_square(y) / _INV_SQRT_2PI)


def _exp_half_square(z):
    """``exp(z * z / 2)``, ``inf`` where it overflows."""
    return math.inf if abs(z) > 37.7 else math.exp(z * z / 2.0)


def xlogy(x, y):
    """``x * log(y)``, 0 where ``x == 0``: partials ``log(y)`` and ``x / y``."""
    def partials(x, y, out):
        return _log_or(y, -math.inf), (_div(x, y) if y else 0.0 if x == 0 else
                                       math.copysign(math.inf, x))
    return _binary(x, y, lambda a, b: _special("xlogy")(a, b), partials)


def zeta(s, x):
    """The Hurwitz zeta ``sum_k (x + k) ** -s``: d/dx is ``-s * zeta(s + 1, x)``; d/ds
    (no SciPy function gives it) is ``nan``, never a number that looks right."""
    def partials(s, x, out):
        return math.nan, -s * _special("zeta")(s + 1.0, x)
    return _binary(s, x, lambda a, b: _special("zeta")(a, b), partials)


def xlog1py(x, y):
    """``x * log1p(y)``, 0 where ``x == 0``: partials ``log1p(y)`` and ``x / (1 + y)``."""
    def partials(x, y, out):
        return _log_or(1.0 + y, -math.inf) if y != -1.0 else -math.inf, (
            _div(x, 1.0 + y) if y != -1.0 else 0.0 if x == 0 else math.copysign(math.inf, x))
    return _binary(x, y, lambda a, b: _special("xlog1py")(a, b), partials)


class _Normal:
    """``scipy.stats.norm`` for copied code: its methods on Values, with ``loc`` and ``scale``
    by position or keyword; computed by SciPy."""

    @staticmethod
    def _call(method, x, loc, scale, partials):
        args = (x, loc, scale)
        norm = sys.modules["scipy.stats"].norm
        out = getattr(norm, method)(*[_data(a) for a in args])

        def local():
            a, m, s = (_data(v) for v in args)
            if not s > 0:
                return (math.nan,) * 3
            return partials((a - m) / s, s, out)
        return _record(out, args, local)

    def cdf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            d = _INV_SQRT_2PI * math.exp(-z * z / 2.0) / s
            return d, -d, -z * d
        return self._call("cdf", x, loc, scale, partials)

    def sf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            d = _INV_SQRT_2PI * math.exp(-z * z / 2.0) / s
            return -d, d, z * d
        return self._call("sf", x, loc, scale, partials)

    def pdf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            return -z * out / s, z * out / s, (z * z - 1.0) * out / s
        return self._call("pdf", x, loc, scale, partials)

    def logpdf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            return -z / s, z / s, (z * z - 1.0) / s
        return self._call("logpdf", x, loc, scale, partials)

    def logcdf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            d = _INV_SQRT_2PI * math.exp(-z * z / 2.0 - out) / s
            return d, -d, -z * d
        return self._call("logcdf", x, loc, scale, partials)

    def ppf(self, q, loc=0.0, scale=1.0):
        def partials(z, s, out):
            z = (out - _data(loc)) / s
            return s * _exp_half_square(z) / _INV_SQRT_2PI, 1.0, z
        return self._call("ppf", q, loc, scale, partials)


norm = _Normal()
_SCIPY_SPECIAL = ("erf", "erfc", "expit", "log_expit", "logit", "gammaln", "digamma", "psi",
                  "xlogy", "xlog1py", "zeta", "ndtr", "log_ndtr", "ndtri")


def _special_stand_in(name):
    if name in ("erf", "erfc"):  # math's derivative, scipy's value
        derivative = {"erf": 1.0, "erfc": -1.0}[name] * _TWO_OVER_SQRT_PI
        return _scipy_unary(name, lambda x, y: derivative * math.exp(-x * x))
    return globals()["digamma" if name == "psi" else name]


def special_stand_ins(special):
    """name -> the tape's stand-in for ``scipy.special.<name>``, for those SciPy has."""
    return {name: _special_stand_in(name) for name in _SCIPY_SPECIAL if hasattr(special, name)}
