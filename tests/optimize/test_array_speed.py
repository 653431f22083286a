"""The optimizer's rewrites that bring array gradients to what a hand-written one costs,
each shown on generated text before (not optimized) and after; the benchmark workloads
(``benchmarks/array_workloads.py``) optimized equal to unoptimized to the last bit, in
float64 and float32, with nan, inf, -0.0 and empty arrays put in; float32 arrays give
float32 gradients, and the sweeps pass their check, where a state starts as float64.
"""

import pathlib
import sys

import numpy as np
import pytest

import symdiff

try:
    from optimize.test_arrays import assert_same_gradients, normal, source
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.optimize.test_arrays import assert_same_gradients, normal, source

BENCHMARKS = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import array_workloads  # noqa: E402


def energy(u):
    lap = u[:-2] - 2.0 * u[1:-1] + u[2:]
    return 0.5 * np.sum(lap * lap)


def quadratic(K, alpha):
    return alpha @ (K @ alpha)


def state_from_zeros(W, xs):
    h = np.zeros((xs.shape[1], W.shape[0]))
    for t in range(xs.shape[0]):
        h = np.tanh(h @ W + xs[t])
    return np.sum(h * h)


# --- each rewrite, before and after ----------------------------------------------------

def test_a_value_added_to_itself_is_doubled():
    args = (normal(9),)
    before, after = source(energy, args, "u", False), source(energy, args, "u", True)
    assert "dmul_result * lap + dmul_result * lap" in before
    assert "dlap = 2.0 * (0.5 * lap)" in after and "full_like" not in after


def test_a_negation_goes_into_an_array_accumulation():
    args = (normal(9),)
    after = source(energy, args, "u", True)
    assert "du[1:-1] -= dlap * 2.0" in after and "+= -" not in after


def test_one_times_an_array_is_the_array():
    args = (normal(4, 4), normal(4))
    before = source(quadratic, args, ("K", "alpha"), False)
    after = source(quadratic, args, ("K", "alpha"), True)
    assert "dmatmul_result = dresult * alpha" in before
    assert "1.0 *" not in after and "dmatmul_result" not in after
    assert "np.outer(alpha, alpha)" in after


def trig(x):
    return np.sum(np.sin(x) ** 2 + np.cos(x) ** 2 * x)


def test_one_times_a_float_array_read_by_arithmetic_is_the_array():
    """``1.0 * c - 1.0 * x * s`` of float arrays is ``c - x * s``: each product with one
    is a new array of the same values and dtype, which the sum makes anew anyway."""
    for dtype in (np.float64, np.float32):
        args = (normal(5).astype(dtype),)
        after = source(trig, args, "x", True)
        assert "1.0 *" not in after and "dx = (pow_result_1 - x * (2 * cos_result)" in after
        assert_same_gradients(trig, [args, (np.array([np.nan, -0.0, np.inf], dtype),)], "x")


def test_an_array_length_is_an_int_so_one_times_its_inverse_goes():
    workload = array_workloads.make("mlp", "small")
    after = source(workload.fn, workload.point, workload.wrt, True)
    assert "np.divide(1.0, X_length)" in after and "1.0 *" not in after


# --- the benchmark workloads, to the last bit -------------------------------------------

def _as(point, dtype):
    return tuple(p.astype(dtype) if isinstance(p, np.ndarray) and p.dtype.kind == "f" else p
                 for p in point)


WORKLOADS = [pytest.param(name, dtype, id=f"{name}-{dtype.__name__}")
             for name in array_workloads.TABLE for dtype in (np.float64, np.float32)]


@pytest.mark.parametrize("name, dtype", WORKLOADS)
def test_workload_optimized_equals_unoptimized(name, dtype):
    workload = array_workloads.make(name, "small")
    assert_same_gradients(workload.fn, [_as(workload.point, dtype)], workload.wrt)


# --- float32 stays float32 --------------------------------------------------------------

def test_a_float32_state_started_as_float64_zeros(monkeypatch):
    monkeypatch.setenv("SYMDIFF_CHECK_IR", "1")
    W, xs = normal(3, 3, dtype=np.float32) / 2, normal(4, 2, 3, dtype=np.float32)
    dW = symdiff.grad(state_from_zeros, wrt="W")(W, xs)
    assert dW.dtype == np.float32
    h = np.zeros((2, 3))  # float64, as the function's own state: its steps are float64
    states = [h]
    for t in range(4):
        states.append(np.tanh(states[-1] @ W + xs[t]))
    dh, want = 2.0 * states[-1], np.zeros((3, 3))
    for t in range(3, -1, -1):
        dpre = dh * (1.0 - states[t + 1] ** 2)
        want += states[t].T @ dpre
        dh = dpre @ W.T
    assert np.allclose(dW, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["logistic", "mlp", "rnn", "stencil", "kernel"])
def test_workload_gradients_of_float32_are_float32(name, monkeypatch):
    monkeypatch.setenv("SYMDIFF_CHECK_IR", "1")
    workload = array_workloads.make(name, "small")
    point = _as(workload.point, np.float32)
    got = symdiff.grad(workload.fn, wrt=workload.wrt)(*point)
    params = list(workload.fn.__code__.co_varnames)
    for gradient, param in zip(got, workload.wrt):
        given = point[params.index(param)]
        if isinstance(given, np.ndarray):
            assert gradient.dtype == np.float32, (name, param)


def test_a_negated_array_times_a_constant_takes_the_sign():
    workload = array_workloads.make("kernel", "small")
    before = source(workload.fn, workload.point, workload.wrt, False)
    after = source(workload.fn, workload.point, workload.wrt, True)
    assert "dmul_D = -dD" in before
    assert "dD * -2.0" in after and "-dD" not in after
