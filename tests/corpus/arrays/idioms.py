"""NumPy as people write it: the operations of a model's code in the forms they take.

Norms with ``ord`` and ``axis``, ``np.max``/``np.min`` with ties, ``np.clip``,
``np.cumsum``/``np.diff``/``np.trace``, ``np.linalg.slogdet`` and ``cholesky``,
``np.stack``/``np.concatenate`` along an axis, ``x.reshape(-1, 1)``, ``x[:, None]``,
boolean-mask reads, ``np.maximum(x, 0)`` as a ReLU, a softmax with ``keepdims``,
``logsumexp``, masks combined with ``&``/``|``/``~``, reductions over a tuple of axes,
``np.diag``, a stack of matrices times a vector, matrices written out row by row from
numbers the function computes (``np.array([[c, -s], [s, c]])``), and NumPy's functions
imported by name (``from numpy import exp, sum as npsum``).  Code written for autograd
(``import autograd.numpy as np``) is in ``for_autograd``, whose cases join these.
"""

import numpy as np
from numpy import exp, tanh, sum as npsum
from numpy.linalg import norm, slogdet
from scipy.special import logsumexp

from .case import F32, at, batches, mask, normal, positive, spd


def norms_by_axis(X):
    return np.sum(np.linalg.norm(X, axis=1)) + np.sum(np.linalg.norm(X, axis=0, keepdims=True) * X)


def frobenius_and_rows(X):
    return norm(X) ** 2 + np.sum(norm(X, axis=-1) ** 3)


def maximum_with_ties(x):
    return np.max(x) * 2.0 + np.sum(np.min(np.abs(x), axis=0, keepdims=True))


def clipped(x, lo):
    return np.sum(np.clip(x, -1.0, 1.0) ** 2) + np.sum(np.clip(x, lo, 2.0 * lo + 1.0))


def cumulative_and_differences(x):
    c = np.cumsum(x)
    return np.sum(c ** 2) + np.sum(np.diff(x) ** 2) + np.trace(np.outer(x, c))


def log_determinants(K):
    sign, logdet = slogdet(K)
    L = np.linalg.cholesky(K)
    return sign * logdet - 2.0 * np.sum(np.log(np.diag(L)))


def stacked_along_axes(a, b):
    S = np.stack([a, b], axis=1)
    C = np.concatenate([S, a[:, None] * b[:, None]], axis=1)
    return np.sum(np.tanh(C) * np.arange(C.shape[1]))


def columns_and_new_axes(x, y):
    col = x.reshape(-1, 1)
    return np.sum(np.exp(-(col - y[None, :]) ** 2)) + np.sum(x[:, None] * y)


def masked_reads(x, m):
    return np.sum(x[m] ** 2) + np.sum(x[x > 0.5]) - np.sum(x[~m & (x < 0.0)] ** 3)


def relu_layer(W, b, X):
    h = np.maximum(X @ W + b, 0.0)
    return np.sum(h ** 2) + np.sum(np.maximum(0.0, -h + 0.5))


def softmax_rows(Z):
    e = np.exp(Z - np.max(Z, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    return np.sum(p * Z) + np.sum(logsumexp(Z, axis=1))


def masks_combined(x, y, m):
    both = (x > 0.0) & (y < 0.5)
    either = (x < -0.5) | ~m
    return np.sum(np.where(both, x * y, 0.0)) + np.sum(np.where(either & ~both, y ** 2, x))


def summed_over_axes(A):
    return np.sum(np.var(A, axis=(0, 2))) + np.sum(np.max(A, axis=(1, 2)) ** 2) + np.sum(
        np.mean(A ** 2, axis=(0, -1), keepdims=True))


def diagonal_of_a_gram(X, v):
    return np.sum(np.exp(np.diag(X.T @ X))) + np.sum(np.diag(v) @ X)


def stack_times_a_vector(T, x):
    return np.sum(np.sin(T @ x)) + np.einsum("ii", T[0] @ T[0].T)


def imported_by_name(x, w):
    return npsum(exp(-x * w) * tanh(x)) + npsum(x, axis=0) @ w


def squeezed_and_summed(C):
    return np.sum(np.exp(C.squeeze())) + np.sum(np.squeeze(C, axis=1) ** 2)


def padded_stencil(x):
    p = np.pad(x, (1, 1))  # zeros at both ends: a stencil with a fixed boundary
    return np.sum((p[2:] - 2.0 * p[1:-1] + p[:-2]) ** 2)


def padded_rows_and_columns(X):
    P = np.pad(X, ((1, 0), (0, 2)))
    return np.sum(np.sin(P) * P) + np.sum(np.pad(X, 1) ** 3)


def padded_by_its_size(A):
    n = A.shape[0]
    P = np.pad(A, ((0, n), (n - 1, 0)))
    return np.sum(np.tanh(P @ P.T))


def expanded_by_two_axes(x, A):
    e = np.expand_dims(x, (0, -1))  # (n,) -> (1, n, 1), against A of (m, n, k)
    return np.sum(np.sin(e * A)) + np.sum(np.expand_dims(x, (1,)) ** 2)



def rotated(theta, v):
    c, s = np.cos(theta), np.sin(theta)
    R = np.array([[c, -s], [s, c]])
    return np.sum((R @ v) ** 2 * np.array([1.0, 2.0]))


def damped_oscillator(k, y0):
    y = np.array([y0, 0.0])
    A = np.array([[0.0, 1.0], [-k, -0.1]])
    for _ in range(6):
        y = y + 0.05 * (A @ y)
    return y[0]


def tensor_of_rows(x):
    T = np.array([[[x, 1.0], [2.0, x * x]], [[0.5, x], ((x, 3.0))]])
    return np.sum(T ** 2) + np.linalg.det(np.array(((x, 0.5), (0.5, x))))

CASES = [
    at(norms_by_axis, (normal("nba", 3, 2),), (normal("nba", 1, 4),), (normal("nba", 2, 3, dtype=F32),)),
    at(frobenius_and_rows, (normal("far", 3, 2),), (normal("far", 2, 1),)),
    at(maximum_with_ties, (np.array([0.5, 2.0, -1.5, 2.0, 1.5]),),
       (np.array([[1.0, -2.0], [1.0, 2.0], [-1.5, 0.5]]),), kinky=True),
    at(clipped, (normal("clp", 5), 0.1), (normal("clp", 2, 3), -0.2), kinky=True),
    at(cumulative_and_differences, (normal("cad", 4),), (normal("cad", 1),)),
    at(log_determinants, (spd("lds", 3),), (spd("lds", 1),)),
    at(stacked_along_axes, (normal("saa", 3), normal("saab", 3)), (normal("saa", 1), normal("saab", 1))),
    at(columns_and_new_axes, (normal("cna", 3), normal("cnay", 4)), (normal("cna", 1), normal("cnay", 2))),
    at(masked_reads, (normal("mrd", 5), mask("mrdm", 5)), (normal("mrd", 6), mask("mrdm", 6)), wrt="x",
       kinky=True),
    at(relu_layer, *batches(lambda n: (normal("rlW", 3, 2), normal("rlb", 2), normal(f"rlX{n}", n, 3))),
       wrt=("W", "b"), kinky=True),
    at(softmax_rows, (normal("smr", 2, 3),), (normal("smr", 1, 4),), (normal("smr", 3, 1, dtype=F32),)),
    at(masks_combined, (normal("mcb", 4), normal("mcby", 4), mask("mcbm", 4)),
       (normal("mcb", 2, 3), normal("mcby", 3), mask("mcbm", 2, 3)), wrt=("x", "y"), kinky=True),
    at(summed_over_axes, (normal("soa", 2, 3, 4),), (normal("soa", 1, 2, 1),)),
    at(diagonal_of_a_gram, (normal("dog", 3, 2), normal("dogv", 3)), (normal("dog", 2, 2), normal("dogv", 2))),
    at(stack_times_a_vector, (normal("stv", 2, 3, 3), normal("stvx", 3)), (normal("stv", 1, 2, 2), normal("stvx", 2))),
    at(imported_by_name, (positive("ibn", 3, 2), normal("ibnw", 2)), (positive("ibn", 1, 3), normal("ibnw", 3))),
    at(squeezed_and_summed, (normal("sas", 3, 1),), (normal("sas", 1, 1),)),
    at(padded_stencil, (normal("pst", 5),), (normal("pst", 1),), (normal("pst", 3, dtype=F32),)),
    at(padded_rows_and_columns, (normal("prc", 2, 3),), (normal("prc", 1, 1),),
       (normal("prc", 3, 2, dtype=F32),)),
    at(padded_by_its_size, (normal("pbis", 2, 3),), (normal("pbis", 1, 2),)),
    at(expanded_by_two_axes, (normal("ebta", 4), normal("ebtA", 2, 4, 3)),
       (normal("ebta", 1), normal("ebtA", 3, 1, 2)), (normal("ebta", 3, dtype=F32),
                                                    normal("ebtA", 1, 3, 2, dtype=F32))),
    at(rotated, (0.3, normal("rot", 2)), (-1.2, normal("rot", 2, dtype=F32))),
    at(damped_oscillator, (2.0, 1.0), (0.5, -0.3)),
    at(tensor_of_rows, (0.7,), (-1.3,)),
]
