"""Differentiate: a normalized ``Program`` -> ``grad_f`` as IR (``ir.sweeps``).

Expects a ``Program`` from ``normalize`` and its ``DefUse``.  Guarantees a function
that runs the user's computation once (the forward sweep) and then the chain
rule backwards (the reverse sweep), with the derivatives taken from ``registry``
and nowhere else.  Only active names (``activity``) get adjoints.

Straight-line values are never overwritten (``normalize`` renames them), so the
reverse sweep reads them directly.  Inside a loop or branch, a value a partial
needs that the same loop or branch may overwrite comes back one of three ways
(``taping`` chooses): pushed on a stack just before the statement and popped just
before its reverse; restored in place (every assignment in the loop pushes the
value it overwrites, and its reverse pops it back); or, for one cheap operation
on values still at hand, recomputed.  Each ``if`` inside a loop pushes its
decision, and each loop its trip count.  The reverse of a loop is a loop (``control``).
Every contribution to an adjoint is an ``AddTo``; the first to reach an adjoint
becomes its definition (``adjoints``).  ``backend.to_python`` writes the Python tree.

Each statement's rule is a function of the ``Environment`` (``ad.environment``: the
analyses, computed once before the sweeps, and the build's ``Names``), the statement and
its ``Scope``, returning the statement's forward and reverse statements; ``block`` puts
a block's together, the reverse ones in reverse order.  No rule keeps state between
statements but the names it asks for.

    def f(x):                 def grad_f(x):
        y = math.sin(x)           y = math.sin(x)
        return y * x              result = y * x
                                  dresult = 1.0
                                  dy = dresult * x
                                  dx = dresult * y
                                  dx += dy * math.cos(x)
                                  return dx
"""

from dataclasses import dataclass, field
from types import MappingProxyType

from symdiff.ad.adjoints import accumulate, initialize_adjoints
from symdiff.ad.attempts import attempt
from symdiff.ad.arrays import (array_zeros, as_array, differentiable, indexed_arrays, indexed_zeros,
                               refuse_array_result, scattered, term_names, written, zero_of,
                               zeroed, zeros_like)
from symdiff.ad.changes import append_to_list, join, pop_from_list, reduce, set_item
from symdiff.ad.containers import (branch_local_adjoints, build_container,
                                   container_adjoints, gradient_of, item, share, structured,
                                   take, zeros)
from symdiff.ad.control import branch, for_loop, shapes_read, while_loop
from symdiff.ad.environment import (Environment, adjoint, built_sides, builtin, flatten,
                                    forward_expression, names_for, overwrites,
                                    redefinitions, restoring_from_tape, saving)
from symdiff.ad.facts import container_facts
from symdiff.ad.invariants import loop_invariants
from symdiff.ad.shared_terms import bind_shared
from symdiff.ad.seed import (kept_value, read_only, refuse_arrays_read_back, seed,
                            without_result)
from symdiff.ad.taping import Scope, recomputed, restorations, restoring
from symdiff.ad.writer import Names, operand, operands, spelled_out
from symdiff.analysis.activity import active_names
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.analysis.sweep_types import type_sweeps
from symdiff.analysis.defuse import DefUse
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.primitives.derivatives import merged, unit
from symdiff.primitives.indexing import Scattered, Zeroed

SECTION = "reverse sweep"  # the heading comment of the second half


@dataclass
class Generated:
    function: object  # an ``ir.sweeps.Function``; after ``to_python``, an ``ast.FunctionDef``
    math_name: str
    namespace: dict
    adjoints: dict = field(default_factory=dict)  # name -> adjoint name
    record_name: str = None
    builtins: dict = field(default_factory=dict)  # alias -> builtin, where a user name shadows it
    helpers: dict = field(default_factory=dict)  # helper (``special``) -> the name it is defined by
    counters: tuple = ()  # the trip counters of loops the reverse sweep runs back (int names)
    containers: dict = field(default_factory=dict)  # the program's containers: name -> kind
    arrays: dict = field(default_factory=dict)  # the program's arrays (the module's too)
    returns_value: bool = True  # the function's value is returned: its overflow is raised


def differentiate(program, wrt, *, with_value=False, as_tuple=None, record=False,
                  defuse=None, seeded=False, read_again=False):
    """The gradient function of ``program`` w.r.t. the names ``wrt``, as IR.

    The function returns one number for one name, else a tuple (``as_tuple``
    forces either); with ``with_value`` it returns ``(value, gradient)``.  With
    ``record``, the reverse sweep also calls ``record(statement, argument,
    contribution)`` for every term of the chain rule (``Generated.record_name``
    says what to bind ``record`` to), for ``check`` to compare against the tape; a
    statement is named by its id (``sid``).  ``defuse`` is the program's
    ``DefUse``, built here when not given.  With ``seeded``, the vector-Jacobian product
    ``vjp_f(*params, cotangent)`` (``ad.seed``): the result may be an array or a
    container, and its adjoint starts from the cotangent instead of 1.0.  With
    ``read_again`` (the text a second derivative reads again), values of each type are
    saved on a tape of their own (numbers on one), each tape a list of one kind, and a
    list appended to a list is appended as a copy, read apart from it.
    """
    if as_tuple is None:
        as_tuple = len(wrt) != 1
    return build(environment(program, wrt, record, defuse, seeded, read_again),
                 with_value, as_tuple, seeded)


def environment(program, wrt, record=False, defuse=None, seeded=False, read_again=False):
    """The ``Environment`` (``ad.environment``) the sweeps of ``program`` w.r.t. ``wrt``
    are written in: its analyses, computed once, and a fresh ``Names`` (``read_again``:
    one tape per type of value saved, ``Names.stack_names``)."""
    defuse = defuse if defuse is not None else DefUse(program)
    names = Names(program, defuse, read_again)
    active = active_names(program, [w for w in wrt if differentiable(program, w)], defuse)
    facts = container_facts(program, defuse, active)
    invariant = loop_invariants(program, defuse)
    return Environment(program, defuse, tuple(wrt), frozenset(active),
                       without_result(facts, program) if seeded else facts,
                       redefinitions(program),
                       MappingProxyType(built_sides(program, defuse, active)),
                       MappingProxyType(restorations(program, defuse, active, invariant)),
                       names, names.fresh("record") if record else None,
                       indexed_arrays(program), MappingProxyType(invariant))


# --- the function -----------------------------------------------------------------------

def build(env, with_value, as_tuple, seeded=False):
    program, names = env.program, env.names
    start = seed(env) if seeded else None
    if start is None:
        refuse_array_result(program)
    else:
        refuse_arrays_read_back(program)
    fwd, rev = block(env, program.body, Scope())
    body = flatten(env, fwd)
    result = program.result
    value_name = names.fresh("value") if with_value else None
    calls = bool(program.arrays) or program.numpy_name is not None or any(
        getattr(s, "call", None) for s in env.defuse.statements)  # NumPy's scalars may meet
    reverse = []
    if isinstance(result, ir.Var) and result.name in env.active:
        seeding = list(start.statements) if start else [
            sw.Let(adjoint(env, result.name), ex.Const(1.0))]
        seeded_names = {s.target for s in seeding}
        reverse += seeding + [s for s in container_adjoints(env) + indexed_zeros(env)
                              if s.target not in seeded_names and s.target not in names.local]
        reverse += flatten(env, rev)
        if start:
            reverse = read_only(start, reverse, adjoint(env, result.name))
    if with_value:
        value = operand(result)
        if calls and (start is None or start.kind in t.NUMBERS):
            value = as_float(env, value)
        elif start is not None:
            value = kept_value(env, value, reverse, set(names.derivatives.values()))
        body.append(sw.Let(value_name, value))
    initialized = initialize_adjoints(reverse, set(names.derivatives.values()),
                                      names.local | branch_local_adjoints(env),
                                      array_zeros(env))
    number = (lambda value: as_float(env, value)) if calls else None  # numpy's scalars
    grads = [spelled_out(gradient_of(env, p, number)) if names.derivatives.get(p) in
             initialized else no_gradient(env, p) for p in env.wrt]  # become plain floats
    if calls:
        grads = [as_array(env, p, g) if p in program.arrays else g if p in program.containers
                 else as_float(env, g) for p, g in zip(env.wrt, grads)]
    grad = ex.Tuple(tuple(grads)) if as_tuple else grads[0]
    if with_value:
        grad = ex.Tuple((ex.Name(value_name), grad))
    prologue = []
    if names.stack_used:
        prologue = [sw.NewStack(*stack) for stack in names.stacks.values()]
    if reverse:
        reverse.insert(0, sw.Comment(f"{SECTION}: adjoints, from the result back", True))
    statements = none_guards(program, env.wrt) + prologue + body + reverse + [
        sw.Return(grad)]
    name = names.fresh(f"{'vjp' if start else 'grad'}_{program.name}")
    extra = (start.param,) if start else None
    return type_sweeps(Generated(
        function_of(name, program, statements, extra), program.math_name,
        {**program.namespace, **names.imports},
        dict(names.derivatives), env.record, {alias: b for b, alias in names.builtins.items()},
        dict(names.helpers), tuple(names.counters), dict(program.containers),
        dict(program.arrays)), program.types, {start.param: start.kind} if start else None)


# --- blocks -----------------------------------------------------------------------------

def block(env, stmts, scope):
    """Forward and reverse chunks of the block ``stmts``; the reverse ones in reverse
    order."""
    fwd, rev = [], []
    for stmt in stmts:
        f, r = statement(env, stmt, scope)
        fwd.append((stmt.origin, f))
        if r:
            rev.append((stmt.origin, r))
    rev.reverse()
    return fwd, rev


_CONTAINER_RULES = {ir.Item: item, ir.Build: build_container, ir.SetItem: set_item,
                    ir.Share: share, ir.Take: take, ir.Join: join, ir.Reduce: reduce,
                    ir.Push: append_to_list, ir.Pop: pop_from_list}


def statement(env, stmt, scope, block=block):
    """The forward and reverse statements of ``stmt`` (``block`` writes the blocks nested
    in it: a ``try`` body's own, which records how far it got)."""
    if isinstance(stmt, ir.Assign):
        return operation(env, stmt, scope)
    if isinstance(stmt, ir.Compute):
        reset = [sw.Let(adjoint(env, stmt.target), sw.ZERO)] if (
            stmt.target in env.active and overwrites(env, stmt, scope)) else []
        return restoring(env, stmt, scope, [sw.Let(stmt.target, stmt.expr)], reset)
    if isinstance(stmt, ir.If):
        return branch(env, stmt, scope, block)
    if isinstance(stmt, ir.For):
        return for_loop(env, stmt, scope, block)
    if isinstance(stmt, ir.While):
        return while_loop(env, stmt, scope, block)
    if isinstance(stmt, ir.Try):
        return attempt(env, stmt, scope, statement)
    if isinstance(stmt, ir.BreakIf):
        return [sw.If(stmt.test, [sw.Break()])], []
    if isinstance(stmt, ir.Check):  # runs where the function runs it; no derivative
        return [sw.Check(stmt)], []
    rule = _CONTAINER_RULES.get(type(stmt))
    if rule is not None:
        return rule(env, stmt, scope)
    raise TypeError(stmt)


def no_gradient(env, name):
    """The gradient of a parameter no derivative reaches: zeros of its structure."""
    if name in env.program.arrays:
        return zeros_like(env, name)
    kind = env.program.containers.get(name)
    if kind is None:
        return ex.Const(0.0)
    numpy = ex.Name(env.program.numpy_name) if env.program.numpy_name else None
    return spelled_out(structured(kind, zeros(kind, ex.Name(name), numpy), primal=ex.Name(name)))


# --- one operation ----------------------------------------------------------------------

def operation(env, stmt, scope):
    redefines = overwrites(env, stmt, scope)
    rule = env.program.rule_of(stmt)
    forward = written(env, stmt) if rule.writes else [
        sw.Let(stmt.target, forward_expression(env, stmt))]
    if stmt.target not in env.active:
        return restoring(env, stmt, scope, forward, [])
    builders = {}  # argument name -> its builder (several arguments, one: merged)
    for arg, builder in zip(stmt.args, rule.vjps):
        if builder is not None and isinstance(arg, ir.Var) and arg.name in env.active:
            known = builders.get(arg.name)
            builders[arg.name] = builder if known is None else merged(known, builder)
    if not builders:  # a constant overwrites an active name: its old adjoint is done
        reset = [sw.Let(adjoint(env, stmt.target), zero_of(env, stmt.target))] if (
            redefines) else []
        return restoring(env, stmt, scope, forward, reset)
    g = adjoint(env, stmt.target)
    build = _Building(ex.Name(g), operands(stmt), ex.Name(stmt.target),
                      names_for(env, stmt))
    terms = [(name, build(builder)) for name, builder in builders.items()]
    reads = [n for _, term in terms for n in term_names(term)] + shapes_read(env, stmt, terms)
    names = [a.name for a in stmt.args if isinstance(a, ir.Var)] + [stmt.target]
    place = env.defuse.place(stmt)
    taped = [n for n in dict.fromkeys(reads) if n in names and scope.taped(n, place)
             and n not in scope.in_place]
    before = [n for n in taped if n != stmt.target]
    after = [n for n in taped if n == stmt.target]
    saved = [n for n in before if recomputed(env, n, stmt, stmt, scope, ()) is None]
    reverse = []
    if saved or after:
        forward = [saving(env, n) for n in saved] + forward + [
            saving(env, n) for n in after]
        reverse = [restoring_from_tape(env, n) for n in reversed(saved + after)]
    reverse += [sw.Let(n, recomputed(env, n, stmt, stmt, scope, saved))
                for n in before if n not in saved]
    if env.record:
        for i, (arg, builder) in enumerate(zip(stmt.args, rule.vjps)):
            if builder is not None and isinstance(arg, ir.Var) and arg.name in builders:
                reverse.append(sw.Do(ex.Call(ex.Name(env.record), (
                    ex.Const(stmt.sid), ex.Const(i), build(builder)))))
    if env.program.array_types(stmt) is not None:  # a mask read twice: bound once
        plain = [i for i, (_, term) in enumerate(terms)
                 if not isinstance(term, (Scattered, Zeroed))]
        lets, shared = bind_shared([terms[i][1] for i in plain], env.names.fresh, stmt.target)
        reverse += lets
        for i, term in zip(plain, shared):
            terms[i] = (terms[i][0], term)
    for name, term in terms:
        if isinstance(term, Scattered):
            reverse.append(scattered(env, adjoint(env, name), term))
        elif isinstance(term, Zeroed):
            reverse += zeroed(env, adjoint(env, name), term)
        elif name != stmt.target:
            reverse.append(accumulate(adjoint(env, name), term))
    if stmt.target in builders:  # ``s = s * t``: the new adjoint of ``s``, scaled
        term = dict(terms)[stmt.target]
        if unit(term)[1] != 1:
            reverse.append(sw.Let(g, term))
    elif redefines:
        reverse.append(sw.Let(g, zero_of(env, stmt.target)))  # the old value's starts anew
    return restoring(env, stmt, scope, forward, reverse)


def as_float(env, node):
    return node if isinstance(node, ex.Const) else ex.Call(ex.Name(builtin(env, "float")),
                                                           (node,))


class _Building:
    """A builder's contribution for one statement: its adjoint, operands, output and
    names fixed."""

    def __init__(self, g, args, out, names):
        self.g, self.args, self.out, self.names = g, args, out, names

    def __call__(self, builder):
        return builder(self.g, self.args, self.out, self.names)


def none_guards(program, wrt):
    """``if scale is None: raise TypeError(...)`` for each parameter differentiated by that
    defaults to None: a None cannot carry a derivative."""
    guards = []
    for name in (p for p in wrt if p in program.optional):
        message = (f"{name} is None, so the gradient of {program.name} cannot be taken with "
                   f"respect to it: pass a number, or leave {name} out of wrt")
        guards.append(sw.If(ex.Compare(ex.Name(name), ("is",), (ex.Const(None),)),
                            [sw.Raise(ex.Call(ex.Name("TypeError"), (ex.Const(message),)))]))
    return guards


def _default(param, value, program):
    """The expression of the default ``value`` of ``param`` the signature keeps (a
    container written out, a function as ``Program.named_defaults`` names it)."""
    if param in program.named_defaults:
        return program.named_defaults[param]
    return ex.literal(value) if type(value) in (list, tuple, dict) else operand(ir.Const(value))


def function_of(name, program, body, extra=None):
    """The ``Function`` named ``name`` with ``program``'s parameters (then ``extra``
    ones, which drop the defaults, before the keyword-only ones) and ``body``.  Given
    ``extra`` (tangents, a cotangent: a sequence, empty too), a ``*args`` parameter is a
    tuple parameter like any other, so that they may follow it: ``jvp_f(x, args, dx,
    dargs)``; without, it stays ``*args``, as in ``grad_f(x, *args)``."""
    vararg = None if extra is not None else getattr(program, "vararg", None)
    extra = () if extra is None else extra
    kept = [p for p in program.positional if p != vararg]
    defaults = () if extra else tuple(_default(p, d, program) for p, d in zip(
        kept[len(kept) - len(program.defaults):], program.defaults))
    kw_defaults = tuple(_default(p, program.kw_defaults[p], program)
                        if p in program.kw_defaults else None for p in program.kwonly)
    params = tuple(program.params)
    positional = len(params) - len(program.kwonly)
    return sw.Function(name, params[:positional] + tuple(extra) + params[positional:],
                       defaults, program.kwargs, body, kwonly=tuple(program.kwonly),
                       kw_defaults=kw_defaults, vararg=vararg)
