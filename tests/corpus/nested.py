"""Functions defined inside the differentiated one: ``def`` statements and lambdas bound
to a name at the top of a body, called like helpers.

A nested function reads the variables of the function around it when it runs (late
binding), so a call after the variable changes sees the new value.  ``CASES`` at the end.
"""

import math

from . import case


def closure_over_parameters(w, b):
    def predict(x):
        return w * x + b
    return (predict(1.0) - 2.0) ** 2 + (predict(2.0) - 3.0) ** 2


def late_binding(x):
    scale = 2.0
    g = lambda t: scale * t + x  # noqa: E731 - a nested lambda, bound to a name
    y = g(x)
    scale = math.sin(x)
    return y + g(y)


def called_in_a_loop(x, y):
    def step(v, k=0.5):
        return v + k * math.sin(v * y)
    s = 0.0
    for i in range(4):
        x = step(x)
        s += step(x, 0.1) * y
        y = y * 0.9
    return s


def nested_twice(x, y):
    def outer(t):
        def inner(u):
            return u * y + t
        return inner(t * t) + inner(x)
    return outer(x) * outer(y)


def siblings(x):
    square = lambda t: t * t  # noqa: E731
    def quartic(t):
        return square(square(t))
    return quartic(x) + square(x)


def returns_two_values(x, y):
    def polar(a, b):
        return math.hypot(a, b), math.atan2(b, a)
    r, t = polar(x, y)
    return r * t


def shadows_the_outer_names(x, y):
    def g(x):
        y = x * 3.0
        return y
    return g(y) + x * y


def branches_inside(x, y):
    def clipped(t, lo=-1.0, hi=1.0):
        if t < lo:
            return lo + 0.1 * (t - lo)
        if t > hi:
            return hi + 0.1 * (t - hi)
        return t
    return clipped(x * y) + clipped(x, hi=0.5) * y


def reads_a_loop_variable(x):
    s = 0.0
    total = lambda t: s + t * x  # noqa: E731
    for i in range(3):
        s = total(i + 1.0) * 0.5
    return s


def _module_helper(t):
    def inner(u):
        return math.exp(-u * u) * t
    return inner(t) + inner(2.0 * t)


def helper_with_nested_def(x):
    return _module_helper(x) * x


CASES = [
    case(closure_over_parameters, (-2, 2), (-2, 2)),
    case(late_binding, (-2, 2)),
    case(called_in_a_loop, (-1, 1), (-1, 1)),
    case(nested_twice, (-2, 2), (-2, 2)),
    case(siblings, (-2, 2)),
    case(returns_two_values, (0.2, 2), (-2, 2)),
    case(shadows_the_outer_names, (-2, 2), (-2, 2)),
    case(branches_inside, (-2, 2), (-2, 2), kinky=True),
    case(reads_a_loop_variable, (-2, 2)),
    case(helper_with_nested_def, (-2, 2)),
]
