"""Filling: a dict made empty and filled by key in a loop over another dict's keys.

Expects a ``Frame`` whose unit knows the loops over dicts' keys (``Unit.keys``) and
the dicts made empty (``Unit.unfilled``: ``out = {}``, or a dict comprehension that
desugar wrote so).  Guarantees the dict's kind once it is filled, where its keys are
known when the gradient is generated: those of the dict the loop runs over, in its
order, each a number.

    out = {}                       out: dict['w': float, 'b': float]  (p's keys)
    for k in p:
        out[k] = p[k] * scale

That holds when ``out[k] = v`` stands directly in the body of the loop ``for k in d``
(not inside an ``if``), the loop cannot leave early (no ``break``, ``continue`` or
``return`` in it) and nothing reads ``out`` before the loop ends; anything else that
fills or reads an empty dict is a located ``UnsupportedSyntaxError`` whose hint says
what to write.
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.exits import contains
from symdiff.ir import nodes as ir
from symdiff.core import types as t

_HINT = "fill it in a loop over a dict's keys, `for k in d: out[k] = ...`, or write it " \
        "out: {\"w\": w, \"b\": b}"


def filled_kind(frame, target, name):
    """The kind of the empty dict ``name`` once ``target`` (``out[k]``, the statement
    being lowered assigns it) fills it; the dict is filled from then on."""
    loop = _loop_of(frame, frame.statement_node)
    key = target.slice
    if not (isinstance(key, ast.Name) and isinstance(loop, ast.For)
            and isinstance(loop.target, ast.Name) and loop.target.id == key.id):
        raise frame.error(UnsupportedSyntaxError, target, "an empty dict is filled other "
                          "than by the keys of a loop over a dict, where this statement "
                          "stands directly in its body", _HINT)
    operand = frame.mapping.get(key.id)
    keys = frame.unit.keys.get(operand.name) if isinstance(operand, ir.Var) else None
    if keys is None:
        raise frame.error(UnsupportedSyntaxError, key, f"{key.id} runs over no dict's keys",
                          _HINT)
    if contains(loop.body, ast.Break, ast.Continue, into_loops=False) or contains(
            loop.body, ast.Return):
        raise frame.error(UnsupportedSyntaxError, loop, "a loop that may leave early fills "
                          "an empty dict", "fill it in a loop with no break, continue or "
                          "return")
    for node in ast.walk(loop):
        if isinstance(node, ast.Name) and node.id == target.value.id and (
                node is not target.value):
            raise frame.error(UnsupportedSyntaxError, node, f"{node.id} is read while a "
                              "loop fills it", "read it after the loop")
    frame.unit.unfilled.discard(name)
    kind = t.Dict(tuple((k, t.FLOAT) for k in keys))
    frame.unit.containers[name] = kind
    return kind


def unfilled(frame, node):
    """The error for the empty dict ``node`` names, read before a loop fills it."""
    return frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} is an empty dict "
                       "here, read before a loop fills it", _HINT)


def _loop_of(frame, stmt):
    """The statement whose body holds ``stmt`` directly (None at the function's top)."""
    parent = frame.parent(stmt)
    return parent if isinstance(parent, ast.For) and any(s is stmt for s in parent.body) \
        else None
