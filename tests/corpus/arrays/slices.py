"""Slices: bounds a loop computes, bounds of constants that keep one place of an axis
(``x[:, :1]``, ``x[-1:]``, ``x[2:3]``, ``x[1:2:3]``, ``x[2:1:-1]``), windows of one
place whose start the code computes (``x[:, k:k + 1]``, ``x[i - 1:i]``), steps and
negative steps, ``None`` axes (and ``np.newaxis``), rows of a reshape read by index
(``x.reshape(2, -1)[1]``), and each of them met by a broadcast, read in a loop or
after it, on a value the loop computes.

What they exercise: an axis a slice keeps at size one is one NumPy broadcasts, so the
adjoint of the slice is summed back over it; a slice read in a loop adds its adjoint at
its place of an array that lives one iteration, which starts each iteration as zeros
of that iteration's shape (a value whose size the loop changes).
Each function is checked against the tape, finite differences along random directions
and, for small shapes, sympy (``tests/end_to_end/test_arrays.py``).
"""

import numpy as np

from .case import F32, at, normal


# --- bounds a loop computes ---------------------------------------------------------------

def prefixes_in_a_loop(x):
    total = 0.0
    for k in range(3):
        total = total + np.sum(np.sin(x)[: k + 1] ** 2)
    return total


def suffixes_in_a_loop(x):
    total = 0.0
    for k in range(1, 3):
        total = total + np.sum(np.sin(x)[-k:] ** 2)
    return total


def strides_in_a_loop(x):
    total = 0.0
    for s in range(1, 3):
        total = total + np.sum(np.exp(x)[::s] * x[::s])
    return total


def prefix_or_suffix_by_a_branch(x):
    total = 0.0
    for k in range(4):
        s = np.sin(x)
        if k % 2 == 0:
            total = total + np.sum(s[: k + 1])
        else:
            total = total + np.sum(s[k:] ** 2)
    return total


def shrinking_windows(x):
    total = 0.0
    for k in range(1, 4):
        y = np.sin(x[:k])
        total = total + np.sum(y[:1] * y)
    return total


# --- one place of an axis, broadcast ------------------------------------------------------

def first_of_the_last_axis(S):
    return np.sum(np.sin(S) * S[..., :1])


def last_column(X):
    return np.sum(X * X[:, -1:])


def next_to_last_row(X):
    return np.sum(np.tanh(X) * X[-2:-1, :])


def middle_plane(S):
    return np.sum(S * S[:, 1:2, :] ** 2)


def one_by_a_step(x):
    return np.sum(x * x[1:2:3]) + np.sum(x * x[2:1:-1])


def columns_by_a_loop(X):
    total = 0.0
    for k in range(X.shape[1]):
        total = total + np.sum(X * X[:, k:k + 1])
    return total


def rows_before_each(X):
    total = 0.0
    for i in range(1, X.shape[0]):
        total = total + np.sum(np.cos(X[i - 1:i]) * X)
    return total


def a_column_of_none(x):
    return np.sum(x[:, None] * x[None, :1]) + np.sum(x[-1:, None] * x)


def every_other_reversed(x):
    return np.sum(np.sin(x[::-2]) * x[::-2] ** 2)


def head_of_a_shrinking_value(x):
    total = 0.0
    for k in range(3, 0, -1):
        y = np.sin(x[:k])
        total = total + np.sum(y[:1] ** 2)
    return total


def ends_of_a_growing_value(x):
    total = 0.0
    for k in range(1, 4):
        y = np.cos(x[:k])
        total = total + np.sum(y[-1:] * y[:1])
    return total



def newaxis_outer(x):
    return np.sum(x[:, np.newaxis] * x[np.newaxis, :] ** 2) + np.sum(x[np.newaxis] * x)


def rows_of_a_reshape(x):
    return np.sum(x.reshape(2, -1)[1] * x.reshape((2, -1))[0]) + np.sum(x.reshape(-1, 2)[-1])


CASES = [
    at(prefixes_in_a_loop, (normal("pial", 3),), (normal("pial", 5),), (normal("pial", 4, dtype=F32),)),
    at(suffixes_in_a_loop, (normal("sial", 2),), (normal("sial", 6),)),
    at(strides_in_a_loop, (normal("stil", 3),), (normal("stil", 5),)),
    at(prefix_or_suffix_by_a_branch, (normal("posb", 4),), (normal("posb", 6),)),
    at(shrinking_windows, (normal("shw", 3),), (normal("shw", 5),)),
    at(first_of_the_last_axis, (normal("fotla", 3, 2, 2),), (normal("fotla", 1, 2, 3),),
       (normal("fotla", 2, 1, 1),)),
    at(last_column, (normal("lc", 2, 3),), (normal("lc", 4, 1),), (normal("lc", 3, 2, dtype=F32),)),
    at(next_to_last_row, (normal("ntlr", 3, 2),), (normal("ntlr", 2, 4),)),
    at(middle_plane, (normal("mp", 2, 3, 2),), (normal("mp", 1, 2, 1),)),
    at(one_by_a_step, (normal("obas", 3),), (normal("obas", 5),)),
    at(columns_by_a_loop, (normal("cbal", 2, 3),), (normal("cbal", 3, 1),), (normal("cbal", 1, 4),)),
    at(rows_before_each, (normal("rbe", 2, 2),), (normal("rbe", 4, 3),)),
    at(a_column_of_none, (normal("acon", 1),), (normal("acon", 4),)),
    at(every_other_reversed, (normal("eor", 5),), (normal("eor", 2),)),
    at(head_of_a_shrinking_value, (normal("hoasv", 3),), (normal("hoasv", 5),)),
    at(ends_of_a_growing_value, (normal("eoagv", 3),), (normal("eoagv", 6, dtype=F32),)),
    at(newaxis_outer, (normal("nao", 3),), (normal("nao", 1),), (normal("nao", 4, dtype=F32),)),
    at(rows_of_a_reshape, (normal("roar", 4),), (normal("roar", 6),),
       (normal("roar", 8, dtype=F32),)),
]
