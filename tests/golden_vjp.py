"""The functions whose generated vector-Jacobian products are kept in
``tests/golden/vjp/``, each with the arguments and the cotangent it is generated for.

Editing a function here (or moving it: the generated comments cite line numbers)
changes its golden file; regenerate with ``SYMDIFF_UPDATE_GOLDEN=1 python -m pytest
tests/end_to_end/test_golden_vjp.py`` and review the diff.
"""

import math

import numpy as np


def polar(r, theta):
    return r * math.cos(theta), r * math.sin(theta)


def dense_layer(W, b, x):
    return np.tanh(W @ x + b)


def loss_with_aux(w, X, y):
    pred = X @ w
    loss = np.mean((pred - y) ** 2)
    return loss, pred


def training_step(params, X, y):
    err = X @ params["w"] + params["b"] - y
    grad_w = X.T @ err / X.shape[0]
    return {"w": params["w"] - 0.1 * grad_w, "b": params["b"] - 0.1 * np.mean(err)}


def running_products(xs):
    out = []
    total = 1.0
    for v in xs:
        total = total * v
        out.append(total)
    out.append(sum(out))
    return out


_RNG = np.random.default_rng(7)
CASES = [  # (function, arguments, cotangent, wrt)
    (polar, (1.5, 0.3), (1.0, -0.5), None),
    (dense_layer, (_RNG.normal(size=(3, 4)), _RNG.normal(size=3), _RNG.normal(size=4)),
     _RNG.normal(size=3), None),
    (loss_with_aux, (_RNG.normal(size=3), _RNG.normal(size=(5, 3)), _RNG.normal(size=5)),
     (1.0, _RNG.normal(size=5)), "w"),
    (training_step, ({"w": _RNG.normal(size=3), "b": 0.5}, _RNG.normal(size=(5, 3)),
                     _RNG.normal(size=5)), {"w": _RNG.normal(size=3), "b": 1.0}, "params"),
    (running_products, ([1.5, -0.5, 2.0],), [1.0, 0.5, -1.0, 2.0], None),
]
