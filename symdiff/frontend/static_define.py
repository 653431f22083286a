"""Static define: a file's top-level functions made without running the file.

Expects one top-level ``def`` (or ``name = lambda ...``) of a file
``symdiff.frontend.static`` is loading, and the namespace known so far.  Guarantees
``define``: the function object, made by compiling and executing that statement alone
(without its annotations, and without decorators that leave what it computes alone:
caches, symdiff's own), so it has the file's real name and line numbers and its body
never runs; or None and why not (a default value that is not a constant, another
decorator, code that does not compile).  ``bound_names`` and ``global_declarations``
say which module-level names a statement skipped could bind.
"""

import ast
import copy

from symdiff.frontend import static_rules
from symdiff.frontend.static_values import NotConstant, constant_value


def define(stmt, module, name):
    """Execute one ``def``, or one ``name = lambda ...``, alone; ``(function, None)`` or
    ``(None, why not)``."""
    if isinstance(stmt, ast.AsyncFunctionDef):
        return None, None  # refused when asked for: no module run would help
    node = copy.deepcopy(stmt)
    if isinstance(node, ast.Assign):
        arguments = node.value.args
    else:
        for decorator in node.decorator_list:
            if not _transparent(decorator, module.namespace):
                return None, (f"it is decorated with @{ast.unparse(decorator)}, which only "
                              "running the module applies (the function it makes may not "
                              "compute what the def does)")
        node.decorator_list = []
        node.returns = None
        if hasattr(node, "type_params"):
            node.type_params = []
        arguments = node.args
    for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
        arg.annotation = None
    for arg in (arguments.vararg, arguments.kwarg):
        if arg is not None:
            arg.annotation = None
    for default in arguments.defaults + [d for d in arguments.kw_defaults if d is not None]:
        try:
            constant_value(default, module.namespace)  # checked here, so exec computes no more
        except NotConstant:
            return None, (f"the default value `{ast.unparse(default)}` (line {default.lineno}) "
                          "is not a constant")
    try:
        code = compile(ast.Module([node], type_ignores=[]), module.path, "exec")
    except SyntaxError as exc:
        return None, f"it does not compile ({exc.msg})"
    scope = module.namespace
    before = scope.get(name, _MISSING)
    exec(code, scope)  # makes the function object: the body does not run
    function = scope[name]
    if before is _MISSING:
        del scope[name]
    else:
        scope[name] = before
    return function, None


_MISSING = object()
_CACHES = ("functools.lru_cache", "lru_cache", "functools.cache", "cache")


def _transparent(decorator, namespace):
    """Whether the function a decorator makes computes what the ``def`` does: a cache
    (``functools.lru_cache``, ``functools.cache``), symdiff's own (``@symdiff.grad``: the
    command differentiates the function itself, as with --import, and ``custom_grad``,
    whose rule is read)."""
    callee = decorator.func if isinstance(decorator, ast.Call) else decorator
    if ast.unparse(callee) in _CACHES:
        return True
    found = static_rules.resolve(callee, namespace)
    return (getattr(found, "__module__", None) or "").partition(".")[0] == "symdiff"


def global_declarations(tree):
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found.extend((name, node.lineno) for name in node.names)
    return found


def bound_names(stmt):
    """Every module-level name ``stmt`` could bind, erring on the side of more.

    Function and class bodies are not entered: their names are their own.
    """
    found = []
    stack = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.append(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append(node.name)
            continue
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.extend((a.asname or a.name).split(".")[0] for a in node.names
                         if a.name != "*")
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.append(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            found.append(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            found.append(node.rest)
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return list(dict.fromkeys(found))
