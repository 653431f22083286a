"""Saves packed: the values one iteration of a loop saves, pushed as one tuple.

Expects the optimized sweeps (``ir.sweeps``), each loop of the forward sweep and its
reverse tagged with the id of the user's loop they run (``For.loop``, ``While.loop``,
from ``ad.control``).  Guarantees the same values popped into the same names: where an
iteration pushes at least ``SMALLEST`` names on a save stack, each left as it is until
the iteration ends, and the reverse iteration pops them into names it does not touch
before their pops, those pushes become one push of a tuple at the end of the iteration
and those pops one pop at the start of the reverse iteration, unpacked.  A list append
and a pop cost about what building a tuple and unpacking it costs, so three values
saved cost one call each way instead of three.

    for _ in range(9):                        for _ in range(9):
        push(x0)                                  sub_s = x1 - x0 * x0
        sub_s = x1 - x0 * x0                      sub_s_1 = 1.0 - x0
        push(sub_s)                ──►            x0 = x1
        sub_s_1 = 1.0 - x0                        push((x0_old, sub_s, sub_s_1))
        push(sub_s_1)
        x0 = x1                               (only where x0 is not rebound: here it is,
                                               so x0's push stays where it was)

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

from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw

SMALLEST = 3  # names saved per iteration that are worth one tuple


def pack_saves(function):
    """Rewrite, in place, the loops of ``function`` whose iterations save ``SMALLEST``
    names or more on a save stack to push them as one tuple; whether any changed."""
    stacks = [(s.push, s.pop) for s in sw.walk(function.body) if type(s) is sw.NewStack]
    changed = False
    for forward, back in _paired_loops(function.body):
        for push, pop in stacks:
            changed |= _pack(forward.body, back.body, push, pop)
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


def _pack(forward, back, push, pop):
    saves = _events(forward, push, pop, sw.Push, push)
    loads = _events(back, push, pop, sw.Pop, pop)
    if saves is None or loads is None or [k for k, _ in reversed(saves)] != [
            k for k, _ in loads] or _breaks_after_saving(forward, saves):
        return False
    own_loads = [j for kind, j in reversed(loads) if kind == "own"]  # in the saves' order
    pairs = [(i, j) for (kind, i), j in zip([e for e in saves if e[0] == "own"], own_loads)
             if type(forward[i].value) is ex.Name and type(back[j].target) is str]
    if len(pairs) < SMALLEST:
        return False
    last, first = pairs[-1]  # where the tuple is pushed, and popped
    pairs = [(i, j) for i, j in pairs if _kept(forward, i, last) and _untouched(back, first, j)]
    if len(pairs) < SMALLEST:
        return False
    values = ex.Tuple(tuple(forward[i].value for i, _ in pairs))
    targets = tuple(back[j].target for _, j in pairs)
    forward[last] = sw.Push(push, values)
    back[first] = sw.Pop(targets, pop)
    for i, _ in reversed(pairs[:-1]):
        del forward[i]
    for j in sorted((j for _, j in pairs[:-1]), reverse=True):
        del back[j]
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
