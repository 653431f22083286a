"""Moves of an array's axes and elements as records: ``swapaxes``, ``moveaxis``,
``roll``, ``flipud``, ``fliplr``, ``rot90``, ``atleast_1d`` and ``atleast_2d``.

Expects argument types of ``symdiff.core.types``; the axes constants (``STATICS``), a
roll's shift an int, constant or read as the code runs.  Guarantees ``RECORDS``, one
array record each: each moves every element to one place, so its VJP moves ``g`` back
by the inverse move and its JVP moves the tangent as the value (``linear``):

    y = np.swapaxes(x, 0, 2)        dx = np.swapaxes(g, 0, 2)
    y = np.moveaxis(x, 0, -1)       dx = np.moveaxis(g, -1, 0)
    y = np.roll(x, k, axis=1)       dx = np.roll(g, -k, axis=1)
    y = np.rot90(x, 1)              dx = np.rot90(g, -1)
    y = np.atleast_2d(x)  (1-d x)   dx = g.reshape(x.shape)
"""

from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import Text
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
)

METHODS = {"swapaxes": "swapaxes"}
STATICS = {"swapaxes": {"axis1": "int", "axis2": "int"},
           "moveaxis": {"source": "axes", "destination": "axes"},
           "roll": {"axis": "axis"}, "rot90": {"k": "int", "axes": "axes"}}
HINTS = {
    "swapaxes": "it takes an array and two constant axes of it",
    "moveaxis": "it takes an array and constant axes (ints or tuples of as many)",
    "roll": "it takes an array, an int shift and a constant axis or None",
    "flipud": "it takes an array of one axis or more",
    "fliplr": "it takes an array of two axes or more",
    "rot90": "it takes an array of two axes or more, a constant int k and two axes",
    "atleast_1d": "it takes one array", "atleast_2d": "it takes one array",
}
