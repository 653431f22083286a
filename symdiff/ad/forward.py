"""Forward: a normalized ``Program`` -> ``jvp_f`` (forward mode), as IR (``ir.sweeps``).

Expects a ``Program`` from ``normalize`` (which may return a tuple of numbers).
Guarantees a function ``jvp_f(x, y, dx, dy)`` returning ``(value, tangent)``: the
user's computation with, after each active statement, the statement's tangent as
the sum of the rules' partials times the arguments' tangents.  The same rules
table as reverse mode; control flow is kept as written and needs no stack.  A list of
numbers the function builds has a list of tangents in step with it.

    def f(x, y):                   def jvp_f(x, y, dx, dy):
        z = x * y                      z = x * y
        return math.sin(z)             dz = dx * y + dy * x
                                       result = math.sin(z)
                                       dresult = dz * math.cos(z)
                                       return result, dresult
"""

import ast

from symdiff.ad.containers import place
from symdiff.ad.control import branch_statement
from symdiff.ad.reverse import Generated, function_of, none_guards
from symdiff.ad.writer import Writer, expression, let
from symdiff.analysis.activity import active_names
from symdiff.analysis.sweep_types import type_sweeps
from symdiff.backend.syntax import is_minus_one, is_one, load, operand_node, times
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.ir import types as t


def differentiate_forward(program, wrt, defuse=None):
    """The forward-mode function of ``program`` along ``wrt``'s tangents, as IR;
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
        body.append(sw.Return(expression(ast.Tuple([value, tangent], ast.Load()))))
        body[:0] = none_guards(program, self.wrt)
        name = self.namer.fresh(f"jvp_{program.name}")
        function = function_of(name, program, body, extra=[self.tangents[p] for p in self.wrt])
        return type_sweeps(Generated(
            function, program.math_name, program.namespace, dict(self.tangents), None,
            {alias: b for b, alias in self.builtins.items()}, dict(self.helpers)), program.types)

    def block(self, block):
        return [(stmt.origin, self.statement(stmt)) for stmt in block]

    def statement(self, stmt):
        if isinstance(stmt, ir.Assign):
            return self.operation(stmt)
        if isinstance(stmt, ir.Compute):
            value = expression(stmt.expr)
            made = [sw.Let(stmt.target, value)]
            if stmt.target in self.active:
                made.append(sw.Let(self.tangent(stmt.target), sw.ZERO))
            return made
        if isinstance(stmt, (ir.Build, ir.Push, ir.Pop, ir.Item, ir.SetItem)) and (
                self.built_here(stmt)) or (
                isinstance(stmt, ir.Reduce) and stmt.op in ("sum", "fsum") and not stmt.path
                and self.built_here(stmt)):
            return self.list_statement(stmt)
        if isinstance(stmt, ir.If):
            return [branch_statement(stmt.test, self.flatten(self.block(stmt.body), stmt.origin),
                                     self.flatten(self.block(stmt.orelse), stmt.origin))]
        if isinstance(stmt, ir.For):
            bounds = tuple(expression(operand_node(b, self.program)) for b in stmt.bounds)
            body = self.flatten(self.block(stmt.body), stmt.origin) or [sw.Pass()]
            if stmt.target in self.active:  # each iteration starts a new, constant loop variable
                body.insert(0, sw.Let(self.tangent(stmt.target), sw.ZERO))
            return [sw.For(stmt.target, bounds, body, stmt.reverse)]
        if isinstance(stmt, ir.While):
            body = self.flatten(self.block(stmt.body), stmt.origin) or [sw.Pass()]
            test = expression(stmt.test)
            if stmt.pre:
                body = self.flatten(self.block(stmt.pre), stmt.origin) + [
                    sw.If(ex.UnaryOp("not", test), [sw.Break()])] + body
                return [sw.While(ex.Const(True), body)]
            return [sw.While(test, body)]
        if isinstance(stmt, ir.BreakIf):
            return [sw.If(expression(stmt.test), [sw.Break()])]
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

    def built_here(self, stmt):
        """Whether ``stmt`` builds, appends to, pops, sums, reads or assigns a number of a
        flat list of numbers the function builds itself (not a parameter)."""
        name = stmt.target if isinstance(stmt, ir.Build) else getattr(
            stmt, "container", getattr(stmt, "stack", None))
        kind = self.program.containers.get(name)
        return (name not in self.program.params and isinstance(kind, t.List)
                and t.is_number(kind.elem) and not (isinstance(stmt, ir.Push) and (
                    stmt.value.name in self.program.containers if isinstance(
                        stmt.value, ir.Var) else False)))

    def list_statement(self, stmt):
        """A list's tangent is a list in step with it: ``dys = [da, 0.0]`` beside
        ``ys = [a, 2.0]``, ``dys.append(dv)`` beside ``ys.append(v)``, ``dv = dys.pop()``
        beside ``v = ys.pop()``, ``dy = dys[i]`` beside ``y = ys[i]``, ``dys[i] = dv``
        beside ``ys[i] = v``, ``dt = sum(dys)`` beside ``t = sum(ys)``."""
        if isinstance(stmt, ir.Build):
            value = ex.BinOp("*", ex.List((ex.of_operand(stmt.items[0]),)), ex.of_operand(
                stmt.repeat)) if stmt.repeat is not None else ex.List(tuple(
                    ex.of_operand(i) for i in stmt.items))
            made = [sw.Let(stmt.target, value)]
            if stmt.target in self.active:
                items = tuple(self.tangent_of(i) for i in stmt.items)
                made.append(sw.Let(self.tangent(stmt.target), ex.BinOp(
                    "*", ex.List(items), ex.of_operand(stmt.repeat)) if stmt.repeat is not None
                    else ex.List(items)))
            return made
        if isinstance(stmt, ir.Reduce):  # a sum's tangent is the sum of the tangents
            func = ex.Name(self.builtin("sum")) if stmt.op == "sum" else ex.Attribute(
                ex.Name(self.program.math_name), "fsum")
            start = () if stmt.start is None else (ex.of_operand(stmt.start),)
            made = [sw.Let(stmt.target, ex.Call(func, (ex.Name(stmt.container),) + start))]
            if stmt.target in self.active:
                tangent = ex.Call(func, (ex.Name(self.tangent(stmt.container)),)) if (
                    stmt.container in self.active) else sw.ZERO
                if stmt.start is not None and self.tangent_of(stmt.start) != sw.ZERO:
                    tangent = ex.BinOp("+", tangent, self.tangent_of(stmt.start))
                made.append(sw.Let(self.tangent(stmt.target), tangent))
            return made
        if isinstance(stmt, ir.SetItem):
            made = [sw.Let(place(stmt.container, stmt.path), ex.of_operand(stmt.value))]
            if stmt.container in self.active:
                made.append(sw.Let(place(self.tangent(stmt.container), stmt.path),
                                   self.tangent_of(stmt.value)))
            return made
        if isinstance(stmt, ir.Item):
            made = [sw.Let(stmt.target, place(stmt.container, stmt.path))]
            if stmt.target in self.active:
                made.append(sw.Let(self.tangent(stmt.target), place(
                    self.tangent(stmt.container), stmt.path) if stmt.container in self.active
                    else sw.ZERO))
            return made
        if isinstance(stmt, ir.Push):
            made = [sw.Push(stmt.stack, ex.of_operand(stmt.value), method=True)]
            if stmt.stack in self.active:
                made.append(sw.Push(self.tangent(stmt.stack), self.tangent_of(stmt.value),
                                    method=True))
            return made
        if stmt.index is not None:  # ``ys.pop(i)`` beside ``dys.pop(i)``
            index = (ex.of_operand(stmt.index),)
            made = [sw.Let(stmt.target, ex.Call(ex.Attribute(ex.Name(stmt.stack), "pop"),
                                                index))]
            if stmt.stack in self.active:
                popped = ex.Call(ex.Attribute(ex.Name(self.tangent(stmt.stack)), "pop"), index)
                made.append(sw.Let(self.tangent(stmt.target), popped) if stmt.target in
                            self.active else sw.Do(popped))
        else:
            made = [sw.Pop(stmt.target, stmt.stack, method=True)]
        if stmt.index is None and stmt.stack in self.active:
            made.append(sw.Pop(self.tangent(stmt.target) if stmt.target in self.active
                               else None, self.tangent(stmt.stack), method=True))
        elif stmt.stack not in self.active and stmt.target in self.active:
            # active where it is assigned again: zero here
            made.append(sw.Let(self.tangent(stmt.target), sw.ZERO))
        return made

    def tangent_of(self, operand):
        """The tangent of an operand: its name's, or zero for a constant or an inactive
        name."""
        if isinstance(operand, ir.Var) and operand.name in self.active:
            return ex.Name(self.tangent(operand.name))
        return sw.ZERO

    def operation(self, stmt):
        rule = self.program.rule_of(stmt)
        forward = let(stmt.target, self.forward_expression(stmt))
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
        tangent = let(self.tangent(stmt.target), total)
        if stmt.target in [a.name for a in stmt.args if isinstance(a, ir.Var)]:
            # ``s = s + t``: the tangent reads the old ``s``'s tangent, so it comes first,
            # and the partials here (of add and sub) read no value
            return [tangent, forward]
        return [forward, tangent]
