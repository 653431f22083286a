"""Array functions built on reductions, with and without ``axis`` and ``keepdims``.

``sum``, ``mean``, ``prod``, ``max``/``min`` (with points where the maximum is tied
between two entries: the gradient is shared between them, which is also what a central
difference sees), ``var``, ``std``, ``np.linalg.norm``, ``cumsum``, ``np.diff``,
``np.trace``, ``scipy.special.logsumexp`` and ``np.average`` (weighted too), as functions
and as methods, over one axis, a negative axis and a tuple of axes; SciPy's ``softmax``
and ``log_softmax``, which keep the shape, along an axis and over the whole array.
"""

import numpy as np
from numpy.linalg import norm
import scipy.special as sp
from scipy.special import log_softmax, logsumexp, softmax

from .case import F32, at, normal, positive, uniform

TIED = np.array([0.3, 1.2, -0.5, 1.2, 0.1])
TIED_ROWS = np.array([[0.5, 2.0, 2.0], [-1.0, 0.3, -0.2], [0.7, 0.7, -0.4]])


def sum_over_rows(X):
    return np.sum(np.sum(X, axis=0) ** 2)


def normalized_by_row_sums(X):
    s = X.sum(axis=1, keepdims=True)
    return np.sum((X / s) ** 2)


def mean_over_two_axes(A):
    m = np.mean(A, axis=(0, 2))
    return np.sum(m ** 2 + np.sin(m))


def sum_over_the_last_axis(X):
    return np.sum(np.exp(np.sum(X, axis=-1)))


def product_of_all(x):
    return np.prod(x)


def product_of_rows(X):
    return np.sum(np.prod(X, axis=1))


def largest_entry(x):
    return np.max(x) + 0.5 * np.sum(x ** 2)


def shifted_by_row_max(X):
    Z = X - X.max(axis=1, keepdims=True)
    return np.sum(np.exp(Z))


def column_minima(X):
    return np.sum(np.min(X, axis=0) * np.arange(1, X.shape[1] + 1))


def range_of_values(x):
    return x.max() - x.min() + np.amax(x ** 2)


def variance_and_std(x, X):
    return np.var(x) + np.std(X, axis=0).sum()


def sample_variance(x):
    return np.var(x, ddof=1)


def vector_norm(x):
    return norm(x) + np.linalg.norm(x - 1.0) ** 2


def row_norms(X):
    return np.sum(np.linalg.norm(X, axis=1))


def frobenius_norm(W):
    return np.linalg.norm(W) / W.size


def cumulative_sum(x):
    return np.sum(np.cumsum(x) ** 2)


def cumulative_along_rows(X):
    return np.sum(np.sin(np.cumsum(X, axis=1)))


def first_differences(x):
    return np.sum(np.diff(x) ** 2)


def total_variation(X):
    return np.sum(np.sqrt(np.diff(X, axis=0) ** 2 + 1e-3))


def trace_of_square(A):
    return np.trace(A @ A) + np.trace(A)


def logsumexp_of_all(x):
    return logsumexp(x)


def logsumexp_of_rows(X):
    return np.sum(logsumexp(X, axis=1))


def standardized(X):
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    return np.sum(Z ** 3)


def mean_method_keepdims(X):
    centred = X - X.mean(axis=1, keepdims=True)
    return (centred ** 2).mean()


def sum_of_a_comparison_count(x):
    count = np.sum(x > 0.0)
    return np.sum(x ** 2) * count


def counted_in_its_dtype(X):
    k = np.sum(X > 0.0, axis=0, dtype=X.dtype)  # a count per column, in X's dtype
    return np.sum(X ** 2 * k) + np.mean(np.sin(X), dtype=X.dtype)


def shifted_by_an_identity(A):
    eye = np.eye(A.shape[0], A.shape[1], dtype=A.dtype)
    return np.sum((A + 2.0 * eye) ** 3) + np.sum(np.exp(A), axis=None, dtype=A.dtype)


def logsumexp_by_position(X):
    return np.sum(logsumexp(X, 1, None, True) * X) + logsumexp(X, None)



def weighted_means(X, w):
    by_rows = np.average(X, axis=0, weights=w)  # w one weight per row
    return np.sum(by_rows ** 2) + np.average(X) * np.average(X, weights=X * X + 1.0) + np.sum(
        np.average(X, axis=-1) ** 3)


def softmax_classifier(W, X):
    P = softmax(X @ W, axis=1)
    return np.sum(P[:, 0] * np.arange(P.shape[0]))


def log_softmax_cross_entropy(logits, Y):
    return -np.mean(np.sum(Y * log_softmax(logits, axis=-1), axis=-1))


def softmax_of_everything(x):
    return np.sum(sp.softmax(x) ** 3) + np.sum(sp.log_softmax(x, axis=0)[0] ** 2)


def softmax_attention(Q, K, V):
    weights = softmax(Q @ K.T / np.sqrt(Q.shape[-1]), axis=-1)
    return np.sum((weights @ V) ** 2)


CASES = [
    at(sum_over_rows, (normal("sor", 1, 3),), (normal("sor", 4, 3),), (normal("sor", 7, 1),)),
    at(normalized_by_row_sums, (positive("nbrs", 3, 4),), (positive("nbrs", 1, 2),)),
    at(mean_over_two_axes, (normal("mota", 2, 3, 4),), (normal("mota", 1, 2, 1),)),
    at(sum_over_the_last_axis, (normal("sotla", 3, 2),), (normal("sotla", 2, 2, 3, dtype=F32),)),
    at(product_of_all, (uniform("poa", 4, lo=0.5, hi=1.5),), (uniform("poa", 2, 3, lo=-1.5, hi=-0.5),)),
    at(product_of_rows, (uniform("por", 3, 4, lo=0.5, hi=1.5),), (positive("por", 1, 2),)),
    at(largest_entry, (normal("le", 5),), (TIED,), (normal("le", 3, 2),), kinky=True),
    at(shifted_by_row_max, (normal("sbrm", 3, 4),), (TIED_ROWS,), (normal("sbrm", 1, 3),),
       kinky=True),
    at(column_minima, (normal("cm", 4, 3),), (TIED_ROWS.T.copy(),), (normal("cm", 1, 2),),
       kinky=True),
    at(range_of_values, (normal("rov", 6),), (TIED,), (normal("rov", 2, 3),), kinky=True),
    at(variance_and_std, (normal("vas", 5), normal("vasX", 4, 3)),
       (normal("vas", 2), normal("vasX", 2, 1))),
    at(sample_variance, (normal("sv", 3),), (normal("sv", 8),)),
    at(vector_norm, (normal("vn", 3),), (normal("vn", 6, dtype=F32),)),
    at(row_norms, (normal("rn", 4, 3),), (normal("rn", 1, 5),)),
    at(frobenius_norm, (normal("fn", 3, 3),), (normal("fn", 2, 5),)),
    at(cumulative_sum, (normal("cus", 1),), (normal("cus", 6),)),
    at(cumulative_along_rows, (normal("car", 3, 4),), (normal("car", 2, 1),)),
    at(first_differences, (normal("fd", 2),), (normal("fd", 7),)),
    at(total_variation, (normal("tv", 4, 3),), (normal("tv", 2, 1),)),
    at(trace_of_square, (normal("tos", 3, 3),), (normal("tos", 1, 1),)),
    at(logsumexp_of_all, (normal("lsea", 4),), (normal("lsea", 2, 3),)),
    at(logsumexp_of_rows, (normal("lser", 3, 4),), (normal("lser", 1, 2),),
       (normal("lser", 5, 3, dtype=F32),)),
    at(standardized, (normal("std", 5, 3),), (normal("std", 3, 1),)),
    at(mean_method_keepdims, (normal("mmk", 3, 4),), (normal("mmk", 1, 3),)),
    at(sum_of_a_comparison_count, (normal("soacc", 5),), (normal("soacc", 2, 3),), kinky=True),
    at(counted_in_its_dtype, (normal("ciid", 4, 3),), (normal("ciid", 2, 5, dtype=F32),),
       kinky=True),
    at(shifted_by_an_identity, (normal("sbai", 3, 3),), (normal("sbai", 2, 4, dtype=F32),),
       (normal("sbai", 4, 1),)),
    at(logsumexp_by_position, (normal("lsbp", 3, 2),), (normal("lsbp", 1, 4, dtype=F32),)),
    at(weighted_means, (normal("wm", 3, 4), positive("wmw", 3)),
       (normal("wm", 1, 2), positive("wmw", 1)),
       (normal("wm", 4, 1, dtype=F32), positive("wmw", 4, dtype=F32))),
    at(softmax_classifier, (normal("smc", 3, 4), normal("smcX", 5, 3)),
       (normal("smc", 2, 1), normal("smcX", 1, 2)),
       (normal("smc", 3, 2, dtype=F32), normal("smcX", 4, 3, dtype=F32)), wrt="W"),
    at(log_softmax_cross_entropy, (normal("lsce", 4, 3), np.eye(3)[[0, 2, 1, 1]]),
       (normal("lsce", 1, 2), np.eye(2)[[1]]),
       (normal("lsce", 2, 5, dtype=F32), np.eye(5, dtype=F32)[[4, 0]]), wrt="logits"),
    at(softmax_of_everything, (normal("soe", 2, 3),), (normal("soe", 4),),
       (normal("soe", 1, 1),)),
    at(softmax_attention, (normal("saq", 3, 4), normal("sak", 5, 4), normal("sav", 5, 2)),
       (normal("saq", 1, 2), normal("sak", 1, 2), normal("sav", 1, 1))),
]
