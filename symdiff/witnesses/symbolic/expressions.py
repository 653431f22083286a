"""The expressions of a function body, read over sympy values: the sympy witness's
evaluator, which ``interpreter.Interpreter`` extends with statements and calls.

Expects the ``ParsedFunction`` of the function running and the point (``{Symbol: Float}``,
or None).  Guarantees ``ExpressionReader.eval(node)``: a sympy expression (or a tuple, list
or dict of them, a string flag, a module, a function) for an expression the witness reads,
and a located ``SymdiffError`` for one it does not.  A condition that depends on the inputs
is decided at the point; an expression growing past ``MAX_NODES`` nodes, or loops past
``MAX_ITERATIONS`` iterations, are refused.

    x * y + math.sin(x)      ──eval──►   x*y + sin(x)
    x if x > 0 else -x       ──eval──►   x   (at x = 2.0)
"""

import ast
import functools
import inspect
import numbers
import builtins
import types

import sympy

from symdiff.errors import SymdiffError, UndefinedNameError, UnsupportedSyntaxError
from symdiff.witnesses.symbolic.containers import ContainerReader
from symdiff.witnesses.symbolic.point import _evaluate, _fold, _NoNumber
from symdiff.witnesses.symbolic.primitives import _COMPARISONS, _OPERATORS, _is_norm
from symdiff.witnesses.symbolic.values import _describe, _outside_value

MAX_NODES = 20_000
MAX_ITERATIONS = 10_000


class ExpressionReader(ContainerReader):
    """Reads the expressions of user functions over sympy values (containers: see
    ``containers.ContainerReader``).

    ``parsed`` and ``env`` belong to the function running now and are swapped by
    ``Interpreter.call``; the point, the caches, the loop budget and the call stack are
    shared.
    """

    def __init__(self, parsed, point):
        self.parsed, self.env, self.point = parsed, {}, point  # point: {Symbol: Float} | None
        self.scopes = ()  # the envs of the functions around a nested one, innermost first
        self.numbers, self.sizes, self.functions = {}, {}, {parsed.fn: parsed}
        self.iterations, self.stack = 0, []


    def fail(self, cls, node, what, hint=None):
        return self.parsed.error(cls, node, what, hint=hint)

    def unsupported(self, node, what=None):
        text = ast.unparse(node).splitlines()[0]
        what = what or f"`{text[:40]}{'...' if len(text) > 40 else ''}`"
        return self.fail(UnsupportedSyntaxError, node, f"{what} is not supported",
                         hint="the sympy witness reads arithmetic, math calls, "
                         "if/for/while and calls to your own functions")

    def tick(self, node):
        self.iterations += 1
        if self.iterations > MAX_ITERATIONS:
            raise self.fail(SymdiffError, node, f"loops run more than {MAX_ITERATIONS:,} "
                            "iterations", hint="check this function with the tape engine")

    def checked(self, value, node):
        """``value``, once its expressions are known to be small enough for sympy."""
        items = value.values() if isinstance(value, dict) else value
        for item in items if isinstance(value, (tuple, list, dict)) else (value,):
            if isinstance(item, (tuple, list, dict)):
                self.checked(item, node)
            elif isinstance(item, sympy.Basic) and _fold(
                    item, self.sizes, lambda leaf: 1, lambda node, sizes: 1 + sum(sizes)
            ) > MAX_NODES:  # counted as a tree: what sympy's own walks cost
                raise self.fail(SymdiffError, node, f"the expression grows past {MAX_NODES:,}"
                                " nodes", hint="unroll fewer iterations, or use the tape")
        return value

    def expr(self, value, node):
        if isinstance(value, sympy.Expr):
            return value
        raise self.unsupported(node, f"using {_describe(value)} as a number")

    def number(self, value, node, what):
        """The float ``value`` takes at the point (``what`` names it in errors)."""
        try:
            return _evaluate(self.expr(value, node), self.point or {}, self.numbers)
        except _NoNumber as exc:
            if exc.needs_point:
                raise self.fail(SymdiffError, node, f"this {what} depends on the inputs",
                                hint="pass at= (a point) to follow the branch taken there"
                                ) from None
            raise self.fail(SymdiffError, node, f"this {what} is not a real number at "
                            "the point", hint="choose a point inside the domain") from None

    def truthy(self, value, node):
        if isinstance(value, (tuple, list, dict)):
            return bool(value)
        return self.number(value, node, "condition") != 0

    def truth(self, node):
        return self.truthy(self.eval(node), node)

    def dispatch(self, prefix, node):
        method = getattr(self, prefix + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node)
        return method(node)

    # expressions

    def eval(self, node):
        return self.dispatch("_eval_", node)

    def _eval_Constant(self, node):
        if node.value is None or isinstance(node.value, (int, float, str)):
            return _outside_value(node.value)  # a string only ever meets a comparison
        raise self.unsupported(node, f"the constant {node.value!r}")

    def _eval_Name(self, node):
        for env in (self.env,) + self.scopes:
            if node.id in env:
                return env[node.id]
        for scope in (self.parsed.closure, self.parsed.globals, vars(builtins)):
            if node.id in scope:
                return _outside_value(scope[node.id])
        raise self.fail(UndefinedNameError, node, f"name {node.id!r} is not defined",
                        hint="define it in the function, its module or its closure")

    def _eval_Attribute(self, node):
        return self.attribute(self.eval(node.value), node)

    def attribute(self, base, node):
        """``base.attr`` for the attribute ``node``: a field of an object passed in, a
        module's function or constant."""
        if _is_object(base) and hasattr(base, node.attr) and not callable(
                getattr(base, node.attr)):  # a field of an object passed in
            return _outside_value(getattr(base, node.attr))
        if _is_object(base) and not _is_norm(base) and inspect.isfunction(
                getattr(type(base), node.attr, None)):
            return functools.partial(getattr(type(base), node.attr), base)  # a bound method
        if not isinstance(base, types.ModuleType) and not _is_norm(base):
            raise self.unsupported(node, f"the attribute `{ast.unparse(node)}`")
        if not hasattr(base, node.attr):
            raise self.fail(UndefinedNameError, node, f"module {base.__name__} has no "
                            f"attribute {node.attr!r}")
        return _outside_value(getattr(base, node.attr))

    def operate(self, op, node, *operands):
        rule = _OPERATORS.get(type(op))
        if rule is None:
            raise self.unsupported(node, f"the operator in `{ast.unparse(node)}`")
        return rule(*(self.expr(operand, node) for operand in operands))

    def _eval_BinOp(self, node):
        left, right = self.eval(node.left), self.eval(node.right)
        found = self.sequence_operation(node.op, left, right, node)
        return self.operate(node.op, node, left, right) if found is NotImplemented else found

    def _eval_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            return sympy.Integer(not self.truth(node.operand))
        return self.operate(node.op, node, self.eval(node.operand))

    def _eval_BoolOp(self, node):
        stop_when = isinstance(node.op, ast.Or)  # `or` stops at a true operand
        for operand in node.values:
            value = self.eval(operand)
            if self.truthy(value, operand) == stop_when:
                break
        return value

    def _eval_Compare(self, node):
        if any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):  # `scale is None`
            left, right = self.eval(node.left), self.eval(node.comparators[0])
            return sympy.Integer((left is right) == isinstance(node.ops[0], ast.Is))
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):  # k in p
            found = self.contains(self.eval(node.comparators[0]), self.eval(node.left), node)
            return sympy.Integer(found == isinstance(node.ops[0], ast.In))
        left = self.comparand(node.left, node)
        for op, comparator in zip(node.ops, node.comparators):
            test = _COMPARISONS.get(type(op))
            if test is None:
                raise self.unsupported(node, f"the comparison `{ast.unparse(node)}`")
            right = self.comparand(comparator, node)
            if isinstance(left, str) != isinstance(right, str):
                raise self.unsupported(node, "comparing a string with a number")
            truth = test(left, right)
            if len(node.ops) == 1 and getattr(truth, "ndim", 0):  # arrays: a mask
                return truth
            if not truth:  # (a chain of array comparisons raises here, as in NumPy)
                return sympy.S.Zero
            left = right
        return sympy.S.One

    def comparand(self, side, node):
        """A side of a comparison: a string flag as it is, anything else as a number."""
        value = self.eval(side)
        return value if isinstance(value, str) else self.number(value, node, "condition")

    def _eval_IfExp(self, node):
        return self.eval(node.body if self.truth(node.test) else node.orelse)



def _is_object(value):
    """Whether ``value`` is an object read by its fields: a namedtuple, a dataclass or a
    plain instance (not a module, a class, a number or a container)."""
    if isinstance(value, tuple):
        return hasattr(type(value), "_fields")
    return not isinstance(value, (type, types.ModuleType, numbers.Number, list, dict,
                                  str)) and (hasattr(value, "__dataclass_fields__") or (
        type(value).__module__ not in ("builtins", "numpy") and isinstance(
            getattr(value, "__dict__", None), dict)))
