"""Functions that rearrange an array's elements, on ArrayValues: ``flip`` (``flipud``,
``fliplr``), ``rot90``, ``roll``,
``sort``, ``partition``, ``tile``, ``repeat``, ``pad``, ``triu``, ``tril``, ``atleast_1d``/``_2d``,
``average``, ``ptp``, ``tensordot``, ``vdot``, ``sinc`` and ``linalg.matrix_power``.

Expects ArrayValues, Values and data mixed.  Guarantees NumPy's values and VJPs written
here, or built from the tape's other functions where the function is a composition of
them (``repeat`` is a ``take`` of repeated indices, a ``pad`` other than ``constant`` a
``take`` of the padded indices, ``tensordot`` an ``einsum``); ``sort`` sends ``g`` back to
the positions each element came from (ties by NumPy's stable order), and ``partition``
too, each place matched to the element of its rank.

    np.flip(x)            flip(g)
    np.roll(x, 2)         roll(g, -2)
    np.pad(x, 1, "wrap")  x[[n-1, 0, ..., n-1, 0]]: the wrapped elements add up
"""

import math

from symdiff.witnesses.tape.array_linalg import einsum, matmul
from symdiff.witnesses.tape.array_reductions import max_, mean, min_, sum_
from symdiff.witnesses.tape.array_shapes import rearranging, reshape, take
from symdiff.witnesses.tape.array_ufuncs import ufunc_table, unary
from symdiff.witnesses.tape.arrays import lift, numpy, offer, record


def _negated(shift):
    return tuple(-s for s in shift) if isinstance(shift, (tuple, list)) else -shift


flip = rearranging(lambda np, x, axis=None: np.flip(x, axis),
               lambda np, g, x, axis=None: np.flip(g, axis))
roll = rearranging(lambda np, x, shift, axis=None: np.roll(x, shift, axis),
               lambda np, g, x, shift, axis=None: np.roll(g, _negated(shift), axis))
flipud = rearranging(lambda np, x: x[::-1], lambda np, g, x: np.flip(g, 0))
fliplr = rearranging(lambda np, x: x[:, ::-1], lambda np, g, x: np.flip(g, 1))


def _rot90_backward(np, g, x, k=1, axes=(0, 1)):
    return np.rot90(g, 4 - k % 4, axes)  # four quarter turns are none


rot90 = rearranging(lambda np, x, k=1, axes=(0, 1): np.rot90(x, k, axes), _rot90_backward)
triu = rearranging(lambda np, x, k=0: np.triu(x, k), lambda np, g, x, k=0: np.triu(g, k))
tril = rearranging(lambda np, x, k=0: np.tril(x, k), lambda np, g, x, k=0: np.tril(g, k))


def _sort_forward(np, x, axis=-1, kind=None, order=None):
    x, axis = (x.ravel(), 0) if axis is None else (x, axis)
    return np.take_along_axis(x, np.argsort(x, axis=axis, kind="stable"), axis)


def _sort_backward(np, g, x, axis=-1, kind=None, order=None):
    flat = axis is None
    source, axis = (x.ravel(), 0) if flat else (x, axis)
    out = np.zeros(source.shape)
    np.put_along_axis(out, np.argsort(source, axis=axis, kind="stable"), g, axis)
    return out.reshape(x.shape)


sort = rearranging(_sort_forward, _sort_backward)


def _partition_backward(np, g, x, kth, axis=-1, kind="introselect", order=None):
    """Each place of the partition has the element of ``x`` of the same rank (ties in
    NumPy's stable order): ``g`` at the partition's places of each rank, put at ``x``'s."""
    y = np.partition(x, kth, axis=axis)
    source, along = (x.ravel(), 0) if axis is None else (x, axis)
    at_rank = np.take_along_axis(np.asarray(g), np.argsort(y, axis=along, kind="stable"), along)
    out = np.zeros(source.shape)
    np.put_along_axis(out, np.argsort(source, axis=along, kind="stable"), at_rank, along)
    return out.reshape(x.shape)


partition = rearranging(lambda np, x, kth, axis=-1, kind="introselect", order=None: (
    np.partition(x, kth, axis=axis)), _partition_backward)


def _tile_backward(np, g, x, reps):
    reps = tuple(reps) if isinstance(reps, (tuple, list)) else (reps,)
    d = max(len(reps), x.ndim)
    shape = (1,) * (d - x.ndim) + x.shape
    reps = (1,) * (d - len(reps)) + reps
    split = [n for pair in zip(reps, shape) for n in pair]
    summed = np.reshape(g, split).sum(axis=tuple(range(0, 2 * d, 2)))
    return summed.reshape(x.shape)


tile = rearranging(lambda np, x, reps: np.tile(x, reps), _tile_backward)


def repeat(a, repeats, axis=None):
    """``numpy.repeat`` as a ``take`` of each index repeated."""
    np = numpy()
    data = lift(a)[0]
    if axis is None:
        a, axis, n = reshape(a, -1), 0, data.size
    else:
        n = data.shape[axis]
    return take(a, np.repeat(np.arange(n), repeats), axis=axis)


def pad(array, pad_width, mode="constant", **kwargs):
    """``numpy.pad``: ``constant`` (data fill values) gives ``g``'s interior back; the
    modes that copy elements (``edge``, ``reflect``, ``symmetric``, ``wrap``) are a ``take``
    along each axis of the indices NumPy's own ``pad`` lays out."""
    np = numpy()
    data, node = lift(array)
    widths = np.broadcast_to(np.asarray(pad_width), (data.ndim, 2))
    if mode == "constant":
        y = np.pad(data, pad_width, mode, **{k: lift(v)[0] for k, v in kwargs.items()})
        if node is None:
            return y
        inside = tuple(slice(int(lo), int(lo) + n) for (lo, _), n in zip(widths, data.shape))
        return record(y, (node, lambda g: np.asarray(g)[inside]))
    if mode not in ("edge", "reflect", "symmetric", "wrap") or kwargs:
        raise TypeError(f"numpy.pad with mode={mode!r} is not on the tape")
    for axis, n in enumerate(data.shape):
        indices = np.pad(np.arange(n), [tuple(int(w) for w in widths[axis])], mode)
        array = take(array, indices, axis=axis)
    return array


def _at_least(ndim):
    def apply(*arrays):
        results = []
        for a in arrays:
            shape = lift(a)[0].shape
            if len(shape) >= ndim:
                results.append(a)
            else:
                results.append(reshape(a, (1,) * (ndim - len(shape)) + shape))
        return results[0] if len(results) == 1 else results
    return apply


atleast_1d, atleast_2d = _at_least(1), _at_least(2)


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    """``numpy.average``: the mean, or ``sum(w a) / sum(w)`` with 1-d weights along
    ``axis`` or weights of ``a``'s shape."""
    if returned:
        raise TypeError("numpy.average with returned=True is not on the tape")
    if weights is None:
        return mean(a, axis=axis, keepdims=keepdims)
    table = ufunc_table()
    data, w = lift(a)[0], lift(weights)[0]
    if w.ndim == 1 and data.ndim > 1:
        shape = [1] * data.ndim
        shape[axis] = w.size
        weights = reshape(weights, tuple(shape))
    total = sum_(table["multiply"](a, weights), axis=axis, keepdims=keepdims)
    return table["divide"](total, sum_(table["multiply"](weights, numpy().ones(data.shape)),
                                       axis=axis, keepdims=keepdims))


def tensordot(a, b, axes=2):
    """``numpy.tensordot`` as the ``einsum`` contracting the axes named."""
    na, nb = lift(a)[0].ndim, lift(b)[0].ndim
    if isinstance(axes, int):
        axes = (list(range(na - axes, na)), list(range(axes)))
    left, right = ([x] if isinstance(x, int) else list(x) for x in axes)
    left, right = [i % na for i in left], [i % nb for i in right]
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    sa, sb = [next(letters) for _ in range(na)], [next(letters) for _ in range(nb)]
    for i, j in zip(left, right):
        sb[j] = sa[i]
    out = [c for i, c in enumerate(sa) if i not in left] + [
        c for j, c in enumerate(sb) if j not in right]
    return einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", a, b)


def ptp(a, axis=None, keepdims=False):
    """``numpy.ptp``: the tape's ``max`` less its ``min``."""
    return ufunc_table()["subtract"](max_(a, axis=axis, keepdims=keepdims),
                                     min_(a, axis=axis, keepdims=keepdims))


def vdot(a, b):
    """``numpy.vdot`` of real arrays: the sum of the products of their flattened elements."""
    return sum_(ufunc_table()["multiply"](reshape(a, -1), reshape(b, -1)))


def _sinc_forward(x):
    return numpy().sinc(x)


sinc = unary(_sinc_forward, lambda np, x, y: np.where(
    x == 0, 0.0, (np.cos(math.pi * x) - y) / np.where(x == 0, 1.0, x)))


def matrix_power(a, n):
    """``numpy.linalg.matrix_power`` for ``n >= 0``, as repeated ``@`` (``n = 0``: the
    identity, a constant)."""
    if n == 0:
        data = lift(a)[0]
        return numpy().eye(data.shape[0], dtype=data.dtype)
    if n < 0:
        raise TypeError("numpy.linalg.matrix_power with n < 0 is not on the tape")
    result = a
    for _ in range(n - 1):
        result = matmul(result, a)
    return result


offer(repeat=repeat)
