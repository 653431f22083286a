"""Saves packed: the values one iteration of a loop saves, pushed as one tuple.

Expects the optimized sweeps (``ir.sweeps``), each loop of the forward sweep and its
reverse tagged with the id of the user's loop they run (``For.loop``, ``While.loop``,
from ``ad.control``).  Guarantees the same values popped into the same names: where an
iteration pushes at least ``SMALLEST`` names on a save stack, each unchanged from its
push to the last of them, and the reverse iteration pops them into names it does not
touch between the first of those pops and their own, the pushes become one push of a
tuple where the last was and the pops one pop where the first was, unpacked.  A list
append and a pop cost about what building a tuple and unpacking it costs, so three
values saved cost one call each way instead of three.  Two values are packed too where
the reverse iteration then reads a saved value instead of computing it again.

    for _ in range(9):                        for _ in range(9):
        push(x0)                                  sub_s = x1 - x0 * x0
        sub_s = x1 - x0 * x0                      sub_s_1 = 1.0 - x0
        push(sub_s)                ──►            push((x0, sub_s, sub_s_1))
        sub_s_1 = 1.0 - x0                        x0 = x1
        push(sub_s_1)                         for _ in reversed(range(9)):
        x0 = x1                                   x0, sub_s, sub_s_1 = pop()
    for _ in reversed(range(9)):                  ...
        sub_s_1 = pop()
        ...  sub_s = pop()  ...  x0 = pop()

The stack stays aligned: what an iteration pushes in nested statements (an inner loop,
a branch) is pushed before the tuple and, in the reverse iteration, popped after it, as
the reverse iteration mirrors the forward one.  That mirror is checked, not assumed: the
pushes and nested saves of the forward body, read backwards, must meet the pops and
nested restores of the reverse body one for one.  Loops run inside a ``try`` body (an
exception may end an iteration part way, with the reverse sweep going on) and loops a
``break`` leaves after saving anything are left alone, and so is a loop the sweeps run
more than once forward or back.  The numba target, whose save lists each hold one type
of number, takes the pushes as they are (``optimize_function``'s ``pack``).
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize.walk import rewrite, transform
from symdiff.primitives.registry import float_math

SMALLEST = 3  # names saved per iteration that are worth one tuple


def pack_saves(function, math_name=None):
    """Rewrite, in place, the loops of ``function`` whose iterations save ``SMALLEST``
    names or more on a save stack to push them as one tuple (two, where the reverse
    iteration then reads a saved value instead of computing it again:
    ``_saved_instead``); whether any changed.  ``math_name``: the name ``math`` is read
    by (None: no call is taken for a saved value)."""
    stacks = [(s.push, s.pop) for s in sw.walk(function.body) if type(s) is sw.NewStack]
    known = _Known(function.types or {}, math_name)
    changed = False
    for forward, back in _paired_loops(function.body):
        for push, pop in stacks:
            changed |= _pack(forward.body, back.body, push, pop, known)
    return changed


def _paired_loops(block):
    """``(forward loop, its reverse)`` for each user loop run once each way, outside any
    ``try`` body; the forward loop is the one met first."""
    seen = {}
    _collect(block, seen)
    return [found for found in seen.values() if len(found) == 2]


def _collect(block, seen):
    for stmt in block:
        if type(stmt) is sw.Try:
            _mark_inside_try(stmt, seen)
            continue
        if type(stmt) in (sw.For, sw.While) and stmt.loop is not None:
            seen.setdefault(stmt.loop, []).append(stmt)
        for inner in sw.blocks(stmt):
            _collect(inner, seen)


def _mark_inside_try(stmt, seen):
    """The loops in a ``try`` are never packed: each is counted as met three times."""
    for inner in sw.walk([stmt]):
        if type(inner) in (sw.For, sw.While) and inner.loop is not None:
            seen.setdefault(inner.loop, []).extend([inner] * 3)


def _pack(forward, back, push, pop, known):
    saves = _events(forward, push, pop, sw.Push, push)
    loads = _events(back, push, pop, sw.Pop, pop)
    if saves is None or loads is None or [k for k, _ in reversed(saves)] != [
            k for k, _ in loads] or _breaks_after_saving(forward, saves):
        return False
    own_loads = [j for kind, j in reversed(loads) if kind == "own"]  # in the saves' order
    pairs = [(i, j) for (kind, i), j in zip([e for e in saves if e[0] == "own"], own_loads)
             if type(forward[i].value) is ex.Name and type(back[j].target) is str]
    if len(pairs) < 2:
        return False
    last, first = pairs[-1]  # where the tuple is pushed, and popped
    pairs = [(i, j) for i, j in pairs if _kept(forward, i, last) and _untouched(back, first, j)]
    reused = _saved_instead(forward, back, pairs, known) if len(pairs) >= 2 else []
    if len(pairs) < SMALLEST and not reused:
        return False
    values = ex.Tuple(tuple(forward[i].value for i, _ in pairs))
    targets = tuple(back[j].target for _, j in pairs)
    forward[last] = sw.Push(push, values)
    back[first] = sw.Pop(targets, pop)
    for i, _ in reversed(pairs[:-1]):
        del forward[i]
    for j in sorted((j for _, j in pairs[:-1]), reverse=True):
        del back[j]
    for stmt, change in reused:
        rewrite(stmt, lambda e: transform(e, change))
    return True


def _events(block, push, pop, own_kind, own_stack):
    """What ``block`` does to the save stack, in order: ``("own", i)`` for a push (or pop)
    of its own at position ``i``, ``("inner", i)`` for a statement holding some; None
    when something else there reads or writes the stack's functions."""
    found = []
    for i, stmt in enumerate(block):
        if type(stmt) is own_kind and not stmt.method and stmt.stack == own_stack:
            found.append(("own", i))
        elif any(_uses_stack(s, push, pop) for s in sw.walk([stmt])):
            if not sw.blocks(stmt):
                return None  # a push where a pop was looked for, or the reverse
            found.append(("inner", i))
    return found


def _uses_stack(stmt, push, pop):
    return type(stmt) in (sw.Push, sw.Pop) and not stmt.method and stmt.stack in (push, pop)


def _breaks_after_saving(forward, saves):
    """Whether a ``break`` of this loop (not of a loop inside it) may stop an iteration
    after its first save: the tuple would then never be pushed."""
    first = saves[0][1] if saves else len(forward)
    return any(_breaks(stmt) for stmt in forward[first:])


def _breaks(stmt):
    if type(stmt) in (sw.Break, sw.Return):
        return True
    if type(stmt) in (sw.For, sw.While):
        return _returns(stmt.body)
    return any(_breaks(s) for block in sw.blocks(stmt) for s in block)


def _returns(block):
    return any(type(s) is sw.Return for s in sw.walk(block))


def _kept(forward, i, last):
    """Whether the name pushed at ``i`` holds the same value at ``last``: no statement
    between rebinds it (a change in place is seen either way: the push saves the object)."""
    name = forward[i].value.id
    return not any(name in sw.binds(s) for s in sw.walk(forward[i + 1:last]))


def _untouched(back, first, j):
    """Whether the name popped at ``j`` may be popped at ``first`` instead: no statement
    from there to ``j`` reads or writes it."""
    return not any(sw.mentions(s, back[j].target) for s in back[first:j])


# --- a saved value read where the reverse iteration would compute it again ---------------

@dataclass(frozen=True)
class _Known:
    types: dict  # the function's types (``analysis.sweep_types``)
    math_name: str  # the name ``math`` is read by, or None

    def number(self, name):
        return self.types.get(name) in t.NUMBERS


def _saved_instead(forward, back, pairs, known):
    """``(statement, change)`` for each statement of the reverse iteration, after the
    tuple's pop, that computes again what a saved name holds: ``a = math.sin(x)`` in the
    forward iteration, ``a`` and ``x`` both saved and neither rebound before their save,
    so after the pop ``math.sin(x)`` is ``a`` (numbers, and operations whose result
    depends on their operands alone)."""
    last, first = pairs[-1]
    popped = {forward[i].value.id: back[j].target for i, j in pairs}
    known_values = {}
    for i, _ in pairs:
        name = forward[i].value.id
        made = _made_from(forward, i, name, popped, last, known)
        if made is not None:
            key = repr(_renamed(made, popped))
            known_values.setdefault(key, ex.Name(popped[name]))
    if not known_values:
        return []
    return _uses(back[first + 1:], known_values, set(popped.values()))


def _made_from(forward, i, name, popped, last, known):
    """The expression the forward iteration gave ``name`` before its push at ``i``,
    where it reads only saved numbers that hold the same values up to ``last``."""
    for k in range(i - 1, -1, -1):
        stmt = forward[k]
        if name in sw.binds(stmt) or any(name in sw.binds(s) for s in sw.walk([stmt])):
            if type(stmt) is not sw.Let or stmt.target != name:
                return None
            value = stmt.value
            reads = [n for n in ex.names(value) if n != known.math_name]
            if not _plain(value, known) or not all(
                    n in popped and n != name and known.number(n) for n in reads):
                return None
            later = sw.walk(forward[k + 1:last])
            if any(n in sw.binds(s) for s in later for n in reads):
                return None
            return value if known.number(name) else None
    return None


_OPERATIONS = frozenset(("+", "-", "*", "/"))


def _plain(expr, known):
    """An expression of names, constants, ``+ - * /``, negation and ``math`` calls that
    return floats: its value depends on its operands' values alone."""
    kind = type(expr)
    if kind in (ex.Name, ex.Const):
        return True
    if kind is ex.BinOp:
        return expr.op in _OPERATIONS and _plain(expr.left, known) and _plain(
            expr.right, known)
    if kind is ex.UnaryOp:
        return expr.op == "-" and _plain(expr.operand, known)
    if kind is ex.Call and not expr.keywords and type(expr.func) is ex.Attribute:
        base = expr.func.value
        return (known.math_name is not None and type(base) is ex.Name
                and base.id == known.math_name and float_math(expr.func.attr)
                and all(_plain(a, known) for a in expr.args))
    return False


def _renamed(expr, popped):
    def visit(node):
        return ex.Name(popped[node.id]) if type(node) is ex.Name and node.id in popped else node
    return transform(expr, visit)


def _uses(block, known_values, names):
    """The simple statements of ``block`` holding one of ``known_values`` (by their
    ``repr``, which tells -0.0 from 0.0), up to the first that rebinds one of ``names``."""
    found = []

    def change(node):
        return known_values.get(repr(node), node) if type(node) in (
            ex.BinOp, ex.UnaryOp, ex.Call) else node

    for stmt in block:
        if type(stmt) is sw.Comment:
            continue
        simple = type(stmt) in (sw.Let, sw.AddTo)
        if simple and any(repr(e) in known_values for v in sw.evaluated(stmt)
                          for e in ex.walk(v)):
            found.append((stmt, change))
        if not simple or any(n in names for n in sw.binds(stmt)):
            break
    return found
