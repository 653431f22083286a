"""Robust statistics and signals as people write them in NumPy: a median-based loss, a
1-d convolution layer, a matched filter by correlation, percentiles that trim, quantiles
by column, a torque by cross products, a bias appended to the features and attention
split into heads.

They join the ``models`` category (see the package).
"""

import numpy as np

from .case import F32, at, batches, normal


def robust_median_loss(w, X, y):
    r = X @ w - y
    centre = np.median(r)
    spread = np.median(np.abs(r - centre)) + 0.1
    return np.sum(np.log1p(((r - centre) / spread) ** 2))


def convolution_layer(x, k, b):
    h = np.tanh(np.convolve(x, k, mode="same") + b)
    return np.sum(h ** 2) + np.sum(np.convolve(h, k, mode="valid"))


def matched_filter(x, k):
    response = np.correlate(x, k, mode="valid")
    return np.max(response) + 0.1 * np.sum(response ** 2)


def trimmed_by_percentiles(x):
    lo, hi = np.percentile(x, 10), np.percentile(x, 90)
    return np.sum(np.clip(x, lo, hi) ** 2) + (hi - lo)


def quantiles_by_column(X):
    upper = np.quantile(X, 0.75, axis=0)
    lower = np.quantile(X, 0.25, axis=0, keepdims=True)
    return np.sum(upper ** 2) + np.sum(np.tanh(X - lower))


def torque(r, F):
    tau = np.cross(r, F)
    return np.sum(tau ** 2) + np.sum(np.cross(r, F + r[0]))


def appended_bias(x, w):
    features = np.append(x, 1.0)
    return np.tanh(features @ w) + np.sum(np.append(x, x ** 2) ** 2)


def attention_by_heads(X, W):
    first, second = np.split(X @ W, 2, axis=1)  # two heads of the projected features
    total = 0.0
    for head in (first, second):
        scores = head @ head.T
        e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
        total = total + np.sum((e / np.sum(e, axis=1, keepdims=True)) @ head)
    return total


def uneven_chunks(x):
    first, middle, last = np.array_split(x, 3)  # the first n % 3 chunks one longer
    return np.sum(first ** 2) + np.sum(np.tanh(last)) * np.sum(middle) + np.sum(
        np.array_split(x, 3)[-1] ** 3)


CASES = [
    at(robust_median_loss, *batches(lambda n: (normal("rml", 3), normal(f"rmlX{n}", n + 2, 3),
                                               normal(f"rmly{n}", n + 2))), wrt="w",
       kinky=True),
    at(convolution_layer, (normal("cvl", 6), normal("cvlk", 3), 0.1),
       (normal("cvl", 2), normal("cvlk", 4), -0.3), (normal("cvl", 5, dtype=F32),
                                                     normal("cvlk", 2, dtype=F32), 0.2)),
    at(matched_filter, (normal("mtf", 7), normal("mtfk", 3)), (normal("mtf", 4), normal("mtfk", 4)),
       kinky=True),
    at(trimmed_by_percentiles, (normal("tbp", 9),), (normal("tbp", 3, 4),), kinky=True),
    at(quantiles_by_column, (normal("qbc", 5, 3),), (normal("qbc", 2, 1),),
       (normal("qbc", 4, 2, dtype=F32),), kinky=True),
    at(torque, (normal("trq", 4, 3), normal("trqF", 4, 3)), (normal("trq", 1, 3), normal("trqF", 3))),
    at(appended_bias, (normal("apb", 3), normal("apbw", 4)), (normal("apb", 1), normal("apbw", 2))),
    at(attention_by_heads, *batches(lambda n: (normal(f"abhX{n}", n, 3), normal("abhW", 3, 4))),
       wrt="W"),
    at(uneven_chunks, (normal("unc", 7),), (normal("unc", 3),), (normal("unc", 5, dtype=F32),)),
]
