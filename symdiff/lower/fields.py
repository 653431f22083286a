"""Fields: ``p.w`` of a record read as the element read it is, ``p["w"]``.

Expects a ``Frame`` and an attribute read of a container lowering knows whose kind is a
``Record`` (``core.records``: a namedtuple, a dataclass or a plain instance passed to
the function).  Guarantees the key of the read, a ``Const`` of the field's name, so the
containers core makes of ``p.w`` the ``Item`` it makes of a dict's ``p["w"]`` (its
adjoint, its taping, its forward rule are the dict's); a namedtuple's ``p[0]`` is its
first field's read.  A field with no kind (a string, a function: ``static``), one the
object has not, a record indexed other than by position, and a field written
(``p.w = v``) are located ``UnsupportedSyntaxError``s with a hint.

    loss = (p.w * x + p.b - y) ** 2     ->   p_w = p.w; ...; p_b = p.b   (two Items)
"""

import ast

from symdiff.core.records import is_namedtuple_class
from symdiff.core.types import element
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir


def field_key(frame, node, kind):
    """The key ``node`` (``p.w``) reads the record of type ``kind`` by."""
    if not isinstance(node.ctx, ast.Load):
        raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} is assigned: "
                          "the fields of an object passed in are read, never written",
                          "compute the new value in a name of its own")
    if element(kind, node.attr) is not None:
        return ir.Const(node.attr)
    owner = ast.unparse(node.value)
    constants = dict(kind.constants)
    if node.attr in constants and callable(constants[node.attr]):
        raise frame.error(UnsupportedSyntaxError, node, f"{owner}.{node.attr} holds no "
                          "number, container or array but a function, read where it is "
                          "called or passed to a function of yours",
                          f"call it ({owner}.{node.attr}(...)), or pass what you compute "
                          "from it as an argument")
    if node.attr in constants:
        raise frame.error(UnsupportedSyntaxError, node, f"{owner}.{node.attr} holds a "
                          f"{type(constants[node.attr]).__name__}, read as a flag (compared, "
                          "tested), not as a container", f"compare it ({owner}.{node.attr} == "
                          "...), or pass what you compute from it as an argument")
    if node.attr in kind.static:
        raise frame.error(UnsupportedSyntaxError, node, f"{owner}.{node.attr} holds no number, "
                          "container or array, which is all symdiff reads of an object",
                          f"pass {node.attr} as an argument of its own")
    fields = ", ".join(f"{owner}.{k}" for k, _ in kind.items) or "none"
    raise frame.error(UnsupportedSyntaxError, node, f"{owner} ({kind.cls.__qualname__}) has "
                      f"no field {node.attr} symdiff reads", f"its fields are: {fields}; a "
                      "method is called through the class as a helper")


def position_key(frame, node, kind):
    """The key a namedtuple's ``p[0]`` reads (its field at that position)."""
    index = node.slice
    if is_namedtuple_class(kind.cls) and isinstance(index, ast.Constant) and type(
            index.value) is int:
        fields = kind.cls._fields
        if -len(fields) <= index.value < len(fields):
            return field_key(frame, ast.copy_location(ast.Attribute(
                node.value, fields[index.value], ast.Load()), node), kind)
    raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)}: a "
                      f"{kind.cls.__qualname__} is read by the names of its fields here",
                      "read its fields by name: " + ", ".join(
                          f"{ast.unparse(node.value)}.{k}" for k, _ in kind.items))
