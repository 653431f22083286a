"""The tape's ``vjp`` (``symdiff.witnesses.tape.pullbacks``): the pullback of array-,
number- and container-valued functions, against central finite differences along random
directions, and its refusals."""

import numpy as np
import pytest

from symdiff import tape
from symdiff.errors import SymdiffError

from .array_checks import numeric_jvp


def _check(f, args, wrt, seed=0):
    rng = np.random.default_rng(seed)
    value, pullback = tape.vjp(f, wrt=tuple(wrt))(*args)
    plain = f(*args)
    flat_value = _flat(value)
    assert np.allclose(flat_value, _flat(plain))
    cotangent = _like(plain, rng)
    grads = pullback(cotangent)
    directions = [rng.normal(size=np.shape(args[i])) for i in wrt]
    by_tape = sum(float(np.sum(np.asarray(g) * v)) for g, v in zip(grads, directions))
    flat_f = lambda *a: _flat(f(*a))  # noqa: E731
    by_numbers = float(np.sum(_flat(cotangent) * numeric_jvp(flat_f, args, wrt, directions)))
    assert np.isclose(by_tape, by_numbers, rtol=1e-6, atol=1e-8), (by_tape, by_numbers)
    again = pullback(cotangent)  # the pullback may be called again: the same gradient
    assert all(np.array_equal(a, b) for a, b in zip(grads, again))


def _flat(x):
    if isinstance(x, dict):
        return np.concatenate([_flat(v) for v in x.values()])
    if isinstance(x, (tuple, list)):
        return np.concatenate([_flat(v) for v in x])
    return np.ravel(np.asarray(x, dtype=float))


def _like(x, rng):
    if isinstance(x, dict):
        return {k: _like(v, rng) for k, v in x.items()}
    if isinstance(x, (tuple, list)):
        return type(x)(_like(v, rng) for v in x)
    return rng.normal(size=np.shape(x)) if np.ndim(x) else float(rng.normal())


def test_an_array_valued_function():
    W, x = np.random.default_rng(1).normal(size=(3, 4)), np.random.default_rng(2).normal(size=4)
    _check(lambda W, x: np.tanh(W @ x), (W, x), (0, 1))


def test_a_container_of_arrays_and_numbers():
    def f(W, s):
        h = W * s
        return {"h": h, "total": np.sum(h), "pair": (h[0], s * s)}
    _check(f, (np.random.default_rng(3).normal(size=(2, 3)), 0.7), (0, 1))


def test_a_result_that_does_not_depend_on_the_parameter():
    value, pullback = tape.vjp(lambda x, y: (x * 2.0, np.ones(3), y))(np.ones(2), np.ones(3))
    gx, gy = pullback((np.ones(2), np.ones(3), np.full(3, 0.5)))
    assert np.array_equal(gx, [2.0, 2.0]) and np.array_equal(gy, np.full(3, 0.5))
    _, pullback = tape.vjp(lambda x, y: x * 2.0)(np.ones(2), np.ones(3))
    assert np.array_equal(pullback(np.ones(2))[1], np.zeros(3))


def test_a_cotangent_of_the_wrong_shape_is_refused():
    _, pullback = tape.vjp(lambda x: x * 2.0)(np.ones(2))
    with pytest.raises(SymdiffError, match="shape"):
        pullback(np.ones(3))
