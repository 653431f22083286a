"""Analyses: facts about a whole function that several passes of the optimizer read.

Expects an ``ir.sweeps.Function`` and the run's ``Context``.  Guarantees counts read
the same way by every pass (``walk.reads`` and ``walk.writes``), each a plain dict the
caller must not change: while the driver runs the passes, ``Context.analysis`` keeps
one until a pass reports a change, so the passes between two changes count once
(pythran's pass manager: a pass asks for the analyses it needs).

    x = a            assignment_counts: {"x": 1, "y": 2}      (``y`` in a loop)
    for i in ...:    read_counts:       {"a": 1, "x": 1}
        y = x        write_counts:      {"x": 1, "i": 1, "y": 1}
"""

from symdiff.ir import sweeps as sw
from symdiff.optimize.walk import every_statement, reads, writes


def assignment_counts(function, context=None):
    """How often each name is assigned: 1 for one plain assignment run once, else 2+ (a
    parameter counts once; an accumulation, a loop variable, a write to a place of a
    container, or anything in a loop counts twice)."""
    counts = {p: 1 for p in function.params}
    get = counts.get
    stack = [(function.body, False)]
    while stack:
        block, in_loop = stack.pop()
        for node in block:
            kind = type(node)
            if kind is sw.Comment:
                continue
            if kind is sw.Let or kind is sw.AddTo:  # most statements: one target each
                target = node.target
                if type(target) is str:
                    counts[target] = get(target, 0) + 1 + (in_loop or kind is sw.AddTo)
                else:
                    name = sw.target_name(target)
                    counts[name] = get(name, 0) + 2
                continue
            once = kind is sw.NewStack or kind is sw.Pop
            repeated = in_loop or not once
            for target in writes(node):
                counts[target] = get(target, 0) + 1 + repeated
            inner = in_loop or kind is sw.For or kind is sw.While
            for nested in sw.blocks(node):
                stack.append((nested, inner))
    return counts


def read_counts(function, context=None):
    """How often each name is read anywhere in ``function`` (``walk.reads``)."""
    counts = {}
    get = counts.get
    for stmt in every_statement(function):
        for name in reads(stmt, context):
            counts[name] = get(name, 0) + 1
    return counts


def write_counts(function, context=None):
    """How many statements anywhere in ``function`` assign or change each name (its
    parameters not counted)."""
    counts = {}
    get = counts.get
    for stmt in every_statement(function):
        for target in writes(stmt):
            counts[target] = get(target, 0) + 1
    return counts


def placed_names(function, context=None):
    """The names some statement of ``function`` writes a place of (``x[i] = v``,
    ``dx[i] += g``): an array such a name holds is changed where it lies."""
    return frozenset(sw.target_name(stmt.target) for stmt in every_statement(function)
                     if type(stmt) in (sw.Let, sw.AddTo) and sw.is_place(stmt.target))
