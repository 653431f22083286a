"""``np.r_[...]`` and ``np.c_[...]`` read as the joins they stand for: gradients against
finite differences and the tape, forward mode and the Hessian-vector product, what the
generated code writes, and the forms refused (class and place)."""

import numpy as np
import pytest

import symdiff
from symdiff.errors import UnsupportedSyntaxError

try:
    import array_oracles as oracles
    from oracles import marked_place
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles
    from tests.oracles import marked_place

RNG = np.random.default_rng(47)


def padded_running_sum(x):
    y = np.r_[0.0, np.cumsum(x)]
    return np.sum(y ** 2 * np.arange(y.size))


def vectors_end_to_end(x, y):
    return np.sum(np.sin(np.r_[x, 2.0 * y, x[:2]]) * np.r_[y, x, y[:2]])


def matrices_stacked(A, B):
    return np.sum(np.r_[A, B] ** 3)


def columns(x, y):
    Z = np.c_[x, y ** 2]
    return np.sum(np.tanh(Z @ np.array([1.0, -2.0])))


def matrices_side_by_side(A, B):
    return np.sum(np.c_[A, B] ** 2 * np.arange(A.shape[1] + B.shape[1]))


def matrix_beside_a_column(A, y):
    return np.sum(np.c_[A, y] ** 2)  # REFUSED at return


CASES = [(padded_running_sum, (RNG.normal(size=5),)),
         (vectors_end_to_end, (RNG.normal(size=4), RNG.normal(size=4))),
         (matrices_stacked, (RNG.normal(size=(2, 3)), RNG.normal(size=(3, 3)))),
         (columns, (RNG.normal(size=4), RNG.normal(size=4))),
         (matrices_side_by_side, (RNG.normal(size=(4, 2)), RNG.normal(size=(4, 3))))]
IDS = [fn.__name__ for fn, _ in CASES]


@pytest.mark.parametrize("fn, point", CASES, ids=IDS)
def test_the_gradient_agrees_with_finite_differences_and_the_tape(fn, point):
    gradient = symdiff.grad(fn)(*point)
    assert oracles.gradient_failures(fn, point, gradient) == []
    taped = symdiff.tape.grad(fn)(*point)
    for got, want in zip(gradient if len(point) > 1 else (gradient,),
                         taped if len(point) > 1 else (taped,)):
        assert np.allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fn, point", CASES, ids=IDS)
def test_forward_mode_and_the_hessian_vector_product(fn, point):
    v = tuple(RNG.normal(size=np.shape(p)) for p in point)
    value, tangent = symdiff.jvp(fn)(*point, *v)
    h = 1e-6
    moved = [fn(*(p + s * h * d for p, d in zip(point, v))) for s in (1, -1)]
    assert value == pytest.approx(fn(*point))
    assert tangent == pytest.approx((moved[0] - moved[1]) / (2 * h), rel=1e-5, abs=1e-6)
    product = symdiff.hvp(fn)(*point, *v)
    grads = [symdiff.grad(fn)(*(p + s * h * d for p, d in zip(point, v))) for s in (1, -1)]
    grads = [g if len(point) > 1 else (g,) for g in grads]
    product = product if len(point) > 1 else (product,)
    for got, plus, minus in zip(product, *grads):
        assert np.allclose(got, (plus - minus) / (2 * h), rtol=1e-4, atol=1e-5)


def test_the_generated_code_joins_as_numpy_does():
    text = symdiff.source(padded_running_sum, RNG.normal(size=5))
    assert "np.concatenate([" in text and "np.array([0.0])" in text
    assert "np.column_stack(" in symdiff.source(columns, *CASES[3][1])


def a_range_in_it(x):
    return np.sum(np.r_[0:3] * x)  # REFUSED at 0:3


def a_directive_in_it(x, y):
    return np.sum(np.r_["0,2", x, y])  # REFUSED at "0,2"


def test_columns_of_parts_of_unlike_axes_are_refused_as_column_stack_refuses_them():
    with pytest.raises(UnsupportedSyntaxError) as raised:
        symdiff.grad(matrix_beside_a_column)(RNG.normal(size=(4, 2)), RNG.normal(size=4))
    assert raised.value.lineno == marked_place(matrix_beside_a_column)[0]
    assert "column_stack" in str(raised.value)


@pytest.mark.parametrize("fn", [a_range_in_it, a_directive_in_it])
def test_a_range_or_a_directive_is_refused_where_it_stands(fn):
    args = (RNG.normal(size=3),) * fn.__code__.co_argcount
    with pytest.raises(UnsupportedSyntaxError) as raised:
        symdiff.grad(fn)(*args)
    assert (raised.value.lineno, raised.value.col_offset) == marked_place(fn)
    assert "np.concatenate" in raised.value.hint
