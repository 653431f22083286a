"""Joins: ``a + b`` of lists or of tuples, a new container of their numbers in order.

Expects a ``Frame`` and the reading half, ``containers``.  A sum whose first term is a
list or tuple (a name bound to one, an element that is one, a slice, a call that makes
one, or one written out) is Python's concatenation; it becomes one ``Join`` of its
terms, each a container read in place (``ir.Ref``) or written out (``ir.Literal``):

    zs = xs + ys            ->   zs = xs + ys                      (Join)
    padded = [0.0] + xs     ->   padded = [0.0] + xs               (Join)
    row = m[0] + m[1][:2]   ->   m_slice = m[1][:2]; row = m[0] + m_slice

Guarantees a located ``SymdiffError`` where Python would raise or the sweeps cannot
follow: a list joined with a tuple or a number, or a term holding containers rather
than numbers.  A sum whose first term is a number is no join (``binary_chain``).
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.core import types as t
from symdiff.core.types import element, is_container
from symdiff.lower.containers import (
    _joined,
    _literal,
    _makes_container,
    _typed,
    bound_operand,
    container_of,
    kind_of_operand,
)
from symdiff.lower.placement import built_once

_DISPLAYS = {ast.List: "list", ast.Tuple: "tuple"}


def joined(frame, node, target):
    """The ``Join`` of ``node``, ``a + b + ...`` whose first term is a list or tuple;
    None when ``node`` is no such sum (nothing is emitted then)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return None
    whole, terms = node, []
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        terms.append(node.right)
        node = node.left
    terms.append(node)
    terms.reverse()
    kind = _sequence(frame, terms[0])
    if kind is None:
        return None
    built_once(frame, whole)
    parts, kinds = [], []
    for term in terms:
        part, term_kind = _part(frame, term, kind)
        parts.append(part)
        kinds.append(term_kind)
    if kind == "tuple":
        made = t.Tuple(tuple(e for k in kinds for e in k.elts))
    else:
        elem = None
        for k in kinds:
            for e in ((k.elem,) if isinstance(k, t.List) else k.elts):
                elem = e if elem is None else _joined(elem, e)
        made = t.List(elem or t.FLOAT, None)
    if target is None or any(isinstance(p, ir.Ref) and p.container == target for p in parts):
        # a new name: ``h = h + [v]`` in a loop binds ``h`` to it (``changes.bind``)
        target = frame.namer.fresh(frame.hint if kind == "list" else f"{frame.hint}_tuple")
    _typed(frame, whole, target, made)
    frame.emit(ir.Join(target, kind, tuple(parts), frame.origin))
    return ir.Var(target)


def _sequence(frame, node):
    """``"list"`` or ``"tuple"`` when ``node`` certainly evaluates to one, read without
    emitting anything (a call that makes a container is evaluated once, and kept);
    else None."""
    if type(node) in _DISPLAYS:
        return _DISPLAYS[type(node)]
    kind = _static_kind(frame, node)
    if isinstance(kind, t.List):
        return "list"
    if isinstance(kind, t.Tuple):
        return "tuple"
    return None


def _static_kind(frame, node):
    """The container type of a name, an element or a slice of one, or a call making one;
    None for anything else, or a number."""
    if isinstance(node, ast.Name):
        return kind_of_operand(frame, bound_operand(frame, node.id))
    if isinstance(node, ast.Subscript):
        outer = _static_kind(frame, node.value)
        if not isinstance(outer, (t.List, t.Tuple, t.Dict)):
            return None
        if isinstance(node.slice, ast.Slice):
            elem = element(outer, None) if not isinstance(outer, t.Dict) else None
            return None if elem is None else t.List(elem, None)
        index = node.slice.value if isinstance(node.slice, ast.Constant) else None
        inner = element(outer, index)
        return inner if is_container(inner) else None
    if isinstance(node, ast.Call) and _makes_container(frame, node):
        found = container_of(frame, node)
        return None if found is None else kind_of_operand(frame, ir.Ref(*found))
    return None


def _part(frame, node, kind):
    """``(part, its type)`` of one term of a join of ``kind`` ("list" or "tuple")."""
    if type(node) in _DISPLAYS:
        made, made_kind = _literal(frame, node)
        if made.kind != kind:
            raise _unlike(frame, node, kind, made.kind)
        if any(isinstance(i, ir.Literal) or is_container(kind_of_operand(frame, i))
               for i in made.items):
            raise _of_containers(frame, node)
        return made, made_kind
    found = container_of(frame, node, written=True)
    term_kind = None if found is None else kind_of_operand(frame, ir.Ref(*found))
    if not isinstance(term_kind, (t.List, t.Tuple)):
        raise _unlike(frame, node, kind, "number" if term_kind is None else str(term_kind))
    if (kind == "list") != isinstance(term_kind, t.List):
        raise _unlike(frame, node, kind, "list" if kind == "tuple" else "tuple")
    elems = (term_kind.elem,) if isinstance(term_kind, t.List) else term_kind.elts
    if any(is_container(e) for e in elems):
        raise _of_containers(frame, node)
    return ir.Ref(*found), term_kind


def _unlike(frame, node, kind, other):
    return frame.error(UnsupportedSyntaxError, node, f"a {kind} is joined with a {other} "
                       f"here (Python's + joins two lists, or two tuples)",
                       f"make both {kind}s: list(t) or tuple(xs), or [x] for one number")


def _of_containers(frame, node):
    return frame.error(UnsupportedSyntaxError, node, "a join of lists of containers is "
                       "not supported", "join lists of numbers, or append the rows one by "
                       "one")
