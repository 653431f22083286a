"""Finite differences: the derivative of a function estimated from its values alone.

Expects a function returning a number, a point (a tuple of arguments: floats, NumPy
arrays of floats, or tuples, lists and dicts of them) and where to move it: the index of
a number parameter, or ``(index, *path)`` for one number inside a container or array
argument (``(0, 2)`` is ``xs[2]`` of the first parameter, ``(1, "w", 0)`` is
``p["w"][0]`` of the second, a field's name a namedtuple's, a dataclass's or an
object's field, ``p.w``; a tuple of integers as the last step, ``(0, (1, 2))``, is
the element ``W[1, 2]`` of an array).  The point is never changed: each step calls
``fn`` on a copy whose containers and array along the path are new ones of the same
types.  An element of a float32 array is moved by a step fit for its precision (the
cube root of its machine epsilon, relative), and its steadiness is judged with a
tolerance to match.  Guarantees two estimates of that derivative that run nothing
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

from copy import copy as shallow_copy
import math
import numbers


def leaf(point, where):
    """The number of ``point`` at ``where`` (an index, or ``(index, *path)``)."""
    index, path = (where, ()) if isinstance(where, int) else (where[0], tuple(where[1:]))
    value = point[index]
    for key in path:
        value = getattr(value, key) if _is_object(value) else value[key]
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
    if _is_array(value):  # an element: a copy of the array, moved there
        copy = value.copy()
        copy[key] = _moved(value[key], rest, delta)
        return copy
    if type(value) is dict:
        return {k: _moved(v, rest, delta) if k == key else v for k, v in value.items()}
    if _is_object(value):  # a copy whose field ``key`` is moved, made without its class
        field = _moved(getattr(value, key), rest, delta)
        if isinstance(value, tuple):
            return value._replace(**{key: field})
        made = shallow_copy(value)
        object.__setattr__(made, key, field)
        return made
    items = list(value)
    items[key] = _moved(items[key], rest, delta)
    return tuple(items) if type(value) is tuple else items


def _is_object(value):
    """Whether ``value`` is read by its fields: a namedtuple, or an object that is not a
    container (a dataclass, a plain instance)."""
    return hasattr(type(value), "_fields") or type(value) not in (tuple, list, dict) and (
        isinstance(getattr(value, "__dict__", None), dict) or hasattr(value,
                                                                      "__dataclass_fields__"))


def _is_array(value):
    """Whether ``value`` is an array (NumPy's, found by what it has: numpy is the user's
    to import)."""
    return all(hasattr(value, attr) for attr in ("shape", "dtype", "copy", "ndim"))


def precision(value):
    """``(step, rtol, atol)`` for a number: the scalar defaults, or wider ones for an
    element of a float32 array, whose steps the array rounds to its precision.

    >>> precision(0.5)
    (1e-06, 0.0001, 1e-07)
    """
    if str(getattr(value, "dtype", "")) == "float32":
        return 5e-3, 2e-2, 1e-3
    return 1e-6, 1e-4, 1e-7


def central_difference(fn, point, index, step=None):
    """(central difference, "steady" / "unsteady" / "undefined"): whether quartering the step
    leaves it steady, or "undefined" (the estimate nan) where a step leaves the function's
    domain or the real numbers (a complex value, as ``(-2.0) ** 3.01`` gives).  ``index``
    is a parameter's index or ``(index, *path)`` (see the module); ``step`` by default
    as ``precision`` gives it for that number."""
    here = leaf(point, index)
    default, rtol, atol = precision(here)
    step = default if step is None else step

    def at(h):
        scale = h * max(1.0, abs(float(here)))
        plus, minus = moved(point, index, scale), moved(point, index, -scale)
        if hasattr(here, "dtype"):  # an array's element: the step as the array rounds it
            scale = (float(leaf(plus, index)) - float(leaf(minus, index))) / 2
        try:
            up, down = fn(*plus), fn(*minus)
        except (ValueError, ZeroDivisionError, OverflowError):
            return math.nan
        if not (isinstance(up, numbers.Real) and isinstance(down, numbers.Real)):
            return math.nan
        try:
            return float((float(up) - float(down)) / (2 * scale))
        except (ZeroDivisionError, OverflowError):
            return math.nan
    first, second = at(step), at(step / 4)
    if math.isnan(first) or math.isnan(second):
        return math.nan, "undefined"
    return first, "steady" if _steady(first, second, rtol, atol) else "unsteady"


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
