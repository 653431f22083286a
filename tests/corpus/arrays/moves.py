"""NumPy's moves, sorts, copies and questions as model code writes them.

Axes swapped and moved (``np.swapaxes``, ``x.swapaxes``, ``np.moveaxis``), elements
rolled, flipped and turned (``np.roll`` by a shift read as the code runs, ``np.flipud``,
``np.fliplr``, ``np.rot90``), ``np.atleast_2d`` of a vector, sorted values (a trimmed
mean, order statistics, ``np.take_along_axis`` of an argsort), running products
(``np.cumprod``: a survival curve, a stick-breaking, with a zero factor), copies
(``np.repeat``, ``x.repeat``, ``np.tile``), casts (``x.astype``) and clips (``x.clip``),
``np.column_stack`` and ``np.vdot``, ranges (``np.ptp``) and diagonals (``np.diagonal``),
constant dtypes (``dtype=float``), ``np.logical_xor``, ``np.take`` (an embedding's rows),
and the questions whose answers are data: ``np.argmax``
picking a row's best entry, ``np.argsort`` reordering, ``np.count_nonzero``,
``(x > 0).any()`` and ``np.allclose`` in a branch, ``np.isfinite`` in a mask.
"""

import numpy as np

from .case import F32, at, classes, normal, positive, uniform


def attention_heads_swapped(Q, K):
    scores = np.swapaxes(Q, 0, 1) @ K.swapaxes(0, 1).swapaxes(1, 2)  # (h, t, d) x (h, d, t)
    return np.sum(np.tanh(scores)) + np.sum(np.moveaxis(Q, -1, 0) ** 2 * np.arange(
        Q.shape[-1])[:, None, None])


def channels_last(X):
    Y = np.moveaxis(X, 0, -1)  # (c, h, w) -> (h, w, c)
    return np.sum(np.sin(Y) * np.arange(Y.shape[-1]))


def periodic_neighbours(x):
    shift = len(x) // 2  # read as the code runs
    left, right = np.roll(x, shift), np.roll(x, -1)
    return np.sum((left - 2.0 * x + right) ** 2) + np.sum(x * np.roll(x, 2, axis=0))


def flipped_and_turned(A):
    return np.sum(np.flipud(A) * A) + np.sum(np.fliplr(A) ** 3) + np.sum(
        np.rot90(A @ A.T) * np.rot90(A @ A.T, 3))


def rows_of_a_vector(x, W):
    X = np.atleast_2d(x)  # one sample as a batch of one
    return np.sum(np.tanh(X @ W)) + np.sum(np.atleast_2d(W) ** 2)


def trimmed_mean(x):
    s = np.sort(x)
    return np.mean(s[1:-1]) + 0.5 * (s[-1] - s[0])


def order_statistics_by_rows(X):
    S = np.sort(X, axis=1)
    weights = np.linspace(0.0, 1.0, X.shape[1])
    return np.sum(S * weights) + np.sum(np.sort(X, axis=0)[-1] ** 2)


def sorted_twice(x):
    return np.sum(np.sort(x) * np.arange(x.size)) + np.sum(np.sort(x, axis=None)[:2] ** 2)


def survival_curve(hazard):
    survive = np.cumprod(1.0 - hazard)
    return np.sum(survive) + np.sum(np.log(survive[-2:]))


def stick_breaking(v, A):
    rest = np.concatenate([np.ones(1), np.cumprod(1.0 - v)[:-1]])
    return np.sum(np.log(v * rest)) + np.sum(np.cumprod(A, axis=1) * A) + np.sum(
        A.cumprod(axis=0) ** 2)


def product_through_a_zero(x):
    return np.sum(np.cumprod(x)) + np.sum(x.cumprod() * np.arange(x.size))


def upsampled(x, A):
    return np.sum(np.repeat(x, 2) ** 2 * np.arange(2 * x.size)) + np.sum(
        np.repeat(A, 3, axis=0) * np.repeat(A, 3, axis=0)) + np.sum(A.repeat(2, axis=1) ** 3)


def tiled_templates(x, A):
    T = np.tile(A, (2, 1))  # two copies of the rows
    return np.sum(np.tile(x, 3) ** 2 * np.arange(3 * x.size)) + np.sum(np.sin(T) * T) + np.sum(
        np.tile(A, (2, 1, 2)) ** 3)


def cast_and_clipped(x):
    wide = x.astype(np.float64)  # a float32 parameter computed in float64
    back = (wide * 2.0).astype(x.dtype)
    return float(np.sum(wide.clip(-0.5, 0.5) ** 2)) + np.sum(back.clip(0.0, 1.0) * x) + np.sum(
        x.astype("float64") ** 3) + np.sum(x.astype(float) * np.float32(0.5))


def columns_and_inner_products(v, w):
    M = np.column_stack([v, w, v * w])
    return np.vdot(M, M) + np.vdot(v, w) ** 2 + np.sum(np.column_stack((M, M[:, :1])) ** 3)


def ranges_and_diagonals(X):
    spread = np.ptp(X, axis=0)  # each feature's range, ties shared as max/min share them
    G = X.T @ X
    return np.sum(spread ** 2) + np.ptp(X) + np.sum(np.log1p(np.diagonal(G))) + np.sum(
        G.diagonal() * np.arange(G.shape[0]))


def constant_dtypes_and_exclusive_masks(x):
    z = np.zeros(x.shape[0], dtype=float) + np.arange(x.shape[0], dtype=np.float64)
    one_side = np.logical_xor(x > 0.0, z > 1.0)
    return np.sum(np.where(one_side, x * z, x ** 2), dtype=np.float64) + np.mean(
        np.array([x[0], x[-1]], dtype=float) ** 2, dtype="float64")


def embedding_lookup(E, tokens):
    H = np.take(E, tokens, axis=0)  # one row per token: a token repeated adds up
    return np.sum(np.tanh(H)) + np.sum(np.take(E, tokens[:1], axis=-1) ** 2) + np.sum(
        np.take(E, tokens) ** 3)


def best_entry_per_row(X):
    best = np.argmax(X, axis=1)
    worst = X.argmin(axis=1)
    rows = np.arange(X.shape[0])
    return np.sum(X[rows, best] ** 2) - np.sum(X[rows, worst]) + X.ravel()[np.argmax(X)]


def reordered_by_rank(x, y):
    order = np.argsort(x)
    return np.sum(y[order] * np.cumsum(x[order])) + np.sum(x[x.argsort()][::-1] * y)


def questions_in_branches(x):
    total = np.sum(x ** 2) / np.count_nonzero(x > -10.0)
    if (x > 0).any():
        total = total + np.sum(np.where(x > 0, x, 0.0) ** 3)
    if np.allclose(x, 0.0) or not np.all(np.isfinite(x)):
        return 0.0
    return total + np.sum(np.where(np.isnan(x), 0.0, np.sin(x)))



def ranked_along_rows(X):
    order = np.argsort(X, axis=1)
    ranked = np.take_along_axis(X, order, axis=1)  # each row in increasing order
    best = np.take_along_axis(X, order[:, -1:], axis=1)  # each row's largest entry
    return np.sum(ranked * np.arange(X.shape[1])) + np.sum(best ** 2)


CASES = [
    at(attention_heads_swapped, (normal("ahs", 3, 2, 4), normal("ahsk", 3, 2, 4)),
       (normal("ahs", 1, 1, 2), normal("ahsk", 1, 1, 2)),
       (normal("ahs", 2, 3, 2, dtype=F32), normal("ahsk", 2, 3, 2, dtype=F32))),
    at(channels_last, (normal("chl", 3, 2, 2),), (normal("chl", 1, 2, 3),)),
    at(periodic_neighbours, (normal("pnb", 5),), (normal("pnb", 4),), (normal("pnb", 1),)),
    at(flipped_and_turned, (normal("fat", 3, 2),), (normal("fat", 2, 2),), (normal("fat", 1, 3),)),
    at(rows_of_a_vector, (normal("rov", 3), normal("rovW", 3, 2)),
       (normal("rov", 1), normal("rovW", 1, 4))),
    at(trimmed_mean, (normal("trm", 5),), (normal("trm", 3),), (normal("trm", 4, dtype=F32),),
       kinky=True),
    at(order_statistics_by_rows, (normal("osr", 3, 4),), (normal("osr", 1, 3),), kinky=True),
    at(sorted_twice, (np.array([1.0, -0.5, 1.25, 2.0, -0.75]),), (normal("swt", 4),),
       kinky=True),
    at(survival_curve, (uniform("svc", 5, lo=0.05, hi=0.6),), (uniform("svc", 2, lo=0.1, hi=0.5),)),
    at(stick_breaking, (uniform("stb", 4, lo=0.1, hi=0.9), normal("stbA", 2, 3)),
       (uniform("stb", 2, lo=0.2, hi=0.8), normal("stbA", 3, 1))),
    at(product_through_a_zero, (np.array([1.5, 0.0, -2.0, 0.5]),), (np.array([0.0, 0.0, 3.0]),),
       (normal("ptz", 5),)),
    at(upsampled, (normal("ups", 3), normal("upsA", 2, 3)), (normal("ups", 1), normal("upsA", 1, 1)),
       (normal("ups", 2, dtype=F32), normal("upsA", 2, 2, dtype=F32))),
    at(tiled_templates, (normal("tlt", 3), normal("tltA", 2, 3)), (normal("tlt", 1), normal("tltA", 1, 1)),
       (normal("tlt", 2, dtype=F32), normal("tltA", 2, 2, dtype=F32))),
    at(cast_and_clipped, (normal("cac", 5),), (normal("cac", 2, 3),),
       (normal("cacf", 4, dtype=F32),), kinky=True),
    at(columns_and_inner_products, (normal("cip", 3), normal("cipw", 3)),
       (normal("cip", 1), normal("cipw", 1))),
    at(ranges_and_diagonals, (normal("rad", 3, 2),), (normal("rad", 4, 3),), (normal("rad", 1, 2),),
       kinky=True),
    at(constant_dtypes_and_exclusive_masks, (normal("cdm", 4),), (normal("cdm", 1),),
       (normal("cdm", 3, dtype=F32),), kinky=True),
    at(embedding_lookup, (normal("eml", 4, 3), classes("emlt", 5, 3)),
       (normal("eml", 2, 2), classes("emlt", 3, 2)), wrt="E"),
    at(best_entry_per_row, (normal("bepr", 3, 4),), (normal("bepr", 2, 1),), kinky=True),
    at(reordered_by_rank, (normal("rbr", 5), normal("rbry", 5)), (normal("rbr", 2), normal("rbry", 2)),
       kinky=True),
    at(questions_in_branches, (normal("qib", 5),), (positive("qib", 3),), (-positive("qibn", 2),),
       kinky=True),
    at(ranked_along_rows, (normal("rar", 3, 4),), (normal("rar", 1, 3),),
       (normal("rar", 2, 2, dtype=F32),), kinky=True),
]
