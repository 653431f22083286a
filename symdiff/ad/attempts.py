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
from symdiff.errors import UnsupportedSyntaxError
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw


def forward_try(env, stmt, body, cleanup=()):
    """The forward ``try`` around the forward statements ``body`` of ``stmt``'s body;
    ``cleanup`` runs in each clause (what a line the exception stopped leaves to save)."""
    raised = env.names.fresh("raised") if stmt.error else None
    return [sw.Let(stmt.caught, ex.Const(0)),
            sw.Try(body or [sw.Pass()], stmt.catches, stmt.caught, stmt.error, raised,
                   list(cleanup))]


def attempt(env, stmt, scope, statement):
    """``try``: forward inside the same ``try``, recording how far it got; back through
    the lines that ran (``statement(env, s, scope, block)`` writes one statement's
    sweeps with ``block`` for the blocks nested in it)."""
    inner = scope.enter(stmt, env.defuse)
    reached = env.names.fresh("reached")
    numbers, befores = {}, {}
    _numbered(stmt.body, numbers, befores, 0)
    cleanups = {}  # sid of a block's first statement -> its cleanup (``_lines``)

    def block(env, stmts, scope):
        return _lines(env, stmts, _Body(reached, numbers, befores, cleanups),
                      lambda s: statement(env, s, scope, block))

    fb, rb = block(env, stmt.body, inner)
    reverse = flatten(env, rb, stmt.origin)
    cleanup = cleanups.get(stmt.body[0].sid, []) if stmt.body else []
    read = sorted(_compared(reverse + cleanup, reached) - {0})
    renumber = {old: new for new, old in enumerate([0] + read)}  # those read, from 1
    forward = forward_try(env, stmt, _renumbered(flatten(env, fb, stmt.origin), reached,
                                                 renumber),
                          _renumbered(cleanup, reached, renumber))
    if not read:
        return forward, reverse
    saved, restored = decision(env, reached, scope) if reverse else ([], [])
    return ([sw.Let(reached, ex.Const(0))] + forward + saved,
            restored + _renumbered(reverse, reached, renumber))


class _Body:
    """What the lines of one ``try`` body share: the name recording how far it got, each
    line's number and the number before it (``_numbered``), and the cleanups of the
    blocks written so far."""

    def __init__(self, reached, numbers, befores, cleanups):
        self.reached, self.numbers, self.befores = reached, numbers, befores
        self.cleanups = cleanups


def _numbered(stmts, numbers, befores, start):
    """Number the lines of ``stmts`` and of the blocks nested in them (a nested ``try``
    numbers its own) in the order they end: a branch's lines before the line holding
    it.  ``numbers`` and ``befores`` map the sid of a line's first statement to its
    number and to the number that says it started (the line's before it; for a block's
    first line, the one before the line holding the block; 0: the body started)."""
    previous = start
    for _, line in _by_line(stmts):
        for stmt in line:
            if not isinstance(stmt, ir.Try):
                for nested in ir.children(stmt):
                    _numbered(nested, numbers, befores, previous)
        befores[line[0].sid] = previous
        numbers[line[0].sid] = previous = len(numbers) + 1


def _lines(env, stmts, body, sweeps):
    """Forward and reverse chunks of the block ``stmts`` of a ``try`` body, a source line
    at a time: each line's forward ends by recording its number, its reverse runs when
    the number was reached (a line holding a branch: when the line before it was).

    A line's values saved for the reverse sweep are pushed at its end, after all that
    may raise, so a line the exception stopped pushed nothing.  A branch saves its
    decision after it; where an exception stops it part way, the clause does that
    instead (the block's cleanup, kept in ``body.cleanups``): under ``if b <= reached
    < n``, the branch started and did not end."""
    fwd, rev, cleanup = [], [], []
    for origin, line in _by_line(stmts):
        forward, reverse = [], []
        for stmt in line:
            f, r = sweeps(stmt)
            forward += f
            reverse = r + reverse
        number, before = body.numbers[line[0].sid], body.befores[line[0].sid]
        compound = any(ir.children(s) for s in line)
        if compound:
            cleanup += _cleanup(line[-1], forward, body, before, number)
        else:
            forward = _deferred(env, forward, origin)
        fwd.append((origin, forward + [sw.Let(body.reached, ex.Const(number))]))
        if reverse:
            guard = before if compound else number
            if guard:
                reverse = [sw.If(_at_least(body.reached, guard), reverse)]
            rev.append((origin, reverse))
    if stmts:
        body.cleanups[stmts[0].sid] = cleanup
    rev.reverse()
    return fwd, rev


def _cleanup(stmt, forward, body, before, number):
    """What the clause does for the compound ``stmt`` (its line's ``forward``) when the
    exception stopped it part way: its blocks' cleanups, then the saves after it."""
    main = max(i for i, s in enumerate(forward) if sw.blocks(s))
    trailing = forward[main + 1:]
    if isinstance(stmt, ir.If):
        sides = [body.cleanups.get(b[0].sid, []) if b else [] for b in (stmt.body, stmt.orelse)]
        inner = [sw.If(ex.Name(stmt.test), sides[0] or [sw.Pass()], sides[1])] if any(
            sides) else []
    else:  # a nested try: what its own clauses would have done
        inner = list(forward[main].cleanup)
    if not (inner or trailing):
        return []
    return [sw.If(_within(body.reached, before, number), inner + trailing)]


def _deferred(env, forward, origin):
    """``forward`` with the pushes on the save stacks moved to its end, in their order (a
    value a later statement changes is copied aside first)."""
    pushes = [stack[1] for stack in env.names.stacks.values()]
    saves = [i for i, s in enumerate(forward) if _saves(s, pushes)]
    if not saves or all(_saves(s, pushes) for s in forward[saves[0]:]):
        return forward
    if any(_saves(s, pushes) for s in sw.walk(forward) if s not in forward):
        raise UnsupportedSyntaxError(
            "a value saved in a branch of one line inside a try body is not supported",
            filename=origin.filename, lineno=origin.lineno, col_offset=origin.col_offset,
            source_line=origin.line, hint="write the line's parts on lines of their own")
    out, later = [], []
    for i, stmt in enumerate(forward):
        if not _saves(stmt, pushes):
            out.append(stmt)
            continue
        changed = {n for s in sw.walk(forward[i + 1:]) for n in sw.binds(s) + sw.changes(s)}
        if set(sw.name_reads(stmt.value)) & changed:
            aside = env.names.fresh("saved")
            out.append(sw.Let(aside, stmt.value))
            stmt = sw.Push(stmt.stack, ex.Name(aside))
        later.append(stmt)
    return out + later


def _saves(stmt, pushes):
    return isinstance(stmt, sw.Push) and stmt.stack in pushes and not stmt.method


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


def _at_least(name, number):
    return ex.Compare(ex.Name(name), (">=",), (ex.Const(number),))


def _within(name, before, number):
    """``before <= name < number`` (``name < number`` from 0)."""
    if not before:
        return ex.Compare(ex.Name(name), ("<",), (ex.Const(number),))
    return ex.Compare(ex.Const(before), ("<=", "<"), (ex.Name(name), ex.Const(number)))


def _numbers(expr, name):
    """The numbers the comparison ``expr`` compares ``name`` with (None: not one)."""
    if not isinstance(expr, ex.Compare):
        return None
    parts = (expr.left,) + tuple(expr.comparators)
    if ex.Name(name) not in parts:
        return None
    return [p.value for p in parts if isinstance(p, ex.Const)]


def _compared(block, name):
    """Every number a test in ``block`` compares ``name`` with."""
    found = set()
    for stmt in sw.walk(block):
        if isinstance(stmt, sw.If):
            found.update(_numbers(stmt.test, name) or ())
    return found


def _renumber(expr, name, renumber):
    if _numbers(expr, name) is None:
        return expr
    parts = [ex.Const(renumber[p.value]) if isinstance(p, ex.Const) else p
             for p in (expr.left,) + tuple(expr.comparators)]
    return ex.Compare(parts[0], expr.ops, tuple(parts[1:]))


def _renumbered(block, name, renumber):
    """``block`` with the records of ``name`` nothing reads left out and the others, and
    the tests reading them, numbered by ``renumber`` (new statements; none changed)."""
    out = []
    for stmt in block:
        if isinstance(stmt, sw.Let) and stmt.target == name:
            if stmt.value.value in renumber:
                out.append(sw.Let(name, ex.Const(renumber[stmt.value.value])))
            continue
        if isinstance(stmt, sw.If):
            stmt = replace(stmt, test=_renumber(stmt.test, name, renumber),
                           body=_renumbered(stmt.body, name, renumber) or [sw.Pass()],
                           orelse=_renumbered(stmt.orelse, name, renumber))
        elif isinstance(stmt, sw.Try):
            stmt = replace(stmt, body=_renumbered(stmt.body, name, renumber) or [sw.Pass()],
                           cleanup=_renumbered(stmt.cleanup, name, renumber))
        elif isinstance(stmt, (sw.For, sw.While)):
            stmt = replace(stmt, body=_renumbered(stmt.body, name, renumber) or [sw.Pass()])
        out.append(stmt)
    return out
