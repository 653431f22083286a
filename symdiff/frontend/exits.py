"""Static questions about a user's statements, asked by the fence, ``resolve``,
``desugar`` and the lowering units: where can control leave a block (``return``,
``break``, ``continue``), which names does a statement assign, and the walks of its
nodes these ask (``code_nodes``: the fence's, with positions).  Pure functions over
the syntax tree; no recursion into nested loops where a ``break`` would belong to them.
"""

import ast

_LOOPS = (ast.For, ast.While)
_FUNCTIONS = (ast.FunctionDef, ast.Lambda)  # a nested function's body is its own


def own_nodes(node):
    """Every node below ``node`` (itself included) outside nested function bodies."""
    stack = [node]
    while stack:
        sub = stack.pop()
        yield sub
        if isinstance(sub, _FUNCTIONS) and sub is not node:
            continue
        stack.extend(child_nodes(sub))


def child_nodes(node):
    """``list(ast.iter_child_nodes(node))``, in its order, read without its two generators
    per node (the front end asks it of every node of the user's function several times)."""
    children = []
    for name in node._fields:
        value = getattr(node, name, None)
        if value.__class__ is list:
            children.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            children.append(value)
    return children


def contains(stmts, *kinds, into_loops=True):
    """Whether a node of one of ``kinds`` occurs in ``stmts``.

    With ``into_loops=False``, nested loops are not searched (a ``break`` there
    leaves the nested loop, not this one).
    """
    statements = all(issubclass(kind, ast.stmt) for kind in kinds)
    stack = list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        if not into_loops and isinstance(node, _LOOPS) or isinstance(node, _FUNCTIONS):
            continue
        if statements:  # no statement stands inside an expression: step over them
            stack.extend(statement_parts(node))
        else:
            stack.extend(child_nodes(node))
    return False


_PARTS = (ast.stmt, ast.excepthandler, ast.match_case)  # what a statement's blocks hold


def statement_parts(node):
    """The children of ``node`` that are or hold statements (its blocks' statements, an
    ``except`` clause, a ``case``), in ``ast.iter_child_nodes``' order: a search for a
    kind of statement needs no other (an expression holds no statement)."""
    return [child for child in child_nodes(node) if isinstance(child, _PARTS)]


def always_exits(stmts):
    """Whether every path through ``stmts`` ends in return, break, continue or raise."""
    for node in stmts:
        if isinstance(node, (ast.Return, ast.Break, ast.Continue, ast.Raise)):
            return True
        if isinstance(node, ast.If) and always_exits(node.body) and always_exits(node.orelse):
            return True
    return False


def direct_exits(stmt):
    """The exits ``stmt`` may take out of the block it stands in."""
    kinds = []
    if contains([stmt], ast.Return):
        kinds.append("return")
    loop_free = stmt.body if isinstance(stmt, _LOOPS) else [stmt]
    if not isinstance(stmt, _LOOPS):
        if contains(loop_free, ast.Break, into_loops=False):
            kinds.append("break")
        if contains(loop_free, ast.Continue, into_loops=False):
            kinds.append("continue")
    return kinds


def assigned_user_names(node, index=None):
    """User names assigned anywhere inside ``node`` (not in nested functions), in
    first-seen order (``index``: the ``NodeIndex`` of ``node``, when at hand)."""
    names = []
    for sub in own_nodes(node) if index is None else index.own:
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.append(sub.id)
    return list(dict.fromkeys(names))


def code_nodes(tree):
    """Every node of a function's code (what the fence checks), parents first, without
    recursion; with each, the nearest node that has a position (an operator has none: its
    expression's is used)."""
    stack = [(tree, tree)]
    pop, push = stack.pop, stack.append
    while stack:
        node, where = pop()
        where = node if hasattr(node, "lineno") else where
        yield node, where
        code = _CODE_CHILDREN.get(node.__class__)
        if code is not None:
            for child in reversed(code(node)):
                push((child, where))
            continue
        for name in reversed(node._fields):  # ``child_nodes``, read here last first
            value = getattr(node, name, None)
            if value.__class__ is list:
                for item in reversed(value):
                    if isinstance(item, ast.AST):
                        push((item, where))
            elif isinstance(value, ast.AST):
                push((value, where))


_CODE_CHILDREN = {  # the nodes whose children are not all code, and those that are
    ast.FunctionDef: lambda n: [n.args] + n.body,  # decorators, annotations, returns: not code
    ast.Lambda: lambda n: [n.args, n.body],
    ast.arg: lambda n: [],  # its annotation is not code either
    # a handler's body: ``fence_handler``, where it can run
    ast.ExceptHandler: lambda n: [] if n.type is None else [n.type],
    ast.AnnAssign: lambda n: [n.target] + ([n.value] if n.value is not None else []),
}
