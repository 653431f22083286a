"""Finite differences: the derivative of a function estimated from its values alone.

Expects a function of floats returning a number, a point (a tuple of floats) and the
index of the parameter to move.  Guarantees two estimates of d fn / d point[index] that
run nothing but ``fn``:

- ``central_difference``: ``(fn(x + h) - fn(x - h)) / 2h`` with ``h`` relative to
  ``|x|``, and whether it can be trusted: "steady" when quartering the step leaves it
  (nearly) unchanged, "unsteady" when it does not (a kink, a jump, cancellation), and
  "undefined" (the estimate nan) where a step leaves the function's domain or the real
  numbers.  What ``symdiff.check`` reports.
- ``richardson_difference``: one Richardson step over the central differences with
  steps ``h`` and ``2h`` (error O(h^4) on smooth functions), and how far those two
  disagree, which is large only where a branch or trip count changes within two steps.

    central_difference(math.sin, (0.5,), 0)      -> (0.8775825618..., "steady")
    richardson_difference(math.sin, (0.5,), 0)   -> (0.8775825618904..., 1.8e-08)
"""

import math
import numbers


def central_difference(fn, point, index, step=1e-6):
    """(central difference, "steady" / "unsteady" / "undefined"): whether quartering the step
    leaves it steady, or "undefined" (the estimate nan) where a step leaves the function's
    domain or the real numbers (a complex value, as ``(-2.0) ** 3.01`` gives)."""
    def at(h):
        scale = h * max(1.0, abs(point[index]))
        plus, minus = list(point), list(point)
        plus[index] += scale
        minus[index] -= scale
        try:
            up, down = fn(*plus), fn(*minus)
        except (ValueError, ZeroDivisionError, OverflowError):
            return math.nan
        if not (isinstance(up, numbers.Real) and isinstance(down, numbers.Real)):
            return math.nan
        try:
            return float((up - down) / (2 * scale))
        except (ZeroDivisionError, OverflowError):
            return math.nan
    first, second = at(step), at(step / 4)
    if math.isnan(first) or math.isnan(second):
        return math.nan, "undefined"
    return first, "steady" if _steady(first, second) else "unsteady"


def _steady(a, b, rtol=1e-4, atol=1e-7):
    """Two estimates that agree: equal where either is infinite, else within tolerance."""
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def richardson_difference(fn, point, index, step=2e-4):
    """(Richardson estimate of d fn / d point[index], disagreement of the steps h and 2h),
    with ``h = step * max(1, |point[index]|)``."""
    h = step * max(1.0, abs(point[index]))

    def central(size):
        up, down = list(point), list(point)
        up[index] += size
        down[index] -= size
        return (fn(*up) - fn(*down)) / (up[index] - down[index])

    d1, d2 = central(h), central(2 * h)
    return (4.0 * d1 - d2) / 3.0, abs(d1 - d2)
