"""``np.take(x, indices, axis=a)``: an indexed read of ``x`` along one axis, which it is.

Expects a call of NumPy's ``take`` in a function that computes with arrays.
Guarantees ``as_index``: the same read written as indexing (its records, its reverse
sweep an indexed add, ``np.add.at`` where an index may repeat), with ``axis`` a constant
int or None (the flattened array, as NumPy takes it); a located error otherwise (a
``mode=`` other than NumPy's default, which raises on an index out of range as
indexing does).

    np.take(x, idx)            ->  np.ravel(x)[idx]
    np.take(X, idx, axis=1)    ->  X[:, idx]
    np.take(X, idx, axis=-1)   ->  X[..., idx]
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.lower.statics import constant_int


def as_index(frame, node, shown):
    """The indexing ``node``, a call of ``np.take``, is (see the module)."""
    named = dict(zip(("a", "indices", "axis", "out", "mode"), node.args))
    named.update((k.arg, k.value) for k in node.keywords)
    if set(named) - {"a", "indices", "axis"} or not {"a", "indices"} <= set(named):
        raise frame.error(UnsupportedSyntaxError, node, f"{shown} takes an array, its "
                          "indices and an axis here", "leave out= and mode= out, or index: "
                          "x[idx]")
    axis = named.get("axis")
    at = None if axis is None or isinstance(axis, ast.Constant) and axis.value is None else (
        constant_int(axis))
    if axis is not None and at is None and not (isinstance(axis, ast.Constant)
                                                 and axis.value is None):
        raise frame.error(UnsupportedSyntaxError, axis, f"{shown} takes axis as a constant "
                          "int or None here", "write the axis out: axis=1")
    x, indices = named["a"], named["indices"]
    if at is None:  # ``np.ravel(x)``, by the name the call reached NumPy's take by
        ravel = ast.Attribute(node.func.value, "ravel", ast.Load()) if isinstance(
            node.func, ast.Attribute) else None
        x = ast.Call(ravel, [x], []) if ravel is not None else ast.Call(
            ast.Attribute(x, "ravel", ast.Load()), [], [])
        index = indices
    elif at >= 0:
        index = ast.Tuple([ast.Slice() for _ in range(at)] + [indices], ast.Load()) if at else (
            indices)
    else:
        index = ast.Tuple([ast.Constant(Ellipsis)] + [ast.Slice() for _ in range(-at - 1)]
                          + [indices], ast.Load())
    return ast.copy_location(ast.Subscript(x, index, ast.Load()), node)
