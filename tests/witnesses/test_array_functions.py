"""Which NumPy function an array on the tape reaches (``symdiff.witnesses.tape.
array_functions``): NumPy's own names and protocols lead to the tape's functions, however
the user's code imports them; a function without a derivative on the tape is refused,
named and located, never computed with a silently wrong gradient."""

import numpy
import numpy as np
import pytest
from numpy import linalg as la
from numpy import sum as total
from numpy import tanh

from symdiff import tape
from symdiff.errors import SymdiffError
from symdiff.witnesses.tape.array_functions import functions, namespace_stand_ins
from symdiff.witnesses.tape.arrays import ArrayValue

from .array_checks import check_grad


def _x(shape=(3, 4), seed=0):
    return np.random.default_rng(seed).normal(size=shape)


def test_every_listed_function_is_numpys():
    table = functions(np)
    assert np.sum in table and np.linalg.solve in table and np.zeros_like in table
    assert set(namespace_stand_ins(np)) <= set(dir(np))


def test_numpy_under_any_name_and_from_imports():
    def f(x):
        return total(tanh(x)) + numpy.mean(la.norm(x, axis=0)) + np.sum(x[0])
    check_grad(f, (_x(),), wrt=(0,))


def test_a_function_the_tape_lacks_is_refused_naming_it_at_the_users_line():
    def f(x):
        return np.sum(np.kron(x, x))
    with pytest.raises(SymdiffError) as caught:
        tape.grad(f)(_x())
    error = caught.value
    assert "numpy.kron" in error.message
    assert error.filename == __file__ and error.lineno == f.__code__.co_firstlineno + 1


@pytest.mark.parametrize("call", [
    lambda x: np.fft.fft(x), lambda x: np.kron(x, x), lambda x: np.nanvar(x),
    lambda x: np.add.reduceat(x, [0, 2]), lambda x: np.exp(x, out=np.empty(x.shape)),
    lambda x: np.linalg.eigvals(x), lambda x: np.linalg.norm(x, ord=-2),
    lambda x: np.multiply.at(x, [0], 2.0), lambda x: np.add.at(np.zeros(3), [0], x[0]),
], ids=["fft", "kron", "nanvar", "reduceat", "out", "eigvals", "norm_-2", "multiply_at",
        "add_at_into_a_plain_array"])
def test_refusals_outside_grad_too(call):
    with pytest.raises((SymdiffError, TypeError)):
        call(ArrayValue(np.eye(3)))


def test_add_at_into_a_tracked_array_adds_at_repeats_and_pulls_back():
    def f(x, v):
        y = x * 2.0
        np.add.at(y, [0, 2, 0], v)
        return np.sum(y ** 2)
    x, v = np.array([0.5, -1.0, 1.5]), np.array([0.3, -0.2, 0.7])
    y = 2.0 * x + np.array([1.0, 0.0, -0.2])
    dx, dv = tape.grad(f)(x, v)
    assert np.allclose(dx, 4.0 * y) and np.allclose(dv, 2.0 * y[[0, 2, 0]])


def test_reading_functions_run_on_the_numbers():
    x = ArrayValue(_x())
    assert np.argmax(x) == np.argmax(x.data) and np.shape(x) == (3, 4)
    assert np.allclose(x, x.data) and np.ndim(x) == 2 and x.argmin() == x.data.argmin()
    assert np.count_nonzero(x > 0) == np.count_nonzero(x.data > 0)


def test_the_scalar_tape_keeps_its_behaviour_on_numbers():
    """numpy's scalar functions of scalar Values still run the scalar stand-ins."""
    def f(a, b):
        return np.maximum(a, b) * np.log(a) + np.clip(b, 0.0, 1.0) + np.sum([a, b])
    by_tape = tape.grad(f)(2.0, 0.5)
    h = 1e-6
    numeric = ((f(2.0 + h, 0.5) - f(2.0 - h, 0.5)) / (2 * h),
               (f(2.0, 0.5 + h) - f(2.0, 0.5 - h)) / (2 * h))
    assert np.allclose(by_tape, numeric)


def test_a_value_meets_a_data_array_in_numpys_functions():
    def f(s, X):
        return np.sum(np.maximum(X, s) ** 2) + np.sum(np.where(X > 0, s, X)) + np.sum(
            np.clip(X, -s, s))
    X = _x(seed=1)
    check_grad(f, (0.3, X), wrt=(0,))


@pytest.mark.parametrize("call", [
    lambda x: np.sum(x ** 2), lambda x: np.mean(x) * np.max(x),
    lambda x: np.where(x > 0, x * x, 0.0), lambda x: np.sum(np.stack([x, 2.0 * x])),
    lambda x: np.mean([x, x * 2.0]), lambda x: np.dot(x, np.arange(3.0)).sum(),
], ids=["sum", "mean max", "where", "stack", "list", "dot data"])
def test_numpys_array_functions_of_a_number_parameter(call):
    """np.sum(v) of a scalar Value (numpy's own refuses it) is the tape's too."""
    check_grad(call, (1.3,), wrt=(0,))
