"""Reuse and accumulation: an expression computed twice from the same values is computed
once (never a call that may have effects), and the contributions added to one adjoint in
a row become one sum of at most MAX_TERMS terms.

    a = math.cos(x)            ──reuse──►   a = math.cos(x)
    b = math.cos(x) * y                     b = a * y
    dx += p                                 dx += p + q
    dx += q
"""

from symdiff.ir import expr as ex
from symdiff.ir import sweeps as sw
from symdiff.optimize.copies import assignment_counts
from symdiff.optimize.walk import (
    blocks,
    children,
    is_compound,
    plain_target,
    rewrite,
    statements,
    walk,
    with_children,
)
from symdiff.primitives.effects import calls_of

MAX_TERMS = 6  # a merged sum of adjoint contributions stays one readable line


def reuse_values(function, math_name, floats=frozenset(), calls=None):
    """Where an expression was already computed into a name, use the name.

    Only names assigned once, at top level, from an expression whose names are
    themselves assigned at most once and whose calls are pure (``effects``): the value
    cannot have changed since, so the reuse is exact (and if computing it could raise,
    it already did).  This is how the reverse sweep reuses ``math.cos(x)`` or ``x * y``
    the forward sweep computed.  Two ``s.pop()`` are two values, never one; a place
    (``xs[k]``) is never a value to reuse.
    """
    calls = calls_of(math_name, calls)
    counts = assignment_counts(function)
    known = {}  # key of an expression -> the name holding its value
    reuse = _Reuse(known, calls)
    for stmt in function.body:
        if known:
            for inner in statements([stmt]) if is_compound(stmt) else (stmt,):
                if isinstance(inner, sw.Let) and sw.is_place(inner.target):
                    inner.value = reuse.replace(inner.value)  # never the place itself
                else:
                    rewrite(inner, reuse.replace)
        name = plain_target(stmt)
        if (name is not None and counts.get(name) == 1
                and not isinstance(stmt.value, ex.Name)
                and not (isinstance(stmt.value, ex.Const) and stmt.value.text is None)
                and all(counts.get(n, 0) <= 1 for n in ex.names(stmt.value)
                        if n != math_name)
                and not any(isinstance(n, ex.Call) and not isinstance(n.func, ex.Attribute)
                            for n in walk(stmt.value))):
            key = _key(stmt.value, calls)
            if key is not None:
                known.setdefault(key, name)
    return reuse.changed


def _key(node, calls):
    """A hashable form of a pure expression (names, numbers, arithmetic, calls ``calls``
    proves pure); None for anything else."""
    kind = type(node)
    if kind is ex.Name:
        return node.id
    if kind is ex.Const:
        if node.text is None:
            return ("const", type(node.value), node.value)
        parts = node.text.split(".")
        if len(parts) == 1:
            return parts[0]
        return ("attribute", parts[0], parts[1]) if len(parts) == 2 else None
    if kind is ex.BinOp:
        left, right = _key(node.left, calls), _key(node.right, calls)
        return None if left is None or right is None else ("binary", node.op, left, right)
    if kind is ex.UnaryOp:
        inner = _key(node.operand, calls)
        return None if inner is None else ("unary", node.op, inner)
    if kind is ex.Attribute and isinstance(node.value, ex.Name):
        return ("attribute", node.value.id, node.attr)
    if kind is ex.Call and not node.keywords and calls.is_pure(node):
        parts = [_key(node.func, calls)] + [_key(a, calls) for a in node.args]
        return None if None in parts else ("call", tuple(parts))
    return None


_REUSABLE = (ex.BinOp, ex.UnaryOp, ex.Call)


class _Reuse:
    def __init__(self, known, calls):
        self.known = known
        self.calls = calls
        self.changed = False

    def replace(self, node):
        """``node`` with its outermost subexpressions already held by a name read instead."""
        if isinstance(node, _REUSABLE):
            key = _key(node, self.calls)
            name = self.known.get(key) if key is not None else None
            if name is not None:
                self.changed = True
                return ex.Name(name)
        inner = children(node)
        if not inner:
            return node
        new = [self.replace(c) for c in inner]
        if all(a is b for a, b in zip(new, inner)):
            return node
        return with_children(node, new)


def merge_accumulations(function, math_name, floats=frozenset(), calls=None):
    """``d = a`` then ``d += b`` becomes ``d = a + b`` (the same additions, in order)."""
    changed = False
    for block in blocks(function):
        i = 0
        while i + 1 < len(block):
            first, second = block[i], block[i + 1]
            name = plain_target(first)
            if (name is not None and isinstance(second, sw.AddTo)
                    and second.target == name
                    and name not in ex.names(second.value)
                    and _spine(first.value) < MAX_TERMS):
                first.value = ex.BinOp("-" if second.negate else "+", first.value,
                                       second.value)
                del block[i + 1]
                changed = True
                continue
            i += 1
    return changed


def _spine(node):
    """How many additions already hang on the left of ``node``."""
    length = 0
    while isinstance(node, ex.BinOp) and node.op in ("+", "-"):
        node, length = node.left, length + 1
    return length
