"""Functions that join lists and tuples (``xs + ys``, ``[0.0] + xs``, ``xs.extend(ys)``,
``ys += xs``) and helpers that return a list written out, as scientific and ML code
writes them.  ``CASES`` at the end, in the format of ``containers.py``.
"""

import math

from .containers import at, matrix, numbers


def padded_differences(xs, y):
    """A signal padded with a zero before and ``y`` after, then differenced."""
    z = [0.0] + xs + [y]
    return sum((z[i + 1] - z[i]) ** 2 for i in range(len(z) - 1))


def joined_sum_of_squares(xs, ys):
    return sum(v * v for v in xs + ys)


def joined_then_indexed(xs, ys):
    both = xs + ys
    return both[0] * both[-1] + len(both) * both[1]


def tuple_with_one_more(p, q):
    t = p + (q,)
    return t[0] * t[1] + math.sin(t[2])


def two_rows_joined(m):
    row = m[0] + m[1][:1]
    return sum(r * math.exp(-r) for r in row)


def history_rebuilt_by_join(xs):
    """A history list rebuilt each step as ``h + [new]``, read at its end."""
    h = [1.0]
    total = 0.0
    for x in xs:
        h = h + [x * h[-1]]
        total += h[-1]
    return total


def extended_copy(xs, ys):
    zs = list(xs)
    zs.extend(ys)
    return sum(z * z for z in zs) * zs[-1]


def augmented_join(xs, y):
    zs = [y]
    zs += xs
    return sum(z * z for z in zs) * zs[0]


def window_features(xs, w):
    """Each window of three, padded at both ends by edge values."""
    padded = [xs[0]] + xs + [xs[-1]]
    return sum(w * (padded[i - 1] + padded[i] + padded[i + 1]) ** 2
               for i in range(1, len(padded) - 1))


def _moments(v):
    return [sum(v), sum(t * t for t in v)]


def helper_returns_a_list_literal(xs, ys):
    a = _moments(xs)
    b = _moments(ys)
    return a[1] - a[0] ** 2 / len(xs) + b[1] * b[0]


def _tail_sum(v):
    return sum(v[1:])


def helper_slice_called_twice(xs, ys):
    """A helper that slices its argument, called on two lists: each call its own slice."""
    return _tail_sum(xs) * _tail_sum(ys)


def joined_in_a_helper(xs, ys):
    def mean_of_both(a, b):
        both = a + b
        return sum(both) / len(both)
    m = mean_of_both(xs, ys)
    return sum((x - m) ** 2 for x in xs) + mean_of_both(ys, xs) * m


CASES = [
    at(padded_differences, (numbers(3, "pd"), 0.7), (numbers(1, "pd1"), -1.2)),
    at(joined_sum_of_squares, (numbers(2, "js"), numbers(3, "js2")), ([0.5], [-1.5])),
    at(joined_then_indexed, (numbers(2, "ji"), numbers(2, "ji2")), (numbers(3, "ji3"), [0.4])),
    at(tuple_with_one_more, ((0.5, -1.5), 0.3), ((1.2, 0.7), -0.4)),
    at(two_rows_joined, (matrix(2, 2, "tr"),), (matrix(2, 3, "tr2"),)),
    at(history_rebuilt_by_join, (numbers(3, "hj"),), (numbers(1, "hj1"),)),
    at(extended_copy, (numbers(2, "ec"), numbers(2, "ec2")), ([0.5], numbers(3, "ec3"))),
    at(augmented_join, (numbers(2, "aj"), 0.9), (numbers(3, "aj2"), -0.6)),
    at(window_features, (numbers(4, "wf"), 0.5), (numbers(2, "wf2"), -1.3)),
    at(helper_returns_a_list_literal, (numbers(3, "hr"), numbers(2, "hr2")),
       (numbers(2, "hr3"), numbers(3, "hr4"))),
    at(helper_slice_called_twice, (numbers(3, "hs"), numbers(3, "hs2")),
       (numbers(2, "hs3"), numbers(4, "hs4"))),
    at(joined_in_a_helper, (numbers(2, "jh"), numbers(3, "jh2")), ([0.5], numbers(2, "jh3"))),
]
