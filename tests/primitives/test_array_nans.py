"""The records of ``array_nans``: ``np.nanprod``, ``np.nancumsum`` and ``np.nancumprod``
(and how they meet NaN elements) through ``symdiff.grad``, ``symdiff.jvp``,
``symdiff.hvp`` and ``symdiff.hessian``.

Each gradient is checked against central differences along random directions (the
NaN elements made by ``np.where`` inside the function, so the differences move only the
other elements' values), against the tape's (whose versions fill the NaNs with its own
``where`` before its ``prod``, ``cumsum`` and ``cumprod``), and each JVP against the same
differences.  A NaN element has a zero gradient; a form not taken is a located
``SymdiffError``.
"""


import numpy as np
import pytest

import symdiff

try:
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import record_checks as checks


def nan_products(x):
    y = np.where(x > 0.9, np.nan, x)
    return (np.nanprod(y) + np.sum(np.nanprod(y, axis=0) ** 2)
            + np.sum(np.nanprod(y, axis=-1, keepdims=True) * x))


def nan_running_sums(x):
    y = np.where(x < -0.8, np.nan, x)
    return np.sum(np.nancumsum(y) ** 2) + np.sum(np.sin(np.nancumsum(y, axis=0)))


def nan_running_products(x):
    y = np.where(x > 1.0, np.nan, x)
    return np.sum(np.nancumprod(y) * np.arange(y.size)) + np.sum(np.nancumprod(y, axis=-1) ** 2)


def with_zeros(x):
    """A zero factor among NaNs: the products' partials stay exact (no division by it)."""
    y = np.where(x > 0.9, np.nan, np.where(np.abs(x) < 0.2, 0.0, 1.0) * x)
    return np.nanprod(y, axis=0).sum() + np.sum(np.nancumprod(y, axis=0))


def _separated(rng, shape):
    """Values at least 0.05 apart: no step of the differences crosses where ``np.where``
    makes an element NaN (or zero)."""
    size = int(np.prod(shape))
    values = np.linspace(-1.5, 1.5, size) + rng.uniform(0, 0.02, size)
    return rng.permutation(values).reshape(shape)


def _cases(rng):
    cases = []
    for shape in ((3, 4), (4, 3), (1, 5), (2, 3, 2)):
        for f in (nan_products, nan_running_sums, nan_running_products, with_zeros):
            cases.append((f, (_separated(rng, shape),)))
    cases += [(f, (_separated(rng, 6),)) for f in (nan_products, nan_running_sums,
                                                   nan_running_products)]
    return cases


_CASES = _cases(np.random.default_rng(20261208))

(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


@pytest.mark.parametrize("f", [nan_products, nan_running_sums, nan_running_products])
def test_hessian_times_v_against_differences_of_the_gradient(f):
    args = next(a for g, a in _CASES if g is f)
    checks.hessian_along_a_direction(f, args, 0, np.random.default_rng(3))


@pytest.mark.parametrize("f", [nan_products, nan_running_products])
def test_hvp_is_the_hessian_times_v(f):
    x = next(a for g, a in _CASES if g is f)[0]
    v = np.random.default_rng(4).normal(size=x.shape)
    expected = np.tensordot(symdiff.hessian(f)(x), v, axes=x.ndim)
    np.testing.assert_allclose(symdiff.hvp(f)(x, v), expected, rtol=1e-9, atol=1e-10)


def test_a_nan_element_has_a_zero_gradient():
    x = np.array([[2.0, np.nan, 3.0], [np.nan, 0.5, 4.0]])
    for f in (lambda v: np.nanprod(v), lambda v: np.sum(np.nancumsum(v, axis=1) ** 2),
              lambda v: np.sum(np.nancumprod(v))):
        found = symdiff.grad(f)(x)
        assert np.all(found[np.isnan(x)] == 0.0) and np.all(np.isfinite(found))
        np.testing.assert_allclose(found, symdiff.tape.grad(f)(x), rtol=1e-12)


def test_float32_gradients_are_float32():
    x = _separated(np.random.default_rng(5), (3, 4)).astype(np.float32)
    for f in (nan_products, nan_running_sums, nan_running_products):
        found = symdiff.grad(f)(x)
        assert found.dtype == np.float32
        np.testing.assert_allclose(found, symdiff.grad(f)(x.astype(np.float64)), rtol=2e-3,
                                   atol=2e-3)


def test_generated_code_is_plain_numpy():
    gradient = symdiff.grad(nan_running_sums)
    gradient(_separated(np.random.default_rng(6), (3, 4)))
    text = gradient.source
    assert "np.where(np.isnan(y), 0.0," in text and "np.cumsum(" in text
    assert "symdiff" not in text


# --- forms refused, located --------------------------------------------------------------

def running_sum_along_a_variable_axis(x):
    k = x.ndim - 1
    return np.sum(np.nancumsum(x, axis=k))


def product_with_a_dtype_of_ints(x):
    return np.nanprod(x, dtype=int)


_REFUSED = [(running_sum_along_a_variable_axis, (np.ones((2, 3)),), "axis"),
            (product_with_a_dtype_of_ints, (np.ones(3),), "nanprod")]


test_unsupported_forms_are_located_errors_with_a_hint = checks.refusal_test(_REFUSED)


def test_check_compares_with_the_tape_and_differences():
    rng = np.random.default_rng(7)
    for f in (nan_products, nan_running_sums, nan_running_products):
        report = symdiff.check(f, (_separated(rng, (2, 3)),))
        assert report.ok, str(report)
