"""Statement spellings: the NumPy statements and calls of the generated text that numba
does not compile and that no expression of what it compiles replaces, written as
statements numba compiles that give the same values.

Expects the body of an ``ir.sweeps.Function`` (a copy: it is changed in place), a
``numba_spellings._Spelling`` (numpy's name, the function's ``types``) and the names
the function uses.  Guarantees ``scattered_adds``: each ``np.add.at`` by an integer
index array of one axis (or a tuple of them) a loop adding the values one at a time, in
the index's order, as ``np.add.at`` does; and ``pads_filled``: each ``np.pad`` of zeros
(NumPy's default) an array of zeros made before the statement, the padded array
written into its middle; where an index or a pad is of another form it is left as it
is, and numba's refusal is located at the user's line (``backend.jit``).

    np.add.at(dx, idx, 2 * x_idx)          dx_values = 2 * x_idx
                                           for k in range(idx.shape[0]):
                                               dx[idx[k]] += dx_values[k]
                                     ─►
    dx = np.pad(g, (1, 0)) - h             padded = np.zeros((g.shape[0] + 1,), g.dtype)
                                           padded[1:1 + g.shape[0]] = g
                                           dx = padded - h
"""

from symdiff.backend.numba_arrays import fresh, ndim_of, numpy_call
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize import walk


def scattered_adds(function, names, taken):
    """``function``'s body (in place: a copy's) with each ``np.add.at(d, idx, v)`` whose
    index is an integer array of one axis (or a tuple of them) written as the loop that
    adds the values one at a time, in the order of the index, as ``np.add.at`` does (a
    repeated position gets each of its values):

        np.add.at(dx, idx, 2 * x_idx)      dx_values = 2 * x_idx
                                     ─►    for k in range(idx.shape[0]):
                                               dx[idx[k]] += dx_values[k]

    ``taken``: the names the function uses (the new ones are named apart from them)."""
    _each_statement(function.body, lambda s: _scattered(s, names, taken) if type(
        s) is sw.Do else None)


def _each_statement(block, rewrite):
    """``block`` (and the blocks in it) with each statement ``rewrite`` gives a list for
    replaced by that list."""
    position = 0
    while position < len(block):
        stmt = block[position]
        for inner in sw.blocks(stmt):
            _each_statement(inner, rewrite)
        written = rewrite(stmt)
        if written is not None:
            block[position:position + 1] = written
            position += len(written) - 1
        position += 1


def _scattered(stmt, names, taken):
    node = stmt.value
    if type(node) is not ex.Call or node.keywords or len(node.args) != 3 or not (
            type(node.func) is ex.Attribute and node.func.attr == "at" and numpy_call(
                ex.Call(node.func.value, (), ()), names, ("add",))):
        return None
    target, index, values = node.args
    parts = index.elts if type(index) is ex.Tuple else (index,)
    if type(target) is not ex.Name or not all(_positions(p, names) for p in parts):
        return None
    k = fresh("k", taken)
    taken.add(k)
    before = []
    if type(values) is not ex.Name:
        held = fresh(f"{target.id}_values", taken)
        taken.add(held)
        before, values = [sw.Let(held, values)], ex.Name(held)
    place = tuple(ex.Subscript(p, ex.Name(k)) for p in parts)
    add = sw.AddTo(ex.Subscript(target, place[0] if len(place) == 1 else ex.Tuple(place)),
                   ex.Subscript(values, ex.Name(k)), owned=True)
    length = ex.Subscript(ex.Attribute(parts[0], "shape"), ex.Const(0))
    return before + [sw.For(k, (length,), [add])]


def _positions(node, names):
    """Whether ``node`` is a name holding an integer array of one axis."""
    kind = (names.types or {}).get(node.id) if type(node) is ex.Name else None
    return isinstance(kind, t.Array) and kind.ndim == 1 and kind.dtype.startswith(
        ("int", "uint"))



def pads_filled(function, names, taken):
    """``function``'s body (in place: a copy's) with each ``np.pad`` of zeros made by the
    statements before the one that reads it (not inside a branch of an expression, a
    ``b if c else d``, where it may not run)."""
    _each_statement(function.body, lambda s: _pads_before(s, names, taken))


_SIMPLE = (sw.Let, sw.AddTo, sw.Return, sw.Do)
_CONDITIONAL = (ex.IfExp, ex.BoolOp, ex.ListComp)


def _pads_before(stmt, names, taken):
    if type(stmt) not in _SIMPLE or stmt.value is None or not any(
            numpy_call(n, names, ("pad",)) for n in ex.walk(stmt.value)):
        return None
    if any(numpy_call(m, names, ("pad",)) for n in ex.walk(stmt.value)
           if type(n) in _CONDITIONAL for m in ex.walk(n)):
        return None
    before = []

    def filled(node):
        if numpy_call(node, names, ("pad",)) is None:
            return node
        made = _filled(node, names, taken)
        if made is None:
            return node
        before.extend(made[:-1])
        return made[-1]

    value = walk.transform(stmt.value, filled)
    if not before:
        return None
    stmt.value = value
    return before + [stmt]


def _filled(node, names, taken):
    """The statements making ``np.pad(array, widths)`` and the name holding it, or None
    where the widths or the mode are not known here."""
    if len(node.args) != 2 or node.keywords:  # (NumPy's default: zeros around)
        return None
    array, widths = node.args
    ndim = ndim_of(array, names)
    widths = _pairs(widths, ndim)
    if widths is None:
        return None
    made = []
    if type(array) is not ex.Name:
        held = fresh("pad_values", taken)
        taken.add(held)
        made.append(sw.Let(held, array))
        array = ex.Name(held)
    padded = fresh("padded", taken)
    taken.add(padded)
    sizes = [ex.Subscript(ex.Attribute(array, "shape"), ex.Const(i)) for i in range(len(widths))]
    shape = ex.Tuple(tuple(_plus(_plus(size, b), a) for size, (b, a) in zip(sizes, widths)))
    made.append(sw.Let(padded, names.np("zeros", shape, ex.Attribute(array, "dtype"))))
    middle = tuple(ex.Slice() if _is_zero(b) and _is_zero(a) else ex.Slice(
        None if _is_zero(b) else b, _plus(b, size)) for size, (b, a) in zip(sizes, widths))
    made.append(sw.Let(ex.Subscript(ex.Name(padded), middle[0] if len(middle) == 1 else
                                    ex.Tuple(middle)), array))
    return made + [ex.Name(padded)]


def _pairs(widths, ndim):
    """``((before, after), ...)`` one pair per axis, from ``(b, a)`` (every axis alike, so
    ``ndim`` must be known but for one axis) or a pair per axis; None otherwise."""
    items = _items(widths)
    if items is None:
        return None
    if len(items) == 2 and all(_items(i) is None for i in items):
        count = ndim if ndim is not None else None
        return None if count is None else [tuple(items)] * count
    pairs = [_items(i) for i in items]
    if any(p is None or len(p) != 2 for p in pairs) or (ndim is not None and len(
            pairs) != ndim):
        return None
    return [tuple(p) for p in pairs]


def _items(node):
    """The elements of a tuple written out or held as a constant, or None."""
    if type(node) is ex.Tuple:
        return list(node.elts)
    if type(node) is ex.Const and type(node.value) is tuple:
        return [ex.Const(v) if type(v) is not tuple else ex.Const(v) for v in node.value]
    return None


def _plus(left, right):
    if _is_zero(left):
        return right
    return left if _is_zero(right) else ex.BinOp("+", left, right)


def _is_zero(node):
    return type(node) is ex.Const and type(node.value) is int and node.value == 0


__all__ = ["pads_filled", "scattered_adds"]
