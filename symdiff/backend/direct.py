"""Print a simple statement straight from its tree, parentheses placed by precedence.

Expects a Python syntax tree of a simple statement (or the test or range of a branch
or loop) from ``to_python``.  Guarantees, for the statements and expressions it reads,
the very text ``printer`` gets from astor or ``ast.unparse`` followed by
``minimal_parentheses``: the same spelling (``a + b``, ``f(a, k=v)``, ``x[i, j]``,
strings by ``repr``), and a pair of parentheses exactly where taking it out would
change the tree, decided from the operators' precedence instead of by re-parsing.
Anything else (an f-string, a lambda, a starred value, a number that is negative,
infinite or complex, a one-element tuple, a slice with a step...) gives None, and the
printer prints that statement the long way.  The tests compare the two on every known
function and on random trees.

    BinOp(Pow, UnaryOp(USub, x), y)   ──►   (-x) ** y
    Return(Tuple([a, b]))             ──►   return a, b
"""

import ast
import math

# How tightly each kind of expression binds, loosest first (Python's grammar).
TUPLE, IFEXP, OR, AND, NOT, COMPARE = 1, 3, 4, 5, 6, 7
BITOR, BITXOR, BITAND, SHIFT, ARITH, TERM, UNARY, POWER, ATOM = 8, 9, 10, 11, 12, 13, 14, 15, 16

_BINARY = {ast.Add: (" + ", ARITH), ast.Sub: (" - ", ARITH), ast.Mult: (" * ", TERM),
           ast.Div: (" / ", TERM), ast.FloorDiv: (" // ", TERM), ast.Mod: (" % ", TERM),
           ast.MatMult: (" @ ", TERM), ast.Pow: (" ** ", POWER),
           ast.LShift: (" << ", SHIFT), ast.RShift: (" >> ", SHIFT),
           ast.BitOr: (" | ", BITOR), ast.BitXor: (" ^ ", BITXOR), ast.BitAnd: (" & ", BITAND)}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not "}
_COMPARE = {ast.Lt: " < ", ast.LtE: " <= ", ast.Gt: " > ", ast.GtE: " >= ", ast.Eq: " == ",
            ast.NotEq: " != ", ast.Is: " is ", ast.IsNot: " is not ", ast.In: " in ",
            ast.NotIn: " not in "}
_BOOL = {ast.And: (" and ", AND), ast.Or: (" or ", OR)}


class Unsupported(Exception):
    """A node this printer does not write: the statement is printed the long way."""


def statement_text(stmt):
    """The one-line text of the simple statement ``stmt``, or None (see the docstring)."""
    try:
        return _statement(stmt)
    except Unsupported:
        return None


def header_text(stmt):
    """``for t in e:``, ``while e:``, ``if e:`` (without the colon's block), or None."""
    try:
        kind = type(stmt)
        if kind is ast.If or kind is ast.While:
            return ("if " if kind is ast.If else "while ") + _top(stmt.test, IFEXP) + ":"
        if kind is ast.For and not stmt.orelse:
            return f"for {_targets(stmt.target)} in {_top(stmt.iter, IFEXP)}:"
    except Unsupported:
        pass
    return None


def _statement(stmt):
    kind = type(stmt)
    if kind is ast.Assign:
        return " = ".join([_targets(t) for t in stmt.targets] + [_value(stmt.value)])
    if kind is ast.AugAssign:
        symbol = _BINARY.get(type(stmt.op))
        if symbol is None or type(stmt.target) not in (ast.Name, ast.Attribute, ast.Subscript):
            raise Unsupported
        return f"{_expr(stmt.target, ATOM)} {symbol[0].strip()}= {_value(stmt.value)}"
    if kind is ast.Return:
        return "return" if stmt.value is None else "return " + _value(stmt.value)
    if kind is ast.Expr:
        return _value(stmt.value)
    if kind is ast.Pass:
        return "pass"
    if kind is ast.Break:
        return "break"
    if kind is ast.Continue:
        return "continue"
    if kind is ast.Raise:
        if stmt.exc is None:
            raise Unsupported
        text = "raise " + _top(stmt.exc, IFEXP)
        return text if stmt.cause is None else text + " from " + _top(stmt.cause, IFEXP)
    if kind is ast.Assert:
        text = "assert " + _top(stmt.test, IFEXP)
        return text if stmt.msg is None else text + ", " + _top(stmt.msg, IFEXP)
    raise Unsupported


def _value(node):
    """A statement's value: a tuple of two or more items needs no parentheses there."""
    if type(node) is ast.Tuple and len(node.elts) > 1:
        return _items(node.elts)
    return _expr(node, IFEXP)


def _targets(node):
    """An assignment's (or loop's) target: a name, an element, a tuple of those."""
    if type(node) is ast.Tuple and len(node.elts) > 1:
        return ", ".join(_target(e) for e in node.elts)
    return _target(node)


def _target(node):
    if type(node) not in (ast.Name, ast.Attribute, ast.Subscript):
        raise Unsupported
    return _expr(node, ATOM)


def _top(node, level):
    """An expression standing where any expression but a bare tuple may (a test)."""
    if type(node) is ast.Tuple:
        raise Unsupported  # ``if (a, b):``, ``for x in (a, b):``: not what generated code holds
    return _expr(node, level)


def _items(nodes):
    return ", ".join(_expr(n, IFEXP) for n in nodes)


def _expr(node, level):
    """``node``'s text where an expression binding at least as tightly as ``level`` stands
    without parentheses."""
    text, binds = _bare(node)
    return text if binds >= level else f"({text})"


def _bare(node):
    """``(text, how tightly it binds)`` of ``node`` without parentheses around it."""
    kind = type(node)
    if kind is ast.Name:
        return node.id, ATOM
    if kind is ast.Constant:
        return _constant(node.value), ATOM
    if kind is ast.BinOp:
        symbol, binds = _BINARY[type(node.op)]
        if binds == POWER:  # right-associative; a unary operand on the right binds fine
            return _expr(node.left, ATOM) + symbol + _expr(node.right, UNARY), POWER
        return _expr(node.left, binds) + symbol + _expr(node.right, binds + 1), binds
    if kind is ast.UnaryOp:
        symbol = _UNARY[type(node.op)]
        if symbol == "not ":
            return symbol + _expr(node.operand, NOT), NOT
        return symbol + _expr(node.operand, UNARY), UNARY
    if kind is ast.Call:
        return _call(node), ATOM
    if kind is ast.Attribute:
        value = node.value
        if type(value) is ast.Constant and not isinstance(value.value, str):
            raise Unsupported  # ``(1).real``
        return f"{_expr(value, ATOM)}.{node.attr}", ATOM
    if kind is ast.Subscript:
        return f"{_expr(node.value, ATOM)}[{_index(node.slice)}]", ATOM
    if kind is ast.Compare:
        parts = [_expr(node.left, COMPARE + 1)]
        for op, right in zip(node.ops, node.comparators):
            parts += [_COMPARE[type(op)], _expr(right, COMPARE + 1)]
        return "".join(parts), COMPARE
    if kind is ast.BoolOp:
        symbol, binds = _BOOL[type(node.op)]
        return symbol.join(_expr(v, binds + 1) for v in node.values), binds
    if kind is ast.IfExp:
        return (f"{_expr(node.body, IFEXP + 1)} if {_expr(node.test, IFEXP + 1)} else "
                f"{_expr(node.orelse, IFEXP)}"), IFEXP
    if kind is ast.Tuple:
        if len(node.elts) < 2:
            raise Unsupported  # ``()`` and ``(a,)``: the long way
        return _items(node.elts), TUPLE
    if kind is ast.List:
        return f"[{_items(node.elts)}]", ATOM
    raise Unsupported


def _call(node):
    args = [_expr(a, IFEXP) for a in node.args]
    for keyword in node.keywords:
        if keyword.arg is None:
            raise Unsupported  # ``**kwargs``
        args.append(f"{keyword.arg}={_expr(keyword.value, IFEXP)}")
    return f"{_expr(node.func, ATOM)}({', '.join(args)})"


def _index(node):
    """What stands between a subscript's brackets: a tuple bare, a plain slice."""
    kind = type(node)
    if kind is ast.Tuple and len(node.elts) > 1:
        return ", ".join(_slice_or_item(e) for e in node.elts)
    return _slice_or_item(node)


def _slice_or_item(node):
    if type(node) is ast.Slice:
        if node.step is not None:
            raise Unsupported
        return f"{_bound(node.lower)}:{_bound(node.upper)}"
    if type(node) is ast.Tuple:
        raise Unsupported
    return _expr(node, IFEXP)


def _bound(node):
    """A slice's bound: a conditional one is written the long way."""
    if node is None:
        return ""
    text, binds = _bare(node)
    if binds < OR:
        raise Unsupported
    return text


def _constant(value):
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return repr(value)
    if kind is int and value >= 0:
        return repr(value)
    if kind is float and value >= 0 and math.isfinite(value) and not (
            value == 0 and math.copysign(1.0, value) < 0):
        return repr(value)
    raise Unsupported  # a negative, infinite or complex number, bytes, ``...``
