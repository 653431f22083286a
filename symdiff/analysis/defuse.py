"""Def-use: where each name of a lowered program is defined, read, and live.

Expects a lowered ``Program`` (``symdiff.ir.nodes``) whose statements carry distinct
statement ids (``sid``: ``ir.nodes.number_statements``, run by ``pipeline.lower``; a
pass that rebuilds a statement keeps its id).  Guarantees one index of the program,
built in one walk and then only read, that answers, by statement id:

* the statements in source order, each statement's ``position`` in that order, the
  ``block`` it stands in and its index there, the statement that block belongs to
  (``parent``), the control statements around it (``enclosing``, ``loops``) and the
  ``if`` branches it sits in (``branches``: ``(sid of the if, True for its body)``);
* for each name, the statements defining it (``definitions``: assignments, pops and
  loop variables; parameters are ``params``), the statements reading it (``readers``),
  and whether the function's result reads it (``results``);
* the names live on entry to and on exit from each loop (``live_in``, ``live_out``),
  computed on the first question (a backward pass iterated to a fixed point per loop).

Hoist, taping, the two sweeps, activity and the display graph all read this one
index; none keeps its own keyed by ``id(stmt)``.

    >>> import ast
    >>> from symdiff.ir import nodes as ir
    >>> o = ir.Origin("f.py", 1, 0, "", "f")
    >>> loop = ir.For("i", (ir.Const(3),), [ir.Assign("s", "add", (ir.Var("s"), ir.Var("x")),
    ...                                                o, sid=2)], o, sid=1)
    >>> p = ir.Program("f", ["x"], [ir.Assign("s", "copy", (ir.Var("x"),), o, sid=0), loop],
    ...                ir.Var("s"), o)
    >>> du = DefUse(p)
    >>> [s.sid for s in du.definitions("s")], [s.sid for s in du.readers("x")]
    ([0, 2], [0, 2])
    >>> sorted(du.live_in(loop)), sorted(du.live_out(loop)), [s.sid for s in du.loops(loop.body[0])]
    (['s', 'x'], ['s'], [1])
"""

from symdiff.errors import InternalError
from symdiff.ir import nodes as ir

DEFINING = (ir.Assign, ir.Compute, ir.For, ir.Pop, ir.Build, ir.Item,
            ir.Reduce, ir.Share, ir.Take, ir.Join)  # the statements with a ``target``
LOOPS = (ir.For, ir.While)


class DefUse:
    """The def-use index of one ``Program`` (see the module's docstring)."""

    def __init__(self, program):
        self.program = program
        self.params = tuple(program.params)
        results = program.result if isinstance(program.result, tuple) else (program.result,)
        self.results = frozenset(r.name for r in results if isinstance(r, ir.Var))
        self.statements = []  # every statement, nested ones included, in source order
        self._by_sid = {}
        self._position = {}
        self._block = {}  # sid -> (the block list, index there, (owner sid, which block))
        self._parent = {}  # sid -> the statement whose block holds it, or None
        self._enclosing = {}  # sid -> sids of the control statements around it, outermost first
        self._branches = {}  # sid -> ((sid of an if, in its body), ...)
        self._definitions = {}
        self._readers = {}
        self._places = {}
        self._live = None
        self._index(program.body)

    def _index(self, body):
        stack = [(iter(enumerate(body)), body, (None, 0), None, (), ())]
        while stack:
            items, block, key, owner, around, branches = stack[-1]
            for index, stmt in items:
                sid = stmt.sid
                if sid is None or sid in self._by_sid:
                    raise InternalError("defuse", f"statement {stmt!r} has no distinct id")
                self._by_sid[sid] = stmt
                self._position[sid] = len(self.statements)
                self.statements.append(stmt)
                self._block[sid] = (block, index, key)
                self._parent[sid] = owner
                self._enclosing[sid] = around
                self._branches[sid] = branches
                if isinstance(stmt, DEFINING):
                    self._definitions.setdefault(stmt.target, []).append(stmt)
                for name in ir.reads(stmt):
                    self._readers.setdefault(name, []).append(stmt)
                nested = ir.children(stmt)
                if nested:
                    inner = around + (sid,)
                    sides = [branches + ((sid, True),), branches + ((sid, False),)] if (
                        isinstance(stmt, ir.If)) else [branches] * len(nested)
                    stack.extend((iter(enumerate(b)), b, (sid, i), stmt, inner, sides[i])
                                 for i, b in reversed(list(enumerate(nested))))
                    break
            else:
                stack.pop()

    # --- statements ------------------------------------------------------------------------

    def statement(self, sid):
        return self._by_sid[sid]

    def position(self, stmt):
        """The index of ``stmt`` in source order (nested statements after their owner)."""
        return self._position[stmt.sid]

    def block(self, stmt):
        """``(block, index)``: the list ``stmt`` stands in and its index there."""
        block, index, _ = self._block[stmt.sid]
        return block, index

    def block_key(self, stmt):
        """A hashable name of the block ``stmt`` stands in: ``(owner sid, which block)``,
        ``(None, 0)`` for the function's body."""
        return self._block[stmt.sid][2]

    def parent(self, stmt):
        """The control statement whose block holds ``stmt``; None at top level."""
        return self._parent[stmt.sid]

    def enclosing(self, stmt):
        """The control statements around ``stmt``, outermost first."""
        return [self._by_sid[s] for s in self._enclosing[stmt.sid]]

    def loops(self, stmt):
        """The loops around ``stmt``, outermost first."""
        return [s for s in self.enclosing(stmt) if isinstance(s, LOOPS)]

    def encloses(self, outer, stmt):
        """Whether ``stmt`` is nested (at any depth) inside ``outer``."""
        return outer.sid in self._enclosing[stmt.sid]

    def branches(self, stmt):
        """The ``if`` branches ``stmt`` sits in: ``((sid of the if, in its body), ...)``."""
        return self._branches[stmt.sid]

    def place(self, stmt):
        """``(position, branches)``, what taping compares to tell later assignments."""
        return self._position[stmt.sid], self._branches[stmt.sid]

    # --- names -------------------------------------------------------------------------------

    def definitions(self, name):
        """The statements assigning ``name`` (loop variables included), in source order."""
        return self._definitions.get(name, ())

    def definition_places(self, name):
        """The ``place`` of each statement assigning ``name``."""
        places = self._places.get(name)
        if places is None:
            places = self._places[name] = [self.place(s) for s in self.definitions(name)]
        return places

    def readers(self, name):
        """The statements reading ``name`` themselves (not through nested ones), in source
        order; the result's reads are ``results``."""
        return self._readers.get(name, ())

    def assigned(self):
        """Every name some statement assigns, in first-assignment order."""
        return list(self._definitions)

    # --- liveness ------------------------------------------------------------------------------

    def live_in(self, loop):
        """The names whose values some later read can see, on entry to ``loop``."""
        return self._liveness()[0][loop.sid]

    def live_out(self, loop):
        """The names whose values some later read can see, once ``loop`` is done."""
        return self._liveness()[1][loop.sid]

    def _liveness(self):
        if self._live is None:
            self._live = ({}, {})
            self._before(self.program.body, frozenset(self.results), None)
        return self._live

    def _before(self, block, live, exit):
        for stmt in reversed(block):
            live = self._transfer(stmt, live, exit)
        return live

    def _transfer(self, stmt, live, exit):
        """The names live before ``stmt``, given those live after it; ``exit`` those live
        after the innermost loop (where a ``BreakIf`` goes)."""
        reads = frozenset(ir.reads(stmt))
        if isinstance(stmt, DEFINING) and not isinstance(stmt, LOOPS):
            return (live - {stmt.target}) | reads
        if isinstance(stmt, ir.If):
            return (self._before(stmt.body, live, exit) | self._before(stmt.orelse, live, exit)
                    | reads)
        if isinstance(stmt, ir.Try):  # its body may stop after any statement
            after = live - {stmt.caught, stmt.error}
            return self._before(stmt.body, after, exit) | after | reads
        if isinstance(stmt, ir.BreakIf):
            return live | exit | reads
        if isinstance(stmt, LOOPS):
            entry, out = self._live
            out[stmt.sid] = live
            head = frozenset()
            while True:  # the values live at the top of an iteration, to a fixed point
                if isinstance(stmt, ir.For):
                    new = live | (self._before(stmt.body, head, live) - {stmt.target})
                else:
                    after_test = live | self._before(stmt.body, head, live)
                    new = self._before(stmt.pre, after_test | reads, live)
                if new == head:
                    break
                head = new
            entry[stmt.sid] = head | reads if isinstance(stmt, ir.For) else head
            return entry[stmt.sid]
        return live | reads  # Push, Check: read and change nothing a name holds
