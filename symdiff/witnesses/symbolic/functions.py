"""The sympy functions the witness needs that sympy lacks, or has with another meaning.

Expects sympy.  Guarantees sympy ``Function`` classes for Python's piecewise-constant
functions (``Floor``, ``Ceiling``, ``Trunc``, ``Round``, ``Sign``, ``Signum``, ``Step``: derivative 0
between the jumps), ``RealAbs`` (derivative ``sign``, 0 at 0), ``LogAbsGamma`` (real for
negative x too), ``StopGradient`` (the value, with a constant's derivative), functions
computed by Python on numbers (``_numeric``), and the normal distribution's expressions.
Every derivative is sympy's, or stated here.

    Floor(x).diff(x)    -> 0          RealAbs(x).diff(x)     -> sign(x)
    Round(2.5)          -> 2          StopGradient(x).diff(x) -> 0
"""

import math

import sympy
from mpmath.libmp import prec_to_dps

from symdiff.witnesses.symbolic.values import _outside_value


class StopGradient(sympy.Function):
    """``stop_gradient(e)``: the value of ``e`` with the derivative of a constant."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number:
            return arg

    def fdiff(self, argindex=1):
        return sympy.S.Zero

    def doit(self, **hints):
        return self.args[0].doit(**hints) if hints.get("deep", True) else self.args[0]

    def _eval_evalf(self, prec):
        return self.args[0].evalf(prec_to_dps(prec))


class _Flat:
    """Piecewise-constant functions: derivative 0 away from the jumps."""

    def fdiff(self, argindex=1):
        return sympy.S.Zero


class Floor(_Flat, sympy.floor):
    """``math.floor``, and the floor inside ``//`` and ``%``."""


class Ceiling(_Flat, sympy.ceiling):
    """``math.ceil``."""


class Trunc(_Flat, sympy.Function):
    """``int(x)``, ``math.trunc``: rounding toward zero."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number and arg.is_finite:
            return sympy.Integer(int(arg))


class Sign(_Flat, sympy.Function):
    """``math.copysign(1.0, y)``: 1 or -1, never 0."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number:
            return sympy.Integer(1 if arg >= 0 else -1)


class Signum(_Flat, sympy.Function):
    """``numpy.sign``: 1, 0 or -1."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number:
            return sympy.Integer(1 if arg > 0 else -1 if arg < 0 else 0)


class Step(_Flat, sympy.Function):
    """``numpy.heaviside(x, h)``: 0 below 0, 1 above, ``h`` at 0; derivative 0 in both."""

    nargs = 2

    @classmethod
    def eval(cls, arg, at_zero):
        if arg.is_Number:
            return sympy.Integer(1 if arg > 0 else 0) if arg else at_zero


class Round(_Flat, sympy.Function):
    """``round(x)`` and ``round(x, n)``: Python's rounding, ties to even."""

    @classmethod
    def eval(cls, arg, digits=None):
        if arg.is_Number and (digits is None or digits.is_Integer):
            if digits is None:
                return sympy.Integer(round(float(arg)))
            return sympy.Float(round(float(arg), int(digits)))


class RealAbs(sympy.Function):
    """``abs`` of a real: derivative ``sign``, 0 at 0 (sympy's ``Abs`` detours via re/im)."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number:
            return abs(arg)

    def fdiff(self, argindex=1):
        return sympy.sign(self.args[0])


class LogAbsGamma(sympy.Function):
    """``math.lgamma``, ``scipy.special.gammaln``: log |Gamma(x)|, real for negative x too
    (sympy's ``loggamma`` is complex there); its derivative is digamma."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number and arg > 0:
            return sympy.loggamma(arg)
        if arg.is_Number and not arg.is_integer:
            return sympy.log(abs(sympy.gamma(arg)))

    def fdiff(self, argindex=1):
        return sympy.polygamma(0, self.args[0])


def _numeric(name, compute, derivatives=None):
    """A sympy function that is ``compute`` on numbers; its derivative by each argument is
    ``derivatives[i](*args)``, or 0 with no ``derivatives`` (a test, an integer function)."""
    def eval(cls, *args):
        if all(arg.is_Number for arg in args):
            return _outside_value(compute(*[int(a) if a.is_Integer else float(a) for a in args]))

    def fdiff(self, argindex=1):
        return derivatives[argindex - 1](*self.args) if derivatives else sympy.S.Zero
    return type(name, (sympy.Function,), {"eval": classmethod(eval), "fdiff": fdiff})


def _isclose(a, b, rel_tol=sympy.Float(1e-09), abs_tol=sympy.S.Zero):
    return _IsClose(a, b, rel_tol, abs_tol)


_Exponent = _numeric("Exponent", lambda x: math.frexp(x)[1])  # of math.frexp: no derivative
_IsClose = _numeric("IsClose", lambda a, b, r, t: math.isclose(a, b, rel_tol=r, abs_tol=t))
_SQRT2 = sympy.sqrt(2)


def _ndtr(z):
    return (1 + sympy.erf(z / _SQRT2)) / 2


def _normal(method):
    """``scipy.stats.norm.<method>(x, loc=0, scale=1)`` as an expression."""
    def build(x=None, loc=sympy.S.Zero, scale=sympy.S.One, q=None):  # ppf's first is q
        x = q if x is None else x
        z = (x - loc) / scale
        pdf = sympy.exp(-z ** 2 / 2) / (sympy.sqrt(2 * sympy.pi) * scale)
        return {"cdf": lambda: _ndtr(z), "sf": lambda: _ndtr(-z), "pdf": lambda: pdf,
                "logpdf": lambda: -z ** 2 / 2 - sympy.log(sympy.sqrt(2 * sympy.pi) * scale),
                "logcdf": lambda: sympy.log(_ndtr(z)),
                "ppf": lambda: loc + scale * _SQRT2 * sympy.erfinv(2 * x - 1)}[method]()
    return build

