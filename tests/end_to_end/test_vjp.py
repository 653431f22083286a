"""``symdiff.vjp`` on functions whose result is not one number, against two witnesses.

For every function of ``corpus.valued`` (tuples, lists, dicts of numbers and of arrays,
arrays, nested), at each of its points and for several random cotangents ``ct`` of the
result's structure:

- the tape (``symdiff.tape.vjp``, written apart from the generator) gives the same value
  and the same gradient, before the optimizer and after it;
- finite differences along a random direction ``v`` of the parameters differentiated
  agree, as autograd's ``check_vjp`` checks: ``<ct, (f(x + h v) - f(x - h v)) / 2h>``
  against ``<vjp(ct), v>``;
- the arguments and the cotangent are left as they were.

And for every function of the number-valued corpora (``corpus.arrays`` and the container
corpora ``corpus.containers``, ``joins``, ``tangent_lists``...), which return one number:
``vjp`` with a cotangent ``c`` is ``c`` times the tape's gradient, and its value is
``f``'s.
"""

import copy
import math

import numpy as np
import pytest

import symdiff
import symdiff.tape
from symdiff.errors import SymdiffError

try:
    from corpus.valued import VALUED_CASES as CASES
    from corpus.arrays import ARRAY_CASES
    from corpus import containers, control, control_lists, joins, nested, straight, tangent_lists
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus.valued import VALUED_CASES as CASES
    from tests.corpus.arrays import ARRAY_CASES
    from tests.corpus import (containers, control, control_lists, joins, nested, straight,
                              tangent_lists)

COTANGENTS = 3  # random cotangents per point
TAPE_PENDING = {  # number-valued cases the tape does not take (as test_arrays lists them):
    # the vjp is compared with symdiff's own gradient there
    "arrays.indexing.filled_by_index": "a Value written into a plain float array (np.zeros)",
    "arrays.indexing.scattered_into_zeros": "an ArrayValue written into a plain float array",
}


def random_like(value, rng):
    """A random value of ``value``'s structure: numbers normal, arrays of its shape and
    float dtype (an int or bool array, data, gets zeros: nothing moves it)."""
    if isinstance(value, dict):
        return {k: random_like(v, rng) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(random_like(v, rng) for v in value)
    if isinstance(value, np.ndarray):
        if value.dtype.kind != "f":
            return np.zeros(value.shape)
        return rng.normal(size=value.shape).astype(value.dtype)
    return float(rng.normal())


def inner(a, b):
    """The sum over the leaves of ``a`` and ``b`` (one structure) of their products."""
    if isinstance(a, dict):
        return sum(inner(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        return sum(inner(x, y) for x, y in zip(a, b))
    return float(np.sum(np.asarray(a, dtype=float) * np.asarray(b, dtype=float)))


def moved(value, direction, h):
    if isinstance(value, dict):
        return {k: moved(value[k], direction[k], h) for k in value}
    if isinstance(value, (tuple, list)):
        return type(value)(moved(v, d, h) for v, d in zip(value, direction))
    return value + h * direction


def close(got, want, rtol=1e-7, atol=1e-9):
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(
            close(got[k], want[k], rtol, atol) for k in want)
    if isinstance(want, (tuple, list)):
        return isinstance(got, (tuple, list)) and len(got) == len(want) and all(
            close(g, w, rtol, atol) for g, w in zip(got, want))
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    return got.shape == want.shape and bool(np.allclose(got, want, rtol=rtol, atol=atol))


def differentiated(case):
    return case.differentiated


def point_args(case, point):
    return {name: value for name, value in zip(case.params, point)}


@pytest.mark.parametrize("optimize", [True, False], ids=["optimized", "unoptimized"])
@pytest.mark.parametrize("label", list(CASES))
def test_the_tape_agrees(label, optimize):
    case = CASES[label]
    product = symdiff.vjp(case.fn, wrt=case.wrt, optimize=optimize)
    tape = symdiff.tape.vjp(case.fn, wrt=case.wrt)
    rng = np.random.default_rng(len(label))
    for point in case.points:
        want_value, pullback = tape(*copy.deepcopy(point))
        for _ in range(COTANGENTS):
            ct = random_like(want_value, rng)
            kept_point, kept_ct = copy.deepcopy(point), copy.deepcopy(ct)
            value, gradient = product(*point, ct)
            assert close(value, want_value), (label, value, want_value)
            assert close(gradient, pullback(ct)), (label, gradient, pullback(ct))
            assert close(point, kept_point) and close(ct, kept_ct), "an input was changed"


@pytest.mark.parametrize("label", list(CASES))
def test_finite_differences_agree(label):
    case = CASES[label]
    product = symdiff.vjp(case.fn, wrt=case.wrt)
    names = differentiated(case)
    rng = np.random.default_rng(len(label) + 1)
    for point in case.points:
        value = case.fn(*point)
        args = point_args(case, point)
        for _ in range(COTANGENTS):
            ct = random_like(value, rng)
            v = {name: random_like(args[name], rng) for name in names}
            _, gradient = product(*point, ct)
            gradients = (gradient,) if len(names) == 1 and (
                isinstance(case.wrt, str) or case.wrt is None) else gradient
            want = sum(inner(g, v[name]) for g, name in zip(gradients, names))
            h = 1e-6

            def at(sign):
                moved_args = dict(args)
                for name in names:
                    moved_args[name] = moved(args[name], v[name], sign * h)
                return inner(ct, case.fn(*[moved_args[p] for p in case.params]))
            got = (at(1) - at(-1)) / (2 * h)
            assert math.isclose(got, want, rel_tol=1e-4, abs_tol=1e-6), (label, got, want)


def number_cases():
    """``(label, fn, point, wrt)`` for the functions of the number-valued corpora: the
    array corpus and the container corpora at their first point, the corpora of numbers
    at a point drawn from the domain."""
    found = []
    for label, case in ARRAY_CASES.items():
        found.append((f"arrays.{label}", case.fn, case.points[0], case.wrt))
    for module in (containers, joins, tangent_lists, control_lists, nested, straight, control):
        for case in module.CASES:
            label = f"{module.__name__.split('.')[-1]}.{case.name or case.fn.__name__}"
            if isinstance(case.points, tuple):
                found.append((label, case.fn, case.points[0], case.wrt))
            else:
                rng = np.random.default_rng(len(label))
                point = tuple(float(lo + (hi - lo) * rng.uniform(0.2, 0.8))
                              for lo, hi in case.domain)
                found.append((label, case.fn, point, None))
    return found


NUMBER_CASES = {label: (fn, point, wrt) for label, fn, point, wrt in number_cases()}


@pytest.mark.parametrize("label", list(NUMBER_CASES))
def test_a_number_result_is_the_gradient_scaled(label):
    fn, point, wrt = NUMBER_CASES[label]
    try:
        product = symdiff.vjp(fn, wrt=wrt)
        value, gradient = product(*copy.deepcopy(point), 0.75)
    except SymdiffError:  # what grad refuses, vjp refuses alike
        with pytest.raises(SymdiffError):
            symdiff.grad(fn, wrt=wrt)(*copy.deepcopy(point))
        return
    witness = symdiff.grad if label in TAPE_PENDING else symdiff.tape.grad
    want = witness(fn, wrt=wrt)(*copy.deepcopy(point))
    scaled = scale(want, 0.75)
    assert close(gradient, scaled, rtol=1e-6, atol=1e-8), (label, gradient, scaled)
    assert close(value, fn(*copy.deepcopy(point)), rtol=1e-12, atol=1e-12)


def scale(value, c):
    if isinstance(value, dict):
        return {k: scale(v, c) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(scale(v, c) for v in value)
    return value * c


def test_the_corpora_are_large_enough():
    assert len(CASES) >= 25
    assert len(NUMBER_CASES) >= 150
