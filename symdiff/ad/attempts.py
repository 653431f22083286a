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
line before it (its test was computed), and each line inside it by its own number: the numbers
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

from dataclasses import replace

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
    reached = env.names.fresh("reached")
    numbers = _numbered(stmt.body, {})

    def block(env, stmts, scope):
        return _lines(stmts, reached, numbers, lambda s: statement(env, s, scope, block))

    fb, rb = block(env, stmt.body, inner)
    reverse = flatten(env, rb, stmt.origin)
    read = sorted(_guarded(reverse, reached))
    renumber = {old: new for new, old in enumerate(read, start=1)}  # those read, from 1
    forward = forward_try(env, stmt, _renumbered(flatten(env, fb, stmt.origin), reached,
                                                 renumber))
    if not reverse:
        return forward, []
    if not read:
        return forward, reverse
    saved, restored = decision(env, reached, scope)
    return ([sw.Let(reached, ex.Const(0))] + forward + saved,
            restored + _renumbered(reverse, reached, renumber))


def _numbered(stmts, numbers):
    """``{sid of a line's first statement: its number}`` for the lines of ``stmts`` and
    of the blocks nested in them (a nested ``try`` numbers its own), in the order they
    end: a branch's lines before the line holding it."""
    for line in _by_line(stmts):
        for stmt in line[1]:
            if not isinstance(stmt, ir.Try):
                for nested in ir.children(stmt):
                    _numbered(nested, numbers)
        numbers[line[1][0].sid] = len(numbers) + 1
    return numbers


def _lines(stmts, reached, numbers, sweeps):
    """Forward and reverse chunks of the block ``stmts`` of a ``try`` body, a source line
    at a time: each line's forward ends by recording its number, its reverse runs when
    the number was reached (a line holding a branch: when the line before it was)."""
    fwd, rev = [], []
    before = None  # the number of the line before, in this block
    for origin, line in _by_line(stmts):
        forward, reverse = [], []
        compound = any(ir.children(s) for s in line)
        for stmt in line:
            f, r = sweeps(stmt)
            forward += f
            reverse = r + reverse
        number = numbers[line[0].sid]
        fwd.append((origin, forward + [sw.Let(reached, ex.Const(number))]))
        if reverse:
            guard = before if compound else number
            if guard is not None:
                reverse = [sw.If(_reached(reached, guard), reverse)]
            rev.append((origin, reverse))
        before = number
    rev.reverse()
    return fwd, rev


def _by_line(stmts):
    """``(origin, statements)``: the consecutive statements lowered from one line, a
    branch apart from those before it (its test may raise: the branch is guarded by
    the record that the test was computed) and after it."""
    lines = []
    for stmt in stmts:
        key = (stmt.origin.filename, stmt.origin.lineno, stmt.origin.function)
        if ir.children(stmt) or lines and ir.children(lines[-1][2][-1]):
            key = (key, stmt.sid)  # a line of its own
        if lines and lines[-1][0] == key:
            lines[-1][2].append(stmt)
        else:
            lines.append((key, stmt.origin, [stmt]))
    return [(origin, line) for _, origin, line in lines]


def _reached(name, number):
    return ex.Compare(ex.Name(name), (">=",), (ex.Const(number),))


def _guard_number(stmt, name):
    """The number ``stmt`` tests ``name`` against, if it is a guard on ``name``."""
    test = getattr(stmt, "test", None) if isinstance(stmt, sw.If) else None
    if isinstance(test, ex.Compare) and test.left == ex.Name(name) and test.ops == (">=",):
        return test.comparators[0].value
    return None


def _guarded(block, name):
    """The numbers the guards on ``name`` in ``block`` read."""
    return {n for s in sw.walk(block) if (n := _guard_number(s, name)) is not None}


def _renumbered(block, name, renumber):
    """``block`` with the records of ``name`` nothing reads left out and the others, and
    the guards reading them, numbered by ``renumber`` (new statements; none changed)."""
    out = []
    for stmt in block:
        if isinstance(stmt, sw.Let) and stmt.target == name:
            if stmt.value.value in renumber:
                out.append(sw.Let(name, ex.Const(renumber[stmt.value.value])))
            continue
        number = _guard_number(stmt, name)
        if number is not None:
            stmt = replace(stmt, test=_reached(name, renumber[number]))
        if isinstance(stmt, sw.If):
            stmt = replace(stmt, body=_renumbered(stmt.body, name, renumber) or [sw.Pass()],
                           orelse=_renumbered(stmt.orelse, name, renumber))
        elif isinstance(stmt, (sw.For, sw.While, sw.Try)):
            stmt = replace(stmt, body=_renumbered(stmt.body, name, renumber) or [sw.Pass()])
        out.append(stmt)
    return out
