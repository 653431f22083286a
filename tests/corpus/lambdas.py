"""Lambdas: differentiated directly, called as helpers, several on one line.

A lambda bound to a name (``f = lambda x: ...``) is differentiated like a ``def`` of
that name; the others are found on their line by their parameters and their body's
place.  ``CASES`` names each case, since every lambda is called ``<lambda>``.
"""

import math

from . import case

RATE = 0.3

square = lambda t: t * t  # noqa: E731 - a helper written as a lambda
soft = lambda t, k=2.0: math.log(1.0 + math.exp(k * t)) / k  # noqa: E731
saxpy = lambda a, x, y: a * x + y  # noqa: E731
wave = lambda x, y: math.sin(x) * math.exp(-RATE * y) + square(x - y)  # noqa: E731
folded = lambda x: abs(x) if x < 1.0 else x * x  # noqa: E731
spread = (lambda x, y:  # noqa: E731 - the body on the next line
          soft(x) * math.cosh(y / 4.0)
          - math.atan2(y, x + 3.0))
pair = (lambda x: math.tanh(x) * 2.0, lambda x: math.tanh(x) * 3.0)  # one line, two lambdas


def uses_helpers(x, y):
    z = square(x) + soft(y, 0.5)
    for _ in range(3):
        z = saxpy(0.5, z, math.sin(y))
    return z


def closure_over(scale):
    return lambda x, y: scale * x * y + math.sqrt(x * x + 1.0)


CASES = [
    case(square, (-3, 3), name="square"),
    case(soft, (-2, 2), (0.5, 3), name="soft"),
    case(saxpy, (-2, 2), (-2, 2), (-2, 2), name="saxpy"),
    case(wave, (-2, 2), (-2, 2), name="wave"),
    case(folded, (-3, 3), kinky=True, name="folded"),
    case(spread, (-2, 2), (-2, 2), name="spread"),
    case(pair[0], (-2, 2), name="pair_first"),
    case(pair[1], (-2, 2), name="pair_second"),
    case(uses_helpers, (-1, 1), (-1, 1)),
    case(closure_over(1.5), (-2, 2), (-2, 2), name="closure"),
]
