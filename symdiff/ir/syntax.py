"""Small helpers over Python syntax trees shared by the passes that write code.

Expects Python syntax trees.  Guarantees nodes built as parsing their text would build
them (``function_def``, ``call``, ``attr``), a ``Comment`` statement that ``emit`` writes
as a comment line, traversals faster than ``ast.walk`` (``walk``, ``name_nodes``) and
copies (``clone``).  Here, below the stages, because the front end (a lambda read as a
``def``) and the back end both build trees with them; the derivative passes write IR.

    >>> ast.unparse(call("cos", load("x")))
    'cos(x)'
"""

import ast


COMMENT = "__symdiff_comment__"  # the name a comment's call reads, for ``ast.dump`` to show


class Comment(ast.Expr):
    """A comment line: ``# text`` in the emitted module.

    To the passes it is an expression statement (a call, so it stays where it is);
    ``emit`` writes it as a comment because of its class, never because of a name or of
    anything in printed text.  Its text is ``comment_text(stmt)``.
    """


_STATELESS = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def function_def(name, args, body):
    """A plain ``def``: no decorators, annotations or type parameters (a field from
    Python 3.12 on, set so the tree is the one parsing its text gives back)."""
    node = ast.FunctionDef(name=name, args=args, body=body, decorator_list=[], returns=None,
                           type_comment=None)
    if "type_params" in ast.FunctionDef._fields:
        node.type_params = []
    return node


def walk(node):
    """Every node of the tree under ``node`` (itself first), depth first in source order.

    ``ast.walk`` visits the same nodes breadth first, through two generators per node;
    this plain stack is nearly twice as fast.
    """
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        current = pop()
        yield current
        for name in reversed(current._fields):
            value = getattr(current, name, None)
            if value.__class__ is list:
                for item in reversed(value):
                    if isinstance(item, ast.AST):
                        push(item)
            elif isinstance(value, ast.AST):
                push(value)


def name_nodes(node):
    """Every ``ast.Name`` under ``node`` (itself included), in ``walk``'s order; faster
    than filtering ``walk``, as it steps over what cannot hold a name (contexts,
    operators, a name's own fields)."""
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        current = pop()
        fields = _CHILDREN.get(current.__class__)
        if fields is None:
            fields = _children(current.__class__)
        if fields is _IS_NAME:
            yield current
            continue
        for name in fields:
            value = getattr(current, name, None)
            if value.__class__ is list:
                for item in reversed(value):
                    if isinstance(item, ast.AST):
                        push(item)
            elif isinstance(value, ast.AST):
                push(value)


_CHILDREN = {}  # class -> its fields that may hold a name, last first (or _IS_NAME)
_IS_NAME = ("a name",)


def _children(kind):
    if issubclass(kind, ast.Name):
        fields = _IS_NAME
    else:
        fields = tuple(name for name in reversed(getattr(kind, "_fields", ()))
                       if name not in ("ctx", "op", "ops"))
    _CHILDREN[kind] = fields
    return fields


def statements(node):
    """Every statement under ``node`` (itself first, if one), depth first in source
    order, without entering an expression: no statement sits inside one."""
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        current = pop()
        if isinstance(current, ast.stmt):
            yield current
        for name in reversed(current._fields):
            value = getattr(current, name, None)
            if value.__class__ is list and value and isinstance(value[0], _HOLDERS):
                for item in reversed(value):
                    push(item)


_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case) if hasattr(ast, "match_case") else (
    ast.stmt, ast.excepthandler)  # what a list of statements, handlers or cases holds


def clone(node):
    """A deep copy of a syntax tree, much faster than ``copy.deepcopy``: the fields and
    location attributes a node has, nothing else; operator and context singletons, which
    hold no state, are shared."""
    kind = node.__class__
    if kind is ast.Name:
        return ast.Name(node.id, node.ctx)
    if kind is ast.Constant:
        return ast.Constant(node.value)
    if kind is list:
        return [clone(item) for item in node]
    layout = _LAYOUT.get(kind)
    if layout is None:
        layout = _layout(kind)
    if not layout:
        return node  # a plain value, or an operator singleton without state
    fields, attributes = layout
    old = node.__dict__
    copy = kind.__new__(kind)
    new = copy.__dict__
    for name in fields:
        value = old[name] if name in old else getattr(node, name, _MISSING)  # or its default
        if value is _MISSING:  # the constructor fills in what is missing (Python 3.13 on)
            return _construct(node, kind, fields, attributes)
        new[name] = value if value.__class__ in _PLAIN else clone(value)
    for name in attributes:
        value = old[name] if name in old else getattr(node, name, _MISSING)
        if value is not _MISSING:
            new[name] = value
    return copy


def _construct(node, kind, fields, attributes):
    copy = kind(**{name: clone(value) for name, value in ast.iter_fields(node)})
    for name in attributes:
        if hasattr(node, name):
            setattr(copy, name, getattr(node, name))
    return copy


_MISSING = object()
_PLAIN = frozenset((str, int, float, bool, type(None)))
_LAYOUT = {}  # class -> (its fields, its attributes), or () for what clone shares


def _layout(kind):
    shared = not issubclass(kind, ast.AST) or issubclass(kind, _STATELESS)
    layout = _LAYOUT[kind] = () if shared else (kind._fields, kind._attributes)
    return layout


def comment(text):
    return Comment(ast.Call(load(COMMENT), [ast.Constant(text)], []))


def comment_text(stmt):
    return stmt.value.args[0].value


LOAD = ast.Load()


def load(name):
    return ast.Name(name, LOAD)


def store(name):
    return ast.Name(name, ast.Store())


def attr(name, attr):
    return ast.Attribute(load(name), attr, ast.Load())


def call(func, *args):
    return ast.Call(load(func), list(args), [])


def call_method(obj, method, *args):
    return ast.Call(attr(obj, method), list(args), [])
