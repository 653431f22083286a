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
from symdiff.ad.containers import zeros
from symdiff.ad.forward_containers import container_statement, in_step, tangent_of
from symdiff.ad.control import branch_statement, keys_of
from symdiff.ad.arrays import differentiable, written
from symdiff.ad.environment import Environment, flatten, forward_expression, names_for
from symdiff.ad.forward_arrays import array_tangent, zero_tangent
from symdiff.ad.reverse import Generated, function_of, none_guards
from symdiff.ad.writer import Names, operand, operands
from symdiff.analysis.activity import active_names
from symdiff.analysis.defuse import DefUse
from symdiff.primitives.derivatives import unit
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
                     and r.name in env.active else result_zero(env, r.name)
                     if isinstance(r, ir.Var) else ex.Const(0.0) for r in results)
    if isinstance(program.result, tuple):
        value, along = ex.Tuple(values), ex.Tuple(tangents)
    else:
        value, along = values[0], tangents[0]
    body.append(sw.Return(ex.Tuple((value, along))))
    body[:0] = none_guards(program, env.wrt) + data_tangents(env)
    name = names.fresh(f"jvp_{program.name}")
    function = function_of(name, program, body,
                           extra=[names.derivatives[p] for p in env.wrt])
    return type_sweeps(Generated(function, program.math_name,
                                 {**program.namespace, **names.imports},
                                 dict(names.derivatives), None,
                                 {alias: b for b, alias in names.builtins.items()},
                                 dict(names.helpers), containers=dict(program.containers)),
                       program.types)


def result_zero(env, name):
    """The tangent of a result nothing moves: zeros of its shape (a container's: of its
    structure, ``tangent_of``)."""
    if env.program.containers.get(name) is not None:
        return tangent_of(env, ir.Var(name))
    return zero_tangent(env, name)


def data_tangents(env):
    """Zero tangents of the parameters not differentiated that become active later (``y``
    of ``for ...: y = y * x`` by ``x``; a list ``h = x`` a loop makes ``h``): zeros of
    their structure, so their first read is defined."""
    made = []
    for param in env.program.params:
        if param in env.active and param not in env.wrt:
            kind = env.program.types.get(param)
            made.append(sw.Let(tangent(env, param), zeros(kind, ex.Name(param)) if (
                isinstance(kind, (t.List, t.Tuple, t.Dict))) else zero_tangent(env, param)))
    return made


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
    if in_step(env, stmt):
        return container_statement(env, stmt)
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
        over = None if stmt.over is None else keys_of(env, stmt.over, stmt.sort)
        return [sw.For(stmt.target, bounds, body, stmt.reverse, over)]
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
            "forward mode reads containers the function builds, and parameters it "
            "reads without changing them; not this use yet",
            filename=origin.filename, lineno=origin.lineno, col_offset=origin.col_offset,
            source_line=origin.line, hint="take the gradient with symdiff.grad, which "
            "reads them")
    raise TypeError(stmt)

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
