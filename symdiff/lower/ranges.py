"""Ranges as values: ``range(...)`` read outside a ``for`` header, a table of ints.

Expects a ``Frame``.  A range held by a name (``positions = range(len(xs))``) is a table
of ints known when the gradient runs, read-only: a ``Compute`` of the call, its target
noted in ``Unit.ranges`` so ``tables`` reads it as it reads a table parameter (indexed,
measured by ``len``, looped over).  A slice of one, its copy (``list(R)``,
``tuple(R)``, ``sorted(R)``) and its positions sorted by the elements of a container
(``sorted(R, key=xs.__getitem__)``, the permutation that sorts ``xs``) are such tables
too: Python computes each as the code says, so a negative bound, an empty range and a
step are Python's.  None of them carries a derivative, and none is changed in place.

    p = range(len(xs))[1:]                    ->  p = range(len(xs))[1:]     (a Compute)
    q = sorted(range(n), key=xs.__getitem__)  ->  q = sorted(range(n), key=xs.__getitem__)
    p[i]                                      ->  p_entry = p[i]
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import containers, names
from symdiff.lower.operands import operand_ast, reads_of


def is_range_call(frame, node):
    """Whether ``node`` calls the builtin ``range``."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and names.meaning_of(frame, node.func.id, node.func).kind == "range")


def held_range(frame, node):
    """The generated name of the range the user's name ``node`` holds, or None."""
    if not (isinstance(node, ast.Name) and names.meaning_of(frame, node.id, node).kind
            == "local"):
        return None
    operand = frame.mapping.get(node.id)
    if isinstance(operand, ir.Var) and operand.name in frame.unit.ranges:
        return names.name_operand(frame, node).name
    return None


def range_value(frame, node, target):
    """``range(stop)``, ``range(start, stop[, step])`` as a value: its operand."""
    return _noted(frame, target, *_range_call(frame, node))


def _range_call(frame, node):
    """``(expression, reads)`` of the call ``range(...)``, its bounds read first."""
    if node.keywords or not 1 <= len(node.args) <= 3:
        raise frame.error(UnsupportedSyntaxError, node, "range takes 1 to 3 numbers, "
                          "and no keyword", "write range(stop) or range(start, stop, step)")
    bounds = [frame.value(arg) for arg in node.args]
    call = ast.Call(ast.Name("range", ast.Load()), [operand_ast(b) for b in bounds], [])
    return call, tuple(r for b in bounds for r in reads_of(b))


def range_operand(frame, node):
    """``(expression, reads)`` of a range ``node``: a name holding one, a range written
    out, or a slice or copy of one (computed first); None for anything else."""
    held = held_range(frame, node)
    if held is not None:
        return ast.Name(held, ast.Load()), (held,)
    if is_range_call(frame, node):
        return _range_call(frame, node)
    made = range_slice(frame, node, None) if isinstance(node, ast.Subscript) else (
        copied_range(frame, node, None) if isinstance(node, ast.Call) else None)
    return None if made is None else (ast.Name(made.name, ast.Load()), (made.name,))


def range_slice(frame, node, target):
    """``R[a:b:c]`` of a range ``R``: a range; None when ``node.value`` is none."""
    if not isinstance(node.slice, ast.Slice):
        return None
    found = range_operand(frame, node.value)
    if found is None:
        return None
    base, reads = found
    parts = [None if part is None else frame.value(part)
             for part in (node.slice.lower, node.slice.upper, node.slice.step)]
    cut = ast.Slice(*(None if p is None else operand_ast(p) for p in parts))
    reads = reads + tuple(r for p in parts if p is not None for r in reads_of(p))
    return _noted(frame, target, ast.Subscript(base, cut, ast.Load()), reads)


def copied_range(frame, node, target):
    """``list(R)``, ``tuple(R)``, ``sorted(R)`` of a range ``R`` (``sorted`` with
    ``key=xs.__getitem__`` of a container ``xs`` too, the positions in the order that
    sorts it, and ``reverse=`` a constant): a read-only table of ints as well, computed
    as written; None for another call."""
    if not (isinstance(node.func, ast.Name) and len(node.args) == 1):
        return None
    call = names.meaning_of(frame, node.func.id, node.func).value
    keywords = {k.arg: k.value for k in node.keywords}
    if call not in (list, tuple, sorted) or (keywords and call is not sorted):
        return None
    key = keywords.pop("key", None)
    reverse = keywords.pop("reverse", ast.Constant(False))
    if keywords or not isinstance(reverse, ast.Constant) or key is not None and not (
            isinstance(key, ast.Attribute) and key.attr == "__getitem__"):
        return None
    found = range_operand(frame, node.args[0])
    held = None if key is None else containers.container_of(frame, key.value)
    if found is None or key is not None and (held is None or held[1]):
        return None
    base, reads = found
    written = [] if key is None else [ast.keyword("key", ast.Attribute(
        ast.Name(held[0], ast.Load()), "__getitem__", ast.Load()))]
    written += [ast.keyword("reverse", ast.Constant(True))] if reverse.value else []
    copy = ast.Call(ast.Name(node.func.id, ast.Load()), [base], written)
    return _noted(frame, target, copy, reads + (() if held is None else (held[0],)))


def written_range(frame, node):
    """The generated name of a range written where a table is read (``len(range(n))``,
    ``for i in range(n)[1:]``, ``range(n)[i]``: a range, its slice or copy), computed
    first; None for any other expression."""
    if is_range_call(frame, node):
        return range_value(frame, node, None).name
    found = range_operand(frame, node)
    return None if found is None else found[1][0]


def _noted(frame, target, expr, reads):
    name = frame.compute(target or frame.namer.fresh("positions"), expr, reads)
    frame.unit.ranges.add(name)
    return ir.Var(name)
