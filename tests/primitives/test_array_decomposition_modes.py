"""The forms of ``np.linalg.svd`` and ``np.linalg.qr`` that ``array_decompositions`` takes
beyond the reduced factors by default: the singular values with ``full_matrices=True``
(NumPy's default, the same values as of the reduced SVD), and ``qr`` with
``mode="reduced"`` written out; and the forms refused with a located error naming the
way out (the full ``U`` or ``Vh``, ``mode="complete"``), since the kinds do not say
whether a matrix is square, the one shape where the full and reduced factors agree.

Each gradient is checked against central differences along random directions, against
the tape's, and each JVP against the same differences; the Hessian times a direction
against differences of the gradient.
"""

import inspect

import numpy as np
import pytest

import symdiff
from symdiff.errors import InternalError, SymdiffError

try:
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import record_checks as checks


def singular_values_of_the_full_svd(A):
    return np.sum(np.linalg.svd(A)[1] ** 2) + np.linalg.svd(A, full_matrices=True)[1][0]


def singular_values_by_either(A):
    s = np.linalg.svd(A, True)[1]
    return np.sum(np.log(s)) * np.sum(np.linalg.svd(A, full_matrices=False)[1])


def qr_of_mode_reduced(A):
    q, r = np.linalg.qr(A, mode="reduced")
    return np.sum(q * np.arange(q.shape[1])) + np.sum(np.linalg.qr(A, "reduced")[1] ** 2)


def _cases(rng):
    cases = []
    for shape in ((4, 3), (3, 5), (3, 3), (2, 6)):
        cases += [(singular_values_of_the_full_svd, (rng.normal(size=shape),)),
                  (singular_values_by_either, (rng.normal(size=shape),))]
    cases += [(qr_of_mode_reduced, (rng.normal(size=shape),)) for shape in ((4, 3), (3, 3),
                                                                          (5, 2))]
    return cases


_CASES = _cases(np.random.default_rng(20261211))

(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


@pytest.mark.parametrize("f", [singular_values_of_the_full_svd, qr_of_mode_reduced])
def test_hessian_times_v_against_differences_of_the_gradient(f):
    args = next(a for g, a in _CASES if g is f)
    checks.hessian_along_a_direction(f, args, 0, np.random.default_rng(3))


def test_hvp_is_the_hessian_times_v():
    rng = np.random.default_rng(4)
    A, v = rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    f = singular_values_of_the_full_svd
    np.testing.assert_allclose(symdiff.hvp(f)(A, v), np.tensordot(symdiff.hessian(f)(A), v,
                                                                  axes=2), rtol=1e-9, atol=1e-10)


def test_the_values_of_the_full_svd_are_the_reduced_one_s():
    gradient = symdiff.grad(singular_values_of_the_full_svd)
    gradient(np.random.default_rng(5).normal(size=(4, 3)))
    assert "full_matrices=False" in gradient.source and "symdiff" not in gradient.source


# --- forms refused, located --------------------------------------------------------------

def left_vectors_of_the_full_svd(A):
    return np.sum(np.linalg.svd(A)[0] ** 2)


def right_vectors_of_the_full_svd(A):
    return np.sum(np.linalg.svd(A, full_matrices=True)[2] * A[0])


def qr_of_mode_complete(A):
    return np.sum(np.linalg.qr(A, mode="complete")[0])


def qr_of_mode_r(A):
    q, r = np.linalg.qr(A, mode="r")
    return np.sum(r)


_REFUSED = [(left_vectors_of_the_full_svd, (np.eye(3),), "full_matrices=False"),
            (right_vectors_of_the_full_svd, (np.eye(3),), "full_matrices=False"),
            (qr_of_mode_complete, (np.eye(3),), "mode"),
            (qr_of_mode_r, (np.eye(3),), "mode")]


@pytest.mark.parametrize("case", range(len(_REFUSED)), ids=[f.__name__ for f, _, _ in _REFUSED])
def test_unsupported_forms_are_located_errors_naming_the_way_out(case):
    """Square here: the kinds cannot tell a square matrix, so even it is refused."""
    f, args, named = _REFUSED[case]
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(f)(*args)
    error = caught.value
    assert not isinstance(error, InternalError)
    assert error.lineno is not None and error.lineno > inspect.getsourcelines(f)[1]
    assert error.hint and named in str(error)


def test_the_tape_refuses_the_full_factors_of_a_matrix_that_is_not_square():
    A = np.random.default_rng(6).normal(size=(4, 3))
    with pytest.raises(TypeError, match="full_matrices=False"):
        symdiff.tape.grad(left_vectors_of_the_full_svd)(A)
    square = np.random.default_rng(7).normal(size=(3, 3))  # (the tape sees the sizes)
    assert symdiff.tape.grad(left_vectors_of_the_full_svd)(square).shape == (3, 3)
