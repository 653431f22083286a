"""Copies of an array's elements as records: ``np.repeat`` (``x.repeat``) and ``np.tile``;
``np.take``, read as the indexing it is (``lower.takes``).

Expects argument types of ``symdiff.core.types``; a repeat's count an int (constant, or
read as the code runs), its axis a constant; a tile's repetitions constant ints
(``STATICS``).  Guarantees ``RECORDS``: each element copied to several places, so the
adjoint sums ``g`` over the copies, each copy made an axis of its own by a reshape with
the sizes written out (the sizes of ``x`` read as the gradient runs), and the tangent is
the copies of the tangent (``linear``):

    y = np.repeat(x, r)   (1-d x)     dx = np.sum(g.reshape(-1, r), axis=1)
    y = np.repeat(X, r, axis=0)       dX = np.sum(g.reshape(-1, r, X.shape[1]), axis=1)
    y = np.tile(x, 3)     (1-d x)     dx = np.sum(g.reshape(3, x.shape[0]), axis=0)
    y = np.tile(X, (2, 1, 3))         dX = np.sum(g.reshape(2, X.shape[0], 3, X.shape[1]),
                                                  axis=(0, 2))
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import Text, constant_value
from symdiff.primitives.record import table
from symdiff.primitives.tangents import linear


def repeated(args, consts):
    """``numpy.repeat(x, r, axis)`` of an int ``r``: one axis for ``axis=None``, the axis
    repeated no longer known to have size one."""
    x, r = (tuple(args) + (None, None))[:2]
    axis = (tuple(consts) + (None, None, None))[2]
    if not isinstance(x, t.Array) or r not in (t.INT, t.BOOL):
        return None
    if axis is None:
        return t.Array(x.dtype, 1, ())
    if type(axis) is not int or not -x.ndim <= axis < x.ndim:
        return None
    return t.Array(x.dtype, x.ndim, tuple(a for a in x.unit_axes if a != axis % x.ndim))


@dataclass(frozen=True)
class _SummedCopies:
    """The copies of each element of an array of ``ndim`` axes, made an axis of
    ``repeats`` after it, summed."""

    ndim: int

    def __call__(self, g, args, out, names):
        axis = (tuple(args) + (ex.Const(None),) * 3)[2]
        params = ("x", "repeats", "axis")
        if isinstance(axis, ex.Const) and axis.value is None:
            text = "numpy.sum(g.reshape(-1, repeats), axis=1)"
            return Text(text if self.ndim == 1 else f"{text}.reshape(x.shape)", params)(
                g, args, out, names)
        at = constant_value(axis) % self.ndim
        sizes = [f"x.shape[{a}]" for a in range(at)] + ["-1", "repeats"] + [
            f"x.shape[{a}]" for a in range(at + 1, self.ndim)]
        return Text(f"numpy.sum(g.reshape({', '.join(sizes)}), axis={at + 1})", params)(
            g, args, out, names)


def _summed_copies(args, out):
    return (_SummedCopies(args[0].ndim), None, None)


def _reps(value, ndim):
    """The repetitions per axis of the result of tiling an array of ``ndim`` axes by
    ``value`` (NumPy pads the shorter of the two with ones in front)."""
    reps = value if type(value) is tuple else (value,)
    count = max(len(reps), ndim)
    return (1,) * (count - len(reps)) + tuple(reps)


def tiled(args, consts):
    """``numpy.tile(x, reps)``: an axis of size one where neither the copies nor ``x``
    make it longer."""
    x = args[0] if args else None
    reps = (tuple(consts) + (None, None))[1]
    if not isinstance(x, t.Array) or reps is None:
        return None
    reps = _reps(reps, x.ndim)
    added = len(reps) - x.ndim
    units = tuple(i for i, r in enumerate(reps) if r == 1 and (i < added or (
        i - added in x.unit_axes)))
    return t.Array(x.dtype, len(reps), units)


@dataclass(frozen=True)
class _SummedTiles:
    """``g`` of a tiling of an array of ``ndim`` axes, each axis's copies an axis of
    their own before it, summed."""

    ndim: int

    def __call__(self, g, args, out, names):
        reps = _reps(args[1].value, self.ndim)
        added = len(reps) - self.ndim
        sizes, summed = [], []
        for i, r in enumerate(reps):
            if r != 1:
                summed.append(len(sizes))
                sizes.append(str(r))
            if i >= added:
                sizes.append(f"x.shape[{i - added}]")
        if not summed:
            text = "g" if not added else "g.reshape(x.shape)"
        else:
            axis = summed[0] if len(summed) == 1 else tuple(summed)
            text = f"numpy.sum(g.reshape({', '.join(sizes)}), axis={axis})"
        return Text(text, ("x", "reps"))(g, args, out, names)


def _read_by_index(args, consts):
    """``numpy.take``: lowering writes it as the indexing it is (``lower.takes``), so its
    own record computes nothing."""
    return None


def _none(args, out):
    return (None,) * len(args)


RECORDS = table(
    _array("take", "numpy.take(x, indices, axis=axis)", ("x", "indices", "axis"),
           _read_by_index, _none, defaults=(None,), numpy=("take",), jvp=_none),
    _array("repeat", "numpy.repeat(x, repeats, axis=axis)", ("x", "repeats", "axis"), repeated,
           _summed_copies, defaults=(None,), ints=("repeats", "axis"), numpy=("repeat",),
           jvp=linear()),
    _array("tile", "numpy.tile(x, reps)", ("x", "reps"), tiled,
           lambda args, out: (_SummedTiles(args[0].ndim), None), ints=("reps",),
           numpy=("tile",), total=True, jvp=linear()),
)
METHODS = {"repeat": "repeat"}
STATICS = {"repeat": {"axis": "axis"}, "tile": {"reps": "counts"}}
HINTS = {"repeat": "it takes an array, an int count of copies and a constant axis or None",
         "tile": "it takes an array and its repetitions as constant ints: 3 or (2, 1)",
         "take": "it takes an array, its indices and a constant axis"}
