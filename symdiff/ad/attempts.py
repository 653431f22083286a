"""Attempts: the two sweeps of a ``try`` body (``ir.Try``), which may stop part way.

Used by ``differentiate`` and ``forward``.  The forward sweep runs the body inside the
same ``try`` as the function, with the same clauses, each setting ``caught`` to its
number (and keeping the exception where a handler reads it); the handlers themselves
are branches on ``caught`` after it (``lower.attempts``), differentiated as branches.

The reverse sweep must run back through the statements that ran and no other: the
forward sweep records how far it got.  The body's statements are taken a source line
at a time (the statements lowered from one line of ``f``); after each line that the
reverse sweep reads back, ``reached = k`` records that the line ran to its end, and the
line's reverse runs under ``if reached >= k``.  A branch in the body is guarded by the
line before it (it started), and each line inside it by its own number: the numbers
grow in the order the lines run, so a line ran to its end exactly when ``reached`` is
at least its number.  Inside a loop ``reached`` is pushed, as a branch's decision is.

    try:                                reached = 0
        a = math.exp(x)                 try:
        b = math.log(y)         ──►         a = math.exp(x)
    except ValueError:                      reached = 1
        b = 0.0                             b = math.log(y)
    return a + b                            reached = 2
                                        except ValueError:
                                            caught = 1
                                        ...
                                        if reached >= 2:
                                            dy = db / y
                                        if reached >= 1:
                                            dx = da * a
"""

from symdiff.ad.environment import flatten
from symdiff.ad.taping import decision
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw


def forward_try(env, stmt, body):
    """The forward ``try`` around the forward statements ``body`` of ``stmt``'s body."""
    raised = env.names.fresh("raised") if stmt.error else None
    return [sw.Let(stmt.caught, ex.Const(0)),
            sw.Try(body or [sw.Pass()], stmt.catches, stmt.caught, stmt.error, raised)]


def attempt(env, stmt, scope, statement):
    """``try``: forward inside the same ``try``, recording how far it got; back through
    the lines that ran (``statement(env, s, scope, block)`` writes one statement's
    sweeps with ``block`` for the blocks nested in it)."""
    inner = scope.enter(stmt, env.defuse)
    progress = _Progress(env.names.fresh("reached"))

    def block(env, stmts, scope):
        return _lines(env, stmts, scope, progress, lambda s: statement(env, s, scope, block))

    fb, rb = block(env, stmt.body, inner)
    forward = forward_try(env, stmt, flatten(env, fb, stmt.origin))
    progress.settle(forward)
    if not rb:
        return forward, []
    saved, restored = decision(env, progress.name, scope)
    start = [sw.Let(progress.name, ex.Const(0))] if progress.read else []
    return start + forward + saved, restored + flatten(env, rb, stmt.origin)


def _lines(env, stmts, scope, progress, sweeps):
    """Forward and reverse chunks of the block ``stmts`` of a ``try`` body, a source line
    at a time: each line's forward ends by recording its number, its reverse runs when
    the number was reached."""
    fwd, rev = [], []
    before = None  # the number of the line before, in this block
    for origin, line in _by_line(stmts):
        forward, reverse = [], []
        for stmt in line:
            f, r = sweeps(stmt)
            forward += f
            reverse = r + reverse
        number = progress.next()
        forward.append(progress.mark(number))
        fwd.append((origin, forward))
        if reverse:
            compound = any(ir.children(s) for s in line)
            guard = before if compound else number
            if guard is not None:
                reverse = [progress.guard(guard, reverse)]
            rev.append((origin, reverse))
        before = number
    rev.reverse()
    return fwd, rev


def _by_line(stmts):
    """``(origin, statements)``: the consecutive statements lowered from one line."""
    lines = []
    for stmt in stmts:
        key = (stmt.origin.filename, stmt.origin.lineno, stmt.origin.function)
        if lines and lines[-1][0] == key:
            lines[-1][2].append(stmt)
        else:
            lines.append((key, stmt.origin, [stmt]))
    return [(origin, line) for _, origin, line in lines]


class _Progress:
    """The numbers of one ``try`` body's lines: given in the order the lines run; only
    those a guard reads are recorded, renumbered from 1 once the body is written."""

    def __init__(self, name):
        self.name = name
        self.given = 0
        self.marks = {}  # number -> the ``Let`` recording it
        self.guards = {}  # number -> the ``If`` statements reading it
        self.read = False

    def next(self):
        self.given += 1
        return self.given

    def mark(self, number):
        self.marks[number] = sw.Let(self.name, ex.Const(number))
        return self.marks[number]

    def guard(self, number, reverse):
        test = ex.Compare(ex.Name(self.name), (">=",), (ex.Const(number),))
        self.guards.setdefault(number, []).append(sw.If(test, reverse))
        self.read = True
        return self.guards[number][-1]

    def settle(self, forward):
        """Drop the records nothing reads from ``forward``, renumber the others."""
        kept = sorted(self.guards)
        unread = {id(self.marks[n]) for n in self.marks if n not in self.guards}
        _drop(forward, unread)
        for new, old in enumerate(kept, start=1):
            self.marks[old].value = ex.Const(new)
            for stmt in self.guards[old]:
                stmt.test = ex.Compare(ex.Name(self.name), (">=",), (ex.Const(new),))


def _drop(block, unread):
    block[:] = [s for s in block if id(s) not in unread]
    for stmt in block:
        for inner in sw.blocks(stmt):
            _drop(inner, unread)
        if isinstance(stmt, (sw.If, sw.Try)) and not stmt.body:
            stmt.body.append(sw.Pass())
