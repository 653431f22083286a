"""Hoist: a loop's cheap operations on values the loop never changes move before it.

Expects a normalized ``Program``; returns a new one (the input is not changed)
computing the same values.  An operation moves when it is one of ``SAFE`` (it
cannot raise, so running it even when the loop runs no iteration changes
nothing), its operands are not assigned in the loop, and its result is assigned
nowhere else and read only further down the same iteration.  It then runs once
instead of once per iteration, and the reverse sweep applies its chain rule once,
after the loop, to the adjoint the loop accumulated.

    for _ in range(n):                     mul_h_1 = u * x
        mul_h = w * h                      for _ in range(n):
        mul_h_1 = u * x          ──►           mul_h = w * h
        add_h = mul_h + mul_h_1                add_h = mul_h + mul_h_1
        h = math.tanh(add_h)                   h = math.tanh(add_h)

Loops nested in loops are hoisted from the inside out, so an operation can move
out of several loops at once.
"""

from dataclasses import replace

from . import ir

SAFE = ("add", "sub", "mul", "neg", "pos", "copy")


def hoist_invariants(program):
    """``program`` with the invariant operations of its loops moved before them."""
    order = {id(s): i for i, s in enumerate(ir.walk(program.body))}
    definitions, readers = {}, {}
    for stmt in ir.walk(program.body):
        if isinstance(stmt, (ir.Assign, ir.Compute, ir.For, ir.Pop)):
            definitions.setdefault(stmt.target, []).append(stmt)
        for name in ir.reads(stmt):
            readers.setdefault(name, []).append(stmt)
    results = program.result if isinstance(program.result, tuple) else (program.result,)
    for result in results:
        if isinstance(result, ir.Var):
            readers.setdefault(result.name, []).append(program)
    context = _Context(program, order, definitions, readers)
    return replace(program, body=context.block(program.body))


class _Context:
    def __init__(self, program, order, definitions, readers):
        self.program = program
        self.order = order
        self.definitions = definitions
        self.readers = readers
        self.originals = {}  # id of a rebuilt branch or loop -> the statement it rebuilds

    def rebuilt(self, stmt, **fields):
        new = replace(stmt, **fields)
        self.originals[id(new)] = self.original(stmt)
        return new

    def original(self, stmt):
        return self.originals.get(id(stmt), stmt)

    def block(self, block):
        out = []
        for stmt in block:
            if isinstance(stmt, ir.If):
                stmt = self.rebuilt(stmt, body=self.block(stmt.body),
                                    orelse=self.block(stmt.orelse))
            elif isinstance(stmt, (ir.For, ir.While)):
                stmt = self.rebuilt(stmt, body=self.block(stmt.body))
                moved, kept = self.invariants(stmt)
                out.extend(moved)
                stmt = self.rebuilt(stmt, body=kept)
            out.append(stmt)
        return out

    def invariants(self, loop):
        """The statements of ``loop.body`` that can move before it, and those that stay."""
        body = list(loop.body)
        assigned = {}
        for stmt in ir.walk([loop]):
            if isinstance(stmt, (ir.Assign, ir.Compute, ir.For, ir.Pop)):
                assigned[stmt.target] = assigned.get(stmt.target, 0) + 1
        inside = [{id(self.original(s)) for s in ir.walk([stmt])} for stmt in body]
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
        if not (isinstance(stmt, ir.Assign) and stmt.op in SAFE and stmt.call is None
                and stmt.op not in self.program.custom):
            return False
        for arg in stmt.args:
            if isinstance(arg, ir.Var) and (assigned.get(arg.name) or not (
                    arg.name in moved or self.bound_before(arg.name, loop))):
                return False
        readers = self.readers.get(stmt.target, ())
        if len(self.definitions.get(stmt.target, ())) != 1 or not readers:
            return False  # (never the last statement: something later reads it)
        for reader in readers:
            if not any(id(reader) in ids for ids in inside[index + 1:]):
                return False  # read before it in the iteration, or after the loop
        return True

    def bound_before(self, name, loop):
        """Whether ``name`` is a parameter or assigned somewhere before ``loop``."""
        position = self.order[id(self.original(loop))]
        return name in self.program.params or any(
            self.order[id(s)] < position for s in self.definitions.get(name, ()))
