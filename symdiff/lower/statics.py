"""The parameters of an array operation that a call must give as constants: an axis,
a tuple of axes, ``keepdims``, an einsum's subscripts (``registry.array_statics``).

Expects the call's operands (``ir`` operands, in the record's parameter order) and,
for ``constant_axes``, the syntax of one argument.  Guarantees ``check_statics``, a
located ``UnsupportedSyntaxError`` where a parameter is not a constant it takes, and
``constant_axes``: the tuple of ints an argument writes (``axis=(0, -1)``), which
lowering passes as one constant.

    np.sum(x, axis=(0, 2))     ->  array_sum(x, (0, 2), False)
    np.sum(x, axis=k)          ->  UnsupportedSyntaxError: np.sum takes axis as a constant here
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.primitives.registry import array_statics


_SORTS = ("quicksort", "mergesort", "heapsort", "stable")  # NumPy's sorts' kind=
STATIC = {"axis": (lambda v: v is None or type(v) is int, "an int or None"),
          "axes": (lambda v: v is None or type(v) is int or _axes(v),
                   "an int, a tuple of distinct ints or None"),
          "int": (lambda v: type(v) is int, "an int"),
          "counts": (lambda v: type(v) is int and v >= 0 or type(v) is tuple and len(v) > 0 and (
              all(type(n) is int and n >= 0 for n in v)), "an int or a tuple of ints, >= 0"),
          "contraction": (lambda v: type(v) is int and v >= 0 or type(v) is tuple and len(
              v) == 2 and all(type(s) is int or _ints(s) for s in v),
                          "an int >= 0, or a pair of axes of each: ([1], [0])"),
          "bool": (lambda v: type(v) is bool, "True or False"),
          "none": (lambda v: v is None, "None only"),
          "order": (lambda v: v is None or v in ("fro", "nuc") or v == 2 and type(v) is int,
                    "None, 2, 'fro' or 'nuc'"),
          "one": (lambda v: v == 1 and type(v) is int, "1 only"),
          "str": (lambda v: isinstance(v, str), "a string"),
          "fraction": (lambda v: type(v) in (int, float) and 0 <= v <= 1, "a number from 0 to 1"),
          "percent": (lambda v: type(v) in (int, float) and 0 <= v <= 100,
                      "a number from 0 to 100"),
          "mode": (lambda v: v in ("full", "valid", "same"), "'full', 'valid' or 'same'"),
          "indexing": (lambda v: v in ("xy", "ij"), "'xy' or 'ij'"),
          "qr_mode": (lambda v: v == "reduced", "'reduced' only (NumPy's default: 'complete' "
                      "adds columns to Q that no function of the matrix fixes; of a square "
                      "matrix the two are the same, so leave mode out)"),
          "method": (lambda v: v in ("linear", "lower", "higher"),
                     "'linear', 'lower' or 'higher'"),
          "kind": (lambda v: v is None or v in _SORTS, "None or one of " + ", ".join(
              map(repr, _SORTS)))}


def _axes(value):
    return type(value) is tuple and len(value) > 0 and all(type(v) is int for v in value) and (
        len(set(value)) == len(value))


def constant_axes(node):
    """The tuple of ints ``node`` writes (``axis=(0, 2)``), or None."""
    if not isinstance(node, ast.Tuple):
        return None
    values = [constant_int(e) for e in node.elts]
    return tuple(values) if values and all(type(v) is int for v in values) else None


def _ints(value):
    return type(value) is tuple and all(type(v) is int for v in value)


def constant_contraction(node):
    """The axes ``numpy.tensordot``'s ``axes=`` writes: an int, or the pair of the axes
    of each operand (a list or tuple of ints, an int for one: ``([1], [0])`` is
    ``(1, 0)``); None for any other."""
    count = constant_int(node)
    if count is not None:
        return count
    if not isinstance(node, (ast.Tuple, ast.List)) or len(node.elts) != 2:
        return None
    sides = []
    for side in node.elts:
        one = constant_int(side)
        if one is None and isinstance(side, (ast.Tuple, ast.List)) and side.elts:
            values = tuple(constant_int(e) for e in side.elts)
            one = None if None in values else values[0] if len(values) == 1 else values
        if one is None:
            return None
        sides.append(one)
    return tuple(sides)


def constant_int(node):
    """The int ``node`` writes (``2``, ``-1``), or None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = constant_int(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def check_statics(frame, op, rule, args, node, shown):
    """A located error where a parameter of the array operation ``op`` that must be a
    constant (``array_statics``: an axis, ``keepdims``) is not one it takes."""
    for param, kind in array_statics(op).items():
        value = args[rule.params.index(param)]
        accepts, what = STATIC[kind]
        if not (isinstance(value, ir.Const) and value.text is None):
            raise frame.error(UnsupportedSyntaxError, node,
                              f"{shown} takes {param} as a constant here",
                              f"write {param}= as {what}, in the call")
        if not accepts(value.value):
            raise frame.error(UnsupportedSyntaxError, node,
                              f"{shown} with {param}={value.value!r} is not supported",
                              f"{param} takes {what}")
