"""A 0-d array given to the gradient of code written for numbers: its gradient is a 0-d
array of its dtype (as the gradient by any array is an array of its shape), the others'
floats; numbers given to the same gradient still get floats.  Only a gradient whose code
calls NumPy looks at its arguments' types; one of ``math`` alone is called as built.
"""

import math

import numpy as np
import pytest

import symdiff


def numpy_code(s, t):
    return np.exp(s) * t + s ** 2


def math_code(s, t):
    return math.exp(s) * t + s ** 2


def _expected(s, t):
    return math.exp(s) * t + 2 * s, math.exp(s)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_zero_d_array_gets_a_zero_d_array_of_its_dtype(dtype):
    gradient = symdiff.grad(numpy_code)
    ds, dt = gradient(np.array(0.5, dtype=dtype), 1.5)
    assert type(ds) is np.ndarray and ds.shape == () and ds.dtype == dtype
    assert type(dt) is float
    tolerance = 1e-12 if dtype is np.float64 else 1e-6
    assert np.allclose((ds, dt), _expected(0.5, 1.5), rtol=tolerance)
    by_keyword = symdiff.grad(numpy_code, wrt="s")(s=np.array(0.5, dtype=dtype), t=1.5)
    assert type(by_keyword) is np.ndarray and by_keyword.dtype == dtype


def test_numbers_still_get_floats_after_an_array():
    gradient = symdiff.grad(numpy_code)
    gradient(np.array(0.5), 1.5)
    got = gradient(0.5, 1.5)
    assert all(type(g) is float for g in got)
    assert np.allclose(got, _expected(0.5, 1.5), rtol=1e-12)
    assert all(type(g) is float for g in gradient(np.float64(0.5), 1.5))


def test_value_and_grad_of_a_zero_d_array():
    value, (ds, dt) = symdiff.value_and_grad(numpy_code)(np.array(0.5), 1.5)
    assert math.isclose(value, numpy_code(0.5, 1.5)) and type(ds) is np.ndarray


def test_only_code_that_calls_numpy_looks_at_its_arguments():
    plain = symdiff.grad(math_code)
    assert plain.func is plain._core  # called as built: nothing between
    looking = symdiff.grad(numpy_code)
    assert looking.func is not looking._core
    assert looking.source == symdiff.grad(numpy_code).source  # the text of numbers shown
