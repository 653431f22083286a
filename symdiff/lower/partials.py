"""Partials: ``functools.partial(f, a, k=v)`` of a function of the user's, written as the
lambda it stands for, which the rest of the pipeline reads as any lambda (passed to a
helper, or bound to a name and called).

Expects a function's tree and desugar's ``Hygiene`` scope.  Guarantees ``partials(tree,
scope)``: the tree (a copy, where anything changes) with each such call replaced by
``lambda p, q: f(a, p, q, k=v)``, whose parameters are those of ``f`` the partial leaves
open (the positional ones after those it gives, not named by its keywords).  A partial
evaluates what it binds when it is made; the lambda reads it when it is called, which is
the same value only where the names it binds are never assigned in the function, so
the rewrite is made only for arguments that are constants or such names; any other
partial is left as written, and ``lower`` refuses it where it stands.

    step = functools.partial(rhs, k=k)     ->   step = lambda x: rhs(x, k=k)
    euler(partial(rhs, 0.5), x0, 0.1, 3)   ->   euler(lambda x: rhs(0.5, x), x0, 0.1, 3)
"""

import ast
import copy
import functools
import inspect
import types

from symdiff.ir.syntax import walk
from symdiff.lower.hygiene import located


def partials(tree, scope):
    """``tree`` with its partials of the user's functions written as lambdas (see the
    module); ``tree`` itself when it has none."""
    assigned = {n.id for n in walk(tree) if isinstance(n, ast.Name) and not isinstance(
        n.ctx, ast.Load)}
    if not any(_opened(node, scope, assigned) for node in walk(tree)):
        return tree
    return _Partials(scope, assigned).visit(copy.deepcopy(tree))


def _opened(node, scope, assigned):
    """The parameters ``node``, a partial of a function of the user's, leaves open, or
    None for any other node (or a partial whose bound values may change)."""
    if not (isinstance(node, ast.Call) and node.args and scope.meaning(node.func) is (
            functools.partial)):
        return None
    fn = scope.meaning(node.args[0])
    if not isinstance(fn, types.FunctionType):
        return None
    bound = node.args[1:] + [k.value for k in node.keywords]
    if any(k.arg is None for k in node.keywords) or not all(
            isinstance(v, ast.Constant) or (isinstance(v, ast.Name) and v.id not in assigned)
            for v in bound):
        return None
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    named = {k.arg for k in node.keywords}
    return [p.name for p in params[len(node.args) - 1:] if p.name not in named]


class _Partials(ast.NodeTransformer):
    def __init__(self, scope, assigned):
        self.scope, self.assigned = scope, assigned

    def visit_Call(self, node):
        self.generic_visit(node)
        opened = _opened(node, self.scope, self.assigned)
        if opened is None:
            return node
        fresh = [self.scope.fresh(name) for name in opened]
        call = ast.Call(node.args[0], node.args[1:] + [ast.Name(n, ast.Load()) for n in fresh],
                        node.keywords)
        spec = ast.arguments([], [ast.arg(n) for n in fresh], None, [], [], None, [])
        return located(ast.Lambda(spec, call), node)
