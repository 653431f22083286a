"""Forward mode through array records the corpus calls seldom or never: each function
below, ``jvp`` along random directions against a Richardson difference of the function
and against ``<grad, v>`` (the corpus's checks, ``test_forward_arrays``, on a table, as
autograd's systematic tests take ufuncs from tables).
"""

import zlib

import numpy as np
import pytest

import symdiff

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles


def kron_of_vectors(x, y):
    return np.sum(np.kron(x, y) ** 2)


def kron_of_matrices(A, B):
    return np.sum(np.sin(np.kron(A, B)))


def stacked_rows(x, y):
    return np.sum(np.vstack([x, y]) ** 3)


def joined_sideways(A, B):
    return np.sum(np.hstack([A, B]) * np.hstack([B, A]))


def filled_like(x, s):
    return np.sum(np.full_like(x, s) * x)


def flattened(A):
    return np.sum(A.flatten() ** 2 * np.arange(6.0))


def axes_swapped(T):
    return np.sum(np.transpose(T, (2, 0, 1)) * np.arange(24.0).reshape(4, 2, 3))


def shaped_as(x, A):
    return np.sum(x.reshape(A.shape) * A)


def written_at(x, v):
    y = x.copy()
    y[1] = v * 2.0
    y[2:] = np.sin(y[2:])
    return np.sum(y ** 2)


def solved_both_ways(A, b):
    M = A @ A.T + 3.0 * np.eye(3)
    return np.sum(np.linalg.solve(M, b) ** 2) + np.linalg.det(M) + np.sum(np.linalg.inv(M))


def cholesky_sum(A):
    L = np.linalg.cholesky(A @ A.T + 3.0 * np.eye(3))
    return np.sum(L * np.arange(9.0).reshape(3, 3))


def log_determinant(A):
    sign, logdet = np.linalg.slogdet(A @ A.T + np.eye(3))
    return logdet * sign


def moments_by_axis(X):
    return np.sum(np.var(X, axis=0)) + np.sum(np.std(X, axis=1, keepdims=True) * X)


def norms_and_products(X):
    return np.sum(np.linalg.norm(X, axis=1)) + np.sum(np.prod(X, axis=0, keepdims=True) * X)


def extremes_by_axis(X):
    return np.sum(np.max(X, axis=1) ** 2) + np.sum(np.min(X, axis=0, keepdims=True) * X)


def spaced(a, b):
    return np.sum(np.linspace(a, b, 5) ** 2)


def einsum_pair(A, B):
    return np.sum(np.einsum("ij,jk->ik", A, B) ** 2) + np.einsum("ij->", A * A)


def where_both(x, y):
    return np.sum(np.where(x > 0.0, x * y, y ** 2))


def cumulative_and_differences(X):
    return np.sum(np.cumsum(X, axis=1) ** 2) + np.sum(np.diff(X, axis=0) ** 2)


def masked_by_logic(x, y):
    inside = np.logical_and(x > -0.5, np.logical_not(y > 1.0))
    return np.sum(np.where(np.logical_or(inside, x > 1.5), x * y, y ** 2))


def flipped(X, w):
    return np.sum(np.flip(X, axis=1) * w) + np.sum(np.flip(X) ** 3) + np.sum(np.flip(X, 0) * X)


def _rand(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


CASES = [
    (kron_of_vectors, (_rand(1, 3), _rand(2, 2))),
    (kron_of_matrices, (_rand(3, 2, 2), _rand(4, 2, 3))),
    (stacked_rows, (_rand(5, 4), _rand(6, 4))),
    (joined_sideways, (_rand(7, 2, 3), _rand(8, 2, 3))),
    (filled_like, (_rand(9, 4), 0.7)),
    (flattened, (_rand(10, 2, 3),)),
    (axes_swapped, (_rand(11, 2, 3, 4),)),
    (shaped_as, (_rand(12, 6), _rand(13, 2, 3))),
    (written_at, (_rand(14, 5), 0.3)),
    (solved_both_ways, (_rand(15, 3, 3), _rand(16, 3))),
    (cholesky_sum, (_rand(17, 3, 3),)),
    (log_determinant, (_rand(18, 3, 3),)),
    (moments_by_axis, (_rand(19, 4, 3),)),
    (norms_and_products, (_rand(20, 3, 4),)),
    (extremes_by_axis, (_rand(21, 3, 4),)),
    (spaced, (0.5, -1.5)),
    (einsum_pair, (_rand(22, 2, 3), _rand(23, 3, 2))),
    (where_both, (_rand(24, 6), _rand(25, 6))),
    (cumulative_and_differences, (_rand(26, 3, 4),)),
    (masked_by_logic, (_rand(27, 8), _rand(28, 8))),
    (flipped, (_rand(29, 3, 4), _rand(30, 4))),
]


@pytest.mark.parametrize("fn, point", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_jvp_agrees_with_differences_and_with_the_gradient(fn, point):
    rng = np.random.default_rng(zlib.crc32(fn.__name__.encode()))
    directions = [rng.standard_normal(np.shape(p)) if np.ndim(p) else float(
        rng.standard_normal()) for p in point]
    value, tangent = symdiff.jvp(fn)(*point, *directions)
    assert np.isclose(value, fn(*point), rtol=1e-12)
    indices = list(range(len(point)))
    estimate, _ = oracles.richardson(
        fn, lambda t: oracles.along(point, indices, [[v] for v in directions], t), 1e-4)
    assert np.isclose(tangent, estimate, rtol=1e-6, atol=1e-7)
    gradient = symdiff.grad(fn)(*point)
    gradient = gradient if isinstance(gradient, tuple) else (gradient,)
    inner = sum(float(np.sum(g * v)) for g, v in zip(gradient, directions))
    assert np.isclose(tangent, inner, rtol=1e-9, atol=1e-10)
