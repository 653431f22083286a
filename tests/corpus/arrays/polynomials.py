"""Polynomials, pairwise tables and clipped losses as people write them in NumPy: a
polynomial feature model by ``np.polyval``, a fit penalising its slope by ``np.polyder``,
a Gaussian kernel of pairwise differences by ``np.subtract.outer``, a table of ratios by
``np.divide.outer``, a soft ranking by ``np.maximum.outer``, a clipped policy objective
(``np.clip`` by keywords), a clipped residual loss, and a log of a value floored by
``np.clip(x, lo, None)``.

They join the ``models`` category (see the package).
"""

import numpy as np

from .case import F32, at, batches, normal, positive


def polynomial_regression(p, x, y):
    r = np.polyval(p, x) - y
    return np.mean(r ** 2) + 1e-3 * np.sum(p ** 2)


def smooth_polynomial_fit(p, x, y):
    slope = np.polyval(np.polyder(p), x)
    return np.sum((np.polyval(p, x) - y) ** 2) + 0.1 * np.sum(slope ** 2)


def polynomial_activation(p, W, X):
    return np.sum(np.tanh(np.polyval(p, X @ W)))


def gaussian_kernel_of_differences(x, z, ell):
    d = np.subtract.outer(x, z)
    K = np.exp(-0.5 * (d / ell) ** 2)
    return np.sum(K) / (x.shape[0] * z.shape[0])


def kernel_density_log_likelihood(points, centres, width):
    d = np.subtract.outer(points, centres) / width
    density = np.mean(np.exp(-0.5 * d ** 2), axis=1) / width
    return np.sum(np.log(density + 1e-12))


def ratio_table(a, b):
    table = np.divide.outer(a, b) + np.multiply.outer(a, b)
    return np.sum(np.log1p(table ** 2)) + np.sum(np.add.outer(a, -b) ** 2)


def soft_margin_ranking(scores, margins):
    gaps = np.maximum.outer(scores, margins) - np.minimum.outer(scores, margins)
    return np.sum(gaps ** 2)


def clipped_policy_objective(logp, logp_old, advantages):
    ratio = np.exp(logp - logp_old)
    clipped = np.clip(ratio, a_min=0.8, a_max=1.2)
    return -np.mean(np.minimum(ratio * advantages, clipped * advantages))


def clipped_residual_loss(w, X, y):
    r = X @ w - y
    return np.sum(np.clip(r, -1.0, 1.0) * r) + np.sum(r.clip(max=0.5) ** 2)


def floored_log(x):
    return np.sum(np.log(np.clip(x, 0.1, None))) + np.sum(np.clip(x, None, 2.0) ** 2)


CASES = [
    at(polynomial_regression, *batches(lambda n: (normal("prp", 4), normal(f"prx{n}", n + 2),
                                                  normal(f"pry{n}", n + 2))),
       (normal("prp", 3, dtype=F32), normal("prx", 5, dtype=F32), normal("pry", 5, dtype=F32))),
    at(smooth_polynomial_fit, (normal("spf", 4), normal("spfx", 6), normal("spfy", 6)),
       (normal("spf", 2), normal("spfx", 3), normal("spfy", 3))),
    at(polynomial_activation, *batches(lambda n: (normal("pap", 3, scale=0.5), normal("paW", 3, 2),
                                                  normal(f"paX{n}", n, 3))), wrt=("p", "W")),
    at(gaussian_kernel_of_differences, (normal("gkd", 4), normal("gkdz", 3), 0.7),
       (normal("gkd", 1), normal("gkdz", 5), 1.3)),
    at(kernel_density_log_likelihood, *batches(lambda n: (normal(f"kdl{n}", n), normal("kdlc", 4),
                                                          0.8))),
    at(ratio_table, (normal("rt", 3), positive("rtb", 4)), (normal("rt", 2, 2), positive("rtb", 3))),
    at(soft_margin_ranking, (normal("smr", 4), normal("smrm", 3)),
       (normal("smr", 2, 3), normal("smrm", 2)), kinky=True),
    at(clipped_policy_objective, *batches(lambda n: (normal(f"cpo{n}", n, scale=0.2),
                                                     normal(f"cpoo{n}", n, scale=0.2),
                                                     normal(f"cpoa{n}", n))), wrt="logp",
       kinky=True),
    at(clipped_residual_loss, *batches(lambda n: (normal("crl", 3), normal(f"crlX{n}", n, 3),
                                                  normal(f"crly{n}", n))), wrt="w", kinky=True),
    at(floored_log, (positive("flg", 5),), (normal("flg", 3, 2),), kinky=True),
]
