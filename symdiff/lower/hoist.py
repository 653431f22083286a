"""Hoist: a loop's cheap operations on values the loop never changes move before it.

Expects a normalized ``Program``; returns a new one (the input is not changed)
computing the same values.  An operation moves out of a loop that surely runs
(a ``for`` over a constant, non-empty range) when it is cheap and cannot raise
(``registry.cheap`` and ``registry.total``), its operands are bound before the loop on every path and not
assigned in it, and its result is assigned nowhere else and read only further
down the same iteration.  (Out of a loop that may run no iteration, the moved
operation's chain rule would still run, once, on a zero adjoint: ``0.0 * inf``
is nan where the loop contributes nothing.)  It then runs once
instead of once per iteration, and the reverse sweep applies its chain rule once,
after the loop, to the adjoint the loop accumulated.

    for _ in range(1000):                  mul_h_1 = u * x
        mul_h = w * h                      for _ in range(1000):
        mul_h_1 = u * x          ──►           mul_h = w * h
        add_h = mul_h + mul_h_1                add_h = mul_h + mul_h_1
        h = math.tanh(add_h)                   h = math.tanh(add_h)

Loops nested in loops are hoisted from the inside out, so an operation can move
out of several loops at once.
"""

from dataclasses import replace

from symdiff.analysis.defuse import DefUse
from symdiff.ir import nodes as ir
from symdiff.primitives.registry import cheap, total


def hoist_invariants(program, defuse=None):
    """``program`` with the invariant operations of its loops moved before them.

    ``defuse`` is the def-use index of ``program`` (``analysis.defuse``), built here when
    not given; every statement rebuilt keeps its id, so the index of the input answers
    for the statements of the output.
    """
    context = _Context(program, defuse if defuse is not None else DefUse(program))
    return replace(program, body=context.block(program.body))


class _Context:
    def __init__(self, program, defuse):
        self.program = program
        self.defuse = defuse

    def block(self, block):
        out = []
        for stmt in block:
            if isinstance(stmt, ir.If):
                stmt = replace(stmt, body=self.block(stmt.body), orelse=self.block(stmt.orelse))
            elif isinstance(stmt, (ir.For, ir.While)):
                stmt = replace(stmt, body=self.block(stmt.body))
                moved, kept = self.invariants(stmt) if _surely_runs(stmt) else ([], stmt.body)
                out.extend(replace(s, origin=replace(s.origin, hoisted=True)) for s in moved)
                stmt = replace(stmt, body=kept)
            out.append(stmt)
        return out

    def invariants(self, loop):
        """The statements of ``loop.body`` that can move before it, and those that stay."""
        body = list(loop.body)
        assigned = {}
        for stmt in ir.walk([loop]):
            if isinstance(stmt, (ir.Assign, ir.Compute, ir.For, ir.Pop)):
                assigned[stmt.target] = assigned.get(stmt.target, 0) + 1
        inside = [{s.sid for s in ir.walk([stmt])} for stmt in body]
        moved, kept = [], []
        for index, stmt in enumerate(body):
            if self.movable(stmt, index, loop, assigned, inside, {s.target for s in moved}):
                moved.append(stmt)
                assigned[stmt.target] -= 1
            else:
                kept.append(stmt)
        return moved, kept

    def movable(self, stmt, index, loop, assigned, inside, moved):
        """Whether ``stmt`` (``loop.body[index]``) can run once, before ``loop``; ``moved``:
        the names of what already moved before it."""
        if not (isinstance(stmt, ir.Assign) and stmt.call is None
                and stmt.op not in self.program.custom and cheap(stmt.op) and total(stmt.op)):
            return False
        for arg in stmt.args:
            if isinstance(arg, ir.Var) and (assigned.get(arg.name) or not (
                    arg.name in moved or self.bound_before(arg.name, loop))):
                return False
        du = self.defuse
        readers = du.readers(stmt.target)
        if len(du.definitions(stmt.target)) != 1 or not readers:
            return False  # (never the last statement: something later reads it)
        if stmt.target in du.results:
            return False  # read after the loop
        for reader in readers:
            if not any(reader.sid in sids for sids in inside[index + 1:]):
                return False  # read before it in the iteration, or after the loop
        return True

    def bound_before(self, name, loop):
        """Whether ``name`` is a parameter, or assigned on every path to ``loop``: by a
        plain statement earlier in a block that holds the loop (not in a branch or an
        earlier loop, which may not run), or as the variable of a loop holding it; and
        never assigned after the loop (the reverse sweep reads it there unsaved)."""
        du = self.defuse
        position = du.position(loop)
        definitions = du.definitions(name)
        if any(du.position(s) > position for s in definitions):
            return False  # assigned again later: where the value moves, no one would save it
        if name in self.program.params:
            return True
        holding = du.enclosing(loop)  # the statements holding the loop, outermost first
        earlier = {du.block_key(s): du.block(s)[1] for s in holding + [loop]}
        for definition in definitions:
            if any(definition.sid == s.sid for s in holding):
                return True  # the variable of a loop the loop runs in
            if isinstance(definition, (ir.For, ir.While, ir.If)):
                continue
            key = du.block_key(definition)
            if key in earlier and du.block(definition)[1] < earlier[key]:
                return True
        return False


def _surely_runs(loop):
    """A ``for`` over a constant range with at least one step."""
    if not isinstance(loop, ir.For) or loop.over is not None or not all(
            isinstance(b, ir.Const) for b in loop.bounds):
        return False
    values = [b.value for b in loop.bounds]
    return all(type(v) is int for v in values) and len(range(*values)) > 0
