"""The array oracles (``array_oracles``) can fail: gradients derived by hand for corpus
functions pass at every point of theirs, and deliberately wrong ones (transposed, a
broadcast not summed back, a sign flipped, the gradient of a tied maximum given to the
first entry only, repeated indices written instead of added, float64 for a float32
parameter, a tuple for a list, an argument or one array returned as two gradients) are
rejected.

The hand gradients are derived on paper from the function's formula, not from any
differentiator; each is a function of the point returning the gradient as
``symdiff.grad`` shapes it (one parameter's bare, several in a tuple).
"""

import numpy as np
import pytest

try:
    import array_oracles as oracles
    from corpus.arrays import ARRAY_CASES as CASES
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles
    from tests.corpus.arrays import ARRAY_CASES as CASES


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def softmax(Z):
    E = np.exp(Z - Z.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def summed_to(g, shape):
    """``g`` summed over the axes a broadcast to ``g.shape`` from ``shape`` added."""
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    return g.sum(axis=tuple(k for k, n in enumerate(shape) if n == 1), keepdims=True)


def d_sum_over_rows(X):
    return np.ones_like(X) * 2.0 * X.sum(axis=0)


def d_against_a_row_vector(X, b):
    g = 2.0 * (X + b)
    return g, summed_to(g, b.shape).reshape(b.shape)


def d_against_a_column(X, c):
    g = np.cos(X * c)
    return g * c, np.sum(g * X, axis=1, keepdims=True)


def d_largest_entry(x):
    tied = x == x.max()
    return tied / tied.sum() + x


def d_cumulative_sum(x):
    return np.cumsum((2.0 * np.cumsum(x))[::-1])[::-1]


def d_logsumexp_of_rows(X):
    return softmax(X)


def d_matmul_frobenius(A, B):
    M = 2.0 * A @ B
    return M @ B.T, A.T @ M


def d_quadratic_form(A, x):
    return np.outer(x, x).astype(A.dtype), ((A + A.T) @ x).astype(x.dtype)


def d_linear_solve(A, b):
    x = np.linalg.solve(A, b)
    db = np.linalg.solve(A.T, 2.0 * x)
    return -np.outer(db, x), db


def d_log_determinant(A):
    return np.linalg.inv(A).T


def d_determinant(A):
    return np.linalg.det(A) * np.linalg.inv(A).T


def d_logistic_loss(w, X, y):
    margins = -y * (X @ w)
    return X.T @ (-y * sigmoid(margins)) / X.shape[0]


def d_softmax_cross_entropy(W, X, labels):
    P = softmax(X @ W)
    P[np.arange(X.shape[0]), labels] -= 1.0
    return X.T @ P / X.shape[0]


def d_mean_squared_error(w, b, X, y):
    r = X @ w + b - y
    return 2.0 * X.T @ r / X.shape[0], 2.0 * float(np.mean(r))


def d_dense_tanh(W, b, X):
    g = 1.0 - np.tanh(X @ W + b) ** 2
    return X.T @ g, g.sum(axis=0)


def d_mlp_over_a_dict(params, X, y):
    h = np.tanh(X @ params["W1"] + params["b1"])
    out = h @ params["W2"] + params["b2"]
    g_out = np.zeros_like(out)
    g_out[:, 0] = 2.0 * (out[:, 0] - y) / X.shape[0]
    g_h = g_out @ params["W2"].T * (1.0 - h ** 2)
    return {"W1": X.T @ g_h, "b1": g_h.sum(axis=0), "W2": h.T @ g_out, "b2": g_out.sum(axis=0)}


def d_gathered_with_repeats(x, idx):
    g = np.zeros_like(x)
    np.add.at(g, idx, 2.0 * x[idx])
    return g


def d_list_of_arrays(arrays):
    return [2.0 * a / a.size for a in arrays]


def d_float32_scaled(x):
    return np.float32(2.0) + np.float32(2.0) * x


def d_where_given_mask(x, m):
    return np.where(m, 2.0 * x, 0.0)


def d_absolute_deviation(x):
    return np.sign(x - 0.1)


def d_hinge_loss(w, X, y):
    active = (1.0 - y * (X @ w)) > 0.0
    return X.T @ (-y * active) / X.shape[0] + 0.02 * w


HAND = {
    "reductions.sum_over_rows": d_sum_over_rows,
    "elementwise.against_a_row_vector": d_against_a_row_vector,
    "elementwise.against_a_column": d_against_a_column,
    "reductions.largest_entry": d_largest_entry,
    "reductions.cumulative_sum": d_cumulative_sum,
    "reductions.logsumexp_of_rows": d_logsumexp_of_rows,
    "linalg.matmul_frobenius": d_matmul_frobenius,
    "linalg.quadratic_form": d_quadratic_form,
    "linalg.linear_solve": d_linear_solve,
    "linalg.log_determinant": d_log_determinant,
    "linalg.determinant": d_determinant,
    "models.logistic_loss": d_logistic_loss,
    "models.softmax_cross_entropy": d_softmax_cross_entropy,
    "models.mean_squared_error": d_mean_squared_error,
    "models.dense_tanh": d_dense_tanh,
    "models.mlp_over_a_dict": d_mlp_over_a_dict,
    "indexing.gathered_with_repeats": d_gathered_with_repeats,
    "indexing.list_of_arrays": d_list_of_arrays,
    "elementwise.float32_scaled": d_float32_scaled,
    "elementwise.where_given_mask": d_where_given_mask,
    "elementwise.absolute_deviation": d_absolute_deviation,
    "models.hinge_loss": d_hinge_loss,
}


def failures_of(case_id, derive, point):
    case = CASES[case_id]
    return oracles.gradient_failures(case.fn, point, derive(*point), case.wrt, case.kinky,
                                     seed=case_id)


def test_enough_hand_gradients():
    assert len(HAND) >= 15 and set(HAND) <= set(CASES)


@pytest.mark.parametrize("case_id", list(HAND))
def test_a_hand_gradient_passes_at_every_point(case_id):
    for point in CASES[case_id].points:
        failures = failures_of(case_id, HAND[case_id], point)
        assert not failures, f"at {point!r}:\n" + "\n".join(failures)


def flipped(gradient):
    """Every number of a gradient negated, its structure and dtypes kept."""
    return oracles.rebuilt(gradient, lambda path, leaf: -leaf)


@pytest.mark.parametrize("case_id", list(HAND))
def test_a_flipped_sign_fails_at_every_point(case_id):
    for point in CASES[case_id].points:
        assert failures_of(case_id, lambda *p: flipped(HAND[case_id](*p)), point), point


def square(seed, n):
    return np.random.default_rng(seed).standard_normal((n, n))


WRONG = [  # (case, what is wrong, a wrong gradient, points: None for the case's own)
    ("linalg.matmul_frobenius", "dA transposed",
     lambda A, B: (d_matmul_frobenius(A, B)[0].T, d_matmul_frobenius(A, B)[1]),
     [(square(1, 3), square(2, 3))]),
    ("models.dense_tanh", "dW transposed",
     lambda W, b, X: (d_dense_tanh(W, b, X)[0].T, d_dense_tanh(W, b, X)[1]),
     [(square(3, 3), np.ones(3), square(4, 3))]),
    ("linalg.log_determinant", "inv(A) where inv(A).T", lambda A: np.linalg.inv(A), None),
    ("linalg.linear_solve", "solve(A) where solve(A.T)",
     lambda A, b: (d_linear_solve(A, b)[0], np.linalg.solve(A, 2.0 * np.linalg.solve(A, b))),
     [(square(5, 3) + 3.0 * np.eye(3), np.ones(3))]),
    ("elementwise.against_a_row_vector", "db not summed over the broadcast rows",
     lambda X, b: (2.0 * (X + b), 2.0 * (X + b)), None),
    ("elementwise.against_a_column", "dc summed over every axis",
     lambda X, c: (d_against_a_column(X, c)[0], np.sum(d_against_a_column(X, c)[1])), None),
    ("models.dense_tanh", "db not summed over the batch, kept (1, m)",
     lambda W, b, X: (d_dense_tanh(W, b, X)[0], d_dense_tanh(W, b, X)[1][None, :]), None),
    ("reductions.largest_entry", "a tie's gradient given to the first maximum",
     lambda x: (np.arange(x.size).reshape(x.shape) == np.argmax(x)) + x, None),
    ("indexing.gathered_with_repeats", "repeated indices written, not added",
     lambda x, idx: _written(x, idx), None),
    ("elementwise.float32_scaled", "a float64 gradient for a float32 parameter",
     lambda x: (2.0 + 2.0 * x).astype(np.float64), None),
    ("indexing.list_of_arrays", "a tuple for a list", lambda a: tuple(d_list_of_arrays(a)), None),
    ("elementwise.where_given_mask", "the parameter itself returned where 2 x is (at x = 2 x)",
     lambda x, m: x, [(np.zeros(3), np.array([True, False, True]))]),
    ("linalg.matmul_frobenius", "dA and dB one array",
     lambda A, B: (lambda g: (g, g))(np.zeros((2, 2))), [(np.zeros((2, 2)), np.zeros((2, 2)))]),
    ("models.mlp_over_a_dict", "the dict's keys in another order",
     lambda p, X, y: dict(reversed(list(d_mlp_over_a_dict(p, X, y).items()))), None),
    ("models.mean_squared_error", "a gradient for w alone where (w, b) was asked",
     lambda w, b, X, y: d_mean_squared_error(w, b, X, y)[0], None),
    ("models.logistic_loss", "the mean's 1/n forgotten",
     lambda w, X, y: d_logistic_loss(w, X, y) * X.shape[0], None),
    ("models.softmax_cross_entropy", "the labels' one-hot not subtracted",
     lambda W, X, labels: X.T @ softmax(X @ W) / X.shape[0], None),
    ("reductions.cumulative_sum", "a forward cumsum where a reversed one",
     lambda x: np.cumsum(2.0 * np.cumsum(x)), None),
    ("linalg.quadratic_form", "dx = 2 A x, as if A were symmetric",
     lambda A, x: (np.outer(x, x).astype(A.dtype), (2.0 * A @ x).astype(x.dtype)), None),
    ("models.hinge_loss", "the regularizer's gradient forgotten",
     lambda w, X, y: d_hinge_loss(w, X, y) - 0.02 * w, None),
    ("elementwise.absolute_deviation", "the kink's side flipped",
     lambda x: -np.sign(x - 0.1), None),
]


def _written(x, idx):
    g = np.zeros_like(x)
    g[idx] = 2.0 * x[idx]
    return g


@pytest.mark.parametrize("case_id, what, wrong, points", WRONG,
                         ids=[f"{c}: {w}" for c, w, _, _ in WRONG])
def test_a_wrong_gradient_fails_somewhere(case_id, what, wrong, points):
    points = points or CASES[case_id].points
    assert any(failures_of(case_id, wrong, point) for point in points), what


def test_one_wrong_entry_is_named():
    case = CASES["models.logistic_loss"]
    point = case.points[1]
    g = d_logistic_loss(*point)
    g[1] *= 1.01
    failures = oracles.elementwise_failures(case.fn, point, [0], [g], ["w"])
    assert len(failures) == 1 and failures[0].startswith("d/dw[1]:"), failures


def test_the_point_is_left_unchanged():
    case = CASES["models.mlp_over_a_dict"]
    point = case.points[1]
    before = {k: v.copy() for k, v in point[0].items()}
    oracles.gradient_failures(case.fn, point, d_mlp_over_a_dict(*point), case.wrt)
    assert all(np.array_equal(before[k], point[0][k]) for k in before)
