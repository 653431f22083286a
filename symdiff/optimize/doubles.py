"""Doubles: a value added to itself is computed once and doubled.

    dlap = 0.5 * lap + 0.5 * lap       ──doubles──►   dlap = 2.0 * (0.5 * lap)
    dX += g * X + g * X                               dX += 2.0 * (g * X)

Expects the typed sweeps IR and its ``Context``.  Guarantees the same results, bit for
bit, and the same exceptions: ``e + e`` and ``2.0 * e`` are the same float for every
float ``e`` (doubling is exact; inf, nan and an overflow to inf included), element by
element for a float array (``2.0`` takes the array's dtype, as the sum has it), and ``e``
is evaluated once instead of twice, which raises what the first evaluation raised.  The
two operands must be one value (``reuse.value_number``: names, numbers, arithmetic and
calls ``effects`` proves pure, never a call of the same impure function twice) and that
value a float, a NumPy float or a float array of a known dtype; an int doubled would
become a float.  A bare name is left as it is (``x + x`` costs what ``2.0 * x`` does).
"""

from symdiff.core import expr as ex
from symdiff.optimize.arrays import WEAK, dtype_of
from symdiff.optimize.facts import is_float
from symdiff.optimize.reuse import value_number
from symdiff.optimize.walk import every_statement, transform_every

__all__ = ["double_sums"]


def double_sums(function, context):
    """Rewrite every such sum of ``function``; whether one was."""
    changed = [False]

    def visit(node):
        if type(node) is ex.BinOp and node.op == "+" and _doubled(node, context):
            changed[0] = True
            return ex.BinOp("*", ex.Const(2.0), node.left)
        return node

    kept = context.table("doubles kept")  # what it left as it was, not walked again
    for stmt in every_statement(function):
        transform_every(stmt, visit, kept)
    return changed[0]


def _doubled(node, context):
    """Whether ``node`` (``a + b``) adds one float value to itself."""
    left, right = node.left, node.right
    if type(left) in (ex.Name, ex.Const) or type(left) is not type(right):
        return False
    number = value_number(left, context)[0]
    if number is None or number != value_number(right, context)[0]:
        return False
    return is_float(left, context) or dtype_of(left, context) not in (None, WEAK)
