"""Interpret: the statements of a lowered program, run on tape ``Value``s.

Expects a ``Program`` (``symdiff.pipeline.lower``'s, as the built gradient keeps it) and an
environment binding its parameters to numbers or ``Value``s.  Guarantees that the
statements run in order, as the function would run them, each operation by the tape's
own operation (``symdiff.checking.tape_bridge``), and that every ``Assign`` is noted in
``runs`` as ``(statement, its id, output, arguments)``: what the
divergence locator and the rule checks read.
"""

import ast
import math

from symdiff.checking.tape_bridge import operand, raw, tape_op
from symdiff.ir import nodes as ir
from symdiff.ir.expr import to_ast


class Interpreter:
    """Runs normalized statements on tape ``Value``s, noting each operation's output."""

    def __init__(self, program, env, runs):
        self.program, self.env, self.runs = program, env, runs
        self.globals = dict(program.namespace, **{program.math_name: math})

    def block(self, block):
        for stmt in block:
            if self.statement(stmt):
                return True
        return False

    def statement(self, stmt):
        """Run ``stmt``; True when it is a ``BreakIf`` that breaks."""
        if isinstance(stmt, ir.Assign):
            args = [operand(a, self.env) for a in stmt.args]
            out = tape_op(self.program, stmt.op)(*args)
            self.env[stmt.target] = out
            self.runs.append((stmt, stmt.sid, out, args))
        elif isinstance(stmt, ir.Compute):
            self.env[stmt.target] = self.evaluate(stmt.expr)
        elif isinstance(stmt, ir.If):
            self.block(stmt.body if self.env[stmt.test] else stmt.orelse)
        elif isinstance(stmt, ir.For):
            bounds = [raw(operand(b, self.env)) for b in stmt.bounds]
            steps = range(*bounds)
            for i in reversed(steps) if stmt.reverse else steps:
                self.env[stmt.target] = i
                if self.block(stmt.body):
                    break
        elif isinstance(stmt, ir.While):
            while True:
                self.block(stmt.pre)
                if not self.evaluate(stmt.test) or self.block(stmt.body):
                    break
        elif isinstance(stmt, ir.BreakIf):
            return bool(self.evaluate(stmt.test))
        elif isinstance(stmt, ir.Push):
            self.env[stmt.stack].append(operand(stmt.value, self.env))
        elif isinstance(stmt, ir.Pop):
            self.env[stmt.target] = self.env[stmt.stack].pop()
        elif isinstance(stmt, ir.Check):
            module = ast.fix_missing_locations(ast.Module([stmt.to_ast()], type_ignores=[]))
            exec(compile(module, "<check>", "exec"), self.globals, dict(self.env))
        return False

    def evaluate(self, expr):
        code = compile(ast.fix_missing_locations(ast.Expression(to_ast(expr))), "<check>", "eval")
        return eval(code, self.globals, dict(self.env))


def keywords(program, kwargs):
    """The environment entry of the ``**kwargs`` parameter, if the function has one."""
    return {program.kwargs: dict(kwargs)} if program.kwargs else {}
