"""Array joins as records: ``concatenate``, ``stack``, ``vstack``, ``hstack``,
``column_stack``, ``dstack`` and ``numpy.array`` of arrays or numbers written out, one record per
count (``FAMILIES``: ``concatenate_2``...; ``array_shapes`` registers them with its own).

Expects argument types of ``symdiff.core.types``; a join's ``axis`` a constant.
Guarantees a type rule per family (the joined axis never claimed of size one) and VJP
builders giving each operand its part of ``g``:

    y = np.concatenate([a, b], axis=1) da = g[:, :a.shape[1]]
                                       db = g[:, a.shape[1]:a.shape[1] + b.shape[1]]
    y = np.stack([a, b])               da = g[0]     db = g[1]
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import constant_value as _constant
from symdiff.primitives.reductions import SIDED
from symdiff.primitives.tangents import linear

_SLICE = ex.Slice()


def _value(arg):
    """A constant operand's value (an int, negative ones too), else None."""
    if isinstance(arg, ex.Const):
        return arg.value
    return _constant(arg)


def _float_dtype(kinds):
    floats = [k.dtype for k in kinds if isinstance(k, t.Array)]
    return t.broadcast(kinds).dtype if floats else "float64"


def _join_axis(kinds, consts, stacked):
    """The axis (of the result) a join puts its operands along, and the result's ndim."""
    ndim = max(k.ndim for k in kinds) + stacked
    axis = consts[len(kinds)] if len(consts) > len(kinds) else 0
    if type(axis) is not int or not -ndim <= axis < ndim:
        return None, ndim
    return axis % ndim, ndim


def _arrays_alike(kinds):
    return kinds and all(isinstance(k, t.Array) for k in kinds) and len(
        {k.ndim for k in kinds}) == 1


def concatenated(args, consts):
    kinds = list(args[:len(args) - 1])
    if not _arrays_alike(kinds) or kinds[0].ndim == 0:
        return None
    axis, ndim = _join_axis(kinds, consts, 0)
    if axis is None:
        return None
    units = tuple(a for a in range(ndim) if a != axis and all(a in k.unit_axes for k in kinds))
    return t.Array(_float_dtype(kinds), ndim, units)


def stacked(args, consts):
    kinds = list(args[:len(args) - 1])
    if not _arrays_alike(kinds):
        return None
    axis, ndim = _join_axis(kinds, consts, 1)
    if axis is None:
        return None
    units = tuple(a + (a >= axis) for a in range(ndim - 1) if all(a in k.unit_axes
                                                                   for k in kinds))
    if len(kinds) == 1:
        units += (axis,)
    return t.Array(_float_dtype(kinds), ndim, tuple(sorted(units)))


def arrayed(args, consts):
    """``numpy.array([a, b, c])``: numbers give a vector, arrays of one ndim a stack."""
    kinds = list(args)
    if all(t.is_number(k) for k in kinds):
        dtype = "int64" if all(k in (t.INT, t.BOOL) for k in kinds) else "float64"
        return t.Array(dtype, 1, (0,) if len(kinds) == 1 else ())
    return stacked(kinds + [None], (None,) * len(kinds) + (0,))


def _index(axis, value):
    """``g[:, :, value]``: ``value`` at ``axis``, every element before it."""
    return value if axis == 0 else ex.Tuple((_SLICE,) * axis + (value,))


@dataclass(frozen=True)
class _Part:
    """The adjoint of the ``index``th of the arrays joined (concatenated along an axis,
    or stacked along a new one): its part of ``g``."""

    index: int
    axis: int  # normalized: the result's axis, for arrays of ``ndim`` axes
    stacked: bool

    def __call__(self, g, args, out, names):
        if self.stacked:
            return ex.Subscript(g, _index(self.axis, ex.Const(self.index)))
        sizes = [_text("x.shape[a]", names, x=x, a=ex.Const(self.axis))
                 for x in args[:self.index + 1]]
        start = None
        for size in sizes[:-1]:
            start = size if start is None else ex.BinOp("+", start, size)
        stop = sizes[-1] if start is None else ex.BinOp("+", start, sizes[-1])
        return ex.Subscript(g, _index(self.axis, ex.Slice(start, stop)))


@dataclass(frozen=True)
class _JoinPart:
    """``_Part`` with the axis read from the call's constant ``axis`` operand."""

    index: int
    ndim: int
    stacked: bool

    def __call__(self, g, args, out, names):
        axis = _value(args[-1]) % self.ndim
        return _Part(self.index, axis, self.stacked)(g, args, out, names)


def _joined(name, function, rule, stacking, count):
    arrays = tuple(f"a{i}" for i in range(count))
    listed = ", ".join(arrays) + ("," if count == 1 else "")

    def vjp(args, out):
        return tuple(_JoinPart(i, out.ndim, stacking) for i in range(count)) + (None,)
    return _array(f"{name}_{count}", f"numpy.{function}([{listed}], axis=axis)",
                  arrays + ("axis",), rule, vjp, defaults=(0,), ints=("axis",),
                  jvp=linear(*range(count), joint=True))


def _sided(name, stacking_1d, axis_1d, axis_nd):
    """``vstack``/``hstack``: ``stack``/``concatenate`` along a fixed axis."""
    def rule(args, consts):
        kinds = list(args)
        if not _arrays_alike(kinds):
            return None
        one_d = kinds[0].ndim == 1
        axis = axis_1d if one_d else axis_nd
        join = stacked if one_d and stacking_1d else concatenated
        return join(kinds + [None], (None,) * len(kinds) + (axis,))

    def make(count):
        arrays = tuple(f"a{i}" for i in range(count))
        listed = ", ".join(arrays) + ("," if count == 1 else "")

        def vjp(args, out):
            one_d = args[0].ndim == 1
            axis = axis_1d if one_d else axis_nd
            return tuple(_Part(i, axis, one_d and stacking_1d) for i in range(count))
        return _array(f"{name}_{count}", f"numpy.{name}([{listed}])", arrays, rule, vjp,
                      jvp=linear(*range(count), joint=True))
    return make


def _depth_stacked(count):
    """``dstack``: vectors as ``(1, n)`` and matrices stacked along a third axis; arrays of
    three axes or more concatenated along it."""
    arrays = tuple(f"a{i}" for i in range(count))
    listed = ", ".join(arrays) + ("," if count == 1 else "")

    def rule(args, consts):
        kinds = list(args)
        if not _arrays_alike(kinds) or kinds[0].ndim == 0:
            return None
        if kinds[0].ndim >= 3:
            return concatenated(kinds + [None], (None,) * len(kinds) + (2,))
        units = (0,) if kinds[0].ndim == 1 else tuple(a for a in (0, 1) if all(
            a in k.unit_axes for k in kinds))
        return t.Array(_float_dtype(kinds), 3, units + ((2,) if count == 1 else ()))

    def vjp(args, out):
        ndim = args[0].ndim
        return tuple(_DepthPart(i, ndim) for i in range(count))
    return _array(f"dstack_{count}", f"numpy.dstack([{listed}])", arrays, rule, vjp,
                  jvp=linear(*range(count), joint=True))


@dataclass(frozen=True)
class _DepthPart:
    """The adjoint of the ``index``th array ``dstack`` joined: its layer of ``g`` (of a
    vector, its one row), or its part along the third axis."""

    index: int
    ndim: int

    def __call__(self, g, args, out, names):
        if self.ndim >= 3:
            return _Part(self.index, 2, False)(g, args, out, names)
        layer = ex.Tuple((_SLICE, _SLICE, ex.Const(self.index)))
        if self.ndim == 1:
            layer = ex.Tuple((ex.Const(0), _SLICE, ex.Const(self.index)))
        return ex.Subscript(g, layer)


def _array_of(count):
    items = tuple(f"a{i}" for i in range(count))
    listed = ", ".join(items) + ("," if count == 1 else "")

    def vjp(args, out):
        return tuple(_Part(i, 0, True) for i in range(count))
    return _array(f"array_{count}", f"numpy.array([{listed}])", items, arrayed, vjp,
                  jvp=linear(*range(count), joint=True))


FAMILIES = {
    "concatenate": lambda n: _joined("concatenate", "concatenate", concatenated, False, n),
    "stack": lambda n: _joined("stack", "stack", stacked, True, n),
    **{name: _sided(name, vector_op == "stack", axis_1d, axis_nd)
       for name, (vector_op, axis_1d, axis_nd) in SIDED.items()},
    "dstack": _depth_stacked,
    "array": _array_of,
}
WRITTEN = {head: (0, "list") for head in FAMILIES}  # the arrays, a list written out
