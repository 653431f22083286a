"""Fuse: a value computed once and read once, further down the same block, is
written where it is read.

Expects a generated function (``optimize`` runs this with its other passes).
Guarantees the same results and the same exceptions: the moved expression sees
the same operands (nothing in between assigns a name it reads) and is evaluated
exactly once, as before; if it could raise, nothing in between and nothing
evaluated before it in its new place could, so the same error comes first.
Values read twice, or read by the reverse sweep, keep their names: storing them
is what saves recomputing them.  A fused statement stays one readable line
(``MAX_OPERATIONS``), and no value moves from the forward sweep into the
reverse one.  A value computed by a call that may have effects (``effects``: a
stack's ``pop``, a user function) stays where it is.

    mul_h = a * h
    add_h = mul_h + b           ──fuse──►   sin_h = math.sin(a * h + b)
    sin_h = math.sin(add_h)                 h = h + 0.001 * sin_h
    mul_h_1 = 0.001 * sin_h
    h = h + mul_h_1
"""

import ast

from symdiff.backend.syntax import Transformer, name_nodes, statements, walk
from symdiff.optimize.prune import blocks, cannot_raise, is_comment
from symdiff.primitives.effects import calls_of

MAX_OPERATIONS = 6  # operations in a statement built by fusing
REACH = 40  # statements searched below a value for its reader (keeps the pass linear)

_OPERATIONS = (ast.BinOp, ast.UnaryOp, ast.Call, ast.Compare, ast.IfExp, ast.BoolOp)
_SIMPLE = (ast.Assign, ast.AugAssign, ast.Expr)  # a return keeps its named adjoints


def fuse_single_uses(function, math_name, floats=frozenset(), calls=None):
    """``t = e`` whose only reader follows in the same block: ``e`` goes there, ``t`` goes."""
    sites, reads = _counts(function)
    quiet = _stack_operations(function)
    calls = calls_of(math_name, calls)
    changed = False
    for block in blocks(function):
        i = 0
        while i < len(block):
            if _fuse(block, i, sites, reads, quiet, calls):
                changed = True
            else:
                i += 1
    return changed


def _fuse(block, i, sites, reads, quiet, calls):
    stmt = block[i]
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)):
        return False
    name, value = stmt.targets[0].id, stmt.value
    if sites.get(name) != 1 or reads.get(name) != 1 or not isinstance(value, _OPERATIONS):
        return False
    if any(isinstance(n, ast.Call) and not calls.is_pure(n) for n in walk(value)):
        return False  # a pop stays where it is: moving it would take values out of order
    operands = {n.id for n in name_nodes(value)}
    raises = not cannot_raise(value)
    for j in range(i + 1, min(len(block), i + 1 + REACH)):
        later = block[j]
        if is_comment(later):
            continue
        if is_comment(later, True) or not isinstance(later, _SIMPLE):
            return False  # the reverse sweep's heading, a branch, a loop, the return
        if any(n.id == name for n in name_nodes(later.value)):
            return _place(block, i, j, name, value, raises, reads)
        if operands & set(_targets(later)) or (raises and not _is_quiet(later, quiet)):
            return False
    return False


def _place(block, i, j, name, value, raises, reads):
    """Put ``value`` in place of ``name`` in ``block[j]``, if the rules allow."""
    reader = block[j]
    if _operations(reader.value) + _operations(value) > MAX_OPERATIONS:
        return False
    if isinstance(reader, ast.Assign) and not any(reads.get(t) for t in _targets(reader)):
        return False  # kept only because it may raise: it stays as short as it was
    if raises and not _only_quiet_before(reader.value, name):
        return False
    reader.value = _Replace(name, value).visit(reader.value)
    del block[i]
    return True


def _counts(function):
    """How many places assign each name (parameters count), and how many read it."""
    sites = {a.arg: 1 for a in function.args.args}
    reads = {}
    for node in name_nodes(function):
        table = reads if isinstance(node.ctx, ast.Load) else sites
        table[node.id] = table.get(node.id, 0) + 1
    for node in statements(function):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            reads[node.target.id] = reads.get(node.target.id, 0) + 1  # ``d += e`` reads d
    return sites, reads


def _stack_operations(function):
    """The names bound to a list's ``append`` or ``pop`` (the generated stack's ``push``
    and ``pop``): on the stack the reverse sweep keeps balanced, neither can raise."""
    found = set()
    for stmt in function.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Tuple) and (
                isinstance(stmt.value, ast.Tuple)):
            for target, bound in zip(stmt.targets[0].elts, stmt.value.elts):
                if (isinstance(target, ast.Name) and isinstance(bound, ast.Attribute)
                        and bound.attr in ("append", "pop")):
                    found.add(target.id)
    return found


def _is_quiet(stmt, quiet):
    """Whether running ``stmt`` certainly raises nothing."""
    value = stmt.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and (
            value.func.id in quiet):
        return all(isinstance(a, (ast.Name, ast.Constant)) for a in value.args)
    return cannot_raise(value)


def _targets(stmt):
    if isinstance(stmt, ast.Assign):
        return [n.id for t in stmt.targets for n in name_nodes(t)]
    if isinstance(stmt, ast.AugAssign):
        return [stmt.target.id]
    return []


def _operations(node):
    return sum(isinstance(n, _OPERATIONS) for n in walk(node))


def _only_quiet_before(node, name):
    """Whether everything Python evaluates before reading ``name`` in ``node`` is certain
    not to raise, and ``name`` is read unconditionally (not inside ``a if c else b``,
    nor after the first operand of ``and``/``or``)."""
    state = {"found": False}

    def visit(node):
        """Walk in evaluation order; False as soon as something before ``name`` may raise."""
        if state["found"]:
            return True
        if isinstance(node, ast.Name):
            state["found"] = node.id == name
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return True  # math.sin: a module's function
        if isinstance(node, (ast.IfExp, ast.BoolOp, ast.Compare)):
            parts = _evaluation_order(node)  # all but the first may be skipped
            if any(_mentions(p, name) for p in parts[1 + isinstance(node, ast.Compare):]):
                return False
        for child in _evaluation_order(node):
            if not visit(child):
                return False
            if state["found"]:
                return True
        return cannot_raise(node)

    return visit(node) and state["found"]


def _evaluation_order(node):
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.Call):
        return [node.func, *node.args]
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    if isinstance(node, ast.IfExp):
        return [node.test, node.body, node.orelse]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.Attribute):
        return [node.value]
    if isinstance(node, ast.Tuple):
        return list(node.elts)
    return []


def _mentions(node, name):
    return any(n.id == name for n in name_nodes(node))


class _Replace(Transformer):
    def __init__(self, name, value):
        self.name, self.value = name, value

    def visit_Name(self, node):
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return self.value
        return node
