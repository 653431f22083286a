"""Moves of an array's axes and elements as records: ``swapaxes``, ``moveaxis``,
``roll``, ``flipud``, ``fliplr``, ``rot90``, ``atleast_1d``, ``atleast_2d``, ``sort``,
``partition`` and ``take_along_axis``.

Expects argument types of ``symdiff.core.types``; the axes constants (``STATICS``), a
roll's shift an int, constant or read as the code runs.  Guarantees ``RECORDS``, one
array record each: each moves every element to one place, so its VJP moves ``g`` back
by the inverse move and its JVP moves the tangent as the value (``linear``):

    y = np.swapaxes(x, 0, 2)        dx = np.swapaxes(g, 0, 2)
    y = np.moveaxis(x, 0, -1)       dx = np.moveaxis(g, -1, 0)
    y = np.roll(x, k, axis=1)       dx = np.roll(g, -k, axis=1)
    y = np.rot90(x, 1)              dx = np.rot90(g, -1)
    y = np.atleast_2d(x)  (1-d x)   dx = g.reshape(x.shape)
    y = np.sort(x)                  dx = np.take_along_axis(g, np.argsort(np.argsort(
                                             x, kind="stable")), -1)

``take_along_axis`` reads each element at the index given along its axis, so its VJP
adds ``g`` back there (``numpy.add.at``: an index may repeat a position), at the index
whose other parts count along their axes:

    y = np.take_along_axis(X, idx, axis=1)    np.add.at(dX, (np.arange(X.shape[0])[:, None],
                                                            idx), g)

A sort sends each element where its rank says; on a tie, the elements keep their order
(NumPy's stable sort), so ``g`` goes back to the elements as the tape's sort sends it.  A
partition's places are found by rank too (``numpy.argpartition`` may order the elements
otherwise than ``numpy.partition`` did), tied elements matched in their stable order.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import Text, constant_value
from symdiff.primitives.indexing import Scattered
from symdiff.primitives.record import table
from symdiff.primitives.tangents import Linear, linear


def _operand(args, least=0):
    x = args[0] if args else None
    return x if isinstance(x, t.Array) and x.ndim >= least else None


def _axis(value, ndim):
    """``value`` counted from the front, or None where it is not an axis of ``ndim``."""
    return value % ndim if type(value) is int and -ndim <= value < ndim else None


def _permuted(x, order):
    """``x``'s type with its axes in ``order`` (``order[i]``: the axis of ``x`` that
    becomes axis ``i``)."""
    return t.Array(x.dtype, x.ndim, tuple(i for i, a in enumerate(order) if a in x.unit_axes))


def swapped(args, consts):
    x = _operand(args, 1)
    consts = tuple(consts) + (None, None, None)
    a, b = (None, None) if x is None else (_axis(consts[1], x.ndim), _axis(consts[2], x.ndim))
    if a is None or b is None:
        return None
    order = list(range(x.ndim))
    order[a], order[b] = b, a
    return _permuted(x, order)


def _axes(value):
    return value if type(value) is tuple else (value,)


def moved(args, consts):
    """``numpy.moveaxis(x, source, destination)``: each source axis put at its place."""
    x = _operand(args, 1)
    consts = tuple(consts) + (None, None, None)
    if x is None:
        return None
    source = [_axis(a, x.ndim) for a in _axes(consts[1])]
    destination = [_axis(a, x.ndim) for a in _axes(consts[2])]
    if None in source + destination or len(source) != len(destination) or len(
            set(source)) != len(source) or len(set(destination)) != len(destination):
        return None
    rest = iter(a for a in range(x.ndim) if a not in source)
    placed = dict(zip(destination, source))
    return _permuted(x, [placed[i] if i in placed else next(rest) for i in range(x.ndim)])


def _like(least):
    def rule(args, consts):
        return _operand(args, least)
    return rule


def rolled(args, consts):
    x = _operand(args)
    shift = args[1] if len(args) > 1 else None
    axis = (tuple(consts) + (None, None, None))[2]
    if x is None or shift not in (t.INT, t.BOOL) or (axis is not None and _axis(
            axis, x.ndim) is None):
        return None
    return x


def rotated(args, consts):
    """``numpy.rot90(x, k, axes)``: the two axes swapped where ``k`` is odd."""
    x = _operand(args, 2)
    consts = tuple(consts) + (None, None, None)
    k, axes = consts[1], consts[2]
    if x is None or type(k) is not int or type(axes) is not tuple or len(axes) != 2:
        return None
    a, b = (_axis(axes[0], x.ndim), _axis(axes[1], x.ndim))
    if a is None or b is None or a == b:
        return None
    order = list(range(x.ndim))
    if k % 2:
        order[a], order[b] = b, a
    return _permuted(x, order)


def at_least(ndim):
    """``numpy.atleast_1d``/``_2d`` of an array: itself, or one with axes of size one
    in front (NumPy puts a vector's axis last in a matrix: ``(1, n)``)."""
    def rule(args, consts):
        x = _operand(args)
        if x is None or x.ndim >= ndim:
            return x
        added = ndim - x.ndim
        return t.Array(x.dtype, ndim, tuple(range(added)) + tuple(a + added
                                                                   for a in x.unit_axes))
    return rule


def _reshaped_back(ndim):
    def vjp(args, out):
        x = args[0]
        return (Text("g" if x.ndim >= ndim else "g.reshape(x.shape)", ("x",)),)
    return vjp


def _moved_back(args, out):
    return (Text("numpy.moveaxis(g, destination, source)", ("x", "source", "destination")),
            None, None)


# The inverse moves, written as the forward is (a keyword of its default value left out)
_ROLLED_BACK = Linear("numpy.roll(x, -shift, axis=axis)", ("x", "shift", "axis"), 0,
                      defaults=(None,))
_ROTATED_BACK = Linear("numpy.rot90(x, k=-k, axes=axes)", ("x", "k", "axes"), 0,
                       defaults=((0, 1),))

def sorted_like(args, consts):
    """``numpy.sort(x, axis)``: ``x``'s type, one axis for ``axis=None``."""
    x = _operand(args)
    axis = (tuple(consts) + (-1, -1))[1]
    if x is None or (axis is not None and _axis(axis, x.ndim) is None):
        return None
    return t.Array(x.dtype, 1, ()) if axis is None and x.ndim != 1 else x


_ORDER = 'numpy.argsort(x, axis=axis, kind="stable")'
_LINE = 'numpy.argsort(x, kind="stable")'  # (of a vector: its one axis)


def _sorted_back(args, out):
    """``g`` taken back to where each element came from: at the inverse permutation."""
    x = args[0]
    if x.ndim == 1:
        return (Text(f"g[numpy.argsort({_LINE})]", ("x", "axis")), None)
    return (_ByAxis(f"numpy.take_along_axis(g, numpy.argsort({_ORDER}, axis=axis), axis)",
                    f"g[numpy.argsort({_ORDER})].reshape(x.shape)"), None)


def _sorted_tangent(args, out):
    """The tangent in the sorted order: taken at the sorting permutation."""
    if args[0].ndim == 1:
        return (Text(f"g[{_LINE}]", ("x", "axis")), None)
    return (_ByAxis(f"numpy.take_along_axis(g, {_ORDER}, axis)",
                    f"numpy.ravel(g)[{_ORDER}]"), None)


def partitioned(args, consts):
    """``numpy.partition(x, kth, axis)``: as ``sort``'s (``kth`` read when it runs)."""
    return sorted_like((args[0], args[2]) if len(args) > 2 else args[:1],
                       (consts[0], consts[2]) if len(consts) > 2 else consts[:1])


# ``y = numpy.partition(x)`` puts ``x``'s elements in an order NumPy leaves open, and
# ``numpy.argpartition`` may choose another: the element at each place of ``y`` is found
# by rank instead (``y``'s sorted order is ``x``'s), so ``dx`` is ``g`` read in ``y``'s
# sorted order, then taken back to ``x``'s places as ``sort``'s adjoint takes it.
_BY_RANK = 'numpy.argsort(out, axis=axis, kind="stable")'
_BY_RANK_LINE = 'numpy.argsort(out, kind="stable")'


def _partitioned_back(args, out):
    params = ("x", "kth", "axis")
    if args[0].ndim == 1:
        return (Text(f"g[{_BY_RANK_LINE}][numpy.argsort({_LINE})]", params), None, None)
    return (_ByAxis(f"numpy.take_along_axis(numpy.take_along_axis(g, {_BY_RANK}, axis), "
                    f"numpy.argsort({_ORDER}, axis=axis), axis)",
                    f"g[{_BY_RANK_LINE}][numpy.argsort({_ORDER})].reshape(x.shape)",
                    params, 2), None, None)


def _partitioned_tangent(args, out):
    """The tangent read in ``x``'s sorted order, then put at the places ``y`` has them."""
    params = ("x", "kth", "axis")
    if args[0].ndim == 1:
        return (Text(f"g[{_LINE}][numpy.argsort({_BY_RANK_LINE})]", params), None, None)
    return (_ByAxis(f"numpy.take_along_axis(numpy.take_along_axis(g, {_ORDER}, axis), "
                    f"numpy.argsort({_BY_RANK}, axis=axis), axis)",
                    f"numpy.ravel(g)[{_ORDER}][numpy.argsort({_BY_RANK_LINE})]",
                    params, 2), None, None)


@dataclass(frozen=True)
class _ByAxis:
    """A text for a constant axis, another for ``axis=None`` (the flattened array)."""

    along: str
    flat: str
    params: tuple = ("x", "axis")
    axis_at: int = 1

    def __call__(self, g, args, out, names):
        flat = isinstance(args[self.axis_at], ex.Const) and args[self.axis_at].value is None
        return Text(self.flat if flat else self.along, self.params)(g, args, out, names)


def taken_along(args, consts):
    """``numpy.take_along_axis(x, indices, axis)``: of ``x``'s dtype and the indices'
    axes (along ``axis``: those of an axis of size one where both have size one); of
    one axis for ``axis=None`` (the flattened array), indices of one axis."""
    x, indices = (tuple(args) + (None, None))[:2]
    axis = (tuple(consts) + (None, None, -1))[2]
    if not (isinstance(x, t.Array) and isinstance(indices, t.Array)) or not (
            indices.dtype.startswith(("int", "uint"))):
        return None
    if axis is None:
        return t.Array(x.dtype, 1, indices.unit_axes) if indices.ndim == 1 else None
    axis = _axis(axis, x.ndim)
    if axis is None or indices.ndim != x.ndim or any(
            a in x.unit_axes and a not in indices.unit_axes for a in range(x.ndim) if a != axis):
        return None  # (x broadcast against the indices: not read here)
    return t.Array(x.dtype, x.ndim, tuple(a for a in indices.unit_axes if a == axis or (
        a in x.unit_axes)))


def _taken_back(args, out):
    return (_AddedAlong(args[0].ndim), None, None)


@dataclass(frozen=True)
class _AddedAlong:
    """``g`` added back at the index ``take_along_axis`` read: ``indices`` along the
    axis, ``numpy.arange(x.shape[d])`` along each other axis ``d``, its axis where
    ``d`` stands (``[:, None]``); ``numpy.unravel_index`` of the indices for the
    flattened array (``axis=None``) of more than one axis."""

    ndim: int

    def __call__(self, g, args, out, names):
        x, indices, axis = args
        if isinstance(axis, ex.Const) and axis.value is None:
            if self.ndim == 1:
                return Scattered(indices, g, True)
            text = "x[numpy.unravel_index(indices, x.shape)]"
        else:
            along = constant_value(axis) % self.ndim
            parts = ["indices" if d == along else f"numpy.arange(x.shape[{d}])" + (
                f"[:{', None' * (self.ndim - 1 - d)}]" if d < self.ndim - 1 else "")
                for d in range(self.ndim)]
            text = f"x[{', '.join(parts)}]"
        read = Text(text, ("x", "indices", "axis"))(g, args, out, names)
        return Scattered(read.index, g, True)


RECORDS = table(
    _array("swapaxes", "numpy.swapaxes(x, axis1, axis2)", ("x", "axis1", "axis2"), swapped,
           lambda args, out: (Text("numpy.swapaxes(g, axis1, axis2)",
                                   ("x", "axis1", "axis2")), None, None),
           ints=("axis1", "axis2"), numpy=("swapaxes",), total=True, jvp=linear()),
    _array("moveaxis", "numpy.moveaxis(x, source, destination)", ("x", "source", "destination"),
           moved, _moved_back, ints=("source", "destination"), numpy=("moveaxis",),
           total=True, jvp=linear()),
    _array("roll", "numpy.roll(x, shift, axis=axis)", ("x", "shift", "axis"), rolled,
           lambda args, out: (_ROLLED_BACK, None, None),
           defaults=(None,), ints=("shift", "axis"), numpy=("roll",), total=True, jvp=linear()),
    _array("flipud", "numpy.flipud(x)", ("x",), _like(1),
           lambda args, out: (Text("numpy.flipud(g)", ("x",)),), numpy=("flipud",), total=True,
           jvp=linear()),
    _array("fliplr", "numpy.fliplr(x)", ("x",), _like(2),
           lambda args, out: (Text("numpy.fliplr(g)", ("x",)),), numpy=("fliplr",), total=True,
           jvp=linear()),
    _array("rot90", "numpy.rot90(x, k=k, axes=axes)", ("x", "k", "axes"), rotated,
           lambda args, out: (_ROTATED_BACK, None, None),
           defaults=(1, (0, 1)), ints=("k", "axes"), numpy=("rot90",), total=True,
           jvp=linear()),
    _array("atleast_1d", "numpy.atleast_1d(x)", ("x",), at_least(1), _reshaped_back(1),
           numpy=("atleast_1d",), total=True, jvp=linear()),
    _array("atleast_2d", "numpy.atleast_2d(x)", ("x",), at_least(2), _reshaped_back(2),
           numpy=("atleast_2d",), total=True, jvp=linear()),
    _array("sort", "numpy.sort(x, axis=axis)", ("x", "axis"), sorted_like, _sorted_back,
           defaults=(-1,), ints=("axis",), numpy=("sort",), total=True, jvp=_sorted_tangent),
    _array("partition", "numpy.partition(x, kth, axis=axis)", ("x", "kth", "axis"),
           partitioned, _partitioned_back, defaults=(-1,), ints=("kth", "axis"),
           numpy=("partition",), jvp=_partitioned_tangent),
    _array("take_along_axis", "numpy.take_along_axis(x, indices, axis)",
           ("x", "indices", "axis"), taken_along, _taken_back, defaults=(-1,), ints=("axis",),
           numpy=("take_along_axis",), scatters=True, jvp=linear()),
)

METHODS = {"swapaxes": "swapaxes"}
STATICS = {"swapaxes": {"axis1": "int", "axis2": "int"},
           "moveaxis": {"source": "axes", "destination": "axes"},
           "roll": {"axis": "axis"}, "sort": {"axis": "axis"},
           "partition": {"kth": "counts", "axis": "axis"}, "take_along_axis": {"axis": "axis"},
           "rot90": {"k": "int", "axes": "axes"}}
HINTS = {
    "swapaxes": "it takes an array and two constant axes of it",
    "moveaxis": "it takes an array and constant axes (ints or tuples of as many)",
    "roll": "it takes an array, an int shift and a constant axis or None",
    "flipud": "it takes an array of one axis or more",
    "fliplr": "it takes an array of two axes or more",
    "rot90": "it takes an array of two axes or more, a constant int k and two axes",
    "sort": "it takes an array and a constant axis or None",
    "partition": "it takes an array, a constant kth (an int >= 0 or a tuple of them) and a "
                 "constant axis or None (the method x.partition sorts in place: not taken)",
    "take_along_axis": "it takes an array, integer indices of as many axes (of one for "
                       "axis=None) and a constant axis or None",
    "atleast_1d": "it takes one array", "atleast_2d": "it takes one array",
}
