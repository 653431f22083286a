"""Object methods: whether the methods a function calls on objects defined at module
level (or in a closure) compute with NumPy arrays.

Expects a ``ParsedFunction``.  Guarantees ``reaches_arrays``: True when the function
computes with arrays (``kinds.uses_arrays``), reads an array field of an object read as
data (``system.W[0, 1]``), or calls a method that does either, on an object
read as data (``core.records.is_data_object``): ``model.predict(x)``, ``model(x)`` of an
object whose class defines ``__call__``, ``self.first.score(x)`` of one in a field, and in turn the methods those call through
``self``, three calls deep at most.  Such a function is generated per kind of its
arguments, as one computing with arrays is, so ``x`` is known to be an array.  A method
whose source cannot be read counts as none (the build says why).

    def k(x):                       reaches_arrays(parse_function(k))  -> True
        return model.predict(x)     (predict computes ``self.W @ x``)
"""

import ast
import inspect

from symdiff.core.records import is_data_object
from symdiff.core.types import array_type
from symdiff.errors import SymdiffError
from symdiff.frontend.kinds import uses_arrays
from symdiff.frontend.parse import parse_function


def reaches_arrays(parsed, depth=3, bound=None):
    """Whether ``parsed`` or a method it calls computes with arrays (see the module;
    ``bound``: the objects its own names hold, ``self`` of a method)."""
    bound = bound or {}
    if uses_arrays(parsed) or any(array_type(_object(parsed, bound, node)) is not None
                                  for node in ast.walk(parsed.tree)
                                  if isinstance(node, ast.Attribute)):
        return True
    return depth > 0 and any(reaches_arrays(method, depth - 1, {self: obj}) for (
        method, self, obj) in _methods(parsed, bound))


def _methods(parsed, bound):
    """``(parsed method, its first parameter, the object)`` of each method ``parsed``
    calls on an object read as data."""
    found, seen = [], []
    for node in ast.walk(parsed.tree):
        if not isinstance(node, ast.Call):
            continue
        receiver, attr = (node.func.value, node.func.attr) if isinstance(
            node.func, ast.Attribute) else (node.func, "__call__")
        obj = _object(parsed, bound, receiver)
        method = inspect.getattr_static(type(obj), attr, None) if is_data_object(obj) else None
        if not inspect.isfunction(method) or method in seen:
            continue
        seen.append(method)
        try:
            method_parsed = parse_function(method)
        except SymdiffError:
            continue
        params = method_parsed.tree.args.posonlyargs + method_parsed.tree.args.args
        if params:
            found.append((method_parsed, params[0].arg, obj))
    return found


def _object(parsed, bound, node):
    """The object ``node`` names (``model``, ``self``, ``self.first``), or None."""
    if isinstance(node, ast.Name):
        return bound.get(node.id, parsed.closure.get(node.id, parsed.globals.get(node.id)))
    if not isinstance(node, ast.Attribute):
        return None
    base = _object(parsed, bound, node.value)
    return vars(base).get(node.attr) if is_data_object(base) and hasattr(
        base, "__dict__") else None
