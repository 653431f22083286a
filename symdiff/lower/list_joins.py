"""Joins of a list by name: ``np.stack(xs, axis)``, ``np.concatenate(xs, axis)``,
``np.array(xs)`` and ``np.vstack(xs)``/``np.hstack(xs)``/``np.column_stack(xs)`` of a
list whose length is read when the gradient runs.

Expects a ``Frame`` and the call.  Guarantees ``joined_list``: one ``Reduce`` of the join
along its constant axis (the sided joins' axis and join the types' to decide,
``primitives.stacked.sided_join``), the call with the elements written out for a tuple
(or a list typed element by element), None where the values are written out already or
no container is named; a located error for a form not taken.

    S = np.stack(states, axis=1)   ->  Reduce("stack", states, axis=1)
    H = np.vstack(rows)            ->  Reduce("vstack", rows, axis=0)  (then stack or concatenate)
    P = np.stack(pair)             ->  np.stack([pair[0], pair[1]])    (a tuple: written out)
"""

import ast

from symdiff.core import types as t
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower.containers import container_of, kind_of_operand
from symdiff.primitives.reductions import SIDED
from symdiff.primitives.stacked import AS_STACK


def joined_list(frame, op, call, target):
    """``np.stack(xs, axis)`` or ``np.concatenate(xs, axis)`` of a list by name (its
    length read when the gradient runs): one ``Reduce`` of ``op`` along the constant
    ``axis``; ``np.array(xs)`` and ``np.asarray(xs)``, a new array of the list's values,
    are its stack along the first.  A tuple's (or a list's typed element by element:
    its length known) are the call with its elements written out.  None when the
    values are written out
    (``np.stack([a, b])``, a record per count) or the call names no known container.
    What the list holds is the type inference's to say (``primitives.stacked``)."""
    if not call.args or isinstance(call.args[0], (ast.List, ast.Tuple)):
        return None
    if op in AS_STACK:
        if container_of(frame, call.args[0]) is None:
            return None  # ``np.asarray(x)`` of an array
        if len(call.args) > 1 or call.keywords:
            raise frame.error(UnsupportedSyntaxError, call, f"this call of np.{op} of a "
                              "list is not supported", f"np.{op}(xs), of the list alone")
        op, call = "stack", ast.Call(call.func, call.args, [])
    found = container_of(frame, call.args[0])
    if found is None:
        return None
    name, path = found
    kind = kind_of_operand(frame, ir.Ref(name, path))
    if isinstance(kind, t.Tuple):  # a tuple, a list typed element by element: written out
        return frame.value(_spread_out(call, len(kind.elts)), target)
    if op in SIDED:
        return _sided_list(frame, op, call, kind, name, path, target)
    keywords = {k.arg: k.value for k in call.keywords}
    if not isinstance(kind, t.List) or len(call.args) > 2 or set(keywords) - {"axis"} or (
            len(call.args) == 2 and keywords):
        raise frame.error(UnsupportedSyntaxError, call, f"this call of np.{op} of a "
                          f"{kind} is not supported", f"np.{op}(xs, axis=k) of a list of "
                          "arrays, or write the arrays out")
    given = call.args[1] if len(call.args) == 2 else keywords.get("axis")
    axis = ir.Const(0) if given is None else frame.value(given)
    if not isinstance(axis, ir.Const) or type(axis.value) is not int:
        raise frame.error(UnsupportedSyntaxError, given or call, f"the axis of np.{op} "
                          "is not an int written out", f"write it: np.{op}(xs, axis=1)")
    target = target or frame.namer.fresh(f"{op.rpartition('.')[2]}_{frame.hint}")
    frame.emit(ir.Reduce(target, op, name, frame.origin, path=path, axis=axis.value))
    return ir.Var(target)


def _sided_list(frame, op, call, kind, name, path, target):
    """``np.vstack(xs)`` of a list by name: a ``Reduce`` of ``op``, its join and axis
    the types' to decide (``primitives.stacked.sided_join``)."""
    if not isinstance(kind, t.List) or len(call.args) > 1 or call.keywords:
        raise frame.error(UnsupportedSyntaxError, call, f"this call of np.{op} of a "
                          f"{kind} is not supported", f"np.{op}(xs) of a list of arrays, "
                          "or write the arrays out")
    target = target or frame.namer.fresh(f"{op}_{frame.hint}")
    frame.emit(ir.Reduce(target, op, name, frame.origin, path=path, axis=0))
    return ir.Var(target)


def _spread_out(call, count):
    """``np.stack([xs[0], xs[1]], ...)`` for ``np.stack(xs, ...)`` of ``count`` elements."""
    def located(node):
        return ast.copy_location(node, call.args[0])
    items = [located(ast.Subscript(call.args[0], located(ast.Constant(i)), ast.Load()))
             for i in range(count)]
    listed = located(ast.List(items, ast.Load()))
    return ast.copy_location(ast.Call(call.func, [listed] + call.args[1:], call.keywords), call)
