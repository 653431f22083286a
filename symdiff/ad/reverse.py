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

from symdiff.ad.adjoints import accumulate, initialize_adjoints
from symdiff.ad.changes import ContainerChanges
from symdiff.ad.containers import Containers, structured, zeros
from symdiff.ad.control import Control
from symdiff.ad.facts import container_facts
from symdiff.ad.taping import Scope, Taping
from symdiff.ad.writer import Writer, operand, spelled_out
from symdiff.analysis.activity import active_names
from symdiff.core import expr as ex
from symdiff.analysis.sweep_types import type_sweeps
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.core.rewrite import breadth_first_names
from symdiff.primitives.derivatives import merged, unit

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


def differentiate(program, wrt, *, with_value=False, as_tuple=None, record=False,
                  defuse=None):
    """The gradient function of ``program`` w.r.t. the names ``wrt``, as IR.

    The function returns one number for one name, else a tuple (``as_tuple``
    forces either); with ``with_value`` it returns ``(value, gradient)``.  With
    ``record``, the reverse sweep also calls ``record(statement, argument,
    contribution)`` for every term of the chain rule (``Generated.record_name``
    says what to bind ``record`` to), for ``check`` to compare against the tape; a
    statement is named by its id (``sid``).  ``defuse`` is the program's
    ``DefUse``, built here when not given.
    """
    if as_tuple is None:
        as_tuple = len(wrt) != 1
    return Sweeps(program, wrt, record, defuse).build(with_value, as_tuple)


class Sweeps(Control, Taping, Containers, ContainerChanges, Writer):
    def __init__(self, program, wrt, record=False, defuse=None):
        super().__init__(program, defuse)
        self.local_adjoints = set()  # adjoints that live one iteration of a reverse loop
        self.wrt = list(wrt)
        self.active = active_names(program, self.wrt, self.defuse)
        self.facts = container_facts(program, self.defuse, self.active)
        self.forwarded = None  # number -> its container's adjoint's element, once named
        self.built_sides = {}  # container -> the branches it is built in (``_built_in``)
        self.adjoints = {}
        self.defined = set(program.params)  # names assigned on the path generated so far
        self.stack_used = False
        self.push = self.pop = None
        self.record = self.namer.fresh("record") if record else None

    # --- names --------------------------------------------------------------------------

    def adjoint(self, name):
        """The adjoint of ``name``: a name of its own, or the element of its container's
        adjoint it is added into directly (``ad.facts``: ``forwarded``)."""
        if self.forwarded is None:  # the containers' adjoints named first, in order
            self.forwarded = {}
            for number, (container, path) in self.facts.forwarded.items():
                element = ex.Name(self.adjoint(container))
                for index in path:
                    element = ex.Subscript(element, index)
                self.forwarded[number] = element
        element = self.forwarded.get(name)
        if element is not None:
            return element
        if name not in self.adjoints:
            self.adjoints[name] = self.namer.fresh(f"d{name}")
        return self.adjoints[name]

    def stack_names(self):
        if self.push is None:
            self.stack_name = self.namer.fresh("stack")
            self.push, self.pop = self.namer.fresh("push"), self.namer.fresh("pop")
        self.stack_used = True
        return self.push, self.pop

    # --- the function -------------------------------------------------------------------

    def build(self, with_value, as_tuple):
        program = self.program
        fwd, rev = self.block(program.body, Scope())
        body = self.flatten(fwd)
        result = program.result
        value_name = None
        calls = any(getattr(s, "call", None) for s in self.defuse.statements)
        if with_value:
            value_name = self.namer.fresh("value")
            value = operand(result)
            if calls:
                value = self.as_float(value)
            body.append(sw.Let(value_name, value))
        reverse = []
        if isinstance(result, ir.Var) and result.name in self.active:
            reverse.append(sw.Let(self.adjoint(result.name), ex.Const(1.0)))
            reverse += self.container_adjoints()
            reverse += self.flatten(rev)
        initialized = initialize_adjoints(reverse, set(self.adjoints.values()),
                                          self.local_adjoints | self.branch_local_adjoints())
        grads = [spelled_out(self.gradient_of(p)) if self.adjoints.get(p) in initialized
                 else self.no_gradient(p) for p in self.wrt]
        if calls:
            grads = [self.as_float(g) for g in grads]  # numpy's scalars become plain floats
        grad = ex.Tuple(tuple(grads)) if as_tuple else grads[0]
        if with_value:
            grad = ex.Tuple((ex.Name(value_name), grad))
        prologue = []
        if self.stack_used:
            prologue = [sw.NewStack(self.stack_name, self.push, self.pop)]
        if reverse:
            reverse.insert(0, sw.Comment(f"{SECTION}: adjoints, from the result back", True))
        statements = none_guards(program, self.wrt) + prologue + body + reverse + [
            sw.Return(grad)]
        name = self.namer.fresh(f"grad_{program.name}")
        return type_sweeps(Generated(
            function_of(name, program, statements), program.math_name, program.namespace,
            dict(self.adjoints), self.record, {alias: b for b, alias in self.builtins.items()},
            dict(self.helpers), tuple(self.counters), dict(program.containers)), program.types)

    # --- blocks -------------------------------------------------------------------------

    def block(self, block, scope):
        """Forward and reverse chunks of ``block``; the reverse ones in reverse order."""
        fwd, rev = [], []
        for stmt in block:
            f, r = self.statement(stmt, scope)
            fwd.append((stmt.origin, f))
            if r:
                rev.append((stmt.origin, r))
        rev.reverse()
        return fwd, rev

    def statement(self, stmt, scope):
        if isinstance(stmt, ir.Assign):
            return self.operation(stmt, scope)
        if isinstance(stmt, ir.Compute):
            overwrites = scope.in_loop or stmt.target in self.defined
            self.defined.add(stmt.target)
            reset = [sw.Let(self.adjoint(stmt.target), sw.ZERO)] if (
                stmt.target in self.active and overwrites) else []
            return self.restoring(stmt, scope, [sw.Let(stmt.target, stmt.expr)],
                                  reset)
        if isinstance(stmt, ir.If):
            return self.branch(stmt, scope)
        if isinstance(stmt, ir.For):
            return self.for_loop(stmt, scope)
        if isinstance(stmt, ir.While):
            return self.while_loop(stmt, scope)
        if isinstance(stmt, ir.BreakIf):
            return [sw.If(stmt.test, [sw.Break()])], []
        if isinstance(stmt, ir.Check):  # runs where the function runs it; no derivative
            return [sw.Check(stmt)], []
        if isinstance(stmt, ir.Push):
            return self.append_to_list(stmt, scope)
        if isinstance(stmt, ir.Pop):
            return self.pop_from_list(stmt, scope)
        if isinstance(stmt, (ir.Item, ir.Build, ir.SetItem, ir.Reduce, ir.Share, ir.Take,
                             ir.Join)):
            return self.container_statement(stmt, scope)
        raise TypeError(stmt)

    def saved_for_reverse(self, stmt, scope, names, forward, reverse):
        """``forward`` and ``reverse`` with the values of ``names`` the reverse reads
        brought back where the loop around may overwrite them: recomputed, or pushed
        before ``forward`` and popped before ``reverse``."""
        place = self.defuse.place(stmt)
        taped = [n for n in dict.fromkeys(names) if scope.taped(n, place)
                 and n not in scope.in_place]
        saved = [n for n in taped if self.recomputed(n, stmt, stmt, scope, ()) is None]
        before = []
        if saved:
            push, pop = self.stack_names()
            forward = [sw.Push(push, ex.Name(n)) for n in saved] + forward
            before = [sw.Pop(n, pop) for n in reversed(saved)]
        before += [sw.Let(n, self.recomputed(n, stmt, stmt, scope, saved))
                   for n in taped if n not in saved]
        return forward, before + reverse

    def no_gradient(self, name):
        """The gradient of a parameter no derivative reaches: zeros of its structure."""
        kind = self.program.containers.get(name)
        if kind is None:
            return ex.Const(0.0)
        return spelled_out(structured(kind, zeros(kind, ex.Name(name))))

    # --- one operation -------------------------------------------------------------------

    def operation(self, stmt, scope):
        overwrites = scope.in_loop or stmt.target in self.defined
        self.defined.add(stmt.target)
        rule = self.program.rule_of(stmt)
        forward = [sw.Let(stmt.target, self.forward_expression(stmt))]
        if stmt.target not in self.active:
            return self.restoring(stmt, scope, forward, [])
        builders = {}  # argument name -> its builder (several arguments, one: merged)
        for arg, builder in zip(stmt.args, rule.vjps):
            if builder is not None and isinstance(arg, ir.Var) and arg.name in self.active:
                known = builders.get(arg.name)
                builders[arg.name] = builder if known is None else merged(known, builder)
        if not builders:  # a constant overwrites an active name: its old adjoint is done
            reset = [sw.Let(self.adjoint(stmt.target), sw.ZERO)] if overwrites else []
            return self.restoring(stmt, scope, forward, reset)
        g = self.adjoint(stmt.target)
        build = _Building(ex.Name(g), self.operands(stmt), ex.Name(stmt.target),
                          self.names_for(stmt))
        terms = [(name, build(builder)) for name, builder in builders.items()]
        reads = [n for _, term in terms for n in breadth_first_names(term)]
        operands = [a.name for a in stmt.args if isinstance(a, ir.Var)] + [stmt.target]
        place = self.defuse.place(stmt)
        taped = [n for n in dict.fromkeys(reads) if n in operands and scope.taped(n, place)
                 and n not in scope.in_place]
        before = [n for n in taped if n != stmt.target]
        after = [n for n in taped if n == stmt.target]
        saved = [n for n in before if self.recomputed(n, stmt, stmt, scope, ()) is None]
        reverse = []
        if saved or after:
            push, pop = self.stack_names()
            forward = [sw.Push(push, ex.Name(n)) for n in saved] + forward + [
                sw.Push(push, ex.Name(n)) for n in after]
            reverse = [sw.Pop(n, pop) for n in reversed(saved + after)]
        reverse += [sw.Let(n, self.recomputed(n, stmt, stmt, scope, saved))
                    for n in before if n not in saved]
        if self.record:
            for i, (arg, builder) in enumerate(zip(stmt.args, rule.vjps)):
                if builder is not None and isinstance(arg, ir.Var) and arg.name in builders:
                    reverse.append(sw.Do(ex.Call(ex.Name(self.record), (
                        ex.Const(stmt.sid), ex.Const(i), build(builder)))))
        for name, term in terms:
            if name != stmt.target:
                reverse.append(accumulate(self.adjoint(name), term))
        if stmt.target in builders:  # ``s = s * t``: the new adjoint of ``s``, scaled
            term = dict(terms)[stmt.target]
            if unit(term)[1] != 1:
                reverse.append(sw.Let(g, term))
        elif overwrites:
            reverse.append(sw.Let(g, sw.ZERO))  # the old value's adjoint starts anew
        return self.restoring(stmt, scope, forward, reverse)

    def decision(self, name, scope):
        """Save ``name`` for the reverse sweep when the enclosing loop overwrites it."""
        if not scope.in_loop:
            return [], []
        push, pop = self.stack_names()
        return [sw.Push(push, ex.Name(name))], [sw.Pop(name, pop)]

    def as_float(self, node):
        return node if isinstance(node, ex.Const) else ex.Call(ex.Name(self.builtin("float")),
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


def function_of(name, program, body, extra=()):
    """The ``Function`` named ``name`` with ``program``'s parameters (then ``extra``
    ones, which drop the defaults) and ``body``."""
    defaults = () if extra else tuple(operand(ir.Const(d)) for d in program.defaults)
    return sw.Function(name, tuple(program.params) + tuple(extra), defaults, program.kwargs,
                       body)
