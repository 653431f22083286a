"""The optimizer's rewrites that bring array gradients to what a hand-written one costs,
each shown on generated text before (not optimized) and after; the benchmark workloads
(``benchmarks/array_workloads.py``) optimized equal to unoptimized to the last bit, in
float64 and float32, with nan, inf, -0.0 and empty arrays put in; float32 arrays give
float32 gradients, and the sweeps pass their check, where a state starts as float64.
"""

import pathlib
import sys
import tracemalloc

import numpy as np
import pytest

import symdiff

try:
    from optimize.test_arrays import assert_same_gradients, normal, outcome, source
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.optimize.test_arrays import assert_same_gradients, normal, outcome, source

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


def unused_product(x, y):
    s = np.sum(x * y)  # noqa: F841 (nothing needs it, but it raises where the shapes differ)
    return np.sum(x * x)


def unused_mean(x):
    m = 0.5 * np.sum(x * x) / x.shape[0]  # noqa: F841 (a NumPy float: inf or nan where x is empty)
    return np.sum(np.tanh(x)) + 0.0 * x.size


def rooted(x):
    c = np.tanh(x)
    e = np.log1p(c)
    return np.sum(np.sqrt(e) * c)


def absolute(x):
    return np.sum(np.abs(x) * x)


def pairwise_sums(X):
    sq = np.sum(X * X, axis=1)
    return np.sum(np.exp(-(sq[:, None] + sq[None, :])))


def kept_then_taken(x, y):
    return np.sum(np.tanh(x[:, None, :] * y))


def gram(X):
    return np.sum(np.tanh(X @ X.T))


def row_means(X):
    return np.sum(np.sin(np.mean(X, axis=-1)))


# --- each rewrite, before and after ----------------------------------------------------

@pytest.mark.parametrize("name, summed, dead", [
    ("stencil", "mul_result.sum()", "lap * lap"),
    ("masked", "where_result.sum()", "where_result.sum()"),
    ("mlp", "mul_result.sum()", "mul_result.sum()")])
def test_a_reduction_only_the_value_needs_goes(name, summed, dead):
    workload = array_workloads.make(name, "small")
    before = source(workload.fn, workload.point, workload.wrt, False)
    after = source(workload.fn, workload.point, workload.wrt, True)
    assert summed in before and dead not in after


def test_a_product_of_arrays_of_unproven_shapes_stays_though_unused():
    args = (normal(5), normal(5))
    after = source(unused_product, args, ("x", "y"), True)
    assert "x * y" in after
    bad = (normal(5), normal(4))
    for optimize in (True, False):
        built = symdiff.grad(unused_product, wrt="x", optimize=optimize)
        assert outcome(built, bad) == ("raises", ValueError)


def test_a_numpy_float_divided_by_a_length_raises_nothing_so_goes():
    args = (normal(6),)
    before = source(unused_mean, args, "x", False)
    after = source(unused_mean, args, "x", True)
    assert "x.shape[0]" in before and "mul_m.sum()" in before
    assert ".sum(" not in after and "np.sum" not in after and "x * x" not in after
    assert_same_gradients(unused_mean, [args], "x")  # the empty x: no raise either way


def test_a_seed_of_ones_goes_once_its_value_is_known_and_one_times_an_array_too():
    args = (np.abs(normal(7)),)
    before, after = source(rooted, args, "x", False), source(rooted, args, "x", True)
    assert "np.full_like(" in before
    assert "full_like" not in after and "1.0 *" not in after
    assert_same_gradients(rooted, [args], "x")


def test_abs_of_an_array_is_differentiated_by_its_sign():
    x = np.array([-2.0, -0.0, 0.0, 3.0, np.nan, -np.inf], dtype=np.float32)
    after = source(absolute, (x,), "x", True)
    assert "np.sign(x)" in after and "np.where" not in after
    got = symdiff.grad(absolute, wrt="x")(x)
    want = symdiff.tape.grad(absolute)(x.astype(np.float64))
    assert got.dtype == np.float32
    assert np.array_equal(got, want.astype(np.float32), equal_nan=True)
    assert_same_gradients(absolute, [(x,)], "x")


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


@pytest.mark.parametrize("name", list(array_workloads.TABLE))
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


# --- a recurrence keeps one state array per step -----------------------------------------

def _peak_in_states(steps):
    """The peak memory of one gradient of the RNN workload of ``steps`` steps (what its
    call allocates, the gradients it returns left out), in state arrays (batch 8 x 32)."""
    rng = np.random.default_rng(5)
    args = array_workloads._rnn(rng, steps, 32, 8, 4)
    gradient = symdiff.grad(array_workloads.rnn, wrt=("Wh", "Wx", "b"))
    gradient(*args)  # built before the memory is traced
    tracemalloc.start()
    try:
        returned = gradient(*args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    state = args[-1].nbytes  # the target has the state's shape
    return (peak - sum(g.nbytes for g in returned)) / state


def test_the_rnn_gradient_keeps_one_state_array_per_step_and_a_few_more():
    text = source(array_workloads.rnn, array_workloads.make("rnn", "small").point,
                  ("Wh", "Wx", "b"), True)
    assert text.count("push(") == 1  # one save per step: the state before it
    short, long = _peak_in_states(20), _peak_in_states(60)
    per_step = (long - short) / 40
    assert per_step <= 1.15  # one state array a step (and its object and list slot)
    assert long - 60 * per_step <= 12  # and a few more: weights' gradients, temporaries


def test_a_read_that_only_puts_axes_in_gives_its_adjoint_back_by_a_view():
    args = (normal(5, 3),)
    before = source(pairwise_sums, args, "X", False)
    after = source(pairwise_sums, args, "X", True)
    assert "np.zeros_like(sq)" not in before and "[None, :] +=" not in before
    assert "dsq = dsq_part_1[0, :]" in before and "dsq_part[:, 0]" in before
    assert "dadd_result.sum(axis=0) + dadd_result.sum(axis=1)" in after
    assert "expand_dims" not in after and "dsq[:, None] * " in after
    assert_same_gradients(pairwise_sums, [args, (normal(1, 3),)], "X")


@pytest.mark.parametrize("args", [(normal(4, 3), normal(5, 3)), (normal(4, 1), normal(5, 3)),
                                  (normal(1, 3), normal(1, 3))])
def test_kept_axes_taken_out_again_and_broadcasts_undone_agree_bit_for_bit(args):
    assert_same_gradients(kept_then_taken, [args], ("x", "y"))


def test_a_mean_over_the_last_axis_is_spread_back_by_an_index():
    args = (normal(4, 6),)
    after = source(row_means, args, "X", True)
    assert "[:, None]" in after and "expand_dims" not in after
    assert_same_gradients(row_means, [args], "X")
    got = symdiff.grad(row_means)(*args)
    want = symdiff.tape.grad(row_means)(*args)
    assert np.allclose(got, want, rtol=1e-12, atol=0)


def test_a_transpose_of_a_transpose_is_the_array():
    args = (normal(4, 3),)
    before, after = source(gram, args, "X", False), source(gram, args, "X", True)
    assert "@ transpose_result.T" in before and "@ transpose_result.T" not in after
    assert "dX = dmatmul_result @ X\n" in after
    assert_same_gradients(gram, [args, (normal(1, 3),), (normal(5, 1),)], "X")
