"""Taping: which values the reverse sweep must get back, and how it gets them.

Used by ``differentiate``, as functions of an ``Environment`` (``ad.environment``).  A
partial derivative reads values of the forward sweep; outside loops ``normalize`` renamed
every value apart, so the reverse sweep reads them directly.  Inside a loop (or a branch)
a value can be overwritten before the reverse sweep needs it.  Two ways to get it back:

* **saved at the read**: the statement whose partial reads ``v`` pushes it just
  before running (or just after, for its own output), and its reverse pops it
  back.  One push per reading statement per iteration.
* **restored in place**: every assignment to ``v`` inside the loop pushes the
  value it is about to overwrite, and its reverse pops it back into ``v``.  Then,
  in the reverse sweep, ``v`` always holds the value it had at the matching point
  of the forward sweep, and no read needs a push.  One push per assignment per
  iteration.

``choose_restored`` picks the second way for the names where it pushes less:

    for _ in range(n):                      for _ in range(n):
        h = math.tanh(w * h + b)                push(h)              # the old h
                                                ...
                                                h = math.tanh(add_h)
                                            for _ in reversed(range(n)):
                                                dadd_h = dh * (1.0 - h * h)   # the new h
                                                h = pop()
                                                dw += dadd_h * h     # the old h
                                                dh = dadd_h * w

Saving at the reads would push ``h`` twice per iteration: after the ``tanh``
(its output) and before ``w * h``.
"""

from dataclasses import dataclass

from symdiff.ad.environment import forward_expression, restoring_from_tape, saving
from symdiff.ad.writer import operand, spelled_out
from symdiff.core.types import is_table
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.core.rewrite import substitute
from symdiff.primitives.derivatives import reads
from symdiff.primitives.registry import cheap


@dataclass(frozen=True)
class Scope:
    """Where a statement stands, and which values may change under the reverse sweep.

    At top level nothing is overwritten (``normalize`` renames).  Inside a branch a
    value is overwritten when the function assigns it again later, on a path that
    can follow; inside a loop, also when the outermost loop assigns it at all (the
    next iteration will).
    """

    later: object = None  # the program's ``DefUse``: where every assignment to a name stands
    loop_assigned: frozenset = None  # names the outermost loop assigns
    exempt: frozenset = frozenset()  # loop variables the reverse loop regenerates
    in_place: tuple = ()  # names the outermost loop restores in place, in a fixed order

    def enter(self, stmt, defuse, exempt=(), in_place=None, invariant=frozenset()):
        """The scope inside ``stmt``; ``invariant``: for an outermost loop, the names it
        assigns alike on every iteration (``ad.invariants``), which it never overwrites."""
        later = self.later if self.later is not None else defuse
        loop = self.loop_assigned
        if loop is None and isinstance(stmt, (ir.For, ir.While)):
            loop = frozenset(ir.assigned_names([stmt])) - invariant
        kept = self.in_place if in_place is None else tuple(in_place)
        return Scope(later, loop, self.exempt | frozenset(exempt), kept)

    @property
    def in_loop(self):
        return self.loop_assigned is not None

    def taped(self, name, place):
        """Whether the reverse sweep must save ``name`` as read at ``place`` (a
        ``DefUse.place``)."""
        if name in self.exempt or self.later is None:
            return False
        if self.in_loop and name in self.loop_assigned:
            return True
        position, path = place
        return any(later > position and not _exclusive(path, other)
                   for later, other in self.later.definition_places(name))


def _exclusive(path, other):
    """Whether two statements sit in different branches of one ``if``."""
    branches = dict(path)
    return any(branch != branches.get(node, branch) for node, branch in other)


def value_reads(stmt, program, active):
    """The names whose values the partials of ``stmt`` read: ``(before, after)``.

    ``before`` are arguments, read as they were when ``stmt`` ran; ``after`` is
    the target, when a partial reads the output.  The target among ``before``
    means a partial needs the value ``stmt`` overwrites.
    """
    if stmt.target not in active:
        return [], []
    rule = program.rule_of(stmt)
    before, after = [], []
    for arg, builder in zip(stmt.args, rule.vjps):
        if builder is None or not isinstance(arg, ir.Var) or arg.name not in active:
            continue
        positions, output = reads(builder, len(stmt.args))
        before += [stmt.args[i].name for i in positions if isinstance(stmt.args[i], ir.Var)]
        if output:
            after.append(stmt.target)
    return list(dict.fromkeys(before)), list(dict.fromkeys(after))


def choose_restored(loop, program, active, defuse, set_before_read):
    """The names the outermost ``loop`` restores in place, in first-read order.

    A name qualifies when restoring pushes strictly less than saving at the
    reads (counted per statement, per iteration), and restoring is safe:

    * every assignment to it in the loop is a statement of the loop body (not a
      loop variable, not part of a ``while`` test), and none reads its old value
      in a partial;
    * it decides no branch and bounds no loop (those are saved as decisions);
    * outside the loop it is assigned only before, by a top-level statement that
      is not a loop (so it holds a value on entry), or it is a parameter, or it is
      assigned nowhere else and ``set_before_read`` (its one assignment comes
      before every read, in the same block): then it starts as ``0.0``, a value
      the first overwrite pushes and nothing ever reads.
    """
    inside = list(ir.walk(loop.body + (loop.pre if isinstance(loop, ir.While) else [])))
    loop_position = defuse.position(loop)
    assigned = frozenset(ir.assigned_names([loop]))
    reads, sites, unsafe = {}, {}, set()
    if isinstance(loop, ir.For):
        unsafe.add(loop.target)
    for stmt in inside:
        if isinstance(stmt, ir.For):
            unsafe.add(stmt.target)
            unsafe.update(b.name for b in stmt.bounds if isinstance(b, ir.Var))
        elif isinstance(stmt, ir.If):
            unsafe.add(stmt.test)
        elif isinstance(stmt, (ir.While, ir.BreakIf)):
            unsafe.update(stmt.reads)
        if isinstance(stmt, ir.While):
            unsafe.update(ir.assigned_names(stmt.pre))
        if isinstance(stmt, (ir.Assign, ir.Compute, ir.Pop, ir.Build, ir.Item, ir.Reduce,
                             ir.Share, ir.Take, ir.Join)):
            sites[stmt.target] = sites.get(stmt.target, 0) + 1
        if isinstance(stmt, ir.Item) and read_only(program, defuse, stmt.container):
            unsafe.add(stmt.target)  # read again from its container where it is needed
        if isinstance(stmt, ir.Assign):
            before, after = value_reads(stmt, program, active)
            if stmt.target in before:
                unsafe.add(stmt.target)
            for name in dict.fromkeys(before + after):
                if name in assigned:
                    reads[name] = reads.get(name, 0) + 1
    if isinstance(loop, ir.While):
        unsafe.update(loop.reads)
        unsafe.update(ir.assigned_names(loop.pre))
    chosen = []
    for name, count in reads.items():
        if name in unsafe or sites.get(name, 0) >= count:
            continue
        outside = [s for s in defuse.definitions(name) if not defuse.encloses(loop, s)]
        if outside or name in program.params:
            if all(defuse.position(s) < loop_position and defuse.parent(s) is None
                   and not isinstance(s, (ir.For, ir.While)) for s in outside):
                chosen.append(name)
        elif set_before_read(name):
            chosen.append(name)
    return chosen


def read_only(program, defuse, container):
    """Whether ``container`` is bound once outside every loop (or is a parameter) and no
    statement changes it: its elements can be read again in the reverse sweep."""
    definitions = defuse.definitions(container)
    if len(definitions) > 1 or any(defuse.loops(s) for s in definitions):
        return False
    return not any(getattr(s, "container", None) == container and isinstance(s, ir.SetItem)
                   or isinstance(s, (ir.Push, ir.Pop)) and s.stack == container
                   for s in defuse.readers(container))


def unset_on_entry(names, loop, program, defuse):
    """Those of ``names`` with no value when ``loop`` starts: assigned only inside it."""
    return [n for n in names if n not in program.params
            and all(s.sid == loop.sid or defuse.encloses(loop, s) for s in defuse.definitions(n))]


def recomputed(env, name, reader, stmt, scope, popped, depth=2):
    """An expression recomputing ``name`` as ``reader`` read it, from values the
    reverse of ``stmt`` holds; None if there is none as cheap as a push and a pop.

    ``name`` must be computed by one cheap operation (``registry.cheap``, or reading an entry
    of a table of numbers) earlier in the block of ``reader`` (``_reaching``), and each
    operand of it
    must be unchanged since: not
    assigned in between, and at the reverse of ``stmt`` either stable (never
    saved), restored in place, among the ``popped`` values, or itself recomputed
    (up to ``depth`` operations deep).
    """
    du = env.defuse
    source = _reaching(du, name, reader)
    if source is None:
        return None
    if isinstance(source, ir.Compute) and reads_table(env, source.expr):
        args, expression = [ir.Var(read) for read in source.reads], spelled_out(source.expr)
    elif isinstance(source, ir.Assign) and source.op not in env.program.custom and (
            source.call is None and cheap(source.op)):
        args, expression = source.args, None
    elif isinstance(source, ir.Item) and read_only(env.program, du, source.container):
        args = [ir.Var(source.container)] + [p for p in source.path if isinstance(p, ir.Var)]
        expression = ex.Name(source.container)
        for index in source.path:
            expression = ex.Subscript(expression, operand(index))
    else:
        return None
    block, index = du.block(source)
    reader_block, reader_index = du.block(reader)
    _, end = du.block(stmt)
    if block is not reader_block or index >= reader_index:
        return None
    changed = set(ir.assigned_names(block[index + 1:end]))  # before ``stmt`` runs
    after = changed | {getattr(stmt, "target", None)}  # what a name restored in place
    # holds at its reverse
    operands = {}
    for arg in args:
        if not isinstance(arg, ir.Var) or arg.name in operands:
            continue
        name = arg.name
        held = (name in scope.in_place and name not in after) or (name not in changed and (
            name in popped or not scope.taped(name, du.place(stmt))))
        if held:
            continue
        inner = None if depth == 0 or name in changed else recomputed(
            env, name, source, stmt, scope, popped, depth - 1)
        if inner is None:
            return None
        operands[name] = inner
    if expression is None:
        expression = forward_expression(env, source)
    return substitute(expression, operands)


def _reaching(du, name, reader):
    """The assignment of ``name`` that ``reader`` reads: its only one, or the last before
    ``reader`` in ``reader``'s block with no other assignment of it in between (a name
    the function binds in two loops, ``for w in ...`` twice); None if neither."""
    sources = du.definitions(name)
    if len(sources) == 1:
        return sources[0]
    block, at = du.block(reader)
    before = [s for s in sources if du.block(s)[0] is block and du.block(s)[1] < at]
    if not before:
        return None
    last = max(before, key=lambda s: du.block(s)[1])
    between = block[du.block(last)[1] + 1:at]
    return None if name in ir.assigned_names(between) else last


def reads_table(env, expr):
    """Whether ``expr`` is ``TABLE[...]`` for a table of numbers the function reads
    (a module's, or one passed as a parameter)."""
    return (isinstance(expr, ex.Subscript) and isinstance(expr.value, ex.Name) and (
        expr.value.id in env.program.tables
        or is_table(env.program.namespace.get(expr.value.id))))


def restoring(env, stmt, scope, forward, reverse):
    """An assignment to a name restored in place (``taping``) pushes the value it
    overwrites; its reverse, once done, pops that value back."""
    if isinstance(stmt, (ir.Push, ir.SetItem)) or stmt.target not in scope.in_place:
        return forward, reverse
    return [saving(env, stmt.target)] + forward, reverse + [
        restoring_from_tape(env, stmt.target)]


def restorations(program, defuse, active, invariant=None):
    """For each outermost loop, by sid, the names it restores in place
    (``choose_restored``), none it assigns alike on every iteration (``invariant``: by
    sid, ``ad.invariants``): an analysis, found before the sweeps are written."""
    invariant = invariant or {}
    return {loop.sid: tuple(n for n in choose_restored(
                loop, program, active, defuse, lambda name: set_before_read(defuse, name))
                if n not in invariant.get(loop.sid, ()))
            for loop in defuse.statements
            if isinstance(loop, (ir.For, ir.While)) and not defuse.loops(loop)}


def restorable(env, loop, scope):
    """The names the outermost loop restores in place; none for an inner loop."""
    if scope.in_loop:
        return None
    return env.restored[loop.sid]


def set_before_read(du, name):
    """Whether ``name`` has one assignment and every read of it comes after that
    assignment, in its block (directly, or inside a later statement there)."""
    sources = du.definitions(name)
    if len(sources) != 1 or name in du.results:
        return False
    block, index = du.block(sources[0])
    for stmt in du.readers(name):
        while stmt is not None and du.block(stmt)[0] is not block:
            stmt = du.parent(stmt)
        if stmt is None or du.block(stmt)[1] <= index:
            return False
    return True


def unset(env, loop, scope, inner):
    """``name = 0.0`` before the outermost loop, for each name it restores in place
    that has no value yet: the first overwrite pushes it, nothing reads it.  (A
    number, not ``None``: the gradient of a gradient reads this code too.)"""
    if scope.in_loop:
        return []
    names = unset_on_entry(inner.in_place, loop, env.program, env.defuse)
    built = [s.target for s in ir.walk(loop.body + getattr(loop, "pre", []))
             if isinstance(s, (ir.Build, ir.Take, ir.Join)) and s.target in env.active]
    lists = unset_on_entry(list(dict.fromkeys(built)), loop, env.program, env.defuse)
    return [sw.Let(n, sw.ZERO) for n in names] + [sw.Let(n, ex.List(())) for n in lists]


def saved_for_reverse(env, stmt, scope, names, forward, reverse):
    """``forward`` and ``reverse`` with the values of ``names`` the reverse reads
    brought back where the loop around may overwrite them: recomputed, or pushed
    before ``forward`` and popped before ``reverse``."""
    place = env.defuse.place(stmt)
    taped = [n for n in dict.fromkeys(names) if scope.taped(n, place)
             and n not in scope.in_place]
    saved = [n for n in taped if recomputed(env, n, stmt, stmt, scope, ()) is None]
    before = []
    if saved:
        forward = [saving(env, n) for n in saved] + forward
        before = [restoring_from_tape(env, n) for n in reversed(saved)]
    before += [sw.Let(n, recomputed(env, n, stmt, stmt, scope, saved))
               for n in taped if n not in saved]
    return forward, before + reverse


def decision(env, name, scope):
    """Save ``name`` for the reverse sweep when the enclosing loop overwrites it."""
    if not scope.in_loop:
        return [], []
    return [saving(env, name)], [restoring_from_tape(env, name)]
