"""IR expressions: the values a statement computes, as plain frozen data.

The IR holds no Python syntax trees.  An expression is one of the classes below,
immutable and hashable (so two equal expressions are one key for reuse), with
operators named by their Python spelling (``"+"``, ``"<="``, ``"not"``, ``"and"``).
``from_ast`` reads the subset of Python expressions symdiff keeps, and ``to_ast``
writes one back for the back end; anything else is an ``InternalError``, never a
silent approximation.

    >>> import ast
    >>> e = from_ast(ast.parse("x_1 <= 0.0 or not math.isfinite(y)", mode="eval").body)
    >>> e
    BoolOp(op='or', values=(Compare(left=Name(id='x_1'), ops=('<=',), comparators=(Const(value=0.0, text=None),)), UnaryOp(op='not', operand=Call(func=Attribute(value=Name(id='math'), attr='isfinite'), args=(Name(id='y'),), keywords=()))))
    >>> names(e)
    ['x_1', 'math', 'y']
    >>> ast.unparse(to_ast(e))
    'x_1 <= 0.0 or not math.isfinite(y)'
"""

import ast
from dataclasses import dataclass

from symdiff.errors import InternalError


@dataclass(frozen=True)
class Name:
    id: str


@dataclass(frozen=True)
class Const:
    value: object
    text: str = None  # how the user wrote it, when that reads better (``math.pi``)


@dataclass(frozen=True)
class Attribute:
    value: object
    attr: str


@dataclass(frozen=True)
class BinOp:
    op: str
    left: object
    right: object


@dataclass(frozen=True)
class UnaryOp:
    op: str
    operand: object


@dataclass(frozen=True)
class BoolOp:
    op: str  # "and" | "or"
    values: tuple


@dataclass(frozen=True)
class Compare:
    left: object
    ops: tuple
    comparators: tuple


@dataclass(frozen=True)
class Call:
    func: object
    args: tuple = ()
    keywords: tuple = ()  # (name, value) pairs


@dataclass(frozen=True)
class Subscript:
    value: object
    index: object


@dataclass(frozen=True)
class Slice:
    lower: object = None
    upper: object = None
    step: object = None


@dataclass(frozen=True)
class IfExp:
    test: object
    body: object
    orelse: object


@dataclass(frozen=True)
class Tuple:
    elts: tuple


@dataclass(frozen=True)
class List:
    elts: tuple


@dataclass(frozen=True)
class Dict:
    keys: tuple  # expressions (constants)
    values: tuple


def literal(value):
    """The expression that writes ``value`` out: a number, a string, None or a bool, or a
    tuple, list or dict of them (a default the generated signature keeps); a negative
    number as the negation of a positive one (never a negative constant).

        >>> ast.unparse(to_ast(literal([1.0, -2.0])))
        '[1.0, -2.0]'
    """
    if type(value) in (list, tuple):
        return (List if type(value) is list else Tuple)(tuple(literal(v) for v in value))
    if type(value) is dict:
        return Dict(tuple(Const(k) for k in value), tuple(literal(v) for v in value.values()))
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (
            value < 0 or (value == 0 and str(value).startswith("-"))):
        return UnaryOp("-", Const(-value))
    return Const(value)


@dataclass(frozen=True)
class ListComp:
    """``[elt for target in iter]``: one loop, no filter (what zeros of a nested
    container are written with)."""

    elt: object
    target: str
    iter: object


@dataclass(frozen=True)
class FString:
    """An f-string: its parts are ``str`` pieces and ``Formatted`` values, in order."""

    parts: tuple


@dataclass(frozen=True)
class Formatted:
    value: object
    conversion: int = -1  # -1, or ord("r"), ord("s"), ord("a")
    spec: object = None  # an FString, or None


BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
          ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>",
          ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&"}
UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not", ast.Invert: "~"}
COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
           ast.GtE: ">=", ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
BOOL = {ast.And: "and", ast.Or: "or"}
_AST = {text: kind for table in (BINARY, COMPARE, BOOL) for kind, text in table.items()}
_UNARY_AST = {text: kind for kind, text in UNARY.items()}


def from_ast(node):
    """The IR expression of a Python expression tree (which it does not change)."""
    reader = _READERS.get(type(node))
    if reader is None:
        raise InternalError("ir", f"no IR expression for a {type(node).__name__}")
    return reader(node)


def _each(nodes):
    return tuple(from_ast(n) for n in nodes)


def _optional(node):
    return None if node is None else from_ast(node)


def _formatted(node):
    spec = None if node.format_spec is None else from_ast(node.format_spec)
    return Formatted(from_ast(node.value), node.conversion, spec)


def _fstring(node):
    return FString(tuple(v.value if isinstance(v, ast.Constant) else _formatted(v)
                         for v in node.values))


def _call(node):
    if any(k.arg is None for k in node.keywords):
        raise InternalError("ir", "no IR expression for a call with **keywords")
    return Call(from_ast(node.func), _each(node.args),
                tuple((k.arg, from_ast(k.value)) for k in node.keywords))


_READERS = {
    ast.Name: lambda n: Name(n.id),
    ast.Constant: lambda n: Const(n.value),
    ast.Attribute: lambda n: Attribute(from_ast(n.value), n.attr),
    ast.BinOp: lambda n: BinOp(BINARY[type(n.op)], from_ast(n.left), from_ast(n.right)),
    ast.UnaryOp: lambda n: UnaryOp(UNARY[type(n.op)], from_ast(n.operand)),
    ast.BoolOp: lambda n: BoolOp(BOOL[type(n.op)], _each(n.values)),
    ast.Compare: lambda n: Compare(from_ast(n.left), tuple(COMPARE[type(o)] for o in n.ops),
                                   _each(n.comparators)),
    ast.Call: _call,
    ast.Subscript: lambda n: Subscript(from_ast(n.value), from_ast(n.slice)),
    ast.Slice: lambda n: Slice(_optional(n.lower), _optional(n.upper), _optional(n.step)),
    ast.IfExp: lambda n: IfExp(from_ast(n.test), from_ast(n.body), from_ast(n.orelse)),
    ast.Tuple: lambda n: Tuple(_each(n.elts)),
    ast.List: lambda n: List(_each(n.elts)),
    ast.Dict: lambda n: Dict(_each(n.keys), _each(n.values)),
    ast.ListComp: lambda n: _listcomp(n),
    ast.JoinedStr: _fstring,
    ast.FormattedValue: lambda n: FString((_formatted(n),)),
}


def _listcomp(node):
    loop = node.generators[0]
    if len(node.generators) != 1 or loop.ifs or not isinstance(loop.target, ast.Name):
        raise InternalError("ir", "no IR expression for a comprehension of several loops")
    return ListComp(from_ast(node.elt), loop.target.id, from_ast(loop.iter))


def to_ast(expr):
    """A fresh Python expression tree of an IR expression (locations left unset)."""
    writer = _WRITERS.get(type(expr))
    if writer is None:
        raise InternalError("ir", f"no Python expression for {expr!r}")
    return writer(expr)


def _load(name):
    return ast.Name(id=name, ctx=ast.Load())


def _const(expr):
    if expr.text is not None:  # ``math.pi``: a dotted name
        head, *rest = expr.text.split(".")
        node = _load(head)
        for attr in rest:
            node = ast.Attribute(value=node, attr=attr, ctx=ast.Load())
        return node
    if type(expr.value) is tuple:  # ``axis=(0, 2)``, ``axes=((0, 1), (1, 0))``
        return ast.Tuple(elts=[_const(Const(v)) for v in expr.value], ctx=ast.Load())
    return ast.Constant(value=expr.value)


def _write_formatted(part):
    spec = None if part.spec is None else to_ast(part.spec)
    return ast.FormattedValue(value=to_ast(part.value), conversion=part.conversion,
                              format_spec=spec)


_WRITERS = {
    Name: lambda e: _load(e.id),
    Const: _const,
    Attribute: lambda e: ast.Attribute(value=to_ast(e.value), attr=e.attr, ctx=ast.Load()),
    BinOp: lambda e: ast.BinOp(left=to_ast(e.left), op=_AST[e.op](), right=to_ast(e.right)),
    UnaryOp: lambda e: ast.UnaryOp(op=_UNARY_AST[e.op](), operand=to_ast(e.operand)),
    BoolOp: lambda e: ast.BoolOp(op=_AST[e.op](), values=[to_ast(v) for v in e.values]),
    Compare: lambda e: ast.Compare(left=to_ast(e.left), ops=[_AST[o]() for o in e.ops],
                                   comparators=[to_ast(c) for c in e.comparators]),
    Call: lambda e: ast.Call(func=to_ast(e.func), args=[to_ast(a) for a in e.args],
                             keywords=[ast.keyword(arg=k, value=to_ast(v))
                                       for k, v in e.keywords]),
    Subscript: lambda e: ast.Subscript(value=to_ast(e.value), slice=to_ast(e.index),
                                       ctx=ast.Load()),
    Slice: lambda e: ast.Slice(*(None if p is None else to_ast(p)
                                 for p in (e.lower, e.upper, e.step))),
    IfExp: lambda e: ast.IfExp(test=to_ast(e.test), body=to_ast(e.body),
                               orelse=to_ast(e.orelse)),
    Tuple: lambda e: ast.Tuple(elts=[to_ast(x) for x in e.elts], ctx=ast.Load()),
    List: lambda e: ast.List(elts=[to_ast(x) for x in e.elts], ctx=ast.Load()),
    Dict: lambda e: ast.Dict(keys=[to_ast(k) for k in e.keys],
                             values=[to_ast(v) for v in e.values]),
    ListComp: lambda e: ast.ListComp(elt=to_ast(e.elt), generators=[ast.comprehension(
        target=ast.Name(id=e.target, ctx=ast.Store()), iter=to_ast(e.iter), ifs=[],
        is_async=0)]),
    FString: lambda e: ast.JoinedStr(values=[ast.Constant(value=p) if isinstance(p, str)
                                             else _write_formatted(p) for p in e.parts]),
}


def children(expr):
    """The expressions directly inside ``expr``, in evaluation order."""
    direct = _DIRECT_CHILDREN.get(type(expr))  # the kinds most expressions are made of
    if direct is not None:
        return direct(expr)
    if isinstance(expr, (Name, Const)):
        return ()
    if isinstance(expr, Attribute):
        return (expr.value,)
    if isinstance(expr, BinOp):
        return (expr.left, expr.right)
    if isinstance(expr, UnaryOp):
        return (expr.operand,)
    if isinstance(expr, BoolOp):
        return expr.values
    if isinstance(expr, Compare):
        return (expr.left,) + expr.comparators
    if isinstance(expr, Call):
        return (expr.func,) + expr.args + tuple(v for _, v in expr.keywords)
    if isinstance(expr, Subscript):
        return (expr.value, expr.index)
    if isinstance(expr, Slice):
        return tuple(p for p in (expr.lower, expr.upper, expr.step) if p is not None)
    if isinstance(expr, IfExp):
        return (expr.test, expr.body, expr.orelse)
    if isinstance(expr, (Tuple, List)):
        return expr.elts
    if isinstance(expr, Dict):
        return tuple(x for pair in zip(expr.keys, expr.values) for x in pair)
    if isinstance(expr, ListComp):
        return (expr.iter, expr.elt)
    if isinstance(expr, FString):
        return tuple(p for p in expr.parts if not isinstance(p, str))
    if isinstance(expr, Formatted):
        return (expr.value,) + (() if expr.spec is None else (expr.spec,))
    raise InternalError("ir", f"not an IR expression: {expr!r}")


_DIRECT_CHILDREN = {
    Name: lambda e: (), Const: lambda e: (),
    BinOp: lambda e: (e.left, e.right),
    UnaryOp: lambda e: (e.operand,),
    Attribute: lambda e: (e.value,),
    Subscript: lambda e: (e.value, e.index),
    Call: lambda e: (e.func,) + e.args + tuple(v for _, v in e.keywords) if e.keywords else (
        (e.func,) + e.args),
}


def walk(expr):
    """``expr`` and every expression inside it, in evaluation order (parents first)."""
    stack = [expr]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        yield node
        inner = children(node)
        if inner:
            push(reversed(inner))


def names(expr):
    """The names ``expr`` reads, once each, in the order it first reads them."""
    return list(dict.fromkeys(name_ids(expr)))


def name_ids(expr, found=None):
    """The name of every ``Name`` in ``expr``, once per occurrence, in ``walk``'s order
    (a list; ``found``: one to append them to).  The same as reading them off ``walk``,
    without a generator: the kinds most expressions are made of are taken here."""
    if found is None:
        found = []
    kind = type(expr)
    if kind is Name:
        found.append(expr.id)
    elif kind is BinOp:
        name_ids(expr.left, found)
        name_ids(expr.right, found)
    elif kind is not Const:
        for inner in children(expr):
            name_ids(inner, found)
    return found


def of_operand(operand):
    """The IR expression reading an operand of a statement (an ``ir.nodes`` ``Var`` or
    ``Const``)."""
    name = getattr(operand, "name", None)
    if name is not None:
        return Name(name)
    return Const(operand.value, operand.text)
