"""``np.pad`` with zeros (``primitives.array_pads``, ``lower.array_calls``): its widths
as constants or sizes read as it runs, one pair for every axis or one per axis; its
gradient the part of ``g`` where the operand sits, against central differences along
random directions; widths written otherwise refused, located."""

import numpy as np
import pytest

import symdiff


def one_pair(x):
    return np.sum(np.pad(x, (2, 1)) ** 3 * np.arange(x.shape[0] + 3))


def per_axis(X):
    return np.sum(np.cos(np.pad(X, ((1, 0), (0, 2)))) * 2.0)


def one_width(X):
    return np.sum(np.exp(np.pad(X, 1)) * np.pad(X, 1))


def by_sizes(X):
    n = X.shape[1]
    return np.sum(np.tanh(np.pad(X, ((0, n), (n, 0)))) ** 2)


@pytest.mark.parametrize("f, shape", [(one_pair, (4,)), (per_axis, (2, 3)),
                                      (one_width, (3, 2)), (by_sizes, (2, 3)),
                                      (one_width, (4,))])
def test_the_gradient_is_the_part_of_g_where_x_sits(f, shape):
    rng = np.random.default_rng(len(shape) * 10 + shape[0])
    x = rng.standard_normal(shape)
    got = symdiff.grad(f)(x)
    assert got.shape == x.shape
    for _ in range(3):
        v = rng.standard_normal(shape)
        h = 1e-5
        difference = (f(x + h * v) - f(x - h * v)) / (2 * h)
        assert np.isclose(np.sum(got * v), difference, rtol=1e-6, atol=1e-8)
    assert np.allclose(symdiff.tape.grad(f)(x), got, rtol=1e-10)


def test_the_gradient_text_cuts_as_a_person_cuts():
    text = symdiff.source(per_axis, np.ones((2, 3)))
    assert "[1:, :-2]" in text


def written_as_a_name(x, widths):
    return np.sum(np.pad(x, widths) ** 2)


def with_a_mode(x):
    return np.sum(np.pad(x, (1, 1), mode="edge") ** 2)


@pytest.mark.parametrize("f, args", [(written_as_a_name, ((1, 1),)), (with_a_mode, ())])
def test_widths_not_written_out_or_another_mode_are_refused_located(f, args):
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(f, wrt="x")(np.ones(3), *args)
    assert caught.value.lineno == f.__code__.co_firstlineno + 1
