"""symdiff in one screen: a model, its generated gradient code, and a four-way check."""

import math

import symdiff
from symdiff import grad


def rnn_loss(w, u, x):
    """A tiny recurrent cell run for 20 steps, then a squared error."""
    h = 0.0
    for step in range(20):
        h = math.tanh(w * h + u * x)
    error = h - 0.5
    return error * error


@grad
def f(x, y):
    z = x * y
    return z + math.sin(x)


def least_squares(params, data):
    """A line fitted to (x, y) pairs: a dict of parameters, a list of pairs."""
    w, b = params["w"], params["b"]
    return sum((w * x + b - y) ** 2 for x, y in data) / len(data)


def main():
    print("The generated gradient of f(x, y) = x * y + sin(x):\n")
    print(f.source)
    print("f'(2, 3) =", f(2.0, 3.0), " expected", (3.0 + math.cos(2.0), 2.0))

    print("\nThe generated gradient of a recurrent loss (its reverse sweep is a loop):\n")
    print(symdiff.source(rnn_loss))
    print("gradient at (0.5, -0.3, 1.2):", grad(rnn_loss)(0.5, -0.3, 1.2))

    print("\nThe same gradient, checked against the tape engine, sympy and finite differences:\n")
    report = symdiff.check(rnn_loss, (0.5, -0.3, 1.2), (1.1, 0.4, -0.7))
    print(report)

    params, data = {"w": 0.5, "b": 0.1}, [(1.0, 2.0), (2.0, 3.5), (3.0, 5.0)]
    print("\nA loss over a dict of parameters and a list of pairs (its gradient has their shape):\n")
    print(symdiff.source(least_squares, params, data, wrt="params"))
    print("gradient:", grad(least_squares, wrt="params")(params, data))
    containers = symdiff.check(least_squares, (params, data), wrt="params")
    print(containers)
    return 0 if report.ok and containers.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
