"""``scipy.special.log_expit`` (a record of ``symdiff.primitives.scipy``) on arrays and on
numbers far in either tail, through ``symdiff.grad``, ``symdiff.jvp``, ``symdiff.hvp`` and
``symdiff.hessian``.

Its derivative is ``1 - expit(x)``, written from the value SciPy gives (``-expm1(out)``,
which never overflows); the tape states it as ``1 / (1 + exp(x))`` (of numbers) and
``exp(-logaddexp(0, x))`` (of arrays).  Each gradient is checked against central
differences along random directions, against the tape's, and each JVP against the same
differences; in the tails, against the derivative mpmath computes.
"""

import math

import numpy as np
import pytest

import symdiff
import symdiff.tape

special = pytest.importorskip("scipy.special")
if not hasattr(special, "log_expit"):  # (SciPy 1.8 and later)
    pytest.skip("scipy.special.log_expit is not in this SciPy", allow_module_level=True)

try:
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import record_checks as checks


def log_likelihood(w, X, y):
    return np.sum(special.log_expit(y * (X @ w)))


def log_expit_of_a_number(x):
    return special.log_expit(x) * math.sin(x)


def mixed(x):
    return np.sum(special.log_expit(x) ** 2 + special.log_expit(-2.0 * x))


def _cases(rng):
    cases = []
    for n, d in ((5, 3), (2, 4), (1, 1)):
        y = np.where(rng.random(n) > 0.5, 1.0, -1.0)
        cases.append((log_likelihood, (rng.normal(size=d), rng.normal(size=(n, d)), y)))
    cases += [(mixed, (rng.normal(size=s) * 3.0,)) for s in ((4,), (2, 3))]
    cases += [(log_expit_of_a_number, (float(v),)) for v in (-2.5, 0.3, 4.0)]
    return cases


_CASES = _cases(np.random.default_rng(20261209))

(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


def test_hessian_times_v_against_differences_of_the_gradient():
    checks.hessian_along_a_direction(mixed, _CASES[3][1], 0, np.random.default_rng(3))


def test_hvp_is_the_hessian_times_v():
    rng = np.random.default_rng(4)
    x, v = rng.normal(size=5), rng.normal(size=5)
    np.testing.assert_allclose(symdiff.hvp(mixed)(x, v), symdiff.hessian(mixed)(x) @ v,
                               rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("x", [-800.0, -40.0, -1e-8, 0.0, 35.0, 800.0])
def test_the_derivative_in_the_tails_is_accurate(x):
    mpmath = pytest.importorskip("mpmath")
    gradient = symdiff.grad(lambda v: np.sum(special.log_expit(v)))(np.array([x]))
    expected = float(1 / (1 + mpmath.exp(mpmath.mpf(x))))
    assert gradient[0] == pytest.approx(expected, rel=1e-12, abs=1e-300)
    assert np.isfinite(gradient[0])


def test_generated_code_is_plain_numpy():
    gradient = symdiff.grad(mixed)
    gradient(np.ones(3))
    assert "np.expm1(" in gradient.source and "symdiff" not in gradient.source
