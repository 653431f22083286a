"""Kept axes: a sum that keeps its axes, read at place 0 of each of them, is the sum
without them.

    dsq = np.sum(dD, axis=0, keepdims=True)[0, :]   ──kept_axes──►   dsq = np.sum(dD, axis=0)
    db = np.sum(g, axis=(0, 2), keepdims=True)[0, :, 0]               db = np.sum(g, axis=(0, 2))

Expects the typed sweeps IR and its ``Context``.  Guarantees the same results, bit for
bit, and the same exceptions: ``keepdims=True`` leaves each summed axis of size one, and
the index takes each of them out again at its one place and keeps every other axis whole
(``:``), which is what ``keepdims=False`` gives, with the same sums of the same
elements in the same order and the same dtype; the sum was a new array, so neither
result is held by any other name.  The index must say ``0`` at exactly the summed axes
(read from the array's type where an axis is negative) and ``:`` elsewhere.  The adjoint
of ``x[:, None]`` (``g[:, 0]``) of an unbroadcast adjoint (``np.sum(g, axis=1,
keepdims=True)``) is where it comes from.
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.optimize.arrays import numpy_call
from symdiff.optimize.walk import every_statement, transform_every

__all__ = ["drop_kept_axes"]

_WHOLE = ex.Slice()


def drop_kept_axes(function, context):
    """Rewrite every such read of a sum of ``function``; whether one was."""
    if not any(isinstance(k, t.Array) for k in context.types.values()):
        return False  # no array: no sum of one
    changed = [False]

    def visit(node):
        if type(node) is ex.Subscript and type(node.value) is ex.Call and _kept_and_taken(
                node.value, node.index, context):
            changed[0] = True
            return ex.Call(node.value.func, node.value.args, node.value.keywords[:1])
        return node

    kept = context.table("kept axes kept")  # what it left as it was, not walked again
    for stmt in every_statement(function):
        transform_every(stmt, visit, kept)
    return changed[0]


def _kept_and_taken(call, index, context):
    """Whether ``call`` is ``np.sum(a, axis=..., keepdims=True)`` and ``index`` takes out
    exactly its summed axes at place 0."""
    if numpy_call(call, context) != "sum" or len(call.args) != 1 or [
            k for k, _ in call.keywords] != ["axis", "keepdims"] or (
            call.keywords[1][1] != ex.Const(True)):
        return False
    array = call.args[0]
    ndim = getattr(context.types.get(array.id), "ndim", None) if type(array) is ex.Name else None
    axes = _axes(call.keywords[0][1], ndim)
    parts = index.elts if type(index) is ex.Tuple else (index,)
    if axes is None or len(parts) > ndim or not all(_whole(p) or _first(p) for p in parts):
        return False
    return {i for i, p in enumerate(parts) if _first(p)} == axes


def _whole(part):
    return part == _WHOLE


def _first(part):
    return type(part) is ex.Const and type(part.value) is int and part.value == 0


def _axes(axis, ndim):
    """The summed axes of an array of ``ndim`` axes, as non-negative ints; None where
    not all are known."""
    value = axis.value if type(axis) is ex.Const else None
    given = value if type(value) is tuple else (value,)
    if ndim is None or not all(type(a) is int and -ndim <= a < ndim for a in given):
        return None
    return {a % ndim for a in given}
