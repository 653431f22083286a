"""The array functions whose generated gradients are kept in ``tests/golden/arrays/``,
each with the arguments it is generated for (the kinds: dtype, axes, axes of size one).

Editing a function here (or moving it: the generated comments cite line numbers)
changes its golden file; regenerate with ``SYMDIFF_UPDATE_GOLDEN=1 python -m pytest
tests/end_to_end/test_golden_arrays.py`` and review the diff.
"""

import numpy as np


def logistic_loss(w, X, y):
    return np.mean(np.log1p(np.exp(-y * (X @ w))))


def two_layers(params, X, y):
    hidden = np.tanh(X @ params["W1"] + params["b1"])
    scores = hidden @ params["w2"]
    return np.mean((scores - y) ** 2)


def recurrence(W, U, xs):
    h = np.zeros(W.shape[0])
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + U @ xs[t])
    return np.sum(h)


def softmax_cross_entropy(W, X, labels):
    scores = X @ W
    scores = scores - np.max(scores, axis=1, keepdims=True)
    log_p = scores - np.log(np.sum(np.exp(scores), axis=1, keepdims=True))
    return -np.mean(log_p[np.arange(X.shape[0]), labels])


def masked_squares(pred, y, mask):
    return np.sum(np.where(mask, pred - y, 0.0) ** 2)


def smoothed(u, dt):
    new = u.copy()
    new[1:-1] = u[1:-1] + dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    return np.sum(new ** 2)


def weighted_contraction(X, w, T):
    m = np.average(X, axis=0, weights=w)
    return np.sum(np.tensordot(T, m, axes=1) ** 2)


def ranked_rows(X):
    order = np.argsort(X, axis=1)
    first = np.broadcast_to(X[:, :1], X.shape)
    return np.sum(np.take_along_axis(X, order, axis=1) * np.arange(X.shape[1])) + np.sum(
        (X - first) ** 2)


def median_centred(r):
    centre = np.median(r, axis=0)
    return np.sum(np.abs(r - centre) ** 1.5) + np.quantile(r, 0.9)


def filtered_halves(x, k):
    left, right = np.split(np.convolve(x, k, mode="same"), 2)
    return np.sum(np.tanh(left) * right) + np.sum(np.cross(x[:3], k[:3]) ** 2)


_RNG = np.random.default_rng(7)
CASES = [
    (logistic_loss, (_RNG.normal(size=3), _RNG.normal(size=(5, 3)), np.sign(_RNG.normal(size=5))),
     "w"),
    (two_layers, ({"W1": _RNG.normal(size=(3, 4)), "b1": _RNG.normal(size=4),
                   "w2": _RNG.normal(size=4)}, _RNG.normal(size=(5, 3)), _RNG.normal(size=5)),
     "params"),
    (recurrence, (_RNG.normal(size=(4, 4)) / 2, _RNG.normal(size=(4, 2)),
                  _RNG.normal(size=(6, 2))), ("W", "U")),
    (softmax_cross_entropy, (_RNG.normal(size=(3, 4)), _RNG.normal(size=(5, 3)),
                             np.array([0, 3, 1, 1, 2])), "W"),
    (masked_squares, (_RNG.normal(size=6), _RNG.normal(size=6), _RNG.normal(size=6) > 0),
     ("pred", "y")),
    (smoothed, (_RNG.normal(size=7), 0.1), None),
    (weighted_contraction, (_RNG.normal(size=(4, 3)), _RNG.uniform(0.5, 1.5, size=4),
                            _RNG.normal(size=(2, 5, 3))), ("X", "w", "T")),
    (ranked_rows, (_RNG.normal(size=(3, 4)),), "X"),
    (median_centred, (_RNG.normal(size=(5, 2)),), "r"),
    (filtered_halves, (_RNG.normal(size=6), _RNG.normal(size=3)), ("x", "k")),
]
