"""Array functions as models are written: losses, layers, attention, recurrences, stencils,
kernels, each over a batch given at several sizes (1, 3 and 7 rows) so a build made for
one batch size has to serve the others.

Losses (logistic, softmax cross-entropy with integer labels, MSE, Huber through
``np.where``, hinge through ``np.maximum``, Poisson, KL), layers (dense, layer norm, a
2-layer MLP over a dict of weight arrays, one over a list of ``(W, b)`` pairs), attention
(softmax with the row maximum subtracted), recurrences (an RNN over ``range`` and over the
rows, a gated update), stencils (1-D and 2-D Laplacians with slices, heat steps written
into a copy), kernels (pairwise squared distances, an RBF kernel), a drawdown (a running maximum), an
asymmetric loss through a step (``np.heaviside``), a curve fit through ``np.interp``,
unrolled gradient descent.  Data (``X``, ``y``, labels, masks) is never differentiated.
"""

from collections import namedtuple
from dataclasses import dataclass

import numpy as np
from scipy.special import digamma, expit, gammaln, logsumexp

from .case import F32, at, batches, classes, mask, normal, positive, signs


# --- losses ----------------------------------------------------------------------------

def logistic_loss(w, X, y):
    return np.mean(np.log1p(np.exp(-y * (X @ w))))


def binary_cross_entropy(w, b, X, t):
    p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
    return -np.mean(t * np.log(p) + (1.0 - t) * np.log(1.0 - p))


def softmax_cross_entropy(W, X, labels):
    logits = X @ W
    logits = logits - np.max(logits, axis=1, keepdims=True)
    log_p = logits - np.log(np.sum(np.exp(logits), axis=1, keepdims=True))
    return -np.mean(log_p[np.arange(X.shape[0]), labels])


def cross_entropy_by_logsumexp(W, b, X, labels):
    logits = X @ W + b
    picked = logits[np.arange(len(labels)), labels]
    return np.mean(logsumexp(logits, axis=1) - picked)


def mean_squared_error(w, b, X, y):
    residual = X @ w + b - y
    return float(np.mean(residual ** 2))


def huber_loss(w, X, y):
    r = X @ w - y
    delta = 0.5
    quadratic = 0.5 * r ** 2
    linear = delta * (np.abs(r) - 0.5 * delta)
    return np.mean(np.where(np.abs(r) <= delta, quadratic, linear))


def hinge_loss(w, X, y):
    margins = 1.0 - y * (X @ w)
    return np.mean(np.maximum(0.0, margins)) + 0.01 * np.sum(w ** 2)


def poisson_regression(w, X, counts):
    eta = X @ w
    return np.sum(np.exp(eta) - counts * eta)


def kl_between_softmaxes(p_logits, q_logits):
    p = np.exp(p_logits - logsumexp(p_logits, axis=-1, keepdims=True))
    log_q = q_logits - logsumexp(q_logits, axis=-1, keepdims=True)
    return np.sum(p * (np.log(p) - log_q))


def tempered_cross_entropy(temperature, logits, labels):
    z = logits / temperature
    z = z - z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -np.mean(log_p[np.arange(logits.shape[0]), labels])


def negative_binomial_regression(w, log_r, X, counts):
    """Counts over a log-linear mean, their dispersion ``r`` learned: SciPy's gammaln
    of arrays, whose derivative is SciPy's digamma of them."""
    mu, r = np.exp(X @ w), np.exp(log_r)
    return -np.sum(gammaln(counts + r) - gammaln(r) - gammaln(counts + 1.0)
                   + r * np.log(r / (r + mu)) + counts * np.log(mu / (r + mu)))


def digamma_moment_match(log_alpha, mean_logs):
    """A Dirichlet's expected logs matched to observed ones: digamma of an array."""
    alpha = np.exp(log_alpha)
    return np.sum((digamma(alpha) - digamma(np.sum(alpha)) - mean_logs) ** 2)


def gaussian_on_a_grid(centre, log_width, image):
    """A 2-d Gaussian fitted to an image on the pixel grid ``np.meshgrid`` makes."""
    X, Y = np.meshgrid(np.arange(image.shape[1]), np.arange(image.shape[0]))
    width = np.exp(log_width)
    model = np.exp(-((X - centre[0]) ** 2 + (Y - centre[1]) ** 2) / (2.0 * width ** 2))
    return np.sum((model - image) ** 2)


def masked_mse(pred, target, m):
    diff = np.where(m, pred - target, 0.0)
    return np.sum(diff ** 2) / np.sum(m)


# --- layers ----------------------------------------------------------------------------

def dense_tanh(W, b, X):
    return np.sum(np.tanh(X @ W + b))


def layer_norm(x, gamma, beta):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    y = (x - mu) / np.sqrt(var + 1e-5) * gamma + beta
    return np.sum(y ** 2 * np.arange(1, x.shape[-1] + 1))


def mlp_over_a_dict(params, X, y):
    h = np.tanh(X @ params["W1"] + params["b1"])
    out = h @ params["W2"] + params["b2"]
    return np.mean((out[:, 0] - y) ** 2)


def relu_mlp(params, X, labels):
    h = np.maximum(X @ params["W1"] + params["b1"], 0.0)
    logits = h @ params["W2"] + params["b2"]
    logits = logits - logits.max(axis=1, keepdims=True)
    log_p = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return -np.mean(log_p[np.arange(len(labels)), labels])


def mlp_over_a_list(layers, X):
    h = X
    for W, b in layers:
        h = np.tanh(h @ W + b)
    return np.sum(h ** 2)


def l2_over_a_dict(params):
    return sum(np.sum(v ** 2) for v in params.values())


def batch_norm(X, gamma, beta):
    mu = np.mean(X, axis=0)
    sigma = np.sqrt(np.var(X, axis=0) + 1e-3)
    return np.sum(np.tanh(gamma * (X - mu) / sigma + beta))


def cosine_similarity(u, v):
    return u @ v / (np.linalg.norm(u) * np.linalg.norm(v))


# --- attention -------------------------------------------------------------------------

def softmax_rows(S):
    S = S - np.max(S, axis=-1, keepdims=True)
    E = np.exp(S)
    return E / np.sum(E, axis=-1, keepdims=True)


def attention(Q, K, V):
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    scores = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=1, keepdims=True)
    return np.sum((weights @ V) ** 2)


def self_attention(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    A = softmax_rows(Q @ K.T)
    return np.sum(np.tanh(A @ V))


def entropy_of_softmax(logits):
    p = softmax_rows(logits)
    return -np.sum(p * np.log(p))


# --- recurrences -----------------------------------------------------------------------

def rnn_over_range(Wh, Wx, h0, xs):
    h = h0
    for t in range(xs.shape[0]):
        h = np.tanh(Wh @ h + Wx @ xs[t])
    return np.sum(h ** 2)


def rnn_over_rows(Wh, Wx, xs):
    h = np.zeros(Wh.shape[0])
    loss = 0.0
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x)
        loss = loss + np.sum(h)
    return loss


def gated_update(Wz, Wh, xs):
    h = np.zeros(Wz.shape[0])
    for t in range(len(xs)):
        z = 1.0 / (1.0 + np.exp(-(Wz @ xs[t])))
        h = (1.0 - z) * h + z * np.tanh(Wh @ xs[t] + h)
    return np.sum(h)


def exponential_smoothing(alpha, x):
    s = x[0]
    for t in range(1, x.shape[0]):
        s = alpha * x[t] + (1.0 - alpha) * s
    return s


# --- stencils --------------------------------------------------------------------------

def laplacian_energy(u):
    lap = u[2:] - 2.0 * u[1:-1] + u[:-2]
    return np.sum(lap ** 2)


def laplacian_2d(U):
    lap = U[2:, 1:-1] + U[:-2, 1:-1] + U[1:-1, 2:] + U[1:-1, :-2] - 4.0 * U[1:-1, 1:-1]
    return np.sum(lap ** 2) + np.sum(U ** 2)


def heat_steps(u0, dt):
    u = u0.copy()
    for _ in range(3):
        new = u.copy()
        new[1:-1] = u[1:-1] + dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u = new
    return np.sum(u ** 2)


def convolution_1d(x, kernel):
    k = kernel.shape[0]
    n = x.shape[0] - k + 1
    out = np.zeros(n)
    for j in range(k):
        out = out + kernel[j] * x[j:j + n]
    return np.sum(np.tanh(out))


# --- kernels ---------------------------------------------------------------------------

def pairwise_squared_distances(X):
    sq = np.sum(X ** 2, axis=1)
    D = sq[:, None] + sq[None, :] - 2.0 * X @ X.T
    return np.sum(D)


def rbf_kernel_sum(X, lengthscale):
    diff = X[:, None, :] - X[None, :, :]
    D = np.sum(diff ** 2, axis=-1)
    return np.sum(np.exp(-0.5 * D / lengthscale ** 2))


def kernel_ridge_fit(X, y, lengthscale):
    sq = np.sum(X ** 2, 1)
    K = np.exp(-(sq[:, None] + sq[None, :] - 2.0 * X @ X.T) / lengthscale)
    alpha = np.linalg.solve(K + 0.1 * np.eye(X.shape[0]), y)
    return np.sum((K @ alpha - y) ** 2)


def kalman_filter_likelihood(q, r, ys):
    """A constant-velocity Kalman filter's negative log-likelihood: the covariance ``P``
    is carried from one step to the next through matrix products."""
    F = np.array([[1.0, 1.0], [0.0, 1.0]])
    H = np.array([[1.0, 0.0]])
    x = np.zeros(2)
    P = np.eye(2)
    total = 0.0
    for y in ys:
        x = F @ x
        P = F @ P @ F.T + q * np.eye(2)
        S = H @ P @ H.T + r
        K = P @ H.T / S[0, 0]
        e = y - (H @ x)[0]
        x = x + K[:, 0] * e
        P = P - K @ H @ P
        total = total + 0.5 * (np.log(S[0, 0]) + e * e / S[0, 0])
    return total


# --- running extremes and steps --------------------------------------------------------

def max_drawdown(r, scale):
    """A portfolio's squared drawdowns: wealth from log returns ``scale * r``, its
    running peak, and the fall from it."""
    wealth = np.exp(np.add.accumulate(scale * r))
    peak = np.maximum.accumulate(wealth)
    return np.mean((1.0 - wealth / peak) ** 2) + np.max(peak) * 0.01


def step_weighted_loss(w, X, y):
    """An asymmetric squared loss: residuals above the target weigh 0.8, below 0.2."""
    e = X @ w - y
    return np.mean((0.2 + 0.6 * np.heaviside(e, 0.5)) * e ** 2)


def interpolated_curve_fit(fp, x, y):
    """A piecewise-linear curve through knots at fixed places fit to data (``x`` kept
    away from the knots, the curve's kinks)."""
    knots = np.array([-2.05, -1.05, -0.05, 0.95, 1.95, 2.95])
    return np.mean((np.interp(x, knots, fp) - y) ** 2) + 0.01 * np.sum(np.diff(fp) ** 2)


# --- optimisation ----------------------------------------------------------------------

def unrolled_gradient_descent(w, X, y):
    n = X.shape[0]
    for _ in range(3):
        w = w - 0.1 * X.T @ (X @ w - y) / n
    return np.mean((X @ w - y) ** 2)


def ridge_over_a_dict(params, X, y):
    pred = X @ params["w"] + params["b"]
    return np.mean((pred - y) ** 2) + params["decay"] * np.sum(params["w"] ** 2)


# --- functions and objects as values ---------------------------------------------------

def relu(z):
    return np.maximum(z, 0.0)


ACTIVATIONS = {"tanh": np.tanh, "relu": relu, "sigmoid": expit}


def mlp_act(W1, W2, X, act=relu):
    return np.sum(act(X @ W1) @ W2)


def mlp_tanh_passed(W1, X):
    return mlp_act(W1, np.ones((W1.shape[1], 1)), X, act=np.tanh)


def mlp_lambda_passed(W1, X):
    return mlp_act(W1, np.ones((W1.shape[1], 1)), X, act=lambda z: np.maximum(z, 0))


def mlp_tanh_default(W1, W2, X, act=np.tanh):
    return np.sum(act(X @ W1) @ W2)


def mlp_lambda_default(W1, X, act=lambda z: np.log1p(np.exp(z))):
    return np.sum(act(X @ W1) ** 2)


def activations_by_key(W, X, acts):
    h = X @ W
    return np.sum(acts["hidden"](h) * acts["out"](h))


def activations_in_turn(W, X, acts):
    h = X @ W
    for act in acts:
        h = act(h)
    return np.sum(h ** 2)


def _applied(f, z):
    return f(z)


def module_activations(W, X):
    h = X @ W
    return np.sum(ACTIVATIONS["sigmoid"](h) + _applied(ACTIVATIONS["tanh"], h)
                  + _applied(np.exp, -h * h))


@dataclass
class DenseLayer:
    W: np.ndarray
    b: np.ndarray

    def __call__(self, x):
        return np.tanh(x @ self.W + self.b)


class TupleLayer(namedtuple("TupleLayer", "W b")):
    def __call__(self, x):
        return np.sin(x @ self.W) + self.b


class PlainLayer:
    def __init__(self, W, b):
        self.W, self.b = W, b

    def __call__(self, x):
        return expit(x @ self.W - self.b)


@dataclass
class TwoLayers:
    first: DenseLayer
    second: DenseLayer

    def forward(self, x):
        return self.second(self.first(x))


def layer_loss(layer, X):
    return np.sum(layer(X) ** 2)


def layers_in_turn(layers, X):
    x = X
    for layer in layers:
        x = layer(x)
    return np.sum(x ** 2)


def layers_by_index(layers, X):
    return np.sum(layers[1](layers[0](X)))


def model_forward(model, X):
    return np.mean(model.forward(X) ** 2)


def _layer(seed, d, h, cls=DenseLayer):
    return cls(normal(seed + "W", d, h, scale=0.5), normal(seed + "b", h, scale=0.1))


# Not ``CASES``: functions and objects as arguments (an activation, a layer with
# ``__call__``), which the collectors of array cases do not pass; read by
# tests/end_to_end/test_function_values_arrays.py.
VALUE_CASES = [
    at(mlp_act, *batches(lambda n: (normal("ma1", 3, 4), normal("ma2", 4, 1), normal(f"maX{n}", n, 3),
                                    relu)), wrt=("W1", "W2"), kinky=True),
    at(mlp_act, *batches(lambda n: (normal("ma1", 3, 4), normal("ma2", 4, 1), normal(f"maX{n}", n, 3),
                                    np.tanh)), wrt=("W1", "W2"), name="mlp_act_tanh"),
    at(mlp_act, *batches(lambda n: (normal("ma1", 3, 4), normal("ma2", 4, 1), normal(f"maX{n}", n, 3),
                                    expit)), wrt=("W1", "W2"), name="mlp_act_expit"),
    at(mlp_tanh_passed, *batches(lambda n: (normal("mtp", 3, 4), normal(f"mtpX{n}", n, 3))), wrt="W1"),
    at(mlp_lambda_passed, *batches(lambda n: (normal("mlp", 3, 4), normal(f"mlpX{n}", n, 3))), wrt="W1",
       kinky=True),
    at(mlp_tanh_default, *batches(lambda n: (normal("mtd1", 3, 4), normal("mtd2", 4, 2), normal(f"mtdX{n}", n, 3),
                                             np.tanh)), wrt=("W1", "W2")),
    at(mlp_lambda_default, *batches(lambda n: (normal("mld", 3, 2), normal(f"mldX{n}", n, 3),
                                               mlp_lambda_default.__defaults__[0])), wrt=("W1", "X")),
    at(activations_by_key, *batches(lambda n: (normal("abk", 3, 2), normal(f"abkX{n}", n, 3),
                                               {"hidden": np.tanh, "out": expit})), wrt="W"),
    at(activations_in_turn, *batches(lambda n: (normal("ait", 3, 3), normal(f"aitX{n}", n, 3),
                                                (np.tanh, relu, np.sin))), wrt="W", kinky=True),
    at(activations_in_turn, *batches(lambda n: (normal("ait", 3, 3), normal(f"aitX{n}", n, 3),
                                                [np.tanh, np.tanh])), wrt="W", name="activations_listed"),
    at(module_activations, *batches(lambda n: (normal("mac", 3, 2), normal(f"macX{n}", n, 3)))),
    at(layer_loss, *batches(lambda n: (_layer("ll", 3, 2), normal(f"llX{n}", n, 3)))),
    at(layer_loss, *batches(lambda n: (_layer("lt", 3, 2, TupleLayer), normal(f"ltX{n}", n, 3))),
       name="tuple_layer_loss"),
    at(layer_loss, *batches(lambda n: (_layer("lp", 3, 2, PlainLayer), normal(f"lpX{n}", n, 3))),
       wrt="layer", name="plain_layer_loss"),
    at(layers_in_turn, *batches(lambda n: ([_layer("lit1", 3, 3), _layer("lit2", 3, 3)], normal(f"litX{n}", n, 3))),
       wrt="layers"),
    at(layers_in_turn, *batches(lambda n: ((_layer("lit1", 3, 4), _layer("lit3", 4, 2)), normal(f"litX{n}", n, 3))),
       wrt="layers", name="layers_of_a_tuple"),
    at(layers_by_index, *batches(lambda n: ([_layer("lbi1", 3, 3), _layer("lbi2", 3, 3)], normal(f"lbiX{n}", n, 3)))),
    at(model_forward, *batches(lambda n: (TwoLayers(_layer("mf1", 3, 4), _layer("mf2", 4, 2)),
                                          normal(f"mfX{n}", n, 3))), wrt="model"),
]


def _mlp_params(seed, d, h, k, dtype=np.float64):
    return {"W1": normal(seed + "W1", d, h, dtype=dtype, scale=0.5),
            "b1": normal(seed + "b1", h, dtype=dtype, scale=0.1),
            "W2": normal(seed + "W2", h, k, dtype=dtype, scale=0.5),
            "b2": normal(seed + "b2", k, dtype=dtype, scale=0.1)}


CASES = [
    at(logistic_loss, *batches(lambda n: (normal("ll", 3), normal(f"llX{n}", n, 3), signs(f"lly{n}", n))), wrt="w"),
    at(binary_cross_entropy, *batches(lambda n: (normal("bce", 3), 0.1, normal(f"bceX{n}", n, 3),
                                                 (signs(f"bcet{n}", n) + 1.0) / 2.0)), wrt=("w", "b")),
    at(softmax_cross_entropy, *batches(lambda n: (normal("sce", 3, 4), normal(f"sceX{n}", n, 3),
                                                  classes(f"scel{n}", n, 4))), wrt="W"),
    at(cross_entropy_by_logsumexp, *batches(lambda n: (normal("cebl", 3, 4), normal("ceblb", 4),
                                                       normal(f"ceblX{n}", n, 3), classes(f"cebll{n}", n, 4))),
       wrt=("W", "b")),
    at(mean_squared_error, *batches(lambda n: (normal("mse", 2), 0.3, normal(f"mseX{n}", n, 2),
                                               normal(f"msey{n}", n))), wrt=("w", "b")),
    at(huber_loss, *batches(lambda n: (normal("hub", 3), normal(f"hubX{n}", n, 3), normal(f"huby{n}", n))),
       wrt="w", kinky=True),
    at(hinge_loss, *batches(lambda n: (normal("hin", 3), normal(f"hinX{n}", n, 3), signs(f"hiny{n}", n))),
       wrt="w", kinky=True),
    at(poisson_regression, *batches(lambda n: (normal("poi", 2, scale=0.3), normal(f"poiX{n}", n, 2),
                                               classes(f"poic{n}", n, 4).astype(float))), wrt="w"),
    at(kl_between_softmaxes, (normal("kbsp", 4), normal("kbsq", 4)), (normal("kbsp", 3, 2), normal("kbsq", 3, 2))),
    at(tempered_cross_entropy, *batches(lambda n: (1.5, normal(f"tce{n}", n, 3), classes(f"tcel{n}", n, 3))),
       wrt="temperature"),
    at(negative_binomial_regression, *batches(lambda n: (normal("nbr", 2, scale=0.3), 0.2,
                                                         normal(f"nbrX{n}", n, 2),
                                                         classes(f"nbrc{n}", n, 5).astype(float))),
       wrt=("w", "log_r")),
    at(digamma_moment_match, (normal("dmm", 3, scale=0.3), -np.abs(normal("dmml", 3)) - 0.5),
       (normal("dmm", 4, dtype=F32, scale=0.3), -np.abs(normal("dmml", 4, dtype=F32)) - 0.5),
       wrt="log_alpha"),
    at(gaussian_on_a_grid, (np.array([1.2, 0.8]), 0.3, positive("gog", 3, 4)),
       (np.array([2.5, 1.5]), 0.6, positive("gog", 5, 4)), wrt=("centre", "log_width")),
    at(masked_mse, (normal("mmp", 5), normal("mmt", 5), mask("mmm", 5)),
       (normal("mmp", 2, 3), normal("mmt", 2, 3), mask("mmm", 2, 3)), wrt="pred"),
    at(dense_tanh, *batches(lambda n: (normal("dt", 3, 2), normal("dtb", 2), normal(f"dtX{n}", n, 3))),
       (normal("dt", 3, 2, dtype=F32), normal("dtb", 2, dtype=F32), normal("dtX", 4, 3, dtype=F32)),
       wrt=("W", "b")),
    at(layer_norm, (normal("lnx", 4), positive("lng", 4), normal("lnb", 4)),
       (normal("lnx", 3, 4), positive("lng", 4), normal("lnb", 4))),
    at(mlp_over_a_dict, *batches(lambda n: (_mlp_params("mod", 3, 4, 1), normal(f"modX{n}", n, 3),
                                            normal(f"mody{n}", n))),
       (_mlp_params("mod", 3, 4, 1, F32), normal("modX", 3, 3, dtype=F32), normal("mody", 3, dtype=F32)),
       wrt="params"),
    at(relu_mlp, *batches(lambda n: (_mlp_params("rm", 3, 5, 4), normal(f"rmX{n}", n, 3),
                                     classes(f"rml{n}", n, 4))), wrt="params", kinky=True),
    at(mlp_over_a_list, ([(normal("mol", 3, 4), normal("molb", 4)), (normal("mol2", 4, 2), normal("molb2", 2))],
                         normal("molX", 5, 3)),
       ([(normal("mol", 2, 1), normal("molb", 1))], normal("molX", 1, 2)), wrt="layers"),
    at(l2_over_a_dict, ({"w": normal("lod", 3), "b": np.array(0.5)},),
       ({"W": normal("lodW", 2, 2), "v": normal("lodv", 1), "c": normal("lodc", 3, dtype=F32)},)),
    at(batch_norm, *batches(lambda n: (normal(f"bnX{n}", n, 3), positive("bng", 3), normal("bnb", 3)),
                            sizes=(2, 3, 7)), wrt=("gamma", "beta")),
    at(cosine_similarity, (normal("cos", 3), normal("cosv", 3)), (normal("cos", 1), normal("cosv", 1))),
    at(attention, *batches(lambda n: (normal(f"attQ{n}", n, 2), normal(f"attK{n}", n, 2), normal(f"attV{n}", n, 3)))),
    at(self_attention, *batches(lambda n: (normal(f"saX{n}", n, 3), normal("saq", 3, 2), normal("sak", 3, 2),
                                           normal("sav", 3, 2))), wrt=("Wq", "Wk", "Wv")),
    at(entropy_of_softmax, (normal("eos", 4),), (normal("eos", 3, 2),), (normal("eos", 2, 3, dtype=F32),)),
    at(rnn_over_range, *batches(lambda n: (normal("ror", 3, 3, scale=0.5), normal("rorx", 3, 2), normal("rorh", 3),
                                           normal(f"rorxs{n}", n, 2))), wrt=("Wh", "Wx", "h0")),
    at(rnn_over_rows, *batches(lambda n: (normal("rrw", 2, 2, scale=0.5), normal("rrx", 2, 3),
                                          normal(f"rrxs{n}", n, 3))), wrt=("Wh", "Wx")),
    at(gated_update, *batches(lambda n: (normal("guz", 2, 3), normal("guh", 2, 3), normal(f"guxs{n}", n, 3))),
       wrt=("Wz", "Wh")),
    at(exponential_smoothing, *batches(lambda n: (0.3, normal(f"es{n}", n)))),
    at(laplacian_energy, (normal("le", 3),), (normal("le", 8),), (normal("le", 6, dtype=F32),)),
    at(laplacian_2d, (normal("l2d", 3, 3),), (normal("l2d", 4, 5),)),
    at(heat_steps, (normal("hs", 3), 0.1), (normal("hs", 7), 0.2)),
    at(convolution_1d, (normal("c1", 5), normal("c1k", 3)), (normal("c1", 2), normal("c1k", 2)),
       (normal("c1", 4), normal("c1k", 1))),
    at(pairwise_squared_distances, *batches(lambda n: (normal(f"psd{n}", n, 2),))),
    at(rbf_kernel_sum, *batches(lambda n: (normal(f"rks{n}", n, 2), 0.8))),
    at(kernel_ridge_fit, *batches(lambda n: (normal(f"krf{n}", n, 2), normal(f"krfy{n}", n), 1.5)),
       wrt=("X", "lengthscale")),
    at(kalman_filter_likelihood, (0.1, 0.5, normal("kfl", 5)), (0.3, 0.2, normal("kfl", 2)),
       (0.2, 0.4, normal("kfl", 1)), wrt=("q", "r")),
    at(max_drawdown, *batches(lambda n: (normal(f"mdd{n}", n + 1), 0.1))),
    at(step_weighted_loss, *batches(lambda n: (normal("swl", 3), normal(f"swlX{n}", n, 3),
                                               normal(f"swly{n}", n))), wrt="w"),
    at(interpolated_curve_fit, *batches(lambda n: (normal("icf", 6), normal(f"icfx{n}", n),
                                                   normal(f"icfy{n}", n))), wrt="fp"),
    at(unrolled_gradient_descent, *batches(lambda n: (normal("ugd", 3), normal(f"ugdX{n}", n, 3),
                                                      normal(f"ugdy{n}", n))), wrt="w"),
    at(ridge_over_a_dict, *batches(lambda n: ({"w": normal("rod", 3), "b": 0.2, "decay": 0.01},
                                              normal(f"rodX{n}", n, 3), normal(f"rody{n}", n))), wrt="params"),
]
