"""Small helpers over Python syntax trees shared by the passes that write code.

Expects Python syntax trees (and, for ``operand_node``, an operand of the IR).  Guarantees
nodes built as parsing their text would build them (``function_def``), a ``Comment``
statement that ``emit`` writes as a comment line, traversals faster than ``ast.walk``
(``walk``, ``name_nodes``), copies (``clone``) and the few arithmetic shapes the
derivative passes write (``times``, ``negate``).  Here, below every stage, because the
front end (a lambda read as a ``def``), the derivative passes and the back end all build
trees with them.

    >>> ast.unparse(times(load("g"), call("cos", load("x"))))
    'g * cos(x)'
"""

import ast

from symdiff.ir.operands import Var

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


class Transformer:
    """``ast.NodeTransformer``'s contract (``visit_<Class>`` methods, ``generic_visit``,
    a returned None deletes, a returned list splices), at a fraction of its cost: the
    method for each class is looked up once, a list is rebuilt only where an item
    changed, and operator and context singletons, which hold nothing, are not visited."""

    _methods = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._methods = {}

    def visit(self, node):
        methods = self._methods
        kind = node.__class__
        method = methods.get(kind)
        if method is None:
            method = methods[kind] = getattr(type(self), "visit_" + kind.__name__,
                                             type(self).generic_visit)
        return method(self, node)

    def generic_visit(self, node):
        values = node.__dict__
        for name in node._fields:
            old = values.get(name)
            if old.__class__ is list:
                self._visit_list(old)
            elif isinstance(old, ast.AST) and not isinstance(old, _STATELESS):
                new = self.visit(old)
                if new is None:
                    delattr(node, name)
                elif new is not old:
                    setattr(node, name, new)
        return node

    def _visit_list(self, items):
        rebuilt = None
        for i, item in enumerate(items):
            new = self.visit(item) if isinstance(item, ast.AST) else item
            if rebuilt is None:
                if new is item:
                    continue
                rebuilt = items[:i]
            if new is None:
                continue
            if isinstance(new, ast.AST) or not isinstance(item, ast.AST):
                rebuilt.append(new)
            else:
                rebuilt.extend(new)
        if rebuilt is not None:
            items[:] = rebuilt


class Substitute(Transformer):
    """Replace placeholder names; replacements are shared, as no pass edits an expression."""

    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        replacement = self.names.get(node.id)
        return replacement if replacement is not None else node


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


def call_stmt(func, name):
    return ast.Expr(call(func, load(name)))


def assign(name, value):
    return ast.Assign([store(name)], value, None)


def increment(name):
    return ast.AugAssign(store(name), ast.Add(), ast.Constant(1))


def operand_node(operand, program):
    if isinstance(operand, Var):
        return load(operand.name)
    if operand.text:
        return ast.parse(operand.text, mode="eval").body
    value = operand.value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (
            value < 0 or (value == 0 and str(value).startswith("-"))):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)


def is_one(node):
    return isinstance(node, ast.Constant) and node.value == 1 and not isinstance(node.value, bool)


def is_minus_one(node):
    return (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and is_one(node.operand))


def negate(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return node.operand
    return ast.UnaryOp(ast.USub(), node)


def times(left, right):
    """``left * right``; ``left / b`` for ``right = 1.0 / b`` (one division, not two
    operations, and rounded once)."""
    if (isinstance(right, ast.BinOp) and isinstance(right.op, ast.Div) and is_one(right.left)
            and isinstance(right.left.value, float)):
        return ast.BinOp(left, ast.Div(), right.right)
    return ast.BinOp(left, ast.Mult(), right)


