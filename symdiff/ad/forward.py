"""Forward: a normalized ``Program`` -> the syntax tree of ``jvp_f`` (forward mode).

Expects a ``Program`` from ``normalize`` (which may return a tuple of numbers).
Guarantees a function ``jvp_f(x, y, dx, dy)`` returning ``(value, tangent)``: the
user's computation with, after each active statement, the statement's tangent as
the sum of the rules' partials times the arguments' tangents.  The same rules
table as reverse mode; control flow is kept as written and needs no stack.

    def f(x, y):                   def jvp_f(x, y, dx, dy):
        z = x * y                      z = x * y
        return math.sin(z)             dz = dx * y + dy * x
                                       result = math.sin(z)
                                       dresult = dz * math.cos(z)
                                       return result, dresult
"""

import ast

from symdiff.ad.reverse import Generated, _arguments, branch_statement, none_guards
from symdiff.ad.writer import Writer
from symdiff.analysis.activity import active_names
from symdiff.backend.syntax import (
    assign,
    call,
    call_method,
    clone,
    function_def,
    is_minus_one,
    is_one,
    load,
    operand_node,
    times,
)
from symdiff.ir import nodes as ir


def differentiate_forward(program, wrt, defuse=None):
    """The syntax tree of the forward-mode function of ``program`` along ``wrt``'s tangents;
    ``defuse`` is the program's ``DefUse``, built here when not given."""
    return Tangents(program, wrt, defuse).build()


class Tangents(Writer):
    def __init__(self, program, wrt, defuse=None):
        super().__init__(program, defuse)
        self.wrt = list(wrt)
        self.active = active_names(program, self.wrt, self.defuse)
        self.tangents = {}
        for param in self.wrt:
            self.tangent(param)

    def tangent(self, name):
        if name not in self.tangents:
            self.tangents[name] = self.namer.fresh(f"d{name}")
        return self.tangents[name]

    def build(self):
        program = self.program
        body = self.flatten(self.block(program.body))
        results = program.result if isinstance(program.result, tuple) else (program.result,)
        values = [operand_node(r, program) for r in results]
        tangents = [load(self.tangents[r.name]) if isinstance(r, ir.Var) and r.name in self.active
                    else ast.Constant(0.0) for r in results]
        if isinstance(program.result, tuple):
            value, tangent = ast.Tuple(values, ast.Load()), ast.Tuple(tangents, ast.Load())
        else:
            value, tangent = values[0], tangents[0]
        body.append(ast.Return(ast.Tuple([value, tangent], ast.Load())))
        body[:0] = none_guards(program, self.wrt)
        arguments = _arguments(program)
        arguments.args += [ast.arg(self.tangents[p], None) for p in self.wrt]
        arguments.defaults = []
        name = self.namer.fresh(f"jvp_{program.name}")
        function = function_def(name, arguments, body)
        return Generated(function, program.math_name, program.namespace, dict(self.tangents),
                         None, {alias: b for b, alias in self.builtins.items()},
                         dict(self.helpers))

    def block(self, block):
        return [(stmt.origin, self.statement(stmt)) for stmt in block]

    def statement(self, stmt):
        if isinstance(stmt, ir.Assign):
            return self.operation(stmt)
        if isinstance(stmt, ir.Compute):
            made = [assign(stmt.target, stmt.expr)]
            if stmt.target in self.active and not isinstance(stmt.expr, ast.List):
                made.append(assign(self.tangent(stmt.target), ast.Constant(0.0)))
            if isinstance(stmt.expr, ast.List) and stmt.target in self.active:  # a new stack
                made.append(assign(self.tangent(stmt.target), ast.List([], ast.Load())))
            return made
        if isinstance(stmt, (ir.Push, ir.Pop)):
            return self.stack_operation(stmt)
        if isinstance(stmt, ir.If):
            return [branch_statement(stmt.test, self.flatten(self.block(stmt.body), stmt.origin),
                                     self.flatten(self.block(stmt.orelse), stmt.origin))]
        if isinstance(stmt, ir.For):
            steps = call(self.builtin("range"),
                         *[operand_node(b, self.program) for b in stmt.bounds])
            if stmt.reverse:
                steps = call(self.builtin("reversed"), steps)
            body = self.flatten(self.block(stmt.body), stmt.origin) or [ast.Pass()]
            if stmt.target in self.active:  # each iteration starts a new, constant loop variable
                body.insert(0, assign(self.tangent(stmt.target), ast.Constant(0.0)))
            return [ast.For(ast.Name(stmt.target, ast.Store()), steps, body, [], None)]
        if isinstance(stmt, ir.While):
            body = self.flatten(self.block(stmt.body), stmt.origin) or [ast.Pass()]
            if stmt.pre:
                body = self.flatten(self.block(stmt.pre), stmt.origin) + [ast.If(
                    ast.UnaryOp(ast.Not(), stmt.test), [ast.Break()], [])] + body
                return [ast.While(ast.Constant(True), body, [])]
            return [ast.While(stmt.test, body, [])]
        if isinstance(stmt, ir.BreakIf):
            return [ast.If(stmt.test, [ast.Break()], [])]
        if isinstance(stmt, ir.Check):  # runs where the function runs it; no tangent
            return [clone(stmt.stmt)]
        raise TypeError(stmt)

    def stack_operation(self, stmt):
        """A stack's tangents travel on a stack of their own, in step with the values."""
        if isinstance(stmt, ir.Push):
            made = [ast.Expr(call_method(stmt.stack, "append",
                                         operand_node(stmt.value, self.program)))]
            if stmt.stack in self.active:
                value = stmt.value
                tangent = load(self.tangent(value.name)) if isinstance(value, ir.Var) and (
                    value.name in self.active) else ast.Constant(0.0)
                made.append(ast.Expr(call_method(self.tangent(stmt.stack), "append", tangent)))
            return made
        made = [assign(stmt.target, call_method(stmt.stack, "pop"))]
        if stmt.stack in self.active:
            popped = call_method(self.tangent(stmt.stack), "pop")
            made.append(assign(self.tangent(stmt.target), popped) if stmt.target in self.active
                        else ast.Expr(popped))
        return made

    def operation(self, stmt):
        rule = self.program.rule_of(stmt)
        forward = assign(stmt.target, self.forward_expression(stmt))
        if stmt.target not in self.active:
            return [forward]
        total = None
        for arg, partial in zip(stmt.args, rule.partials):
            if partial is None or not isinstance(arg, ir.Var) or arg.name not in self.active:
                continue
            term = self.substitute(partial, stmt)
            tangent = load(self.tangent(arg.name))
            if is_one(term):
                term, op = tangent, ast.Add()
            elif is_minus_one(term):
                term, op = tangent, ast.Sub()
            else:
                term, op = times(tangent, term), ast.Add()
            if total is None:
                total = term if isinstance(op, ast.Add) else ast.UnaryOp(ast.USub(), term)
            else:
                total = ast.BinOp(total, op, term)
        total = total if total is not None else ast.Constant(0.0)
        tangent = assign(self.tangent(stmt.target), total)
        if stmt.target in [a.name for a in stmt.args if isinstance(a, ir.Var)]:
            # ``s = s + t``: the tangent reads the old ``s``'s tangent, so it comes first,
            # and the partials here (of add and sub) read no value
            return [tangent, forward]
        return [forward, tangent]
