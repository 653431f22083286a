"""The node index of a user's function: its syntax tree walked once, read by every
question the front end asks of the whole function.

Expects a function's syntax tree that nothing changes while the index is in use (the
front end reads trees, it does not edit them: a pass that rewrites one makes a new
tree, with an index of its own).  Guarantees, from one traversal:

- ``nodes``: every node (the function itself first), depth first in source order, as
  ``ir.syntax.walk`` yields them;
- ``own``: the nodes outside nested function bodies (a nested ``def`` or ``lambda``
  itself included), in ``frontend.exits.own_nodes``' order (the last child first);
- ``of(*kinds)``: the nodes of those classes, in ``nodes``' order, listed once per
  question; ``breadth_first(*kinds)``: the same nodes in ``ast.walk``'s order.

``ParsedFunction.index`` keeps the index of a parsed tree, so the fence, the resolver,
desugaring and the lowering walk it once between them instead of once each.

    >>> tree = ast.parse("def f(x):\\n    g = lambda t: t * x\\n    return g(x)").body[0]
    >>> [type(n).__name__ for n in NodeIndex(tree).of(ast.Lambda, ast.Return)]
    ['Lambda', 'Return']
    >>> [n.id for n in NodeIndex(tree).own if isinstance(n, ast.Name)]
    ['x', 'g', 'g']
"""

import ast

__all__ = ["NodeIndex"]

_FUNCTIONS = (ast.FunctionDef, ast.Lambda)  # a nested function's body is its own


class NodeIndex:
    """Every node of one function's tree, in the orders the front end reads them."""

    def __init__(self, tree):
        self.tree = tree
        self.nodes, self.depths, self.own = _traverse(tree)
        self._kinds = {}  # a tuple of classes -> the nodes of those classes

    def of(self, *kinds):
        """The nodes of ``kinds`` (classes), in source order."""
        found = self._kinds.get(kinds)
        if found is None:
            found = self._kinds[kinds] = [n for n in self.nodes if isinstance(n, kinds)]
        return found

    def breadth_first(self, *kinds):
        """The nodes of ``kinds`` in ``ast.walk``'s order: by depth, and at one depth in
        source order (a tree's breadth-first order)."""
        depth = dict(zip(map(id, self.nodes), self.depths))
        return sorted(self.of(*kinds), key=lambda n: depth[id(n)])


def _traverse(tree):
    """``(nodes, their depths, own nodes)`` of ``tree``, in one walk without recursion.

    Each node is met twice, on the way down (its place in ``nodes``) and on the way
    back up: the reverse of that second order, the children last first, is
    ``own_nodes``' order.
    """
    nodes, depths, finished = [], [], []
    stack = [(tree, 0, False, False)]  # (node, depth, in a nested body, on the way up)
    pop, push = stack.pop, stack.append
    while stack:
        node, depth, nested, up = pop()
        if up:
            if not nested:
                finished.append(node)
            continue
        nodes.append(node)
        depths.append(depth)
        push((node, depth, nested, True))
        inner = nested or (node is not tree and isinstance(node, _FUNCTIONS))
        for name in reversed(node._fields):
            value = getattr(node, name, None)
            if value.__class__ is list:
                for item in reversed(value):
                    if isinstance(item, ast.AST):
                        push((item, depth + 1, inner, False))
            elif isinstance(value, ast.AST):
                push((value, depth + 1, inner, False))
    finished.reverse()
    return nodes, depths, finished
