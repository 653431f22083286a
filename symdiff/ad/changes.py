"""Container changes in the sweeps: element assignment, appends, pops, joins and reductions.

Used by ``differentiate`` beside ``containers`` (element reads, literals, slices and the
shapes of adjoints); each rule is a function of an ``Environment``, the statement and its
``Scope``, returning its forward and reverse statements.  ``xs[k] = v`` gives
``dv += dxs[k]; dxs[k] = 0.0`` (a row replaced gives its adjoint number by number);
``ys.append(v)`` gives ``dv += dys.pop()`` and ``v = ys.pop()`` gives ``dys.append(dv)``;
``zs = xs + [y]`` hands each part its stretch of ``dzs``; a reduction spreads its adjoint
over the container's (``sum``: every element; ``min`` and ``max``: the element returned;
``prod``: the product of the others).  A change is undone by its reverse where a later
reverse step reads the container (``containers.restores``).
"""

from symdiff.ad.containers import (added, container_operands, place, restores, written_out,
                                   zeros)
from symdiff.ad.environment import (adjoint, builtin, length_of, names_for, overwrites,
                                    stack_names)
from symdiff.ad.facts import starts_adjoint
from symdiff.core.types import element as element_kind
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.ad.taping import restoring, saved_for_reverse
from symdiff.primitives.containers import Each, reads_position
from symdiff.primitives.reductions import in_math
from symdiff.primitives.registry import operation_of


def set_item(env, stmt, scope):
    element = place(stmt.container, stmt.path)
    forward = [sw.Let(element, ex.of_operand(stmt.value))]
    if isinstance(stmt.value, ir.Var) and stmt.value.name in env.program.containers:
        return set_row(env, stmt, scope, element, forward)
    reverse = []
    if stmt.container in env.active:
        d = place(adjoint(env, stmt.container), stmt.path)
        value = stmt.value
        if isinstance(value, ir.Var) and value.name in env.active:
            reverse.append(sw.AddTo(adjoint(env, value.name), d))
        reverse.append(sw.Let(d, sw.ZERO))
    if restores(env, stmt.container, stmt):
        push, pop = stack_names(env)
        forward.insert(0, sw.Push(push, element))
        reverse.append(sw.Let(element, ex.Call(ex.Name(pop))))
    return saved_for_reverse(env, stmt, scope, ir.operand_names(stmt.path), forward,
                             reverse)


def set_row(env, stmt, scope, element, forward):
    """``h[t] = row``: the new row's adjoint takes the element's, number by number;
    the old row comes back, with zeros for its adjoint."""
    push, pop = stack_names(env)
    forward.insert(0, sw.Push(push, element))
    reverse = []
    if stmt.container in env.active:
        d = place(adjoint(env, stmt.container), stmt.path)
        if stmt.value.name in env.active:
            index = env.names.fresh("i")
            into = ex.Subscript(ex.Name(adjoint(env, stmt.value.name)), ex.Name(index))
            reverse.append(sw.For(index, (length_of(env, d),),
                                  [sw.AddTo(into, ex.Subscript(d, ex.Name(index)))]))
        kind = env.program.containers[stmt.container]
        for index in stmt.path:
            kind = element_kind(kind, index.value if isinstance(index, ir.Const) else None)
        reverse += [sw.Let(element, ex.Call(ex.Name(pop))), sw.Let(d, zeros(kind, element))]
    else:
        reverse.append(sw.Let(element, ex.Call(ex.Name(pop))))
    return saved_for_reverse(env, stmt, scope, ir.operand_names(stmt.path), forward,
                             reverse)


def append_to_list(env, stmt, scope):
    """``ys.append(v)`` on a list: its reverse takes the element back out of both."""
    forward = [sw.Push(stmt.stack, ex.of_operand(stmt.value), method=True)]
    reverse = [sw.Pop(None, stmt.stack, method=True)] if restores(
        env, stmt.stack, stmt) else []
    if stmt.stack in env.active:
        d = adjoint(env, stmt.stack)
        value = stmt.value
        popped = ex.Call(ex.Attribute(ex.Name(d), "pop"))
        if isinstance(value, ir.Var) and value.name in env.active and (
                value.name in env.program.containers):  # a row: added in, number by number
            row, index = env.names.fresh(f"d{value.name}_appended"), env.names.fresh("i")
            into = ex.Subscript(ex.Name(adjoint(env, value.name)), ex.Name(index))
            reverse += [sw.Let(row, popped), sw.For(index, (length_of(env, ex.Name(row)),), [
                sw.AddTo(into, ex.Subscript(ex.Name(row), ex.Name(index)))])]
        elif isinstance(value, ir.Var) and value.name in env.active:
            summed = summed_only(env, stmt.stack)
            share = popped if summed is None else ex.Name(adjoint(env, summed.target))
            reverse.append(sw.AddTo(adjoint(env, value.name), share))
        elif summed_only(env, stmt.stack) is None:
            reverse.append(sw.Pop(None, d, method=True))
    return forward, reverse


def pop_from_list(env, stmt, scope):
    """``v = ys.pop()`` (or ``ys.pop(i)``): its reverse puts ``v``'s adjoint back on the
    list's adjoint (which has the list's shape at every point), at the end (or where
    it was taken out), and ``v`` back on the list where a later reverse step reads the
    list."""
    redefines = overwrites(env, stmt, scope)
    if stmt.index is None:
        forward = [sw.Pop(stmt.target, stmt.stack, method=True)]
    else:
        forward = [sw.Let(stmt.target, ex.Call(ex.Attribute(ex.Name(stmt.stack), "pop"),
                                               (ex.of_operand(stmt.index),)))]
    reverse = []
    if stmt.stack in env.active:
        active = stmt.target in env.active
        value = ex.Name(adjoint(env, stmt.target)) if active else sw.ZERO
        reverse.append(put_back(env, stmt, adjoint(env, stmt.stack), value))
        if active and redefines:
            reverse.append(sw.Let(adjoint(env, stmt.target), sw.ZERO))
    if restores(env, stmt.stack, stmt):
        popped = ex.Name(stmt.target)
        if scope.taped(stmt.target, env.defuse.place(stmt)) and (
                stmt.target not in scope.in_place):  # overwritten before the reverse
            push, pop = stack_names(env)
            forward.append(sw.Push(push, popped))
            popped = ex.Call(ex.Name(pop))
        reverse.append(put_back(env, stmt, stmt.stack, popped))
    forward, reverse = saved_for_reverse(env, stmt, scope, ir.operand_names(
        (stmt.index,)), forward, reverse)
    return restoring(env, stmt, scope, forward, reverse)


def put_back(env, stmt, into, value):
    """``into.append(value)`` for a pop of the last element; for ``pop(i)``,
    ``into.insert(p, value)`` at the position ``p`` it was taken from, read from the
    list's length where ``i`` may be negative (``i if i >= 0 else len(into) + 1 + i``;
    ``len(into) - 1`` for ``pop(-2)``)."""
    if stmt.index is None:
        return sw.Push(into, value, method=True)
    index = ex.of_operand(stmt.index)
    after = ex.BinOp("+", length_of(env, ex.Name(into)), ex.Const(1))
    if isinstance(stmt.index, ir.Const) and stmt.index.value >= 0:
        position = index
    elif isinstance(stmt.index, ir.Const):
        position = ex.BinOp("-", length_of(env, ex.Name(into)), ex.Const(
            -stmt.index.value - 1))
    else:
        position = ex.IfExp(ex.Compare(index, (">=",), (ex.Const(0),)), index,
                            ex.BinOp("+", after, index))
    return sw.Do(ex.Call(ex.Attribute(ex.Name(into), "insert"), (position, value)))


def summed_only(env, name):
    """The sum whose adjoint is every element's of the list ``name``, or None
    (``ad.facts``)."""
    return env.facts.summed_only.get(name)


def reduce(env, stmt, scope):
    redefines = overwrites(env, stmt, scope)
    container = place(stmt.container, stmt.path)
    if in_math(stmt.op):
        func = ex.Attribute(ex.Name(env.program.math_name), stmt.op)
    else:
        func = ex.Name(builtin(env, stmt.op))
    args = (container,) if stmt.start is None else (container, ex.of_operand(stmt.start))
    keywords = ()
    if stmt.op == "prod" and stmt.start is not None:
        args, keywords = (container,), (("start", ex.of_operand(stmt.start)),)
    forward = [sw.Let(stmt.target, ex.Call(func, args, keywords))]
    if stmt.target not in env.active:
        return restoring(env, stmt, scope, forward, [])
    g = ex.Name(adjoint(env, stmt.target))
    reverse = []
    if stmt.container in env.active:
        reverse += _spread(env, stmt, g)
        forward, reverse = saved_for_reverse(env, stmt, scope, ir.operand_names(stmt.path),
                                             forward, reverse)
    start = stmt.start
    if isinstance(start, ir.Var) and start.name in env.active:
        vjp = operation_of(stmt).vjp[1]
        reverse += added(env, adjoint(env, start.name), vjp(
            g, container_operands(stmt), ex.Name(stmt.target), names_for(env, stmt)))
    if redefines:
        reverse.append(sw.Let(g.id, sw.ZERO))
    return restoring(env, stmt, scope, forward, reverse)


def _spread(env, stmt, g):
    """The reverse of a reduction into the container's adjoint: its record's VJP."""
    container = place(stmt.container, stmt.path)
    d = place(adjoint(env, stmt.container), stmt.path)
    index = env.names.fresh("i")
    value = operation_of(stmt).vjp[0](g, container_operands(stmt), ex.Name(stmt.target),
                                      names_for(env, stmt))
    summed = summed_only(env, stmt.container) is stmt  # no list of adjoints
    if stmt.container in env.facts.started and (summed or isinstance(
            value, Each) and not reads_position(value.value) and starts_adjoint(
                env.defuse, stmt)):  # no zeros when the reverse starts
        return [] if summed else [  # ``dterms = [g] * len(terms)``
            sw.Let(d.id, ex.BinOp("*", ex.List((value.value,)), length_of(env, container)))]
    return added(env, d, value, index, container)


def join(env, stmt, scope):
    """``zs = xs + [y]``: the reverse hands each part its stretch of the adjoint,
    ``dxs[i] += dzs[i]`` for each ``i``, then ``dy += dzs[len(xs)]``."""
    value = None
    for part in stmt.parts:
        node = written_out(part) if isinstance(part, ir.Literal) else place(
            part.container, part.path)
        value = node if value is None else ex.BinOp("+", value, node)
    forward = [sw.Let(stmt.target, value)]
    if stmt.target not in env.active:
        return forward, []
    d = ex.Name(adjoint(env, stmt.target))
    reverse, builders = [], iter(operation_of(stmt).vjp)
    args, names = container_operands(stmt), names_for(env, stmt)
    for part in stmt.parts:
        if isinstance(part, ir.Literal):
            for item in part.items:
                vjp = next(builders)
                if isinstance(item, ir.Var) and item.name in env.active:
                    reverse.append(sw.AddTo(adjoint(env, item.name), vjp(
                        d, args, ex.Name(stmt.target), names)))
            continue
        vjp = next(builders)
        if part.container in env.active:
            index = env.names.fresh("i")
            reverse += added(env, place(adjoint(env, part.container), part.path), vjp(
                d, args, ex.Name(stmt.target), names), index, place(
                    part.container, part.path))
    if scope.in_loop:  # a new container each iteration: the last one comes back after
        push, pop = stack_names(env)
        forward.insert(0, sw.Push(push, ex.Name(stmt.target)))
        kind = env.program.containers[stmt.target]
        reverse += [sw.Pop(stmt.target, pop), sw.Let(d.id, zeros(kind, ex.Name(stmt.target)))]
    names = ir.operand_names(tuple(i for part in stmt.parts if isinstance(part, ir.Ref)
                                   for i in part.path))
    return saved_for_reverse(env, stmt, scope, names, forward, reverse)

