"""Index tricks: ``np.r_[...]`` and ``np.c_[...]`` as the joins they stand for.

Expects a function's tree and desugar's ``Hygiene`` scope.  Guarantees
``index_tricks(tree, scope)``: the tree (a copy, where anything changes) with each
``np.r_[a, b, ...]`` (``np`` any name the function reads NumPy by) written as the
concatenation NumPy computes for it, each part made an array of at least one axis and
the parts joined along the first axis, and each ``np.c_[a, b, ...]`` as
``np.column_stack`` of its parts (vectors as columns, matrices as they are, joined along
the second axis, which is what ``c_`` computes for parts of one or two axes):

    np.r_[0.0, np.cumsum(x)]   ->   np.concatenate((np.array([0.0]),
                                                    np.atleast_1d(np.cumsum(x))))
    np.c_[x, y]                ->   np.column_stack((x, y))

Each part is then read as any argument of those records is (``column_stack`` takes
parts of one number of axes: a matrix beside a vector is refused there, located).  A slice among the parts
(``np.r_[0:5]``, a range) or a string (``np.r_['0,2', a, b]``, a directive) is a located
``UnsupportedSyntaxError`` with a hint.
"""

import ast
import copy
import sys

from symdiff.ir.syntax import walk
from symdiff.lower.hygiene import located

__all__ = ["index_tricks"]


def index_tricks(tree, scope):
    """``tree`` with its ``np.r_[...]`` and ``np.c_[...]`` written as joins (see the
    module); ``tree`` itself when it has none."""
    numpy = sys.modules.get("numpy")
    if numpy is None or not any(_trick(node, scope, numpy) for node in walk(tree)):
        return tree
    return _Tricks(scope, numpy).visit(copy.deepcopy(tree))


def _trick(node, scope, numpy):
    """``"r_"`` or ``"c_"`` for a subscript of NumPy's ``r_`` or ``c_`` read through
    the module (``np.r_``), else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
            and node.value.attr in ("r_", "c_") and isinstance(node.ctx, ast.Load)):
        return None
    return node.value.attr if scope.meaning(node.value.value) is numpy else None


class _Tricks(ast.NodeTransformer):
    def __init__(self, scope, numpy):
        self.scope, self.numpy = scope, numpy

    def visit_Subscript(self, node):
        self.generic_visit(node)
        which = _trick(node, self.scope, self.numpy)
        if which is None:
            return node
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in parts:
            if isinstance(part, ast.Slice) or isinstance(part, ast.Constant) and isinstance(
                    part.value, str):
                what = "a range" if isinstance(part, ast.Slice) else "a directive"
                raise self.scope.error(part, f"np.{which}[...] with {what} in it is not "
                                       "read", "join the arrays with np.concatenate "
                                       "(np.arange for a range), or np.stack along an axis")
        module = node.value.value

        def numpy_call(name, *args):
            return located(ast.Call(located(ast.Attribute(copy.deepcopy(module), name,
                                                          ast.Load()), node), list(args), []),
                           node)
        if which == "c_":
            return numpy_call("column_stack", located(ast.Tuple(list(parts), ast.Load()), node))
        made = [numpy_call("array", located(ast.List([part], ast.Load()), part)) if (
            isinstance(part, ast.Constant)) else numpy_call("atleast_1d", part) for part in parts]
        return numpy_call("concatenate", located(ast.Tuple(made, ast.Load()), node))
