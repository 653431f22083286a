"""Forward mode on the array corpus (``corpus/arrays/``): ``symdiff.jvp`` against finite
differences along random directions and against the reverse gradient.

For every function, at every one of its points, along random directions ``v`` (one per
differentiated parameter, of its shape, cast to its dtype):

- ``symdiff.jvp(f, wrt=...)(*point, *v)`` returns ``(value, tangent)`` or raises.  A case
  in ``FORWARD_REFUSED`` raises a located ``SymdiffError`` (a file and a line) at some
  point of its own, and the list only shrinks (a listed case that no longer raises fails);
  any other exception, or a refusal of an unlisted case, fails;
- the value is ``f``'s, the tangent a number (the corpus returns numbers), and it agrees
  with a Richardson estimate of ``d/dt f(x + t v)`` at 0 (``array_oracles.richardson``;
  skipped near a kink of a ``kinky`` case, as the gradient oracles skip it);
- where ``symdiff.grad`` takes the case, ``<grad, v>`` equals the tangent to rounding:
  forward and reverse mode are written from one set of records, and a wrong JVP builder
  and a wrong VJP builder would have to be wrong alike to agree.
"""

import zlib

import numpy as np
import pytest

import symdiff
from symdiff.errors import SymdiffError

try:
    import array_oracles as oracles
    from corpus.arrays import ARRAY_CASES as CASES
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles
    from tests.corpus.arrays import ARRAY_CASES as CASES

FORWARD_REFUSED = {  # case -> what forward mode refuses there; the list only shrinks
}

EXACT = {np.float64: 1e-8, np.float32: 2e-3}  # relative, jvp against <grad, v>


def _directions(case, point, rng):
    """A random direction per differentiated parameter, of its structure, shapes and
    dtypes (a container's too: forward mode says what it does not take)."""
    indices, _ = oracles.differentiated(case.fn, case.wrt)

    def leaf(path, value):
        if isinstance(value, np.ndarray):
            return rng.standard_normal(value.shape).astype(value.dtype)
        return float(rng.standard_normal())
    return indices, [oracles.rebuilt(point[i], leaf) for i in indices]


def _run(case):
    """``[(point, indices, directions, value, tangent)]`` of the jvp at every point;
    raises what the jvp raises."""
    rng = np.random.default_rng(zlib.crc32(case.label.encode()))
    made = []
    for point in case.points:
        indices, directions = _directions(case, point, rng)
        value, tangent = symdiff.jvp(case.fn, wrt=case.wrt)(*point, *directions)
        made.append((point, indices, directions, value, tangent))
    return made


@pytest.mark.parametrize("label", sorted(CASES))
def test_jvp_of_the_corpus(label):
    case = CASES[label]
    try:
        runs = _run(case)
    except SymdiffError as error:
        assert label in FORWARD_REFUSED, f"{label} refused: {error}"
        assert error.filename is None or error.lineno is not None
        return
    assert label not in FORWARD_REFUSED, f"{label} is taken now: remove it from the list"
    for point, indices, directions, value, tangent in runs:
        expected = case.fn(*point)
        assert np.isclose(float(value), float(expected), rtol=1e-12, atol=1e-12)
        assert np.ndim(tangent) == 0, f"{label}: a tangent of shape {np.shape(tangent)}"
        step, rtol, atol, kink = oracles.precision(point)
        steps = [_leaves(v) for v in directions]
        largest = max([1.0] + [float(np.max(np.abs(leaf), initial=0.0))
                               for i in indices for leaf in _leaves(point[i])])
        norm = max([1e-12] + [float(np.max(np.abs(v), initial=0.0)) for s in steps for v in s])
        estimate, spread = oracles.richardson(
            case.fn, lambda t: oracles.along(point, indices, steps, t), step * largest / norm)
        if case.kinky and spread > kink * (1.0 + abs(estimate)):
            continue
        tolerance = rtol * max(abs(float(tangent)), abs(estimate)) + atol * (
            1.0 + abs(float(expected))) + (spread if case.kinky else 0.0)
        assert abs(float(tangent) - estimate) <= tolerance, (
            f"{label}: jvp {float(tangent)!r}, directional difference {estimate!r}")


def _leaves(value):
    return [leaf for _, leaf in oracles.leaves(value)]


def _gradient(case, point):
    try:
        return symdiff.grad(case.fn, wrt=case.wrt)(*point)
    except SymdiffError:
        return None


@pytest.mark.parametrize("label", sorted(CASES))
def test_jvp_is_the_gradient_along_the_direction(label):
    case = CASES[label]
    if label in FORWARD_REFUSED:
        pytest.skip(f"forward mode refuses it: {FORWARD_REFUSED[label]}")
    for point, indices, directions, value, tangent in _run(case):
        gradient = _gradient(case, point)
        if gradient is None:
            pytest.skip("symdiff.grad refuses it (test_arrays.REFUSED)")
        gradients = oracles.per_parameter(gradient, len(indices), len(indices) == 1 and (
            case.wrt is None or isinstance(case.wrt, str)))
        pairs = [(np.asarray(g_leaf, dtype=np.float64), v_leaf)
                 for g, v in zip(gradients, directions)
                 for g_leaf, v_leaf in zip(_leaves(g), _leaves(v))]
        inner = sum(float(np.sum(g * v)) for g, v in pairs)
        magnitude = sum(float(np.sum(np.abs(g * v))) for g, v in pairs)
        exact = EXACT[oracles.lowest_precision(point)]
        assert abs(inner - float(tangent)) <= exact * max(1.0, magnitude), (
            f"{label}: <grad, v> {inner!r}, jvp {float(tangent)!r}")
