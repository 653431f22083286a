"""Forward: a normalized ``Program`` -> ``jvp_f`` (forward mode), as IR (``ir.sweeps``).

Expects a ``Program`` from ``normalize`` (which may return a tuple of numbers).
Guarantees a function ``jvp_f(x, y, dx, dy)`` returning ``(value, tangent)``: the
user's computation with, after each active statement, the statement's tangent as
the sum of its record's JVP builders on the arguments' tangents (an elementwise one's:
the partial times the tangent).  The same records as reverse mode; control flow is kept
as written and needs no stack.  A list of numbers the function builds has a list of
tangents in step with it.  A statement on NumPy arrays gets a tangent of its result's
shape (``ad.forward_arrays``).  Each statement's rule is a function of the ``Environment``
(``ad.environment``) and the statement, returning the statements that compute it and its
tangent.

    def f(x, y):                   def jvp_f(x, y, dx, dy):
        z = x * y                      z = x * y
        return math.sin(z)             dz = dx * y + dy * x
                                       result = math.sin(z)
                                       dresult = dz * math.cos(z)
                                       return result, dresult
"""

from types import MappingProxyType

from symdiff.ad.attempts import forward_try
from symdiff.ad.changes import change_operands, effect, taken
from symdiff.ad.containers import container_operands, place
from symdiff.ad.control import branch_statement
from symdiff.ad.arrays import differentiable, written
from symdiff.ad.environment import Environment, builtin, flatten, forward_expression, names_for
from symdiff.ad.forward_arrays import array_tangent, zero_tangent
from symdiff.ad.reverse import Generated, function_of, none_guards
from symdiff.ad.writer import Names, operand, operands
from symdiff.analysis.activity import active_names
from symdiff.analysis.defuse import DefUse
from symdiff.primitives.containers import At
from symdiff.primitives.derivatives import unit
from symdiff.primitives.registry import operation_of
from symdiff.analysis.sweep_types import type_sweeps
from symdiff.errors import UnsupportedSyntaxError
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.core import types as t


def differentiate_forward(program, wrt, defuse=None):
    """The forward-mode function of ``program`` along ``wrt``'s tangents, as IR;
    ``defuse`` is the program's ``DefUse``, built here when not given."""
    return build(environment(program, wrt, defuse))


def environment(program, wrt, defuse=None):
    """The ``Environment`` forward mode writes ``program`` in: its ``DefUse``, its active
    names and a fresh ``Names``, with the tangents of ``wrt`` named first, in order.
    (Container facts, redefinitions, built sides and restorations are reverse mode's:
    left empty.)"""
    defuse = defuse if defuse is not None else DefUse(program)
    names = Names(program, defuse)
    for param in wrt:
        names.derivative(param)
    return Environment(program, defuse, tuple(wrt), frozenset(active_names(
        program, [w for w in wrt if differentiable(program, w)], defuse)), None,
        frozenset(), MappingProxyType({}),
        MappingProxyType({}), names)


def tangent(env, name):
    """The name of the tangent of ``name``."""
    return env.names.derivative(name)


def build(env):
    program, names = env.program, env.names
    body = flatten(env, block(env, program.body))
    results = program.result if isinstance(program.result, tuple) else (program.result,)
    values = tuple(operand(r) for r in results)
    tangents = tuple(ex.Name(names.derivatives[r.name]) if isinstance(r, ir.Var)
                     and r.name in env.active else zero_tangent(env, r.name)
                     if isinstance(r, ir.Var) else ex.Const(0.0) for r in results)
    if isinstance(program.result, tuple):
        value, along = ex.Tuple(values), ex.Tuple(tangents)
    else:
        value, along = values[0], tangents[0]
    body.append(sw.Return(ex.Tuple((value, along))))
    body[:0] = none_guards(program, env.wrt)
    name = names.fresh(f"jvp_{program.name}")
    function = function_of(name, program, body,
                           extra=[names.derivatives[p] for p in env.wrt])
    return type_sweeps(Generated(function, program.math_name, program.namespace,
                                 dict(names.derivatives), None,
                                 {alias: b for b, alias in names.builtins.items()},
                                 dict(names.helpers)), program.types)


def block(env, stmts):
    return [(stmt.origin, statement(env, stmt)) for stmt in stmts]

def statement(env, stmt):
    if isinstance(stmt, ir.Assign):
        return operation(env, stmt)
    if isinstance(stmt, ir.Compute):
        made = [sw.Let(stmt.target, stmt.expr)]
        if stmt.target in env.active:
            made.append(sw.Let(tangent(env, stmt.target), zero_tangent(env, stmt.target)))
        return made
    if isinstance(stmt, ir.Item) and read_from_parameter(env, stmt):
        return list_statement(env, stmt)
    if isinstance(stmt, (ir.Build, ir.Push, ir.Pop, ir.Item, ir.SetItem)) and (
            built_here(env, stmt)) or (
            isinstance(stmt, ir.Reduce) and operation_of(stmt).jvp is not None
            and not stmt.path and built_here(env, stmt)):
        return list_statement(env, stmt)
    if isinstance(stmt, ir.If):
        return [branch_statement(stmt.test, flatten(env, block(env, stmt.body), stmt.origin),
                                 flatten(env, block(env, stmt.orelse), stmt.origin))]
    if isinstance(stmt, ir.Try):  # a tangent is set where its value is: as far as it got
        return forward_try(env, stmt, flatten(env, block(env, stmt.body), stmt.origin))
    if isinstance(stmt, ir.For):
        bounds = tuple(operand(b) for b in stmt.bounds)
        body = flatten(env, block(env, stmt.body), stmt.origin) or [sw.Pass()]
        if stmt.target in env.active:  # each iteration starts a new, constant loop variable
            body.insert(0, sw.Let(tangent(env, stmt.target), sw.ZERO))
        return [sw.For(stmt.target, bounds, body, stmt.reverse)]
    if isinstance(stmt, ir.While):
        body = flatten(env, block(env, stmt.body), stmt.origin) or [sw.Pass()]
        test = stmt.test
        if stmt.pre:
            body = flatten(env, block(env, stmt.pre), stmt.origin) + [
                sw.If(ex.UnaryOp("not", test), [sw.Break()])] + body
            return [sw.While(ex.Const(True), body)]
        return [sw.While(test, body)]
    if isinstance(stmt, ir.BreakIf):
        return [sw.If(stmt.test, [sw.Break()])]
    if isinstance(stmt, ir.Check):  # runs where the function runs it; no tangent
        return [sw.Check(stmt)]
    if isinstance(stmt, (ir.Build, ir.Push, ir.Pop, ir.Item, ir.SetItem, ir.Reduce,
                         ir.Share, ir.Take, ir.Join)):
        origin = stmt.origin
        raise UnsupportedSyntaxError(
            "forward mode reads lists of numbers built in the function (literals, "
            "append, pop, indexing, element assignment, sum) and no other container "
            "use yet",
            filename=origin.filename, lineno=origin.lineno, col_offset=origin.col_offset,
            source_line=origin.text, hint="take the gradient with symdiff.grad, which "
            "reads them")
    raise TypeError(stmt)

def built_here(env, stmt):
    """Whether ``stmt`` builds, appends to, pops, sums, reads or assigns a number of a
    flat list of numbers the function builds itself (not a parameter)."""
    name = stmt.target if isinstance(stmt, ir.Build) else getattr(
        stmt, "container", getattr(stmt, "stack", None))
    kind = env.program.containers.get(name)
    return (name not in env.program.params and isinstance(kind, t.List)
            and t.is_number(kind.elem) and not (isinstance(stmt, ir.Push) and (
                stmt.value.name in env.program.containers if isinstance(
                    stmt.value, ir.Var) else False)))

def read_from_parameter(env, stmt):
    """Whether ``stmt`` reads an element of a container parameter (a tuple, list or dict
    of arrays and numbers), or of an element read so: its tangent is the same element
    of the tangent the caller passed (``dW = dparams["W"]``); a dict by a constant key."""
    if not (stmt.container in env.program.params or stmt.container in _read_elements(env)):
        return False
    # a dict read by a key known only when it runs (a loop over its keys): not yet
    return not (isinstance(env.program.containers.get(stmt.container), t.Dict) and not all(
        isinstance(part, ir.Const) for part in stmt.path))


def _read_elements(env):
    """The containers the function reads out of a container parameter (``layer =
    layers[i]``), in source order."""
    found, params = set(), set(env.program.params)
    for stmt in ir.walk(env.program.body):
        if isinstance(stmt, ir.Item) and (stmt.container in params or stmt.container in found
                                          ) and stmt.target in env.program.containers:
            found.add(stmt.target)
    return found


def list_statement(env, stmt):
    """A list's tangent is a list in step with it: ``dys = [da, 0.0]`` beside
    ``ys = [a, 2.0]``, ``dys.append(dv)`` beside ``ys.append(v)``, ``dv = dys.pop()``
    beside ``v = ys.pop()``, ``dy = dys[i]`` beside ``y = ys[i]``, ``dys[i] = dv``
    beside ``ys[i] = v``, ``dt = sum(dys)`` beside ``t = sum(ys)``."""
    if isinstance(stmt, ir.Build):
        value = ex.BinOp("*", ex.List((ex.of_operand(stmt.items[0]),)), ex.of_operand(
            stmt.repeat)) if stmt.repeat is not None else ex.List(tuple(
                ex.of_operand(i) for i in stmt.items))
        made = [sw.Let(stmt.target, value)]
        if stmt.target in env.active:
            made.append(sw.Let(tangent(env, stmt.target), built_tangent(env, stmt)))
        return made
    if isinstance(stmt, ir.Reduce):  # a sum's tangent is the sum of the tangents
        func = ex.Name(builtin(env, "sum")) if stmt.op == "sum" else ex.Attribute(
            ex.Name(env.program.math_name), "fsum")
        start = () if stmt.start is None else (ex.of_operand(stmt.start),)
        made = [sw.Let(stmt.target, ex.Call(func, (ex.Name(stmt.container),) + start))]
        if stmt.target in env.active:
            made.append(sw.Let(tangent(env, stmt.target), container_tangent(
                env, stmt, (stmt.container, getattr(stmt.start, "name", None)))))
        return made
    if isinstance(stmt, ir.SetItem):  # the record's JVP: the value's tangent at its place
        made = [sw.Let(place(stmt.container, stmt.path), ex.of_operand(stmt.value))]
        if stmt.container in env.active:
            into = tangent(env, stmt.container)
            made += effect(env, stmt, into, _jvp(env, stmt, 1, tangent_of(env, stmt.value)))
        return made
    if isinstance(stmt, ir.Item):
        made = [sw.Let(stmt.target, place(stmt.container, stmt.path))]
        if stmt.target in env.active:
            made.append(sw.Let(tangent(env, stmt.target), container_tangent(
                env, stmt, (stmt.container,) + (None,) * len(stmt.path))))
        return made
    if isinstance(stmt, ir.Push):  # the record's JVP: the value's tangent appended
        made = [sw.Push(stmt.stack, ex.of_operand(stmt.value), method=True)]
        if stmt.stack in env.active:
            into = tangent(env, stmt.stack)
            made += effect(env, stmt, into, _jvp(env, stmt, 1, tangent_of(env, stmt.value)))
        return made
    if stmt.index is not None:  # ``ys.pop(i)`` beside ``dys.pop(i)``
        made = [sw.Let(stmt.target, ex.Call(ex.Attribute(ex.Name(stmt.stack), "pop"),
                                            (ex.of_operand(stmt.index),)))]
    else:
        made = [sw.Pop(stmt.target, stmt.stack, method=True)]
    if stmt.stack in env.active:  # the record's JVP: the popped tangent taken out
        target = tangent(env, stmt.target) if stmt.index is None and (
            stmt.target in env.active) else None
        into = tangent(env, stmt.stack)
        change = _jvp(env, stmt, 0, ex.Name(into))
        if stmt.index is not None and stmt.target in env.active:
            target = tangent(env, stmt.target)
        made.append(taken(into, change, target))
    elif stmt.target in env.active:
        # active where it is assigned again: zero here
        made.append(sw.Let(tangent(env, stmt.target), sw.ZERO))
    return made

def _jvp(env, stmt, position, along):
    """The value of the JVP builder of a change's operand at ``position`` (its record's,
    ``primitives.changes``) for the tangent ``along``."""
    builder = operation_of(stmt).jvp[position]
    return builder(along, change_operands(stmt), None, names_for(env, stmt))

def built_tangent(env, stmt):
    """The tangent of a flat list built (``Build``): its record's JVP for each number
    (a constant's, or an inactive name's, is zero): a number at its place, written
    out, or the tangent of ``[a] * n`` as it is."""
    args, names = container_operands(stmt), names_for(env, stmt)
    values = [jvp(tangent_of(env, item), args, ex.Name(stmt.target), names)
              for item, jvp in zip(stmt.items, operation_of(stmt).jvp)]
    if all(isinstance(v, At) for v in values):
        placed = dict((v.path, v.value) for v in values)
        return ex.List(tuple(placed[(ex.Const(i),)] for i in range(len(values))))
    return values[0]

def container_tangent(env, stmt, names):
    """The tangent of a container statement with a record (``registry.operation_of``):
    the sum of its JVP builders' values for its operands whose ``names`` are active
    (None: a constant), or zero."""
    total = None
    args, out = container_operands(stmt), ex.Name(stmt.target)
    for name, builder in zip(names, operation_of(stmt).jvp):
        if builder is None or name not in env.active:
            continue
        term = builder(ex.Name(tangent(env, name)), args, out, names_for(env, stmt))
        total = term if total is None else ex.BinOp("+", total, term)
    return total if total is not None else sw.ZERO

def tangent_of(env, operand):
    """The tangent of an operand: its name's, or zero for a constant or an inactive
    name."""
    if isinstance(operand, ir.Var) and operand.name in env.active:
        return ex.Name(tangent(env, operand.name))
    return sw.ZERO

def operation(env, stmt):
    rule = env.program.rule_of(stmt)
    forward = written(env, stmt) if rule.writes else [
        sw.Let(stmt.target, forward_expression(env, stmt))]
    if stmt.target not in env.active:
        return forward
    total = None
    args, names = operands(stmt), names_for(env, stmt)
    terms = [(builder, ex.Name(tangent(env, arg.name)))
             for arg, builder in zip(stmt.args, rule.jvps) if builder is not None
             and isinstance(arg, ir.Var) and arg.name in env.active]
    if env.program.array_types(stmt) is not None:
        along = array_tangent(env, stmt, tangent(env, stmt.target), terms, args, names)
        return along + forward if _reads_itself(stmt) else forward + along
    for builder, along in terms:
        term, sign = unit(builder(along, args, ex.Name(stmt.target), names))
        if total is None:
            total = ex.UnaryOp("-", term) if sign == -1 else term
        else:
            total = ex.BinOp("-" if sign == -1 else "+", total, term)
    along = sw.Let(tangent(env, stmt.target), total if total is not None else sw.ZERO)
    if _reads_itself(stmt):
        # ``s = s + t``: the tangent reads the old ``s``'s tangent, so it comes first,
        # and the partials here (of add and sub) read no value
        return [along] + forward
    return forward + [along]


def _reads_itself(stmt):
    return stmt.target in [a.name for a in stmt.args if isinstance(a, ir.Var)]
