"""Constant folding: an expression whose value is known when the gradient is built becomes
that value, and arithmetic with a neutral operand loses it where that is exact for every
float (x * 1.0 -> x; 0 * x and x + 0.0 stay).

    dmul = 1.0 * dz            ──fold──►   dmul = dz
    t = 2.0 * 3.0                          t = 6.0
"""

import math

from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw
from symdiff.optimize.analyses import placed_names
from symdiff.optimize.arrays import WEAK, dtype_of, is_scalar
from symdiff.optimize.facts import FLOATS, cannot_raise, is_float, known_number
from symdiff.optimize.walk import every_statement, rewrite, transform_kept
from symdiff.primitives.registry import foldable_math

_COMPARE = {"<": float.__lt__, "<=": float.__le__, ">": float.__gt__, ">=": float.__ge__,
            "==": float.__eq__, "!=": float.__ne__}


def fold_constants(function, context):
    folder = _Folder(context)
    function.defaults = tuple(folder.fold(d) for d in function.defaults)
    fold = folder.fold
    for stmt in every_statement(function):
        kind = type(stmt)
        if kind is sw.Comment:
            continue
        if kind is sw.Let or kind is sw.AddTo:  # most statements: ``rewrite``, shorter
            value = stmt.value
            folded = fold(value)
            if folded is not value:
                stmt.value = folded
            if type(stmt.target) is not str:
                stmt.target = fold(stmt.target)
            elif kind is sw.Let:
                folder.shared_array(stmt)
            if kind is sw.AddTo:
                folder.accumulation(stmt)
            continue
        rewrite(stmt, fold)
    return folder.changed


class _Folder:
    def __init__(self, context):
        self.context = context
        self.math_name = context.math_name
        self.changed = False
        self.stable = context.table("folded")  # expressions folding leaves as they are

    def fold(self, expr):
        """``expr`` folded; one that folding left unchanged before, or an operand of it,
        is not walked again (folding is a function of the expression and the run's
        context alone)."""
        hit = self.stable.get(id(expr))
        if hit is not None and hit[0] is expr:
            return expr
        before, self.changed = self.changed, False
        folded = transform_kept(expr, self.visit, self.stable)  # (bound here: kept, a cycle)
        if not self.changed:
            self.stable[id(expr)] = (expr, True)
        self.changed |= before
        return folded

    def visit(self, node):
        visitor = _VISITORS.get(type(node))
        return node if visitor is None else visitor(self, node)

    def keeps_type(self, one, other):
        """``1 * e`` is ``e``; ``1.0 * e`` is ``e`` only when ``e`` is a float already, or
        a float array that may be shared (``float_array_kept``)."""
        return isinstance(one, int) or is_float(other, self.context) or (
            self.float_array_kept(other))

    def float_array_kept(self, other):
        """Whether ``other`` is a new float array of a known dtype (an operation:
        ``1.0 * e`` has its values and dtype), or a NumPy float."""
        dtype = dtype_of(other, self.context)
        if dtype in (None, WEAK):
            return False
        return type(other) in (ex.BinOp, ex.UnaryOp) or is_scalar(other, self.context)

    def float_array_operand(self, node):
        """``a`` of ``1.0 * a`` (or ``a * 1.0``) where ``a`` is a float array of a known
        dtype, read as an operand of arithmetic: the result is a new array of the same
        values and dtype with the one or without it, so nothing can share it; None
        otherwise."""
        if not _times_one(node):
            return None
        kept = node.right if _is_exactly(known_number(node.left), 1) else node.left
        return kept if dtype_of(kept, self.context) not in (None, WEAK) else None

    def shared_array(self, stmt):
        """``y = 1.0 * x`` is ``y = x`` for a float array ``x`` neither name has a place
        of written anywhere (``x[i] = v``, ``y[i] += g``): the two names may then hold
        one array, which nothing changes where it lies (an accumulation into ``y`` is in
        place only where ``in_place`` proves ``y`` owns its array, which ``y = x`` does not
        give)."""
        value, context = stmt.value, self.context
        if type(value) is not ex.BinOp or value.op != "*":
            return
        for one, other in ((value.left, value.right), (value.right, value.left)):
            if _is_exactly(known_number(one), 1) and type(other) is ex.Name and (
                    dtype_of(other, context) not in (None, WEAK)):
                placed = context.analysis(placed_names, context.function)
                if other.id not in placed and stmt.target not in placed:
                    stmt.value = self._done(other)
                    return

    def _done(self, node):
        self.changed = True
        return node

    def binop(self, node):
        left, right = known_number(node.left), known_number(node.right)
        if left is not None and right is not None:
            value = _apply(node.op, left, right)
            if value is not None:
                return self._done(_literal(value))
        op = node.op
        if op == "*":
            if _is_exactly(right, 1) and self.keeps_type(right, node.left):
                return self._done(node.left)
            if _is_exactly(left, 1) and self.keeps_type(left, node.right):
                return self._done(node.right)
            if _is_exactly(right, -1) and self.keeps_type(right, node.left):
                return self._done(ex.UnaryOp("-", node.left))
            if _is_exactly(left, -1) and self.keeps_type(left, node.right):
                return self._done(ex.UnaryOp("-", node.right))
            for inner, other, is_left in ((node.left, node.right, True),
                                          (node.right, node.left, False)):
                if _times_one(inner) and (is_float(other, self.context) or (
                        self.float_array_operand(inner))):
                    kept = inner.right if _is_exactly(known_number(inner.left), 1) else (
                        inner.left)  # (1.0 * a) * b is a * b when b is a float, or a is
                    # a float array or NumPy float of a known dtype
                    return self._done(ex.BinOp(op, kept, node.right) if is_left
                                      else ex.BinOp(op, node.left, kept))
        if op in ("+", "-", "/"):
            kept = [self.float_array_operand(o) for o in (node.left, node.right)]
            if any(k is not None for k in kept):
                return self._done(ex.BinOp(op, kept[0] or node.left, kept[1] or node.right))
        float_left = is_float(node.left, self.context)
        if op == "**" and _is_exactly(right, 1) and (isinstance(right, int) or float_left):
            return self._done(node.left)  # int ** 1 is an int, float ** 1 a float
        if op == "/" and _is_exactly(right, 1) and float_left:
            return self._done(node.left)  # 3 / 1 is 3.0: only a float stays as it is
        if op == "-" and _is_exactly(right, 0) and (isinstance(right, int) or float_left):
            return self._done(node.left)
        if op == "**" and _is_exactly(right, 0) and float_left and (
                cannot_raise(node.left, self.context)):
            return self._done(ex.Const(1.0))  # nan ** 0 is 1.0 too
        return node

    def accumulation(self, stmt):
        """``d += 1.0 * e`` is ``d += e`` when ``d`` holds a float: the sum is a float anyway
        (``dxs[i] += 1.0 * e`` too, at a place of a container's adjoint)."""
        value = stmt.value
        target = stmt.target
        holds_float = self.context.type_of(target) in FLOATS if isinstance(target, str) else (
            sw.target_name(target) in self.context.of_adjoints)
        if holds_float and isinstance(value, ex.BinOp) and value.op == "*":
            for one, other in ((value.left, value.right), (value.right, value.left)):
                if _is_exactly(known_number(one), 1):
                    stmt.value = other
                    self.changed = True
                    return

    def unaryop(self, node):
        inner = node.operand
        if node.op == "-" and isinstance(inner, ex.UnaryOp) and inner.op == "-":
            return self._done(inner.operand)
        if node.op == "not":
            value = known_number(inner)
            if value is not None:
                return self._done(ex.Const(not value))
        return node

    def compare(self, node):
        values = [known_number(node.left)] + [known_number(c) for c in node.comparators]
        if len(node.ops) == 1 and None not in values:
            compare = _COMPARE.get(node.ops[0])
            if compare is not None:
                return self._done(ex.Const(compare(float(values[0]), float(values[1]))))
        return node

    def ifexp(self, node):
        test = _truth(node.test)
        if test is not None:
            return self._done(node.body if test else node.orelse)
        plain = _without_known_operands(node.test)
        if plain is not node.test:
            return self._done(ex.IfExp(plain, node.body, node.orelse))
        return node

    def call(self, node):
        func = node.func
        if (isinstance(func, ex.Attribute) and isinstance(func.value, ex.Name)
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


_VISITORS = {ex.BinOp: _Folder.binop, ex.UnaryOp: _Folder.unaryop, ex.Compare: _Folder.compare,
             ex.IfExp: _Folder.ifexp, ex.Call: _Folder.call}  # (functions: no cycle)


def _times_one(node):
    """``1.0 * a`` or ``a * 1.0`` (an int ``1`` too)."""
    return isinstance(node, ex.BinOp) and node.op == "*" and (
        _is_exactly(known_number(node.left), 1) or _is_exactly(known_number(node.right), 1))


def _truth(node):
    """The truth of a test when it is known now, else None (``x or True`` is true)."""
    value = known_number(node)
    if value is not None:
        return bool(value)
    if _is_constant(node):
        return bool(node.value)
    if isinstance(node, ex.BoolOp):
        truths = [_truth(v) for v in node.values]
        if node.op == "or" and True in truths:
            return True
        if node.op == "and" and False in truths:
            return False
    return None


def _without_known_operands(test):
    """A test's ``or`` without its false constants, ``and`` without its true ones:
    ``x or False`` -> ``x``, exact where only the truth of the test is read; ``test``
    itself where there is nothing to drop."""
    if not isinstance(test, ex.BoolOp):
        return test
    drop = False if test.op == "or" else True
    kept = [value for value in test.values if _truth(value) is not drop
            or not _is_constant(value)]
    if len(kept) == len(test.values) or not kept:
        return test
    return kept[0] if len(kept) == 1 else ex.BoolOp(test.op, tuple(kept))


def _is_constant(node):
    """A constant written as a literal (not a dotted name such as ``math.pi``)."""
    return isinstance(node, ex.Const) and node.text is None


def _is_exactly(value, target):
    return value is not None and not isinstance(value, bool) and value == target and (
        type(value) in (int, float))


def _apply(op, a, b):
    try:
        if op == "+":
            value = a + b
        elif op == "-":
            value = a - b
        elif op == "*":
            value = a * b
        elif op == "/":
            value = a / b
        elif op == "**":
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
        return ex.UnaryOp("-", ex.Const(-value))
    return ex.Const(value)
