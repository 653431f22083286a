"""The functions whose generated gradients are kept in ``tests/golden/``.

Editing a function here (or moving it: the generated comments cite line numbers)
changes its golden file; regenerate with ``SYMDIFF_UPDATE_GOLDEN=1 python -m pytest
tests/end_to_end/test_golden.py`` and review the diff.
"""

import math

DECAY = 0.9


def straight_line(x, y):
    z = x * y
    w = math.sin(z) + x / y
    return w * w - math.exp(-x)


def norm(a, b):
    return math.sqrt(a * a + b * b)


def helper_call(x, y):
    r = norm(x, y)
    return r * math.atan2(y, x)


def if_else(x, y):
    if x > y:
        z = x * x
    elif x < 0.0:
        z = -x * y
    else:
        z = y - x
    return math.log1p(z * z)


def for_loop(x, n):
    s = 0.0
    p = 1.0
    for i in range(5):
        p = p * x
        s = s + p / (i + 1)
    return s * DECAY + n


def while_with_break(x, y):
    t = x
    steps = 0
    while t < 100.0:
        t = t * y + 1.0
        steps = steps + 1
        if steps >= 8:
            break
    return t + math.cos(x)


CASES = [straight_line, helper_call, if_else, for_loop, while_with_break]
