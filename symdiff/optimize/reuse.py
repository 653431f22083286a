"""Reuse and accumulation: an expression computed twice from the same values is computed
once (never a call that may have effects), and the contributions added to one adjoint in
a row become one sum of at most MAX_TERMS terms.

    a = math.cos(x)            ──reuse──►   a = math.cos(x)
    b = math.cos(x) * y                     b = a * y
    dx += p                                 dx += p + q
    dx += q
"""

import ast

from symdiff.backend.syntax import Transformer, name_nodes, walk
from symdiff.optimize.copies import assignment_counts, reads_name
from symdiff.optimize.prune import blocks
from symdiff.primitives.effects import calls_of

MAX_TERMS = 6  # a merged sum of adjoint contributions stays one readable line


def reuse_values(function, math_name, floats=frozenset(), calls=None):
    """Where an expression was already computed into a name, use the name.

    Only names assigned once, at top level, from an expression whose names are
    themselves assigned at most once and whose calls are pure (``effects``): the value
    cannot have changed since, so the reuse is exact (and if computing it could raise,
    it already did).  This is how the reverse sweep reuses ``math.cos(x)`` or ``x * y``
    the forward sweep computed.  Two ``s.pop()`` are two values, never one.
    """
    calls = calls_of(math_name, calls)
    counts = assignment_counts(function)
    known = {}  # dump of an expression -> the name holding its value
    changed = False
    for stmt in function.body:
        replacer = _Reuse(known, calls)
        replacer.visit(stmt)
        changed |= replacer.changed
        if (isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)
                and counts.get(stmt.targets[0].id) == 1
                and not isinstance(stmt.value, (ast.Name, ast.Constant))
                and all(counts.get(n.id, 0) <= 1 for n in name_nodes(stmt.value)
                        if n.id != math_name)
                and not any(isinstance(n, ast.Call) and not isinstance(n.func, ast.Attribute)
                            for n in walk(stmt.value))):
            key = _key(stmt.value, calls)
            if key is not None:
                known.setdefault(key, stmt.targets[0].id)
    return changed


def _key(node, calls):
    """A hashable form of a pure expression (names, numbers, arithmetic, calls ``calls``
    proves pure); None for anything else."""
    kind = type(node)
    if kind is ast.Name:
        return node.id
    if kind is ast.Constant:
        return (kind, type(node.value), node.value)
    if kind is ast.BinOp:
        left, right = _key(node.left, calls), _key(node.right, calls)
        return None if left is None or right is None else (type(node.op), left, right)
    if kind is ast.UnaryOp:
        inner = _key(node.operand, calls)
        return None if inner is None else (type(node.op), inner)
    if kind is ast.Attribute and isinstance(node.value, ast.Name):
        return (kind, node.value.id, node.attr)
    if kind is ast.Call and not node.keywords and calls.is_pure(node):
        parts = [_key(node.func, calls)] + [_key(a, calls) for a in node.args]
        return None if None in parts else (kind, tuple(parts))
    return None


class _Reuse(Transformer):
    def __init__(self, known, calls):
        self.known = known
        self.calls = calls
        self.changed = False

    def visit_Assign(self, node):
        node.value = self.visit(node.value)  # never the target, and never a whole copy of it
        return node

    def generic_visit(self, node):
        if self.known and isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Call)):
            key = _key(node, self.calls)
            name = self.known.get(key) if key is not None else None
            if name is not None:
                self.changed = True
                return ast.Name(name, ast.Load())
        return super().generic_visit(node)


def merge_accumulations(function, math_name, floats=frozenset(), calls=None):
    """``d = a`` then ``d += b`` becomes ``d = a + b`` (the same additions, in order)."""
    changed = False
    for block in blocks(function):
        i = 0
        while i + 1 < len(block):
            first, second = block[i], block[i + 1]
            if (isinstance(first, ast.Assign) and isinstance(first.targets[0], ast.Name)
                    and isinstance(second, ast.AugAssign)
                    and isinstance(second.op, (ast.Add, ast.Sub))
                    and second.target.id == first.targets[0].id
                    and not reads_name(second.value, second.target.id)
                    and _spine(first.value) < MAX_TERMS):
                first.value = ast.BinOp(first.value, second.op, second.value)
                del block[i + 1]
                changed = True
                continue
            i += 1
    return changed


def _spine(node):
    """How many additions already hang on the left of ``node``."""
    length = 0
    while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        node, length = node.left, length + 1
    return length
