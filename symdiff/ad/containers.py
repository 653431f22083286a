"""Containers in the sweeps: element reads, literals, slices, and adjoints' shapes.

Used by ``differentiate``: each rule is a function of an ``Environment``
(``ad.environment``), the statement and its ``Scope``, returning its forward and reverse
statements (the changes, ``xs[k] = v``, ``append`` and the reductions, are
``ad.changes``).  The adjoint of a container is a list of the same shape (a dict for a
dict), zeros when the reverse sweep starts, when the container holds its last value:
``dxs = [0.0] * len(xs)``.  Each reverse step adds into one element or takes one out, so
loops stay loops:

    y = xs[i]                     dxs[i] += dy       (dy is dxs[i] itself where xs never
                                                      changes: ``forwarded``)
    ys = [a, b]                   da += dys[0]; db += dys[1]
    tail = xs[1:]                 dxs[1 + k] += dtail[k], for each k

A change the forward sweep makes to a container is undone by its reverse only where a
later reverse step reads the container, a reduction's or a slice's (``restores``); a
list a loop builds anew is saved by reference.  The gradient of a container parameter
is returned in its structure (a tuple for a tuple: ``tuple(dparams)``).
"""

import dataclasses

from symdiff.core import expr as ex
from symdiff.core.records import Row, is_record, is_structured
from symdiff.ad.environment import (adjoint, built_in, builtin, length_of, names_for,
                                    overwrites, restoring_from_tape, saving)
from symdiff.ad.additions import added
from symdiff.ad.arrays import zero_of
from symdiff.ad.taping import restoring, saved_for_reverse
from symdiff.ir import nodes as ir
from symdiff.primitives.containers import sorted_positions
from symdiff.ir import sweeps as sw
from symdiff.core import types as t
from symdiff.primitives.registry import operation_of


def place(name, path):
    """``name[i][j]``: the IR expression of an element."""
    node = ex.Name(name)
    for index in path:
        node = ex.Subscript(node, ex.of_operand(index))
    return node


def container_operands(stmt):
    """The operands of a container statement with a record, as its builders take them:
    the container (the place inside it, for a reduction's path), then the indices of an
    element read, or a reduction's start; a build's numbers (then ``n`` of ``[a] * n``);
    a join's parts, a literal's items one by one; a slice's bounds (None: left out); the
    list a name is bound to again."""
    if isinstance(stmt, ir.Item):
        return (ex.Name(stmt.container),) + tuple(ex.of_operand(i) for i in stmt.path)
    if isinstance(stmt, ir.Join):
        return tuple(a for part in stmt.parts for a in (
            tuple(ex.of_operand(i) for i in part.items) if isinstance(part, ir.Literal)
            else (place(part.container, part.path),)))
    if isinstance(stmt, ir.Share):
        return (place(stmt.container, stmt.path),)
    if isinstance(stmt, ir.Take):
        bounds = () if stmt.copy is not None else tuple(
            None if b is None else ex.of_operand(b) for b in stmt.bounds)
        return (place(stmt.container, stmt.path),) + bounds
    if isinstance(stmt, ir.Build):
        repeat = () if stmt.repeat is None else (ex.of_operand(stmt.repeat),)
        return tuple(ex.of_operand(item) for _, item in ir.literal_leaves(
            stmt.items, stmt.keys)) + repeat
    start = () if stmt.start is None else (ex.of_operand(stmt.start),)
    return (place(stmt.container, stmt.path),) + start


def written_out(literal, leaf=ex.of_operand):
    """A container written out (``ir.Literal``, nested too), ``leaf`` of each operand."""
    items = tuple(written_out(i, leaf) if isinstance(i, ir.Literal) else leaf(i)
                  for i in literal.items)
    if literal.kind == "dict":
        return ex.Dict(tuple(ex.Const(k) for k in literal.keys), items)
    return (ex.List if literal.kind == "list" else ex.Tuple)(items)


def built(stmt, kind):
    """The value a ``Build`` makes: its container written out, or for a record's
    (``stmt.maker``) its class called with each field by name and its flags
    (``kind.constants``) as constants: ``Params(w=mul_q, b=y, label='osc')``."""
    if stmt.repeat is not None:
        return ex.BinOp("*", ex.List((ex.of_operand(stmt.items[0]),)),
                        ex.of_operand(stmt.repeat))
    value = written_out(ir.Literal(stmt.kind, stmt.items, stmt.keys))
    if stmt.maker is None:
        return value
    order, spelled = _field_order(kind), dict(kind.spelled)
    return ex.Call(stmt.maker, (), tuple(sorted(tuple(zip(stmt.keys, value.values)) + tuple(
        (k, ex.Const(flag, spelled.get(k))) for k, flag in kind.constants),
        key=lambda kv: order[kv[0]])))


def zeros(kind, value, numpy=None):
    """The expression of a container of zeros shaped as ``value`` (of type ``kind``); with
    ``numpy`` (the IR name generated code calls NumPy by), an array in it as
    ``numpy.zeros_like`` of it."""
    if isinstance(kind, t.Array):
        return ex.Call(ex.Attribute(numpy, "zeros_like"), (value,))
    if isinstance(kind, t.Dict):  # (a record's field by its name: ``item.W`` of a list's)
        return ex.Dict(tuple(ex.Const(k) for k, _ in kind.items), tuple(_zero(v, ex.Attribute(
            value, k) if is_record(kind) else ex.Subscript(value, ex.Const(k)), numpy)
            for k, v in kind.items))
    if isinstance(kind, t.List) and not _nested(kind.elem, numpy):
        return ex.BinOp("*", ex.List((sw.ZERO,)), ex.Call(ex.Name("len"), (value,)))
    if isinstance(kind, t.List):
        return ex.ListComp(_zero(kind.elem, ex.Name("item"), numpy), "item", value)
    if all(not _nested(e, numpy) for e in kind.elts):
        return ex.List((sw.ZERO,) * len(kind.elts))
    return ex.List(tuple(_zero(e, ex.Subscript(value, ex.Const(i)), numpy)
                         for i, e in enumerate(kind.elts)))


def _zero(kind, value, numpy=None):
    return zeros(kind, value, numpy) if _nested(kind, numpy) else sw.ZERO


def _nested(kind, numpy=None):
    """Whether ``zeros`` writes ``kind`` other than as the number zero."""
    return isinstance(kind, (t.List, t.Tuple, t.Dict)) or (
        numpy is not None and isinstance(kind, t.Array))


def structured(kind, value, number=None, primal=None):
    """The gradient ``value`` (lists of floats) as the parameter's structure: a tuple
    for a tuple, nested alike, an instance of a namedtuple's or a dataclass's class for
    one (``primal``: the expression of the parameter, whose class it is and whose static
    fields it keeps); with ``number``, each number ``v`` of it as ``number(v)`` (a NumPy
    scalar made a float)."""
    if not _converts(kind, number is not None):
        return value
    if isinstance(kind, t.Float):
        return number(value)
    if isinstance(kind, t.List) and primal is not None and _holds_objects(kind.elem):
        at = _index_name(primal)  # each element read by its index, and its object's
        return ex.ListComp(structured(kind.elem, ex.Subscript(value, ex.Name(at)), number,
                                      ex.Subscript(primal, ex.Name(at))), at, ex.Call(
            ex.Name("range"), (ex.Call(ex.Name("len"), (value,)),)))
    if isinstance(kind, t.List):
        return ex.ListComp(structured(kind.elem, ex.Name("item"), number), "item", value)
    if isinstance(kind, t.Dict):
        parts = tuple(structured(v, ex.Subscript(value, ex.Const(k)), number, _field(
            primal, kind, k)) for k, v in kind.items)
        if is_structured(kind) and primal is not None:
            return instance_of(kind, primal, parts)
        return ex.Dict(tuple(ex.Const(k) for k, _ in kind.items), parts)
    row = isinstance(kind, Row)  # a list typed element by element: a list again
    if not any(_converts(e, number is not None) for e in kind.elts):
        return value if row else ex.Call(ex.Name("tuple"), (value,))
    return (ex.List if row else ex.Tuple)(tuple(structured(
        e, ex.Subscript(value, ex.Const(i)), number, _field(primal, kind, i))
        for i, e in enumerate(kind.elts)))


def _holds_objects(kind):
    """Whether ``kind`` is, or holds, a namedtuple's or a dataclass's record."""
    if is_structured(kind):
        return True
    inner = kind.elts if isinstance(kind, t.Tuple) else (kind.elem,) if isinstance(
        kind, t.List) else tuple(v for _, v in kind.items) if isinstance(kind, t.Dict) else ()
    return any(_holds_objects(k) for k in inner)


def _index_name(primal):
    """A name for a comprehension's index that the expression ``primal`` does not read."""
    taken = set(ex.names(primal))
    return next(n for n in ("index", "position", "place", "k_index") if n not in taken)


def _field(primal, kind, key):
    """The expression of ``primal``'s element ``key`` (None where a list lies between)."""
    return None if primal is None else ex.Subscript(primal, ex.Const(key))


def instance_of(kind, primal, parts):
    """``type(p)(w=..., b=..., name=p.name)``: an instance of the record's class built
    from ``parts`` (its fields' gradients, in order) and its static fields as ``primal``
    holds them (``backend.fields`` writes ``p['name']`` as ``p.name``)."""
    keywords = tuple((k, part) for (k, _), part in zip(kind.items, parts)) + tuple(
        (k, ex.Attribute(primal, k)) for k in kind.static)
    order = _field_order(kind)
    keywords = tuple(sorted(keywords, key=lambda kv: order.get(kv[0], len(order))))
    return ex.Call(ex.Call(ex.Name("type"), (primal,)), (), keywords)


def _field_order(kind):
    names = kind.cls._fields if hasattr(kind.cls, "_fields") else [
        f.name for f in dataclasses.fields(kind.cls)]
    return {name: i for i, name in enumerate(names)}


def _converts(kind, numbers=False):
    """Whether ``structured`` writes ``kind`` other than as it is: a tuple (the
    adjoint is a list; not a ``Row``, a list itself, but for its elements), or with
    ``numbers`` a number."""
    if isinstance(kind, Row):
        return any(_converts(e, numbers) for e in kind.elts)
    if isinstance(kind, t.Tuple):
        return True
    if isinstance(kind, t.List):
        return _converts(kind.elem, numbers) or _holds_objects(kind.elem)
    if isinstance(kind, t.Dict):
        return is_structured(kind) or any(_converts(v, numbers) for _, v in kind.items)
    return numbers and isinstance(kind, t.Float)


def restores(env, container, change):
    """Whether the reverse of ``change`` (a statement changing ``container``) must
    undo it: a reduction or a slice of the container (or of a name bound to the same
    object) reads it in the reverse sweep after that reverse — it comes before
    ``change`` in the forward sweep, or in the same loop."""
    du = env.defuse
    at, loops = du.position(change), set(s.sid for s in du.loops(change))
    return any(du.position(r) < at or loops & {s.sid for s in du.loops(r)}
               for r in env.facts.readers.get(container, ()))


def copied_value(env, stmt, source):
    """The value of a copy of ``source`` (``list(xs)``, ``tuple(xs)``, ``sorted(xs)``;
    sorted by keys of its own: the numbers at the positions the keys' stable sort gives)."""
    if stmt.keys is not None:
        at = env.names.fresh("i")
        return ex.ListComp(ex.Subscript(source, ex.Name(at)), at, sorted_positions(
            source, names_for(env, stmt), stmt.descending, stmt.keys))
    descending = (("reverse", ex.Const(True)),) if stmt.descending else ()
    return ex.Call(ex.Name(builtin(env, stmt.copy)), (source,), descending)


def take(env, stmt, scope):
    """``tail = xs[1:]``: the reverse adds the slice's adjoint back at the positions
    it was taken from (``range(len(xs))[1:]`` names them, whatever the bounds)."""
    source = place(stmt.container, stmt.path)
    cut = ex.Slice(*[None if b is None else ex.of_operand(b) for b in stmt.bounds])
    value = ex.Subscript(source, cut) if stmt.copy is None else copied_value(env, stmt, source)
    forward = [sw.Let(stmt.target, value)]
    if stmt.target not in env.active or stmt.container not in env.active:
        return forward, []  # (a copy of data made active later: no adjoint to add into)
    positions, index = env.names.fresh(f"{stmt.target}_positions"), env.names.fresh("i")
    d = ex.Name(adjoint(env, stmt.target))
    scattered = operation_of(stmt).vjp[0](d, container_operands(stmt), ex.Name(
        stmt.target), names_for(env, stmt))
    into = ex.Subscript(place(adjoint(env, stmt.container), stmt.path),
                        ex.Subscript(ex.Name(positions), ex.Name(index)))
    kind = env.program.containers[stmt.target]
    reverse = [sw.Let(positions, scattered.positions),
               sw.For(index, (length_of(env, ex.Name(positions)),), added_into(
                   env, into, ex.Subscript(scattered.value, ex.Name(index)), kind.elem if
                   isinstance(kind, t.List) else kind.elts[0]))]
    names = ir.operand_names(stmt.path + tuple(b for b in stmt.bounds if b is not None)) + (
        [stmt.keys] if stmt.keys else [])
    forward, reverse = saved_for_reverse(env, stmt, scope, names, forward, reverse)
    if scope.in_loop:  # the list the target held before, pushed first and popped last
        forward.insert(0, saving(env, stmt.target))
        reverse += [restoring_from_tape(env, stmt.target),
                    sw.Let(d.id, zeros(kind, ex.Name(stmt.target)))]
    return forward, reverse


def share(env, stmt, scope):
    """``x = h``, a loop-carried name bound to another list: its adjoint is added
    into the other's, element by element, and the old list comes back."""
    forward = [sw.Let(stmt.target, place(stmt.container, stmt.path))]
    if stmt.target not in env.active or stmt.container not in env.active:
        return forward, []
    d = adjoint(env, stmt.target)
    index = env.names.fresh("i")
    each = operation_of(stmt).vjp[0](ex.Name(d), container_operands(stmt), ex.Name(
        stmt.target), names_for(env, stmt))  # measured by the adjoint it adds
    reverse = added(env, place(adjoint(env, stmt.container), stmt.path), each, index,
                    ex.Name(d))
    if scope.in_loop:
        forward.insert(0, saving(env, stmt.target))
        kind = env.program.containers[stmt.target]
        reverse += [restoring_from_tape(env, stmt.target),
                    sw.Let(d, zeros(kind, ex.Name(stmt.target)))]
    return saved_for_reverse(env, stmt, scope, ir.operand_names(stmt.path), forward,
                             reverse)


def container_adjoints(env, side=None):
    """``dxs = [0.0] * len(xs)`` for every active container, as the reverse starts (but
    for one whose adjoint a sum starts: ``_spread``).  A container built only inside
    branches of ``if`` statements (read only there: lowering sees to it) may not exist
    when the reverse starts: its adjoint starts with the reverse of the branch that
    builds it, ``side`` (``(sid of the if, True for its body)``)."""
    numpy = ex.Name(env.program.numpy_name) if env.program.numpy_name else None
    return [sw.Let(adjoint(env, name), zeros(kind, ex.Name(name), numpy))
            for name, kind in env.program.containers.items()
            if name in env.active and name not in env.facts.started
            and side in built_in(env, name)]


def branch_local_adjoints(env):
    """The adjoints of the active containers built only inside branches: each is set
    in the reverse of its branch before it is read, and needs no zero before."""
    return {adjoint(env, name) for name in env.program.containers
            if name in env.active and None not in built_in(env, name)}


def gradient_of(env, name, number=None):
    """The gradient of the parameter ``name``, in its structure (``structured``)."""
    kind = env.program.containers.get(name)
    value = ex.Name(adjoint(env, name))
    return value if kind is None else structured(kind, value, number, ex.Name(name))


def item(env, stmt, scope):
    redefines = overwrites(env, stmt, scope)
    forward = [sw.Let(stmt.target, place(stmt.container, stmt.path))]
    if stmt.target not in env.active or stmt.target in env.facts.forwarded:
        return restoring(env, stmt, scope, forward, [])
    g = adjoint(env, stmt.target)
    if stmt.container not in env.active:  # a number of data made active later (``x =
        # state[0]``, then ``x = x + dt * v``): its adjoint goes nowhere, and starts anew
        return restoring(env, stmt, scope, forward, [sw.Let(g, sw.ZERO)] if redefines else [])
    vjp = operation_of(stmt).vjp[0]
    reverse = added(env, adjoint(env, stmt.container), vjp(
        ex.Name(g), container_operands(stmt), ex.Name(stmt.target), names_for(env, stmt)))
    if redefines:  # (zeros of its shape where it is read by index: ``db[:, None] += g``)
        reverse.append(sw.Let(g, zero_of(env, stmt.target)))
    forward, reverse = saved_for_reverse(env, stmt, scope, ir.operand_names(stmt.path),
                                         forward, reverse)
    return restoring(env, stmt, scope, forward, reverse)


def build_container(env, stmt, scope):
    forward = [sw.Let(stmt.target, built(stmt, env.program.containers.get(stmt.target)))]
    if stmt.target not in env.active:
        return forward, []
    d = ex.Name(adjoint(env, stmt.target))
    reverse = []
    if scope.in_loop:  # a new container each iteration: the last one comes back after
        forward.insert(0, saving(env, stmt.target))
        kind = env.program.containers[stmt.target]
        after = [restoring_from_tape(env, stmt.target),
                 sw.Let(d.id, zeros(kind, ex.Name(stmt.target)))]
    else:
        after = []
    leaves = [item for _, item in ir.literal_leaves(stmt.items, stmt.keys)]
    args, names = container_operands(stmt), names_for(env, stmt)
    for item, vjp in zip(leaves, operation_of(stmt).vjp):
        if not (isinstance(item, ir.Var) and item.name in env.active):
            continue
        share = vjp(d, args, ex.Name(stmt.target), names)
        held = env.program.containers.get(item.name)
        if held is not None:  # a list held by name: its adjoint takes the element's
            reverse += added_into(env, ex.Name(adjoint(env, item.name)), share, held)
            continue
        reverse.append(sw.AddTo(adjoint(env, item.name), share))
    return forward, reverse + after


def added_into(env, into, value, kind):
    """``into += value`` for a number; for a list or tuple of numbers, number by
    number (``for i in range(len(value)): into[i] += value[i]``); for a dict, key by
    key."""
    if not _nested(kind):
        return [sw.AddTo(into, value)]
    if isinstance(kind, t.Dict):
        return [s for key, item in kind.items for s in added_into(
            env, ex.Subscript(into, ex.Const(key)), ex.Subscript(value, ex.Const(key)), item)]
    index = env.names.fresh("i")
    length = length_of(env, value)
    return [sw.For(index, (length,), added_into(
        env, ex.Subscript(into, ex.Name(index)), ex.Subscript(value, ex.Name(index)),
        kind.elem if isinstance(kind, t.List) else kind.elts[0]))]
