"""More NumPy functions as records: the median and quantiles, the reductions that skip
NaN, ``cross``, ``convolve``/``correlate`` of vectors, ``append``, and ``real``, ``imag``,
``nan_to_num`` and ``atleast_3d`` of float arrays.

Expects argument types of ``symdiff.core.types``; axes, ``keepdims``, a quantile's ``q``
and a convolution's ``mode`` constants (``STATICS``).  Guarantees ``RECORDS``, one array
record each (see ``arrays._array``) with its type rule and its VJP and JVP builders:

    m = np.median(x, axis=0)        ranks = np.argsort(np.argsort(x, axis=0), axis=0)
                                    dx = np.expand_dims(g, 0) * np.maximum(
                                         1.0 - np.abs(ranks - 0.5 * (x.shape[0] - 1)), 0.0)
    s = np.nansum(x)                dx = np.where(np.isnan(x), np.zeros_like(x), g)
    c = np.cross(a, b)              da = np.cross(b, g)      db = np.cross(g, a)
    c = np.convolve(a, v)           da = np.correlate(g, v, mode='valid')
                                    dv = np.correlate(g, a, mode='valid')
    y = np.append(a, b)             da = g[:a.size].reshape(a.shape)
    y = np.nan_to_num(a)            da = np.where(np.isfinite(a), g, 0.0)

Conventions where the derivative is not defined: a quantile's gradient goes to the two
elements it interpolates between, with weights ``1 - f`` and ``f`` (``f`` the fraction
of ``q (n - 1)``), tied elements taking the places NumPy's stable sort gives them, as
``np.sort``'s gradient does (``method='lower'`` or ``'higher'``: all to the one place).
The NaN-skipping reductions (and ``nan_to_num``) give NaN elements (infinite ones) a
zero gradient; ``nanmax`` shares among ties as ``max`` does.  ``cross`` takes vectors of three (along the last axis, the others
broadcast); ``convolve`` and ``correlate`` take vectors, in each of their three modes.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.array_joins import _Part
from symdiff.primitives.array_reductions import _Extreme, _back, _count, _none, _text
from symdiff.primitives.arrays import _array, reduced
from symdiff.primitives.derivatives import is_one
from symdiff.primitives.record import table
from symdiff.primitives.tangents import Contracted, linear

_MODES = ("full", "valid", "same")


# --- the type rules ------------------------------------------------------------------------

def quantiled(args, consts):
    """``quantile``/``percentile`` (``x, q, axis, keepdims``) of one constant ``q``: as a
    reduction of ``x`` over one axis or all."""
    consts = tuple(consts) + (None,) * 4
    return None if isinstance(consts[2], tuple) else reduced(args[:1], (None, consts[2],
                                                                         consts[3]))


def medianed(args, consts):
    """``median`` (``x, axis, keepdims``): as a reduction over one axis or all."""
    consts = tuple(consts) + (None,) * 3
    return None if isinstance(consts[1], tuple) else reduced(args, consts)


def crossed(args, consts):
    """``cross`` of vectors of three along the last axis, the other axes broadcast."""
    if len(args) != 2 or not all(isinstance(a, t.Array) and a.ndim >= 1 for a in args):
        return None
    found = t.broadcast(args)
    return t.Array(found.dtype, found.ndim, tuple(a for a in found.unit_axes
                                                  if a != found.ndim - 1))


def convolved(args, consts):
    """``convolve``/``correlate`` of two vectors, ``mode`` one of NumPy's three."""
    mode = consts[2] if len(consts) > 2 else None
    if len(args) < 2 or mode not in _MODES or not all(
            isinstance(a, t.Array) and a.ndim == 1 for a in args[:2]):
        return None
    return t.Array(t.broadcast(args[:2]).dtype, 1, ())


def appended(args, consts):
    """``append(a, b)``: the flattened two joined (``axis=None``), or ``a`` and ``b`` of
    one number of axes joined along a constant axis."""
    a, b = (tuple(args) + (None, None))[:2]
    axis = consts[2] if len(consts) > 2 else None
    if not isinstance(a, t.Array) or not (isinstance(b, t.Array) or t.is_number(b)):
        return None
    dtype = t.broadcast((a, b)).dtype
    if axis is None:
        return t.Array(dtype, 1, ())
    if not isinstance(b, t.Array) or a.ndim != b.ndim or not -a.ndim <= axis < a.ndim:
        return None
    at = axis % a.ndim
    return t.Array(dtype, a.ndim, tuple(u for u in a.unit_axes if u != at and u in b.unit_axes))


def _floats(args, consts):
    """``real`` of a float array: itself (a complex one is refused, as every complex)."""
    x = args[0] if args else None
    return x if isinstance(x, t.Array) and x.dtype.startswith("float") else None


def deepened(args, consts):
    """``atleast_3d``: a vector ``(n,)`` as ``(1, n, 1)``, a matrix ``(m, n)`` as
    ``(m, n, 1)``, arrays of three axes or more as they are."""
    x = args[0] if args else None
    if not isinstance(x, t.Array) or x.ndim >= 3:
        return x if isinstance(x, t.Array) else None
    units = {0: (0, 1, 2), 1: (0,) + tuple(a + 1 for a in x.unit_axes) + (2,),
             2: tuple(x.unit_axes) + (2,)}[x.ndim]
    return t.Array(x.dtype, 3, units)


# --- the VJP builders ----------------------------------------------------------------------

@dataclass(frozen=True)
class _Quantile:
    """A quantile's adjoint: ``g`` to the elements by their places in sorted order
    (``ranks``, NumPy's stable sort deciding ties): by linear interpolation, the tent
    ``max(1 - |rank - p|, 0)`` around the virtual place ``p = q (n - 1)``, which gives
    ``1 - f`` and ``f`` to the places below and above it; for ``method='lower'``
    (``'higher'``) all of it to the place below (above).  ``at``: the position of
    ``axis`` among the arguments (``keepdims`` after it); ``scale``: what ``q`` is a
    fraction of (100 for a percentile), None for the median (``q`` one half);
    ``narrow``: ``x`` is float32, whose adjoint stays float32."""

    at: int
    scale: float = 1.0
    narrow: bool = False

    def __call__(self, g, args, out, names):
        args = tuple(args) + (ex.Const(None), ex.Const(False), ex.Const("linear"))
        x, axis, keepdims = args[0], args[self.at], args[self.at + 1]
        method = args[self.at + 2].value if self.scale is not None else "linear"
        q = ex.Const(0.5) if self.scale is None else args[1]
        if self.scale not in (None, 1.0):
            q = ex.Const(q.value / self.scale)
        place = _text("q * (n - 1)", names, q=q, n=_count(x, axis, names))
        if _none(axis):
            ranks = _text("numpy.argsort(numpy.argsort(x, axis=None)).reshape(x.shape)",
                          names, x=x)
        else:
            ranks = _text("numpy.argsort(numpy.argsort(x, axis=a), axis=a)", names, x=x,
                          a=axis)
        if method == "linear":
            weights = _text("numpy.maximum(1.0 - numpy.abs(r - p), 0.0)", names, r=ranks,
                            p=place)
        else:
            side = "floor" if method == "lower" else "ceil"
            weights = _text(f"r == numpy.{side}(p)", names, r=ranks, p=place)
        if self.narrow or method != "linear":
            weights = _text("w.astype(x.dtype)", names, w=weights, x=x)
        if is_one(g):  # (a quantile's adjoint seeded by one: its weights alone)
            return weights
        return _text("g * w", names, g=_back(g, axis, keepdims, names), w=weights)


def _quantile_vjp(at, scale, count, tangent=False):
    """The builders of a quantile of ``count`` arguments, by ``x``'s dtype."""
    def build(args, out):
        builder = _Quantile(at, scale, args[0].dtype == "float32")
        if tangent:
            builder = Contracted(builder, at, at + 1)
        return (builder,) + (None,) * (count - 1)
    return build


@dataclass(frozen=True)
class _SkippingNan:
    """``nansum`` (``nanmean``, ``mean``): ``g`` back to every element that is not NaN
    (over their count), zero to those that are."""

    mean: bool

    def __call__(self, g, args, out, names):
        x, axis, keepdims = (tuple(args) + (ex.Const(None), ex.Const(False)))[:3]
        g = _back(g, axis, keepdims, names)
        if self.mean:
            kept = "" if _none(axis) else ", axis=axis"
            g = _text(f"g / numpy.sum(x == x{kept}, keepdims=True, dtype=x.dtype)", names,
                      g=g, x=x, axis=axis)
        return _text("numpy.where(numpy.isnan(x), numpy.zeros_like(x), g)", names, x=x, g=g)


@dataclass(frozen=True)
class _NanContracted(Contracted):
    """The tangent of a reduction skipping NaN: ``Contracted``'s, of the tangent made
    zero where ``x`` is NaN (where an elementwise tangent is NaN too, times zero)."""

    def __call__(self, g, args, out, names):
        g = _text("numpy.where(numpy.isnan(x), 0.0, dx)", names, x=args[0], dx=g)
        return Contracted.__call__(self, g, args, out, names)


_CROSS = ("a", "b")


def _cross_vjp(args, out):
    return (_Texted("numpy.cross(b, g)"), _Texted("numpy.cross(g, a)"))


@dataclass(frozen=True)
class _Texted:
    """A text over ``a``, ``b`` (``v``), ``g`` and constants of the record's own."""

    text: str
    params: tuple = _CROSS

    def __call__(self, g, args, out, names):
        return _text(self.text, names, g=g, **dict(zip(self.params, args)))


def _widths(correlating):
    """The zeros around ``g`` that make it the full result's length (``a``, ``v`` the
    operands): NumPy centres ``valid`` and ``same``, ``same`` rounding towards the front
    for ``convolve``, and for ``correlate`` of a shorter ``a`` towards the back."""
    if correlating:
        return ("(a.size + v.size - 1 - g.size + (a.size < v.size)) // 2",
                "(a.size + v.size - g.size - (a.size < v.size)) // 2")
    return "(a.size + v.size - 1 - g.size) // 2", "(a.size + v.size - g.size) // 2"


@dataclass(frozen=True)
class _Convolution:
    """The adjoint of ``convolve`` (``correlating``: ``correlate``) by operand ``which``
    (0: ``a``, 1: ``v``): ``g`` put back in the full result, then correlated with the
    other operand over the positions the operand's elements reach."""

    which: int
    correlating: bool

    def __call__(self, g, args, out, names):
        a, v, mode = args
        if mode.value != "full":
            before, after = _widths(self.correlating)
            g = _text(f"numpy.pad(g, ({before}, {after}))", names, g=g, a=a, v=v)
        if self.which == 0:
            text = "numpy.convolve(g, v, mode='valid')" if self.correlating else (
                "numpy.correlate(g, v, mode='valid')")
            return _text(text, names, g=g, v=v)
        found = _text("numpy.correlate(g, a, mode='valid')", names, g=g, a=a)
        return _text("d[::-1]", names, d=found) if self.correlating else found


def _convolution_vjp(correlating):
    def vjp(args, out):
        return (_Convolution(0, correlating), _Convolution(1, correlating), None)
    return vjp


@dataclass(frozen=True)
class _Appended:
    """The adjoint of ``append``'s operand ``which``: its part of ``g``, shaped as it was
    (a number ``b`` the last element)."""

    which: int
    kind: object
    ndim: int  # a's

    def __call__(self, g, args, out, names):
        a, b, axis = args
        if not _none(axis):
            return _Part(self.which, axis.value % self.ndim, False)(g, (a, b), out, names)
        if not isinstance(self.kind, t.Array):
            return _text("g[-1]", names, g=g)
        part = _text("g[:a.size]" if self.which == 0 else "g[a.size:]", names, g=g, a=a)
        mine = (a, b)[self.which]
        return part if self.kind.ndim == 1 else _text("p.reshape(x.shape)", names, p=part,
                                                      x=mine)


def _append_vjp(args, out):
    return (_Appended(0, args[0], args[0].ndim), _Appended(1, args[1], args[0].ndim), None)


# --- the records ---------------------------------------------------------------------------

_REDUCTION = ("x", "axis", "keepdims")
_KEEP = dict(defaults=(None, False), ints=("axis", "keepdims"))


def _first(builder, count):
    def build(args, out):
        return (builder,) + (None,) * (count - 1)
    return build


def _reduction(name, builder):
    tangent = (_NanContracted if name.startswith("nan") else Contracted)(builder, 1, 2)
    return _array(name, f"numpy.{name}(x, axis=axis, keepdims=keepdims)", _REDUCTION,
                  reduced, _first(builder, 3), numpy=(name,), jvp=_first(tangent, 3),
                  **_KEEP)


def _quantile(name, scale):
    return _array(name, f"numpy.{name}(x, q, axis=axis, keepdims=keepdims, method=method)",
                  ("x", "q", "axis", "keepdims", "method"), quantiled,
                  _quantile_vjp(2, scale, 5), defaults=(None, False, "linear"),
                  ints=("q", "axis", "keepdims", "method"), numpy=(name,),
                  jvp=_quantile_vjp(2, scale, 5, tangent=True))


def _convolution(name, correlating):
    return _array(name, f"numpy.{name}(a, v, mode=mode)", ("a", "v", "mode"), convolved,
                  _convolution_vjp(correlating), defaults=("valid" if correlating else "full",), ints=("mode",),
                  numpy=(name,), jvp=linear(0, 1))


def _shaped_back(args, out):
    return (_Texted("g" if args[0].ndim >= 3 else "g.reshape(a.shape)", ("a",)),)


RECORDS = table(
    _array("median", "numpy.median(x, axis=axis, keepdims=keepdims)", _REDUCTION, medianed,
           _quantile_vjp(1, None, 3), numpy=("median",),
           jvp=_quantile_vjp(1, None, 3, tangent=True), **_KEEP),
    _array("real", "numpy.real(a)", ("a",), _floats, lambda args, out: (_Texted("g", ("a",)),),
           numpy=("real",), total=True, jvp=linear()),
    _array("imag", "numpy.imag(a)", ("a",), _floats, lambda args, out: (None,),
           numpy=("imag",), total=True, jvp=lambda args, out: (None,)),
    _array("conj", "numpy.conj(a)", ("a",), _floats, lambda args, out: (_Texted("g", ("a",)),),
           numpy=("conj", "conjugate"), total=True, jvp=linear()),
    _array("ascontiguousarray", "numpy.ascontiguousarray(a)", ("a",), _floats,
           lambda args, out: (_Texted("g", ("a",)),), numpy=("ascontiguousarray",),
           total=True, jvp=linear()),
    _array("around", "numpy.around(a, decimals)", ("a", "decimals"), _floats,
           lambda args, out: (None, None), defaults=(0,), ints=("decimals",),
           numpy=("around", "round"), total=True, jvp=lambda args, out: (None, None)),
    _array("fix", "numpy.fix(a)", ("a",), _floats, lambda args, out: (None,),
           numpy=("fix",), total=True, jvp=lambda args, out: (None,)),
    _array("nan_to_num", "numpy.nan_to_num(a)", ("a",), _floats, lambda args, out: (
        _Texted("numpy.where(numpy.isfinite(a), g, 0.0)", ("a",)),), numpy=("nan_to_num",),
           total=True, jvp=lambda args, out: (_Texted("numpy.where(numpy.isfinite(a), g, "
                                                      "0.0)", ("a",)),)),
    _array("atleast_3d", "numpy.atleast_3d(a)", ("a",), deepened, _shaped_back,
           numpy=("atleast_3d",), total=True, jvp=linear()),
    _quantile("quantile", 1.0),
    _quantile("percentile", 100.0),
    _reduction("nansum", _SkippingNan(False)),
    _reduction("nanmean", _SkippingNan(True)),
    _reduction("nanmax", _Extreme()),
    _reduction("nanmin", _Extreme()),
    _array("cross", "numpy.cross(a, b)", _CROSS, crossed, _cross_vjp, numpy=("cross",),
           broadcasting=True, jvp=linear(0, 1)),
    _convolution("convolve", False),
    _convolution("correlate", True),
    _array("append", "numpy.append(a, b, axis=axis)", ("a", "b", "axis"), appended,
           _append_vjp, defaults=(None,), ints=("axis",), numpy=("append",),
           jvp=linear(0, 1, joint=True)),
)

METHODS = {}
STATICS = {
    **{op: {"axis": "axes", "keepdims": "bool"} for op in (
        "median", "nansum", "nanmean", "nanmax", "nanmin")},
    "quantile": {"q": "fraction", "axis": "axes", "keepdims": "bool", "method": "method"},
    "percentile": {"q": "percent", "axis": "axes", "keepdims": "bool", "method": "method"},
    "convolve": {"mode": "mode"}, "correlate": {"mode": "mode"},
    "append": {"axis": "axis"},
    "around": {"decimals": "int"},
}
HINTS = {
    "median": "it takes an array of floats and a constant axis (one, or None)",
    "quantile": "it takes an array of floats, one constant q from 0 to 1, a constant "
                "axis (one, or None) and method 'linear' (NumPy's default), 'lower' or 'higher'",
    "percentile": "it takes an array of floats, one constant q from 0 to 100, a constant "
                  "axis (one, or None) and method 'linear' (NumPy's default), 'lower' or 'higher'",
    "cross": "it takes vectors of three (along the last axis of arrays that broadcast)",
    "convolve": "it takes two vectors and a constant mode: 'full', 'valid' or 'same'",
    "correlate": "it takes two vectors and a constant mode: 'full', 'valid' or 'same'",
    "append": "it takes an array and an array or a number (axis=None), or two arrays of "
              "one number of axes and a constant axis",
    **{name: "it takes an array of floats (complex values are refused)" for name in (
        "real", "imag", "conj", "ascontiguousarray", "fix", "nan_to_num", "atleast_3d")},
    "around": "it takes an array of floats and a constant number of decimals",
}
