"""Shapes and indexing on ArrayValues: reads and writes by index, ``reshape``, ``ravel``,
``expand_dims``, ``squeeze``, ``broadcast_to``, ``concatenate``, ``stack``, ``vstack``,
``hstack``, ``array``/``asarray`` of Values, ``where``, ``clip``, ``diff``, ``take``,
``take_along_axis``,
``copy``, ``astype``, ``item`` and the ``*_like`` constants.

Expects ArrayValues, Values and data mixed.  Guarantees NumPy's values and the VJPs
written here.  A read ``x[key]`` (ints, slices with steps, None, ``...``, integer arrays,
boolean masks) has the VJP that adds ``g`` back at the positions read, with
``numpy.add.at`` where an index array may repeat one; a write ``x[key] = v`` gives ``x``
a new node (copy semantics): the old value's VJP is ``g`` with the written positions
zeroed, ``v``'s is ``g[key]`` summed back to ``v``'s shape.

    x[:, 0]           g into column 0 of zeros
    x[[0, 0, 2]]      np.add.at(zeros, [0, 0, 2], g): row 0 gets two rows of g
    np.stack([a, b])  a gets g[0], b gets g[1]
"""

import numbers

from symdiff.witnesses.tape.array_ufuncs import ufunc_table
from symdiff.witnesses.tape.arrays import (
    OFFERED,
    ArrayValue,
    Node,
    Pullback,
    is_tape,
    lift,
    numpy,
    offer,
    record,
    unbroadcast,
)
from symdiff.witnesses.tape.value import Value


def _index_data(key):
    """``key`` with the numbers of tape values (an ArrayValue of indices or a mask)."""
    if isinstance(key, tuple):
        return tuple(_index_data(k) for k in key)
    return key.data if isinstance(key, ArrayValue) else key


def _basic(key):
    """Whether ``key`` is basic indexing: no position can be read twice."""
    parts = key if isinstance(key, tuple) else (key,)
    return all(isinstance(k, (numbers.Integral, slice)) and not isinstance(k, bool)
               or k is None or k is Ellipsis for k in parts)


def _scatter(np, shape, key, g):
    """Zeros of ``shape`` with ``g`` added at ``key``."""
    out = np.zeros(shape)
    if _basic(key):
        out[key] = g
    else:
        np.add.at(out, key, g)
    return out


def getitem(x, key):
    np = numpy()
    data, node = lift(x)
    key = _index_data(key)
    y = data[key]
    if node is None:
        return y
    return record(y, (node, lambda g: _scatter(np, data.shape, key, g)))


def setitem(x, key, value):
    """The node of ``x`` after ``x[key] = value``."""
    np = numpy()
    data, node = lift(x)
    vdata, vnode = lift(value)
    key = _index_data(key)
    new = data.copy()
    new[key] = vdata
    edges = (node, Pullback(lambda g: _zeroed(np, g, key)))
    if vnode is not None:
        edges += (vnode, Pullback(lambda g: unbroadcast(np.asarray(g)[key],
                                                        np.shape(vdata))))
    return Node(new, edges)


def add_at(x, key, value):
    """The node of ``x`` after ``numpy.add.at(x, key, value)``: ``value`` added at
    ``key``, again at each repeat.  ``x``'s adjoint is ``g`` whole; ``value``'s is ``g``
    read at ``key`` (a repeated place read each time), summed back to its shape."""
    np = numpy()
    data, node = lift(x)
    vdata, vnode = lift(value)
    key = _index_data(key)
    new = np.array(data, dtype=float)
    np.add.at(new, key, vdata)
    edges = (node, Pullback(lambda g: g))
    if vnode is not None:
        edges += (vnode, Pullback(lambda g: unbroadcast(np.asarray(g)[key],
                                                        np.shape(vdata))))
    return Node(new, edges)


def _zeroed(np, g, key):
    g = np.array(g, dtype=float)
    g[key] = 0.0
    return g


def rearranging(forward, backward):
    """A rearrangement: ``forward(np, data, *args)``; ``backward(np, g, data, *args)``."""
    def apply(a, *args, **kwargs):
        np = numpy()
        data, node = lift(a)
        y = forward(np, data, *args, **kwargs)
        if node is None:
            return y
        return record(y, (node, lambda g: backward(np, g, data, *args, **kwargs)))
    return apply


def _reshaping(forward):
    """A function that only rearranges: the VJP puts ``g`` back in the input's shape."""
    return rearranging(forward, lambda np, g, data, *args, **kwargs: np.reshape(g, data.shape))


def reshape(a, shape, order="C"):
    """``numpy.reshape``: the VJP reads ``g`` back in the same ``order``."""
    np = numpy()
    data, node = lift(a)
    y = np.reshape(data, shape, order=order)
    if node is None:
        return y
    return record(y, (node, lambda g: np.reshape(g, data.shape, order=order)))


def ravel(a, order="C"):
    return reshape(a, -1, order=order)


expand_dims = _reshaping(lambda np, x, axis: np.expand_dims(x, axis))
squeeze = _reshaping(lambda np, x, axis=None: np.squeeze(x, axis))
copy_ = _reshaping(lambda np, x, order="K", subok=False: np.array(x, copy=True))


def broadcast_to(a, shape, subok=False):
    np = numpy()
    data, node = lift(a)
    y = np.broadcast_to(data, shape)
    return y if node is None else record(y.copy(), (node, lambda g: unbroadcast(g, data.shape)))


def astype(a, dtype):
    """A float dtype keeps the derivative (the gradient comes back in the parameter's
    dtype); any other is a plain array of the numbers."""
    np = numpy()
    data, node = lift(a)
    y = data.astype(dtype)
    if node is None or not np.issubdtype(y.dtype, np.floating):
        return y
    return record(y, (node, lambda g: g))


def item(a, *args):
    np = numpy()
    data = lift(a)[0]
    index = np.unravel_index(args[0], data.shape) if len(args) == 1 else args
    if not args and data.size != 1:
        raise ValueError("can only convert an array of size 1 to a Python scalar")
    return getitem(a, tuple(index) if args else (0,) * data.ndim)


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    np = numpy()
    if out is not None:
        raise TypeError("out= is not supported on the tape: assign the result instead")
    if axis is None:
        return concatenate([ravel(a) for a in arrays])
    lifted = [lift(a) for a in arrays]
    datas = [d for d, _ in lifted]
    y = np.concatenate(datas, axis=axis)
    edges, start = (), 0
    for data, node in lifted:
        stop = start + data.shape[axis]
        if node is not None:
            edges += (node, _part(np, axis, start, stop))
        start = stop
    return record(y, edges)


def _part(np, axis, start, stop):
    def vjp(g):
        index = [slice(None)] * np.ndim(g)
        index[axis] = slice(start, stop)
        return np.asarray(g)[tuple(index)]
    return vjp


def stack(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    np = numpy()
    if out is not None:
        raise TypeError("out= is not supported on the tape: assign the result instead")
    lifted = [lift(a) for a in arrays]
    y = np.stack([d for d, _ in lifted], axis=axis)
    edges = ()
    for i, (data, node) in enumerate(lifted):
        if node is not None:
            edges += (node, _layer(np, axis, i, data.shape))
    return record(y, edges)


def _layer(np, axis, i, shape):
    def vjp(g):
        part = np.take(g, i, axis=axis)
        return part if shape else float(part)
    return vjp


def _at_least_2d(a):
    ndim = lift(a)[0].ndim
    return reshape(a, (1, -1)) if ndim < 2 else a


def vstack(tup, **kwargs):
    return concatenate([_at_least_2d(a) for a in tup], axis=0)


def hstack(tup, **kwargs):
    ndims = [lift(a)[0].ndim for a in tup]
    if all(n == 0 for n in ndims):
        return stack(tup)
    return concatenate(list(tup), axis=0 if all(n <= 1 for n in ndims) else 1)


def column_stack(tup):
    """Vectors as the columns of a matrix (each made one column), matrices side by side."""
    return concatenate([a if lift(a)[0].ndim > 1 else reshape(a, (-1, 1)) for a in tup], axis=1)


class IndexJoin:
    """NumPy's ``r_`` (parts of one axis or none joined along the first axis, a number
    as an array of one) or ``c_`` (``column``: vectors as columns, matrices as they are,
    joined side by side) on tape values; NumPy's own ``original`` for data alone."""

    def __init__(self, original, column):
        self.original, self.column = original, column

    def __getitem__(self, key):
        parts = key if isinstance(key, tuple) else (key,)
        if not any(isinstance(p, (ArrayValue, Value)) for p in parts):
            return self.original[key]
        if self.column:
            return column_stack(parts)
        return concatenate([reshape(p, (1,)) if lift(p)[0].ndim == 0 else p for p in parts],
                           axis=0)


def array(obj, dtype=None, copy=True, **kwargs):
    """``numpy.array``: of an ArrayValue, a copy; of (nested) lists holding Values, their
    stack; of data, NumPy's array."""
    np = numpy()
    if isinstance(obj, ArrayValue):
        return astype(obj, dtype) if dtype is not None else copy_(obj)
    if isinstance(obj, (list, tuple)) and is_tape(obj):
        result = stack([array(item) if isinstance(item, (list, tuple)) else item
                        for item in obj])
        return astype(result, dtype) if dtype is not None else result
    return np.array(obj, dtype=dtype, copy=copy, **kwargs)


def asarray(obj, dtype=None, **kwargs):
    if isinstance(obj, ArrayValue) and dtype is None:
        return obj
    if is_tape(obj):
        return array(obj, dtype)
    return numpy().asarray(obj, dtype=dtype, **kwargs)


def where(condition, x=None, y=None):
    """``numpy.where(c, x, y)``: ``g`` goes to ``x`` where ``c`` holds, to ``y`` elsewhere;
    ``where(c)`` is the indices, as ``nonzero``."""
    np = numpy()
    c = lift(condition)[0]
    if x is None and y is None:
        return np.where(c)
    (xd, xn), (yd, yn) = lift(x), lift(y)
    out = np.where(c, xd, yd)
    edges = ()
    if xn is not None:
        edges += (xn, lambda g: unbroadcast(np.where(c, g, 0.0), np.shape(xd)))
    if yn is not None:
        edges += (yn, lambda g: unbroadcast(np.where(c, 0.0, g), np.shape(yd)))
    return record(out, edges)


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs):
    """``minimum(maximum(a, a_min), a_max)``: on a bound itself the gradient goes to ``a``,
    as for the scalar tape's clip."""
    if out is not None:
        raise TypeError("out= is not supported on the tape: assign the result instead")
    low = a_min if a_min is not None else min
    high = a_max if a_max is not None else max
    result = a if low is None else ufunc_table()["maximum"](a, low)
    return result if high is None else ufunc_table()["minimum"](result, high)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """``numpy.diff`` as the difference of two slices, ``n`` times."""
    if prepend is not None or append is not None:
        raise TypeError("numpy.diff with prepend= or append= is not on the tape")
    for _ in range(n):
        ndim = lift(a)[0].ndim
        later, earlier = [slice(None)] * ndim, [slice(None)] * ndim
        later[axis], earlier[axis] = slice(1, None), slice(None, -1)
        a = ufunc_table()["subtract"](getitem(a, tuple(later)), getitem(a, tuple(earlier)))
    return a


def take(a, indices, axis=None, out=None, mode="raise"):
    if out is not None or mode != "raise":
        raise TypeError("numpy.take with out= or mode= is not on the tape")
    if axis is None:
        return getitem(ravel(a), _index_data(indices))
    index = [slice(None)] * lift(a)[0].ndim
    index[axis] = _index_data(indices)
    return getitem(a, tuple(index))


def take_along_axis(arr, indices, axis=-1):
    """``numpy.take_along_axis``: a read at the index whose part along ``axis`` is
    ``indices`` and whose other parts count along their axes (``getitem``'s VJP adds
    ``g`` back where a position repeats)."""
    np = numpy()
    data, indices = lift(arr)[0], _index_data(indices)
    if axis is None:
        return getitem(ravel(arr), indices)
    axis %= data.ndim
    index = tuple(indices if d == axis else np.arange(data.shape[d]).reshape(
        [-1 if e == d else 1 for e in range(data.ndim)]) for d in range(data.ndim))
    return getitem(arr, index)


def moveaxis(a, source, destination):
    ndim = lift(a)[0].ndim
    source = [s % ndim for s in (source if isinstance(source, (tuple, list)) else [source])]
    destination = [d % ndim for d in (destination if isinstance(destination, (tuple, list))
                                      else [destination])]
    order = [n for n in range(ndim) if n not in source]
    for d, s in sorted(zip(destination, source)):
        order.insert(d, s)
    return OFFERED["transpose"](a, tuple(order))


def like(maker):
    """``zeros_like`` and its kin of an ArrayValue: a constant of its shape, itself an
    ArrayValue when of floats, so that the code may write Values into it."""
    def apply(a, *args, **kwargs):
        np = numpy()
        y = maker(lift(a)[0], *args, **kwargs)
        return ArrayValue(y) if np.issubdtype(y.dtype, np.floating) else y
    return apply


offer(getitem=getitem, setitem=setitem, reshape=reshape, ravel=ravel, squeeze=squeeze,
      copy=copy_, astype=astype, item=item, array=array, clip=clip)
