"""The tape's public gradient (``symdiff.tape.grad``, ``value_and_grad``) of ordinary
NumPy code, run unchanged: losses, layers, masks, recurrences, stencils, linear solves and
a dict of weight arrays, each checked against central finite differences along random
directions; gradients come back in the parameter's shape and dtype and structure."""

import numpy as np
import pytest
from scipy.special import expit, logsumexp

from symdiff import tape
from symdiff.errors import SymdiffError

from .array_checks import check_grad

RNG = np.random.default_rng(2026)
X, Y = RNG.normal(size=(6, 3)), RNG.normal(size=6)
LABELS = np.where(RNG.random(6) > 0.5, 1.0, -1.0)
MASK = RNG.random(6) > 0.4


def logistic(w, X, y):
    return np.mean(np.log1p(np.exp(-y * (X @ w))))


def layer(W, b, X):
    return np.sum(np.tanh(X @ W + b))


def masked(pred, y, mask):
    return np.sum(np.where(mask, pred - y, 0.0) ** 2)


def recurrence(W, h, x):
    for t in range(x.shape[0]):
        h = np.tanh(W @ h + x[t])
    return np.sum(h ** 2)


def mlp(params, X, y):
    hidden = np.maximum(X @ params["W1"] + params["b1"], 0.0)
    out = hidden @ params["W2"] + params["b2"]
    return np.mean((out[:, 0] - y) ** 2)


def softmax_cross_entropy(W, X, labels):
    logits = X @ W
    logp = logits - logsumexp(logits, axis=1, keepdims=True)
    return -np.mean(logp[np.arange(len(labels)), labels])


def attention(Wq, Wk, X):
    q, k = X @ Wq, X @ Wk
    scores = q @ k.T / np.sqrt(q.shape[1])
    scores = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=1, keepdims=True)
    return np.sum((weights @ X) ** 2)


def stencil(u):
    lap = u[:-2] - 2.0 * u[1:-1] + u[2:]
    return 0.5 * np.sum(lap ** 2) + np.sum(np.diff(u) ** 2)


def gaussian_log_likelihood(A, y):
    K = A @ A.T + np.eye(len(y))
    L = np.linalg.cholesky(K)
    alpha = np.linalg.solve(K, y)
    return -0.5 * y @ alpha - np.sum(np.log(np.diag(L)))


def ridge(w, X, y, lam=0.1):
    r = X @ w - y
    return r.dot(r) / len(y) + lam * np.linalg.norm(w) ** 2


def batch_norm(x, gamma, beta):
    mu = x.mean(axis=0)
    var = x.var(axis=0)
    return np.sum((gamma * (x - mu) / np.sqrt(var + 1e-5) + beta) ** 3)


def binary_cross_entropy(w, X, y01):
    p = expit(X @ w)
    p = np.clip(p, 1e-7, 1.0 - 1e-7)
    return -np.mean(y01 * np.log(p) + (1.0 - y01) * np.log(1.0 - p))


def hinge_with_branch(w, X, y):
    margins = 1.0 - y * (X @ w)
    loss = 0.0
    for i in range(len(y)):
        if margins[i] > 0:
            loss = loss + margins[i]
    return loss + 0.5 * float(w @ w)


def polynomial_fit(c, x, y):
    powers = np.stack([x ** k for k in range(len(c))], axis=1)
    return np.sum((powers @ c - y) ** 2)


def log_det_and_trace(A):
    S = A @ A.T + np.eye(A.shape[0])
    sign, logdet = np.linalg.slogdet(S)
    return logdet + np.trace(np.linalg.inv(S)) + np.linalg.det(S) * 1e-2


def outer_einsum(u, v):
    M = np.outer(u, v) + np.einsum("i,j->ij", v, u)
    return np.sum(M * M) + np.inner(u, v)


def in_place_updates(x):
    y = np.zeros_like(x)
    y[0] = x[0]
    for i in range(1, x.shape[0]):
        y[i] = 0.5 * y[i - 1] + x[i]
    y[:, 0] += x[:, -1]
    return np.sum(y ** 2)


def power_and_prod(x):
    return np.sum(np.prod(np.abs(x) + 0.5, axis=1)) + np.sum(np.abs(x) ** 1.5)


CASES = {
    "logistic": (logistic, (RNG.normal(size=3), X, LABELS), (0,)),
    "layer": (layer, (RNG.normal(size=(3, 4)), RNG.normal(size=4), X), (0, 1, 2)),
    "masked": (masked, (RNG.normal(size=6), Y, MASK), (0, 1)),
    "recurrence": (recurrence, (RNG.normal(size=(3, 3)) * 0.5, RNG.normal(size=3),
                                RNG.normal(size=(5, 3))), (0, 1, 2)),
    "softmax": (softmax_cross_entropy, (RNG.normal(size=(3, 4)), X,
                                        RNG.integers(0, 4, size=6)), (0, 1)),
    "attention": (attention, (RNG.normal(size=(3, 2)), RNG.normal(size=(3, 2)), X),
                  (0, 1, 2)),
    "stencil": (stencil, (RNG.normal(size=9),), (0,)),
    "gp": (gaussian_log_likelihood, (RNG.normal(size=(4, 2)), RNG.normal(size=4)), (0, 1)),
    "ridge": (ridge, (RNG.normal(size=3), X, Y), (0, 1, 2)),
    "batch_norm": (batch_norm, (RNG.normal(size=(5, 3)), RNG.normal(size=3),
                                RNG.normal(size=3)), (0, 1, 2)),
    "bce": (binary_cross_entropy, (RNG.normal(size=3), X, (LABELS + 1.0) / 2.0), (0,)),
    "hinge": (hinge_with_branch, (RNG.normal(size=3), X, LABELS), (0,)),
    "polynomial": (polynomial_fit, (RNG.normal(size=4), RNG.normal(size=7),
                                    RNG.normal(size=7)), (0, 1)),
    "logdet": (log_det_and_trace, (RNG.normal(size=(3, 3)),), (0,)),
    "outer": (outer_einsum, (RNG.normal(size=4), RNG.normal(size=4)), (0, 1)),
    "in_place": (in_place_updates, (RNG.normal(size=(4, 3)),), (0,)),
    "power_prod": (power_and_prod, (RNG.normal(size=(3, 4)),), (0,)),
}


@pytest.mark.parametrize("name", CASES)
def test_whole_functions(name):
    fn, args, wrt = CASES[name]
    check_grad(fn, args, wrt, rtol=1e-5, atol=1e-6)


def test_a_dict_of_weight_arrays():
    params = {"W1": RNG.normal(size=(3, 5)), "b1": RNG.normal(size=5),
              "W2": RNG.normal(size=(5, 1)), "b2": RNG.normal(size=1)}
    grads = tape.grad(mlp, wrt=0)(params, X, Y)
    assert list(grads) == list(params)
    h = 1e-6
    for key, value in params.items():
        direction = np.random.default_rng(len(key)).normal(size=value.shape)
        moved = lambda s: mlp({**params, key: value + s * h * direction}, X, Y)  # noqa: E731
        numeric = (moved(1.0) - moved(-1.0)) / (2 * h)
        assert grads[key].shape == value.shape
        assert np.isclose(np.sum(grads[key] * direction), numeric, rtol=1e-5)


def test_tuples_and_lists_of_arrays_and_numbers():
    def f(pair, weights):
        a, b = pair
        return np.sum(a * b) * weights[0] + np.sum(weights[1] ** 2)
    a, b, w = RNG.normal(size=3), RNG.normal(size=3), [0.5, RNG.normal(size=2)]
    (ga, gb), gw = tape.grad(f, wrt=(0, 1))((a, b), w)
    assert type(gw) is list and isinstance(gw[0], float) and gw[1].shape == (2,)
    assert np.allclose(ga, b * 0.5) and np.allclose(gb, a * 0.5)
    assert np.isclose(gw[0], np.sum(a * b)) and np.allclose(gw[1], 2 * w[1])


def test_value_and_grad():
    w = RNG.normal(size=3)
    value, grad = tape.value_and_grad(logistic, wrt=0)(w, X, LABELS)
    assert value == pytest.approx(logistic(w, X, LABELS)) and grad.shape == (3,)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_gradient_has_the_parameters_dtype(dtype):
    w = RNG.normal(size=3).astype(dtype)
    assert tape.grad(logistic, wrt=0)(w, X, LABELS).dtype == dtype


def test_an_int_array_parameter_gets_a_float_gradient():
    grad = tape.grad(lambda x: np.sum(x * x))(np.array([1, 2, 3]))
    assert grad.dtype == np.float64 and np.array_equal(grad, [2.0, 4.0, 6.0])


def test_an_unused_parameter_gets_zeros_of_its_shape():
    grad = tape.grad(lambda x, y: np.sum(y), wrt=0)(np.ones((2, 3)), np.ones(2))
    assert np.array_equal(grad, np.zeros((2, 3)))


def test_an_array_of_one_element_is_a_number():
    grad = tape.grad(lambda x: np.sum(x, keepdims=True) * 2.0)(np.ones(3))
    assert np.array_equal(grad, [2.0, 2.0, 2.0])


def test_an_array_result_is_refused():
    with pytest.raises(SymdiffError, match=r"array of shape \(3,\)"):
        tape.grad(lambda x: x * 2.0)(np.ones(3))


def test_a_bool_array_parameter_is_refused():
    with pytest.raises(SymdiffError, match="bool array"):
        tape.grad(lambda m, x: np.sum(np.where(m, x, 0.0)), wrt=0)(MASK, Y)


def test_an_int_array_in_wrt_may_still_index():
    W, labels = RNG.normal(size=(3, 4)), RNG.integers(0, 4, size=6)
    gW, gX, glabels = tape.grad(softmax_cross_entropy)(W, X, labels)
    assert glabels.dtype == np.float64 and np.array_equal(glabels, np.zeros(6))
    check_grad(softmax_cross_entropy, (W, X, labels), wrt=(0, 1))
