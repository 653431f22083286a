"""Containers in forward mode: a container's tangent is a container in step with it.

Used by ``ad.forward``.  Expects a container statement (``Build``, ``Item``, ``SetItem``,
``Push``, ``Pop``, ``Reduce``, ``Join``, ``Take``, ``Share``) whose record
(``registry.operation_of``) has JVP builders, of a container the function builds or a
parameter it only reads (``in_step``).  Guarantees the statement as the function runs
it and, beside it, the same operation on the tangents, read off the record's JVP
builders, the ones reverse mode reads the VJPs beside:

    ys = [a, (b, 2.0)]          dys = [da, (db, 0.0)]
    p = {"w": w}                dp = {'w': dw}
    ys.append(v)                dys.append(dv)
    y = ys[i]                   dy = dys[i]
    ys[i] = v                   dys[i] = dv
    t = max(xs)                 dt = dxs[max(range(len(xs)), key=xs.__getitem__)]
    zs = xs + [y]               dzs = dxs + [dy]
    tail = xs[1:]               dtail = dxs[1:]

An operand without a tangent of its own (a constant, an inactive name) reads as zero:
the number zero, zeros of an array's shape, or a container of zeros of its shape
(``ad.containers.zeros``), so a record linear in all its operands at once (a join) gets
every stretch, and an element read back has its shape.
"""

import dataclasses

from symdiff.ad.changes import change_operands, effect, reduced, taken
from symdiff.ad.containers import (built, container_operands, copied_value, place,
                                   written_out, zeros)
from symdiff.ad.environment import builtin, names_for
from symdiff.ad.forward_arrays import is_array, zero_tangent
from symdiff.core import expr as ex
from symdiff.core.rewrite import substitute
from symdiff.core import types as t
from symdiff.core.records import Row
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.primitives.containers import At
from symdiff.primitives.registry import operation_of

CONTAINER_STATEMENTS = (ir.Build, ir.Push, ir.Pop, ir.Item, ir.SetItem, ir.Reduce,
                        ir.Share, ir.Take, ir.Join)


def tangent(env, name):
    return env.names.derivative(name)


def in_step(env, stmt):
    """Whether forward mode keeps a tangent in step with ``stmt``'s container: one the
    function builds (a list, tuple or dict, nested), or a parameter (or a container read
    out of one) it reads without changing, whose tangent the caller passes; its record
    has JVP builders.  A list of lists keeps a list of their tangents: appending a list
    appends its tangent, the same object as the list is."""
    if not isinstance(stmt, CONTAINER_STATEMENTS) or operation_of(stmt).jvp is None:
        return False
    name = _container_of(stmt)
    if name in env.program.params or name in read_elements(env):
        return isinstance(stmt, (ir.Item, ir.Reduce, ir.Take, ir.Share, ir.Join))
    return isinstance(env.program.containers.get(name), (t.List, t.Tuple, t.Dict))


def _container_of(stmt):
    if isinstance(stmt, ir.Build):
        return stmt.target
    if isinstance(stmt, ir.Join):
        return stmt.target
    return getattr(stmt, "container", getattr(stmt, "stack", None))


def read_elements(env):
    """The containers the function reads out of a container parameter (``layer =
    layers[i]``), in source order."""
    found, params = set(), set(env.program.params)
    for stmt in ir.walk(env.program.body):
        if isinstance(stmt, ir.Item) and (stmt.container in params or stmt.container in found
                                          ) and stmt.target in env.program.containers:
            found.add(stmt.target)
    return found


def container_statement(env, stmt):
    """``stmt`` and, where its result is active, its tangent beside it."""
    return _RULES[type(stmt)](env, stmt)


def _build(env, stmt):
    made = [sw.Let(stmt.target, built(stmt, env.program.containers.get(stmt.target)))]
    if stmt.target in env.active:
        made.append(sw.Let(tangent(env, stmt.target), built_tangent(env, stmt)))
    return made


def built_tangent(env, stmt):
    """The tangent of a build: its record's JVP for each number (a constant's, or an
    inactive name's, is zero), each ``At`` its place, written out in the build's shape;
    or the tangent of ``[a] * n`` as the record gives it."""
    args, names = container_operands(stmt), names_for(env, stmt)
    values = [fresh_comprehensions(env, jvp(tangent_of(env, item), args, ex.Name(stmt.target),
                                            names))
              for (_, item), jvp in zip(ir.literal_leaves(stmt.items, stmt.keys),
                                        operation_of(stmt).jvp)]
    if not all(isinstance(v, At) for v in values):
        return values[0]
    placed = iter([v.value for v in values])  # in the order of the leaves
    return written_out(ir.Literal(stmt.kind, stmt.items, stmt.keys), lambda _: next(placed))


def _reduce(env, stmt):
    made = [sw.Let(stmt.target, reduced(env, stmt))]
    if stmt.target in env.active:
        made.append(sw.Let(tangent(env, stmt.target), container_tangent(env, stmt, (
            (stmt.container, stmt.path), getattr(stmt.start, "name", None)))))
    return made


def _set_item(env, stmt):
    made = [sw.Let(place(stmt.container, stmt.path), ex.of_operand(stmt.value))]
    if stmt.container in env.active:
        into = tangent(env, stmt.container)
        made += effect(env, stmt, into, _jvp(env, stmt, 1, tangent_of(env, stmt.value)))
    return made


def _item(env, stmt):
    made = [sw.Let(stmt.target, place(stmt.container, stmt.path))]
    if stmt.target in env.active:
        made.append(sw.Let(tangent(env, stmt.target), container_tangent(
            env, stmt, ((stmt.container, ()),) + (None,) * len(stmt.path))))
    return made


def _push(env, stmt):
    made = [sw.Push(stmt.stack, ex.of_operand(stmt.value), method=True)]
    if stmt.stack in env.active:
        into = tangent(env, stmt.stack)
        made += effect(env, stmt, into, _jvp(env, stmt, 1, tangent_of(env, stmt.value)))
    return made


def _pop(env, stmt):
    if stmt.index is not None:  # ``ys.pop(i)`` beside ``dys.pop(i)``
        made = [sw.Let(stmt.target, ex.Call(ex.Attribute(ex.Name(stmt.stack), "pop"),
                                            (ex.of_operand(stmt.index),)))]
    else:
        made = [sw.Pop(stmt.target, stmt.stack, method=True)]
    if stmt.stack in env.active:  # the record's JVP: the popped tangent taken out
        into = tangent(env, stmt.stack)
        target = tangent(env, stmt.target) if stmt.target in env.active else None
        made.append(taken(into, _jvp(env, stmt, 0, ex.Name(into)), target))
    elif stmt.target in env.active:  # active where it is assigned again: zero here
        made.append(sw.Let(tangent(env, stmt.target), sw.ZERO))
    return made


def _copied(env, stmt):
    """A join, a slice or copy, a list bound again: the statement as the function runs
    it, and the record's JVPs of its operands."""
    made = [sw.Let(stmt.target, _primal(env, stmt))]
    if stmt.target in env.active:
        made.append(sw.Let(tangent(env, stmt.target), _linear_tangent(env, stmt)))
    return made


def _primal(env, stmt):
    """The value of a join (``xs + [y]``), a slice or copy (``xs[1:]``, ``sorted(xs)``)
    or a list bound again (``x = h``), as the function computes it."""
    if isinstance(stmt, ir.Join):
        value = None
        for part in stmt.parts:
            node = written_out(part) if isinstance(part, ir.Literal) else place(
                part.container, part.path)
            value = node if value is None else ex.BinOp("+", value, node)
        return value
    source = place(stmt.container, stmt.path)
    if isinstance(stmt, ir.Share):
        return source
    if stmt.copy is None:
        return ex.Subscript(source, ex.Slice(*[None if b is None else ex.of_operand(b)
                                                for b in stmt.bounds]))
    return copied_value(env, stmt, source)


def _linear_tangent(env, stmt):
    """The sum of the record's JVPs of every operand (zeros for one without a tangent),
    in order: the stretches of a join, or the one of a slice."""
    args, names, out = container_operands(stmt), names_for(env, stmt), ex.Name(stmt.target)
    total = None
    for (name, path), builder in zip(_operand_places(stmt), operation_of(stmt).jvp):
        if builder is None:
            continue
        term = fresh_comprehensions(env, builder(_tangent_place(env, name, path), args, out,
                                                 names))
        total = term if total is None else ex.BinOp("+", total, term)
    return total


def _operand_places(stmt):
    """``(name, path)`` of each operand of a join, slice or share: a container's place,
    or an item's name (None for a constant), as ``container_operands`` lists them."""
    if isinstance(stmt, ir.Join):
        return [p for part in stmt.parts for p in (
            [(getattr(i, "name", None), ()) for i in part.items]
            if isinstance(part, ir.Literal) else [(part.container, part.path)])]
    return [(stmt.container, stmt.path)] + [(None, ())] * (
        len(container_operands(stmt)) - 1)


def _tangent_place(env, name, path):
    """The tangent of the operand ``name[path]``: the same place of its tangent, or
    zeros of its shape (a number's: zero) where it has none."""
    if name is not None and name in env.active:
        return place(tangent(env, name), path)
    kind = env.program.containers.get(name) if name is not None else None
    for index in path:
        kind = _inside(kind, index)
    if isinstance(kind, (t.List, t.Tuple, t.Dict)):  # (a ``Row`` is a list when it runs)
        numpy = ex.Name(env.program.numpy_name) if env.program.numpy_name else None
        made = zeros(kind, place(name, path), numpy)
        return ex.Call(ex.Name(builtin(env, "tuple")), (made,)) if isinstance(
            kind, t.Tuple) and not isinstance(kind, Row) else made
    if name is not None and not path and is_array(env, name):
        return zero_tangent(env, name)  # zeros of its shape: what is read of it keeps it
    return sw.ZERO


def _inside(kind, index):
    if isinstance(kind, t.List):
        return kind.elem
    if isinstance(kind, t.Tuple) and isinstance(index, ir.Const):
        return kind.elts[index.value]
    if isinstance(kind, t.Dict) and isinstance(index, ir.Const):
        return dict(kind.items).get(index.value)
    return None


def _jvp(env, stmt, position, along):
    """The value of the JVP builder of a change's operand at ``position`` (its record's,
    ``primitives.changes``) for the tangent ``along``."""
    builder = operation_of(stmt).jvp[position]
    return fresh_comprehensions(env, builder(along, change_operands(stmt), None,
                                             names_for(env, stmt)))


def container_tangent(env, stmt, places):
    """The tangent of a container statement with a record: the sum of its JVP builders'
    values for its operands whose ``places`` (``(name, path)``, or a name, None for a
    constant) are active, or zero."""
    total = None
    args, out = container_operands(stmt), ex.Name(stmt.target)
    for at, builder in zip(places, operation_of(stmt).jvp):
        name, path = at if isinstance(at, tuple) else (at, ())
        if builder is None or name not in env.active:
            continue
        term = fresh_comprehensions(env, builder(place(tangent(env, name), path), args, out,
                                                 names_for(env, stmt)))
        total = term if total is None else ex.BinOp("+", total, term)
    return total if total is not None else sw.ZERO


def fresh_comprehensions(env, value):
    """``value`` with each comprehension's variable renamed to a name of its own: a
    record's builder names it after what it reads (``k``), which the function may bind
    elsewhere (a loop's ``for k in ...``)."""
    if isinstance(value, ex.ListComp):
        at = env.names.fresh(value.target)
        elt = substitute(value.elt, {value.target: ex.Name(at)})
        return ex.ListComp(fresh_comprehensions(env, elt), at,
                           fresh_comprehensions(env, value.iter))
    if isinstance(value, tuple):
        return tuple(fresh_comprehensions(env, item) for item in value)
    if not dataclasses.is_dataclass(value):
        return value
    return dataclasses.replace(value, **{f.name: fresh_comprehensions(env, getattr(
        value, f.name)) for f in dataclasses.fields(value) if f.init})


def tangent_of(env, operand):
    """The tangent of an operand: its name's, or zero for a constant or an inactive
    name (zeros of its shape for a container)."""
    if isinstance(operand, ir.Var):
        return _tangent_place(env, operand.name, ())
    return sw.ZERO


_RULES = {ir.Build: _build, ir.Reduce: _reduce, ir.SetItem: _set_item, ir.Item: _item,
          ir.Push: _push, ir.Pop: _pop, ir.Join: _copied, ir.Take: _copied,
          ir.Share: _copied}
