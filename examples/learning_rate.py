"""Tuning a learning rate by gradient descent through a training step, with symdiff.vjp.

A training step returns the new parameters, a dict of arrays: not one number, so it has
no gradient, but it has a vector-Jacobian product. The validation loss after one step
depends on the learning rate through the new parameters; its derivative is the vjp of
the step, seeded by the validation loss's gradient at the new parameters (the chain
rule, as a person would apply it by hand). symdiff writes both functions as NumPy
(the vjp is printed below); the hypergradient is checked against a central difference,
then used to tune the learning rate.

    python examples/learning_rate.py
"""

import numpy as np

import symdiff


def loss(params, X, y):
    pred = X @ params["w"] + params["b"]
    return np.mean((pred - y) ** 2)


def step(params, lr, X, y):
    err = X @ params["w"] + params["b"] - y
    grad_w = 2.0 * X.T @ err / X.shape[0]
    grad_b = 2.0 * np.mean(err)
    return {"w": params["w"] - lr * grad_w, "b": params["b"] - lr * grad_b}


def main():
    rng = np.random.default_rng(0)
    true_w = rng.normal(size=4)
    X, Xv = rng.normal(size=(40, 4)), rng.normal(size=(40, 4))
    y, yv = X @ true_w + 0.1 * rng.normal(size=40), Xv @ true_w + 0.1 * rng.normal(size=40)
    params = {"w": np.zeros(4), "b": 0.0}

    step_vjp = symdiff.vjp(step, wrt="lr")  # (new params, d(<cotangent, new>)/d lr)
    validation_grad = symdiff.value_and_grad(loss, wrt="params")

    def hypergradient(lr):
        new = step(params, lr, X, y)
        value, g_new = validation_grad(new, Xv, yv)
        _, d_lr = step_vjp(params, lr, X, y, g_new)
        return value, d_lr

    lr = 0.05
    value, d_lr = hypergradient(lr)
    print(step_vjp.source)
    eps = 1e-6
    moved = [loss(step(params, lr + s, X, y), Xv, yv) for s in (eps, -eps)]
    central = (moved[0] - moved[1]) / (2 * eps)
    print(f"d validation loss / d lr at {lr}: {d_lr:.6f} (central difference {central:.6f})")
    assert abs(d_lr - central) <= 1e-5 * max(1.0, abs(central))

    for _ in range(30):
        value, d_lr = hypergradient(lr)
        lr = lr - 0.02 * d_lr
    print(f"learning rate {lr:.4f}: validation loss after one step {value:.4f}")


if __name__ == "__main__":
    main()
