"""The array workloads of ``compiled.py``: loops over the elements of NumPy arrays, where a
compiled gradient pays most (NumPy cannot vectorize a recurrence, and the Python gradient
runs each element's step in the interpreter), each with a gradient written by hand in
the same loops for ``numba.njit``.

    stencil          s += c*(x[i-1] - 2x[i] + x[i+1])**2 + sin(x[i]), 10,000 points
    recurrence       t = 0.9*t + tanh(x[i]*t) over 10,000 entries
    monte_carlo      a path of 10,000 shocks from an array
    pairwise         sum of exp(-|X[i] - X[j]|^2) over the pairs of 200 points in 3-D
"""

import math

import numpy as np


def stencil(x, c):
    s = 0.0
    for i in range(1, x.shape[0] - 1):
        d = x[i - 1] - 2.0 * x[i] + x[i + 1]
        s = s + c * d * d + math.sin(x[i])
    return s


def stencil_hand(x, c):
    dx = np.zeros_like(x)
    dc = 0.0
    for i in range(1, x.shape[0] - 1):
        d = x[i - 1] - 2.0 * x[i] + x[i + 1]
        g = 2.0 * c * d
        dx[i - 1] += g
        dx[i] += -2.0 * g + math.cos(x[i])
        dx[i + 1] += g
        dc += d * d
    return dx, dc


def recurrence(x, t0):
    t = t0
    for i in range(x.shape[0]):
        t = 0.9 * t + math.tanh(x[i] * t)
    return t


def recurrence_hand(x, t0):
    n = x.shape[0]
    saved = np.empty(n)
    t = t0
    for i in range(n):
        saved[i] = t
        t = 0.9 * t + math.tanh(x[i] * t)
    dx = np.zeros_like(x)
    dt = 1.0
    for i in range(n - 1, -1, -1):
        t = saved[i]
        u = math.tanh(x[i] * t)
        g = dt * (1.0 - u * u)
        dx[i] = g * t
        dt = 0.9 * dt + g * x[i]
    return dx, dt


def monte_carlo(mu, sigma, z):
    s = 1.0
    total = 0.0
    for i in range(z.shape[0]):
        s = s * math.exp(mu + sigma * z[i])
        total = total + s
    return total / z.shape[0]


def monte_carlo_hand(mu, sigma, z):
    s, s_mu, s_sigma = 1.0, 0.0, 0.0
    total_mu = total_sigma = 0.0
    for i in range(z.shape[0]):
        e = math.exp(mu + sigma * z[i])
        s_mu = (s_mu + s) * e
        s_sigma = (s_sigma + s * z[i]) * e
        s = s * e
        total_mu += s_mu
        total_sigma += s_sigma
    return total_mu / z.shape[0], total_sigma / z.shape[0]


def pairwise(X):
    n = X.shape[0]
    total = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            d2 = 0.0
            for k in range(X.shape[1]):
                diff = X[i, k] - X[j, k]
                d2 = d2 + diff * diff
            total = total + math.exp(-d2)
    return total


def pairwise_hand(X):
    n = X.shape[0]
    dX = np.zeros_like(X)
    for i in range(n):
        for j in range(i + 1, n):
            d2 = 0.0
            for k in range(X.shape[1]):
                diff = X[i, k] - X[j, k]
                d2 = d2 + diff * diff
            e = math.exp(-d2)
            for k in range(X.shape[1]):
                g = -2.0 * e * (X[i, k] - X[j, k])
                dX[i, k] += g
                dX[j, k] -= g
    return dX


def array_workloads():
    """``(name, description, f, hand-written gradient, point, wrt)`` of each workload."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal(10_000) * 0.1
    return [
        ("array stencil", "c*(x[i-1] - 2x[i] + x[i+1])**2 + sin(x[i]), 10,000 points",
         stencil, stencil_hand, (x, 0.7), None),
        ("array recurrence", "t = 0.9*t + tanh(x[i]*t), 10,000 entries", recurrence,
         recurrence_hand, (x, 0.5), None),
        ("array monte_carlo", "a path of 10,000 shocks from an array", monte_carlo,
         monte_carlo_hand, (0.001, 0.2, x * 0.1), ("mu", "sigma")),
        ("array pairwise", "exp(-|X[i] - X[j]|^2) over the pairs of 200 points in 3-D",
         pairwise, pairwise_hand, (rng.standard_normal((200, 3)),), None),
    ]
