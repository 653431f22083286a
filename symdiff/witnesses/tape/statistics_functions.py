"""The tape's ``statistics``: means and spreads of a list of Values and numbers.

Expects the tape's ``Value``.  Guarantees ``STATISTICS``, ``{name: function}`` for
``mean``, ``fmean`` (with ``weights``), ``variance``, ``pvariance``, ``stdev``,
``pstdev``, ``geometric_mean`` and ``harmonic_mean``: each computes the library's own
value from the numbers and records its local derivatives by each element, stated here
from the formulas (the library sums exactly with fractions, which a Value cannot pass):

    mean          1 / n
    fmean         w_i / sum(w) by x_i, (x_i - out) / sum(w) by w_i
    variance      2 (x_i - m) / (n - 1)          pvariance: / n
    stdev         (x_i - m) / ((n - 1) out)      pstdev: / (n out); 0 where out is 0
    geometric     out / (n x_i)
    harmonic      out**2 / (n x_i**2)            0 at an element 0

    STATISTICS["variance"]([Value(1.0), 2.0, 4.0])   a Value of 7/3
"""

import math
import statistics

from symdiff.witnesses.tape.value import _data, _record


def _numbers(data):
    values = list(data)
    return values, [_data(v) for v in values]


def mean(data):
    values, xs = _numbers(data)
    return _record(statistics.mean(xs), values, lambda: [1.0 / len(xs)] * len(xs))


def fmean(data, weights=None):
    values, xs = _numbers(data)
    if weights is None:
        return _record(statistics.fmean(xs), values, lambda: [1.0 / len(xs)] * len(xs))
    scales, ws = _numbers(weights)
    out = statistics.fmean(xs, ws)
    total = math.fsum(ws)
    return _record(out, values + scales, lambda: [w / total for w in ws] + [
        (x - out) / total for x in xs])


def _deviations(xs):
    centre = math.fsum(xs) / len(xs)
    return [x - centre for x in xs]


def _variance(library, ddof):
    def variance(data):
        values, xs = _numbers(data)
        return _record(library(xs), values, lambda: [
            2.0 * d / (len(xs) - ddof) for d in _deviations(xs)])
    return variance


def _deviation(library, ddof):
    def deviation(data):
        values, xs = _numbers(data)
        out = library(xs)
        return _record(out, values, lambda: [
            d / ((len(xs) - ddof) * out) if out else 0.0 for d in _deviations(xs)])
    return deviation


def geometric_mean(data):
    values, xs = _numbers(data)
    out = statistics.geometric_mean(xs)
    return _record(out, values, lambda: [out / (len(xs) * x) for x in xs])


def harmonic_mean(data):
    values, xs = _numbers(data)
    out = statistics.harmonic_mean(xs)
    return _record(out, values, lambda: [(out / x) ** 2 / len(xs) if x else 0.0 for x in xs])


STATISTICS = {
    "mean": mean, "fmean": fmean, "geometric_mean": geometric_mean,
    "harmonic_mean": harmonic_mean,
    "variance": _variance(statistics.variance, 1), "pvariance": _variance(statistics.pvariance, 0),
    "stdev": _deviation(statistics.stdev, 1), "pstdev": _deviation(statistics.pstdev, 0),
}
