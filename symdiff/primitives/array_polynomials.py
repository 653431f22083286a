"""NumPy's polynomials of coefficient vectors as records: ``numpy.polyval(p, x)`` and
``numpy.polyder(p)``.

Expects argument types of ``symdiff.core.types``: ``p`` a vector of coefficients, the
highest power first (as NumPy orders them), ``x`` a number or an array of any number of
axes.  Guarantees ``RECORDS``, the records ``polyval`` and ``polyder`` with their type
rules and VJP and JVP builders, in NumPy a person would write:

    y = np.polyval(p, x)    dx = g * np.polyval(np.polyder(p), x)
      (x a vector)          dp = g @ x[:, None] ** np.arange(p.size)[::-1]
      (x a number)          dp = g * x ** np.arange(p.size)[::-1]
      (x of k axes)         dp = np.tensordot(g, x[:, :, None] ** ..., axes=k)
    dy (forward)            np.polyval(dp, x) + dx * np.polyval(np.polyder(p), x)
    d = np.polyder(p)       dp = np.append(g * (g.size - np.arange(g.size)), 0.0)

``polyval`` is linear in ``p`` (its tangent is ``polyval`` of the tangent), ``polyder``
linear in its operand.  A float32 operand's adjoint is float32: ``polyder`` of any
coefficients is float64 (NumPy multiplies them by int64 powers), so what it reaches is
cast back.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import numpy_name
from symdiff.primitives.record import table
from symdiff.primitives.tangents import Linear, linear


def _coefficients(kind):
    return isinstance(kind, t.Array) and kind.ndim == 1


def evaluated(args, consts):
    """``polyval(p, x)``: of ``x``'s shape (NumPy's float for a number), of the widest
    float dtype of the two."""
    if len(args) != 2 or not _coefficients(args[0]):
        return None
    p, x = args
    if t.is_number(x):
        return t.NUMPY_FLOAT
    if not isinstance(x, t.Array):
        return None
    return t.Array(t.broadcast((p, x)).dtype, x.ndim, x.unit_axes)


def differentiated(args, consts):
    """``polyder(p)`` (``m=1``): a vector, float64 whatever ``p``'s dtype."""
    m = consts[1] if len(consts) > 1 else 1
    if not args or not _coefficients(args[0]) or m != 1:
        return None
    return t.Array("float64", 1, ())


def _as(term, dtype, names):
    """``term.astype(numpy.<dtype>)``."""
    return ex.Call(ex.Attribute(term, "astype"), (ex.Attribute(numpy_name(names), dtype),), ())


def _dtype(kind):
    return kind.dtype if isinstance(kind, t.Array) else "float64"


_SLOPE = "numpy.polyval(numpy.polyder(p), x)"
_POWERS = "numpy.arange(p.size)[::-1]"


@dataclass(frozen=True)
class _ByCoefficients:
    """``polyval``'s adjoint of ``p``: ``g`` times the powers of ``x`` each coefficient
    multiplies, summed over ``x``'s elements (``x``'s axes contracted with ``g``'s), in
    ``p``'s dtype (a float32 ``x`` to int64 powers is float64)."""

    x: object  # x's type
    dtype: str  # p's

    def __call__(self, g, args, out, names):
        p, x = args
        ndim = self.x.ndim if isinstance(self.x, t.Array) else 0
        if not ndim:
            term = _text(f"g * x ** {_POWERS}", names, g=g, x=x, p=p)
        else:
            column = ", ".join([":"] * ndim + ["None"])  # ``x[:, None]``
            powers = _text(f"x[{column}] ** {_POWERS}", names, x=x, p=p)
            term = _text("g @ w" if ndim == 1 else f"numpy.tensordot(g, w, axes={ndim})",
                         names, g=g, w=powers)
        return term if self.dtype == "float64" else _as(term, self.dtype, names)


@dataclass(frozen=True)
class _ByPoint:
    """``polyval``'s adjoint (``tangent``: its tangent) of ``x``: ``g`` times the
    derivative polynomial at ``x``, in ``dtype`` (x's, or the result's) where that is
    float32."""

    dtype: str

    def __call__(self, g, args, out, names):
        p, x = args
        term = _text(f"g * {_SLOPE}", names, g=g, p=p, x=x)
        return term if self.dtype == "float64" else _as(term, self.dtype, names)


def _polyval_vjp(args, out):
    p, x = args
    return (_ByCoefficients(x, p.dtype), _ByPoint(_dtype(x)) if isinstance(
        x, t.Array) or t.is_number(x) else None)


def _polyval_jvp(args, out):
    return (Linear("numpy.polyval(p, x)", ("p", "x"), 0), _ByPoint(_dtype(out)))


@dataclass(frozen=True)
class _Derived:
    """``polyder``'s adjoint: ``g`` times the power each coefficient was multiplied by,
    the constant term's zero appended, in ``p``'s dtype."""

    dtype: str

    def __call__(self, g, args, out, names):
        term = _text("numpy.append(g * (g.size - numpy.arange(g.size)), 0.0)", names, g=g)
        return term if self.dtype == "float64" else _as(term, self.dtype, names)


RECORDS = table(
    _array("polyval", "numpy.polyval(p, x)", ("p", "x"), evaluated, _polyval_vjp,
           numpy=("polyval",), total=True, jvp=_polyval_jvp),
    _array("polyder", "numpy.polyder(p, m=m)", ("p", "m"), differentiated,
           lambda args, out: (_Derived(args[0].dtype), None), defaults=(1,), ints=("m",),
           numpy=("polyder",), total=True, jvp=linear()),
)

METHODS = {}
STATICS = {"polyder": {"m": "one"}}
HINTS = {"polyval": "it takes a vector of coefficients (an array, the highest power "
                    "first) and a number or an array",
         "polyder": "it takes a vector of coefficients (an array) and m=1 (the first "
                    "derivative)"}
