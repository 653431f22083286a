"""The tape's running results of ufuncs, ``numpy.<ufunc>.accumulate(x, axis=0)`` of
``add``, ``multiply``, ``maximum`` and ``minimum``, by their definition: each place is
the ufunc of the place before and the next element, so the derivatives are the tape's
ufuncs' own (``maximum`` sends the gradient to its first operand on a tie); and
``numpy.bincount(i, weights=w, minlength=n)``, the matrix of ``k == i[j]`` times ``w``;
``numpy.interp(x, xp, fp)``, the line through the two knots around each ``x`` (held at
the end knots outside them), of the tape's operations on ``x``, ``xp`` and ``fp``.

Expects an ArrayValue, Value or data and a constant axis.  Guarantees NumPy's values:

    np.maximum.accumulate(x)    stack([x[0], maximum(x[0], x[1]), maximum(c1, x[2]), ...])
"""

from symdiff.witnesses.tape.array_linalg import matmul
from symdiff.witnesses.tape.array_shapes import clip, getitem, moveaxis, stack
from symdiff.witnesses.tape.array_ufuncs import ufunc_table
from symdiff.witnesses.tape.arrays import lift, numpy

ACCUMULATED = ("add", "multiply", "maximum", "minimum")


def accumulate(name, x, axis=0):
    """``numpy.<name>.accumulate(x, axis)``: the running ufunc along ``axis``."""
    op, ndim = ufunc_table()[name], lift(x)[0].ndim
    rows = moveaxis(x, axis, 0) if ndim > 1 and axis % ndim else x
    found = [getitem(rows, 0)]
    for j in range(1, lift(rows)[0].shape[0]):
        found.append(op(found[-1], getitem(rows, j)))
    stacked = stack(found)
    return moveaxis(stacked, 0, axis) if ndim > 1 and axis % ndim else stacked


def bincount(x, weights=None, minlength=0):
    """The sum of the weights at each place ``k``: ``(k == i[j]) @ w`` (the counts, data,
    without weights)."""
    np, places = numpy(), lift(x)[0]
    if weights is None:
        return np.bincount(places, minlength=minlength)
    size = max(minlength, int(places.max()) + 1 if places.size else 0)
    return matmul((np.arange(size)[:, None] == places[None, :]).astype(float), weights)


def interp(x, xp, fp):
    """``fp[j] + (fp[j + 1] - fp[j]) t``: ``j`` the knots' segment of each ``x`` (data),
    ``t = (x - xp[j]) / (xp[j + 1] - xp[j])`` held within 0 and 1."""
    np, table = numpy(), ufunc_table()
    knots = lift(xp)[0]
    j = np.clip(np.searchsorted(knots, lift(x)[0]) - 1, 0, knots.shape[0] - 2)
    low, high = getitem(xp, j), getitem(xp, j + 1)
    t = clip(table["divide"](table["subtract"](x, low), table["subtract"](high, low)), 0.0, 1.0)
    start = getitem(fp, j)
    return table["add"](start, table["multiply"](table["subtract"](getitem(fp, j + 1), start), t))
