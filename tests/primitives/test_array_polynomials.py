"""The records of ``array_polynomials`` (``polyval``, ``polyder``) and ``array_outers``
(``add.outer``, ``subtract.outer``, ``multiply.outer``, ``divide.outer``,
``maximum.outer``, ``minimum.outer``), and ``np.clip`` by NumPy's keywords and of one
bound, through ``symdiff.grad``, ``symdiff.jvp`` and ``symdiff.hessian`` on small
functions using them.

Each gradient is checked as autograd's ``check_vjp`` does: for random directions ``v``
(seeded), ``<grad, v>`` against a central difference of the function itself, run by
NumPy, at random points of several shapes; each JVP against the same difference along
random tangents; each Hessian, times ``v``, against a central difference of the
gradient; each gradient against the tape's (whose ``polyval`` is NumPy's loop and whose
``outer`` is the ufunc of a reshaped operand), and, at small shapes, ``symdiff.check``'s
columns (sympy element by element).  Random points keep the operands of ``maximum`` and
``minimum`` and the clipped values away from their ties.  A form the records do not take
is a located ``SymdiffError``.
"""

import inspect

import numpy as np
import pytest

import symdiff

try:
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import record_checks as checks


# --- the functions (each uses the records under test) ------------------------------------

def cubic_fit(p, x):
    return np.sum((np.polyval(p, x) - np.sin(x)) ** 2)


def polynomial_of_a_number(p, s):
    return np.polyval(p, s) ** 2 + np.sum(np.polyval(p, 2.0 * s) * p)


def polynomial_squashed(p, x):
    return np.sum(np.tanh(np.polyval(p, x)))


def derivative_polynomial(p, x):
    return np.sum(np.polyval(np.polyder(p), x) ** 2) + np.sum(np.polyder(p) * p[1:])


def coefficients_fixed(x):
    return np.sum(np.polyval(np.array([0.5, -1.0, 2.0, 0.25]), x) ** 2)


def pairwise_squares(a, b):
    return np.sum(np.subtract.outer(a, b) ** 2) + np.sum(np.tanh(np.add.outer(a, b)))


def outer_products(a, b):
    return np.sum(np.sin(np.multiply.outer(a, b))) + np.sum(np.multiply.outer(a, b * b))


def outer_quotients(a, b):
    return np.sum(np.divide.outer(a, b) ** 2) + np.sum(np.divide.outer(b, a * a + 1.0))


def outer_extremes(a, b):
    return np.sum(np.maximum.outer(a, b) ** 2) + np.sum(np.minimum.outer(a, b)) * np.sum(a)


def outer_with_a_number(a, s):
    return np.sum(np.subtract.outer(a, s) ** 2) + np.sum(np.multiply.outer(s, a) ** 3)


def clipped_by_keywords(x):
    return (np.sum(np.clip(x, a_min=-0.5, a_max=0.5) ** 2) + np.sum(np.clip(x, min=-0.3,
                                                                          max=0.7) ** 3)
            + np.sum(x.clip(max=0.2) * x) + np.sum(x.clip(min=-0.1) ** 2))


def clipped_on_one_side(x, lo):
    return np.sum(np.clip(x, None, 0.4) ** 2) + np.sum(np.clip(x, lo, None) ** 3) + np.sum(
        np.clip(x, max=0.6) * x) + np.sum(x.clip(None, 0.3) ** 2)


def _apart(rng, shape, scale=1.0):
    """Values at least 0.05 apart (``scale`` times), in a random order, none within 0.02
    of the bounds the clips above use: no finite difference crosses a kink."""
    size = int(np.prod(shape))
    values = (np.arange(size) - size / 2) * 0.11 * scale + rng.uniform(0.0, 0.02, size)
    return rng.permutation(values + 0.013).reshape(shape)


def _cases(rng):
    """(function, arguments) of every case, the arguments drawn from ``rng``."""
    normal = rng.normal
    cases = []
    for degree in (0, 1, 3, 5):
        p = normal(size=degree + 1)
        cases += [(cubic_fit, (p, normal(size=6))), (cubic_fit, (p, normal(size=(2, 3)))),
                  (polynomial_of_a_number, (p, float(normal()))),
                  (polynomial_squashed, (p, normal(size=(2, 1, 3))))]
    cases += [(derivative_polynomial, (normal(size=n), normal(size=4))) for n in (2, 3, 5)]
    cases += [(coefficients_fixed, (normal(size=5),)), (coefficients_fixed, (normal(size=(3, 2)),))]
    for shapes in (((3,), (4,)), ((2, 3), (4,)), ((3,), (2, 2)), ((1,), (3,))):
        a, b = (normal(size=s) for s in shapes)
        cases += [(pairwise_squares, (a, b)), (outer_products, (a, b)),
                  (outer_quotients, (a, np.abs(b) + 0.5))]
    for shapes in (((3,), (4,)), ((2, 2), (3,))):
        a, b = _apart(rng, shapes[0]), _apart(rng, shapes[1]) + 0.027
        cases += [(outer_extremes, (a, b))]
    cases += [(outer_with_a_number, (normal(size=4), float(normal()))),
              (outer_with_a_number, (normal(size=(2, 3)), float(normal())))]
    for shape in ((7,), (3, 4)):
        cases += [(clipped_by_keywords, (_apart(rng, shape, 2.0),)),
                  (clipped_on_one_side, (_apart(rng, shape, 2.0), -0.35))]
    return cases


_CASES = _cases(np.random.default_rng(20261225))


(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


_SECOND = [(cubic_fit, 0), (cubic_fit, 1), (polynomial_squashed, 1),
           (derivative_polynomial, 0), (derivative_polynomial, 1), (pairwise_squares, 0),
           (outer_products, 1), (outer_quotients, 1), (outer_extremes, 0),
           (clipped_by_keywords, 0), (clipped_on_one_side, 0)]


def _first_case(f, at):
    """The first case of ``f`` whose argument ``at`` is an array of more than one element."""
    return next(a for g, a in _CASES if g is f and np.size(a[at]) > 1)


@pytest.mark.parametrize("case", range(len(_SECOND)))
def test_hessian_times_v_against_differences_of_the_gradient(case):
    f, at = _SECOND[case]
    checks.hessian_along_a_direction(f, _first_case(f, at), at, np.random.default_rng(case))


_FLOAT32 = [(cubic_fit, ((4,), (6,))), (polynomial_squashed, ((3,), (2, 3))),
            (derivative_polynomial, ((4,), (3,))), (pairwise_squares, ((3,), (4,))),
            (outer_products, ((2, 3), (4,))), (outer_quotients, ((3,), (4,)))]


@pytest.mark.parametrize("case", range(len(_FLOAT32)))
def test_float32_gradients_are_float32(case):
    f, shapes = _FLOAT32[case]
    rng = np.random.default_rng(30 + case)
    args = tuple((rng.normal(size=s) + 2.0 * (f is outer_quotients)).astype(np.float32)
                 for s in shapes)
    params = list(inspect.signature(f).parameters)
    found = checks.as_tuple(symdiff.grad(f, wrt=checks.one_or_all(tuple(params)))(*args), params)
    wide = checks.as_tuple(symdiff.grad(f, wrt=checks.one_or_all(tuple(params)))(
        *(a.astype(np.float64) for a in args)), params)
    for mine, theirs in zip(found, wide):
        assert mine.dtype == np.float32
        np.testing.assert_allclose(mine, theirs, rtol=2e-3, atol=2e-3)


def test_mixed_dtypes_give_each_operand_its_own():
    """A float32 operand meeting a float64 one: its gradient float32 (cast back)."""
    rng = np.random.default_rng(12)
    p, x = rng.normal(size=3).astype(np.float32), rng.normal(size=4)
    dp, dx = symdiff.grad(cubic_fit)(p, x)
    assert dp.dtype == np.float32 and dx.dtype == np.float64
    a, b = rng.normal(size=3), rng.normal(size=2).astype(np.float32)
    da, db = symdiff.grad(outer_products)(a, b)
    assert da.dtype == np.float64 and db.dtype == np.float32


def _text(f, *args, wrt=None):
    gradient = symdiff.grad(f, wrt=wrt)
    gradient(*args)
    return gradient.source


def test_generated_code_is_plain_numpy():
    rng = np.random.default_rng(8)
    p, x = rng.normal(size=4), rng.normal(size=5)
    text = _text(cubic_fit, p, x)
    assert "np.polyval(np.polyder(p), x)" in text and "x[:, None] ** np.arange(p.size)" in text
    assert "symdiff" not in text
    text = _text(pairwise_squares, p, x)
    assert "np.subtract.outer(a, b)" in text and "np.sum(" in text and "axis=1" in text
    text = _text(clipped_on_one_side, x, -0.3)
    assert "np.minimum(x, 0.4)" in text and "np.maximum(x, lo)" in text


def test_a_new_size_reuses_the_build():
    rng = np.random.default_rng(9)
    g = symdiff.grad(pairwise_squares)
    g(rng.normal(size=3), rng.normal(size=4))
    first = g.source
    da, db = g(rng.normal(size=6), rng.normal(size=2))
    assert da.shape == (6,) and db.shape == (2,) and g.source == first
    g = symdiff.grad(cubic_fit)
    g(rng.normal(size=3), rng.normal(size=4))
    first = g.source
    dp, dx = g(rng.normal(size=6), rng.normal(size=2))
    assert dp.shape == (6,) and dx.shape == (2,) and g.source == first


def test_check_compares_with_the_tape_sympy_and_differences():
    rng = np.random.default_rng(10)
    for f, args in ((cubic_fit, (rng.normal(size=3), rng.normal(size=3))),
                    (derivative_polynomial, (rng.normal(size=3), rng.normal(size=2))),
                    (polynomial_of_a_number, (rng.normal(size=3), 0.4)),
                    (pairwise_squares, (rng.normal(size=2), rng.normal(size=3))),
                    (outer_quotients, (rng.normal(size=2), rng.normal(size=2) + 2.0)),
                    (outer_extremes, (_apart(rng, (2,)), _apart(rng, (3,)) + 0.027)),
                    (clipped_by_keywords, (_apart(rng, (5,), 2.0),)),
                    (clipped_on_one_side, (_apart(rng, (4,), 2.0), -0.35))):
        report = symdiff.check(f, args)
        assert report.ok, str(report)
        assert "sympy: took the point" in str(report), str(report)


# --- forms refused, located --------------------------------------------------------------

def polyval_of_a_matrix_of_coefficients(p, x):
    return np.sum(np.polyval(p, x))


def polyder_twice(p):
    return np.sum(np.polyder(p, 2))


def outer_of_a_ufunc_without_a_record(a, b):
    return np.sum(np.power.outer(a, b))


def outer_of_two_numbers(s):
    return np.add.outer(s, 2.0)


def clipped_by_an_unknown_keyword(x):
    return np.sum(np.clip(x, a_min=0.0, upper=1.0))


def clipped_without_bounds(x):
    return np.sum(np.clip(x, None, None))


def clipped_by_one_of_the_functions_keywords(x):
    return np.sum(np.clip(x, a_max=1.0))  # (NumPy: a_min is missing)


def clipped_by_both_kinds_of_keywords(x):
    return np.sum(np.clip(x, 0.0, max=1.0))  # (NumPy: a_max is missing)


def clipped_by_a_method_given_the_functions_keyword(x):
    return np.sum(x.clip(a_max=1.0))  # (NumPy: no such keyword)


def clipped_by_a_method_without_bounds(x):
    return np.sum(x.clip())


_REFUSED = [
    (polyval_of_a_matrix_of_coefficients, (np.ones((2, 2)), np.ones(3)), "polyval"),
    (polyder_twice, (np.ones(4),), "m"),
    (outer_of_a_ufunc_without_a_record, (np.ones(2), np.ones(3)), "outer"),
    (outer_of_two_numbers, (1.5,), "outer"),
    (clipped_by_an_unknown_keyword, (np.ones(3),), "upper"),
    (clipped_without_bounds, (np.ones(3),), "None"),
    (clipped_by_one_of_the_functions_keywords, (np.ones(3),), "clip"),
    (clipped_by_both_kinds_of_keywords, (np.ones(3),), "max"),
    (clipped_by_a_method_given_the_functions_keyword, (np.ones(3),), "a_max"),
    (clipped_by_a_method_without_bounds, (np.ones(3),), "None"),
]


test_unsupported_forms_are_located_errors_with_a_hint = checks.refusal_test(_REFUSED, wrt=0)
