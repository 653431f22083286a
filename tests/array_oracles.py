"""Oracles for gradients of functions of NumPy arrays, from the function's values alone.

A point is a tuple of arguments; a differentiated argument is a float, a float array, or a
tuple, list or dict of them (nested).  A gradient is shaped as ``symdiff.grad`` shapes it:
the one parameter's gradient bare when one is differentiated, else a tuple with one per
parameter in ``wrt`` order.  Three checks, each returning a list of failure messages
(empty when the gradient passes), none of them running anything but the function:

- ``structure_failures``: each parameter's gradient has its structure exactly (a dict
  with the same keys in the same order, a list for a list), an array of the same shape and
  dtype for every array (float32 stays float32), a float for every number;
- ``directional_failures``: for several random directions ``v`` over every differentiated
  number, ``<gradient, v>`` against a Richardson estimate of ``d/dt f(x + t v)`` at 0 (as
  autograd's ``check_vjp`` does);
- ``elementwise_failures``: for small parameters, each entry of the gradient against a
  Richardson estimate of the derivative by that entry alone.

``gradient_failures`` runs all three, and ``alias_failures`` (no gradient array shares
memory with an argument or with another gradient array).  Tolerances follow the lowest precision among the
arrays of the point: float32 steps are larger (rounding, not truncation, dominates) and
the tolerances looser.  For a ``kinky`` function an estimate whose steps ``h`` and ``2h``
disagree (a kink or a tie within two steps) is skipped, never counted as agreement; one
whose steps disagree a little is compared with that disagreement added to the tolerance:
at a tie of a maximum the central difference tends to the mean of the one-sided
derivatives (the shared gradient of the convention) with an error of order ``h``, about
two thirds of that disagreement, not of order ``h**4``.

    gradient_failures(lambda x: np.sum(x ** 2), (np.ones(3),), 2.0 * np.ones(3))  -> []
    gradient_failures(lambda x: np.sum(x ** 2), (np.ones(3),), -2.0 * np.ones(3)) -> [...]
"""

import inspect
import zlib

import numpy as np
import pytest

PRECISION = {  # dtype -> (relative step, rtol, atol, spread that marks a kink)
    np.float64: (1e-4, 1e-6, 1e-8, 1e-5),
    np.float32: (2e-2, 3e-3, 1e-4, 3e-2),
}
ELEMENTWISE_LIMIT = 64  # numbers across the differentiated parameters


# --- parameters and leaves -------------------------------------------------------------

def differentiated(fn, wrt):
    """(indices of the parameters differentiated, whether the gradient is one alone)."""
    names = [p.name for p in inspect.signature(fn).parameters.values()
             if p.kind <= p.POSITIONAL_OR_KEYWORD]
    if wrt is None:
        return list(range(len(names))), len(names) == 1
    single = isinstance(wrt, (str, int))
    chosen = [wrt] if single else list(wrt)
    return [w if isinstance(w, int) else names.index(w) for w in chosen], single


def per_parameter(gradient, count, single):
    """The gradient as a list with one entry per differentiated parameter."""
    if single:
        return [gradient]
    if type(gradient) is not tuple or len(gradient) != count:
        raise AssertionError(f"a tuple of {count} gradients expected, got {type(gradient).__name__}")
    return list(gradient)


def is_number(value):
    return isinstance(value, (int, float, np.floating, np.integer)) and not isinstance(
        value, (bool, np.bool_))


def leaves(value, path=()):
    """``[(path, leaf)]`` of a value: arrays and numbers, inside tuples, lists, dicts."""
    if type(value) is dict:
        return [found for key, item in value.items() for found in leaves(item, path + (key,))]
    if type(value) in (tuple, list):
        return [found for k, item in enumerate(value) for found in leaves(item, path + (k,))]
    return [(path, value)]


def rebuilt(value, replace, path=()):
    """A copy of ``value`` with each leaf ``replace(path, leaf)``; containers are new."""
    if type(value) is dict:
        return {key: rebuilt(item, replace, path + (key,)) for key, item in value.items()}
    if type(value) in (tuple, list):
        return type(value)(rebuilt(item, replace, path + (k,)) for k, item in enumerate(value))
    return replace(path, value)


def where_text(name, path):
    return name + "".join(f"[{key!r}]" for key in path)


def lowest_precision(point):
    """``np.float32`` when an array or NumPy scalar of ``point`` is float32, else float64."""
    dtypes = [leaf.dtype for argument in point for _, leaf in leaves(argument)
              if isinstance(leaf, (np.ndarray, np.floating))]
    return np.float32 if np.dtype(np.float32) in dtypes else np.float64


def precision(point):
    """The ``PRECISION`` row of the lowest precision float in ``point``."""
    return PRECISION[lowest_precision(point)]


# --- structure -------------------------------------------------------------------------

def structure_failures(gradient, argument, name="gradient"):
    """Where ``gradient`` does not have the structure, shapes and dtypes of ``argument``."""
    if type(argument) is dict:
        if type(gradient) is not dict or list(gradient) != list(argument):
            return [f"{name}: a dict with keys {list(argument)} expected, got {_shown(gradient)}"]
        return [f for key in argument
                for f in structure_failures(gradient[key], argument[key], f"{name}[{key!r}]")]
    if type(argument) in (tuple, list):
        if type(gradient) is not type(argument) or len(gradient) != len(argument):
            return [f"{name}: a {type(argument).__name__} of {len(argument)} expected, "
                    f"got {_shown(gradient)}"]
        return [f for k, (g, a) in enumerate(zip(gradient, argument))
                for f in structure_failures(g, a, f"{name}[{k}]")]
    if isinstance(argument, np.ndarray):
        if not isinstance(gradient, np.ndarray):
            return [f"{name}: an array of shape {argument.shape} expected, got {_shown(gradient)}"]
        if gradient.shape != argument.shape or gradient.dtype != argument.dtype:
            return [f"{name}: shape {argument.shape} {argument.dtype} expected, "
                    f"got {gradient.shape} {gradient.dtype}"]
        return [] if np.all(np.isfinite(gradient)) else [f"{name}: not finite: {gradient!r}"]
    if not is_number(gradient) or isinstance(gradient, np.ndarray):
        return [f"{name}: a number expected, got {_shown(gradient)}"]
    return [] if np.isfinite(gradient) else [f"{name}: not finite: {gradient!r}"]


def _shown(value):
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} {value.dtype}"
    return f"a {type(value).__name__}"


def alias_failures(gradients, point, names):
    """Gradient arrays that share memory with an argument or with each other: an adjoint
    must be an array of its own (a caller that updates ``w -= lr * dw`` in place, or
    ``dw`` itself, must not change anything else)."""
    arguments = [leaf for argument in point for _, leaf in leaves(argument)
                 if isinstance(leaf, np.ndarray)]
    found, failures = [], []
    for g, name in zip(gradients, names):
        for path, leaf in leaves(g):
            if not isinstance(leaf, np.ndarray) or leaf.size == 0:
                continue
            where = where_text(name, path)
            if any(np.shares_memory(leaf, a) for a in arguments):
                failures.append(f"{where}: shares memory with an argument")
            failures += [f"{where}: shares memory with {other}" for other, seen in found
                         if np.shares_memory(leaf, seen)]
            found.append((where, leaf))
    return failures


# --- moving a point --------------------------------------------------------------------

def _shifted(leaf, delta):
    """``leaf + delta`` in the leaf's own type (an array keeps its dtype)."""
    if isinstance(leaf, np.ndarray):
        return np.asarray(leaf + delta, dtype=leaf.dtype)
    return float(leaf) + float(delta)


def along(point, indices, directions, t):
    """A copy of ``point`` with each parameter ``indices[k]`` moved by ``t * directions[k]``
    (a direction is a list with one array or float per leaf)."""
    arguments = list(point)
    for i, direction in zip(indices, directions):
        steps = dict(zip([path for path, _ in leaves(point[i])], direction))
        arguments[i] = rebuilt(point[i], lambda path, leaf: _shifted(leaf, t * steps[path]))
    return arguments


def random_direction(argument, rng):
    """One float64 array (or float) per leaf of ``argument``, standard normal."""
    return [rng.standard_normal(np.shape(leaf)) if isinstance(leaf, np.ndarray)
            else float(rng.standard_normal()) for _, leaf in leaves(argument)]


def richardson(fn, move, h):
    """(Richardson estimate of d/dt fn(*move(t)) at 0, spread of its steps h and 2h)."""
    def central(size):
        return (float(fn(*move(size))) - float(fn(*move(-size)))) / (2.0 * size)
    near, far = central(h), central(2.0 * h)
    return (4.0 * near - far) / 3.0, abs(near - far)


def directional(fn, args, index, v, h=1e-3):
    """The derivative of ``fn(*args)`` along ``v`` in the argument at ``index``
    (``richardson``'s estimate: four points, steps ``h`` and ``2h``)."""
    def move(t):
        moved = list(args)
        moved[index] = args[index] + t * v
        return moved
    return richardson(fn, move, h)[0]


# --- the checks ------------------------------------------------------------------------

def assert_along_directions(fn, args, params, wrt, gradients, rng, scale):
    """Each gradient (of the parameter named in ``wrt``, ``params`` its function's) has
    its argument's shape, and ``<gradient, v>`` is the directional derivative along two
    random ``v``, to ``1e-7 * scale`` absolute."""
    for name, gradient in zip(wrt, gradients):
        index = params.index(name)
        assert np.shape(gradient) == np.shape(args[index]), name
        for _ in range(2):
            v = rng.normal(size=np.shape(args[index]))
            assert float(np.sum(gradient * v)) == pytest.approx(
                directional(fn, args, index, v), rel=1e-6, abs=1e-7 * scale), name


def directional_failures(fn, point, indices, gradients, rng, count=3, kinky=False):
    """``<gradient, v>`` against the directional derivative, for ``count`` directions."""
    step, rtol, atol, kink = precision(point)
    value = abs(float(fn(*point)))
    largest = max([1.0] + [float(np.max(np.abs(leaf), initial=0.0))
                           for i in indices for _, leaf in leaves(point[i])])
    failures = []
    for _ in range(count):
        directions = [random_direction(point[i], rng) for i in indices]
        inner = magnitude = 0.0
        for g, v in zip(gradients, directions):
            for (_, g_leaf), v_leaf in zip(leaves(g), v):
                g_leaf = np.asarray(g_leaf, dtype=np.float64)
                inner += float(np.sum(g_leaf * v_leaf))
                magnitude += float(np.sum(np.abs(g_leaf * v_leaf)))
        norm = max([1e-12] + [float(np.max(np.abs(v_leaf), initial=0.0))
                              for v in directions for v_leaf in v])
        estimate, spread = richardson(fn, lambda t: along(point, indices, directions, t),
                                      step * largest / norm)
        if kinky and spread > kink * (1.0 + abs(estimate)):
            continue
        tolerance = rtol * max(abs(inner), abs(estimate), 1e-2 * magnitude) + atol * (1.0 + value)
        tolerance += spread if kinky else 0.0
        if not abs(inner - estimate) <= tolerance:
            failures.append(f"<gradient, v> {inner!r}, directional difference {estimate!r}")
    return failures


def numeric_gradient(fn, point, i):
    """(Richardson estimate of the gradient by parameter ``i`` in its structure, the
    spreads in the same structure): one estimate per number."""
    step = precision(point)[0]
    estimates, spreads = {}, {}
    for path, leaf in leaves(point[i]):
        values = np.zeros(np.shape(leaf)), np.zeros(np.shape(leaf))
        for index in np.ndindex(np.shape(leaf)):
            h = step * max(1.0, abs(float(np.asarray(leaf)[index])))
            estimate, spread = richardson(fn, lambda t: _entry_moved(point, i, path, index, t), h)
            values[0][index], values[1][index] = estimate, spread
        estimates[path], spreads[path] = values
    shaped = [rebuilt(point[i], lambda path, leaf: table[path] if isinstance(leaf, np.ndarray)
                      else float(table[path])) for table in (estimates, spreads)]
    return shaped[0], shaped[1]


def _entry_moved(point, i, path, index, t):
    def replace(at, leaf):
        if at != path:
            return leaf
        if not isinstance(leaf, np.ndarray):
            return float(leaf) + t
        moved = leaf.copy()
        moved[index] += t
        return moved
    arguments = list(point)
    arguments[i] = rebuilt(point[i], replace)
    return arguments


def elementwise_failures(fn, point, indices, gradients, names, kinky=False):
    """Each number of the gradient against finite differences by that number alone."""
    _, rtol, atol, kink = precision(point)
    value = abs(float(fn(*point)))
    failures = []
    for i, g, name in zip(indices, gradients, names):
        estimate, spread = numeric_gradient(fn, point, i)
        rows = list(zip(leaves(g), leaves(estimate), leaves(spread)))
        scale = max([0.0] + [float(np.max(np.abs(e), initial=0.0)) for _, (_, e), _ in rows])
        for (path, g_leaf), (_, e_leaf), (_, s_leaf) in rows:
            got, want, apart = (np.asarray(a, dtype=np.float64) for a in (g_leaf, e_leaf, s_leaf))
            tolerance = rtol * np.maximum(np.abs(got), np.abs(want)) + rtol * 1e-2 * scale + (
                atol * (1.0 + value))
            wrong = ~(np.abs(got - want) <= tolerance + (apart if kinky else 0.0))
            if kinky:
                wrong &= ~(apart > kink * (1.0 + np.abs(want)))
            for index in zip(*np.nonzero(wrong)) if wrong.ndim else ([()] if wrong else []):
                entry = [int(k) for k in index] if index else ""
                failures.append(f"d/d{where_text(name, path)}{entry}: {float(got[index])!r}, "
                                f"finite differences {float(want[index])!r}")
    return failures


def gradient_failures(fn, point, gradient, wrt=None, kinky=False, seed="", directions=3):
    """Every failure of ``gradient`` of ``fn`` at ``point``: structure first (nothing else
    is compared when it is wrong), then directional and, for small parameters, entry by
    entry finite differences."""
    indices, single = differentiated(fn, wrt)
    names = [list(inspect.signature(fn).parameters)[i] for i in indices]
    try:
        gradients = per_parameter(gradient, len(indices), single)
    except AssertionError as error:
        return [str(error)]
    failures = [f for i, g, name in zip(indices, gradients, names)
                for f in structure_failures(g, point[i], name)]
    if failures:
        return failures
    failures = alias_failures(gradients, point, names)
    rng = np.random.default_rng(zlib.crc32(f"{seed}:{getattr(fn, '__name__', '')}".encode()))
    failures += directional_failures(fn, point, indices, gradients, rng, directions, kinky)
    size = sum(int(np.size(leaf)) for i in indices for _, leaf in leaves(point[i]))
    if size <= ELEMENTWISE_LIMIT:
        failures += elementwise_failures(fn, point, indices, gradients, names, kinky)
    return failures
