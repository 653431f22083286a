"""Objects read as data: an instance defined at module level (or in a closure), its
fields read as the values they hold and its methods inlined with ``self`` the object.

Expects a ``Frame`` and an attribute read or a call whose receiver ``names.held_object``
knows (``system``; ``self`` in a method inlined for one; ``system.layer``).  Guarantees:

- ``field_value``: the operand of a field (``object_fields.field_of``): a number is a
  constant of the build named after the object (``system_mass``), a flag the constant it
  is, an array a global of the generated module (``system_W``, typed as the array it
  holds, as a module-level array is); None when the receiver is no such object;
- ``method_call``: ``(function, call node)`` of ``system.energy(v)``, read as the call
  ``energy(system, v)`` of its class's function, which ``inline.call_user`` inlines as
  any helper's, its ``self`` bound to the object (``function_values``: an object passed
  is known when the gradient is built); a static method is called as the function it
  holds; None for a receiver that is no such object or an attribute no method;
- ``called_object``: the same for ``model(x)`` of an object whose class defines
  ``__call__``.

The fields are data, never differentiated.  A method that assigns a field (``self.n =
...``) is refused where it assigns it (``frontend.fence``).

    def g(v):                             def grad_g(v):
        return system.energy(v)     ->        # line 9 (in energy): ...
                                              dv = system_mass * ...
"""

import ast
import inspect

from symdiff.core import types as t
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import names
from symdiff.lower.object_fields import field_of


def field_value(frame, node):
    """The operand of ``node``, a field of an object read as data (see the module), or
    None."""
    held = names.held_object(frame, node.value)
    if held is None:
        return None
    meant = field_of(frame, node, *held)
    if meant.kind == "flag" and isinstance(meant.value, str):
        raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} is a str, "
                          "where a number is needed", "compare a string field "
                          f"({ast.unparse(node)} == \"...\") or call its methods; to read it "
                          "otherwise, pass the object as an argument (its fields are then "
                          "read for the call)")
    if meant.kind == "flag":
        return ir.Const(meant.value)
    if meant.kind == "constant":
        return ir.Const(meant.value, frame.unit.global_name(meant.name, meant.value))
    if meant.kind == "array":
        name = frame.unit.global_name(meant.name, meant.value)
        frame.unit.arrays[name] = t.array_type(meant.value)
        return ir.Var(name)
    shown = ast.unparse(node)
    what, hint = {"table": ("a table of numbers", "index it or loop over it"),
                  "object": ("an object", "read one of its fields, or call one of its "
                             "methods")}.get(meant.kind, ("a function", "call it"))
    raise frame.error(UnsupportedSyntaxError, node, f"{shown} is {what}, where a number "
                      "is needed", hint)


def method_call(frame, node):
    """``(function, call node)`` of the method call ``node`` (see the module), or None."""
    receiver, attr = node.func.value, node.func.attr
    held = names.held_object(frame, receiver)
    if held is None or attr in (vars(held[0]) if hasattr(held[0], "__dict__") else {}):
        return None  # (a field holding a function: ``names.module_member`` reads it)
    return _method(type(held[0]), attr, receiver, node)


def called_object(frame, node):
    """``(function, call node)`` of ``model(x)``, ``model`` an object read as data whose
    class defines ``__call__``; None for any other call."""
    held = names.held_object(frame, node.func) if isinstance(node.func, ast.Name) else None
    if held is None:
        return None
    found = _method(type(held[0]), "__call__", node.func, node)
    if found is None:
        raise frame.error(UnsupportedSyntaxError, node, f"{node.func.id} is called, and "
                          f"its class {type(held[0]).__name__} defines no __call__ symdiff "
                          "reads", "define __call__ as a method of the class, or call "
                          "one of its methods")
    return found


def _method(cls, attr, receiver, node):
    """The function ``cls`` defines as ``attr`` and the call reading ``node`` as its
    call (the receiver first for a method); None when ``attr`` is no method or static
    method of ``cls``."""
    attribute = inspect.getattr_static(cls, attr, None)
    if isinstance(attribute, staticmethod):
        function, args = attribute.__func__, list(node.args)
    elif inspect.isfunction(attribute):
        function, args = attribute, [receiver] + list(node.args)
    else:
        return None  # (a property, a class method: ``object_fields`` refuses them)
    if not inspect.isfunction(function):
        return None
    call = ast.Call(ast.Name(function.__name__, ast.Load()), args, list(node.keywords))
    return function, ast.copy_location(call, node)
