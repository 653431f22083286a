"""``check`` of a function given functions as values: a function passed (a def of the
user's, a NumPy or math function) or kept as a default is data, never a row; each
witness calls it as it is, and random points keep a function default."""

import math

import numpy as np
import pytest

import symdiff


def _square(v):
    return v * v


def _relu(z):
    return np.maximum(z, 0.0)


def applied(f, x, y):
    return f(x) * y + f(y)


def with_a_default(x, g=_square):
    return g(x) + x


def activated(W, X, act=_relu):
    return np.sum(act(X @ W) ** 2)


@pytest.mark.parametrize("f", [_square, math.sin, math.exp])
def test_a_function_passed_is_data_and_the_numbers_are_checked(f):
    report = symdiff.check(applied, (f, 0.3, 1.2), (f, -0.7, 0.4), wrt=("x", "y"))
    assert report.ok, report
    assert {row.param for row in report.rows} == {"x", "y"}


def test_random_points_keep_a_function_default():
    report = symdiff.check(with_a_default)
    assert report.ok, report
    assert len(report.rows) == 5 and all(row.point[1] is _square for row in report.rows)


@pytest.mark.parametrize("act", [None, np.tanh, np.sin])
def test_an_activation_of_arrays_passed_or_kept(act):
    rng = np.random.default_rng(3)
    point = (rng.normal(size=(3, 2)), rng.normal(size=(4, 3)))
    point = point if act is None else point + (act,)
    report = symdiff.check(activated, point, wrt="W")
    assert report.ok, report
