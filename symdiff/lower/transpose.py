"""Transpose: the tuples ``zip`` gives, unpacked, when the kinds know every length.

Expects a ``Frame`` and the call ``zip(...)`` on the right of an unpacking into
``count`` names.  Guarantees ``unpacked_zip``: the ``count`` tuples the call gives, each
written out as the tuple of one position of every sequence zipped (``*pairs`` first
written as its elements by ``star_arguments.spread``, so ``zip(*pairs)`` transposes a
tuple of tuples), read as any tuple written out is.  A sequence whose length is read
only when the gradient runs (a list parameter), a sequence that is not a name or an
element of one, keywords (``strict=``), or a number of tuples other than the names
unpacking them (where Python raises ``ValueError``) are located
``UnsupportedSyntaxError``s with a hint.

    pairs = ((a, b), (c, d), (e, f))
    xs, ys = zip(*pairs)          ->  xs = (pairs[0][0], pairs[1][0], pairs[2][0])
                                      ys = (pairs[0][1], pairs[1][1], pairs[2][1])
"""

import ast
import copy

from symdiff.core import types as t
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import containers
from symdiff.lower.star_arguments import spread


def unpacked_zip(frame, node, count, names=None):
    """The operands of the ``count`` tuples ``node`` (a call of ``zip``) gives, each
    built under the name it is unpacked into (``names``, None for a nested target)."""
    shown = ast.unparse(node)
    if node.keywords:
        raise frame.error(UnsupportedSyntaxError, node.keywords[0], f"{shown} with "
                          "keywords is not transposed", "zip the sequences alone")
    node = spread(frame, node)
    lengths = [_length(frame, arg, shown) for arg in node.args]
    given = min(lengths) if lengths else 0
    if given != count:
        raise frame.error(UnsupportedSyntaxError, node, f"{shown} gives {given} tuples "
                          f"here, unpacked into {count} names (Python raises ValueError)",
                          f"unpack it into {given} names")
    names = names or [None] * count
    return tuple(containers.literal(frame, _position(node, j), frame.target_name(name) if name
                                    else frame.namer.fresh("column"))
                 for j, name in enumerate(names))


def _length(frame, arg, shown):
    """The length the kinds give the sequence ``arg`` zipped."""
    if not _is_path(arg):
        raise frame.error(UnsupportedSyntaxError, arg, f"{ast.unparse(arg)} is zipped in "
                          f"{shown}, and only a name or an element of one is transposed",
                          f"bind it to a name first: `parts = {ast.unparse(arg)}`")
    found = containers.container_of(frame, arg)
    kind = None if found is None else containers.kind_of_operand(frame, ir.Ref(*found))
    if isinstance(kind, t.Tuple):
        return len(kind.elts)
    what = "a list, whose length is known only when the gradient runs" if isinstance(
        kind, t.List) else "no tuple or list of a length known here"
    raise frame.error(UnsupportedSyntaxError, arg, f"{ast.unparse(arg)}, zipped in {shown}, "
                      f"is {what}", "pass a tuple (its length is part of its kind), or "
                      "index the elements: `xs = (p[0], q[0])`")


def _position(node, j):
    """The tuple of the ``j``-th elements of the sequences ``node`` zips."""
    elements = [ast.copy_location(ast.Subscript(copy.deepcopy(arg), ast.Constant(j),
                                                ast.Load()), arg) for arg in node.args]
    for element in elements:
        for part in ast.walk(element):
            ast.copy_location(part, node)
    return ast.copy_location(ast.Tuple(elements, ast.Load()), node)


def _is_path(node):
    """Whether ``node`` is a name, or elements or fields of one by constants."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name)
