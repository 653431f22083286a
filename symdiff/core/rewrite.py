"""IR expressions rewritten and read in Python's order: substitution of names, and the
order ``ast.walk`` would meet the names of the Python expression an IR one stands for.

Expects ``core.expr`` expressions.  Guarantees new frozen expressions (an input is never
changed; parts with nothing replaced are shared) and plain lists of names.  Used by the
primitives' templates (a rule's text parsed once, instantiated per statement by
``substitute``) and by AD, which orders the values it saves as the Python text reads.

    >>> from symdiff.core.expr import BinOp, Call, Const, Name
    >>> substitute(BinOp("*", Name("g"), Name("x")), {"x": Const(2.0)})
    BinOp(op='*', left=Name(id='g'), right=Const(value=2.0, text=None))
    >>> breadth_first_names(BinOp("*", Call(Name("f"), (Name("x"),)), Name("y")))
    ['y', 'f', 'x']
"""

from dataclasses import dataclass

from symdiff.core.expr import (
    Attribute,
    BinOp,
    BoolOp,
    Call,
    Compare,
    Const,
    Dict,
    Formatted,
    FString,
    IfExp,
    List,
    ListComp,
    Name,
    Slice,
    Subscript,
    Tuple,
    UnaryOp,
    children,
)

def substitute(expr, names):
    """``expr`` with each ``Name`` whose id is a key of ``names`` replaced by its value
    (the replacements themselves are not entered)."""
    kind = expr.__class__
    if kind is Name:
        return names.get(expr.id, expr)
    if kind is Const:
        return expr
    return _SUBSTITUTE[kind](expr, names)


def _each_substituted(items, names):
    return tuple(substitute(item, names) for item in items)


def _optional_substituted(expr, names):
    return None if expr is None else substitute(expr, names)


def _substituted_part(part, names):
    return part if isinstance(part, str) else substitute(part, names)


_SUBSTITUTE = {
    Attribute: lambda e, n: Attribute(substitute(e.value, n), e.attr),
    BinOp: lambda e, n: BinOp(e.op, substitute(e.left, n), substitute(e.right, n)),
    UnaryOp: lambda e, n: UnaryOp(e.op, substitute(e.operand, n)),
    BoolOp: lambda e, n: BoolOp(e.op, _each_substituted(e.values, n)),
    Compare: lambda e, n: Compare(substitute(e.left, n), e.ops,
                                  _each_substituted(e.comparators, n)),
    Call: lambda e, n: Call(substitute(e.func, n), _each_substituted(e.args, n),
                            tuple((k, substitute(v, n)) for k, v in e.keywords)),
    Subscript: lambda e, n: Subscript(substitute(e.value, n), substitute(e.index, n)),
    Slice: lambda e, n: Slice(*(_optional_substituted(p, n)
                                for p in (e.lower, e.upper, e.step))),
    IfExp: lambda e, n: IfExp(substitute(e.test, n), substitute(e.body, n),
                              substitute(e.orelse, n)),
    Tuple: lambda e, n: Tuple(_each_substituted(e.elts, n)),
    List: lambda e, n: List(_each_substituted(e.elts, n)),
    Dict: lambda e, n: Dict(_each_substituted(e.keys, n), _each_substituted(e.values, n)),
    ListComp: lambda e, n: ListComp(substitute(e.elt, n), e.target, substitute(e.iter, n)),
    FString: lambda e, n: FString(tuple(_substituted_part(p, n) for p in e.parts)),
    Formatted: lambda e, n: Formatted(substitute(e.value, n), e.conversion,
                                      _optional_substituted(e.spec, n)),
}


def python_children(node):
    """The expressions directly inside ``node`` in the order of the fields of the
    Python node it stands for (a dict's keys before its values; a call's keyword value
    inside a ``Between``, one level down, as ``ast.keyword`` holds it; a comprehension's
    target and iterable alike)."""
    kind = node.__class__
    if kind is Between:
        return node.parts
    if kind is Call:
        return (node.func,) + node.args + tuple(Between((v,)) for _, v in node.keywords)
    if kind is Dict:
        return node.keys + node.values
    if kind is ListComp:  # its ``ast.comprehension``: the target, then what it runs over
        return (node.elt, Between((Name(node.target), node.iter)))
    return children(node)


def breadth_first_names(expr, children=None):
    """The ids of the names ``expr`` reads, in the order ``ast.walk`` meets them in the
    Python expression it stands for (breadth first, in ``python_children`` order),
    repeats kept.  ``expr`` may be a list of roots, walked as one level; ``children``,
    when given, says the parts of a node that is no expression (a statement's)."""
    found = []
    level = list(expr) if isinstance(expr, list) else [expr]
    while level:
        below = []
        for node in level:
            if node.__class__ is Name:
                found.append(node.id)
            else:
                parts = None if children is None else children(node)
                below += python_children(node) if parts is None else parts
        level = below
    return found


@dataclass(frozen=True)
class Between:
    """A Python node with no expression of its own between an expression and the parts
    it holds (an ``ast.keyword``, an ``ast.comprehension``): for ordering only."""

    parts: tuple
