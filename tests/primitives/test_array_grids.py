"""The records of ``array_grids``: ``X, Y = np.meshgrid(x, y)`` (``indexing`` "xy" or
"ij"), unpacked or read by index, through ``symdiff.grad``, ``symdiff.jvp`` and
``symdiff.hessian``.

Each gradient is checked as autograd's ``check_vjp`` does: ``<grad, v>`` for random
directions against a central difference of the function run by NumPy; each JVP against
the same difference along random tangents; each Hessian times ``v`` against a central
difference of the gradient; each gradient against the tape's (whose grids are
``broadcast_to`` of the vectors stood up or laid down); float32 kept.  The generated text
computes the grids once, unpacked into the user's names.  A form the records do not take
is a located ``SymdiffError``.
"""

import inspect

import numpy as np
import pytest

import symdiff
from symdiff.errors import SymdiffError

try:
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import record_checks as checks


def bump_on_a_grid(x, y):
    X, Y = np.meshgrid(x, y)
    return np.sum(np.exp(-(X ** 2 + 0.5 * Y ** 2)) * X)


def matrix_indexed(x, y):
    X, Y = np.meshgrid(x, y, indexing="ij")
    return np.sum(np.sin(X) * Y ** 2)


def grids_by_index(x, y):
    return np.sum(np.meshgrid(x, y)[0] * np.cos(np.meshgrid(x, y)[1]))


def width_of_a_fixed_grid(a):
    xs = np.linspace(-1.0, 1.0, 5)
    X, Y = np.meshgrid(xs, xs)
    return np.sum(np.exp(-a * (X ** 2 + Y ** 2)))


def _cases(rng):
    cases = []
    for n, m in ((3, 4), (1, 5), (4, 1)):
        x, y = rng.normal(size=n), rng.normal(size=m)
        cases += [(bump_on_a_grid, (x, y)), (matrix_indexed, (x, y)), (grids_by_index, (x, y))]
    return cases + [(width_of_a_fixed_grid, (0.7,))]


_CASES = _cases(np.random.default_rng(20261204))


(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES, jvp_seed=100)


@pytest.mark.parametrize("f", [bump_on_a_grid, matrix_indexed, grids_by_index])
@pytest.mark.parametrize("at", [0, 1])
def test_hessian_times_v_against_differences_of_the_gradient(f, at):
    args = next(a for g, a in _CASES if g is f)
    checks.hessian_along_a_direction(f, args, at, np.random.default_rng(at), atol=1e-7)


@pytest.mark.parametrize("f", [bump_on_a_grid, matrix_indexed])
def test_float32_gradients_are_float32(f):
    rng = np.random.default_rng(7)
    x, y = rng.normal(size=3).astype(np.float32), rng.normal(size=4).astype(np.float32)
    found = symdiff.grad(f, wrt=("x", "y"))(x, y)
    wide = symdiff.grad(f, wrt=("x", "y"))(x.astype(np.float64), y.astype(np.float64))
    for mine, theirs in zip(found, wide):
        assert mine.dtype == np.float32
        np.testing.assert_allclose(mine, theirs, rtol=2e-4, atol=2e-5)


def test_the_grids_are_computed_once_into_the_users_names():
    text = symdiff.source(bump_on_a_grid, np.ones(3), np.ones(2))
    assert "X, Y = np.meshgrid(x, y)" in text
    code = [line for line in text.splitlines() if not line.strip().startswith("#")]
    assert sum(line.count("np.meshgrid(") for line in code) == 1


def grid_of_three(x, y, z):
    X, Y, Z = np.meshgrid(x, y, z)
    return np.sum(X * Y * Z)


def grid_of_a_matrix(A, y):
    X, Y = np.meshgrid(A, y)
    return np.sum(X * Y)


def grid_by_an_unknown_indexing(x, y):
    X, Y = np.meshgrid(x, y, indexing="yx")
    return np.sum(X * Y)


@pytest.mark.parametrize("f, args", [
    (grid_of_three, (np.ones(2), np.ones(3), np.ones(4))),
    (grid_of_a_matrix, (np.ones((2, 2)), np.ones(3))),
    (grid_by_an_unknown_indexing, (np.ones(2), np.ones(3)))])
def test_unsupported_forms_are_located_errors_with_a_hint(f, args):
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(f, wrt=0)(*args)
    error = caught.value
    assert error.lineno == inspect.getsourcelines(f)[1] + 1
    assert error.hint
