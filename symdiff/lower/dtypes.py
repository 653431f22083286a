"""The ``dtype=`` keyword of an array call: another array's dtype, a static kind.

Expects a call (``ast.Call``) of the array operation ``op`` in a function that computes
with arrays.  Guarantees ``dtype_keyword``: the call without its ``dtype=x.dtype``
keyword and the expression ``x`` whose dtype it names (``None`` where the call has no
``dtype=``, or ``op`` takes none: ``bind_primitive`` refuses it then, located), and
``with_dtype``: the op of the call and its operands with ``x`` among them
(``array_dtypes``).  A dtype written otherwise is refused, located, with a hint.

    np.sum(mask, axis=1, dtype=x.dtype)  ->  array_sum_like(mask, x, 1, False)
    np.eye(n, m, dtype=A.dtype)          ->  eye_2_like(n, m, A)
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
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
