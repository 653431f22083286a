"""The array workloads: NumPy functions as users write them, with gradients written by hand.

Each workload is one function of NumPy arrays returning one number, written once in plain
NumPy (only ``np``: ``arrays.py`` runs the same code under autograd, JAX and PyTorch by
giving it another ``np``), a gradient derived on paper and written out by hand in NumPy
(a tuple of arrays in the order of ``wrt``), and the arguments it is measured at, made by
a seeded generator at one of two sizes, ``"small"`` and ``"large"``.  The hand-written
gradient is the reference every tool is checked against and the baseline its speed is
compared with.  The parameters not in ``wrt`` are data (inputs, targets, masks).

- ``logistic``: logistic regression, mean of ``log1p(exp(-y * (X @ w + b)))``;
- ``mlp``: two-layer tanh network, softmax cross-entropy against one-hot labels;
- ``masked``: Huber loss of a linear model counted where a mask holds (``np.where``);
- ``rnn``: a tanh recurrence over a batch of sequences, squared error of the last state;
- ``stencil``: a 1-D energy of slices (second differences and neighbour products);
- ``kernel``: ``alpha @ K @ alpha`` of a Gaussian kernel of pairwise squared distances.
"""

import numpy as np

from workloads import Workload

SIZES = ("small", "large")


# (1) Logistic regression ----------------------------------------------------------------

def logistic(w, b, X, y):
    z = X @ w + b
    return np.mean(np.log1p(np.exp(-y * z)))


def logistic_grad(w, b, X, y):
    e = np.exp(-y * (X @ w + b))
    dz = -y * e / (1.0 + e) / X.shape[0]      # d/dz log1p(exp(-y z)), and the mean
    return X.T @ dz, np.sum(dz)


# (2) Two-layer perceptron, softmax cross-entropy ------------------------------------------

def mlp(W1, b1, W2, b2, X, Y):
    hidden = np.tanh(X @ W1 + b1)
    scores = hidden @ W2 + b2
    shifted = scores - np.max(scores, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    return -np.sum(Y * log_probs) / X.shape[0]


def mlp_grad(W1, b1, W2, b2, X, Y):
    hidden = np.tanh(X @ W1 + b1)
    scores = hidden @ W2 + b2
    exps = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    probs = exps / np.sum(exps, axis=1, keepdims=True)
    # the rows of Y sum to one: d/dscores = (softmax - Y) / n
    dscores = (probs - Y) / X.shape[0]
    dhidden = dscores @ W2.T
    dpre = dhidden * (1.0 - hidden * hidden)
    return X.T @ dpre, np.sum(dpre, axis=0), hidden.T @ dscores, np.sum(dscores, axis=0)


# (3) A masked loss: Huber where the mask holds --------------------------------------------

def masked(w, X, y, mask):
    r = X @ w - y
    a = np.abs(r)
    huber = np.where(a < 1.0, 0.5 * r * r, a - 0.5)
    return np.sum(np.where(mask, huber, 0.0)) / X.shape[0]


def masked_grad(w, X, y, mask):
    r = X @ w - y
    dr = np.where(mask, np.clip(r, -1.0, 1.0), 0.0) / X.shape[0]   # Huber's derivative
    return (X.T @ dr,)


# (4) A recurrent network: h = tanh(h @ Wh + x_t @ Wx + b) ---------------------------------

def rnn(Wh, Wx, b, xs, target):
    h = np.zeros((xs.shape[1], Wh.shape[0]))
    for t in range(xs.shape[0]):
        h = np.tanh(h @ Wh + xs[t] @ Wx + b)
    return np.sum((h - target) ** 2)


def rnn_grad(Wh, Wx, b, xs, target):
    states = [np.zeros((xs.shape[1], Wh.shape[0]))]
    for t in range(xs.shape[0]):
        states.append(np.tanh(states[-1] @ Wh + xs[t] @ Wx + b))
    dWh, dWx, db = np.zeros_like(Wh), np.zeros_like(Wx), np.zeros_like(b)
    dh = 2.0 * (states[-1] - target)
    for t in range(xs.shape[0] - 1, -1, -1):
        h = states[t + 1]
        dpre = dh * (1.0 - h * h)
        dWh += states[t].T @ dpre
        dWx += xs[t].T @ dpre
        db += np.sum(dpre, axis=0)
        dh = dpre @ Wh.T
    return dWh, dWx, db


# (5) A stencil of slices: a 1-D energy ----------------------------------------------------

def stencil(u):
    lap = u[:-2] - 2.0 * u[1:-1] + u[2:]
    return 0.5 * np.sum(lap * lap) + np.sum(np.tanh(u[1:] * u[:-1]))


def stencil_grad(u):
    lap = u[:-2] - 2.0 * u[1:-1] + u[2:]
    t = np.tanh(u[1:] * u[:-1])
    dprod = 1.0 - t * t
    g = np.zeros_like(u)
    g[:-2] += lap
    g[1:-1] -= 2.0 * lap
    g[2:] += lap
    g[1:] += dprod * u[:-1]
    g[:-1] += dprod * u[1:]
    return (g,)


# (6) A pairwise Gaussian kernel ------------------------------------------------------------

def kernel(X, alpha):
    sq = np.sum(X * X, axis=1)
    D = sq[:, None] + sq[None, :] - 2.0 * (X @ X.T)
    K = np.exp(-0.5 * D)
    return alpha @ (K @ alpha)


def kernel_grad(X, alpha):
    sq = np.sum(X * X, axis=1)
    K = np.exp(-0.5 * (sq[:, None] + sq[None, :] - 2.0 * (X @ X.T)))
    Ka = K @ alpha
    # f = a K a, dK = a a^T, dD = -0.5 K * a a^T (symmetric); D_ij = |x_i|^2 + |x_j|^2 - 2 x_i.x_j
    dD = -0.5 * K * np.outer(alpha, alpha)
    row = np.sum(dD, axis=1)
    dX = 4.0 * row[:, None] * X - 4.0 * (dD @ X)
    return dX, 2.0 * Ka


# -- the arguments --------------------------------------------------------------------------

def _logistic(rng, n, d):
    X = rng.normal(size=(n, d))
    y = np.where(X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    return (0.1 * rng.normal(size=d), 0.05, X, y)


def _mlp(rng, n, d, hidden, classes):
    X = rng.normal(size=(n, d))
    Y = np.eye(classes)[rng.integers(0, classes, size=n)]
    return (rng.normal(size=(d, hidden)) / np.sqrt(d), 0.1 * rng.normal(size=hidden),
            rng.normal(size=(hidden, classes)) / np.sqrt(hidden),
            0.1 * rng.normal(size=classes), X, Y)


def _masked(rng, n, d):
    X = rng.normal(size=(n, d))
    y = X @ rng.normal(size=d) + rng.standard_t(2.0, size=n)   # heavy tails: both branches
    return (rng.normal(size=d), X, y, rng.random(n) < 0.7)


def _rnn(rng, steps, hidden, batch, inputs):
    return (rng.normal(size=(hidden, hidden)) / np.sqrt(hidden),
            rng.normal(size=(inputs, hidden)) / np.sqrt(inputs), 0.1 * rng.normal(size=hidden),
            rng.normal(size=(steps, batch, inputs)), 0.5 * rng.normal(size=(batch, hidden)))


def _stencil(rng, n):
    return (np.sin(np.linspace(0.0, 6.0, n)) + 0.1 * rng.normal(size=n),)


def _kernel(rng, n, d):
    return (rng.normal(size=(n, d)) / np.sqrt(d), rng.normal(size=n) / np.sqrt(n))


# name -> (function, gradient, wrt, argument maker, {size: (what, maker arguments)})
TABLE = {
    "logistic": (logistic, logistic_grad, ("w", "b"), _logistic,
                 {"small": ("X 32x8", (32, 8)), "large": ("X 20000x50", (20000, 50))}),
    "mlp": (mlp, mlp_grad, ("W1", "b1", "W2", "b2"), _mlp,
            {"small": ("batch 16, 20-16-10", (16, 20, 16, 10)),
             "large": ("batch 512, 784-256-10", (512, 784, 256, 10))}),
    "masked": (masked, masked_grad, ("w",), _masked,
               {"small": ("X 32x8", (32, 8)), "large": ("X 20000x50", (20000, 50))}),
    "rnn": (rnn, rnn_grad, ("Wh", "Wx", "b"), _rnn,
            {"small": ("T=10 H=8, batch 4, 4 inputs", (10, 8, 4, 4)),
             "large": ("T=200 H=128, batch 32, 64 inputs", (200, 128, 32, 64))}),
    "stencil": (stencil, stencil_grad, ("u",), _stencil,
                {"small": ("n=64", (64,)), "large": ("n=10^6", (10 ** 6,))}),
    "kernel": (kernel, kernel_grad, ("X", "alpha"), _kernel,
               {"small": ("n=16, 3 features", (16, 3)), "large": ("n=2000, 3 features",
                                                                  (2000, 3))}),
}

DESCRIPTIONS = {
    "logistic": "logistic regression, mean log1p(exp(-y z))",
    "mlp": "2-layer tanh MLP + softmax cross-entropy",
    "masked": "Huber loss where a mask holds (np.where)",
    "rnn": "tanh RNN, squared error of the last state",
    "stencil": "1-D energy of slices (second differences, neighbour products)",
    "kernel": "alpha K alpha, Gaussian kernel of pairwise distances",
}


def make(name, size, seed=26):
    """The workload ``name`` at ``size`` ("small" or "large"), its arguments seeded."""
    fn, hand, wrt, arguments, sizes = TABLE[name]
    what, shape = sizes[size]
    point = arguments(np.random.default_rng(seed), *shape)
    return Workload(f"{name} ({what})", DESCRIPTIONS[name], fn, hand, point, [size], wrt)


def all_workloads(sizes=SIZES):
    """Every workload at every size of ``sizes``, size by size, in report order."""
    return [make(name, size) for size in sizes for name in TABLE]
