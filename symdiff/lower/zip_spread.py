"""Zip spread: ``zip(*pairs)`` looped over, its sequences written out by the kinds.

Expects a call a ``for`` loop (or a comprehension, once ``comprehensions`` made it a
loop) runs over, and the ``Hygiene`` of the function desugared, whose ``kinds`` give
its container parameters' types.  Guarantees ``spread_zip``: the call itself, or, for
a ``zip`` one of whose arguments is ``*p``, the same call with ``*p`` written as
``p[0], p[1], ...``, where ``p`` is a parameter the function never binds again and the
kinds give a tuple (its length is part of its kind), so ``iteration`` reads a zip of
sequences as any.  ``*p`` of anything else (a list, whose length is read only when the
gradient runs; a name the function binds) is a located ``UnsupportedSyntaxError`` with
a hint.  (``xs, ys = zip(*pairs)`` unpacked, which lowering reads with the kinds of
every name, is ``transpose``'s.)

    def f(pairs):                        for x, y in zip(pairs[0], pairs[1]):
        for x, y in zip(*pairs):    ->       ...          (pairs: a tuple of two)
"""

import ast
import builtins

from symdiff.core import types as t
from symdiff.lower.hygiene import located


def spread_zip(node, scope):
    """``node`` with the ``*p`` of its ``zip`` written out (see the module)."""
    if not (isinstance(node, ast.Call) and scope.meaning(node.func) is builtins.zip and any(
            isinstance(a, ast.Starred) for a in node.args)):
        return node
    args = []
    for arg in node.args:
        args += _elements(arg, scope) if isinstance(arg, ast.Starred) else [arg]
    return located(ast.Call(node.func, args, node.keywords), node)


def _elements(starred, scope):
    value = starred.value
    kind = getattr(scope, "kinds", {}).get(value.id) if isinstance(value, ast.Name) and not _bound(
        value.id, scope) else None
    if isinstance(kind, t.Tuple):
        return [located(ast.Subscript(located(ast.Name(value.id, ast.Load()), value),
                                      located(ast.Constant(i), value), ast.Load()), value)
                for i in range(len(kind.elts))]
    shown = ast.unparse(value)
    why = ("a list, whose length is known only when the gradient runs" if isinstance(
        kind, t.List) else "not a tuple parameter, whose length its kind gives")
    raise scope.error(starred, f"zip(*{shown}) is looped over, and {shown} is {why}",
                      f"pass {shown} as a tuple parameter, or zip its parts by name: "
                      f"zip({shown}[0], {shown}[1])")


def _bound(name, scope):
    """Whether the function binds ``name`` anywhere (a parameter given a new value)."""
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
               for n in ast.walk(scope.tree))
