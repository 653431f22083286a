"""Control flow of the two sweeps: branches and loops, and the reverse of each.

Used by ``differentiate``: each rule is a function of an ``Environment``, the statement, its
``Scope`` and ``block`` (what writes the sweeps of a block).  A branch runs forward as
written and, when either side has a reverse, runs back on the same decision (pushed,
when the loop around it overwrites the decision).  A loop's reverse is a loop: a
``for`` with a loop variable the body never writes and no ``break`` runs back over
``reversed(range(...))`` (its bounds kept when they may change), one over a dict's
keys over ``reversed(d)`` (a dict's keys never change); any other loop counts its trips
forward and runs that many times back.  The reverse of one iteration starts the
adjoints of values that live one iteration from their first contribution.
"""

from symdiff.ad.arrays import zero_of
from symdiff.ad.containers import container_adjoints
from symdiff.ad.environment import adjoint, builtin, flatten
from symdiff.ad.taping import decision, restorable, unset
from symdiff.ad.writer import operand
from symdiff.primitives.indexing import Scattered
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.core.expr import names as expression_names

_BOUND_NAMES = {1: ("stop",), 2: ("start", "stop"), 3: ("start", "stop", "step")}


def branch_statement(test, body, orelse):
    """``if test: body else: orelse``; ``if not test: orelse`` when ``body`` does nothing
    (a helper's early ``return`` leaves the rest of it in the ``else``)."""
    if not body and orelse:
        return sw.If(ex.UnaryOp("not", ex.Name(test)), orelse, [])
    return sw.If(ex.Name(test), body or [sw.Pass()], orelse)


def regenerated(loop):
    """Whether the reverse of the ``for`` loop ``loop`` runs over ``reversed(range(...))``
    with its loop variable, which then holds in each reverse iteration what it held in the
    forward one: the loop has no ``break`` and its body never writes the variable."""
    breaks = bool(loop.body) and isinstance(loop.body[-1], ir.BreakIf)
    return not breaks and loop.target not in ir.assigned_names(loop.body)


def branch(env, stmt, scope, block):
    """``if``: forward as written; back on the same decision (``block`` writes a block)."""
    inner = scope.enter(stmt, env.defuse)
    fb, rb = block(env, stmt.body, inner)
    fe, re = block(env, stmt.orelse, inner)
    forward = [branch_statement(stmt.test, flatten(env, fb, stmt.origin),
                                flatten(env, fe, stmt.origin))]
    if not (rb or re):
        return forward, []
    saved, restored = (decision(env, stmt.test, scope)
                       if scope.taped(stmt.test, env.defuse.place(stmt)) else ([], []))
    body = container_adjoints(env, (stmt.sid, True)) + flatten(env, rb, stmt.origin)
    orelse = container_adjoints(env, (stmt.sid, False)) + flatten(env, re, stmt.origin)
    if body:
        back = sw.If(ex.Name(stmt.test), body, orelse)
    else:
        back = sw.If(ex.UnaryOp("not", ex.Name(stmt.test)), orelse, [])
    return forward + saved, restored + [back]


def for_loop(env, stmt, scope, block):
    regenerate = regenerated(stmt)
    inner = scope.enter(stmt, env.defuse,
                        exempt=[stmt.target] if regenerate else [],
                        in_place=restorable(env, stmt, scope),
                        invariant=env.invariant.get(stmt.sid, frozenset()))
    fb, rb = block(env, stmt.body, inner)
    if rb and stmt.target in env.active:  # each iteration starts a new loop variable
        rb.append((stmt.origin, [sw.Let(adjoint(env, stmt.target), sw.ZERO)]))
    bounds = tuple(operand(b) for b in stmt.bounds)
    over = None if stmt.over is None else keys_of(env, stmt.over, stmt.sort)
    body = flatten(env, fb, stmt.origin) or [sw.Pass()]
    if not rb:
        return [sw.For(stmt.target, bounds, body, stmt.reverse, over)], []
    if regenerate:  # bounds the reverse loop reads as the forward loop did: kept as they are
        place = env.defuse.place(stmt)
        stable = not any(isinstance(b, ir.Var) and (
            b.name in inner.loop_assigned or scope.in_loop and scope.taped(b.name, place))
            for b in stmt.bounds)
        forward, saved, restored = [], [], []
        if not stable:  # keep the bounds the loop ran with, for the reverse loop
            kept = []
            for i, bound in enumerate(stmt.bounds):
                if isinstance(bound, ir.Var):
                    name = env.names.fresh(f"{stmt.target}_{_BOUND_NAMES[len(stmt.bounds)][i]}")
                    forward.append(sw.Let(name, ex.Name(bound.name)))
                    more_saved, more_restored = decision(env, name, scope)
                    saved, restored = saved + more_saved, more_restored + restored
                    bound = ir.Var(name)
                kept.append(operand(bound))
            bounds = tuple(kept)
        forward.append(sw.For(stmt.target, bounds, body, stmt.reverse, over, loop=stmt.sid))
        back = sw.For(stmt.target, bounds, reverse_body(env, rb, stmt), not stmt.reverse,
                      over, loop=stmt.sid)
        return unset(env, stmt, scope, inner) + forward + saved, restored + [back]
    counter = env.names.counter(f"{stmt.target}_trips")
    loop = sw.For(stmt.target, bounds, [sw.AddTo(counter, ex.Const(1))] + body,
                  stmt.reverse, over, loop=stmt.sid)
    forward, reverse = counted(env, counter, loop, rb, scope, stmt)
    return unset(env, stmt, scope, inner) + forward, reverse


def keys_of(env, ref, sort):
    """The dict a loop over keys runs over, ``sorted`` with ``sort`` (its path:
    constant keys, which the reverse loop reads alike; the dict's keys never
    change)."""
    node = ex.Name(ref.container)
    for index in ref.path:
        node = ex.Subscript(node, ex.of_operand(index))
    return ex.Call(ex.Name(builtin(env, "sorted")), (node,)) if sort else node


def while_loop(env, stmt, scope, block):
    inner = scope.enter(stmt, env.defuse, in_place=restorable(env, stmt, scope),
                        invariant=env.invariant.get(stmt.sid, frozenset()))
    fb, rb = block(env, stmt.body, inner)
    fp, _ = block(env, stmt.pre, inner)
    body = flatten(env, fb, stmt.origin) or [sw.Pass()]
    counter = env.names.counter("trips") if rb else None
    if counter:
        body.insert(0, sw.AddTo(counter, ex.Const(1)))
    test = stmt.test
    if stmt.pre:
        body = flatten(env, fp, stmt.origin) + [
            sw.If(ex.UnaryOp("not", test), [sw.Break()])] + body
        loop = sw.While(ex.Const(True), body, loop=stmt.sid)
    else:
        loop = sw.While(test, body, loop=stmt.sid)
    if not rb:
        return [loop], []
    forward, reverse = counted(env, counter, loop, rb, scope, stmt)
    return unset(env, stmt, scope, inner) + forward, reverse


def counted(env, counter, loop, chunks, scope, stmt):
    saved, restored = decision(env, counter, scope)
    each = env.names.fresh("_")
    back = sw.For(each, (ex.Name(counter),), reverse_body(env, chunks, stmt), loop=loop.loop)
    return [sw.Let(counter, ex.Const(0)), loop] + saved, restored + [back]


def reverse_body(env, chunks, loop):
    """The reverse of one iteration; adjoints of values that live one iteration start
    from their first contribution (``d = e``, not ``d += e``) and need no reset.  Where
    the first contribution is conditional or reaches only a part of an array (``d[:k]
    += e``, ``np.add.at(d, i, e)``), the iteration starts the adjoint from its zeros
    (``zero_of``: of the array's shape for an array read by index)."""
    stmts = flatten(env, chunks, loop.origin)
    for name in iteration_locals(env, loop):
        adjoint = env.names.derivatives.get(name)
        touching = [i for i, s in enumerate(stmts) if sw.mentions(s, adjoint)]
        if adjoint is None or not touching:
            continue
        first, start = stmts[touching[0]], zero_of(env, name)
        if isinstance(first, sw.AddTo) and first.target == adjoint and (
                adjoint not in expression_names(first.value)):
            value = sw.negated(first.value) if first.negate else first.value
            stmts[touching[0]] = sw.Let(adjoint, value)
        else:  # just before: what its zeros read is restored by then at top level
            at = touching[0] if _adds_into(first, adjoint) else 0
            stmts.insert(at, sw.Let(adjoint, start))
            touching = [i + 1 if i >= at else i for i in touching]
        last = stmts[touching[-1]]
        if len(touching) > 1 and isinstance(last, sw.Let) and last.target == adjoint and (
                sw.is_zero(last.value) or last.value == start):
            del stmts[touching[-1]]  # the next iteration starts afresh
        env.names.iteration_local(adjoint)
    return stmts


def _adds_into(stmt, adjoint):
    """Whether ``stmt`` adds at an index of the array ``adjoint`` itself (``d[i] += e``,
    ``np.add.at(d, i, e)``), not inside a branch or loop."""
    if isinstance(stmt, sw.AddTo):
        return isinstance(stmt.target, ex.Subscript) and stmt.target.value == ex.Name(adjoint)
    return isinstance(stmt, sw.Do) and isinstance(stmt.value, ex.Call) and bool(
        stmt.value.args) and stmt.value.args[0] == ex.Name(adjoint)


def shapes_read(env, stmt, terms):
    """The array ``stmt`` reads by index (its builders' ``terms`` add at the index) where
    that array lives one iteration of a loop (``iteration_locals``): the reverse of the
    iteration starts its adjoint as zeros of its shape (``reverse_body``), so it reads
    this iteration's value, saved or recomputed as any other, not the last one's."""
    x = stmt.args[0] if stmt.args else None
    if not isinstance(x, ir.Var) or not any(isinstance(term, Scattered) for _, term in terms):
        return []
    found = env.defuse.definitions(x.name)
    loop = env.defuse.parent(found[0]) if len(found) == 1 else None
    if isinstance(loop, (ir.For, ir.While)) and x.name in iteration_locals(env, loop):
        return [x.name]
    return []


def iteration_locals(env, loop):
    """Names assigned once, at the top of the loop body, read only later in the same
    iteration: nothing carries them from one iteration to the next, or out."""
    du = env.defuse
    found = []
    for stmt in loop.body:
        if not isinstance(stmt, (ir.Assign, ir.Compute, ir.Pop)):
            continue
        name = stmt.target
        if len(du.definitions(name)) != 1 or name in du.results:
            continue
        position = du.position(stmt)
        if all(du.encloses(loop, r) and du.position(r) > position for r in du.readers(name)):
            found.append(name)
    return found
