"""Array steps: whether an operation on arrays raises nothing, for the types and
shapes ``optimize.arrays`` proves, asked by ``facts.cannot_raise``'s judge.

Expects an IR expression (``core.expr``) of a function typed by
``analysis.sweep_types`` and the optimizer's ``Context``.  Guarantees
``array_step(e, context, judge)``: the operands of ``e`` left to judge when the
operation ``e`` itself raises nothing, else False: ``+ - * / **`` of float arrays of
one shape class and numbers, or of numbers one of which is a NumPy float (``0.5 *
np.sum(x)``: NumPy's scalars give inf or nan where Python's raise); NumPy's elementwise
functions of such arrays; a reduction the registry calls ``total`` with its axis in
range; ``*_like``; ``.copy()``; ``.shape``, ``.size``, ``.ndim``, ``.T``, and
``x.shape[k]`` for a ``k`` within the axes.  Under NumPy's default ``errstate`` an
overflow, a division by zero or a log of a negative number give inf or nan and a
warning, never an exception.

    lap * lap              (lap a float64 array)        -> (lap, lap)
    x * y                  (x, y two parameters)        -> False: the shapes may differ
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.optimize.arrays import (
    ARITHMETIC,
    LIKE,
    array_type_of,
    elementwise_op,
    is_array,
    is_numpy_scalar,
    like_arguments,
    method_of_array,
    numpy_call,
    numpy_floats,
    reduction_step,
)
from symdiff.primitives.registry import array_names, typed

_SHAPE_ATTRIBUTES = frozenset(("shape", "size", "ndim"))


def _numpy_float_name(expr, context):
    return type(expr) is ex.Name and expr.id in numpy_floats(context)


def array_step(expr, context, judge):
    """The operands of ``expr`` left to judge when the array operation ``expr`` itself
    raises nothing (see the module's docstring), else False."""
    kind = type(expr)
    if kind is ex.BinOp and expr.op in ARITHMETIC or kind is ex.UnaryOp and expr.op == "-":
        operands = (expr.operand,) if kind is ex.UnaryOp else (expr.right, expr.left)
        if not (is_array(expr, context) or is_numpy_scalar(expr, context)) or any(
                judge.big_int(o) and not _numpy_float_name(o, context) for o in operands):
            return False
        return operands
    if kind is ex.Attribute:
        array = array_type_of(expr.value, context)
        return () if isinstance(array, t.Array) and (
            expr.attr in _SHAPE_ATTRIBUTES or expr.attr == "T") else False
    if kind is ex.Subscript:
        return _shape_read(expr, context)
    if kind is ex.Call:
        return _call_step(expr, context, judge)
    return False


def _shape_read(expr, context):
    """``x.shape[k]`` for a constant ``k`` within ``x``'s axes."""
    shape, index = expr.value, expr.index
    if type(shape) is not ex.Attribute or shape.attr != "shape":
        return False
    array = array_type_of(shape.value, context)
    if not isinstance(array, t.Array) or type(index) is not ex.Const or (
            type(index.value) is not int):
        return False
    return () if -array.ndim <= index.value < array.ndim else False


def _call_step(expr, context, judge):
    if method_of_array(expr, context, "copy"):
        return ()
    attr = numpy_call(expr, context)
    if attr in LIKE:
        ok = like_arguments(expr, context) and not any(judge.big_int(a) for a in expr.args)
        return tuple(reversed(expr.args)) if ok else False
    op = elementwise_op(expr, context)
    if op is not None:
        quiet = not typed(op, (t.FLOAT,) * len(expr.args), by="numpy").may_raise
        ok = quiet and is_array(expr, context) and not any(judge.big_int(a) for a in expr.args)
        return tuple(reversed(expr.args)) if ok else False
    if attr is not None:
        return reduction_step(expr, context, array_names()["functions"].get(attr))
    return False
