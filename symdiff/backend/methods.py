"""Methods: a NumPy reduction of an array is written as the array's method.

    db = np.sum(g, axis=0)                    db = g.sum(axis=0)
    m = np.max(s, axis=1, keepdims=True)  ──► m = s.max(axis=1, keepdims=True)
    c = np.sum(s == m, axis=1)                c = (s == m).sum(axis=1)

Expects the generated function as IR (``ir.sweeps``), typed, and the names numpy is
read by.  Guarantees the same results, bit for bit, and the same exceptions: for an
``ndarray`` (or a NumPy scalar) ``np.sum(a, ...)`` calls the very reduction
``a.sum(...)`` does, with the same arguments in the same places (NumPy's functions drop
``a`` and pass the rest on), so only the Python call around it goes, which at small sizes
is most of the cost (``np.sum`` of a 16x10 array takes about twice as long as
``.sum``).  The operand must be an array by its type: a name typed an array, or an
operation of one (arithmetic, a comparison, a view ``.T`` or an index, which give an
array or NumPy's scalar); a Python number has no such methods, so anything else stays a
call.  Only the Python target: numba compiles the functions' spellings it rewrites
(``numba_arrays``).
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.optimize import walk

__all__ = ["REDUCTIONS", "reductions_as_methods"]

# NumPy's reductions whose method takes the function's arguments after the array, in
# the same order and with the same keywords
REDUCTIONS = frozenset(("sum", "prod", "mean", "var", "std", "max", "min", "argmax",
                        "argmin", "any", "all"))


def reductions_as_methods(function, numpy_names):
    """A copy of ``function`` with each reduction of an array a method call (see the
    module); ``function`` itself where numpy is read by no name."""
    if not numpy_names:
        return function
    types = function.types or {}

    def method(node):
        func = node.func if type(node) is ex.Call else None
        if type(func) is ex.Attribute and func.attr in REDUCTIONS and (
                type(func.value) is ex.Name and func.value.id in numpy_names) and (
                node.args and _is_array(node.args[0], types)):
            return ex.Call(ex.Attribute(node.args[0], func.attr), node.args[1:],
                           node.keywords)
        return node

    copy = walk.clone_function(function)
    walk.rewrite_all(copy.body, lambda e: walk.transform(e, method))
    return copy


def _is_array(expr, types):
    """Whether ``expr`` is certainly an ndarray or NumPy's scalar, by the types."""
    kind = type(expr)
    if kind is ex.Name:
        return isinstance(types.get(expr.id), t.Array)
    if kind is ex.BinOp:
        return _is_array(expr.left, types) or _is_array(expr.right, types)
    if kind is ex.UnaryOp:
        return expr.op == "-" and _is_array(expr.operand, types)
    if kind is ex.Compare:
        return len(expr.ops) == 1 and expr.ops[0] not in ("is", "is not", "in", "not in") and (
            _is_array(expr.left, types) or _is_array(expr.comparators[0], types))
    if kind is ex.Attribute:
        return expr.attr == "T" and _is_array(expr.value, types)
    return kind is ex.Subscript and _is_array(expr.value, types)
