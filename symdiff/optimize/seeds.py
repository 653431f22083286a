"""Seeds: arrays of one number that an operation with an array of their shape makes
redundant, and shapes read from the first array that has them.

Expects a generated function as IR (``optimize`` runs this with its other passes) and
the shape classes of ``optimize.arrays``.  Guarantees the same results, bit for bit,
and the same exceptions:

- ``np.full_like(x, c) op y`` (``op`` one of ``+ - * /``, either side) is ``c op y``
  where ``y`` has ``x``'s shape and dtype and ``c`` is a Python number (or a NumPy float
  of that dtype): NumPy rounds ``c`` to the array's dtype either way, and computes the same operation on each
  element; ``np.ones_like(x) * y`` (and ``np.full_like(x, 1.0)``) is ``y`` itself where
  ``y`` is a new array (no name ends up holding another's array);
- ``(a * np.ones_like(x)) op y``, and ``(a * np.ones_like(x)) / s`` or ``* s`` by a
  number ``s`` in that place, lose the ones (``a * 1`` is ``a`` for every float) where
  ``a`` is an array and ``y`` has ``x``'s shape and dtype: the broadcast the ones made,
  ``y`` makes;
- ``t.T`` of ``t = x.T`` is ``x`` (the same view of the same elements), where both are
  bound once;
- ``x.size``, ``x.shape``, ``np.zeros_like(x)`` read the first array of ``x``'s shape
  class (of ``x``'s dtype for ``*_like``), so ``x`` itself may go when nothing else
  needs it.

    dlog = np.full_like(log, 1.0 / log.size)          dexp = 1.0 / e.size / (1.0 + e)
    dexp = dlog / (1.0 + e)               ──►         (``log = np.log1p(e)``)
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize.arrays import (
    SCALAR,
    WEAK,
    classes,
    dtype_of,
    is_array,
    is_scalar,
    seeds,
    shape_class,
)
from symdiff.optimize.walk import every_statement, rewrite, transform

_STRIPPED = frozenset(("+", "-", "*", "/"))
_LIKE = frozenset(("zeros_like", "ones_like", "full_like", "empty_like"))


def simplify_array_seeds(function, context):
    """Drop the seed arrays and read shapes from the first array of each class."""
    if not any(isinstance(k, t.Array) for k in context.types.values()):
        return False
    changed = [False]
    # the names a shape may be read from: a root another pass dropped is none of them
    bound = set(function.params) | {s.target for s in function.body
                                    if type(s) is sw.Let and type(s.target) is str}

    def visit(node):
        new = _simplified(node, context, bound)
        if new is not node:
            changed[0] = True
        return new

    for stmt in every_statement(function):
        rewrite(stmt, lambda e: transform(e, visit))
    return changed[0]


def _simplified(node, context, bound):
    kind = type(node)
    if kind is ex.BinOp and node.op in _STRIPPED:
        return _without_seed(node, context)
    if kind is ex.Attribute and node.attr == "T" and type(node.value) is ex.Name:
        return _transposed_back(node, context, bound)
    if kind is ex.Attribute and node.attr in ("size", "shape") and type(node.value) is ex.Name:
        root = _root(node.value, context, bound, same_dtype=False)
        return node if root is None else ex.Attribute(root, node.attr)
    if kind is ex.Call and _numpy_like(node, context) and node.args and (
            type(node.args[0]) is ex.Name):
        root = _root(node.args[0], context, bound, same_dtype=True)
        return node if root is None else ex.Call(node.func, (root,) + node.args[1:],
                                                 node.keywords)
    return node


def _transposed_back(node, context, bound):
    """``t.T`` of a name bound once to ``x.T`` is ``x`` itself, where ``x`` is an array
    bound once (or a parameter never bound again), still bound: the view of a view with
    its axes reversed twice, the same elements at the same places."""
    stmt = seeds(context).bindings.get(node.value.id)
    inner = stmt.value if stmt is not None else None
    if type(inner) is ex.Attribute and inner.attr == "T" and type(inner.value) is ex.Name and (
            inner.value.id in bound) and classes(context).get(inner.value.id) is not None:
        return inner.value
    return node


def _root(name, context, bound, same_dtype):
    """The first name of ``name``'s shape class, where it is another, still bound in the
    function's own block (``bound``), and of its dtype."""
    root = classes(context).get(name.id)
    if root is None or root == name.id or root not in bound:
        return None
    types = context.types
    if same_dtype and getattr(types.get(root), "dtype", None) != types[name.id].dtype:
        return None
    return ex.Name(root)


def _numpy_like(node, context):
    func = node.func
    return (type(func) is ex.Attribute and func.attr in _LIKE and type(func.value) is ex.Name
            and func.value.id in context.module.numpy)


def _without_seed(node, context):
    """``node`` (an operation ``a op b``) without a seed array on either side."""
    for side, other in ((0, node.right), (1, node.left)):
        seed = node.left if side == 0 else node.right
        cls, dtype = shape_class(other, context), dtype_of(other, context)
        if cls in (None, SCALAR) or dtype in (None, WEAK):
            continue
        if node.op == "*" and _is_ones(seed, cls, dtype, context) and _fresh(other):
            return other
        stripped = _stripped(seed, cls, dtype, context, node.op, outer=True)
        if stripped is not None:
            parts = (stripped, other) if side == 0 else (other, stripped)
            return ex.BinOp(node.op, *parts)
    return node


def _is_ones(seed, cls, dtype, context):
    like = _like_of(seed, cls, dtype, context)
    if like == "ones_like":
        return True
    if type(seed) is ex.Name and like is not None:
        seed = seeds(context)[seed.id]
    return like == "full_like" and _known_one(seed.args[1])


def _known_one(value):
    return type(value) is ex.Const and value.text is None and type(value.value) in (
        int, float) and value.value == 1


def _like_of(seed, cls, dtype, context):
    """``ones_like`` or ``full_like`` when ``seed`` is that call of an array of class
    ``cls`` and dtype ``dtype`` (or a name bound to one of a number written out), else
    None."""
    if type(seed) is ex.Name:
        seed = seeds(context).get(seed.id, seed)
    if type(seed) is not ex.Call or not _numpy_like(seed, context) or (
            seed.func.attr not in ("ones_like", "full_like")):
        return None
    if shape_class(seed, context) != cls or dtype_of(seed, context) != dtype:
        return None
    return seed.func.attr


def _stripped(seed, cls, dtype, context, op, outer):
    """What ``seed`` stands for once ``op`` meets an array of class ``cls`` and dtype
    ``dtype`` (see the module's docstring), or None."""
    like = _like_of(seed, cls, dtype, context)
    if type(seed) is ex.Name and like is not None:
        seed = seeds(context)[seed.id]
    if like == "full_like" and outer and _number_of(seed.args[1], dtype, context):
        return seed.args[1]
    if type(seed) is not ex.BinOp or seed.op not in ("*", "/"):
        return None
    if seed.op == "*" and _array_operand(seed.left, context) and _like_of(
            seed.right, cls, dtype, context) == "ones_like":
        return seed.left
    if seed.op == "*" and _array_operand(seed.right, context) and _like_of(
            seed.left, cls, dtype, context) == "ones_like":
        return seed.right
    if is_scalar(seed.right, context) and op in ("*", "/"):
        inner = _stripped(seed.left, cls, dtype, context, seed.op, outer=False)
        if inner is not None and _array_operand(inner, context):
            return ex.BinOp(seed.op, inner, seed.right)
    return None


def _number_of(value, dtype, context):
    """Whether ``value`` is a number that meets an array of ``dtype`` as that dtype: a
    Python number, or a NumPy float of that very dtype."""
    return is_scalar(value, context) and dtype_of(value, context) in (WEAK, dtype)


def _array_operand(expr, context):
    """Whether ``expr`` certainly evaluates to a float array (of any shape)."""
    kind = type(expr)
    if kind is ex.Name:
        found = context.types.get(expr.id)
        return isinstance(found, t.Array) and found.dtype.startswith("float")
    if kind is ex.BinOp and expr.op in _STRIPPED:
        return (_array_operand(expr.left, context) or _array_operand(expr.right, context)
                ) and dtype_of(expr, context) not in (None, WEAK) or is_array(expr, context)
    if kind is ex.UnaryOp and expr.op == "-":
        return _array_operand(expr.operand, context)
    if kind is ex.Call and dtype_of(expr, context) not in (None, WEAK):
        return True  # a numpy function's array (or numpy's scalar: never Python's)
    if kind is ex.Subscript and _array_operand(expr.value, context):
        parts = expr.index.elts if type(expr.index) is ex.Tuple else (expr.index,)
        return any(type(p) is ex.Slice or p == ex.Const(None) for p in parts)  # a view
    return is_array(expr, context)


def _fresh(expr):
    """Whether evaluating ``expr`` makes a new array (an operation, not a name's array)."""
    return type(expr) in (ex.BinOp, ex.UnaryOp)
