"""``numpy.average`` as a record: the mean over an axis, or the weighted mean
``sum(w x) / sum(w)`` with weights of ``x``'s shape or, along a constant axis, of one axis.

Expects argument types of ``symdiff.core.types`` (weights an array, or None where the
call gives none) and ``axis`` a constant (an int, a tuple of ints or None; weights of
one axis take one int).  Guarantees ``RECORDS``, the record ``average``: its type rule,
its VJP builders by the arguments' types, differentiable in ``x`` and in the weights,
and its JVP builders (linear in ``x``; the weights' tangent contracted as the VJP is):

    a = np.average(x)                     dx = np.full_like(x, g / x.size)
    a = np.average(x, weights=w)          dx = g * w / np.sum(w)
                                          dw = g * (x - a) / np.sum(w)
    a = np.average(X, axis=0, weights=w)  dX = np.expand_dims(g, 0) * np.expand_dims(w, 1)
      (w of one axis, X of two)                / np.sum(w)
                                          dw = np.sum(np.expand_dims(g, 0) * (X -
                                               np.expand_dims(a, 0)), axis=1) / np.sum(w)
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.array_reductions import _none, _text, _true
from symdiff.primitives.arrays import _Spread, _array, reduced
from symdiff.primitives.broadcasting import CastBack, constant_value
from symdiff.primitives.record import table
from symdiff.primitives.tangents import Linear


def averaged(args, consts):
    """The mean's type; with weights, of the dtype ``x`` and the weights promote to.
    Weights of another number of axes than ``x`` are of one axis, along an int axis."""
    x, _, w = (tuple(args) + (None, None, t.NONE))[:3]
    axis, _, keepdims = (tuple(consts) + (None, None, None, False))[1:4]
    if not isinstance(x, t.Array):
        return None
    mean = reduced((x,), (None, axis, keepdims))
    if w == t.NONE or mean is None:
        return mean
    if not isinstance(w, t.Array):
        return None
    if w.ndim != x.ndim and not (w.ndim == 1 and type(axis) is int):
        return None
    dtype = t.broadcast((x, w)).dtype if w.ndim == x.ndim else t.broadcast((x, t.Array(
        w.dtype, 0, ()))).dtype
    return t.Array(dtype, mean.ndim, mean.unit_axes) if isinstance(mean, t.Array) else mean


@dataclass(frozen=True)
class _Weighted:
    """The pieces of a weighted average's derivatives, as the types give them: ``g``
    and the result put back on the averaged axes, the weights as they meet ``x``, and
    the sum of the weights each result divides by."""

    ndim: int  # x's
    along: bool  # weights of one axis, along ``axis``, for ``x`` of more

    def pieces(self, g, args, out, names):
        x, axis, w, keepdims = args
        if _none(axis):
            return g, out, w, _text("numpy.sum(w)", names, w=w)
        if not _true(keepdims):
            g, out = (_text("numpy.expand_dims(v, axis)", names, v=v, axis=axis)
                      for v in (g, out))
        if not self.along:
            return g, out, w, _text("numpy.sum(w, axis=axis, keepdims=True)", names, w=w,
                                    axis=axis)
        return g, out, _text("numpy.expand_dims(w, others)", names, w=w,
                             others=self.others(axis)), _text("numpy.sum(w)", names, w=w)

    def others(self, axis):
        """The axes of ``x`` other than ``axis`` (an int: weights of one axis)."""
        mine = constant_value(axis) % self.ndim
        rest = tuple(a for a in range(self.ndim) if a != mine)
        return ex.Const(rest[0]) if len(rest) == 1 else ex.Tuple(tuple(
            ex.Const(a) for a in rest))


@dataclass(frozen=True)
class _ByValues(_Weighted):
    """``x``'s adjoint: ``g`` times its weight over the weights' sum."""

    def __call__(self, g, args, out, names):
        g, out, w, total = self.pieces(g, args, out, names)
        return _text("g * w / total", names, g=g, w=w, total=total)


@dataclass(frozen=True)
class _ByWeights(_Weighted):
    """The weights' adjoint: ``g`` times how far ``x`` is from the average, over the
    weights' sum (summed over the other axes for weights of one axis)."""

    def __call__(self, g, args, out, names):
        x = args[0]
        g, out, _, total = self.pieces(g, args, out, names)
        spread = _text("g * (x - out)", names, g=g, x=x, out=out)
        if self.along:
            spread = _text("numpy.sum(s, axis=others)", names, s=spread,
                           others=self.others(args[1]))
        return _text("s / total", names, s=spread, total=total)


@dataclass(frozen=True)
class _WeightsTangent(_Weighted):
    """How the weights' tangent ``dw`` moves the average: ``sum(dw (x - a)) / sum(w)``
    over the averaged axes."""

    def __call__(self, g, args, out, names):
        x, axis, _, keepdims = args
        dw = _text("numpy.expand_dims(dw, others)", names, dw=g, others=self.others(
            axis)) if self.along else g
        _, back, _, _ = self.pieces(g, args, out, names)
        spread = _text("dw * (x - out)", names, dw=dw, x=x, out=back)
        kept = {} if _none(axis) else {"axis": axis}
        over = (", axis=axis" if kept else "") + (", keepdims=True" if _true(keepdims) else "")
        summed = _text(f"numpy.sum(s{over})", names, s=spread, **kept)
        total = _text(f"numpy.sum(w{over})" if kept and not self.along else
                      "numpy.sum(w)", names, w=args[2], **kept)
        return _text("s / total", names, s=summed, total=total)


@dataclass(frozen=True)
class _Unweighted:
    """The mean's adjoint (``arrays``' ``_Spread``), the weights' place holding None."""

    kind: object

    def __call__(self, g, args, out, names):
        return _Spread(self.kind, True)(g, (args[0], args[1], args[3]), out, names)


_FORWARD = "numpy.average(x, axis=axis, weights=weights, keepdims=keepdims)"
_PARAMS = ("x", "axis", "weights", "keepdims")


def _weighted(args):
    x, w = args[0], args[2] if len(args) > 2 else t.NONE
    return isinstance(w, t.Array), isinstance(w, t.Array) and w.ndim != x.ndim


def _average_vjp(args, out):
    weighted, along = _weighted(args)
    if not weighted:
        return (_Unweighted(args[0]), None, None, None)
    x, w = args[0], args[2]
    promoted = t.Array(t.broadcast((t.Array(x.dtype, 0, ()), t.Array(w.dtype, 0, ()))).dtype,
                       0, ())  # (a float32 array met float64 weights: cast back)
    return (CastBack(_ByValues(x.ndim, along), x, promoted), None,
            CastBack(_ByWeights(x.ndim, along), w, promoted), None)


def _average_jvp(args, out):
    weighted, along = _weighted(args)
    by_values = Linear(_FORWARD, _PARAMS, 0, defaults=(None, None, False))
    return (by_values, None, _WeightsTangent(args[0].ndim, along) if weighted else None, None)


RECORDS = table(
    _array("average", _FORWARD, _PARAMS, averaged, _average_vjp, defaults=(None, None, False),
           ints=("axis", "keepdims"), numpy=("average",), by_position=3, jvp=_average_jvp),
)

METHODS = {}
STATICS = {"average": {"axis": "axes", "keepdims": "bool"}}
HINTS = {"average": "it takes an array, a constant axis (an int, a tuple of ints or None), "
                    "weights of the array's shape, or of one axis along an int axis, and "
                    "keepdims (returned= not yet)"}
