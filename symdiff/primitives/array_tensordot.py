"""``numpy.tensordot`` as a record: the sum of products over axes of two arrays paired.

Expects argument types of ``symdiff.core.types`` and ``axes`` a constant, as lowering
reads it (``statics.constant_contraction``): an int ``k`` (the last ``k`` axes of ``x``
with the first ``k`` of ``y``), or a pair of the axes of each, an int for one axis
(``axes=([1], [0])`` is ``(1, 0)``).  Guarantees ``RECORDS``, the record ``tensordot``,
bilinear: its VJP builders each a ``tensordot`` of ``g`` with the other operand over
the axes it kept, transposed back where the contracted axes were not in order, and its
JVP builders the record's own forward with one tangent in place (``linear``):

    c = np.tensordot(a, b, axes=1)         da = np.tensordot(g, b, axes=(1, 1))
      (a, b of two axes)                   db = np.tensordot(a, g, axes=(0, 0))
    c = np.tensordot(a, b, axes=((0, 1), (1, 0)))
                                           da = np.transpose(np.tensordot(g, b, axes=...))
    s = np.tensordot(a, b)  (every axis)   da = g * b
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.record import table
from symdiff.primitives.tangents import linear


def contraction(axes, na, nb):
    """``(x's axes, y's axes)`` ``axes`` pairs, each counted from the front; None where
    they are not axes of arrays of ``na`` and ``nb`` axes, in pairs, each named once."""
    if type(axes) is int:
        if not 0 <= axes <= min(na, nb):
            return None
        return tuple(range(na - axes, na)), tuple(range(axes))
    if type(axes) is not tuple or len(axes) != 2:
        return None
    sides = []
    for side, ndim in zip(axes, (na, nb)):
        side = side if type(side) is tuple else (side,)
        if not all(type(a) is int and -ndim <= a < ndim for a in side):
            return None
        side = tuple(a % ndim for a in side)
        if len(set(side)) != len(side):
            return None
        sides.append(side)
    return tuple(sides) if len(sides[0]) == len(sides[1]) else None


def contracted(args, consts):
    """The kept axes of ``x`` then those of ``y``, of size one where theirs are."""
    x, y = (tuple(args) + (None, None))[:2]
    axes = (tuple(consts) + (None, None, 2))[2]
    if not (isinstance(x, t.Array) and isinstance(y, t.Array)):
        return None
    pairs = contraction(axes, x.ndim, y.ndim)
    if pairs is None:
        return None
    kept = [(x, a) for a in range(x.ndim) if a not in pairs[0]] + [
        (y, a) for a in range(y.ndim) if a not in pairs[1]]
    dtype = t.broadcast((x, y)).dtype if x.ndim == y.ndim else t.broadcast((
        t.Array(x.dtype, 0, ()), t.Array(y.dtype, 0, ()))).dtype
    units = tuple(i for i, (kind, a) in enumerate(kept) if a in kind.unit_axes)
    return t.Array(dtype, len(kept), units) if kept else t.NUMPY_FLOAT


def _axes_const(first, second, n_first):
    """The ``axes=`` of a ``tensordot`` contracting ``first`` of an array of ``n_first``
    axes with ``second``: an int where it is the last axes with the first ones, in
    order, else the pair (an int for one axis)."""
    count = len(first)
    if first == tuple(range(n_first - count, n_first)) and second == tuple(range(count)):
        return ex.Const(count)

    def side(axes):
        return ex.Const(axes[0]) if len(axes) == 1 else ex.Const(axes)
    return ex.Tuple((side(first), side(second)))


@dataclass(frozen=True)
class _Back:
    """The adjoint of one operand: ``g`` contracted with the other over the axes the
    other kept, transposed where the result's axes are not the operand's order (the
    pairs read from the statement's ``axes`` constant)."""

    na: int
    nb: int
    first: bool  # the adjoint of ``x`` (else of ``y``)

    def __call__(self, g, args, out, names):
        x, y, axes = args
        left, right = contraction(axes.value, self.na, self.nb)
        kept_x = tuple(a for a in range(self.na) if a not in left)
        kept_y = tuple(a for a in range(self.nb) if a not in right)
        ng = len(kept_x) + len(kept_y)
        if self.first:  # g's axes of y with y's kept ones: x's kept axes, then y's paired
            axes = _axes_const(tuple(range(len(kept_x), ng)), kept_y, ng)
            made = _text("numpy.tensordot(g, y, axes=axes)" if ng else "g * y", names, g=g,
                         y=y, axes=axes)  # (every axis contracted: g is a number)
            order = kept_x + tuple(left[right.index(b)] for b in sorted(right))
        else:  # x's kept axes with g's of x: y's paired axes, then y's kept ones
            axes = _axes_const(kept_x, tuple(range(len(kept_x))), self.na)
            made = _text("numpy.tensordot(x, g, axes=axes)" if ng else "x * g", names, x=x,
                         g=g, axes=axes)
            order = tuple(right[left.index(a)] for a in sorted(left)) + kept_y
        if order == tuple(range(len(order))):
            return made
        inverse = ex.Tuple(tuple(ex.Const(order.index(a)) for a in range(len(order))))
        return _text("numpy.transpose(v, axes)", names, v=made, axes=inverse)


def _vjp(args, out):
    na, nb = args[0].ndim, args[1].ndim
    return (_Back(na, nb, True), _Back(na, nb, False), None)


RECORDS = table(
    _array("tensordot", "numpy.tensordot(x, y, axes=axes)", ("x", "y", "axes"), contracted,
           _vjp, defaults=(2,), ints=("axes",), numpy=("tensordot",), jvp=linear(0, 1)),
)

METHODS = {}
STATICS = {"tensordot": {"axes": "contraction"}}
HINTS = {"tensordot": "it takes two arrays and constant axes: an int, or a pair of as many "
                      "axes of each, ([1], [0])"}
