"""Reading: what lowering reads off one function's syntax tree, once per build.

Expects the (fenced, desugared) tree of the differentiated function, of a helper it
calls or of a function defined inside it.  Guarantees a ``Reading`` of facts that
depend on the tree alone: its local names, the parameters it reads as tables, the
user names it assigns, whether it returns a value, and (when first asked) the syntax
parent of each node.  A ``Unit`` keeps one per tree, so a helper inlined at 200 call
sites is walked once, not 200 times; the facts are the same at every call site
because the tree is.

    def sq(t, T):              Reading(locals=('t', 'T'), params=('t', 'T'),
        t = t * T[0]    ──►            tables=frozenset({'T'}), assigned=frozenset({'t'}),
        return t                       gives_value=True)
"""

import ast
from dataclasses import dataclass, field

from symdiff.frontend.resolve import local_names, parameter_names
from symdiff.frontend.exits import assigned_user_names
from symdiff.frontend.index import NodeIndex
from symdiff.lower.tables import table_uses


@dataclass(eq=False)
class Reading:
    """The facts of one function's tree (see the module)."""

    tree: ast.FunctionDef
    locals: tuple  # ``resolve.local_names``: parameters first, in order
    params: tuple  # the parameters, in order: the positional ones, then the keyword-only
    positional: int  # how many of ``params`` a call may pass by position
    tables: frozenset  # ``tables.table_uses``: names indexed, measured or looped over
    assigned: frozenset  # user names assigned anywhere in the body
    gives_value: bool  # some ``return`` of its own gives a value
    _parents: dict = field(default=None, repr=False)

    def parent(self, node):
        """The syntax node holding ``node`` in the tree (None for the root)."""
        if self._parents is None:
            self._parents = {id(child): parent for parent in ast.walk(self.tree)
                             for child in ast.iter_child_nodes(parent)}
        return self._parents.get(id(node))


def read_tree(tree, index=None):
    """The ``Reading`` of ``tree`` (``index``: its ``NodeIndex``, when at hand: the tree
    is walked once for all the questions)."""
    index = NodeIndex(tree) if index is None else index
    args = tree.args
    return Reading(
        tree=tree, locals=tuple(local_names(tree, index)),
        params=tuple(parameter_names(tree)), positional=len(args.posonlyargs + args.args),
        tables=frozenset(table_uses(tree, index)),
        assigned=frozenset(assigned_user_names(tree, index)),
        gives_value=any(isinstance(n, ast.Return) and n.value is not None for n in index.own))
