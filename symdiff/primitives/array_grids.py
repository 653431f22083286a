"""``numpy.meshgrid`` of two vectors as records: one per grid it returns (``X, Y =
np.meshgrid(x, y)`` is the records ``meshgrid_0`` and ``meshgrid_1`` of ``x`` and ``y``,
``PAIRED``; ``np.meshgrid(x, y)[1]`` one of them).

Expects argument types of ``symdiff.core.types``: two arrays of one axis (of floats or
ints) and a constant ``indexing``, ``"xy"`` (NumPy's default: the first vector along the
columns) or ``"ij"`` (along the rows).  Guarantees ``RECORDS``, each grid's type rule (a
matrix of its own vector's dtype, as NumPy keeps it) and its VJP and JVP builders: a grid
repeats its vector along the other axis, so its adjoint sums ``g`` back along it, and it
is linear in its vector:

    X, Y = np.meshgrid(x, y)                 dx = np.sum(gX, axis=0)    dy = np.sum(gY, axis=1)
    X, Y = np.meshgrid(x, y, indexing="ij")  dx = np.sum(gX, axis=1)    dy = np.sum(gY, axis=0)
    dX (forward)                             np.meshgrid(dx, y)[0]

(The other vector gives a grid only its size: no derivative.)
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import call
from symdiff.primitives.record import table
from symdiff.primitives.tangents import linear

_INDEXINGS = ("xy", "ij")


def _vectors(args):
    return len(args) >= 2 and all(isinstance(a, t.Array) and a.ndim == 1 for a in args[:2])


def _summed_axis(part, indexing):
    """The axis of the grid ``part`` along which its vector is repeated."""
    return 1 - part if indexing == "ij" else part


def grid(part):
    """The type rule of the grid ``part`` of ``meshgrid(x, y, indexing=...)``."""
    def rule(args, consts):
        indexing = consts[2] if len(consts) > 2 and consts[2] is not None else "xy"
        if not _vectors(args) or indexing not in _INDEXINGS:
            return None
        x, y = args[:2]
        rows, columns = (x, y) if indexing == "ij" else (y, x)
        units = tuple(axis for axis, vector in enumerate((rows, columns)) if vector.unit_axes)
        return t.Array(args[part].dtype, 2, units)
    return rule


@dataclass(frozen=True)
class _SummedBack:
    """The adjoint of a grid's own vector: ``g`` summed along the axis it repeats on."""

    part: int

    def __call__(self, g, args, out, names):
        indexing = args[2].value if len(args) > 2 and isinstance(args[2], ex.Const) else "xy"
        return call(names, "sum", g, axis=ex.Const(_summed_axis(self.part, indexing)))


def _vjp(part):
    def vjp(args, out):
        return tuple(_SummedBack(part) if i == part else None for i in range(2)) + (None,)
    return vjp


def _grid(part):
    return _array(f"meshgrid_{part}", f"numpy.meshgrid(x, y, indexing=indexing)[{part}]",
                  ("x", "y", "indexing"), grid(part), _vjp(part), defaults=("xy",),
                  ints=("indexing",), pair=("meshgrid", part), total=True,
                  jvp=linear(part))


RECORDS = table(_grid(0), _grid(1))
PAIRED = {"meshgrid": "meshgrid"}  # ``X, Y = numpy.meshgrid(x, y)``
METHODS = {}
STATICS = {f"meshgrid_{part}": {"indexing": "indexing"} for part in (0, 1)}
HINTS = {f"meshgrid_{part}": "it takes two vectors (arrays of one axis) and a constant "
                             "indexing, 'xy' or 'ij'" for part in (0, 1)}
