"""More NumPy functions on ArrayValues, each built from the tape's other functions:
``median``, ``quantile`` and ``percentile`` (linear interpolation), ``nansum``,
``nanmean``, ``nanprod``, ``nancumsum``, ``nancumprod``, ``nanmax``, ``nanmin``, ``cross``, ``convolve``, ``correlate``, ``append``,
``split``, ``array_split``, ``hsplit``, ``vsplit``, ``linspace``, ``dstack``, ``select``,
``real``, ``imag``, ``nan_to_num``, ``atleast_3d``, ``polyval`` and ``polyder``.

Expects ArrayValues, Values and data mixed.  Guarantees NumPy's values, with the
derivatives of the tape functions they are made of (none stated here):

    np.median(x)          sort(x.ravel()) read at the middle place(s), interpolated
    np.nansum(x)          sum(where(isnan(x), 0, x))
    np.nancumprod(x)      cumprod(where(isnan(x), 1, x))
    np.cross(a, b)        stack([a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0], axis=-1)
    np.convolve(a, v)     the sum over i of a[i] v padded to start at i
    np.split(x, 2)        [x[:n // 2], x[n // 2:]]
    np.polyval(p, x)      ((0 * x + p0) * x + p1) * x + p2   (NumPy's loop)
"""

import math

from symdiff.witnesses.tape.array_arrangements import sort
from symdiff.witnesses.tape.array_reductions import cumprod, cumsum, max_, min_, prod, sum_
from symdiff.witnesses.tape.array_shapes import (array, concatenate, expand_dims, getitem, moveaxis,
                                                 broadcast_to, ravel, reshape, stack, where)
from symdiff.witnesses.tape.array_ufuncs import ufunc_table
from symdiff.witnesses.tape.arrays import lift, numpy


def _op(name):
    return ufunc_table()[name]


def _along_last(a, axis):
    """``a`` with the axes ``axis`` names moved last and made one (None: all of them),
    and the axes a ``keepdims`` result puts back."""
    data = lift(a)[0]
    if axis is None:
        return ravel(a), tuple(range(data.ndim))
    axes = tuple(x % data.ndim for x in (axis if isinstance(axis, tuple) else (axis,)))
    moved = moveaxis(a, axes, tuple(range(data.ndim - len(axes), data.ndim)))
    shape = lift(moved)[0].shape
    return reshape(moved, shape[:data.ndim - len(axes)] + (-1,)), axes


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False):
    """The sorted elements at the places below and above ``q (n - 1)``, weighted by how
    far that is from each."""
    if method not in ("linear", "lower", "higher") or out is not None or numpy().ndim(q):
        raise TypeError("numpy.quantile other than of one q, linear, lower or higher, is "
                        "not on the tape")
    line, axes = _along_last(a, axis)
    ordered = sort(line, axis=-1)
    n = lift(line)[0].shape[-1]
    place = float(q) * (n - 1)
    below = math.floor(place)
    above, share = min(below + 1, n - 1), place - below
    if method != "linear":  # the one place below or above
        below = above = math.ceil(place) if method == "higher" else below
    low, high = (getitem(ordered, (Ellipsis, k)) for k in (below, above))
    found = _op("add")(_op("multiply")(low, 1.0 - share), _op("multiply")(high, share))
    for k in sorted(axes) if keepdims else ():
        found = expand_dims(found, k)
    return found


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False):
    return quantile(a, float(q) / 100.0, axis, out, overwrite_input, method, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return quantile(a, 0.5, axis, out, keepdims=keepdims)


def _without_nan(a, fill):
    np = numpy()
    return where(np.isnan(lift(a)[0]), fill, a)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    return sum_(_without_nan(a, 0.0), axis=axis, keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    np = numpy()
    count = np.sum(~np.isnan(lift(a)[0]), axis=axis, keepdims=keepdims)
    return _op("divide")(nansum(a, axis=axis, keepdims=keepdims), count)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
    return prod(_without_nan(a, 1.0), axis=axis, keepdims=keepdims)


def nancumsum(a, axis=None, dtype=None, out=None):
    return cumsum(_without_nan(a, 0.0), axis=axis)


def nancumprod(a, axis=None, dtype=None, out=None):
    return cumprod(_without_nan(a, 1.0), axis=axis)


def nanmax(a, axis=None, out=None, keepdims=False):
    return max_(_without_nan(a, -math.inf), axis=axis, keepdims=keepdims)


def nanmin(a, axis=None, out=None, keepdims=False):
    return min_(_without_nan(a, math.inf), axis=axis, keepdims=keepdims)


def cross(a, b):
    """Vectors of three along the last axis, the others broadcast."""
    if lift(a)[0].shape[-1] != 3 or lift(b)[0].shape[-1] != 3:
        raise TypeError("numpy.cross of other than vectors of three is not on the tape")
    x, y = ([getitem(v, (Ellipsis, k)) for k in range(3)] for v in (a, b))
    mul, sub = _op("multiply"), _op("subtract")
    parts = [sub(mul(x[i], y[j]), mul(x[j], y[i])) for i, j in ((1, 2), (2, 0), (0, 1))]
    return stack(parts, axis=-1)


def _full_convolution(a, v):
    """``c[k] = sum_i a[i] v[k - i]``: each ``a[i] v`` padded to start at ``i``."""
    np = numpy()
    n, m = lift(a)[0].size, lift(v)[0].size
    total = None
    for i in range(n):
        term = _op("multiply")(getitem(a, i), v)
        placed = concatenate([np.zeros(i), term, np.zeros(n - 1 - i)])
        total = placed if total is None else _op("add")(total, placed)
    return total, n, m


def _cut(full, n, m, mode, start_same):
    if mode == "full":
        return full
    if mode == "valid":
        return getitem(full, slice(min(n, m) - 1, max(n, m)))
    if mode == "same":
        return getitem(full, slice(start_same, start_same + max(n, m)))
    raise TypeError(f"numpy.convolve with mode={mode!r} is not on the tape")


def convolve(a, v, mode="full"):
    full, n, m = _full_convolution(a, v)
    return _cut(full, n, m, mode, (min(n, m) - 1) // 2)


def correlate(a, v, mode="valid"):
    """``convolve`` with ``v`` reversed; ``same`` centred towards the back where ``a``
    is the shorter."""
    full, n, m = _full_convolution(a, getitem(v, slice(None, None, -1)))
    return _cut(full, n, m, mode, (min(n, m) - 1) // 2 if n >= m else n // 2)


def append(arr, values, axis=None):
    if axis is None:
        values = values if numpy().ndim(lift(values)[0]) else array([values])
        return concatenate([ravel(arr), ravel(values)])
    return concatenate([arr, values], axis=axis)


def array_split(ary, indices_or_sections, axis=0):
    """The parts along ``axis``, each a read of its slice: ``k`` parts, the first ``n % k``
    one element longer, or the parts between the indices given."""
    shape = lift(ary)[0].shape
    n = shape[axis]
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        sizes = [n // k + (i < n % k) for i in range(k)]
        bounds = [sum(sizes[:i]) for i in range(k + 1)]
    else:
        bounds = [0, *indices_or_sections, n]
    before = (slice(None),) * (axis % len(shape))
    return [getitem(ary, before + (slice(lo, hi),)) for lo, hi in zip(bounds, bounds[1:])]


def split(ary, indices_or_sections, axis=0):
    if isinstance(indices_or_sections, int) and lift(ary)[0].shape[axis] % indices_or_sections:
        raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 1 if lift(ary)[0].ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``start (1 - t) + stop t`` at NumPy's own points ``t`` of ``[0, 1]`` (numbers or
    vectors as ends, along a new first axis)."""
    if retstep or axis != 0 or dtype is not None:
        raise TypeError("numpy.linspace with retstep, axis or dtype is not on the tape")
    np = numpy()
    t = np.linspace(0.0, 1.0, num, endpoint=endpoint)
    shape = (num,) + (1,) * np.ndim(lift(start)[0] + lift(stop)[0])
    t = t.reshape(shape)
    return _op("add")(_op("multiply")(start, 1.0 - t), _op("multiply")(stop, t))


def dstack(tup):
    """Vectors as ``(1, n, 1)``, matrices as ``(m, n, 1)``, concatenated along the third
    axis."""
    def deep(a):
        shape = lift(a)[0].shape
        return reshape(a, (1,) * (len(shape) == 1) + shape + (1,) * (3 - max(len(shape), 2)))
    return concatenate([deep(a) for a in tup], axis=2)


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, as ``where``s from the last one back."""
    if len(condlist) != len(choicelist) or not condlist:
        raise ValueError("list of cases must be same length as list of conditions")
    found = default
    for condition, choice in reversed(list(zip(condlist, choicelist))):
        found = where(lift(condition)[0], choice, found)
    return found


def meshgrid(x, y, indexing="xy"):
    """The two grids of vectors ``x`` and ``y``: each its vector repeated along the
    other axis, as ``broadcast_to`` of it stood up or laid down."""
    nx, ny = lift(x)[0].size, lift(y)[0].size
    if indexing == "ij":
        return (broadcast_to(reshape(x, (nx, 1)), (nx, ny)),
                broadcast_to(reshape(y, (1, ny)), (nx, ny)))
    return (broadcast_to(reshape(x, (1, nx)), (ny, nx)),
            broadcast_to(reshape(y, (ny, 1)), (ny, nx)))


def real(val):
    """Of a float array (or number), itself."""
    return val


def imag(val):
    return numpy().zeros_like(lift(val)[0])


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """``x`` where finite; NumPy's constants where not (no derivative there)."""
    np = numpy()
    data = lift(x)[0]
    return where(np.isfinite(data), x, np.nan_to_num(data, nan=nan, posinf=posinf,
                                                      neginf=neginf))


def atleast_3d(*arys):
    def deep(a):
        shape = np.shape(lift(a)[0])
        return a if len(shape) >= 3 else reshape(a, {0: (1, 1, 1), 1: (1,) + shape + (1,),
                                                     2: shape + (1,)}[len(shape)])
    np = numpy()
    found = [deep(a) for a in arys]
    return found[0] if len(found) == 1 else found


def polyval(p, x):
    """NumPy's own loop: ``y = y * x + c`` for each coefficient ``c``, the highest
    first, from zeros of ``x``'s shape."""
    found = numpy().zeros_like(lift(x)[0])
    for k in range(lift(p)[0].shape[0]):
        found = _op("add")(_op("multiply")(found, x), getitem(p, k))
    return found


def polyder(p, m=1):
    """``p[:-1] * arange(n, 0, -1)`` (``n`` the degree), ``m`` times."""
    for _ in range(m):
        n = lift(p)[0].shape[0] - 1
        p = _op("multiply")(getitem(p, slice(None, -1)), numpy().arange(n, 0, -1))
    return p
