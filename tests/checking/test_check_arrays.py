"""check on NumPy arrays: element rows, random directions, the tape column, the locator.

A right gradient passes; a wrong one (a rule given with ``defgrad`` that treats a mask as
constant, or a built gradient changed on purpose) is caught by the element rows, by the
directions and, for a rule, by the rule check and the locator, which names the line.
The tape engine may not take arrays yet: where it raises, its column is not available
and never a failure; where it runs (a stand-in here: finite differences of the function,
independent of symdiff), the column is compared.
"""

import numpy as np
import pytest

import symdiff
import symdiff.api
from symdiff import tape
from symdiff.checking.arrays import ELEMENT_LIMIT
from symdiff.checking.locate_arrays import locate_by_differences
from symdiff.checking.report import NotAvailable
from symdiff.specialized import container_kinds
from symdiff.witnesses.finite import central_difference
from tests.wrong_builds import built_wrong

RNG = np.random.default_rng(20261202)


def normal(*shape, dtype=np.float64):
    return RNG.normal(size=shape).astype(dtype)


def layer(W, b, X):
    return np.sum(np.tanh(X @ W + b))


def mlp(params, X, y):
    h = np.tanh(X @ params["W1"] + params["b1"])
    out = h @ params["W2"]
    return np.mean((out - y) ** 2)


def soft_mask(x, threshold):
    return 1.0 / (1.0 + np.exp(-8.0 * (x - threshold)))


def masked_error(x, threshold):
    return soft_mask(x, threshold) * (x - 1.0) ** 2


def masked_error_dx(x, threshold, out):
    return soft_mask(x, threshold) * 2.0 * (x - 1.0)  # the mask taken as constant


def masked_error_right(x, threshold):
    return soft_mask(x, threshold) * (x - 1.0) ** 2


def masked_error_right_dx(x, threshold, out):
    mask = soft_mask(x, threshold)
    return 8.0 * mask * (1.0 - mask) * (x - 1.0) ** 2 + mask * 2.0 * (x - 1.0)


symdiff.defgrad(masked_error, masked_error_dx, None)
symdiff.defgrad(masked_error_right, masked_error_right_dx, None)


def masked_loss(w, X):
    h = X @ w
    e = masked_error(h, 0.5)
    s = np.tanh(e)
    return np.sum(s * s)


def masked_loss_right(w, X):
    h = X @ w
    e = masked_error_right(h, 0.5)
    s = np.tanh(e)
    return np.sum(s * s)


def layer_point(dtype=np.float64):
    return normal(3, 2, dtype=dtype), normal(2, dtype=dtype), normal(4, 3, dtype=dtype)


def mlp_point(dtype=np.float64):
    params = {"W1": normal(3, 4, dtype=dtype), "b1": normal(4, dtype=dtype),
              "W2": normal(4, dtype=dtype)}
    return params, normal(5, 3, dtype=dtype), normal(5, dtype=dtype)


def tape_column_is_honest(report):
    """Every row agrees; a tape column left out is said so in a note."""
    if any(isinstance(r.tape, NotAvailable) for r in report.rows):
        assert any(n.startswith("tape: not available for arrays") for n in report.notes)


# --- a right gradient passes ------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_layer_by_every_element_and_along_directions(dtype):
    report = symdiff.check(layer, layer_point(dtype), wrt=("W", "b"))
    assert report.ok, str(report)
    labels = [r.param for r in report.rows]
    assert labels == ([f"W[{i}, {j}]" for i in range(3) for j in range(2)] + ["b[0]", "b[1]"]
                      + [f"W along v{k}" for k in (1, 2, 3)]
                      + [f"b along v{k}" for k in (1, 2, 3)])
    assert "float32" in report.notes[0] if dtype == np.float32 else "float64" in report.notes[0]
    tape_column_is_honest(report)
    assert "check layer: ok" in str(report) and "W[1, 0]" in str(report)


def test_a_dict_of_weight_arrays_by_path():
    report = symdiff.check(mlp, mlp_point(), wrt="params")
    assert report.ok, str(report)
    labels = [r.param for r in report.rows]
    assert labels[0] == 'params["W1"][0, 0]' and 'params["W1"][2, 3]' in labels
    assert 'params["b1"][3]' in labels and labels[-1] == "params along v3"
    assert len(labels) == 12 + 4 + 4 + 3


def test_a_list_of_arrays_and_a_loop():
    def rnn(W, xs):
        h = xs[0] * 0.0
        for t in range(xs.shape[0]):
            h = np.tanh(W @ h + xs[t])
        return np.sum(h)

    report = symdiff.check(rnn, (normal(3, 3) * 0.5, normal(4, 3)), wrt="W")
    assert report.ok, str(report)

    def pair(ws, x):
        return np.sum(ws[0] * x) + np.sum(np.exp(ws[1]) * x)

    report = symdiff.check(pair, ([normal(2), normal(2)], normal(2)), wrt="ws")
    assert report.ok, str(report)
    assert [r.param for r in report.rows][:4] == ["ws[0][0]", "ws[0][1]", "ws[1][0]",
                                                  "ws[1][1]"]


def test_large_arrays_are_sampled_and_the_report_says_so():
    def f(A):
        return np.sum(np.sin(A) * A)

    A = normal(30, 20)
    report = symdiff.check(f, (A,))
    assert report.ok, str(report)
    elements = [r for r in report.rows if "along" not in r.param]
    assert len(elements) == ELEMENT_LIMIT
    assert any(f"{ELEMENT_LIMIT} of the 600 array elements" in n for n in report.notes)
    again = symdiff.check(f, (A,))
    assert [r.param for r in again.rows] == [r.param for r in report.rows]


def test_random_points_from_an_array_example():
    def f(A):
        return np.sum(np.sin(A) * A)

    example = normal(2, 2, dtype=np.float32)
    report = symdiff.check(f, example=(example,), samples=2, domain=(0.1, 2.0))
    assert report.ok and len(report.rows) == 2 * (4 + 3)
    first, second = report.rows[0].point[0], report.rows[-1].point[0]
    assert first.dtype == np.float32 and first.shape == (2, 2)
    assert not np.array_equal(first, second) and not np.array_equal(first, example)
    assert np.all((first >= 0.1) & (first <= 2.0))


# --- a wrong gradient is caught ---------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_one_wrong_element_is_caught(monkeypatch, dtype):
    def change(gradient):
        dW, db = (np.array(g, copy=True) for g in gradient)
        dW[1, 0] *= 1.5
        return dW, db
    built_wrong(monkeypatch, change)
    report = symdiff.check(layer, layer_point(dtype), wrt=("W", "b"))
    assert not report.ok
    failing = [r.param for r in report.rows if not r.status.startswith("ok")]
    assert "W[1, 0]" in failing and not any(p.startswith("W[") and p != "W[1, 0]"
                                            for p in failing)
    assert not any(p.startswith("b") for p in failing)
    assert any(p.startswith("W along") for p in failing)


def test_a_gradient_of_the_wrong_shape_is_caught(monkeypatch):
    built_wrong(monkeypatch, lambda gradient: (gradient[0].T, gradient[1]))
    report = symdiff.check(layer, layer_point(), wrt=("W", "b"))
    assert not report.ok
    assert "has the shape (2, 3), not (3, 2)" in report.rows[0].status


def test_a_rule_treating_the_mask_as_constant_is_caught_and_located():
    own = np.random.default_rng(0)  # its own draws: the point is not the order the tests ran in
    point = (own.normal(size=3), own.normal(size=(6, 3)))
    report = symdiff.check(masked_loss, point, wrt="w")
    assert not report.ok
    assert any(not r.status.startswith("ok") for r in report.rows if "along" in r.param)
    assert [p.function for p in report.rule_problems] == ["masked_error"]
    assert report.divergences, str(report)
    assert report.divergences[0].text == "e = masked_error(h, 0.5)"
    assert report.divergences[0].witness == "finite differences"
    assert "diverges:" in str(report) and "finite differences" in str(report)


def test_the_right_rule_passes_and_nothing_is_located():
    own = np.random.default_rng(0)  # its own draws: the point is not the order the tests ran in
    point = (own.normal(size=3), own.normal(size=(6, 3)))
    report = symdiff.check(masked_loss_right, point, wrt="w")
    assert report.ok, str(report)
    assert not report.divergences and not report.rule_problems
    gradient = symdiff.api.build(masked_loss_right, ("w",), prefer="active",
                                 kinds=container_kinds(masked_loss_right, point))
    assert locate_by_differences(gradient.program, ["w"], point, {}) is None
    wrong = symdiff.api.build(masked_loss, ("w",), prefer="active",
                              kinds=container_kinds(masked_loss, point))
    found = locate_by_differences(wrong.program, ["w"], point, {})
    assert found is not None and found.text == "e = masked_error(h, 0.5)"


# --- the tape column turns on where the tape takes arrays --------------------------------

def differences_as_tape(scale):
    """A stand-in tape gradient on arrays: central differences of the function, times
    ``scale`` (1 for a right tape)."""
    def grad(fn, wrt):
        names = fn.__code__.co_varnames[:fn.__code__.co_argcount]

        def gradient(*args):
            found = []
            for name in wrt:
                i = names.index(name)
                g = np.zeros_like(args[i])
                for index in np.ndindex(g.shape):
                    g[index] = scale * central_difference(fn, args, (i, index))[0]
                found.append(g)
            return tuple(found)
        return gradient
    return grad


def test_a_tape_that_takes_arrays_is_compared(monkeypatch):
    monkeypatch.setattr(tape, "grad", differences_as_tape(1.0))
    report = symdiff.check(layer, layer_point(), wrt=("W", "b"), rtol=1e-5, atol=1e-7)
    assert report.ok, str(report)
    assert not any(isinstance(r.tape, NotAvailable) for r in report.rows)
    assert not any(n.startswith("tape: not available") for n in report.notes)
    monkeypatch.setattr(tape, "grad", differences_as_tape(2.0))
    report = symdiff.check(layer, layer_point(), wrt=("W", "b"))
    assert not report.ok
    assert all("tape differs" in r.status for r in report.rows)


def test_the_element_witness_moves_one_element_only():
    W = normal(2, 3)
    before = W.copy()

    def f(W):
        return float(np.sum(W ** 3))
    estimate, steadiness = central_difference(f, (W,), (0, (1, 2)))
    assert steadiness == "steady" and np.isclose(estimate, 3 * W[1, 2] ** 2, rtol=1e-6)
    assert np.array_equal(W, before)
    single = W.astype(np.float32)
    estimate, steadiness = central_difference(f, (single,), (0, (0, 1)))
    assert steadiness == "steady" and np.isclose(estimate, 3 * single[0, 1] ** 2, rtol=1e-2)


def test_a_number_checked_where_the_data_are_arrays(monkeypatch):
    def f(c, X):
        return np.sum(np.tanh(X * c))

    point = (0.7, normal(4))
    report = symdiff.check(f, point, wrt="c")
    assert report.ok, str(report)
    assert [r.param for r in report.rows] == ["c"]
    assert not any("timed out" in n for n in report.notes)
    tape_column_is_honest(report)
    built_wrong(monkeypatch, lambda gradient: 1.01 * gradient)
    report = symdiff.check(f, point, wrt="c")
    # the witnesses that disagree name the failure: the tape, where it runs on arrays, and
    # sympy, which reads the small arrays element by element
    assert not report.ok and report.rows[0].status in ("tape differs, sympy differs",
                                                      "finite differences differ")
    assert report.rows[0].witnesses == ("tape", "sympy", "finite differences")
