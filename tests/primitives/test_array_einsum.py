"""The records of ``array_einsum`` with ``...`` in the subscripts, an implicit result,
and operands NumPy broadcasts (fewer axes under the ``...``, or an axis of size one),
through ``symdiff.grad``, ``symdiff.jvp``, ``symdiff.hvp`` and ``symdiff.hessian``.

Each gradient is checked against central differences along random directions (as
autograd's ``check_vjp``), against the tape's (whose ``einsum`` names the ``...`` axes
by its own reading of the string), and each JVP against the same differences; a string
the records do not take is a located ``SymdiffError`` with a hint.
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


def batched_products(a, b):
    return np.sum(np.einsum("...ij,...jk->...ik", a, b) ** 2)


def batched_products_implicit(a, b):
    return np.sum(np.tanh(np.einsum("...ij,...jk", a, b)))


def leading_contraction(a, b):
    return np.sum(np.sin(np.einsum("i...,i...->...", a, b)))


def rows_dotted(a, b):
    return np.sum(np.einsum("...i,...i", a, b) ** 3)


def quadratic_forms(x, m):
    return np.sum(np.exp(0.1 * np.einsum("...i,...ij,...j->...", x, m, x)))


def broadcast_letters(a, b):
    return np.sum(np.einsum("ai,ai->a", a, b) ** 2) + np.sum(np.einsum("ai,ai", a, b ** 2))


def transposed_batch(a):
    return np.sum(np.einsum("...ij->...ji", a) * np.arange(a.shape[-2]))


def rows_summed(a):
    """A letter summed in its one operand, of a size one or not (``np.ones_like`` puts it back)."""
    return np.sum(np.einsum("ij->i", a) ** 2) + np.einsum("ii", a[:1, :1])


def _cases(rng):
    def normal(*shape):
        return rng.normal(size=shape)
    cases = []
    for sa, sb in (((2, 3, 4), (2, 4, 2)), ((1, 3, 4), (5, 4, 2)), ((3, 4), (2, 4, 2)),
                   ((2, 1, 2, 3), (3, 3, 2)), ((3, 4), (4, 2))):
        cases += [(batched_products, (normal(*sa), normal(*sb))),
                  (batched_products_implicit, (normal(*sa), normal(*sb)))]
    cases += [(leading_contraction, (normal(3, 2, 4), normal(3, 2, 4))),
              (leading_contraction, (normal(3, 2, 1), normal(3, 4))),
              (leading_contraction, (normal(3), normal(3, 2))),
              (rows_dotted, (normal(2, 3, 4), normal(3, 4))),
              (rows_dotted, (normal(4), normal(4))),
              (rows_dotted, (normal(1, 4), normal(5, 4))),
              (quadratic_forms, (normal(3, 2), normal(3, 2, 2))),
              (quadratic_forms, (normal(2), normal(4, 2, 2))),
              (broadcast_letters, (normal(1, 3), normal(4, 3))),
              (broadcast_letters, (normal(4, 3), normal(1, 3))),
              (transposed_batch, (normal(2, 3, 4),)), (transposed_batch, (normal(3, 2),))]
    cases += [(rows_summed, (normal(*shape),)) for shape in ((1, 1), (1, 3), (3, 1), (2, 3))]
    return cases


_CASES = _cases(np.random.default_rng(20261207))

(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


@pytest.mark.parametrize("f", [batched_products, leading_contraction, quadratic_forms])
def test_hessian_times_v_against_differences_of_the_gradient(f):
    args = next(a for g, a in _CASES if g is f)
    checks.hessian_along_a_direction(f, args, 0, np.random.default_rng(3))


def test_hvp_is_the_hessian_times_v():
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=(2, 3, 2)), rng.normal(size=(2, 2, 3))
    v = rng.normal(size=a.shape)
    expected = np.tensordot(symdiff.hessian(batched_products, wrt="a")(a, b), v, axes=3)
    found = symdiff.hvp(batched_products, wrt="a")(a, b, v)
    np.testing.assert_allclose(found, expected, rtol=1e-9, atol=1e-10)


def test_generated_code_names_the_broadcast_axes_and_sums_a_broadcast_one():
    rng = np.random.default_rng(5)
    gradient = symdiff.grad(batched_products, wrt=("a", "b"))
    gradient(rng.normal(size=(1, 3, 4)), rng.normal(size=(5, 4, 2)))
    text = gradient.source
    assert "np.einsum('...ij,...jk->...ik', a, b)" in text  # the forward as written
    assert "np.expand_dims(np.einsum('aik,ajk->ij'," in text and "symdiff" not in text
    assert "np.einsum('aik,aij->ajk'," in text


def test_a_new_size_reuses_the_build():
    rng = np.random.default_rng(6)
    gradient = symdiff.grad(batched_products_implicit, wrt=("a", "b"))
    gradient(rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 4, 2)))
    first = gradient.source
    da, db = gradient(rng.normal(size=(6, 2, 3)), rng.normal(size=(6, 3, 5)))
    assert da.shape == (6, 2, 3) and db.shape == (6, 3, 5) and gradient.source == first


# --- forms refused, located --------------------------------------------------------------

def result_without_the_ellipsis(a):
    return np.sum(np.einsum("...i->i", a))


def more_letters_than_axes(a):
    return np.sum(np.einsum("...ijk->...", a))


def two_ellipses_in_one_operand(a):
    return np.sum(np.einsum("...i...->i", a))


_REFUSED = [(result_without_the_ellipsis, (np.ones((2, 3)),)),
            (more_letters_than_axes, (np.ones((2, 3)),)),
            (two_ellipses_in_one_operand, (np.ones((2, 3)),))]


@pytest.mark.parametrize("case", range(len(_REFUSED)))
def test_unsupported_strings_are_located_errors_with_a_hint(case):
    f, args = _REFUSED[case]
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(f)(*args)
    error = caught.value
    assert error.lineno is not None and error.lineno > inspect.getsourcelines(f)[1]
    assert error.hint and "einsum" in str(error) and "'...'" in error.hint


def test_check_compares_with_the_tape_and_differences():
    rng = np.random.default_rng(7)
    for f, shapes in ((batched_products, ((2, 2, 3), (2, 3, 2))),
                      (leading_contraction, ((2, 3), (2, 3))),
                      (broadcast_letters, ((1, 2), (3, 2)))):
        report = symdiff.check(f, tuple(rng.normal(size=s) for s in shapes))
        assert report.ok, str(report)
