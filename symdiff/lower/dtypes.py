"""The ``dtype=`` keyword of an array call: another array's dtype, a static kind.

Expects a call (``ast.Call``) of the array operation ``op`` in a function that computes
with arrays.  Guarantees ``dtype_keyword``: the call without its ``dtype=x.dtype``
keyword and the expression ``x`` whose dtype it names (``None`` where the call has no
``dtype=``, or ``op`` takes none: ``bind_primitive`` refuses it then, located), and
``with_dtype``: the op of the call and its operands with ``x`` among them
(``array_dtypes``).  A float dtype written as a constant (``np.float32``, ``"float64"``,
``float``) is a cast (``constant_dtype``): of the operand of a reduction, which NumPy
computes in that dtype, of the result of a function that makes an array (left out
where that is float64 already, as NumPy makes it).  A dtype written otherwise is
refused, located, with a hint.

    np.sum(mask, axis=1, dtype=x.dtype)  ->  array_sum_like(mask, x, 1, False)
    np.eye(n, m, dtype=A.dtype)          ->  eye_2_like(n, m, A)
    np.sum(x, dtype=np.float32)          ->  np.sum(x.astype(np.float32))
    np.array([a, b], dtype=float)        ->  np.array([a, b]).astype(float)
    np.zeros(n, dtype=np.float64)        ->  np.zeros(n)
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.lower.casts import float_dtype
from symdiff.primitives.array_dtypes import like_op, like_position
from symdiff.primitives.registry import rule_of


def dtype_keyword(frame, op, node, shown):
    """``(node without dtype=, the array whose dtype it names)``; ``(node, None)``
    where ``node`` has no ``dtype=`` or ``op`` takes none."""
    keyword = next((k for k in node.keywords if k.arg == "dtype"), None)
    if keyword is None or like_op(op) is None or not frame.unit.array_code:
        return node, None
    value = keyword.value
    if not (isinstance(value, ast.Attribute) and value.attr == "dtype") or _on_module(value):
        raise frame.error(UnsupportedSyntaxError, keyword,
                          f"{shown} takes dtype= as an array's dtype here",
                          "write dtype=x.dtype, with x an array of that dtype")
    kept = [k for k in node.keywords if k is not keyword]
    return ast.copy_location(ast.Call(node.func, node.args, kept), node), value.value


def with_dtype(frame, op, args, like, node, shown):
    """``(op, args)`` of the call, with the operand of ``like`` among ``args`` where
    the call gives ``dtype=like.dtype``."""
    if like is None:
        return op, args
    made = like_op(op)
    if made is None:  # (a variant of the op that takes none: ``np.eye`` of three)
        raise frame.error(UnsupportedSyntaxError, node, f"{shown} takes no dtype= here",
                          "leave dtype= out, or cast the result: np.float32(...)")
    at = like_position(rule_of(op))
    return made, list(args[:at]) + [frame.value(like)] + list(args[at:])


def _on_module(node):
    """``np.float64.dtype``-like: an attribute of an attribute chain (no array's)."""
    return isinstance(node.value, ast.Attribute)


_OF_OPERAND = ("array_sum", "array_mean", "array_prod", "array_var", "array_std", "cumsum",
               "cumprod")  # reductions: NumPy computes them in the dtype given
_FLOAT64 = ("zeros", "ones", "full", "eye", "linspace")  # making float64 arrays already


def constant_dtype(frame, op, node):
    """The call ``node`` of ``op`` with its constant float ``dtype=`` written as a cast
    (see the module); None where it has no such keyword."""
    keyword = next((k for k in node.keywords if k.arg == "dtype"), None)
    dtype = None if keyword is None or not frame.unit.array_code else float_dtype(
        frame, keyword.value)
    if dtype is None:
        return None
    kept = [k for k in node.keywords if k is not keyword]
    if op in _OF_OPERAND and node.args:
        first = ast.Call(ast.Attribute(node.args[0], "astype", ast.Load()), [keyword.value], [])
        return ast.copy_location(ast.Call(node.func, [first] + node.args[1:], kept), node)
    call = ast.copy_location(ast.Call(node.func, node.args, kept), node)
    if op in _FLOAT64 and dtype == "float64":
        return call
    return ast.copy_location(ast.Call(ast.Attribute(call, "astype", ast.Load()),
                                      [keyword.value], []), node)
