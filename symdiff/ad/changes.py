"""Container changes in the sweeps: element assignment, appends, pops, joins and reductions.

Used by ``differentiate`` beside ``containers`` (element reads, literals, slices and the
shapes of adjoints); each rule is a function of an ``Environment``, the statement and its
``Scope``, returning its forward and reverse statements, with every derivative taken from
the statement's record (``registry.operation_of``: ``primitives.changes`` for the
changes, ``primitives.containers`` for the rest).  A change's builders give effects on
the list's adjoint, which ``effect`` writes in place (forward mode writes its JVP
builders' effects on the tangent list with the same function): ``xs[k] = v`` gives
``dv += dxs[k]; dxs[k] = 0.0`` (a row replaced gives its adjoint number by number);
``ys.append(v)`` gives ``dv += dys.pop()`` and ``v = ys.pop()`` gives ``dys.append(dv)``;
``zs = xs + [y]`` hands each part its stretch of ``dzs``; a reduction spreads its adjoint
over the container's (``sum``: every element; ``min`` and ``max``: the element returned;
``prod``: the product of the others).  A change is undone by its reverse where a later
reverse step reads the container (``containers.restores``).
"""

from symdiff.ad.additions import added
from symdiff.ad.containers import (added_into, container_operands, place, restores,
                                   written_out, zeros)
from symdiff.ad.environment import (adjoint, builtin, length_of, library_function, names_for,
                                    overwrites, restoring_from_tape, saving, stack_names)
from symdiff.ad.facts import starts_adjoint
from symdiff.core.types import element as element_kind
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.ad.taping import restoring, saved_for_reverse
from symdiff.primitives.changes import Insert, Put, Taken, put_back_position
from symdiff.primitives.containers import Each, reads_position
from symdiff.primitives.reductions import in_library, in_math
from symdiff.primitives.registry import operation_of


def change_operands(stmt):
    """The operands of a change, as its record's builders take them: the list, then the
    value and the indices of ``xs[i] = v``, the value of an append, the index of
    ``pop(i)``."""
    if isinstance(stmt, ir.SetItem):
        return (ex.Name(stmt.container), ex.of_operand(stmt.value)) + tuple(
            ex.of_operand(i) for i in stmt.path)
    if isinstance(stmt, ir.Push):
        return ex.Name(stmt.stack), ex.of_operand(stmt.value)
    return (ex.Name(stmt.stack),) + (() if stmt.index is None else (
        ex.of_operand(stmt.index),))


def _shares(env, stmt, g):
    """``(the list's effect, the value's share)`` of a change's record's VJP builders,
    for the list's adjoint ``g`` (an expression)."""
    vjp, args, names = operation_of(stmt).vjp, change_operands(stmt), names_for(env, stmt)
    return vjp[0](g, args, None, names), vjp[1](g, args, None, names)


def effect(env, stmt, into, change, zeros_of=None):
    """The statements of ``change`` (``primitives.changes``: an effect of a record's
    builder) on the list ``into`` (a name), in place: ``into[i] = value`` (``zeros_of``:
    ``(kind, value)`` of an element whose zeros are ``zeros(kind, value)``),
    ``into.append(value)`` or ``into.insert(p, value)``, ``into.pop()`` dropped."""
    if isinstance(change, Put):
        value = change.value
        if value is None:
            value = sw.ZERO if zeros_of is None else zeros(*zeros_of)
        return [sw.Let(_placed(ex.Name(into), change.path), value)]
    if isinstance(change, Insert):
        if change.index is None:
            return [sw.Push(into, change.value, method=True)]
        position = put_back_position(change.index, ex.Name(into), names_for(env, stmt))
        return [sw.Do(ex.Call(ex.Attribute(ex.Name(into), "insert"), (position,
                                                                     change.value)))]
    return [taken(into, change, None)]


def taken(into, change, target):
    """``target = into.pop()`` (or ``pop(i)``) of a ``Taken`` effect, the value dropped
    where ``target`` is None."""
    if change.index is None:
        return sw.Pop(target, into, method=True)
    popped = taking(into, change)
    return sw.Do(popped) if target is None else sw.Let(target, popped)


def taking(into, change):
    """The expression ``into.pop()`` (``into.pop(i)``) of a ``Taken`` effect."""
    return ex.Call(ex.Attribute(ex.Name(into), "pop"), () if change.index is None else (
        change.index,))


def _taken_by(share, g, change):
    """Whether ``share`` reads the very element the effect ``change`` takes out of
    ``g``: then the share is that ``pop``'s value."""
    if not isinstance(change, Taken):
        return False
    last = ex.UnaryOp("-", ex.Const(1)) if change.index is None else change.index
    return share == ex.Subscript(g, last)


def _placed(node, path):
    for index in path:
        node = ex.Subscript(node, index)
    return node


def _active_var(env, operand):
    return isinstance(operand, ir.Var) and operand.name in env.active


def set_item(env, stmt, scope):
    """``xs[k] = v``: its record's VJP gives ``v`` the adjoint at the place, which then
    starts anew (``dv += dxs[k]; dxs[k] = 0.0``); a row replaced (``h[t] = row``) adds it
    number by number, and the old row comes back, with zeros for its adjoint (saved as a
    copy in a text read again, ``Names.read_again``)."""
    element = place(stmt.container, stmt.path)
    forward = [sw.Let(element, _stored(env, stmt, scope))]
    row = isinstance(stmt.value, ir.Var) and stmt.value.name in env.program.containers
    if row:
        kind = env.program.containers[stmt.container]
        for index in stmt.path:
            kind = element_kind(kind, index.value if isinstance(index, ir.Const) else None)
        push, pop = stack_names(env, kind=kind)
        saved = element  # (a copy in a text read again: the row as a name of its own)
        if env.names.read_again and isinstance(kind, t.List):
            saved = ex.Call(ex.Name(builtin(env, "list")), (element,))
        forward.insert(0, sw.Push(push, saved))
    reverse = []
    if stmt.container in env.active:
        d = adjoint(env, stmt.container)
        reset, share = _shares(env, stmt, ex.Name(d))
        if row and stmt.value.name in env.active:  # number by number, nested ones too
            reverse += added_into(env, ex.Name(adjoint(env, stmt.value.name)), share,
                                  env.program.containers[stmt.value.name])
        elif _active_var(env, stmt.value):
            reverse.append(sw.AddTo(adjoint(env, stmt.value.name), share))
        if row:
            reverse.append(sw.Let(element, ex.Call(ex.Name(pop))))
            reverse += effect(env, stmt, d, reset, (kind, element))
        else:
            reverse += effect(env, stmt, d, reset)
    elif row:
        reverse.append(sw.Let(element, ex.Call(ex.Name(pop))))
    if not row and restores(env, stmt.container, stmt):
        push, pop = stack_names(env)
        forward.insert(0, sw.Push(push, element))
        reverse.append(sw.Let(element, ex.Call(ex.Name(pop))))
    return saved_for_reverse(env, stmt, scope, ir.operand_names(stmt.path), forward,
                             reverse)


def append_to_list(env, stmt, scope):
    """``ys.append(v)`` on a list: its record's VJP takes the element back out of the
    list's adjoint, as ``v``'s share (``dv += dys.pop()``; a row, number by number), and
    the reverse takes it out of the list where a later reverse step reads it.  A row is
    appended as a copy in a text read again (``Names.read_again``): the reverse reads
    the row by its own name too."""
    forward = [sw.Push(stmt.stack, _stored(env, stmt, scope), method=True)]
    reverse = [sw.Pop(None, stmt.stack, method=True)] if restores(
        env, stmt.stack, stmt) else []
    if stmt.stack not in env.active:
        return forward, reverse
    d = adjoint(env, stmt.stack)
    dropped, share = _shares(env, stmt, ex.Name(d))
    summed = summed_only(env, stmt.stack)  # no list of adjoints: each is the sum's
    if _active_var(env, stmt.value) and _taken_by(share, ex.Name(d), dropped):
        share = taking(d, dropped)
    if _active_var(env, stmt.value) and stmt.value.name in env.program.containers:
        row, index = env.names.fresh(f"d{stmt.value.name}_appended"), env.names.fresh("i")
        into = ex.Subscript(ex.Name(adjoint(env, stmt.value.name)), ex.Name(index))
        reverse += [sw.Let(row, share), sw.For(index, (length_of(env, ex.Name(row)),), [
            sw.AddTo(into, ex.Subscript(ex.Name(row), ex.Name(index)))])]
    elif _active_var(env, stmt.value):
        if summed is not None:
            share = ex.Name(adjoint(env, summed.target))
        reverse.append(sw.AddTo(adjoint(env, stmt.value.name), share))
    elif summed is None:
        reverse += effect(env, stmt, d, dropped)
    return forward, reverse


def _stored(env, stmt, scope):
    """The value ``stmt`` appends or stores: as it is, or a copy of a row in a text
    read again (``Names.read_again``) where the row is read by its own name too, by
    another statement or by the reverse sweep (a row built in a loop is saved by its
    name): each is then a list of its own."""
    value = ex.of_operand(stmt.value)
    row = stmt.value.name if isinstance(stmt.value, ir.Var) else None
    if not env.names.read_again or not isinstance(env.program.containers.get(row), t.List):
        return value
    if any(r is not stmt for r in env.defuse.readers(row)) or (
            scope.in_loop and row in env.active):
        return ex.Call(ex.Name(builtin(env, "list")), (value,))
    return value


def pop_from_list(env, stmt, scope):
    """``v = ys.pop()`` (or ``ys.pop(i)``): its record's VJP puts ``v``'s adjoint back on
    the list's adjoint (which has the list's shape at every point), at the end (or where
    it was taken out), and the reverse puts ``v`` back on the list where a later reverse
    step reads the list."""
    redefines = overwrites(env, stmt, scope)
    if stmt.index is None:
        forward = [sw.Pop(stmt.target, stmt.stack, method=True)]
    else:
        forward = [sw.Let(stmt.target, ex.Call(ex.Attribute(ex.Name(stmt.stack), "pop"),
                                               (ex.of_operand(stmt.index),)))]
    put_back = operation_of(stmt).vjp[0]
    args, names = change_operands(stmt), names_for(env, stmt)
    reverse = []
    if stmt.stack in env.active:
        active = stmt.target in env.active
        g = ex.Name(adjoint(env, stmt.target)) if active else sw.ZERO
        reverse += effect(env, stmt, adjoint(env, stmt.stack), put_back(g, args, None, names))
        if active and redefines:
            reverse.append(sw.Let(adjoint(env, stmt.target), sw.ZERO))
    if restores(env, stmt.stack, stmt):
        popped = ex.Name(stmt.target)
        if scope.taped(stmt.target, env.defuse.place(stmt)) and (
                stmt.target not in scope.in_place):  # overwritten before the reverse
            push, pop = stack_names(env, stmt.target)
            forward.append(sw.Push(push, popped))
            popped = ex.Call(ex.Name(pop))
        undone = put_back(popped, args, None, names)  # the pop undone: the same put-back
        reverse += effect(env, stmt, stmt.stack, undone)
    forward, reverse = saved_for_reverse(env, stmt, scope, ir.operand_names(
        (stmt.index,)), forward, reverse)
    return restoring(env, stmt, scope, forward, reverse)


def summed_only(env, name):
    """The sum whose adjoint is every element's of the list ``name``, or None
    (``ad.facts``)."""
    return env.facts.summed_only.get(name)


def reduced(env, stmt):
    """The call a ``Reduce`` is, as the function makes it: ``sum(xs)``, ``math.prod(xs,
    start=s)``, ``np.stack(xs, axis=1)``."""
    container = place(stmt.container, stmt.path)
    if stmt.axis is not None:  # ``np.stack(xs, axis=1)``
        func = ex.Attribute(ex.Name(env.program.numpy_name), stmt.op)
    elif in_library(stmt.op):  # ``statistics.variance(xs)``
        func = library_function(env, stmt.op)
    elif in_math(stmt.op):
        func = ex.Attribute(ex.Name(env.program.math_name), stmt.op)
    else:
        func = ex.Name(builtin(env, stmt.op))
    args = (container,) if stmt.start is None else (container, ex.of_operand(stmt.start))
    keywords = ()
    if stmt.op == "prod" and stmt.start is not None:
        args, keywords = (container,), (("start", ex.of_operand(stmt.start)),)
    if stmt.axis:
        keywords = (("axis", ex.Const(stmt.axis)),)
    return ex.Call(func, args, keywords)


def reduce(env, stmt, scope):
    redefines = overwrites(env, stmt, scope)
    forward = [sw.Let(stmt.target, reduced(env, stmt))]
    if stmt.target not in env.active:
        return restoring(env, stmt, scope, forward, [])
    g = ex.Name(adjoint(env, stmt.target))
    reverse = []
    if stmt.container in env.active:
        reverse += _spread(env, stmt, g)
        forward, reverse = saved_for_reverse(env, stmt, scope, ir.operand_names(stmt.path),
                                             forward, reverse)
        forward, reverse = _result_saved(env, stmt, scope, forward, reverse)
    start = stmt.start
    if isinstance(start, ir.Var) and start.name in env.active:
        vjp = operation_of(stmt).vjp[1]
        reverse += added(env, adjoint(env, start.name), vjp(
            g, container_operands(stmt), ex.Name(stmt.target), names_for(env, stmt)))
    if redefines:
        reverse.append(sw.Let(g.id, sw.ZERO))
    return restoring(env, stmt, scope, forward, reverse)


def _result_saved(env, stmt, scope, forward, reverse):
    """``forward`` and ``reverse`` with the result pushed after ``forward`` and popped
    before ``reverse`` where the VJP reads it (``statistics.stdev``'s divides by it) and
    a loop around overwrites it."""
    value = operation_of(stmt).vjp[0](ex.Name(adjoint(env, stmt.target)), container_operands(
        stmt), ex.Name(stmt.target), names_for(env, stmt))
    exprs = [value.value] + [e for _, e in value.shared] if isinstance(value, Each) else [
        getattr(value, "value", value)]
    read = any(stmt.target in ex.names(e) for e in exprs)
    if not read or not scope.taped(stmt.target, env.defuse.place(stmt)) or (
            stmt.target in scope.in_place):
        return forward, reverse
    push, pop = stack_names(env)
    return forward + [sw.Push(push, ex.Name(stmt.target))], [
        sw.Pop(stmt.target, pop)] + reverse


def _spread(env, stmt, g):
    """The reverse of a reduction into the container's adjoint: its record's VJP."""
    container = place(stmt.container, stmt.path)
    d = place(adjoint(env, stmt.container), stmt.path)
    index = env.names.fresh("i")
    value = operation_of(stmt).vjp[0](g, container_operands(stmt), ex.Name(stmt.target),
                                      names_for(env, stmt))
    summed = summed_only(env, stmt.container) is stmt  # no list of adjoints
    if stmt.container in env.facts.started and (summed or isinstance(
            value, Each) and not reads_position(value) and starts_adjoint(
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
        forward.insert(0, saving(env, stmt.target))
        kind = env.program.containers[stmt.target]
        reverse += [restoring_from_tape(env, stmt.target),
                    sw.Let(d.id, zeros(kind, ex.Name(stmt.target)))]
    names = ir.operand_names(tuple(i for part in stmt.parts if isinstance(part, ir.Ref)
                                   for i in part.path))
    return saved_for_reverse(env, stmt, scope, names, forward, reverse)

