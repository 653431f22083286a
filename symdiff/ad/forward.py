"""Forward: a normalized ``Program`` -> ``jvp_f`` (forward mode), as IR (``ir.sweeps``).

Expects a ``Program`` from ``normalize`` (which may return a tuple of numbers).
Guarantees a function ``jvp_f(x, y, dx, dy)`` returning ``(value, tangent)``: the
user's computation with, after each active statement, the statement's tangent as
the sum of its record's JVP builders on the arguments' tangents (an elementwise one's:
the partial times the tangent).  The same records as reverse mode; control flow is kept as written and needs no stack.  A list of
numbers the function builds has a list of tangents in step with it.

    def f(x, y):                   def jvp_f(x, y, dx, dy):
        z = x * y                      z = x * y
        return math.sin(z)             dz = dx * y + dy * x
                                       result = math.sin(z)
                                       dresult = dz * math.cos(z)
                                       return result, dresult
"""

from symdiff.ad.containers import container_operands, place
from symdiff.ad.control import branch_statement
from symdiff.ad.reverse import Generated, function_of, none_guards
from symdiff.ad.writer import Names, flatten, forward_expression, names_for, operand, operands
from symdiff.analysis.defuse import DefUse
from symdiff.analysis.activity import active_names
from symdiff.primitives.containers import At
from symdiff.primitives.derivatives import unit
from symdiff.primitives.registry import operation_of
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.ir import types as t


def differentiate_forward(program, wrt, defuse=None):
    """The forward-mode function of ``program`` along ``wrt``'s tangents, as IR;
    ``defuse`` is the program's ``DefUse``, built here when not given."""
    return Tangents(program, wrt, defuse).build()


class Tangents:
    def __init__(self, program, wrt, defuse=None):
        self.program = program
        self.defuse = defuse if defuse is not None else DefUse(program)
        self.names = Names(program, self.defuse)
        self.wrt = list(wrt)
        self.active = active_names(program, self.wrt, self.defuse)
        self.tangents = {}
        for param in self.wrt:
            self.tangent(param)

    def tangent(self, name):
        if name not in self.tangents:
            self.tangents[name] = self.names.fresh(f"d{name}")
        return self.tangents[name]

    def build(self):
        program = self.program
        body = flatten(self.program, self.block(program.body))
        results = program.result if isinstance(program.result, tuple) else (program.result,)
        values = tuple(operand(r) for r in results)
        tangents = tuple(ex.Name(self.tangents[r.name]) if isinstance(r, ir.Var)
                         and r.name in self.active else ex.Const(0.0) for r in results)
        if isinstance(program.result, tuple):
            value, tangent = ex.Tuple(values), ex.Tuple(tangents)
        else:
            value, tangent = values[0], tangents[0]
        body.append(sw.Return(ex.Tuple((value, tangent))))
        body[:0] = none_guards(program, self.wrt)
        name = self.names.fresh(f"jvp_{program.name}")
        function = function_of(name, program, body, extra=[self.tangents[p] for p in self.wrt])
        return Generated(function, program.math_name, program.namespace, dict(self.tangents),
                         None, {alias: b for b, alias in self.names.builtins.items()},
                         dict(self.names.helpers))

    def block(self, block):
        return [(stmt.origin, self.statement(stmt)) for stmt in block]

    def statement(self, stmt):
        if isinstance(stmt, ir.Assign):
            return self.operation(stmt)
        if isinstance(stmt, ir.Compute):
            made = [sw.Let(stmt.target, stmt.expr)]
            if stmt.target in self.active:
                made.append(sw.Let(self.tangent(stmt.target), sw.ZERO))
            return made
        if isinstance(stmt, (ir.Build, ir.Push, ir.Pop, ir.Item, ir.SetItem)) and (
                self.built_here(stmt)) or (
                isinstance(stmt, ir.Reduce) and operation_of(stmt).jvp is not None
                and not stmt.path and self.built_here(stmt)):
            return self.list_statement(stmt)
        if isinstance(stmt, ir.If):
            return [branch_statement(stmt.test, flatten(self.program, self.block(stmt.body), stmt.origin),
                                     flatten(self.program, self.block(stmt.orelse), stmt.origin))]
        if isinstance(stmt, ir.For):
            bounds = tuple(operand(b) for b in stmt.bounds)
            body = flatten(self.program, self.block(stmt.body), stmt.origin) or [sw.Pass()]
            if stmt.target in self.active:  # each iteration starts a new, constant loop variable
                body.insert(0, sw.Let(self.tangent(stmt.target), sw.ZERO))
            return [sw.For(stmt.target, bounds, body, stmt.reverse)]
        if isinstance(stmt, ir.While):
            body = flatten(self.program, self.block(stmt.body), stmt.origin) or [sw.Pass()]
            test = stmt.test
            if stmt.pre:
                body = flatten(self.program, self.block(stmt.pre), stmt.origin) + [
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
                made.append(sw.Let(self.tangent(stmt.target), self.built_tangent(stmt)))
            return made
        if isinstance(stmt, ir.Reduce):  # a sum's tangent is the sum of the tangents
            func = ex.Name(self.names.builtin("sum")) if stmt.op == "sum" else ex.Attribute(
                ex.Name(self.program.math_name), "fsum")
            start = () if stmt.start is None else (ex.of_operand(stmt.start),)
            made = [sw.Let(stmt.target, ex.Call(func, (ex.Name(stmt.container),) + start))]
            if stmt.target in self.active:
                made.append(sw.Let(self.tangent(stmt.target), self.container_tangent(
                    stmt, (stmt.container, getattr(stmt.start, "name", None)))))
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
                made.append(sw.Let(self.tangent(stmt.target), self.container_tangent(
                    stmt, (stmt.container,) + (None,) * len(stmt.path))))
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

    def built_tangent(self, stmt):
        """The tangent of a flat list built (``Build``): its record's JVP for each number
        (a constant's, or an inactive name's, is zero): a number at its place, written
        out, or the tangent of ``[a] * n`` as it is."""
        args, names = container_operands(stmt), names_for(self.program, self.names, stmt)
        values = [jvp(self.tangent_of(item), args, ex.Name(stmt.target), names)
                  for item, jvp in zip(stmt.items, operation_of(stmt).jvp)]
        if all(isinstance(v, At) for v in values):
            placed = dict((v.path, v.value) for v in values)
            return ex.List(tuple(placed[(ex.Const(i),)] for i in range(len(values))))
        return values[0]

    def container_tangent(self, stmt, names):
        """The tangent of a container statement with a record (``registry.operation_of``):
        the sum of its JVP builders' values for its operands whose ``names`` are active
        (None: a constant), or zero."""
        total = None
        args, out = container_operands(stmt), ex.Name(stmt.target)
        for name, builder in zip(names, operation_of(stmt).jvp):
            if builder is None or name not in self.active:
                continue
            term = builder(ex.Name(self.tangent(name)), args, out, names_for(self.program, self.names, stmt))
            total = term if total is None else ex.BinOp("+", total, term)
        return total if total is not None else sw.ZERO

    def tangent_of(self, operand):
        """The tangent of an operand: its name's, or zero for a constant or an inactive
        name."""
        if isinstance(operand, ir.Var) and operand.name in self.active:
            return ex.Name(self.tangent(operand.name))
        return sw.ZERO

    def operation(self, stmt):
        rule = self.program.rule_of(stmt)
        forward = sw.Let(stmt.target, forward_expression(self.program, self.names, stmt))
        if stmt.target not in self.active:
            return [forward]
        total = None
        args, names = operands(stmt), names_for(self.program, self.names, stmt)
        for arg, builder in zip(stmt.args, rule.jvps):
            if builder is None or not isinstance(arg, ir.Var) or arg.name not in self.active:
                continue
            term, sign = unit(builder(ex.Name(self.tangent(arg.name)), args,
                                      ex.Name(stmt.target), names))
            if total is None:
                total = ex.UnaryOp("-", term) if sign == -1 else term
            else:
                total = ex.BinOp("-" if sign == -1 else "+", total, term)
        tangent = sw.Let(self.tangent(stmt.target), total if total is not None else sw.ZERO)
        if stmt.target in [a.name for a in stmt.args if isinstance(a, ir.Var)]:
            # ``s = s + t``: the tangent reads the old ``s``'s tangent, so it comes first,
            # and the partials here (of add and sub) read no value
            return [tangent, forward]
        return [forward, tangent]
