"""Functions that build a container inside one branch of an ``if`` and read it only
there: a regularization term added when its weight is positive, a helper that builds a
list called in one branch, a list written out in a branch, in a loop too.  Each is
tested at points that take each branch.  ``CASES`` at the end, in the format of
``containers.py``.
"""

import math

from .containers import at, numbers


def regularized_when_asked(ws, xs, reg):
    loss = sum((w * x - 1.0) ** 2 for w, x in zip(ws, xs))
    if reg > 0:
        loss += reg * sum(w * w for w in ws)
    return loss


def _doubled_ends(v):
    ys = [2 * a for a in v]
    return ys[0] * ys[-1]


def helper_built_list_in_a_branch(xs, c):
    t = 0.0
    if c > 0:
        t = _doubled_ends(xs)
    return t + xs[0]


def literal_in_each_branch(a, b):
    if a > b:
        pair = [a, b * b]
        t = pair[0] * pair[1]
    else:
        other = (b, a)
        t = other[0] - math.sin(other[1])
    return t * a


def branch_in_a_loop(xs):
    total = 0.0
    for x in xs:
        if x > 0:
            parts = [x, x * x]
            total += parts[0] * parts[1]
        else:
            total -= x
    return total


def smoothed_when_long(xs):
    if len(xs) > 2:
        window = [0.5 * (xs[i] + xs[i + 1]) for i in range(len(xs) - 1)]
        return sum(v * v for v in window)
    return sum(xs)


def summed_in_one_branch(xs, c):
    """A sum of a parameter in one branch, an element of it in the other."""
    if c > 0:
        return xs[0] * 2.0
    return sum(xs)


CASES = [
    at(regularized_when_asked, (numbers(2, "rw"), numbers(2, "rw2"), 0.1),
       (numbers(3, "rw3"), numbers(3, "rw4"), -1.0)),
    at(helper_built_list_in_a_branch, (numbers(3, "hb"), 1.0), (numbers(2, "hb2"), -1.0)),
    at(literal_in_each_branch, (0.9, 0.2), (-0.4, 0.7)),
    at(branch_in_a_loop, ([0.5, -1.2, 0.8],), ([-0.3, -0.6],)),
    at(smoothed_when_long, (numbers(4, "sl"),), (numbers(2, "sl2"),)),
    at(summed_in_one_branch, (numbers(3, "sb"), 1.0), (numbers(3, "sb2"), -1.0), wrt="xs"),
]
