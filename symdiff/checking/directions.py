"""Directions: a gradient by an array parameter against finite differences along random
directions, as autograd's ``check_vjp`` checks a vector-Jacobian product.

Expects the user's function, a point, one differentiated parameter's index and its
gradient (an array, or a container holding arrays and numbers, of the parameter's
structure).  Guarantees, for each of ``count`` seeded random directions ``v`` of the
parameter's structure (a standard normal per float number, in its dtype; integers,
booleans and strings kept still):

- ``inner(gradient, v)``: the sum over the floats of the gradient times the direction;
- ``directional_difference(fn, point, index, v)``: the central difference of
  ``t -> fn(point with the parameter + t v)`` at 0, with a step relative to the
  parameter's largest number (wider for float32, ``symdiff.witnesses.finite.precision``),
  and "steady" / "unsteady" / "undefined" as quartering the step says;
- ``random_directions(value, count, seed)``: the directions.

    f(W) = np.sum(W ** 2), W = [[1., 2.]]: the gradient [[2., 4.]], v = [[1., -1.]]
    inner -> -2.0, directional_difference -> (-2.0..., "steady")
"""

import math
import numbers


from symdiff.checking.arrays import is_float_array
from symdiff.checking.leaves import child, is_container, leaves, number_leaf, rebuild
from symdiff.witnesses.finite import precision
from symdiff.checking.arrays import numpy



def random_directions(value, count, seed=0):
    """``count`` directions of ``value``'s structure."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    rng = np.random.default_rng(seed)
    return [_drawn(value, rng) for _ in range(count)]


def _drawn(value, rng):
    pairs = leaves(value) if is_container(value) else [((), value)]
    drawn = [_one(leaf, rng) for _, leaf in pairs]
    return rebuild(value, drawn) if is_container(value) else drawn[0]


def _one(leaf, rng):
    if is_float_array(leaf):
        return rng.standard_normal(leaf.shape).astype(leaf.dtype)
    if not number_leaf(leaf):
        return leaf  # a string or a flag: no direction, kept as it is
    return 0 if isinstance(leaf, int) else float(rng.standard_normal())


def _floats(value):
    """The number leaves of a structure, each an array (a number as a 0-d one)."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    pairs = leaves(value) if is_container(value) else [((), value)]
    return [np.asarray(leaf, dtype=np.float64) for _, leaf in pairs
            if is_float_array(leaf) or number_leaf(leaf)]


def inner(gradient, direction):
    """The sum of the gradient times the direction over every number, each found in the
    gradient by its path in the direction (an object's static fields are no numbers; a
    plain instance's gradient is a dict of its number attributes)."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    pairs = leaves(direction) if is_container(direction) else [((), direction)]
    total = 0.0
    for path, v in pairs:
        if not (is_float_array(v) or number_leaf(v)):
            continue
        g = gradient
        for step in path:
            g = child(g, step)
        total += np.sum(np.asarray(g, dtype=np.float64) * np.asarray(v, dtype=np.float64))
    return float(total)


def single(value):
    """Whether a parameter holds a float32 array (its steps and tolerances are wider)."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    pairs = leaves(value) if is_container(value) else [((), value)]
    return any(is_float_array(leaf) and leaf.dtype == np.float32 for _, leaf in pairs)


def tolerances(value):
    """``(step, rtol, atol)`` for a parameter: float32's where it holds a float32 array."""
    return precision(numpy().float32(0.0) if single(value) else 0.0)  # float32's steps


def _along(value, direction, t):
    """``value`` moved by ``t`` times ``direction`` (new arrays; containers rebuilt)."""
    if not is_container(value):
        return _step(value, direction, t)
    moved = [_step(leaf, d, t) for (_, leaf), (_, d) in zip(leaves(value), leaves(direction))]
    return rebuild(value, moved)


def _step(leaf, d, t):
    if is_float_array(leaf):
        return (leaf + t * d).astype(leaf.dtype)
    return leaf + t * d if number_leaf(leaf) and not isinstance(leaf, int) else leaf


def directional_difference(fn, point, index, direction):
    """``(estimate, steadiness)`` of the derivative of ``fn`` along ``direction``."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    value = point[index]
    step, rtol, atol = tolerances(value)
    size = max([1.0] + [float(np.max(np.abs(a))) for a in _floats(value) if a.size])

    def at(h):
        h = h * size
        moved = [list(point), list(point)]
        moved[0][index], moved[1][index] = _along(value, direction, h), _along(
            value, direction, -h)
        try:
            up, down = fn(*moved[0]), fn(*moved[1])
        except (ValueError, ZeroDivisionError, OverflowError):
            return math.nan
        if not (isinstance(up, numbers.Real) and isinstance(down, numbers.Real)):
            return math.nan
        return (float(up) - float(down)) / (2 * h)
    first, second = at(step), at(step / 4)
    if math.isnan(first) or math.isnan(second):
        return math.nan, "undefined"
    steady = abs(first - second) <= atol + rtol * max(abs(first), abs(second))
    return first, "steady" if steady else "unsteady"
