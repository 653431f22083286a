"""Float constants: an int literal in arithmetic with an operand the types prove a float
is written as the float it becomes (CPython's arithmetic is quickest float by float).

    dx -= ds * (2 * (1.0 - x))  ──floats──►  dx -= ds * (2.0 * (1.0 - x))
    k = 2 * n                                k = 2 * n          (n: an int, or not known)

Expects the typed sweeps IR and its ``Context`` (``facts.is_float``).  Guarantees the
same results and exceptions for every input: ``+ - * /`` of a float and an int convert
the int to the float nearest it before computing (a float of numpy's too), which is the
literal written here; only ints a float holds exactly are rewritten, and ``**``, ``%``,
``//`` and comparisons are left as they are.
"""

from symdiff.core import expr as ex
from symdiff.optimize.facts import is_float
from symdiff.optimize.walk import every_statement, transform_every

__all__ = ["float_constants"]

_ARITHMETIC = frozenset(("+", "-", "*", "/"))
_EXACT = 2 ** 53  # every int up to this is a float exactly


def float_constants(function, context):
    """Rewrite every such int literal in ``function``; whether one was."""
    changed = False

    def visit(node):
        nonlocal changed
        if type(node) is not ex.BinOp or node.op not in _ARITHMETIC:
            return node
        left, right = _as_float(node.left), _as_float(node.right)
        if left is not None and is_float(node.right, context):
            changed = True
            return ex.BinOp(node.op, left, node.right)
        if right is not None and is_float(node.left, context):
            changed = True
            return ex.BinOp(node.op, node.left, right)
        return node

    kept = context.table("floats kept")  # what it left as it was, not walked again
    for stmt in every_statement(function):
        transform_every(stmt, visit, kept)
    return changed


def _as_float(expr):
    """The float literal an int literal (or a negated one) becomes, else None."""
    if type(expr) is ex.UnaryOp and expr.op == "-":
        inner = _as_float(expr.operand)
        return None if inner is None else ex.UnaryOp("-", inner)
    if (type(expr) is ex.Const and expr.text is None and type(expr.value) is int
            and abs(expr.value) <= _EXACT):
        return ex.Const(float(expr.value))
    return None
