"""Functions over lists with control flow inside their loops: a loop left by ``break`` or
skipping by ``continue``, choices between two elements (``max(a, b)`` of elements,
``abs``, a branch on an element), the input checks real code opens with (``assert
all(...)``, ``if any(...): raise``), and starred unpacking (``first, *rest = xs``).  A loop left by ``break`` runs back by its trip count,
so an element it reads is found again by its saved index.  ``CASES`` at the end, in the
format of ``containers.py``.
"""

import math

from .containers import at, numbers


def sum_of_squares_until_negative(xs):
    total = 0.0
    for x in xs:
        if x < 0:
            break
        total += x * x
    return total


def weighted_until_large(xs, w):
    total = 0.0
    for i in range(len(xs)):
        total += w * xs[i] * (i + 1)
        if total > 2.0:
            break
    return total


def roots_of_the_positive(xs):
    total = 0.0
    for x in xs:
        if x < 0:
            continue
        total += math.sqrt(x)
    return total


def max_pool_pairs(xs):
    return sum(max(xs[i], xs[i + 1]) for i in range(0, len(xs) - 1, 2))


def min_of_neighbours(xs):
    return sum(min(xs[i], xs[i + 1], 1.0) ** 2 for i in range(len(xs) - 1))


def hinge_losses(margins, w):
    return sum(max(0.0, 1.0 - w * m) for m in margins)


def log_likelihood_of_positives(xs, mu):
    if len(xs) == 0:
        raise ValueError("no data")
    assert all(x > 0 for x in xs), "every observation must be positive"
    return sum((math.log(x) - mu) ** 2 for x in xs)


def checked_rows(m, w):
    if any(len(row) != len(m[0]) for row in m):
        raise ValueError("ragged rows")
    if not all(v > -10.0 for row in m for v in row if v != 0.0):
        raise ValueError("a value is too small")
    return sum(w * v * v for row in m for v in row)


def first_against_the_rest(xs):
    first, *rest = xs
    return first * sum(rest) + len(rest)


def ends_and_middle(t, scale):
    a, *middle, b = t
    return scale * a * b + sum(m * m for m in middle)


def pair_and_remainder(x, y):
    head, *tail = x, y, x * y
    return head * sum(tail)


CASES = [
    at(sum_of_squares_until_negative, ([0.5, 1.5, -0.3, 0.7],), ([0.4, 0.9],),
       ([-0.2, 0.6],)),
    at(weighted_until_large, (numbers(4, "wu"), 0.8), ([0.9, 0.8, 0.7], 1.5)),
    at(roots_of_the_positive, ([0.5, 1.5, -0.3, 0.7],), ([-0.4, 0.9],)),
    at(max_pool_pairs, ([0.5, 1.5, -0.3, 0.2],), ([0.25, -0.75, 0.6],), kinky=True),
    at(min_of_neighbours, ([0.5, 1.5, -0.3, 0.2],), ([1.25, 1.75, 0.6],), kinky=True),
    at(hinge_losses, ([0.5, 1.5, -0.3], 0.8), ([0.2, 2.5], 1.1), kinky=True),
    at(log_likelihood_of_positives, ([0.5, 1.5, 2.5], 0.3), ([1.2], -0.4)),
    at(checked_rows, ([[0.5, 1.5], [0.0, -2.5]], 0.7), ([[1.5]], -1.1)),
    at(first_against_the_rest, ([0.5, 1.5, 2.5],), ([1.2, -0.4],)),
    at(ends_and_middle, ((0.5, 1.5, 2.5, -0.7), 1.3), ((1.2, -0.4), 0.6)),
    at(pair_and_remainder, (0.5, 1.5), (-1.2, 0.4)),
]
