"""Finite differences: the derivative of a function estimated from its values alone.

Expects a function returning a number, a point (a tuple of arguments: floats, or tuples,
lists and dicts of them) and where to move it: the index of a number parameter, or
``(index, *path)`` for one number inside a container argument (``(0, 2)`` is ``xs[2]``
of the first parameter, ``(1, "w", 0)`` is ``p["w"][0]`` of the second).  The point is
never changed: each step calls ``fn`` on a copy whose containers along the path are new
ones of the same types.  Guarantees two estimates of that derivative that run nothing
but ``fn``:

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
    central_difference(lambda xs: xs[0] * xs[1], ([2.0, 3.0],), (0, 1))  -> (2.0..., "steady")
"""

import math
import numbers


def leaf(point, where):
    """The number of ``point`` at ``where`` (an index, or ``(index, *path)``)."""
    index, path = (where, ()) if isinstance(where, int) else (where[0], tuple(where[1:]))
    value = point[index]
    for key in path:
        value = value[key]
    return value


def moved(point, where, delta):
    """A copy of ``point`` whose number at ``where`` is ``delta`` more, as a list of the
    arguments; the containers along the path are copies, all others shared."""
    index, path = (where, ()) if isinstance(where, int) else (where[0], tuple(where[1:]))
    arguments = list(point)
    arguments[index] = _moved(arguments[index], path, delta)
    return arguments


def _moved(value, path, delta):
    if not path:
        return value + delta
    key, rest = path[0], path[1:]
    if type(value) is dict:
        return {k: _moved(v, rest, delta) if k == key else v for k, v in value.items()}
    items = list(value)
    items[key] = _moved(items[key], rest, delta)
    return tuple(items) if type(value) is tuple else items


def central_difference(fn, point, index, step=1e-6):
    """(central difference, "steady" / "unsteady" / "undefined"): whether quartering the step
    leaves it steady, or "undefined" (the estimate nan) where a step leaves the function's
    domain or the real numbers (a complex value, as ``(-2.0) ** 3.01`` gives).  ``index``
    is a parameter's index or ``(index, *path)`` (see the module)."""
    def at(h):
        scale = h * max(1.0, abs(leaf(point, index)))
        plus, minus = moved(point, index, scale), moved(point, index, -scale)
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
    """(Richardson estimate of the derivative by the number at ``index``, disagreement of
    the steps h and 2h), with ``h = step * max(1, |that number|)``."""
    h = step * max(1.0, abs(leaf(point, index)))

    def central(size):
        up, down = moved(point, index, size), moved(point, index, -size)
        return (fn(*up) - fn(*down)) / (leaf(up, index) - leaf(down, index))

    d1, d2 = central(h), central(2 * h)
    return (4.0 * d1 - d2) / 3.0, abs(d1 - d2)
