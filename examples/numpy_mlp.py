"""A two-layer NumPy network fitted by gradient descent, with the gradient symdiff writes.

The loss is ordinary NumPy over a dict of weight arrays. symdiff reads it, writes
its gradient as NumPy (printed below), and the training loop calls that function: no
tape, no tracing. Before training, the gradient is checked against central differences
along random directions.

    python examples/numpy_mlp.py
"""

import numpy as np

import symdiff


def loss(params, X, y):
    hidden = np.tanh(X @ params["W1"] + params["b1"])
    scores = hidden @ params["w2"] + params["b2"]
    return np.mean(np.log1p(np.exp(-y * scores)))


def directional_check(gradient, params, X, y, rng, eps=1e-6):
    """The largest gap between the gradient along a random direction and the central
    difference of the loss along it."""
    worst = 0.0
    for key, value in params.items():
        v = rng.normal(size=np.shape(value))
        moved = [loss({**params, key: value + s * v}, X, y) for s in (eps, -eps)]
        worst = max(worst, abs(np.sum(gradient[key] * v) - (moved[0] - moved[1]) / (2 * eps)))
    return worst


def main():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)  # the xor of the signs: not linear
    params = {"W1": rng.normal(size=(2, 8)), "b1": np.zeros(8),
              "w2": rng.normal(size=8) / 8, "b2": np.zeros(1)}
    gradient = symdiff.grad(loss, wrt="params")
    print(symdiff.source(loss, params, X, y, wrt="params"))
    gap = directional_check(gradient(params, X, y), params, X, y, rng)
    print(f"gradient vs central differences along random directions: {gap:.1e}")
    start = loss(params, X, y)
    for _ in range(300):
        step = gradient(params, X, y)
        params = {k: v - 0.5 * step[k] for k, v in params.items()}
    accuracy = np.mean(np.sign(np.tanh(X @ params["W1"] + params["b1"]) @ params["w2"]
                               + params["b2"]) == y)
    print(f"loss {start:.3f} -> {loss(params, X, y):.3f}, accuracy {accuracy:.0%}")


if __name__ == "__main__":
    main()
