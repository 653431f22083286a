"""Differentiate: a normalized ``Program`` -> the syntax tree of ``grad_f``.

Expects a ``Program`` from ``normalize``.  Guarantees a function definition
that runs the user's computation once (the forward sweep) and then the chain
rule backwards (the reverse sweep), with the derivatives taken from ``rules``
and nowhere else.  Only active names (``activity``) get adjoints.

Straight-line values are never overwritten (``normalize`` renames them), so the
reverse sweep reads them directly.  Inside a loop or branch, a value a partial
needs that the same loop or branch may overwrite comes back one of three ways
(``taping`` chooses): pushed on a stack just before the statement and popped just
before its reverse; restored in place (every assignment in the loop pushes the
value it overwrites, and its reverse pops it back); or, for one cheap operation
on values still at hand, recomputed.  Each ``if`` inside a loop pushes its
decision, and each loop its trip count.  The reverse of a loop is a loop.

    def f(x):                 def grad_f(x):
        y = math.sin(x)           y = math.sin(x)
        return y * x              result = y * x
                                  dresult = 1.0
                                  dy = dresult * x
                                  dx = dresult * y
                                  dx += dy * math.cos(x)
                                  return dx
"""

import ast
from dataclasses import dataclass, field

from symdiff.ad.taping import Scope, Taping
from symdiff.ad.writer import Writer
from symdiff.analysis.activity import active_names
from symdiff.backend.syntax import (
    assign,
    attr,
    call,
    call_method,
    call_stmt,
    clone,
    comment,
    function_def,
    increment,
    is_minus_one,
    is_one,
    load,
    negate,
    operand_node,
    store,
    times,
)
from symdiff.ir import nodes as ir

SECTION = "reverse sweep"  # the heading comment of the second half


@dataclass
class Generated:
    function: ast.FunctionDef
    math_name: str
    namespace: dict
    adjoints: dict = field(default_factory=dict)  # name -> adjoint name
    record_name: str = None
    builtins: dict = field(default_factory=dict)  # alias -> builtin, where a user name shadows it
    helpers: dict = field(default_factory=dict)  # helper (``special``) -> the name it is defined by


def differentiate(program, wrt, *, with_value=False, as_tuple=None, record=False,
                  defuse=None):
    """The syntax tree of the gradient function of ``program`` w.r.t. the names ``wrt``.

    The function returns one number for one name, else a tuple (``as_tuple``
    forces either); with ``with_value`` it returns ``(value, gradient)``.  With
    ``record``, the reverse sweep also calls ``record(statement, argument,
    contribution)`` for every term of the chain rule (``Generated.record_name``
    says what to bind ``record`` to), for ``check`` to compare against the tape; a
    statement is named by its position in source order.  ``defuse`` is the program's
    ``DefUse``, built here when not given.
    """
    if as_tuple is None:
        as_tuple = len(wrt) != 1
    return Sweeps(program, wrt, record, defuse).build(with_value, as_tuple)


class Sweeps(Taping, Writer):
    def __init__(self, program, wrt, record=False, defuse=None):
        super().__init__(program, defuse)
        self.local_adjoints = set()  # adjoints that live one iteration of a reverse loop
        self.wrt = list(wrt)
        self.active = active_names(program, self.wrt, self.defuse)
        self.adjoints = {}
        self.adjoint_stacks = {}  # a user stack -> the stack of its values' adjoints
        self.defined = set(program.params)  # names assigned on the path generated so far
        self.stack_used = False
        self.push = self.pop = None
        self.record = self.namer.fresh("record") if record else None

    # --- names --------------------------------------------------------------------------

    def adjoint(self, name):
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
        if with_value:
            value_name = self.namer.fresh("value")
            value = operand_node(result, program)
            if any(getattr(s, "call", None) for s in ir.walk(program.body)):
                value = self.as_float(value)
            body.append(assign(value_name, value))
        reverse = []
        if isinstance(result, ir.Var) and result.name in self.active:
            reverse.append(assign(self.adjoint(result.name), ast.Constant(1.0)))
            reverse += self.flatten(rev)
        initialized = _initialize_adjoints(reverse, set(self.adjoints.values()),
                                           self.local_adjoints)
        grads = [load(self.adjoints[p]) if self.adjoints.get(p) in initialized
                 else ast.Constant(0.0) for p in self.wrt]
        if any(getattr(s, "call", None) for s in ir.walk(program.body)):
            grads = [self.as_float(g) for g in grads]  # numpy's scalars become plain floats
        grad = ast.Tuple(grads, ast.Load()) if as_tuple else grads[0]
        if with_value:
            grad = ast.Tuple([load(value_name), grad], ast.Load())
        prologue = []
        if self.stack_used:
            prologue = [assign(self.stack_name, ast.List([], ast.Load())),
                        ast.Assign([ast.Tuple([store(self.push), store(self.pop)], ast.Store())],
                                   ast.Tuple([attr(self.stack_name, "append"),
                                              attr(self.stack_name, "pop")], ast.Load()))]
        for stack in self.adjoint_stacks.values():
            reverse.insert(1, assign(stack, ast.List([], ast.Load())))
        if reverse:
            reverse.insert(0, comment(f"{SECTION}: adjoints, from the result back"))
        statements = none_guards(program, self.wrt) + prologue + body + reverse + [
            ast.Return(grad)]
        name = self.namer.fresh(f"grad_{program.name}")
        function = function_def(name, _arguments(program), statements)
        return Generated(function, program.math_name, program.namespace, dict(self.adjoints),
                         self.record, {alias: b for b, alias in self.builtins.items()},
                         dict(self.helpers))

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
            reset = [assign(self.adjoint(stmt.target), ast.Constant(0.0))] if (
                stmt.target in self.active and overwrites) else []
            return self.restoring(stmt, scope, [assign(stmt.target, stmt.expr)], reset)
        if isinstance(stmt, ir.If):
            return self.branch(stmt, scope)
        if isinstance(stmt, ir.For):
            return self.for_loop(stmt, scope)
        if isinstance(stmt, ir.While):
            return self.while_loop(stmt, scope)
        if isinstance(stmt, ir.BreakIf):
            return [ast.If(stmt.test, [ast.Break()], [])], []
        if isinstance(stmt, ir.Check):  # runs where the function runs it; no derivative
            return [clone(stmt.stmt)], []
        if isinstance(stmt, (ir.Push, ir.Pop)):
            return self.stack_operation(stmt, scope)
        raise TypeError(stmt)

    def stack_operation(self, stmt, scope):
        """A user stack moves values; its adjoint stack moves their adjoints back.

        Every push and pop of an active stack has its mirror on the adjoint stack,
        zeros included, so the two stay in step.
        """
        if isinstance(stmt, ir.Push):
            forward = [ast.Expr(call_method(stmt.stack, "append",
                                            operand_node(stmt.value, self.program)))]
        else:
            overwrites = scope.in_loop or stmt.target in self.defined
            self.defined.add(stmt.target)
            forward = [assign(stmt.target, call_method(stmt.stack, "pop"))]
        if stmt.stack not in self.active:
            return self.restoring(stmt, scope, forward, [])
        adjoints = self.adjoint_stack(stmt.stack)
        if isinstance(stmt, ir.Pop):
            value = load(self.adjoint(stmt.target)) if stmt.target in self.active else (
                ast.Constant(0.0))
            reverse = [ast.Expr(call_method(adjoints, "append", value))]
            if stmt.target in self.active and overwrites:
                reverse.append(assign(self.adjoint(stmt.target), ast.Constant(0.0)))
            return self.restoring(stmt, scope, forward, reverse)
        popped = call_method(adjoints, "pop")
        value = stmt.value
        if isinstance(value, ir.Var) and value.name in self.active:
            return forward, [ast.AugAssign(store(self.adjoint(value.name)), ast.Add(), popped)]
        return forward, [ast.Expr(popped)]

    def adjoint_stack(self, stack):
        if stack not in self.adjoint_stacks:
            self.adjoint_stacks[stack] = self.namer.fresh(f"d{stack}")
        return self.adjoint_stacks[stack]

    # --- one operation -------------------------------------------------------------------

    def operation(self, stmt, scope):
        overwrites = scope.in_loop or stmt.target in self.defined
        self.defined.add(stmt.target)
        rule = self.program.rule_of(stmt)
        forward = [assign(stmt.target, self.forward_expression(stmt))]
        if stmt.target not in self.active:
            return self.restoring(stmt, scope, forward, [])
        terms = []  # (argument name, partial expression)
        for arg, partial in zip(stmt.args, rule.partials):
            if partial is not None and isinstance(arg, ir.Var) and arg.name in self.active:
                terms.append((arg.name, self.substitute(partial, stmt)))
        if not terms:  # a constant overwrites an active name: its old adjoint is done
            reset = [assign(self.adjoint(stmt.target), ast.Constant(0.0))] if overwrites else []
            return self.restoring(stmt, scope, forward, reset)
        terms = _merge_terms(terms)
        reads = [n.id for _, p in terms for n in ast.walk(p) if isinstance(n, ast.Name)]
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
            forward = [call_stmt(push, n) for n in saved] + forward + [
                call_stmt(push, n) for n in after]
            reverse = [assign(n, call(pop)) for n in reversed(saved + after)]
        reverse += [assign(n, self.recomputed(n, stmt, stmt, scope, saved))
                    for n in before if n not in saved]
        g = self.adjoint(stmt.target)
        if self.record:
            sid = self.defuse.position(stmt)
            for i, (arg, partial) in enumerate(zip(stmt.args, rule.partials)):
                term = [p for name, p in terms if isinstance(arg, ir.Var) and name == arg.name]
                if partial is not None and term:
                    reverse.append(ast.Expr(call(self.record, ast.Constant(sid), ast.Constant(i),
                                                  times(load(g), self.substitute(partial, stmt)))))
        self_terms = [p for name, p in terms if name == stmt.target]
        for name, partial in terms:
            if name != stmt.target:
                reverse.append(_accumulate(self.adjoint(name), g, partial))
        if self_terms:
            factor = self_terms[0]
            for extra in self_terms[1:]:
                factor = ast.BinOp(factor, ast.Add(), extra)
            if not is_one(factor):
                reverse.append(assign(g, times(load(g), factor)))
        elif overwrites:
            reverse.append(assign(g, ast.Constant(0.0)))  # the old value's adjoint starts anew
        return self.restoring(stmt, scope, forward, reverse)

    def decision(self, name, scope):
        """Save ``name`` for the reverse sweep when the enclosing loop overwrites it."""
        if not scope.in_loop:
            return [], []
        push, pop = self.stack_names()
        return [call_stmt(push, name)], [assign(name, call(pop))]

    def branch(self, stmt, scope):
        inner = scope.enter(stmt, self.defuse)
        before = set(self.defined)
        fb, rb = self.block(stmt.body, inner)
        after_body, self.defined = self.defined, before
        fe, re = self.block(stmt.orelse, inner)
        self.defined |= after_body
        forward = [branch_statement(stmt.test, self.flatten(fb, stmt.origin),
                                    self.flatten(fe, stmt.origin))]
        if not (rb or re):
            return forward, []
        saved, restored = (self.decision(stmt.test, scope)
                           if scope.taped(stmt.test, self.defuse.place(stmt)) else ([], []))
        if rb:
            back = ast.If(load(stmt.test), self.flatten(rb, stmt.origin),
                          self.flatten(re, stmt.origin))
        else:
            back = ast.If(ast.UnaryOp(ast.Not(), load(stmt.test)), self.flatten(re, stmt.origin),
                          [])
        return forward + saved, restored + [back]

    def for_loop(self, stmt, scope):
        breaks = bool(stmt.body) and isinstance(stmt.body[-1], ir.BreakIf)
        rewritten = stmt.target in ir.assigned_names(stmt.body)
        regenerate = not breaks and not rewritten
        inner = scope.enter(stmt, self.defuse,
                            exempt=[stmt.target] if regenerate else [],
                            in_place=self.restorable(stmt, scope))
        fb, rb = self.block(stmt.body, inner)
        if rb and stmt.target in self.active:  # each iteration starts a new loop variable
            rb.append((stmt.origin, [assign(self.adjoint(stmt.target), ast.Constant(0.0))]))
        steps = call(self.builtin("range"), *[operand_node(b, self.program) for b in stmt.bounds])
        body = self.flatten(fb, stmt.origin) or [ast.Pass()]
        if not rb:
            return [ast.For(store(stmt.target), self.ordered(steps, stmt), body, [], None)], []
        if regenerate:
            stable = not scope.in_loop and not any(
                isinstance(b, ir.Var) and b.name in inner.loop_assigned for b in stmt.bounds)
            forward, saved, restored = [], [], []
            if not stable:  # keep the bounds the loop ran with, for the reverse loop
                bounds = []
                for i, bound in enumerate(stmt.bounds):
                    if isinstance(bound, ir.Var):
                        name = self.namer.fresh(f"{stmt.target}_{_BOUND_NAMES[len(stmt.bounds)][i]}")
                        forward.append(assign(name, load(bound.name)))
                        more_saved, more_restored = self.decision(name, scope)
                        saved, restored = saved + more_saved, more_restored + restored
                        bound = ir.Var(name)
                    bounds.append(operand_node(bound, self.program))
                steps = call(self.builtin("range"), *bounds)
            forward.append(ast.For(store(stmt.target), self.ordered(steps, stmt), body, [], None))
            back_steps = steps if stmt.reverse else call(self.builtin("reversed"), steps)
            back = ast.For(store(stmt.target), back_steps, self.reverse_body(rb, stmt), [],
                           None)
            return self.unset(stmt, scope, inner) + forward + saved, restored + [back]
        counter = self.namer.fresh(f"{stmt.target}_trips")
        loop = ast.For(store(stmt.target), self.ordered(steps, stmt), [increment(counter)] + body,
                       [], None)
        forward, reverse = self.counted(counter, loop, rb, scope, stmt)
        return self.unset(stmt, scope, inner) + forward, reverse

    def as_float(self, node):
        return node if isinstance(node, ast.Constant) else call(self.builtin("float"), node)

    def ordered(self, steps, stmt):
        """The loop's own order: ``reversed(steps)`` for a loop written that way."""
        return call(self.builtin("reversed"), steps) if stmt.reverse else steps

    def while_loop(self, stmt, scope):
        inner = scope.enter(stmt, self.defuse, in_place=self.restorable(stmt, scope))
        fb, rb = self.block(stmt.body, inner)
        fp, _ = self.block(stmt.pre, inner)
        body = self.flatten(fb, stmt.origin) or [ast.Pass()]
        counter = self.namer.fresh("trips") if rb else None
        if counter:
            body.insert(0, increment(counter))
        if stmt.pre:
            body = self.flatten(fp, stmt.origin) + [ast.If(ast.UnaryOp(ast.Not(), stmt.test), [ast.Break()],
                                          [])] + body
            loop = ast.While(ast.Constant(True), body, [])
        else:
            loop = ast.While(stmt.test, body, [])
        if not rb:
            return [loop], []
        forward, reverse = self.counted(counter, loop, rb, scope, stmt)
        return self.unset(stmt, scope, inner) + forward, reverse

    def counted(self, counter, loop, reverse_body, scope, stmt):
        saved, restored = self.decision(counter, scope)
        each = self.namer.fresh("_")
        back = ast.For(store(each), call(self.builtin("range"), load(counter)),
                       self.reverse_body(reverse_body, stmt), [], None)
        return [assign(counter, ast.Constant(0)), loop] + saved, restored + [back]

    def reverse_body(self, chunks, loop):
        """The reverse of one iteration; adjoints of values that live one iteration start
        from their first contribution (``d = e``, not ``d += e``) and need no reset."""
        stmts = self.flatten(chunks, loop.origin)
        for name in self.iteration_locals(loop):
            adjoint = self.adjoints.get(name)
            touching = [i for i, s in enumerate(stmts) if _mentions(s, adjoint)]
            if adjoint is None or not touching:
                continue
            first = stmts[touching[0]]
            if isinstance(first, ast.AugAssign) and not _mentions(first.value, adjoint):
                value = first.value if isinstance(first.op, ast.Add) else negate(first.value)
                stmts[touching[0]] = assign(adjoint, value)
            else:  # its first contribution is conditional: start the iteration from zero
                stmts.insert(0, assign(adjoint, ast.Constant(0.0)))
                touching = [i + 1 for i in touching]
            last = stmts[touching[-1]]
            if len(touching) > 1 and isinstance(last, ast.Assign) and _is_zero(last.value):
                del stmts[touching[-1]]  # the next iteration starts afresh
            self.local_adjoints.add(adjoint)
        return stmts

    def iteration_locals(self, loop):
        """Names assigned once, at the top of the loop body, read only later in the same
        iteration: nothing carries them from one iteration to the next, or out."""
        du = self.defuse
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


_BOUND_NAMES = {1: ("stop",), 2: ("start", "stop"), 3: ("start", "stop", "step")}


def _merge_terms(terms):
    """One term per argument name: ``x * x`` gives ``dx += g * (x + x)``, not two updates."""
    merged = {}
    for name, partial in terms:
        merged[name] = partial if name not in merged else ast.BinOp(merged[name], ast.Add(),
                                                                     partial)
    return list(merged.items())


# --- adjoint initialization ------------------------------------------------------------

def _initialize_adjoints(reverse, adjoints, local=frozenset()):
    """Turn each adjoint's first top-level ``+=`` into ``=``; zero those a loop needs first
    (not the ``local`` ones, which each iteration sets itself).

    Walks the top level of the reverse sweep in execution order; returns the set
    of adjoints that hold a value at the end.
    """
    ready = set()
    out = []
    for stmt in reverse:
        if isinstance(stmt, ast.AugAssign) and stmt.target.id in adjoints:
            name = stmt.target.id
            if name not in ready:
                value = stmt.value if isinstance(stmt.op, ast.Add) else negate(stmt.value)
                stmt = assign(name, value)
                ready.add(name)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            ready.add(stmt.targets[0].id)
        elif isinstance(stmt, (ast.If, ast.For, ast.While)):
            used = [n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id in adjoints
                    and n.id not in local]
            for name in dict.fromkeys(used):
                if name not in ready:
                    out.append(assign(name, ast.Constant(0.0)))
                    ready.add(name)
        out.append(stmt)
    reverse[:] = out
    return ready


# --- small syntax builders ---------------------------------------------------------------

def _mentions(node, name):
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _is_zero(node):
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def _accumulate(target, g, partial):
    """``target += g * partial``, written the way a person would."""
    if is_one(partial):
        return ast.AugAssign(store(target), ast.Add(), load(g))
    if is_minus_one(partial):
        return ast.AugAssign(store(target), ast.Sub(), load(g))
    return ast.AugAssign(store(target), ast.Add(), times(load(g), partial))


def branch_statement(test, body, orelse):
    """``if test: body else: orelse``; ``if not test: orelse`` when ``body`` does nothing
    (a helper's early ``return`` leaves the rest of it in the ``else``)."""
    if not body and orelse:
        return ast.If(ast.UnaryOp(ast.Not(), load(test)), orelse, [])
    return ast.If(load(test), body or [ast.Pass()], orelse)


def none_guards(program, wrt):
    """``if scale is None: raise TypeError(...)`` for each parameter differentiated by that
    defaults to None: a None cannot carry a derivative."""
    guards = []
    for name in (p for p in wrt if p in program.optional):
        message = (f"{name} is None, so the gradient of {program.name} cannot be taken with "
                   f"respect to it: pass a number, or leave {name} out of wrt")
        guards.append(ast.If(ast.Compare(load(name), [ast.Is()], [ast.Constant(None)]),
                             [ast.Raise(call("TypeError", ast.Constant(message)), None)], []))
    return guards


def _arguments(program):
    kwarg = ast.arg(program.kwargs, None) if program.kwargs else None
    return ast.arguments(posonlyargs=[], args=[ast.arg(p, None) for p in program.params],
                         vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=kwarg,
                         defaults=[operand_node(ir.Const(d), program) for d in program.defaults])
