"""Methods: a NumPy function of an axis, of an array, is written as the array's method.

    db = np.sum(g, axis=0)                    db = g.sum(axis=0)
    m = np.max(s, axis=1, keepdims=True)  ──► m = s.max(axis=1, keepdims=True)
    c = np.sum(s == m, axis=1)                c = np.sum(s == m, axis=1)

Expects the generated function as IR (``ir.sweeps``), typed, and the names numpy is
read by.  Guarantees the same results, bit for bit, and the same exceptions: for an
``ndarray`` (or a NumPy scalar) ``np.sum(a, ...)`` calls ``a.sum(...)`` itself
(``spelled_as_methods``: the functions the registry reads as a method too), with the
same arguments in the same places, so only the Python call around it goes, which at
small sizes is most of the cost (``np.sum`` of a 16x10 array takes about twice as long
as ``.sum``).  The operand must be an array by its type (a Python number has no such
methods), and short: a name or its ``.T``; a longer expression keeps the function,
which reads better around it.  Only the Python target: numba compiles the functions' spellings it rewrites
(``numba_arrays``).
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.optimize import walk
from symdiff.primitives.registry import array_names, rule_of

__all__ = ["reductions_as_methods", "spelled_as_methods"]


def spelled_as_methods():
    """The NumPy reductions (of an axis, keeping it or not) that the registry also reads
    as the method of the same name, for one record (``np.sum`` and ``x.sum``,
    ``np.argmax``): NumPy's function of an ndarray calls that method (``fromnumeric``'s
    wrappers), passing the rest of the arguments and the keywords on."""
    spellings = array_names()
    return frozenset(name for name, op in spellings["methods"].items()
                     if spellings["functions"].get(name) == op and "keepdims" in rule_of(op).params)


def reductions_as_methods(function, numpy_names):
    """A copy of ``function`` with each reduction of an array a method call (see the
    module); ``function`` itself where numpy is read by no name."""
    if not numpy_names:
        return function
    types, methods = function.types or {}, spelled_as_methods()

    def method(node):
        func = node.func if type(node) is ex.Call else None
        if type(func) is ex.Attribute and func.attr in methods and (
                type(func.value) is ex.Name and func.value.id in numpy_names) and (
                node.args and _is_array(node.args[0], types)):
            return ex.Call(ex.Attribute(node.args[0], func.attr), node.args[1:],
                           node.keywords)
        return node

    copy = walk.clone_function(function)
    walk.rewrite_all(copy.body, lambda e: walk.transform(e, method))
    return copy


def _is_array(expr, types):
    """Whether ``expr`` is an array by its type and reads well with a method: a name
    (``g.sum()``) or its transpose (``W.T.sum()``); a longer expression keeps NumPy's
    function around it."""
    if type(expr) is ex.Attribute and expr.attr == "T":
        expr = expr.value
    return type(expr) is ex.Name and isinstance(types.get(expr.id), t.Array)
