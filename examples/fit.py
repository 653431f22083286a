"""Fitting a model to data with gradient descent: the data are tables passed to the loss,
the model is a function defined inside it, and symdiff.check confirms the gradient.

    python examples/fit.py
"""

import math

import symdiff

# noisy samples of y = 2 sin(1.5 x) + 0.5
XS = [0.0, 0.4, 0.8, 1.2, 1.6, 2.0, 2.4, 2.8]
YS = [0.52, 1.63, 2.37, 2.44, 1.83, 0.76, -0.39, -1.25]


def loss(amplitude, frequency, offset, xs, ys):
    def model(x):
        return amplitude * math.sin(frequency * x) + offset

    total = 0.0
    for x, y in zip(xs, ys):
        total += (model(x) - y) ** 2
    return total / len(xs)


gradient = symdiff.value_and_grad(loss, wrt=("amplitude", "frequency", "offset"))
print(gradient.source)

start = params = [1.0, 1.0, 0.0]
for step in range(3000):
    value, partials = gradient(*params, XS, YS)
    params = [p - 0.1 * d for p, d in zip(params, partials)]
print(f"after {step + 1} steps: loss {value:.5f}, amplitude {params[0]:.3f}, "
      f"frequency {params[1]:.3f}, offset {params[2]:.3f}")

report = symdiff.check(loss, (*start, XS, YS), (1.5, 2.0, 0.3, XS, YS),
                       wrt=("amplitude", "frequency", "offset"))
print(report)
if not report.ok:
    raise SystemExit("the gradient disagrees with a witness")
