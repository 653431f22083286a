"""Array spellings: the NumPy calls the generated text writes that numba does not
compile, each written as calls numba compiles that give the same values.

Expects the expressions of an ``ir.sweeps.Function`` and a ``numba_spellings._Spelling``
(the names numpy and the builtins are read by, and the function's ``types``: the ndim
of an array a name holds).  Guarantees ``ARRAY_SPELLINGS``: one function per construct,
each taking an expression and giving its spelling, or None where it is not the
construct or its axes are not known (the text is then left as it is, and numba's
refusal is located at the user's line by ``backend.jit``).  (The statements numba
lacks, ``np.add.at`` and ``np.pad``, are ``numba_statements``'.)

    np.sum(g, axis=1, keepdims=True)     np.expand_dims(np.sum(g, axis=1), 1)
    np.mean(A, axis=(0, 2))              np.sum(np.sum(A, axis=2), axis=0) / (A.shape[0] * A.shape[2])
    np.max(X, axis=1)               ─►   np.array([np.max(X[k]) for k in range(X.shape[0])])
    np.expand_dims(g, (0, 2))            np.expand_dims(np.expand_dims(g, 0), 2)
    np.concatenate([x, y], axis=1)       np.concatenate((x, y), axis=1)
    np.squeeze(C, axis=1)                C[:, 0]
    np.diff(X, axis=0)                   X[1:] - X[:-1]
    np.flip(g, 1)                        g[:, ::-1]

numba sums along an axis in order where NumPy sums a contiguous axis pairwise, so a sum
or a mean may differ from NumPy's in the last bits (a maximum, a minimum, a join and a
squeeze never do); a mean is NumPy's own formula, the sum divided by the count.
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw  # (``names_of``)
from symdiff.primitives.result_dtypes import REDUCTIONS



def numpy_call(node, names, functions):
    """The NumPy function of ``functions`` that ``node`` calls, or None."""
    if type(node) is ex.Call and type(node.func) is ex.Attribute and type(
            node.func.value) is ex.Name and node.func.value.id == names.numpy and (
                node.func.attr in functions):
        return node.func.attr
    return None


def ndim_of(node, names):
    """The ndim of the array a name holds, or None."""
    kind = (names.types or {}).get(node.id) if type(node) is ex.Name else None
    return kind.ndim if isinstance(kind, t.Array) else None


def constant_int(node):
    if type(node) is ex.Const and type(node.value) is int and node.text is None:
        return node.value
    if type(node) is ex.UnaryOp and node.op == "-" and constant_int(node.operand) is not None:
        return -constant_int(node.operand)
    return None


def axes_of(node, ndim):
    """The axes an ``axis=`` expression names, each in ``range(ndim)`` (ndim None: only
    axes written as non-negative), in increasing order; None where not constants."""
    if type(node) is ex.Const and type(node.value) is tuple:  # ``axis=(0, 2)``
        items = tuple(ex.Const(a) for a in node.value)
    else:
        items = node.elts if type(node) is ex.Tuple else (node,)
    axes = [constant_int(a) for a in items]
    if None in axes or (ndim is None and any(a < 0 for a in axes)):
        return None
    found = sorted(a % ndim if ndim is not None else a for a in axes)
    return found if len(set(found)) == len(found) else None


def reduced_along_axes(node, names):
    """``np.f(a, axis=..., keepdims=...)`` (``f`` a sum, mean, max, min or product) over
    constant axes: one axis at a time, the last first, then each axis put back where
    ``keepdims`` keeps it."""
    func = numpy_call(node, names, REDUCTIONS)
    if func is None or len(node.args) != 1:
        return None
    keywords = dict(node.keywords)
    axis, keepdims = keywords.pop("axis", None), keywords.pop("keepdims", ex.Const(False))
    if axis is None or type(keepdims) is not ex.Const or set(keywords) - {"dtype"} or (
            keywords and func != "sum"):
        return None
    array, ndim = node.args[0], ndim_of(node.args[0], names)
    axes = axes_of(axis, ndim)
    if axes is None or (func == "mean" and type(array) is not ex.Name):
        return None
    total = func if func not in ("mean",) else "sum"
    reduced = array
    for position, axis_index in enumerate(reversed(axes)):
        left = None if ndim is None else ndim - position
        reduced = _along_axis(total, reduced, axis_index, left, names, tuple(keywords.items()))
        if reduced is None:
            return None
    if func == "mean":
        reduced = ex.BinOp("/", reduced, _count(array, axes))
    for axis_index in axes if keepdims.value else ():
        reduced = names.np("expand_dims", reduced, ex.Const(axis_index))
    return reduced


def _along_axis(func, array, axis, ndim, names, keywords):
    """``func`` of ``array`` along ``axis`` (``ndim``: the array's, where known)."""
    if func == "sum":
        return names.np("sum", array, keywords=(("axis", ex.Const(axis)),) + keywords)
    if ndim == 1:
        return names.np(func, array)
    if ndim != 2 or type(array) is not ex.Name:
        return None
    k = fresh("k", {array.id})
    row = ex.Subscript(array, ex.Tuple((ex.Slice(), ex.Name(k)))) if axis == 0 else \
        ex.Subscript(array, ex.Name(k))  # a column or a row, the axis reduced
    other = ex.Subscript(ex.Attribute(array, "shape"), ex.Const(1 - axis))
    return names.np("array", ex.ListComp(names.np(func, row), k, ex.Call(
        ex.Name(names.builtin_name("range")), (other,), ())))


def _count(array, axes):
    """How many entries ``axes`` of ``array`` hold: ``A.shape[0] * A.shape[2]``."""
    found = None
    for axis in axes:
        size = ex.Subscript(ex.Attribute(array, "shape"), ex.Const(axis))
        found = size if found is None else ex.BinOp("*", found, size)
    return found


def joined_from_a_tuple(node, names):
    """``np.concatenate([a, b])``, ``np.stack([a, b])`` -> the same of ``(a, b)``: numba
    joins a tuple of arrays, not a list of them."""
    if numpy_call(node, names, ("concatenate", "stack", "hstack", "vstack")) is None or (
            not node.args or type(node.args[0]) is not ex.List):
        return None
    return ex.Call(node.func, (ex.Tuple(node.args[0].elts),) + node.args[1:], node.keywords)


def squeezed_axis(node, names):
    """``np.squeeze(C, axis=k)`` -> ``C[:, ..., 0]``: the entries at 0 of that axis (of size
    one, or NumPy's squeeze would raise), a view of ``C`` as NumPy's is."""
    if numpy_call(node, names, ("squeeze",)) is None or len(node.args) != 1:
        return None
    keywords = dict(node.keywords)
    axis = keywords.get("axis")
    if axis is None or len(keywords) != 1 or type(axis) is ex.Tuple:
        return None
    axes = axes_of(axis, ndim_of(node.args[0], names))
    if axes is None:
        return None
    index = (ex.Slice(),) * axes[0] + (ex.Const(0),)
    return ex.Subscript(node.args[0], index[0] if len(index) == 1 else ex.Tuple(index))


def expanded_one_axis_at_a_time(node, names):
    """``np.expand_dims(a, (0, 2))`` -> ``np.expand_dims(np.expand_dims(a, 0), 2)``: numba
    puts back one axis a call; the positions are the result's, put back in increasing
    order (only written as non-negative: a negative one counts from the result's end)."""
    if numpy_call(node, names, ("expand_dims",)) is None or len(node.args) != 2 or (
            node.keywords):
        return None
    axes = node.args[1]
    if not (type(axes) is ex.Tuple or type(axes) is ex.Const and type(axes.value) is tuple):
        return None
    found = axes_of(axes, None)
    if found is None:
        return None
    expanded = node.args[0]
    for axis in found:
        expanded = names.np("expand_dims", expanded, ex.Const(axis))
    return expanded


def names_of(function):
    """Every name ``function`` takes, binds or reads."""
    names = set(function.params) | set(function.kwonly) | {function.name}
    for stmt in sw.walk(function.body):
        names.update(sw.own_names(stmt))
        names.update(n.id for e in sw.evaluated(stmt) for n in ex.walk(e)
                     if type(n) is ex.Name)
        if type(stmt) is sw.For:
            names.add(stmt.target)
    return names


def _along(axis, part):
    """The index taking ``part`` (a slice) of ``axis`` and all of the axes before it."""
    index = (ex.Slice(),) * axis + (part,)
    return index[0] if len(index) == 1 else ex.Tuple(index)


def differences_along_an_axis(node, names):
    """``np.diff(a, axis=k)`` -> ``a[..., 1:] - a[..., :-1]`` along ``k``: NumPy's own
    formula (numba's ``np.diff`` takes no axis)."""
    if numpy_call(node, names, ("diff",)) is None or len(node.args) != 1 or type(
            node.args[0]) is not ex.Name:
        return None
    keywords = dict(node.keywords)
    if set(keywords) != {"axis"}:
        return None
    axes = axes_of(keywords["axis"], ndim_of(node.args[0], names))
    if axes is None or len(axes) != 1:
        return None
    array, one = node.args[0], ex.Const(1)
    return ex.BinOp("-", ex.Subscript(array, _along(axes[0], ex.Slice(one))),
                    ex.Subscript(array, _along(axes[0], ex.Slice(None, ex.UnaryOp("-", one)))))


def flipped_along_an_axis(node, names):
    """``np.flip(a, k)`` -> ``a[:, ::-1]`` (``k`` = 1): the same view of ``a`` (numba's
    ``np.flip`` takes no axis)."""
    if numpy_call(node, names, ("flip",)) is None or node.keywords or len(node.args) != 2:
        return None
    axes = axes_of(node.args[1], ndim_of(node.args[0], names))
    if axes is None or len(axes) != 1:
        return None
    backwards = ex.Slice(None, None, ex.UnaryOp("-", ex.Const(1)))
    return ex.Subscript(node.args[0], _along(axes[0], backwards))


def fresh(base, taken):
    """``base``, or ``base_1``, ``base_2``... the first that ``taken`` lacks."""
    name, n = base, 0
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name


ARRAY_SPELLINGS = (reduced_along_axes, expanded_one_axis_at_a_time, joined_from_a_tuple,
                   squeezed_axis, differences_along_an_axis, flipped_along_an_axis)

__all__ = ["ARRAY_SPELLINGS", "axes_of", "differences_along_an_axis", "flipped_along_an_axis", "expanded_one_axis_at_a_time", "fresh", "names_of",
           "numpy_call", "joined_from_a_tuple", "ndim_of",
           "reduced_along_axes", "squeezed_axis"]
