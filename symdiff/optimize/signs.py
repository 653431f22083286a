"""Signs: a negation that an addition, a subtraction, an accumulation or another
negation can take is moved into it.

    dx[i] += -dd * (2.0 * x_i)   ──signs──►   dx[i] -= dd * (2.0 * x_i)
    dlam -= -1.0                             dlam += 1.0
    y = a - -(b / c)                         y = a + b / c
    z = -(-2.0 * a / b)                      z = 2.0 * a / b
    dA = -dD * 2.0  (dD an array)            dA = dD * -2.0

Expects the typed sweeps IR and its ``Context`` (``facts.type_of``).  Guarantees the
same results and exceptions for every input, nan only possibly of the other sign (a nan
is a nan: ``oracles.same``): IEEE arithmetic is symmetric in the sign, so for a float
``a`` (or a float array, element by element: a broadcast that fails fails either way), ``(-a) * b`` is ``-(a * b)``, ``(-a) / b`` is ``-(a / b)`` and ``c + (-a)`` is
``c - a``, ±0.0 and ±inf included.  The negated value must be a float (an int ``0`` has
no sign: ``-0.0 + -0`` is ``0.0``, ``-0.0 - 0`` is ``-0.0``) or a nonzero constant, and
the other operand of a product a number, never a complex.  The operands are evaluated
in the order they were.
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize.arrays import WEAK, dtype_of
from symdiff.optimize.facts import is_float, known_number, type_of
from symdiff.optimize.walk import every_statement, transform_every

__all__ = ["fold_signs"]

_NUMBER_CLASSES = frozenset((t.Float, t.Int, t.Bool, t.Number))


def fold_signs(function, context):
    """Move every such negation of ``function``; whether one was moved."""
    signs = _Signs(context)
    kept = context.table("signs kept")  # what it left as it was, not walked again
    for stmt in every_statement(function):
        transform_every(stmt, signs.visit, kept)
        if type(stmt) is sw.AddTo:
            positive = signs.negated(stmt.value)
            if positive is not None:
                stmt.value, stmt.negate = positive, not stmt.negate
                signs.changed = True
    return signs.changed


class _Signs:
    def __init__(self, context):
        self.context = context
        self.changed = False

    def visit(self, node):
        kind = type(node)
        if kind is ex.UnaryOp and node.op == "-" and type(node.operand) is not ex.Const:
            positive = self.negated(node.operand)
            if positive is not None:
                return self._done(positive)
        elif kind is ex.BinOp and node.op in ("+", "-"):
            positive = self.negated(node.right)
            if positive is not None:
                return self._done(ex.BinOp("-" if node.op == "+" else "+", node.left, positive))
        elif kind is ex.BinOp and node.op in ("*", "/") and self._into_constant(node):
            return self._done(ex.BinOp(node.op, node.left.operand, ex.UnaryOp("-", node.right)))
        return node

    def _into_constant(self, node):
        """Whether ``-a * c`` (or ``-a / c``) of a float array ``a`` and a positive float
        written out is ``a * -c``: one pass over the array instead of two."""
        left, number = node.left, known_number(node.right)
        return type(left) is ex.UnaryOp and left.op == "-" and type(number) is float and (
            number > 0 and type(node.right) is ex.Const) and _float_array(
            type_of(left.operand, self.context))

    def _done(self, node):
        self.changed = True
        return node

    def negated(self, expr):
        """``e`` with ``expr`` exactly ``-e`` and ``e`` a float or a nonzero number
        literal, else None (found through products and quotients)."""
        number = known_number(expr)
        if number is not None:  # ``-2.0`` is written ``UnaryOp("-", 2.0)``; an int 0 has no sign
            negative = type(expr) is ex.UnaryOp and (number != 0 or type(number) is float)
            return expr.operand if negative else None
        if type(expr) is ex.UnaryOp and expr.op == "-":
            return expr.operand if self._signed(expr.operand) else None
        if type(expr) is ex.BinOp and expr.op in ("*", "/"):
            left, right = expr.left, expr.right
            positive = self.negated(left)
            if positive is not None and self._multiplies(positive, right):
                return ex.BinOp(expr.op, positive, right)
            positive = self.negated(right)
            if positive is not None and self._multiplies(positive, left):
                return ex.BinOp(expr.op, left, positive)
        return None

    def _signed(self, expr):
        """Whether every value ``expr`` holds is a float: a float, a float array, or a
        NumPy float (``arrays.dtype_of``: a reduction of a float array)."""
        return is_float(expr, self.context) or _float_array(type_of(expr, self.context)) or (
            dtype_of(expr, self.context) not in (None, WEAK))

    def _multiplies(self, positive, other):
        """Whether ``positive`` times (or over) ``other`` is a float (or a float array)
        whose sign is the product of theirs, element by element: one is a float or a
        float array, the other a number or a float array."""
        if not all(type(type_of(e, self.context)) in _NUMBER_CLASSES or self._signed(e)
                   for e in (positive, other)):
            return False
        return self._signed(positive) or self._signed(other)


def _float_array(kind):
    return type(kind) is t.Array and kind.dtype.startswith("float")
