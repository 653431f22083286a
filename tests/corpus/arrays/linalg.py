"""Array functions of linear algebra: products, transposes, einsum and ``np.linalg``.

``@`` between vectors, matrices and stacks of matrices, ``np.dot``, ``np.matmul``,
``np.inner``, ``np.outer``, ``np.einsum`` with constant subscripts, ``np.tensordot``, ``.T`` and
``np.transpose`` with axes, ``np.diag`` both ways, and ``solve``, ``inv``, ``det``,
``slogdet`` and ``cholesky`` from ``np.linalg`` (one imported by name), and the
decompositions ``eigh``, ``eigvalsh``, ``svd``, ``qr``, ``pinv`` and ``matrix_power`` in
the models that use them (a Gaussian log-likelihood by its eigendecomposition, a PCA
reconstruction loss, least squares by ``pinv``, ``qr`` and ``lstsq``), at well conditioned
matrices with distinct eigenvalues (singular values).  ``cholesky`` reads only the lower triangle, so it is given
matrices that are symmetric by construction: the gradient is then the same whether a
rule symmetrizes or not.
"""

import numpy as np
from numpy.linalg import solve

from .case import F32, at, normal, spd, well_conditioned


def quadratic_form(A, x):
    return x @ A @ x


def dot_then_square(w, X):
    return np.sum(np.dot(X, w) ** 2)


def matmul_frobenius(A, B):
    return np.sum(np.matmul(A, B) ** 2)


def inner_and_outer(u, v):
    return np.inner(u, v) + np.sum(np.outer(u, v) ** 2)


def bilinear_einsum(x, W, y):
    return np.einsum("i,ij,j->", x, W, y)


def batched_einsum(A, B):
    return np.sum(np.tanh(np.einsum("bij,bjk->bik", A, B)))


def einsum_trace_and_rows(A):
    return np.einsum("ii", A) + np.sum(np.einsum("ij->i", A) ** 2)


def gram_matrix(X):
    G = X.T @ X
    return np.sum(G * G)


def transpose_axes(A):
    B = np.transpose(A, (1, 0, 2))
    return np.sum(B[0] * np.arange(B.shape[1] * B.shape[2]).reshape(B.shape[1], B.shape[2]))


def batched_matmul(A, x):
    y = A @ x
    return np.sum(np.sin(y))


def matrix_vector_chain(W1, W2, x):
    return np.sum(np.tanh(W2 @ np.tanh(W1 @ x)))


def diagonal_both_ways(A, v):
    return np.sum(np.diag(A) ** 2) + np.sum(np.diag(v) @ A)


def linear_solve(A, b):
    x = np.linalg.solve(A, b)
    return x @ x


def solve_imported(A, B):
    X = solve(A, B)
    return np.sum(X ** 2)


def inverse_sum(A):
    return np.sum(np.linalg.inv(A))


def determinant(A):
    return np.linalg.det(A)


def log_determinant(A):
    sign, logdet = np.linalg.slogdet(A)
    return logdet


def cholesky_log_det(K):
    L = np.linalg.cholesky(0.5 * (K + K.T))
    return 2.0 * np.sum(np.log(np.diag(L)))


def cholesky_whitening(A, y):
    K = A @ A.T + np.eye(A.shape[0])
    L = np.linalg.cholesky(K)
    z = np.linalg.solve(L, y)
    return z @ z


def gaussian_negative_log_likelihood(K, y):
    alpha = np.linalg.solve(K, y)
    sign, logdet = np.linalg.slogdet(K)
    return 0.5 * y @ alpha + 0.5 * logdet + 0.5 * y.shape[0] * np.log(2.0 * np.pi)


def ridge_closed_form(lam, X, y):
    n_features = X.shape[1]
    w = np.linalg.solve(X.T @ X + lam * np.eye(n_features), X.T @ y)
    return np.sum((X @ w - y) ** 2)


def whitened_residual(L, r):
    z = np.linalg.solve(L @ L.T + np.eye(L.shape[0]), r)
    return np.dot(z, r)


def triangles_of_a_matrix(A):
    L, U = np.tril(A), np.triu(A, 1)
    return np.sum(np.sin(L) * np.tril(A, -1)) + np.sum((U * A + U) ** 2)


def log_determinant_by_index(K, y):
    return np.linalg.slogdet(K)[1] + np.linalg.slogdet(K)[-1] * np.dot(y, y)


def gaussian_log_likelihood_by_eigh(K, y):
    w, V = np.linalg.eigh(K)
    z = V.T @ y  # the signs of the eigenvectors cancel in z ** 2
    return 0.5 * np.sum(z ** 2 / w) + 0.5 * np.sum(np.log(w)) + 0.5 * y.shape[0] * np.log(
        2.0 * np.pi)


def log_det_by_eigvalsh(K):
    return np.sum(np.log(np.linalg.eigvalsh(K)))


def pca_reconstruction_loss(X):
    centered = X - np.mean(X, axis=0)
    U, s, Vt = np.linalg.svd(centered, full_matrices=False)
    W = Vt[:2]  # the top two directions
    return np.sum((centered - centered @ W.T @ W) ** 2) + 0.1 * np.sum(s)


def least_squares_by_pinv(X, y):
    w = np.linalg.pinv(X) @ y
    return np.sum((X @ w - y) ** 2) + np.sum(w ** 2)


def least_squares_by_qr(X, y):
    Q, R = np.linalg.qr(X)
    w = np.linalg.solve(R, Q.T @ y)
    return np.sum(w ** 2) + np.sum((X @ w - y) ** 2)


def least_squares_by_lstsq(X, y):
    w, residuals, rank, values = np.linalg.lstsq(X, y, rcond=None)
    return np.sum(residuals) + 0.1 * np.sum(w ** 2)


def truncated_exponential(A):
    n = A.shape[0]
    E = np.eye(n) + A + np.linalg.matrix_power(A, 2) / 2.0 + np.linalg.matrix_power(A, 3) / 6.0
    return np.sum(E * np.arange(n * n).reshape(n, n))


def tensor_contractions(A, T):
    scores = np.tensordot(T, A, axes=1)  # (n, m, k) with (k, p): one axis contracted
    pairs = np.tensordot(T, T, axes=([0, 2], [0, 2]))  # a Gram matrix of the middle axis
    return np.sum(np.tanh(scores)) + np.sum(pairs ** 2) + np.tensordot(A, A) * 0.5


CASES = [
    at(quadratic_form, (normal("qf", 3, 3), normal("qfx", 3)), (normal("qf", 1, 1), normal("qfx", 1)),
       (normal("qf", 5, 5, dtype=F32), normal("qfx", 5, dtype=F32))),
    at(dot_then_square, (normal("dts", 3), normal("dtsX", 1, 3)), (normal("dts", 3), normal("dtsX", 7, 3)),
       wrt="w"),
    at(matmul_frobenius, (normal("mf", 2, 3), normal("mfB", 3, 4)), (normal("mf", 1, 1), normal("mfB", 1, 2))),
    at(inner_and_outer, (normal("iao", 3), normal("iaov", 3)), (normal("iao", 1), normal("iaov", 1))),
    at(bilinear_einsum, (normal("be", 2), normal("beW", 2, 3), normal("bey", 3)),
       (normal("be", 4), normal("beW", 4, 1), normal("bey", 1))),
    at(batched_einsum, (normal("bae", 2, 2, 3), normal("baeB", 2, 3, 2)),
       (normal("bae", 1, 3, 1), normal("baeB", 1, 1, 2))),
    at(einsum_trace_and_rows, (normal("etr", 3, 3),), (normal("etr", 1, 1),)),
    at(gram_matrix, (normal("gm", 4, 3),), (normal("gm", 1, 2),), (normal("gm", 3, 2, dtype=F32),)),
    at(transpose_axes, (normal("ta", 2, 3, 4),), (normal("ta", 1, 2, 1),)),
    at(batched_matmul, (normal("bm", 3, 2, 4), normal("bmx", 4)), (normal("bm", 1, 3, 3), normal("bmx", 3)),
       (normal("bm", 2, 2, 2), normal("bmx", 2, 1))),
    at(matrix_vector_chain, (normal("mvc1", 4, 3), normal("mvc2", 2, 4), normal("mvcx", 3)),
       (normal("mvc1", 1, 2), normal("mvc2", 1, 1), normal("mvcx", 2)), wrt=("W1", "W2")),
    at(diagonal_both_ways, (normal("dbw", 3, 3), normal("dbwv", 3)), (normal("dbw", 1, 1), normal("dbwv", 1))),
    at(linear_solve, (well_conditioned("ls", 3), normal("lsb", 3)), (well_conditioned("ls", 1), normal("lsb", 1))),
    at(solve_imported, (well_conditioned("si", 3), normal("siB", 3, 2)),
       (well_conditioned("si", 2), normal("siB", 2, 1))),
    at(inverse_sum, (well_conditioned("is", 3),), (well_conditioned("is", 4, dtype=F32),)),
    at(determinant, (well_conditioned("det", 2),), (well_conditioned("det", 4),)),
    at(log_determinant, (well_conditioned("ld", 3),), (spd("ld", 4),)),
    at(cholesky_log_det, (spd("cld", 3),), (spd("cld", 1),)),
    at(cholesky_whitening, (normal("cw", 3, 2), normal("cwy", 3)), (normal("cw", 1, 1), normal("cwy", 1))),
    at(gaussian_negative_log_likelihood, (spd("gnll", 3), normal("gnlly", 3)),
       (spd("gnll", 5), normal("gnlly", 5))),
    at(ridge_closed_form, (0.5, normal("rcf", 6, 3), normal("rcfy", 6)),
       (2.0, normal("rcf", 3, 2), normal("rcfy", 3)), wrt="lam"),
    at(whitened_residual, (normal("wr", 3, 2), normal("wrr", 3)), (normal("wr", 4, 4), normal("wrr", 4))),
    at(triangles_of_a_matrix, (normal("toam", 3, 3),), (normal("toam", 2, 4),),
       (normal("toam", 2, 3, 3, dtype=F32),)),
    at(log_determinant_by_index, (spd("ldbi", 3), normal("ldbiy", 2)),
       (spd("ldbi", 2), normal("ldbiy", 1))),
    at(gaussian_log_likelihood_by_eigh, (spd("glle", 3), normal("glley", 3)),
       (spd("glle", 5), normal("glley", 5)), (spd("glle", 1), normal("glley", 1))),
    at(log_det_by_eigvalsh, (spd("ldbe", 3),), (spd("ldbe", 4, dtype=F32),)),
    at(pca_reconstruction_loss, (normal("pca", 6, 3),), (normal("pca", 8, 4),)),
    at(least_squares_by_pinv, (normal("lsp", 3, 2), normal("lspy", 3)),
       (normal("lsp", 4, 3), normal("lspy", 4)), wrt="X"),
    at(least_squares_by_qr, (normal("lsq", 5, 3), normal("lsqy", 5)),
       (normal("lsq", 3, 2), normal("lsqy", 3))),
    at(least_squares_by_lstsq, (normal("lsl", 5, 2), normal("lsly", 5)),
       (normal("lsl", 4, 3), normal("lsly", 4))),
    at(truncated_exponential, (normal("te", 2, 2, scale=0.5),), (normal("te", 3, 3, scale=0.5),)),
    at(tensor_contractions, (normal("tcA", 3, 2), normal("tcT", 2, 4, 3)),
       (normal("tcA", 1, 1), normal("tcT", 2, 1, 1)),
       (normal("tcA", 2, 3, dtype=F32), normal("tcT", 3, 2, 2, dtype=F32))),
]
