"""Static rules: a file's derivative rules (``symdiff.defgrad``, ``@symdiff.custom_grad``),
read without running the file.

Expects a top-level statement of a file ``static`` is loading, and the namespace known so
far.  Guarantees that every rule written in one of these forms is given, with
``symdiff.defgrad``, to the function ``static`` defined:

    symdiff.defgrad(f, lambda x, out: ..., None, f_dy)    (or defgrad, or sd.defgrad)
    f = symdiff.defgrad(f, ...)
    @symdiff.custom_grad(lambda x, out: ..., ...)          on a top-level def

where each partial is ``None``, a ``lambda`` (made like a ``def``: its body never runs, its
defaults must be constants) or the name of a function already defined.  A rule that is
not written so, or whose partials read a name the file binds only by running, cannot be
known by reading: ``unreadable`` says why, and ``static`` then refuses the function it
was for (or, when even that is unknown, the whole file) with a located error that says
to pass ``--import``.  Nothing here is executed but the making of function objects.
"""

import ast
import builtins

from symdiff import markers


class Unreadable(Exception):
    """A rule that only running the module would give (``args[0]``: why)."""


def rule_calls(stmt, namespace):
    """The ``defgrad(...)`` call ``stmt`` makes (an expression or an assignment of it)."""
    value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    if isinstance(value, ast.Call) and resolve(value.func, namespace) is markers.defgrad:
        return value
    return None


def decorator_rules(stmt, namespace):
    """The ``custom_grad(...)`` decorator calls of a ``def``; Unreadable for any other
    decorator that mentions a rule."""
    found = []
    for decorator in stmt.decorator_list:
        if isinstance(decorator, ast.Call) and resolve(
                decorator.func, namespace) is markers.custom_grad:
            found.append(decorator)
        elif mentions_rule([decorator]):
            raise Unreadable(f"its decorator `@{ast.unparse(decorator)}` gives a derivative "
                             "rule in a form symdiff does not read")
    return found


def give(fn, arguments, namespace, path, constant):
    """``symdiff.defgrad(fn, *partials)`` with the partials read from ``arguments``.

    ``constant(node)`` raises when ``node`` is not a constant (for lambdas' defaults).
    """
    if any(isinstance(a, ast.Starred) for a in arguments):
        raise Unreadable("its partials are given with *")
    partials = [_partial(node, namespace, path, constant) for node in arguments]
    try:
        markers.defgrad(fn, *partials)
    except TypeError as exc:
        raise Unreadable(str(exc)) from None


def rule_target(call):
    """The name of the function a ``defgrad`` call gives a rule to, or None."""
    if call.args and isinstance(call.args[0], ast.Name):
        return call.args[0].id
    return None


def mentions_rule(nodes):
    for root in nodes:
        for node in ast.walk(root):
            name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
            if name in ("defgrad", "custom_grad"):
                return True
    return False


def resolve(node, namespace):
    """The object a name or a dotted name stands for in ``namespace``, or None."""
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        base = resolve(node.value, namespace)
        return None if base is None else getattr(base, node.attr, None)
    return None


def _partial(node, namespace, path, constant):
    if isinstance(node, ast.Constant) and node.value is None:
        return None
    if isinstance(node, ast.Name):
        found = namespace.get(node.id)
        if not callable(found):
            raise Unreadable(f"its partial {node.id} is not a function defined before it")
        return found
    if not isinstance(node, ast.Lambda):
        raise Unreadable(f"its partial `{ast.unparse(node)}` is neither None, a lambda nor "
                         "the name of a function")
    for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
        constant(default)  # raises Unreadable when it is not a constant
    expression = ast.Expression(node)
    function = eval(compile(expression, path, "eval"), namespace)  # makes it: no body runs
    missing = [name for name in _free_names(node)
               if name not in namespace and not hasattr(builtins, name)]
    if missing:
        raise Unreadable(f"its partial on line {node.lineno} reads {', '.join(missing)}, "
                         "which only running the module defines")
    return function


def _free_names(node):
    """The names a lambda reads that are not its own parameters (nor those of a lambda or
    the targets of a comprehension inside it), in order of first appearance."""
    bound = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.arguments):
            bound.update(a.arg for a in inner.posonlyargs + inner.args + inner.kwonlyargs)
            bound.update(a.arg for a in (inner.vararg, inner.kwarg) if a is not None)
        elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
            bound.add(inner.id)
    read = [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    return [name for name in dict.fromkeys(read) if name not in bound]
