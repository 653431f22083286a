"""Reports: ``print``, logging and ``warnings.warn`` in the function differentiated.

They are called in the gradient's forward sweep where the function calls them, with the
values the function has there, and never differentiated: the gradient prints (logs,
warns) what the function prints.  Each gradient is checked against the tape, sympy and
finite differences (``symdiff.check``), each of which steps over the reports or makes them.
"""

import inspect
import logging
import math
import warnings

import numpy as np
import pytest

import symdiff

LOG = logging.getLogger("symdiff.tests.reports")


def printed(x):
    y = x ** 2
    print("y is", y)
    return y + math.sin(x)


def printed_in_a_loop(xs):
    s = 0.0
    for i, x in enumerate(xs):
        s += x * x
        print(f"step {i}: {s:.3f}", end=";")
    return s


def _report(value):
    print(f"helper saw {value:.2f}")
    return value * 3.0


def printed_in_a_helper(x):
    return _report(x * x) + x


def logged_and_warned(x, w):
    z = math.exp(x) * w
    LOG.info("z=%.3f", z)
    if z > 10.0:
        warnings.warn(f"large z {z:.1f}")
    return z


def printed_array(W, x):
    h = np.tanh(W @ x)
    print("h", np.round(h, 3), h.shape)
    return np.sum(h)


def printed_dict(params, x):
    print(params)
    return params["w"] * x + params["b"]


def _out(capsys, fn, *args):
    fn(*args)
    return capsys.readouterr().out


@pytest.mark.parametrize("fn, args", [
    (printed, (1.5,)), (printed_in_a_loop, ([0.5, 1.0, -2.0],)), (printed_in_a_helper, (0.7,)),
    (printed_array, (np.eye(2) * 0.5, np.array([1.0, -2.0]))),
    (printed_dict, ({"w": 0.5, "b": 1.5}, 2.0))])
def test_the_gradient_prints_what_the_function_prints(capsys, fn, args):
    expected = _out(capsys, fn, *args)
    assert expected
    gradient = symdiff.grad(fn)
    gradient(*args)  # built and called: the build prints nothing
    assert capsys.readouterr().out == expected
    assert _out(capsys, gradient, *args) == expected
    assert _out(capsys, symdiff.value_and_grad(fn), *args) == expected
    assert symdiff.check(fn, args).ok


def test_the_print_stands_in_the_generated_code_at_its_line(capsys):
    gradient = symdiff.grad(printed)
    gradient(1.5)
    text = gradient.source
    line = inspect.getsourcelines(printed)[1] + 2
    assert f"# line {line}: print(\"y is\", y)\n    print('y is', y)" in text
    assert text.index("print(") < text.index("reverse sweep")


def test_forward_mode_and_second_order_print_too(capsys):
    expected = _out(capsys, printed, 0.3)
    assert _out(capsys, symdiff.jvp(printed), 0.3, 1.0) == expected
    hessian = symdiff.hessian(printed)(0.3)
    assert hessian == pytest.approx(2.0 - math.sin(0.3), rel=1e-12)


def test_logging_and_warnings_are_made_by_the_gradient(caplog):
    gradient = symdiff.grad(logged_and_warned)
    with caplog.at_level(logging.INFO, logger="symdiff.tests.reports"):
        with pytest.warns(UserWarning, match="large z"):
            dx, dw = gradient(1.5, 3.0)
    assert any("z=13.445" in record.getMessage() for record in caplog.records)
    assert (dx, dw) == pytest.approx((math.exp(1.5) * 3.0, math.exp(1.5)), rel=1e-13)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gradient(0.1, 1.0)  # z small: no warning
    assert symdiff.check(logged_and_warned, (0.1, 1.0)).ok
