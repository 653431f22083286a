"""Methods: ``self.h(x)`` of a record read as the call ``h(self, x)`` of its class's
function, ``layer(x)`` of one whose class defines ``__call__`` as ``__call__(layer, x)``;
and a record's flags, ``p.mode``, read as the constants they are.

Expects a ``Frame`` and a call whose function is an attribute of a container lowering
knows as a ``Record`` (``core.records``).  Guarantees, where the record's class defines
that attribute as a plain function (not a static or class method, not a property):
the function and a call node passing the receiver first, which ``inline.call_user``
inlines as any helper of the function (the class is part of the record's kind, so the
method called is known when the gradient is built); None otherwise, for the other
readings of a method call (an array's, a string's) to try.

    def loss(self, x):              ->   inlined: h's body with self bound to self
        return self.h(x) ** 2
"""

import ast
import inspect

from symdiff.core.records import is_record
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import containers


def constant_field(frame, node):
    """The ``Const`` a flag field holds (``p.mode`` of a string, a bool or None: its
    value is part of the record's kind, so the gradient is built again for another),
    or None for any other attribute."""
    found = containers.container_of(frame, node.value)
    kind = found and containers.kind_of_operand(frame, ir.Ref(*found))
    if not is_record(kind) or not isinstance(node.ctx, ast.Load):
        return None
    constants = dict(kind.constants)
    return ir.Const(constants[node.attr]) if node.attr in constants and not callable(
        constants[node.attr]) else None  # (a function held: ``function_values`` reads it)


def method_of(frame, node):
    """``(function, call node)`` of the method call ``node`` (see the module), or None."""
    return _method(frame, node.func.value, node.func.attr, node)


def called_record(frame, node):
    """``(function, call node)`` of ``layer(x)``, ``layer`` a record (a parameter, an
    element of one: ``layers[0](x)``, a loop's ``layer``) whose class defines
    ``__call__``: the call ``__call__(layer, x)``; None for any other call."""
    if not isinstance(node.func, (ast.Name, ast.Subscript, ast.Attribute)) or isinstance(
            node.func, ast.Attribute) and not _is_field(frame, node.func):
        return None
    found = _method(frame, node.func, "__call__", node)
    kind = found is None and _record_kind(frame, node.func)
    if is_record(kind) and isinstance(kind.cls, type):
        raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node.func)} is called, "
                          f"and its class {kind.cls.__name__} defines no __call__ symdiff "
                          "reads", "define __call__ as a method of the class, or call one "
                          "of its methods")
    return found


def _record_kind(frame, node):
    found = containers.container_of(frame, node)
    return found and containers.kind_of_operand(frame, ir.Ref(*found))


def _is_field(frame, node):
    """Whether the attribute ``node`` reads a field of a record (``model.layer``), not a
    method of its class (``d.__call__``, ``model.forward``)."""
    found = isinstance(node.value, (ast.Name, ast.Subscript, ast.Attribute)) and (
        containers.container_of(frame, node.value))
    kind = found and containers.kind_of_operand(frame, ir.Ref(*found))
    return is_record(kind) and node.attr in dict(kind.items)


def _method(frame, receiver, attr, node):
    """The function the class of the record ``receiver`` defines as ``attr``, and
    ``node`` read as its call with the receiver first; None where ``receiver`` is no
    record or ``attr`` no plain function of its class (a field of its own)."""
    found = containers.container_of(frame, receiver)
    kind = found and containers.kind_of_operand(frame, ir.Ref(*found))
    if not is_record(kind) or not isinstance(kind.cls, type) or attr in (
            dict(kind.items)) or attr in kind.static:  # an attribute of its own
        return None
    try:
        attribute = inspect.getattr_static(kind.cls, attr)
    except AttributeError:
        return None
    if not inspect.isfunction(attribute):
        return None
    call = ast.Call(ast.Name(attribute.__name__, ast.Load()), [receiver] + list(node.args),
                    list(node.keywords))
    return attribute, ast.copy_location(call, node)
