"""Reuse and accumulation: an expression computed twice from the same values is computed
once (never a call that may have effects), and the contributions added to one adjoint in
a row become one sum of at most MAX_TERMS terms.

    a = math.cos(x)            ──reuse──►   a = math.cos(x)
    b = math.cos(x) * y                     b = a * y
    v = np.linalg.eigh(A)[1]                v = np.linalg.eigh(A)[1]
    dA = np.linalg.eigh(A)[1] @ g           dA = v @ g
    dx += p                                 dx += p + q
    dx += q
"""

from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw
from symdiff.optimize.analyses import assignment_counts
from symdiff.optimize.walk import (
    blocks,
    children,
    is_compound,
    name_reads,
    plain_target,
    rewrite,
    statements,
    walk,
    with_children,
)

MAX_TERMS = 6  # a merged sum of adjoint contributions stays one readable line


def reuse_values(function, context):
    """Where an expression was already computed into a name, use the name.

    Only names assigned once, at top level, from an expression whose names are
    themselves assigned at most once and whose calls are pure (``effects``): the value
    cannot have changed since, so the reuse is exact (and if computing it could raise,
    it already did).  This is how the reverse sweep reuses ``math.cos(x)`` or ``x * y``
    the forward sweep computed.  Two ``s.pop()`` are two values, never one; a place
    (``xs[k]``) is never a value to reuse.
    """
    math_name = context.math_name
    counts = context.analysis(assignment_counts, function)
    known = {}  # value number of an expression -> the name holding its value
    reuse = _Reuse(known, context)
    for stmt in function.body:
        kind = type(stmt)
        if kind is sw.Comment:
            continue
        if known:
            if kind is sw.Let and type(stmt.target) is str:  # most statements
                value = stmt.value
                new = reuse.replace(value)
                if new is not value:
                    stmt.value = new
            else:
                for inner in statements([stmt]) if is_compound(stmt) else (stmt,):
                    if isinstance(inner, sw.Let) and sw.is_place(inner.target):
                        inner.value = reuse.replace(inner.value)  # never the place itself
                    else:
                        rewrite(inner, reuse.replace)
        name = plain_target(stmt)
        if (name is not None and counts.get(name) == 1 and _may_hold(stmt.value, context)
                and all(counts.get(n, 0) <= 1 for n in name_reads(stmt.value, context)
                        if n != math_name)):
            number = value_number(stmt.value, context)[0]
            if number is not None:
                known.setdefault(number, name)
    return reuse.changed


def _may_hold(value, context):
    """Whether a name assigned ``value`` may stand for it: not a name or a number, and no
    call of a function by a bare name (kept per expression)."""
    return context.remember("holdable", value, lambda v: not isinstance(v, ex.Name) and not (
        isinstance(v, ex.Const) and v.text is None) and not any(
        isinstance(n, ex.Call) and not isinstance(n.func, ex.Attribute) for n in walk(v)))


def value_number(node, context):
    """``(number, numbers inside)``: one number for every pure expression of one value
    (names, numbers, arithmetic, calls the run's ``calls`` proves pure; None for anything
    else), and the numbers of the expressions that could be reused within ``node``,
    itself included.  Kept per expression object for the run: expressions are frozen."""
    table = context.table("value numbers")
    hit = table.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    found = _number(node, context)
    table[id(node)] = (node, found)
    return found


_NOTHING = frozenset()


def _number(node, context):
    kind = type(node)
    key = None
    inside = _NOTHING
    if kind is ex.Name:
        key = node.id
    elif kind is ex.Const:
        if node.text is None:
            key = ("const", type(node.value), node.value)
        else:
            parts = node.text.split(".")
            if len(parts) == 1:
                key = parts[0]
            elif len(parts) == 2:
                key = ("attribute", parts[0], parts[1])
    elif kind is ex.Attribute and isinstance(node.value, ex.Name):
        key = ("attribute", node.value.id, node.attr)
    elif kind is ex.Attribute and type(node.value) is ex.Attribute and type(
            node.value.value) is ex.Name:  # ``np.linalg.eigh``
        key = ("attribute", f"{node.value.value.id}.{node.value.attr}", node.attr)
    else:
        parts = [value_number(c, context) for c in children(node)]
        insides = [p[1] for p in parts if p[1]]
        if insides:
            inside = insides[0] if len(insides) == 1 else _NOTHING.union(*insides)
        numbers = tuple(p[0] for p in parts)
        if None in numbers:
            pass
        elif kind is ex.BinOp:
            key = ("binary", node.op, numbers[0], numbers[1])
        elif kind is ex.UnaryOp:
            key = ("unary", node.op, numbers[0])
        elif kind is ex.Call and context.calls.is_pure(node):  # (``axis=0``: by name)
            key = ("call", numbers, tuple(name for name, _ in node.keywords))
        elif kind is ex.Subscript and type(node.value) is ex.Call and type(
                node.index) is ex.Const:  # ``np.linalg.eigh(a)[1]``: a part of a new value
            key = ("part", numbers[0], numbers[1])
    if key is None:
        return None, inside
    interned = context.tables.setdefault("interned", {})  # key -> its number, this run
    number = interned.get(key)
    if number is None:
        number = interned[key] = len(interned)
    if kind in _REUSABLE:
        inside = inside | {number}  # a new set: ``inside`` may be a child's
    return number, inside


_REUSABLE = (ex.BinOp, ex.UnaryOp, ex.Call, ex.Subscript)


class _Reuse:
    def __init__(self, known, context):
        self.known = known
        self.context = context
        self.changed = False

    def replace(self, node):
        """``node`` with its outermost subexpressions already held by a name read instead."""
        number, inside = value_number(node, self.context)
        if self.known.keys().isdisjoint(inside):
            return node
        if number in self.known and type(node) in _REUSABLE:
            self.changed = True
            return ex.Name(self.known[number])
        inner = children(node)
        new = [self.replace(c) for c in inner]
        if all(a is b for a, b in zip(new, inner)):
            return node
        return with_children(node, new)


def merge_accumulations(function, context):
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
