"""The tape's own numbers for the derivatives of the gamma family: digamma and trigamma.

Expects floats; guarantees ``digamma(x)`` (d/dx lgamma) and ``trigamma(x)`` (its
derivative) to within a few ulps away from their zeros, ``nan`` at the poles
(0, -1, -2, ...) and at ``-inf``.  Written apart from the generator's helpers
(``symdiff.primitives.special``), by another route — shifted only up to 8, with the Bernoulli
series carried further, and reflected through ``cos / sin`` — so the two check each
other; ``tests/primitives/test_special.py`` checks both against mpmath.
"""

import math

# B_2k / (2k) for digamma's series, and B_2k for trigamma's, k = 1, 2, ...
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
              43867 / 798, -174611 / 330)
_SHIFT_TO = 8.0


def _is_pole(x):
    return x == -math.inf or (x <= 0.0 and x == math.floor(x))


def digamma(x):
    """psi(x) = Gamma'(x) / Gamma(x), for a float ``x``."""
    if _is_pole(x):
        return math.nan
    if x < 0.0:  # psi(x) = psi(1 - x) - pi cot(pi x)
        r = math.pi * (x - round(x))
        return digamma(1.0 - x) - math.pi * math.cos(r) / math.sin(r)
    shifted = 0.0
    while x < _SHIFT_TO:
        shifted += 1.0 / x
        x += 1.0
    if math.isinf(x) or math.isnan(x):
        return x
    inverse_square = 1.0 / (x * x)
    power, series = inverse_square, 0.0
    for k, b in enumerate(_BERNOULLI, start=1):
        series += b / (2 * k) * power
        power *= inverse_square
    return math.log(x) - 0.5 / x - series - shifted


def trigamma(x):
    """psi'(x), for a float ``x``."""
    if _is_pole(x):
        return math.nan
    if x < 0.0:  # psi'(1 - x) + psi'(x) = pi^2 / sin^2(pi x)
        q = math.pi / math.sin(math.pi * (x - round(x)))
        return q * q - trigamma(1.0 - x)
    shifted = 0.0
    while x < _SHIFT_TO:
        shifted += 1.0 / x / x  # not 1 / x**2: that underflows to 1 / 0
        x += 1.0
    if math.isinf(x) or math.isnan(x):
        return 0.0 if x > 0 else x
    inverse = 1.0 / x
    inverse_square = inverse * inverse
    power, series = inverse * inverse_square, 0.0
    for b in _BERNOULLI:
        series += b * power
        power *= inverse_square
    return shifted + inverse + 0.5 * inverse_square + series
