"""Container calls: builtins called on a container, ``sum``, ``min``, ``max``,
``math.fsum``, ``math.prod`` (reductions) and ``list``, ``tuple``, ``sorted`` (copies).

Expects a ``Frame``, the callee's meaning and the call ``node``.  Guarantees the
operand of the call's value (``changes.reduction``, ``changes.copied``) where its first
argument is a container; None where it is not (``max(a, b)`` compares its arguments,
``calls`` reads it as a primitive), and a located ``UnsupportedSyntaxError`` naming the
argument it does not take.

    total = sum(xs, 1.0)       ->  a reduction of xs from the start 1.0
    s = sorted(xs)             ->  a copy of xs through the permutation that sorts it
"""

import ast
import builtins
import statistics

from symdiff.core import types as t
from symdiff.core.records import is_record
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import changes, containers
from symdiff.lower.keyed import KEYS
from symdiff.primitives.reductions import REDUCTIONS, WITH_START, function


def reduction_call(frame, callee, node, target):
    """``sum(xs)``, ``sum(xs, start)``, ``min(xs)``, ``max(xs)``, ``math.fsum(xs)``,
    ``math.prod(xs)`` of a container (``changes.reduction``); None otherwise."""
    if callee.kind == "primitive" and callee.value in REDUCTIONS:
        op = callee.value
    else:
        op = "sum" if callee.kind == "other" and callee.value is function("sum") else None
    if op is None or not node.args or (op in ("min", "max") and len(node.args) > 1) or (
            containers.container_of(frame, node.args[0], written=op in changes.WRITTEN_OUT)
            is None):
        return None  # ``max(a, b)`` compares its arguments, whatever they hold
    start = node.args[1] if len(node.args) == 2 else None
    keywords = {k.arg: k.value for k in node.keywords}
    if op in WITH_START and set(keywords) <= {"start"} and start is None:
        start = keywords.pop("start", None)
    if len(node.args) > (2 if op == "sum" else 1) or keywords or (
            start is not None and op not in WITH_START):
        raise frame.error(UnsupportedSyntaxError, node, f"this call of {op}() on a container "
                          "is not supported", f"call {op}(xs)" + (
                              " or sum(xs, start)" if op == "sum" else ""))
    return changes.reduction(frame, op, node.args[0], start, target)


def library_call(frame, op, node, shown, target):
    """``statistics.mean(xs)``, ``variance(xs)``... (``op``: its ``LIBRARY`` name) of a
    container, one ``Reduce``; a located refusal of any other argument (``xbar``,
    ``mu``, ``weights``) or of data that is no container this lowering knows."""
    if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
        raise frame.error(UnsupportedSyntaxError, node, f"this call of {shown}() is not "
                          "supported: it is read of its data alone", f"call {shown}(xs); "
                          "for a mean given as xbar or mu, or weights, write the formula out")
    if containers.container_of(frame, node.args[0], written=True) is None:
        raise frame.error(UnsupportedSyntaxError, node.args[0], f"{shown}() of "
                          f"{ast.unparse(node.args[0])}, which holds no list or tuple here",
                          f"pass a list or tuple of numbers: {shown}([a, b, c]) or "
                          f"{shown}(xs)")
    frame.unit.global_name("statistics", statistics)  # (generated code calls it)
    return changes.reduction(frame, op, node.args[0], None, target)


_COPIES = {builtins.list: "list", builtins.tuple: "tuple", builtins.sorted: "sorted"}


def copy_call(frame, callee, node, target):
    """``list(xs)``, ``tuple(xs)``, ``sorted(xs)`` (``reverse=True`` too) of a container
    of numbers (``changes.copied``); None otherwise."""
    call = _COPIES.get(callee.value) if callee.kind == "other" else None
    if call is None or len(node.args) != 1 or containers.container_of(
            frame, node.args[0]) is None:
        return None
    keywords = {k.arg: k.value for k in node.keywords}
    descending = keywords.pop("reverse", None) if call == "sorted" else None
    keys = keywords.pop(KEYS, None) if call == "sorted" else None  # (``keyed``'s list)
    if keywords or not (descending is None or (isinstance(descending, ast.Constant)
                                               and isinstance(descending.value, bool))):
        raise frame.error(UnsupportedSyntaxError, node, f"this call of {call}() on a "
                          "container is not supported", f"call {call}(xs)" + (
                              " or sorted(xs, reverse=True)" if call == "sorted" else ""))
    return changes.copied(frame, call, node.args[0], bool(descending and descending.value),
                          target, keys=None if keys is None else frame.value(keys).name)


def method_copy(frame, node, target):
    """``xs.copy()`` of a list or tuple of numbers, as ``list(xs)``; None when ``node``
    is no ``copy()`` of a container (``d.copy()`` of a dict parameter is a comprehension
    already, ``desugar``'s)."""
    func = node.func
    if func.attr != "copy" or node.args or node.keywords:
        return None
    found = containers.container_of(frame, func.value)
    if found is None:
        return None
    kind = containers.kind_of_operand(frame, ir.Ref(*found) if found[1] else ir.Var(found[0]))
    if not isinstance(kind, (t.List, t.Tuple)):
        raise frame.error(UnsupportedSyntaxError, node, f"copy() of a {kind} built here",
                          f"write dict({ast.unparse(func.value)}) for a copy of a dict")
    return changes.copied(frame, "list", func.value, False, target)


def dict_get(frame, node, target):
    """``d.get("k", default)`` of a dict whose keys lowering knows (a dict built in the
    function, a helper's ``**options``): ``d["k"]`` where ``"k"`` is one of them, the
    default (None when not given) where it is not; None when ``node`` is no such call."""
    func = node.func
    if func.attr != "get" or node.keywords or not 1 <= len(node.args) <= 2:
        return None
    found = containers.container_of(frame, func.value)
    kind = found and containers.kind_of_operand(
        frame, ir.Ref(*found) if found[1] else ir.Var(found[0]))
    if not isinstance(kind, t.Dict) or is_record(kind):
        return None
    key = node.args[0]
    if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
        raise frame.error(UnsupportedSyntaxError, key, f"{ast.unparse(func)}() of a key "
                          "known only when the gradient runs is not supported",
                          f'read it by a string written out: {ast.unparse(func)}("k", default)')
    if key.value in dict(kind.items):
        read = ast.copy_location(ast.Subscript(func.value, key, ast.Load()), node)
        return frame.value(read, target)
    default = node.args[1] if len(node.args) == 2 else ast.Constant(None)
    if isinstance(default, ast.Constant) and not isinstance(default.value, (int, float)):
        return ir.Const(default.value)  # a flag's default, None: the constant it is
    return frame.value(default, target)
