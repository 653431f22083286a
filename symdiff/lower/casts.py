"""``x.astype(dtype)`` of an array: the cast record of a float dtype named as a constant.

Expects a method call ``x.astype(...)`` in a function that computes with arrays.
Guarantees ``astype``: the op of the cast (``astype_float32``, ``astype_float64``:
``primitives.array_casts``) and the call with ``x`` as its one argument; a located
error where the dtype is not a float dtype written as a constant (an integer or bool
dtype gives data, which has no derivative: compute it from the values instead).

    x.astype(np.float32)      ->  astype_float32(x)
    x.astype("float64")       ->  astype_float64(x)
    x.astype(float)           ->  astype_float64(x)    (Python's float is float64)
    g.astype(x.dtype)         ->  astype_like(g, x)    (of x's dtype, known from its type)
"""

import ast
import builtins
import sys

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.resolve import lookup
from symdiff.lower.names import meaning_of, scope_of

_FLOATS = ("float32", "float64")


def astype(frame, node):
    """``(op, call)`` of ``node``, a call ``x.astype(dtype)``."""
    func = node.func
    given = node.args[0] if len(node.args) == 1 and not node.keywords else None
    if isinstance(given, ast.Attribute) and given.attr == "dtype" and not isinstance(
            given.value, ast.Attribute):  # ``g.astype(x.dtype)``: x's (float) dtype
        call = ast.Call(ast.Attribute(ast.Name("numpy", ast.Load()), "astype", ast.Load()),
                        [func.value, given.value], [])
        return "astype_like", ast.copy_location(call, node)
    dtype = float_dtype(frame, node.args[0]) if len(node.args) == 1 and not (
        node.keywords) else None
    if dtype is None:
        raise frame.error(UnsupportedSyntaxError, node, "the method astype takes a float "
                          "dtype written as a constant here",
                          "write x.astype(np.float32), x.astype('float64') or x.astype(float)")
    call = ast.Call(ast.Attribute(ast.Name("numpy", ast.Load()), "astype", ast.Load()),
                    [func.value], [])
    return f"astype_{dtype}", ast.copy_location(call, node)


def float_dtype(frame, given):
    """``"float32"``/``"float64"`` where ``given`` names that dtype as a constant
    (``np.float32``, ``"float64"``, ``float``); None otherwise."""
    if isinstance(given, ast.Constant) and isinstance(given.value, str):
        try:
            name = sys.modules["numpy"].dtype(given.value).name
        except TypeError:
            return None
        return name if name in _FLOATS else None
    if isinstance(given, ast.Name) and given.id == "float" and scope_of(frame, "float") is None:
        found = lookup("float", frame.parsed.closure, frame.parsed.globals)
        return "float64" if found is builtins.float else None
    if isinstance(given, ast.Attribute) and given.attr in _FLOATS and isinstance(
            given.value, ast.Name) and scope_of(frame, given.value.id) is None and (
            meaning_of(frame, given.value.id, given.value).kind == "module"):
        return given.attr
    return None
