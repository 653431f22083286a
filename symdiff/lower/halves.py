"""One part of a function returning a pair (or a triple), read by index: the part's own
record.

Expects a subscript (``ast.Subscript``) in a function being lowered.  Guarantees
``pair_half``: where the subscript reads an element (by a constant index, negative too)
of a call of a function returning two, three or four values (``registry.pairs``,
``array_pairs``), or a part of a split into a constant number of parts, the operand of
that part's record of the call's arguments, as ``first, second = f(x)`` gives it; None
for any other subscript (a pair indexed otherwise is refused where the call is lowered).

    logdet = np.linalg.slogdet(K)[1]   ->  logdet = slogdet_logdet(K)
    m = math.frexp(x)[0]               ->  m = frexp_mantissa(x)
    s = np.linalg.svd(A, full_matrices=False)[1]  ->  s = svd_s(A, False)
    b = np.split(x, 3)[1]              ->  b = split_1(x, 3, 0)   (a split's part, by index)
"""

import ast

from symdiff.lower import names, operands
from symdiff.lower.calls import bind_primitive, parts_of
from symdiff.primitives.array_splits import splits
from symdiff.primitives.registry import array_pairs, pairs, rule_of


def pair_half(frame, node, target):
    call = node.value
    index = node.slice
    if not (isinstance(call, ast.Call) and isinstance(index, (ast.Constant, ast.UnaryOp))):
        return None
    at = _index(index)
    if at is None:
        return None
    callee = _callee(frame, call.func)
    halves = None if callee is None or callee.kind != "primitive" else (
        pairs().get(callee.value) or array_pairs().get(callee.value))
    if halves is None:
        return None
    split = splits(callee.value)
    if not split and not -len(halves) <= at < len(halves):
        return None
    shown = ast.unparse(call.func)
    args = bind_primitive(frame, rule_of(halves[0]), call, shown)
    count = parts_of(frame, args, len(halves), call, shown) if split else len(halves)
    if not -count <= at < count:
        return None
    return operands.emit_op(frame, halves[at % count], args, target)


def _index(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(
            node.operand, ast.Constant) and type(node.operand.value) is int:
        return -node.operand.value
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _callee(frame, func):
    """What ``func`` names, as ``inline.unpacked_call`` reads it; None for another form
    (a method of a value, ``x.reshape(2, -1)[1]``, is read where the call is lowered)."""
    if isinstance(func, ast.Attribute):
        root = func.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or names.meaning_of(
                frame, root.id, root).kind != "module":
            return None
        return names.module_member(frame, func)
    if isinstance(func, ast.Name):
        return names.meaning_of(frame, func.id, func)
    return None
