"""The records of ``numpy.linalg``'s decompositions (``array_decompositions``): ``eigh``
(unpacked, by index, ``UPLO="U"``), ``eigvalsh``, ``pinv``, ``qr``, ``svd``
(``full_matrices=False``), ``matrix_power``, ``lstsq`` and a matrix's norms (``"nuc"``, ``"fro"``,
``2``), through ``symdiff.grad`` and
``symdiff.jvp`` and ``symdiff.hessian`` on small functions using them.

Each gradient is checked as autograd's ``check_vjp`` does: for random directions ``v``
(seeded), ``<grad, v>`` against a central difference of the function itself, run by
NumPy, at random points of several shapes (square, tall, wide, 1 x 1); each JVP against
the same difference along random tangents; each Hessian, times ``v``, against a central
difference of the gradient; each gradient against the tape's
(``symdiff.tape.grad``, whose derivatives are its own).  The directions are not
symmetric: ``eigh`` reads one triangle of its argument, and its gradient is that of
NumPy's function of every entry.  The functions read eigenvectors and singular vectors
only in ways their signs do not change, or at points where LAPACK's signs do not flip
within a step.  A form the records do not take is a located ``SymdiffError``.
"""

import inspect

import numpy as np
import pytest

import symdiff
from symdiff.errors import InternalError, SymdiffError

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles


# --- the functions (each uses the records under test) ------------------------------------

def _ramp(X):
    return np.arange(X.size).reshape(X.shape) / (1.0 + X.size)


def spectrum_energy(A):
    w, V = np.linalg.eigh(A)
    return np.sum(w ** 2 * np.arange(w.shape[0])) + np.sum(V ** 2 * _ramp(V))


def upper_spectrum(A):
    w, V = np.linalg.eigh(A, UPLO="U")
    return np.sum(np.sin(w)) + np.sum(V[:, -1] ** 2 * np.arange(V.shape[0]))


def eigenvalues_only(A):
    return np.sum(np.tanh(np.linalg.eigvalsh(A))) + np.linalg.eigh(A)[0][-1]


def top_projector(A, B):
    V = np.linalg.eigh(A)[1]
    top = V[:, -1]
    return np.sum(np.outer(top, top) * B)


def pseudo_inverse(A):
    P = np.linalg.pinv(A)
    return np.sum(P ** 2 * _ramp(P)) + np.sum(np.sin(P))


def qr_parts(A):
    q, r = np.linalg.qr(A)
    return np.sum(q ** 3) + np.sum(r * _ramp(r))


def qr_r_only(A):
    return np.sum(np.linalg.qr(A)[1] ** 2) + np.sum(np.linalg.qr(A)[-2] * 0.5)


def svd_parts(A):
    u, s, vh = np.linalg.svd(A, full_matrices=False)
    return (np.sum(s ** 3) + np.sum(u ** 2 * _ramp(u)) + np.sum(vh ** 2 * _ramp(vh))
            + np.sum(np.outer(u[:, 0], vh[0]) * A))


def singular_values(A):
    s = np.linalg.svd(A, full_matrices=False)[1]
    return np.sum(s ** 2 * np.arange(1.0, 1.0 + s.shape[0])) + np.max(s) + np.sum(
        np.sin(np.linalg.svdvals(A)))


def powers(A):
    return (np.sum(np.linalg.matrix_power(A, 3)) + np.sum(np.linalg.matrix_power(A, 1) ** 2)
            + np.sum(np.linalg.matrix_power(A, 0) * A) + np.trace(np.linalg.matrix_power(A, 2)))


def matrix_norms(A):
    return (np.linalg.norm(A, "nuc") + np.linalg.norm(A, ord="fro") ** 2
            + np.linalg.norm(A, ord=2) * np.linalg.norm(A[0], 2))


def least_squares(A, b):
    x = np.linalg.lstsq(A, b, rcond=None)[0]
    return np.sum(x ** 3) + np.sum(np.sin(A @ x))


def least_squares_unpacked(A, b):
    x, residuals, rank, values = np.linalg.lstsq(A, b)
    return np.sum(x ** 2) + np.sum(residuals) * rank + np.sum(values ** 2)


def _symmetric(rng, n):
    """A symmetric matrix with eigenvalues apart (at least 1 between neighbours)."""
    q = np.linalg.qr(rng.normal(size=(n, n)))[0]
    return (q * (np.arange(n) * 1.5 + rng.uniform(0, 0.5, size=n))) @ q.T


def _cases(rng):
    """(function, arguments) of every case, the arguments drawn from ``rng``."""
    normal = rng.normal
    cases = []
    for n in (1, 3, 4):
        cases += [(spectrum_energy, (normal(size=(n, n)),)),
                  (spectrum_energy, (_symmetric(rng, n),)),
                  (upper_spectrum, (normal(size=(n, n)),)),
                  (eigenvalues_only, (normal(size=(n, n)),)),
                  (top_projector, (_symmetric(rng, n), normal(size=(n, n)))),
                  (powers, (normal(size=(n, n)),))]
    for shape in ((3, 3), (4, 2), (2, 4), (1, 1), (3, 1)):
        cases += [(pseudo_inverse, (normal(size=shape) + 2.0 * np.eye(*shape),)),
                  (svd_parts, (normal(size=shape),)),
                  (singular_values, (normal(size=shape),)),
                  (matrix_norms, (normal(size=shape),))]
        if shape[0] >= shape[1]:
            cases += [(qr_parts, (normal(size=shape),)), (qr_r_only, (normal(size=shape),))]
            for b in (normal(size=shape[0]), normal(size=(shape[0], 2))):
                cases += [(least_squares, (normal(size=shape) + np.eye(*shape), b)),
                          (least_squares_unpacked, (normal(size=shape) + np.eye(*shape), b))]
    return cases


_CASES = _cases(np.random.default_rng(20261205))


def _wrt(f, args):
    params = list(inspect.signature(f).parameters)
    return params, tuple(params)


def _scale(f, args):
    return 1.0 + abs(float(f(*args)))


def _ids(cases):
    return [f"{f.__name__}-{'x'.join(map(str, args[0].shape))}-{i}"
            for i, (f, args) in enumerate(cases)]


@pytest.mark.parametrize("case", range(len(_CASES)), ids=_ids(_CASES))
def test_vjp_against_finite_differences(case):
    f, args = _CASES[case]
    params, wrt = _wrt(f, args)
    got = _as_tuple(symdiff.grad(f)(*args))
    oracles.assert_along_directions(f, args, params, wrt, got,
                                    np.random.default_rng(case), _scale(f, args))


def _as_tuple(found):
    return found if isinstance(found, tuple) else (found,)


@pytest.mark.parametrize("case", range(len(_CASES)), ids=_ids(_CASES))
def test_gradient_agrees_with_the_tape(case):
    f, args = _CASES[case]
    got, tape = _as_tuple(symdiff.grad(f)(*args)), _as_tuple(symdiff.tape.grad(f)(*args))
    for mine, theirs in zip(got, tape):
        np.testing.assert_allclose(mine, theirs, rtol=1e-9, atol=1e-11 * _scale(f, args))


@pytest.mark.parametrize("case", range(len(_CASES)), ids=_ids(_CASES))
def test_jvp_against_finite_differences(case):
    f, args = _CASES[case]
    rng = np.random.default_rng(1000 + case)
    tangents = [rng.normal(size=a.shape) for a in args]
    value, tangent = symdiff.jvp(f)(*args, *tangents)
    assert float(value) == pytest.approx(float(f(*args)), rel=1e-12)
    expected = sum(oracles.directional(f, args, i, v) for i, v in enumerate(tangents))
    assert float(tangent) == pytest.approx(expected, rel=1e-6, abs=1e-7 * _scale(f, args))


_SECOND = [(spectrum_energy, (3, 3)), (eigenvalues_only, (3, 3)), (pseudo_inverse, (3, 2)),
           (qr_parts, (3, 2)), (svd_parts, (3, 2)), (powers, (2, 2))]


@pytest.mark.parametrize("case", range(len(_SECOND)), ids=[f.__name__ for f, _ in _SECOND])
def test_hessian_times_v_against_differences_of_the_gradient(case):
    """Forward over reverse: the records' VJP texts are differentiated in turn."""
    f, shape = _SECOND[case]
    rng = np.random.default_rng(30 + case)
    A = rng.normal(size=shape) + 2.0 * np.eye(*shape)
    hessian = symdiff.hessian(f)(A)
    assert hessian.shape == shape + shape
    v = rng.normal(size=shape)
    gradient = symdiff.grad(f)
    h = 1e-5
    expected = (gradient(A + h * v) - gradient(A - h * v)) / (2 * h)
    np.testing.assert_allclose(np.tensordot(hessian, v, axes=2), expected,
                               rtol=1e-5, atol=1e-6 * (1.0 + np.max(np.abs(expected))))


def test_the_gradient_of_eigh_lives_on_the_triangle_numpy_reads():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(4, 4))
    lower = symdiff.grad(spectrum_energy)(A)
    assert np.all(np.triu(lower, 1) == 0.0) and np.any(np.tril(lower, -1) != 0.0)
    upper = symdiff.grad(upper_spectrum)(A)
    assert np.all(np.tril(upper, -1) == 0.0) and np.any(np.triu(upper, 1) != 0.0)


def test_float32_gradients_are_float32():
    rng = np.random.default_rng(7)
    square = rng.normal(size=(3, 3)).astype(np.float32)
    tall = rng.normal(size=(4, 2)).astype(np.float32)
    for f, A in ((spectrum_energy, square), (eigenvalues_only, square), (powers, square),
                 (pseudo_inverse, tall), (qr_parts, tall), (svd_parts, tall)):
        gradient = symdiff.grad(f)(A)
        assert gradient.dtype == np.float32, f.__name__
        wide = symdiff.grad(f)(A.astype(np.float64))
        np.testing.assert_allclose(gradient, wide, rtol=2e-3, atol=2e-3 * _scale(f, (A,)))


def _text(f, *args):
    gradient = symdiff.grad(f, wrt="A")
    gradient(*args)
    return gradient.source


def test_generated_code_reads_the_parts_the_forward_sweep_named():
    rng = np.random.default_rng(8)
    text = _text(spectrum_energy, rng.normal(size=(3, 3)))
    code = "\n".join(line for line in text.splitlines() if not line.strip().startswith("#"))
    assert code.count("np.linalg.eigh(A)") == 1  # once, unpacked into the user's names
    assert "w, V = np.linalg.eigh(A)" in code
    assert "np.tril(" in text and "symdiff" not in text
    text = _text(svd_parts, rng.normal(size=(4, 2)))
    code = "\n".join(line for line in text.splitlines() if not line.strip().startswith("#"))
    assert code.count("np.linalg.svd(A, full_matrices=False)") == 1
    text = _text(powers, rng.normal(size=(3, 3)))
    assert "np.linalg.matrix_power(A.T, 2)" in text


def test_a_new_size_reuses_the_build():
    rng = np.random.default_rng(9)
    g = symdiff.grad(svd_parts)
    g(rng.normal(size=(4, 3)))
    first = g.source
    assert g(rng.normal(size=(6, 2))).shape == (6, 2) and g.source == first


# --- forms refused, located --------------------------------------------------------------

def full_svd(A):
    u, s, vh = np.linalg.svd(A)
    return np.sum(s)


def svd_into_two(A):
    u, s = np.linalg.svd(A, full_matrices=False)
    return np.sum(s)


def svd_read_whole(A):
    return np.sum(np.linalg.svd(A, full_matrices=False))


def eigh_of_a_stack(A):
    w, v = np.linalg.eigh(A)
    return np.sum(w)


def eigh_of_another_triangle(A):
    return np.sum(np.linalg.eigvalsh(A, UPLO="X"))


def complex_eigenvalues(A):
    return np.sum(np.linalg.eig(A)[0])


def power_by_a_variable(A):
    n = A.shape[0]
    return np.sum(np.linalg.matrix_power(A, n))


def negative_power(A):
    return np.sum(np.linalg.matrix_power(A, -1))


def nuclear_norm_of_a_vector(A):
    return np.linalg.norm(A[0], "nuc")


def one_norm_of_a_matrix(A):
    return np.linalg.norm(A, 1)


def pinv_with_a_cutoff(A):
    return np.sum(np.linalg.pinv(A, rcond=1e-3))


def qr_complete(A):
    q, r = np.linalg.qr(A, mode="complete")
    return np.sum(r)


_REFUSED = [
    (full_svd, (np.ones((3, 2)),), "svd"),
    (svd_into_two, (np.ones((3, 2)),), "svd"),
    (svd_read_whole, (np.ones((3, 2)),), "svd"),
    (eigh_of_a_stack, (np.ones((2, 3, 3)),), "eigh"),
    (eigh_of_another_triangle, (np.ones((3, 3)),), "eigvalsh"),
    (complex_eigenvalues, (np.ones((3, 3)),), "eig"),
    (power_by_a_variable, (np.ones((3, 3)),), "n"),
    (negative_power, (np.ones((3, 3)),), "matrix_power"),
    (pinv_with_a_cutoff, (np.ones((3, 2)),), "pinv"),
    (nuclear_norm_of_a_vector, (np.ones((3, 2)),), "norm"),
    (one_norm_of_a_matrix, (np.ones((3, 2)),), "ord"),
    (qr_complete, (np.ones((3, 2)),), "qr"),
]


@pytest.mark.parametrize("case", range(len(_REFUSED)), ids=[f.__name__ for f, _, _ in _REFUSED])
def test_unsupported_forms_are_located_errors_with_a_hint(case):
    f, args, named = _REFUSED[case]
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(f, wrt=0)(*args)
    error = caught.value
    assert not isinstance(error, InternalError)
    assert error.lineno is not None and error.lineno > inspect.getsourcelines(f)[1]
    assert error.hint and named in str(error)


def test_check_compares_with_the_tape_sympy_and_differences():
    """``symdiff.check`` at small shapes: every column agrees with the generated gradient;
    sympy takes ``pinv``, ``qr`` and ``matrix_power``, and says it has no form for
    ``eigh`` and ``svd``."""
    rng = np.random.default_rng(10)
    for f, args in ((pseudo_inverse, (rng.normal(size=(3, 2)),)),
                    (qr_parts, (rng.normal(size=(3, 2)),)), (powers, (rng.normal(size=(2, 2)),))):
        report = symdiff.check(f, args)
        assert report.ok, str(report)
        assert "sympy not used" not in str(report), str(report)
    for f, args in ((spectrum_energy, (rng.normal(size=(2, 2)),)),
                    (svd_parts, (rng.normal(size=(3, 2)),))):
        report = symdiff.check(f, args)
        assert report.ok, str(report)
        assert "sympy not used" in str(report), str(report)
