"""Array functions that change shapes, index, loop over arrays and write into them.

Shape: ``reshape`` (with ``-1``), ``ravel``, ``np.expand_dims``, ``x[:, None]``,
``np.squeeze``, ``np.concatenate``, ``np.stack``, ``np.array([...])`` of active values,
``np.asarray`` of a list, ``.shape``/``.ndim``/``.size``/``len``.  Indexing: integers
(negative too), slices with steps, ``None``, ``...``, integer arrays with repeated
indices, a pair of integer arrays, boolean masks given and computed, in loops over
``range(x.shape[0])`` and over the rows themselves.  Writes: ``y[i] = v`` into zeros,
``out[:, 0] += v`` and slice assignments on a copy; ``np.add.at`` at repeated
indices, at pairs of them, in a loop.  Containers of arrays: a list of arrays and a
tuple of them.
"""

import numpy as np

from .case import F32, at, classes, mask, normal


# --- shape -----------------------------------------------------------------------------

def reshaped_pairs(x):
    pairs = x.reshape(-1, 2)
    return np.sum(pairs[:, 0] * pairs[:, 1])


def raveled_weights(X):
    flat = X.ravel()
    return np.sum(flat * np.arange(X.size)) + np.sum(np.ravel(X) ** 2)


def expanded_then_matched(x, Y):
    return np.sum(np.expand_dims(x, 0) * Y) + np.sum(np.expand_dims(x, axis=1) ** 2)


def pairwise_by_none(x):
    d = x[:, None] - x[None, :]
    return np.sum(d ** 2)


def squeezed_column(C):
    c = np.squeeze(C, axis=1)
    return np.sum(np.exp(c)) + np.sum(C.squeeze() ** 2)


def concatenated(x, y):
    z = np.concatenate([x, y ** 2])
    return np.sum(np.sin(z) * np.arange(z.shape[0]))


def concatenated_columns(A, B):
    C = np.concatenate((A, B), axis=1)
    return np.sum(C @ C.T)


def stacked(x, y):
    S = np.stack([x, y, x * y], axis=1)
    return np.sum(S ** 2 * np.arange(3))


def array_of_scalars(a, b):
    v = np.array([a, b * a, np.sin(b)])
    return v @ v


def array_of_entries(x):
    v = np.array([x[0], x[-1], np.sum(x)])
    return np.sum(v ** 3)


def asarray_of_a_list(xs):
    v = np.asarray(xs)
    return np.sum(np.exp(v) * v)


def shapes_read(X):
    n, m = X.shape
    return np.sum(X ** 2) / (n * m) + X.ndim * np.sum(X) / len(X)


def constants_of_a_shape(x):
    ramp = np.linspace(0.0, 1.0, x.shape[0])
    base = np.ones_like(x) * 0.5 + np.zeros_like(x) + np.full(x.shape, 0.25)
    return np.sum(x * ramp + base * x ** 2)


def identity_and_diagonal(A):
    n = A.shape[0]
    i = np.arange(n)
    return np.sum(A * np.eye(n)) + np.sum(A[i, i] ** 2) + np.sum(A[i, ::-1][0])


# --- reading ---------------------------------------------------------------------------

def first_and_last(x):
    return x[0] * x[-1] + x[1] ** 2


def strided_products(x):
    return np.sum(x[::2] * x[1::2]) + np.sum(x[::-1] * x)


def tail_window(x):
    return np.sum(x[-3:] ** 2) - np.sum(x[:-3])


def row_and_column(X):
    return np.sum(X[1, :] * X[-1, ::-1]) + np.sum(X[:, -1]) * X[0, 1]


def ellipsis_and_none(A):
    return np.sum(A[..., 0] ** 2) + np.sum(A[:, None, 1, :])


def gathered_with_repeats(x, idx):
    return np.sum(x[idx] ** 2)


def gathered_pairs(X, rows, cols):
    return np.sum(np.exp(X[rows, cols]))


def selected_by_mask(x, m):
    return np.sum(x[m] ** 2) + np.sum(x[~m])


def positive_entries(x):
    return np.sum(x[x > 0.0] ** 2)


def rows_by_mask(X, m):
    return np.sum(X[m] ** 2) + np.sum(X[:, 0][m])


# --- loops -----------------------------------------------------------------------------

def loop_over_range(x):
    total = 0.0
    for t in range(x.shape[0]):
        total = total + (t + 1) * x[t] ** 2
    return total


def loop_over_rows(X, w):
    total = 0.0
    for row in X:
        total += np.tanh(row @ w)
    return total


def neighbours_in_a_loop(x):
    s = 0.0
    for i in range(1, len(x)):
        s += (x[i] - x[i - 1]) ** 2
    return s


def rows_by_index(X):
    s = 0.0
    for i in range(X.shape[0]):
        s = s + np.sum(X[i] * X[i, ::-1])
    return s


# --- writing ---------------------------------------------------------------------------

def filled_by_index(x):
    y = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        y[i] = np.sin(x[i]) * x[i]
    return np.sum(y ** 2)


def column_added_on_a_copy(X, v):
    out = X.copy()
    out[:, 0] += v
    return np.sum(out ** 2)


def differences_in_place(x):
    y = x.copy()
    y[1:] = y[1:] - x[:-1]
    return np.sum(y ** 2)


def row_overwritten(X, r):
    Y = X * 1.0
    Y[0] = r
    return np.sum(Y ** 3) + np.sum(X)


def scattered_into_zeros(x, idx):
    out = np.zeros(x.shape[0] + 2)
    out[idx] = x
    return np.sum(np.cos(out))


# --- containers of arrays --------------------------------------------------------------

def list_of_arrays(arrays):
    total = 0.0
    for a in arrays:
        total = total + np.sum(a ** 2) / a.size
    return total


def tuple_of_arrays(params, x):
    W, b = params
    return np.sum(np.tanh(W @ x + b))


def added_at_repeats(x, idx):
    y = x * 1.5
    np.add.at(y, idx, np.cos(x[:2]))
    return np.sum(y ** 2)


def added_at_pairs(X, rows, cols):
    Y = np.tanh(X)
    np.add.at(Y, (rows, cols), X[0, :2] ** 2)
    return np.sum(Y * X)


def added_at_in_a_loop(x, idx):
    y = np.zeros_like(x)
    for k in range(2):
        np.add.at(y, idx, x[:3] * (k + 1.0))
    return np.sum(y ** 3)


CASES = [
    at(reshaped_pairs, (normal("rp", 2),), (normal("rp", 6),), (normal("rp", 2, 4),)),
    at(raveled_weights, (normal("rw", 2, 3),), (normal("rw", 1, 1),)),
    at(expanded_then_matched, (normal("etm", 3), normal("etmY", 2, 3)), (normal("etm", 1), normal("etmY", 4, 1)),
       wrt="x"),
    at(pairwise_by_none, (normal("pbn", 1),), (normal("pbn", 4),), (normal("pbn", 5, dtype=F32),)),
    at(squeezed_column, (normal("sc", 3, 1),), (normal("sc", 1, 1),)),
    at(concatenated, (normal("cc", 2), normal("ccy", 3)), (normal("cc", 1), normal("ccy", 1))),
    at(concatenated_columns, (normal("ccl", 3, 2), normal("cclB", 3, 1)), (normal("ccl", 1, 1), normal("cclB", 1, 2))),
    at(stacked, (normal("st", 3), normal("sty", 3)), (normal("st", 1), normal("sty", 1))),
    at(array_of_scalars, (0.7, -1.2), (1.5, 0.3)),
    at(array_of_entries, (normal("aoe", 2),), (normal("aoe", 5),)),
    at(asarray_of_a_list, ([0.3, -0.7, 1.1],), ([0.5],)),
    at(shapes_read, (normal("sr", 3, 2),), (normal("sr", 1, 4),)),
    at(constants_of_a_shape, (normal("cos", 1),), (normal("cos", 5),)),
    at(identity_and_diagonal, (normal("iad", 1, 1),), (normal("iad", 3, 3),)),
    at(first_and_last, (normal("fal", 2),), (normal("fal", 5),), (normal("fal", 3, dtype=F32),)),
    at(strided_products, (normal("sp", 2),), (normal("sp", 6),)),
    at(tail_window, (normal("tw", 3),), (normal("tw", 7),)),
    at(row_and_column, (normal("rac", 2, 2),), (normal("rac", 4, 3),)),
    at(ellipsis_and_none, (normal("ean", 3, 2, 2),), (normal("ean", 1, 4, 3),)),
    at(gathered_with_repeats, (normal("gwr", 4), np.array([0, 2, 2, 1, 2])),
       (normal("gwr", 1), np.array([0, 0])), wrt="x"),
    at(gathered_pairs, (normal("gp", 3, 4), np.array([0, 2, 2]), np.array([1, 3, 1])),
       (normal("gp", 2, 2), classes("gpr", 5, 2), classes("gpc", 5, 2)), wrt="X"),
    at(selected_by_mask, (normal("sbm", 5), mask("sbmm", 5)), (normal("sbm", 2, 3), mask("sbmm", 2, 3)), wrt="x"),
    at(positive_entries, (normal("pe", 6),), (normal("pe", 3, 3),), kinky=True),
    at(rows_by_mask, (normal("rbm", 4, 3), mask("rbmm", 4)), (normal("rbm", 2, 1), mask("rbmm", 2)), wrt="X"),
    at(loop_over_range, (normal("lor", 1),), (normal("lor", 3),), (normal("lor", 7),)),
    at(loop_over_rows, (normal("lorX", 1, 3), normal("lorw", 3)), (normal("lorX", 3, 3), normal("lorw", 3)),
       (normal("lorX", 7, 3), normal("lorw", 3)), wrt="w"),
    at(neighbours_in_a_loop, (normal("nial", 1),), (normal("nial", 4),)),
    at(rows_by_index, (normal("rbi", 1, 3),), (normal("rbi", 3, 2),)),
    at(filled_by_index, (normal("fbi", 1),), (normal("fbi", 5),)),
    at(column_added_on_a_copy, (normal("caoc", 3, 2), normal("caocv", 3)), (normal("caoc", 1, 4), normal("caocv", 1)),
       (normal("caoc", 2, 2), 0.5)),
    at(differences_in_place, (normal("dip", 2),), (normal("dip", 6),)),
    at(row_overwritten, (normal("ro", 3, 2), normal("ror", 2)), (normal("ro", 1, 3), normal("ror", 3))),
    at(scattered_into_zeros, (normal("siz", 3), np.array([0, 2, 4])), (normal("siz", 1), np.array([2])), wrt="x"),
    at(list_of_arrays, ([normal("loa", 3), normal("loa2", 2, 2)],), ([normal("loa", 1)],),
       ([normal("loa", 2), normal("loa2", 1, 3), normal("loa3", 2, 1, 2)],)),
    at(added_at_repeats, (normal("aar", 4), np.array([3, 3])), (normal("aar", 2), np.array([0, 0])),
       wrt="x"),
    at(added_at_pairs, (normal("aap", 2, 3), np.array([0, 1]), np.array([2, 2])),
       (normal("aap", 3, 2), np.array([1, 1]), np.array([0, 0])), wrt="X"),
    at(added_at_in_a_loop, (normal("aail", 4), np.array([0, 2, 2])), (normal("aail", 3), np.array([1, 1, 0])),
       wrt="x"),
    at(tuple_of_arrays, ((normal("toa", 2, 3), normal("toab", 2)), normal("toax", 3)),
       ((normal("toa", 1, 1), normal("toab", 1)), normal("toax", 1)), wrt="params"),
]
