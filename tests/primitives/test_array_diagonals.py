"""The records of ``array_diagonals``: ``np.trace`` and ``np.diagonal`` (and the methods)
with an offset and any two axes, through ``symdiff.grad``, ``symdiff.jvp``,
``symdiff.hvp`` and ``symdiff.hessian``.

Each gradient is checked as autograd's ``check_vjp`` does (inner products with random
directions against central differences of the function, run by NumPy), against the
tape's (whose ``trace`` and ``diagonal`` write ``g`` back by their own means), and each
JVP against the same differences; a form the records do not take is a located
``SymdiffError`` with a hint.
"""


import numpy as np
import pytest

import symdiff

try:
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import record_checks as checks


def traces_of_planes(x):
    return np.sum(np.trace(x, 1, 0, 2) ** 2) + np.sum(np.sin(np.trace(x, axis1=2, axis2=1)))


def traces_of_a_matrix(x):
    return np.trace(x, -1, 1, 0) * np.trace(x) + x.trace(1, 1, 0) ** 2 + np.trace(x, 0, -1, -2)


def trace_of_the_last_two(x):
    return np.sum(np.trace(x, axis1=-2, axis2=-1) ** 3) + np.sum(x.trace(offset=-1, axis1=1,
                                                                     axis2=2))


def diagonals_of_a_matrix(x):
    return (np.sum(np.diagonal(x, 1) ** 2) + np.sum(np.tanh(x.diagonal(-1)))
            + np.sum(np.diagonal(x, 0, 1, 0) ** 3) + np.sum(np.diagonal(x) * x[0, 0]))


def diagonals_of_planes(x):
    return (np.sum(np.diagonal(x, 1, 0, 2) ** 2) + np.sum(np.exp(x.diagonal(axis1=1, axis2=2)))
            + np.sum(np.diagonal(x, -1, 2, 0) ** 3))


def diagonal_of_four_axes(x):
    return np.sum(np.diagonal(x, 0, 3, 1) ** 2 * np.arange(x.shape[0])[:, None, None])


def _cases(rng):
    cases = []
    for shape in ((3, 4), (4, 3), (3, 3), (1, 3), (2, 1)):
        cases += [(traces_of_a_matrix, (rng.normal(size=shape),)),
                  (diagonals_of_a_matrix, (rng.normal(size=shape),))]
    for shape in ((3, 4, 3), (2, 3, 4), (4, 2, 2), (1, 3, 3)):
        cases += [(traces_of_planes, (rng.normal(size=shape),)),
                  (trace_of_the_last_two, (rng.normal(size=shape),)),
                  (diagonals_of_planes, (rng.normal(size=shape),))]
    cases += [(diagonal_of_four_axes, (rng.normal(size=shape),))
              for shape in ((2, 3, 2, 4), (3, 2, 1, 2))]
    return cases


_CASES = _cases(np.random.default_rng(20261206))

(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


@pytest.mark.parametrize("f", [traces_of_planes, diagonals_of_planes, traces_of_a_matrix,
                               diagonals_of_a_matrix])
def test_hessian_times_v_against_differences_of_the_gradient(f):
    args = next(a for g, a in _CASES if g is f)
    checks.hessian_along_a_direction(f, args, 0, np.random.default_rng(3))


@pytest.mark.parametrize("f", [traces_of_planes, diagonals_of_planes])
def test_hvp_is_the_hessian_times_v(f):
    rng = np.random.default_rng(4)
    x = next(a for g, a in _CASES if g is f)[0]
    v = rng.normal(size=x.shape)
    expected = np.tensordot(symdiff.hessian(f)(x), v, axes=x.ndim)
    np.testing.assert_allclose(symdiff.hvp(f)(x, v), expected, rtol=1e-9, atol=1e-10)


def test_generated_code_is_plain_numpy():
    x = np.random.default_rng(5).normal(size=(2, 3, 3))
    gradient = symdiff.grad(traces_of_planes)
    gradient(x)
    text = "".join(gradient.source.split())  # (where the lines break aside)
    assert "np.eye(x.shape[0],x.shape[2],k=1,dtype=x.dtype)" in text
    assert "np.expand_dims(" in text and "symdiff" not in text
    gradient = symdiff.grad(diagonals_of_planes)
    gradient(x)
    assert "np.einsum('ai,ij,ik->jak'" in gradient.source


def test_a_new_size_reuses_the_build():
    rng = np.random.default_rng(6)
    gradient = symdiff.grad(diagonals_of_planes)
    gradient(rng.normal(size=(3, 4, 3)))
    first = gradient.source
    assert gradient(rng.normal(size=(5, 2, 6))).shape == (5, 2, 6)
    assert gradient.source == first


# --- forms refused, located --------------------------------------------------------------

def trace_of_one_axis_twice(x):
    return np.trace(x, 0, 1, 1)


def trace_of_an_axis_out_of_range(x):
    return np.sum(np.trace(x, axis1=0, axis2=3))


def diagonal_of_a_vector(x):
    return np.sum(np.diagonal(x))


def diagonal_by_an_axis_read_as_the_code_runs(x):
    k = x.ndim - 1
    return np.sum(np.diagonal(x, 0, 0, k))


def trace_of_a_variable_offset(x):
    k = x.shape[0] - 3
    return np.trace(x, k)


_REFUSED = [
    (trace_of_one_axis_twice, (np.ones((2, 2)),), "trace"),
    (trace_of_an_axis_out_of_range, (np.ones((2, 2, 2)),), "trace"),
    (diagonal_of_a_vector, (np.ones(3),), "diagonal"),
    (diagonal_by_an_axis_read_as_the_code_runs, (np.ones((2, 2)),), "axis2"),
    (trace_of_a_variable_offset, (np.ones((3, 3)),), "offset"),
]


test_unsupported_forms_are_located_errors_with_a_hint = checks.refusal_test(_REFUSED)


def test_check_compares_with_the_tape_sympy_and_differences():
    rng = np.random.default_rng(7)
    for f, shape in ((traces_of_planes, (2, 3, 2)), (diagonals_of_planes, (2, 2, 3)),
                     (traces_of_a_matrix, (2, 3)), (diagonals_of_a_matrix, (3, 2))):
        report = symdiff.check(f, (rng.normal(size=shape),))
        assert report.ok, str(report)
