"""Hand-written sweeps for the optimizer's tests: Python text read as ``ir.sweeps``.

``function_of(text)`` reads the ``def`` in ``text`` as the statements ``differentiate``
writes: ``s = []`` followed by ``push, pop = s.append, s.pop`` is a ``NewStack``;
``push(v)`` / ``t = pop()`` on such a stack and ``xs.append(v)`` / ``t = xs.pop()`` on a
list are ``Push`` / ``Pop``; ``d += e`` (``d -= e``) an ``AddTo``; ``xs[k] = v`` and
``dxs[i] += g`` write places (``x *= e`` is ``x = x * e``); a marker call ``__symdiff_comment__('text')`` standing
alone is a ``Comment`` (``__symdiff_heading__('text')`` the reverse sweep's heading); ``for i in range(...)`` / ``reversed(range(...))`` a ``For``;
``assert`` a ``Check``; its parameters' annotations give their types.  ``text_of(function)`` writes the sweeps back as Python (through
``backend.to_python``, comments as marker calls again), so a test compares texts.
"""

import ast
import dataclasses
import textwrap

from symdiff.ir.syntax import COMMENT, Comment
from symdiff.backend.to_python import function as python_function
from symdiff.errors import InternalError
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.core import types as t
from symdiff.analysis.sweep_types import Module, infer


ANNOTATIONS = {"float": t.FLOAT, "int": t.INT, "bool": t.BOOL, "number": t.NUMBER}


def function_of(text, default=None):
    """The ``ir.sweeps.Function`` of the ``def`` in ``text``, its statements numbered and
    its names typed (``analysis.sweep_types``): a parameter has the type its annotation
    names (``x: float``, ``n: int``, ``x: number``; ``x: object``, nothing known), else
    ``default`` (None: nothing known)."""
    tree = ast.parse(textwrap.dedent(text)).body[0]
    if isinstance(tree, ast.FunctionDef):
        node = tree
    else:
        raise ValueError("not a def")
    args = node.args
    reader = _Reader()
    function = sw.Function(node.name, tuple(a.arg for a in args.args),
                           tuple(ex.from_ast(d) for d in args.defaults),
                           args.kwarg.arg if args.kwarg else None, reader.block(node.body))
    given = {a.arg: ANNOTATIONS.get(a.annotation.id) if isinstance(a.annotation, ast.Name)
             else default for a in args.args}
    function.types = infer(sw.number_statements(function), given, Module())
    return function


HEADING_MARK = "__symdiff_heading__"  # a marker call standing for the reverse sweep's heading


def python_of(function):
    """The ``ast.FunctionDef`` of sweeps (comments as marker-call statements, the reverse
    sweep's heading as a call of ``HEADING_MARK``)."""
    class Markers(ast.NodeTransformer):
        def visit_Comment(self, node):
            return ast.Expr(node.value)

    marked = dataclasses.replace(function, body=_marked(function.body))
    return ast.fix_missing_locations(Markers().visit(python_function(marked)))


def _marked(block):
    out = []
    for stmt in block:
        if isinstance(stmt, sw.Comment) and stmt.heading:
            stmt = sw.Do(ex.Call(ex.Name(HEADING_MARK), (ex.Const(stmt.text),)))
        else:
            stmt = dataclasses.replace(stmt)
            if isinstance(stmt, sw.If):
                stmt.body, stmt.orelse = _marked(stmt.body), _marked(stmt.orelse)
            elif isinstance(stmt, (sw.For, sw.While)):
                stmt.body = _marked(stmt.body)
        out.append(stmt)
    return out


def text_of(function):
    return ast.unparse(python_of(function))


def _target(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript):
        return ex.Subscript(ex.from_ast(node.value), ex.from_ast(node.slice))
    raise ValueError(f"not a target: {ast.dump(node)}")


class _Reader:
    def __init__(self):
        self.pushes, self.pops = set(), set()

    def block(self, body):
        out = []
        i = 0
        while i < len(body):
            stmt = body[i]
            following = body[i + 1] if i + 1 < len(body) else None
            stack = self.new_stack(stmt, following)
            if stack is not None:
                out.append(stack)
                i += 2
                continue
            out.append(self.statement(stmt))
            i += 1
        return out

    def new_stack(self, stmt, following):
        """``s = []`` then ``push, pop = s.append, s.pop``: a ``NewStack``."""
        if not (isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.List) and not stmt.value.elts
                and isinstance(following, ast.Assign)
                and isinstance(following.targets[0], ast.Tuple)):
            return None
        name = stmt.targets[0].id
        names = [t.id for t in following.targets[0].elts]
        bound = following.value.elts
        if [ast.unparse(b) for b in bound] != [f"{name}.append", f"{name}.pop"]:
            return None
        self.pushes.add(names[0])
        self.pops.add(names[1])
        return sw.NewStack(name, names[0], names[1])

    def pop(self, target, value):
        if isinstance(value, ast.Call) and not value.args and not value.keywords:
            func = value.func
            if isinstance(func, ast.Name) and func.id in self.pops:
                return sw.Pop(target, func.id)
            if (isinstance(func, ast.Attribute) and func.attr == "pop"
                    and isinstance(func.value, ast.Name)):
                return sw.Pop(target, func.value.id, method=True)
        return None

    def statement(self, stmt):
        kind = type(stmt)
        if kind is ast.Assign:
            target = _target(stmt.targets[0])
            popped = self.pop(target, stmt.value) if isinstance(target, str) else None
            return popped or sw.Let(target, ex.from_ast(stmt.value))
        if kind is ast.AugAssign:
            if not isinstance(stmt.op, (ast.Add, ast.Sub)):  # ``x *= e``: ``x = x * e``
                value = ast.BinOp(stmt.target, stmt.op, stmt.value)
                return sw.Let(_target(stmt.target), ex.from_ast(value))
            return sw.AddTo(_target(stmt.target), ex.from_ast(stmt.value),
                            negate=isinstance(stmt.op, ast.Sub))
        if kind is ast.Expr or kind is Comment:
            return self.expression_statement(stmt.value)
        if kind is ast.If:
            return sw.If(ex.from_ast(stmt.test), self.block(stmt.body), self.block(stmt.orelse))
        if kind is ast.While:
            return sw.While(ex.from_ast(stmt.test), self.block(stmt.body))
        if kind is ast.For:
            return self.for_loop(stmt)
        if kind is ast.Return:
            return sw.Return(ex.from_ast(stmt.value))
        if kind is ast.Raise:
            return sw.Raise(ex.from_ast(stmt.exc))
        if kind is ast.Assert:
            value = ex.from_ast(stmt.test)
            message = None if stmt.msg is None else ex.from_ast(stmt.msg)
            reads = tuple(ex.names(value)) + (() if message is None else tuple(ex.names(message)))
            return sw.Check(ir.Check("assert", value, message, None, reads, None))
        if kind is ast.Break:
            return sw.Break()
        if kind is ast.Pass:
            return sw.Pass()
        raise InternalError("tests", f"no sweeps statement for {ast.dump(stmt)}")

    def expression_statement(self, value):
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            if value.func.id == COMMENT:
                return sw.Comment(value.args[0].value)
            if value.func.id == HEADING_MARK:
                return sw.Comment(value.args[0].value, heading=True)
            if value.func.id in self.pushes and len(value.args) == 1:
                return sw.Push(value.func.id, ex.from_ast(value.args[0]))
        if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                and value.func.attr == "append" and isinstance(value.func.value, ast.Name)
                and len(value.args) == 1):
            return sw.Push(value.func.value.id, ex.from_ast(value.args[0]), method=True)
        return self.pop(None, value) or sw.Do(ex.from_ast(value))

    def for_loop(self, stmt):
        steps, reverse = stmt.iter, False
        if isinstance(steps, ast.Call) and isinstance(steps.func, ast.Name) and (
                steps.func.id == "reversed"):
            steps, reverse = steps.args[0], True
        if not (isinstance(steps, ast.Call) and isinstance(steps.func, ast.Name)
                and steps.func.id == "range" and isinstance(stmt.target, ast.Name)):
            raise ValueError("a loop of the sweeps counts over a range")
        return sw.For(stmt.target.id, tuple(ex.from_ast(a) for a in steps.args),
                      self.block(stmt.body), reverse)
