"""A list of arrays joined into one: ``np.stack(xs, axis)`` and ``np.concatenate(xs,
axis)`` of a list whose length is read when the gradient runs (a list of per-step
arrays a loop appends to, a list parameter).  The arrays written out
(``np.stack([a, b])``) are ``array_joins``' records, one per count; these are
reductions of a whole list (``ir.Reduce``, ``op`` "stack" or "concatenate", its
``axis`` normalized to count from the front), one record per axis.

Expects a list's type whose element is an array (``core.types``).  Guarantees the
record's type rule (the joined axis never claimed of size one) and its VJP, each
element's part of ``g`` (``Each``: the reverse adds it into the element's adjoint, an
array of its own):

    y = np.stack(xs, axis=1)       dxs[i] += g[:, i]
    y = np.concatenate(xs)         xs_start = 0
                                   for i in range(len(xs)):
                                       xs_end = xs_start + xs[i].shape[0]
                                       dxs[i] += g[xs_start:xs_end]
                                       xs_start = xs_end

Their JVP is the same join of the tangents, the list of them in step with the list:

    y = np.stack(xs, axis=1)       dy = np.stack(dxs, axis=1)

``np.vstack``, ``np.hstack`` and ``np.column_stack`` of a list by name (``SIDED``) are
one of these two once the elements' number of axes is known (``sided_join``): the
inference types them so, and then each such ``Reduce`` is rewritten to its join
(``analysis.held_types.normalize_join_axes``), whose record the sweeps read:

    np.vstack(rows)   of vectors: np.stack(rows, axis=0);   of matrices: concatenate axis 0
    np.hstack(parts)  of vectors: concatenate axis 0;       of matrices: concatenate axis 1

    >>> joined_operation("stack", 0).result(t.List(t.Array("float32", 1), None), ())
    Array(dtype='float32', ndim=2, unit_axes=())
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.array_reductions import _text
from symdiff.errors import InternalError
from symdiff.primitives.containers import POSITION, Each, Operation, Running
from symdiff.primitives.reductions import SIDED

AS_STACK = ("array", "asarray")  # of a list by name: its stack along the first axis
_SLICE = ex.Slice()


def joined_type(op, kind, axis):
    """The array ``op`` of a list of type ``kind`` gives along ``axis`` (a stack of
    floats, a vector); None when its elements are not arrays of floats (or floats, for a
    stack) or the axis does not stand in the result."""
    elem = t.element(kind, None) if isinstance(kind, t.List) else None
    if op in SIDED:
        joined = sided_join(op, elem)
        if joined is None:
            return None
        join, axis = joined
        return joined_type(join, kind, axis)
    if op == "stack" and elem in (t.FLOAT, t.NUMPY_FLOAT):  # numbers: a vector of them
        elem = t.Array("float64", 0)
    if not isinstance(elem, t.Array) or not elem.dtype.startswith("float"):
        return None
    axis = normalized_axis(op, elem.ndim, axis)
    if axis is None:
        return None
    if op == "stack":
        units = tuple(a + (a >= axis) for a in elem.unit_axes)
        return t.Array(elem.dtype, elem.ndim + 1, units)
    return t.Array(elem.dtype, elem.ndim, tuple(a for a in elem.unit_axes if a != axis))


def sided_join(op, elem):
    """``(join, axis)``: the ``stack`` or ``concatenate`` the ``SIDED`` join ``op`` of
    arrays of type ``elem`` is (``hstack`` of numbers: their vector); None where they
    are not arrays of one axis or more."""
    if op == "hstack" and (elem in (t.FLOAT, t.NUMPY_FLOAT) or isinstance(
            elem, t.Array) and not elem.ndim):
        return "stack", 0
    if not isinstance(elem, t.Array) or not elem.ndim:
        return None
    vector_op, axis_1d, axis_nd = SIDED[op]
    return (vector_op, axis_1d) if elem.ndim == 1 else ("concatenate", axis_nd)


def normalized_axis(op, ndim, axis):
    """``axis`` of ``op`` of arrays of ``ndim`` axes counted from the front of the
    result, or None where NumPy raises (``concatenate`` of numbers, an axis beyond)."""
    axes = ndim + (op == "stack")
    if type(axis) is not int or axes == 0 or op == "concatenate" and ndim == 0 or not (
            -axes <= axis < axes):
        return None
    return axis % axes


def _index(axis, value):
    """``g[:, :, value]``: ``value`` at ``axis``, every element before it."""
    return value if axis == 0 else ex.Tuple((_SLICE,) * axis + (value,))


def _size(names, array, axis):
    return ex.Subscript(ex.Attribute(array, "shape"), ex.Const(axis))


def _stack_vjp(axis):
    def vjp(g, args, out, names):
        return Each(ex.Subscript(g, _index(axis, POSITION)))
    return vjp


_START, _END = ex.Name("\0start"), ex.Name("\0end")  # where a part stands along the axis


def _concatenate_vjp(axis):
    def vjp(g, args, out, names):
        size = _size(names, ex.Subscript(args[0], POSITION), axis)
        return Each(ex.Subscript(g, _index(axis, ex.Slice(_START, _END))),
                    running=Running(_START, _END, ex.Const(0), size))
    return vjp


def _joined_jvp(op, axis):
    """The join is linear: the same join of the list of tangents."""
    def jvp(tangent, args, out, names):
        text = f"numpy.{op}(t)" if axis == 0 else f"numpy.{op}(t, axis={axis})"
        return _text(text, names, t=tangent)
    return jvp


def joined_operation(op, axis):
    """The record of ``op`` ("stack" or "concatenate") of a list along ``axis``."""
    def result(kind, path):
        for index in path:
            kind = t.element(kind, index)
        return joined_type(op, kind, axis)
    if op in SIDED:  # typed here, rewritten to its join before any sweep is written
        return Operation(op, ("container",), result, (_resolved(op),), (_resolved(op),))
    vjp = (_stack_vjp if op == "stack" else _concatenate_vjp)(axis)
    return Operation(op, ("container",), result, (vjp,), (_joined_jvp(op, axis),))


def _resolved(op):
    def builder(*args):
        raise InternalError("differentiate", f"np.{op} of a list was not rewritten to "
                            "its join once its elements were typed")
    return builder

