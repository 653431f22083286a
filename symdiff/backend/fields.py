"""Fields: a record's element reads written as the attribute reads they are.

Expects the Python tree of a generated function and the types of its names (``fn.types``,
``analysis.sweep_types``) and the names of its adjoints.  The containers core reads
``p.w`` of a record (``core.records``: a namedtuple, a dataclass, an instance) as the
element read ``p["w"]``; a record's adjoint is a dict (its fields' derivatives, added in
place), but the record itself has no ``[]``.  Guarantees the tree with each read
``p["w"]`` of a name holding a record, or of a record inside one (``p["layer"]["w"]``,
``net["layers"][i]["w"]``), written ``p.w`` (``p.layer.w``, ``net.layers[i].w``), and
nothing else changed.

    p_w = p['w']            ->   p_w = p.w
    dp['w'] += dy * x       ->   dp['w'] += dy * x        (an adjoint: a dict)
"""

import ast

from symdiff.core.records import is_record
from symdiff.core import types as t
from symdiff.core.types import element


def attribute_reads(function, types, adjoints=()):
    """``function`` (an ``ast.FunctionDef``) with its records' reads as attribute reads
    (in place; returned)."""
    records = {name: kind for name, kind in (types or {}).items()
               if holds_record(kind) and name not in adjoints}
    if records:
        _Fields(records).visit(function)
    return function


def holds_record(kind):
    """Whether ``kind`` is a record, or a container with one inside."""
    if is_record(kind):
        return True
    if isinstance(kind, t.List):
        return holds_record(kind.elem)
    if isinstance(kind, t.Tuple):
        return any(holds_record(e) for e in kind.elts)
    return isinstance(kind, t.Dict) and any(holds_record(v) for _, v in kind.items)


class _Fields(ast.NodeTransformer):
    def __init__(self, records):
        self.records = records

    def kind(self, node):
        """The record type ``node`` holds, or None."""
        if isinstance(node, ast.Name):
            return self.records.get(node.id)
        if isinstance(node, ast.Attribute):
            outer = self.kind(node.value)
            return element(outer, node.attr) if is_record(outer) else None
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            outer, key = self.kind(node.value), node.slice
            if outer is None or is_record(outer):  # (a record is read by ``.``)
                return None
            return element(outer, key.value if isinstance(key, ast.Constant) else None)
        return None

    def visit_Subscript(self, node):
        self.generic_visit(node)
        key = node.slice
        if isinstance(node.ctx, ast.Load) and isinstance(key, ast.Constant) and isinstance(
                key.value, str) and key.value.isidentifier() and is_record(
                self.kind(node.value)):
            return ast.copy_location(ast.Attribute(node.value, key.value, ast.Load()), node)
        return node
