"""Two small functions for the symdiff command line.

    symdiff show examples/model.py:neuron
    symdiff check examples/model.py:power --at 1.5,3 --wrt x
    symdiff graph examples/model.py:neuron -o neuron.svg

The command line reads this file without running it: the import of math, the
constants and the def functions are all it needs.  Run as a script, the file
prints the same gradients through the Python API.
"""

import math

import symdiff

LEAK = 0.1
TARGET = 2 * LEAK + 0.3  # arithmetic on constants is read without running the file too


def neuron(w, b, x):
    """A smooth unit and a squared error: straight-line code."""
    z = w * x + b
    a = math.tanh(z) + LEAK * z
    error = a - TARGET
    return error * error


def power(x, n):
    """x to the n by repeated multiplication: the reverse sweep is a loop too."""
    result = 1.0
    for _ in range(n):
        result = result * x
    return result


if __name__ == "__main__":
    print("d neuron / d(w, b, x) at (0.5, -0.2, 1.5):", symdiff.grad(neuron)(0.5, -0.2, 1.5))
    print("d power / dx at (1.5, 3):", symdiff.grad(power, wrt="x")(1.5, 3))
