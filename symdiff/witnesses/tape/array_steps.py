"""The tape's running results of ufuncs, ``numpy.<ufunc>.accumulate(x, axis=0)`` of
``add``, ``multiply``, ``maximum`` and ``minimum``, by their definition: each place is
the ufunc of the place before and the next element, so the derivatives are the tape's
ufuncs' own (``maximum`` sends the gradient to its first operand on a tie).

Expects an ArrayValue, Value or data and a constant axis.  Guarantees NumPy's values:

    np.maximum.accumulate(x)    stack([x[0], maximum(x[0], x[1]), maximum(c1, x[2]), ...])
"""

from symdiff.witnesses.tape.array_shapes import getitem, moveaxis, stack
from symdiff.witnesses.tape.array_ufuncs import ufunc_table
from symdiff.witnesses.tape.arrays import lift

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
