"""Loops over containers whose elements differ in kind: one body per element.

Expects a ``Frame`` and a ``for`` loop as desugar writes it: over ``range(...)`` of
constant bounds (a loop over a list typed element by element or a tuple, whose length
its kind holds: ``for a in arrays`` is ``for a_index in range(2): a = arrays[a_index]``)
or over a dict's keys (``for k in params``, ``params.values()``: every key is in the
dict's kind).  Guarantees, where the body reads such a container by the loop's variable
and its elements differ in kind (a vector and a matrix), the body lowered once per
element with the variable bound to that index or key, a constant, so each read is typed
by its own element; None (nothing emitted) where the loop is lowered as a loop.  The
copies are as many as the kind has elements, never the length of an array: the kinds
the gradient is built for fix them.  A body that leaves early (``break``,
``continue``, ``return``) stays a loop.

    for a in arrays:          (arrays: [vector, matrix])    a = arrays[0]
        s = s + np.sum(a)                                   s = s + np.sum(a)
                                                            a = arrays[1]
                                                            s = s + np.sum(a)
"""

import ast
import copy

from symdiff.core import types as t
from symdiff.ir import nodes as ir
from symdiff.lower import containers

_EXITS = (ast.Break, ast.Continue, ast.Return)


def unrolled_range(frame, node, bounds):
    """Lowers ``for i in range(*bounds)`` once per position where its body reads an
    unlike container by ``i``; whether it did."""
    if not all(isinstance(b, ir.Const) and type(b.value) is int for b in bounds):
        return False
    steps = list(range(*(b.value for b in bounds)))
    return _unrolled(frame, node, [ir.Const(step) for step in steps])


def unrolled_keys(frame, node, kind, reverse, sort):
    """Lowers ``for k in d`` once per key of ``kind``, ``d``'s, in the loop's order, where
    its body reads an unlike dict by ``k``; whether it did."""
    keys = [key for key, _ in kind.items]
    keys = sorted(keys) if sort else keys
    return _unrolled(frame, node, [ir.Const(key) for key in (keys[::-1] if reverse else keys)])


def _unrolled(frame, node, values):
    if not isinstance(node.target, ast.Name) or not _reads_unlike(frame, node) or any(
            isinstance(inner, _EXITS) for stmt in node.body for inner in ast.walk(stmt)):
        return False
    for value in values:
        frame.mapping[node.target.id] = value
        frame.block(copy.deepcopy(node.body))  # fresh nodes: lowering memoizes by node
    frame.block(node.orelse)
    return True


def _reads_unlike(frame, node):
    """Whether ``node``'s body indexes, by the loop's variable, a container whose
    elements differ in kind."""
    variable = node.target.id
    return any(isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Name)
               and inner.slice.id == variable and _unlike(frame, inner.value)
               for stmt in node.body for inner in ast.walk(stmt))


def _unlike(frame, node):
    if not isinstance(node, ast.Name):
        return False
    operand = containers.bound_operand(frame, node.id)
    kind = containers.kind_of_operand(frame, operand) if isinstance(
        operand, (ir.Var, ir.Ref)) else None
    return isinstance(kind, (t.List, t.Tuple, t.Dict)) and t.length(kind) != 0 and (
        t.element(kind, None) is None)  # (an empty dict a loop fills: ``filling``'s)
