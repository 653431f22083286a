"""Array functions that draw random numbers: Monte Carlo and reparameterized estimators,
dropout, noise, minibatches, each drawing from a NumPy ``Generator`` passed as an
argument, one made inside by ``np.random.default_rng(seed)``, or ``np.random``'s global
state seeded inside.

A point holds a generator; whoever runs a case gives each evaluation a copy of it
(``copy.deepcopy``), so every witness sees the draws ``f`` makes from that state.  The
draws are data: a gradient is that of ``f`` for the draws it makes (the reparameterized
gradient of a Monte Carlo estimate), never a derivative in a generator's state.  Kept out
of ``ARRAY_CASES``: its functions change their generator argument, which the others must
not.
"""

try:
    import autograd.numpy as anp
except ImportError:  # (the corpus runs without autograd: that case is left out)
    anp = None
import numpy as np

from .case import at, normal, positive


def rng(seed):
    return np.random.default_rng(seed)


# --- estimators --------------------------------------------------------------------------

def gaussian_expectation(mu, log_sigma, rng):
    """E[sin(x) x^2] for x ~ N(mu, sigma^2) by the reparameterization trick."""
    eps = rng.standard_normal(size=(64, mu.shape[0]))
    x = mu + np.exp(log_sigma) * eps
    return np.mean(np.sum(np.sin(x) * x ** 2, axis=1))


def option_price(s0, sigma, rng, n=12):
    """A Monte Carlo Asian call price over geometric Brownian paths, step by step."""
    dt = 1.0 / n
    s = s0 * np.ones(200)
    total = np.zeros(200)
    for _ in range(n):
        z = rng.normal(size=200)
        s = s * np.exp((0.05 - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * z)
        total = total + s
    return np.exp(-0.05) * np.mean(np.maximum(total / n - 1.0, 0.0))


def noisy_regression(w, X, y, rng):
    """A least-squares loss whose targets carry fresh noise at every call."""
    noise = 0.1 * rng.normal(size=y.shape)
    r = X @ w - (y + noise)
    return np.mean(r ** 2)


def dropout_mlp(params, X, rng):
    """Two layers, the hidden one dropped out by a mask drawn for this batch."""
    h = np.tanh(X @ params["W1"] + params["b1"])
    keep = rng.random(h.shape) < 0.8
    h = np.where(keep, h / 0.8, 0.0)
    return np.mean((h @ params["W2"]) ** 2)


def minibatch_loss(w, X, y, rng):
    """A loss over a minibatch of rows drawn without a loop (indices, then a read)."""
    rows = rng.integers(0, X.shape[0], size=4)
    r = X[rows] @ w - y[rows]
    return np.mean(r ** 2)


def shuffled_pairs(w, X, rng):
    """Rows paired with a permutation of themselves."""
    order = rng.permutation(X.shape[0])
    return np.sum((X @ w - X[order] @ w) ** 2)


def chosen_rows(w, X, rng):
    picked = rng.choice(X.shape[0], size=3)
    return np.sum(np.tanh(X[picked] @ w))


# --- draws in control flow, draws left unread ----------------------------------------------

def draws_in_branches(theta, rng):
    u = rng.random()
    if u < 0.5:
        z = rng.normal(0.0, 2.0, theta.shape)
    else:
        z = rng.uniform(-1.0, 1.0, size=theta.shape)
    rng.standard_normal()  # a draw left unread still moves the state
    return np.sum(np.sin(theta * z)) + u * np.sum(theta)


def draws_in_a_while(theta, rng):
    s, k = 0.0, 0
    while k < 3:
        e = rng.exponential(1.0, size=theta.shape)
        s = s + np.sum(np.exp(-e * theta ** 2))
        k = k + 1
    return s


def seeded_inside(theta, seed=7):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(2, theta.shape[0]))
    return np.sum((z @ theta) ** 2)


def number_draws(x, rng):
    a = rng.normal()
    b = rng.uniform(0.0, 2.0)
    return np.sum(x * x) * a + b * np.sum(np.cos(x))


def legacy_seeded(theta):
    np.random.seed(3)
    z = np.random.randn(theta.shape[0])
    u = np.random.rand(2, theta.shape[0])
    return np.sum(theta * z) + np.sum(u @ theta ** 2)


def legacy_draws(theta):
    z = np.random.normal(0.0, 1.0, size=theta.shape)
    k = np.random.randint(0, 3)
    return np.sum(np.tanh(theta + z)) * (k + 1)


def autograd_reparameterized(mu, rng):
    """Written for autograd (its NumPy): differentiated unchanged, compared with autograd."""
    eps = rng.standard_normal(size=(16, mu.shape[0]))
    return anp.mean(anp.sum(anp.tanh(mu + 0.5 * eps) ** 2, axis=1))


def _params(seed):
    return {"W1": normal(f"W1{seed}", 3, 5), "b1": normal(f"b1{seed}", 5),
            "W2": normal(f"W2{seed}", 5, 2)}


CASES = [
    at(gaussian_expectation, (normal("mu", 3), normal("ls", 3) * 0.3, rng(0)),
       (normal("mu2", 2), normal("ls2", 2) * 0.3, rng(1)), wrt=("mu", "log_sigma")),
    at(option_price, (1.0, 0.3, rng(2), 12), (1.1, 0.2, rng(3), 6), wrt=("s0", "sigma"), kinky=True),
    at(noisy_regression, (normal("w", 3), normal("X", 6, 3), normal("y", 6), rng(4)), wrt="w"),
    at(dropout_mlp, (_params(1), normal("Xd", 4, 3), rng(5)), wrt="params"),
    at(minibatch_loss, (normal("wm", 3), normal("Xm", 8, 3), normal("ym", 8), rng(6)),
       wrt="w"),
    at(shuffled_pairs, (normal("ws", 3), normal("Xs", 5, 3), rng(7)), wrt="w"),
    at(chosen_rows, (normal("wc", 3), normal("Xc", 6, 3), rng(8)), wrt="w"),
    at(draws_in_branches, (normal("t", 3), rng(9)), (normal("t", 3), rng(10)),
       (normal("t", 3), rng(11)), wrt="theta"),
    at(draws_in_a_while, (positive("tw", 3), rng(12)), wrt="theta"),
    at(seeded_inside, (normal("ti", 3), 7), wrt="theta"),
    at(number_draws, (normal("xn", 2), rng(13)), wrt="x"),
    at(legacy_seeded, (normal("tl", 3),)),
] + ([] if anp is None else [
    at(autograd_reparameterized, (normal("ma", 3), rng(14)), wrt="mu")])
LEGACY = [at(legacy_draws, (normal("tg", 3),))]  # from the global state as the caller left it
