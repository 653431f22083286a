"""Constant folding: an expression whose value is known when the gradient is built becomes
that value, and arithmetic with a neutral operand loses it where that is exact for every
float (x * 1.0 -> x; 0 * x and x + 0.0 stay).

    dmul = 1.0 * dz            ──fold──►   dmul = dz
    t = 2.0 * 3.0                          t = 6.0
"""

import ast
import math

from symdiff.backend.syntax import Transformer
from symdiff.optimize.prune import (
    cannot_raise,
)
from symdiff.primitives.registry import float_math, foldable_math


def fold_constants(function, math_name, floats=frozenset(), calls=None):
    folder = _Folder(math_name, floats)
    folder.visit(function)
    return folder.changed


class _Folder(Transformer):
    def __init__(self, math_name, floats):
        self.math_name = math_name
        self.floats = floats
        self.changed = False

    def keeps_type(self, one, other):
        """``1 * e`` is ``e``; ``1.0 * e`` is ``e`` only when ``e`` is a float already."""
        return isinstance(one, int) or is_float(other, self.math_name, self.floats)

    def _done(self, node):
        self.changed = True
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        left, right = known_number(node.left), known_number(node.right)
        if left is not None and right is not None:
            value = _apply(node.op, left, right)
            if value is not None:
                return self._done(_literal(value))
        op = node.op
        if isinstance(op, ast.Mult):
            if _is_exactly(right, 1) and self.keeps_type(right, node.left):
                return self._done(node.left)
            if _is_exactly(left, 1) and self.keeps_type(left, node.right):
                return self._done(node.right)
            if _is_exactly(right, -1) and self.keeps_type(right, node.left):
                return self._done(ast.UnaryOp(ast.USub(), node.left))
            if _is_exactly(left, -1) and self.keeps_type(left, node.right):
                return self._done(ast.UnaryOp(ast.USub(), node.right))
            for side, other in (("left", node.right), ("right", node.left)):
                inner = getattr(node, side)
                if is_float(other, self.math_name, self.floats) and _times_one(inner):
                    setattr(node, side, inner.right if _is_exactly(known_number(inner.left), 1)
                            else inner.left)  # (1.0 * a) * b is a * b when b is a float
                    return self._done(node)
        float_left = is_float(node.left, self.math_name, self.floats)
        if isinstance(op, ast.Pow) and _is_exactly(right, 1) and (
                isinstance(right, int) or float_left):
            return self._done(node.left)  # int ** 1 is an int, float ** 1 a float
        if isinstance(op, ast.Div) and _is_exactly(right, 1) and float_left:
            return self._done(node.left)  # 3 / 1 is 3.0: only a float stays as it is
        if isinstance(op, ast.Sub) and _is_exactly(right, 0) and (
                isinstance(right, int) or float_left):
            return self._done(node.left)
        if isinstance(op, ast.Pow) and _is_exactly(right, 0) and float_left and (
                cannot_raise(node.left, self.math_name)):
            return self._done(ast.Constant(1.0))  # nan ** 0 is 1.0 too
        return node

    def visit_AugAssign(self, node):
        """``d += 1.0 * e`` is ``d += e`` when ``d`` holds a float: the sum is a float anyway."""
        self.generic_visit(node)
        value = node.value
        if node.target.id in self.floats and isinstance(value, ast.BinOp) and isinstance(
                value.op, ast.Mult):
            for one, other in ((value.left, value.right), (value.right, value.left)):
                if _is_exactly(known_number(one), 1):
                    node.value = other
                    return self._done(node)
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        inner = node.operand
        if isinstance(node.op, ast.USub) and isinstance(inner, ast.UnaryOp) and isinstance(
                inner.op, ast.USub):
            return self._done(inner.operand)
        if isinstance(node.op, ast.Not):
            value = known_number(inner)
            if value is not None:
                return self._done(ast.Constant(not value))
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        values = [known_number(node.left)] + [known_number(c) for c in node.comparators]
        if len(node.ops) == 1 and None not in values:
            fold = {ast.Lt: float.__lt__, ast.LtE: float.__le__, ast.Gt: float.__gt__,
                    ast.GtE: float.__ge__, ast.Eq: float.__eq__, ast.NotEq: float.__ne__}
            compare = fold.get(type(node.ops[0]))
            if compare is not None:
                return self._done(ast.Constant(compare(float(values[0]), float(values[1]))))
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        test = _truth(node.test)
        if test is not None:
            return self._done(node.body if test else node.orelse)
        plain = _without_known_operands(node.test)
        if plain is not node.test:
            node.test = plain
            return self._done(node)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == self.math_name and not node.keywords):
            args = [known_number(a) for a in node.args]
            if args and None not in args and foldable_math(func.attr):
                try:
                    value = getattr(math, func.attr)(*args)
                except (ValueError, OverflowError, ZeroDivisionError):
                    return node
                if isinstance(value, float) and math.isfinite(value):
                    return self._done(_literal(value))
        return node


def _times_one(node):
    """``1.0 * a`` or ``a * 1.0`` (an int ``1`` too)."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (
        _is_exactly(known_number(node.left), 1) or _is_exactly(known_number(node.right), 1))


def is_float(node, math_name, floats):
    """Whether ``node`` certainly evaluates to a float (so ``1.0 * node`` is ``node``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, float)
    if isinstance(node, ast.Name):
        return node.id in floats
    if isinstance(node, ast.Attribute):  # math.pi, math.inf, ...
        return isinstance(node.value, ast.Name) and node.value.id == math_name
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):  # a helper generated code defines (``digamma``)
            return func.id in floats
        return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == math_name and float_math(func.attr))
    if isinstance(node, ast.UnaryOp):  # not ``not``: that gives a bool
        return isinstance(node.op, (ast.USub, ast.UAdd)) and is_float(node.operand, math_name,
                                                                       floats)
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Div) or is_float(node.left, math_name, floats) or (
            is_float(node.right, math_name, floats))
    if isinstance(node, ast.IfExp):
        return is_float(node.body, math_name, floats) and is_float(node.orelse, math_name,
                                                                    floats)
    return False


def _truth(node):
    """The truth of a test when it is known now, else None (``x or True`` is true)."""
    value = known_number(node)
    if value is not None:
        return bool(value)
    if isinstance(node, ast.Constant):
        return bool(node.value)
    if isinstance(node, ast.BoolOp):
        truths = [_truth(v) for v in node.values]
        if isinstance(node.op, ast.Or) and True in truths:
            return True
        if isinstance(node.op, ast.And) and False in truths:
            return False
    return None


def _without_known_operands(test):
    """A test's ``or`` without its false constants, ``and`` without its true ones:
    ``x or False`` -> ``x``, exact where only the truth of the test is read; ``test``
    itself where there is nothing to drop."""
    if not isinstance(test, ast.BoolOp):
        return test
    drop = False if isinstance(test.op, ast.Or) else True
    kept = [value for value in test.values if _truth(value) is not drop
            or not isinstance(value, ast.Constant)]
    if len(kept) == len(test.values) or not kept:
        return test
    return kept[0] if len(kept) == 1 else ast.BoolOp(test.op, kept)


def known_number(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant)
            and isinstance(node.operand.value, (int, float))
            and not isinstance(node.operand.value, bool)):
        return -node.operand.value
    return None


def _is_exactly(value, target):
    return value is not None and not isinstance(value, bool) and value == target and (
        type(value) in (int, float))


def _apply(op, a, b):
    try:
        if isinstance(op, ast.Add):
            value = a + b
        elif isinstance(op, ast.Sub):
            value = a - b
        elif isinstance(op, ast.Mult):
            value = a * b
        elif isinstance(op, ast.Div):
            value = a / b
        elif isinstance(op, ast.Pow):
            value = a ** b
        else:
            return None
    except (ZeroDivisionError, OverflowError, ValueError):
        return None
    if isinstance(value, complex) or (isinstance(value, float) and not math.isfinite(value)):
        return None
    return value


def _literal(value):
    """A number as syntax, never a negative literal (``-2 ** x`` reads as ``-(2 ** x)``)."""
    if value < 0 or (value == 0 and math.copysign(1.0, value) < 0):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)
