"""Methods: ``self.h(x)`` of a record read as the call ``h(self, x)`` of its class's
function; and a record's flags, ``p.mode``, read as the constants they are.

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
    return ir.Const(constants[node.attr]) if node.attr in constants else None


def method_of(frame, node):
    """``(function, call node)`` of the method call ``node`` (see the module), or None."""
    receiver = node.func.value
    found = containers.container_of(frame, receiver)
    kind = found and containers.kind_of_operand(frame, ir.Ref(*found))
    if not is_record(kind) or not isinstance(kind.cls, type) or node.func.attr in (
            dict(kind.items)) or node.func.attr in kind.static:  # an attribute of its own
        return None
    try:
        attribute = inspect.getattr_static(kind.cls, node.func.attr)
    except AttributeError:
        return None
    if not inspect.isfunction(attribute):
        return None
    call = ast.Call(ast.Name(attribute.__name__, ast.Load()), [receiver] + list(node.args),
                    list(node.keywords))
    return attribute, ast.copy_location(call, node)
