"""The public API: its shapes, its attributes, its errors and its cache."""

import importlib.util
import inspect
import math
import time
import subprocess
import sys
import traceback

import pytest

import symdiff
from symdiff import grad
from symdiff.errors import SymdiffError
from symdiff.analysis.graph import Graph

SCALE = 2.0
FACTOR = 3.0


def f(x, y):
    z = x * y
    return SCALE * z + math.sin(x)


def three(x, y, z):
    return x * y * y + 2.0 * z


def one(x):
    return x * x * x


def log_of(x):
    y = x * 2.0
    return math.log(y) + y


def scaled_by_factor(x):
    return FACTOR * x


@grad
def bare(x, y):
    return x * y + math.sin(x)


@grad(wrt="x")
def only_x(x, y):
    return x * x * y


@grad
def uses_later_helper(x):
    return later_helper(x) * 2.0


def later_helper(t):
    return t * t + SCALE


def fd(fn, args, i, h=1e-6):
    up, down = list(args), list(args)
    up[i] += h
    down[i] -= h
    return (fn(*up) - fn(*down)) / (2 * h)


# --- shapes ----------------------------------------------------------------------------------

def test_bare_decorator():
    assert bare(1.0, 2.0) == pytest.approx((2.0 + math.cos(1.0), 1.0))
    assert isinstance(bare(1.0, 2.0), tuple)
    assert bare.fn(1.0, 2.0) == pytest.approx(2.0 + math.sin(1.0))


def test_decorator_with_wrt_returns_one_float():
    value = only_x(3.0, 2.0)
    assert isinstance(value, float)
    assert value == 12.0


def test_one_parameter_gives_a_float_not_a_tuple():
    value = grad(one)(2.0)
    assert isinstance(value, float) and value == 12.0


def test_wrt_by_name_index_and_tuple_order():
    args = (1.5, 2.0, 3.0)
    dx, dy, dz = grad(three)(*args)
    assert (dx, dy, dz) == (4.0, 6.0, 2.0)
    assert grad(three, wrt="y")(*args) == dy
    assert grad(three, wrt=1)(*args) == dy
    assert grad(three, wrt=-1)(*args) == dz
    assert grad(three, wrt=("z", "x"))(*args) == (dz, dx)
    assert grad(three, wrt=(2, 0))(*args) == (dz, dx)
    assert grad(three, wrt=("y", 0))(*args) == (dy, dx)
    assert grad(three, wrt=("y",))(*args) == (dy,)  # a tuple asks for a tuple


def test_gradient_attributes():
    g = grad(f)
    assert g.fn is f
    assert g.__name__ == "grad_f"
    assert isinstance(g.source, str) and "def grad_f(x, y):" in g.source
    assert isinstance(g.graph, Graph)
    assert [n.output for n in g.graph.nodes][:2] == ["x", "y"]


def test_source_is_the_same_text():
    assert symdiff.source(f) == grad(f).source
    assert symdiff.source(three, wrt="y") == grad(three, wrt="y").source


def test_value_and_grad():
    value, gradient = symdiff.value_and_grad(f)(1.0, 2.0)
    assert value == f(1.0, 2.0)
    assert gradient == grad(f)(1.0, 2.0)
    value, dy = symdiff.value_and_grad(three, wrt="y")(1.5, 2.0, 3.0)
    assert value == three(1.5, 2.0, 3.0) and dy == 6.0


def test_gradient_is_correct_against_finite_differences():
    args = (0.3, -1.7)
    assert grad(f)(*args) == pytest.approx((fd(f, args, 0), fd(f, args, 1)), rel=1e-6)


# --- the generated text ----------------------------------------------------------------------

def getsource_subject(x, y):
    return x * y + math.cos(y)


def test_inspect_getsource_shows_the_generated_function():
    g = grad(getsource_subject)
    shown = inspect.getsource(g)
    assert shown.startswith("def grad_getsource_subject(x, y):")
    assert shown in g.source


def variants_subject(x, y):
    z = x * y
    return 2.0 * z + math.sin(x)


def test_getsource_is_right_for_every_variant_of_a_gradient():
    g = grad(variants_subject)
    others = [symdiff.value_and_grad(variants_subject), grad(variants_subject, wrt="y"),
              grad(variants_subject, optimize=False)]
    assert inspect.getsource(g) in g.source
    for other in others:
        assert inspect.getsource(other) in other.source


def test_traceback_shows_generated_lines():
    g = grad(log_of)
    with pytest.raises(ValueError) as info:
        g(-1.0)
    frames = [frame for frame in traceback.extract_tb(info.value.__traceback__)
              if frame.filename.startswith("<symdiff")]
    assert frames, "no frame of the generated function"
    line = frames[-1].line
    assert line and "log" in line
    assert line in g.source
    assert frames[-1].name == "grad_log_of"


def test_generated_text_runs_standalone():
    g = grad(f)
    assert "symdiff" not in g.source
    namespace = {"SCALE": 2.0}
    exec(compile(g.source, "<standalone>", "exec"), namespace)
    standalone = namespace["grad_f"]
    for args in [(1.0, 2.0), (-0.5, 0.25)]:
        assert standalone(*args) == g(*args)


def test_generated_text_with_a_helper_runs_standalone():
    uses_later_helper(1.0)  # build it
    namespace = {"SCALE": SCALE}
    exec(compile(uses_later_helper.source, "<standalone>", "exec"), namespace)
    assert namespace["grad_uses_later_helper"](3.0) == 12.0


# --- errors ---------------------------------------------------------------------------------

def bool_subject(x, y, z):
    return x * y * z


@pytest.mark.parametrize("wrt", ["w", 3, -4, "x; import os", (), ("x", "nope"), 1.5, True],
                         ids=["unknown", "index", "negative-index", "injection", "empty",
                              "one-unknown", "float", "bool"])
def test_invalid_wrt_raises(wrt):
    with pytest.raises(SymdiffError):
        gradient = grad(bool_subject, wrt=wrt)
        gradient(1.0, 2.0, 3.0)


def test_invalid_wrt_is_refused_even_after_a_valid_equal_one():
    assert grad(three, wrt=1)(1.0, 2.0, 3.0) == 4.0
    for wrt in (True, 1.0):
        with pytest.raises(SymdiffError):
            grad(three, wrt=wrt)(1.0, 2.0, 3.0)


def test_invalid_wrt_raises_for_value_and_grad_and_source():
    with pytest.raises(SymdiffError):
        symdiff.value_and_grad(three, wrt="nope")(1.0, 2.0, 3.0)
    with pytest.raises(SymdiffError):
        symdiff.source(three, wrt=7)


# --- building later, and caching --------------------------------------------------------------

def test_helper_defined_after_the_decorated_function():
    assert uses_later_helper(3.0) == 12.0
    assert uses_later_helper.__name__ == "grad_uses_later_helper"
    assert uses_later_helper.fn.__name__ == "uses_later_helper"
    assert "def grad_uses_later_helper(x):" in uses_later_helper.source
    assert uses_later_helper.graph.nodes


def cached_subject(x, y):
    s = 0.0
    for i in range(4):
        if x > y:
            s = s + math.sin(x * i) * y
        else:
            s = s - math.cos(y * i) * x
    a = s * s + x / (1.0 + y * y)
    b = math.exp(-a) + math.log1p(a * a)
    return a * b + s


def test_second_request_is_served_from_the_cache(monkeypatch):
    import symdiff.api as api

    calls = []
    original = api.generate

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(api, "generate", counting)
    start = time.perf_counter()
    first = grad(cached_subject)
    first_time = time.perf_counter() - start
    start = time.perf_counter()
    second = grad(cached_subject)
    second_time = time.perf_counter() - start
    assert len(calls) == 1
    assert second.source == first.source
    assert second(0.3, 0.2) == first(0.3, 0.2)
    assert second_time < max(first_time, 0.05)


def test_changed_module_constant_rebuilds_the_gradient(monkeypatch):
    assert grad(scaled_by_factor)(1.0) == 3.0
    monkeypatch.setitem(scaled_by_factor.__globals__, "FACTOR", 5.0)
    assert grad(scaled_by_factor)(1.0) == 5.0


# --- numbers ----------------------------------------------------------------------------------

def product(x, y):
    return x * y


def power(x, y):
    return x ** 2 + y ** 3


def quotient(x, y):
    return x / y


def mixed(x, y):
    s = 0
    for i in range(3):
        s = s + x * i - y
    return abs(s) + max(x, y) - min(x, 5) + -x


def unused(x, y):
    return x * 2


def constant(x, y):
    return 4


@pytest.mark.parametrize("fn", [product, power, quotient, mixed, unused, constant, f],
                         ids=lambda fn: fn.__name__)
def test_integer_arguments_give_floats(fn):
    values = grad(fn)(2, 3)
    assert isinstance(values, tuple) and len(values) == 2
    for value in values:
        assert type(value) is float, (fn.__name__, values)
    assert values == pytest.approx((fd(fn, (2.0, 3.0), 0), fd(fn, (2.0, 3.0), 1)), abs=1e-6)


def test_unused_parameter_gives_zero():
    assert grad(unused)(1.5, 2.5) == (2.0, 0.0)
    dy = grad(unused, wrt="y")(1.5, 2.5)
    assert type(dy) is float and dy == 0.0
    assert grad(constant)(1.0, 2.0) == (0.0, 0.0)


# --- lambdas ------------------------------------------------------------------------------

double_and_triple = (lambda x: x * 2.0, lambda x: x * 3.0)  # two lambdas, one line
bound_lambda = lambda x, y: x * math.sin(y)  # noqa: E731 - differentiated as grad_bound_lambda


def test_a_lambda_bound_to_a_name_takes_that_name():
    gradient = grad(bound_lambda)
    assert "def grad_bound_lambda(x, y):" in gradient.source
    assert gradient(2.0, 0.5) == (math.sin(0.5), 2.0 * math.cos(0.5))


def test_lambdas_on_one_line_are_told_apart():
    first, second = (grad(fn) for fn in double_and_triple)
    assert (first(1.0), second(1.0)) == (2.0, 3.0)
    assert "def grad_lambda(x):" in first.source


def test_an_anonymous_lambda_passed_to_grad():
    gradient = grad(lambda t: math.exp(t) * t)
    assert gradient(0.5) == math.exp(0.5) * 0.5 + math.exp(0.5)
    assert symdiff.value_and_grad(lambda t: t ** 3)(2.0) == (8.0, 12.0)
    assert symdiff.check(lambda t: math.atan(t) * t).ok


# --- the generated text stands on its own ---------------------------------------------------

SELF_CONTAINED = """\
import math as m
import numpy as np
from numpy import tanh as th

SCALE = 2.5
LIMIT = float("inf")
COUNT = 3


def model(x, y):
    s = 0.0
    for i in range(COUNT):
        s += np.sin(x * SCALE) * th(y) + m.exp(-x * x) * i
    return min(s, LIMIT)
"""


def test_saved_source_runs_in_a_fresh_interpreter(tmp_path):
    module_path = tmp_path / "self_contained_model.py"
    module_path.write_text(SELF_CONTAINED)
    spec = importlib.util.spec_from_file_location("self_contained_model", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    gradient = grad(module.model)
    text = gradient.source
    assert "symdiff" not in text
    assert "import numpy as np" in text and "from numpy import tanh as th" in text
    assert "SCALE = 2.5" in text and "LIMIT = float('inf')" in text
    saved = tmp_path / "saved" / "grad_model.py"
    saved.parent.mkdir()
    saved.write_text(text + "\nprint(repr(grad_model(0.3, -0.7)))\n")
    done = subprocess.run([sys.executable, "-I", str(saved)], cwd=saved.parent,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(gradient(0.3, -0.7))


# --- tables of numbers ----------------------------------------------------------------------

LIST_TABLE = [1.0, 2.0, 0.5]


def horner_over_a_list(x):
    s = 0.0
    for c in LIST_TABLE:
        s = s * x + c
    return s


def test_a_list_changed_in_place_rebuilds_the_gradient():
    """Like a module constant, a table is read when the gradient is built: a gradient
    keeps the values it was built with, and the next ``grad`` call sees the new ones."""
    before = grad(horner_over_a_list)
    assert before(2.0) == symdiff.tape.grad(horner_over_a_list)(2.0) == 6.0
    assert "LIST_TABLE = [1.0, 2.0, 0.5]" in before.source
    LIST_TABLE[0] = 3.0
    try:
        after = grad(horner_over_a_list)
        assert after(2.0) == symdiff.tape.grad(horner_over_a_list)(2.0) == 14.0
        assert "LIST_TABLE = [3.0, 2.0, 0.5]" in after.source
        assert before(2.0) == 6.0
    finally:
        LIST_TABLE[0] = 1.0


# --- string flags ---------------------------------------------------------------------------

def scaled_by_mode(x, y, mode="square"):
    if mode == "square":
        return x * x * y
    elif mode == "cube":
        return x * x * x * y
    return x * y


def test_a_string_parameter_is_a_flag_compared_at_run_time():
    gradient = grad(scaled_by_mode, wrt=("x", "y"))
    assert "mode='square'" in gradient.source
    for mode in ("square", "cube", "linear"):
        assert gradient(1.5, 2.0, mode) == symdiff.tape.grad(
            scaled_by_mode, wrt=("x", "y"))(1.5, 2.0, mode)
    assert gradient(1.5, 2.0) == gradient(1.5, 2.0, "square")
    report = symdiff.check(scaled_by_mode, (1.5, 2.0, "cube"), (0.5, -1.0, "linear"),
                           wrt=("x", "y"))
    assert report.ok, str(report)
    assert "'cube'" in str(report)


# --- tables passed as arguments -------------------------------------------------------------

def polynomial(x, coeffs):
    s = 0.0
    for c in coeffs:
        s = s * x + c
    return s


def _weighted_sines(x, weights, scale=2.0):
    t = 0.0
    for i in range(len(weights)):
        t += weights[i] * math.sin(x * i) * scale
    return t


def least_squares(w, b, xs, ys):
    total = 0.0
    for x, y in zip(xs, ys):
        total += (w * x + b - y) ** 2
    return total


def test_tables_passed_as_arguments_zip_to_the_shortest():
    gradient = grad(least_squares, wrt=("w", "b"))
    by_tape = symdiff.tape.grad(least_squares, wrt=("w", "b"))
    for xs, ys in (([1.0, 2.0, 3.0], (0.5, 0.1)), ((0.5, -1.0), [2.0, 1.0, 7.0]), ((), ())):
        assert gradient(0.3, -0.2, xs, ys) == by_tape(0.3, -0.2, xs, ys)
    assert "min(len(xs), len(ys))" in gradient.source


def model_with_weights(x, y, weights):
    return _weighted_sines(x * y, weights) + polynomial(y, weights) + weights[0] * x


@pytest.mark.parametrize("weights", [(1.0, -0.5, 0.25), [2.0], (0.5, 1.5, -2.0, 0.75, 3.0)])
def test_a_table_parameter_is_read_when_the_gradient_runs(weights):
    gradient = grad(model_with_weights, wrt=("x", "y"))
    by_tape = symdiff.tape.grad(model_with_weights, wrt=("x", "y"))
    for point in ((0.3, 0.7), (-1.2, 0.4), (2.0, -1.5)):
        got, expected = gradient(*point, weights), by_tape(*point, weights)
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)
    report = symdiff.check(model_with_weights, (0.3, 0.7, weights), wrt=("x", "y"))
    assert report.ok, str(report)
    assert "len(weights)" in gradient.source


def test_a_container_parameter_is_differentiated_by_too():
    """``wrt=None`` takes every parameter, a tuple of coefficients included: its
    gradient is a tuple (the powers of x, Horner's rule backwards)."""
    dx, dcoeffs = grad(polynomial)(2.0, (1.0, 2.0, 3.0))
    assert dx == 6.0 and dcoeffs == (4.0, 2.0, 1.0)
    assert grad(polynomial, wrt="x")(2.0, (1.0, 2.0, 3.0)) == 6.0  # a table of data


def test_an_internal_error_is_not_a_user_error():
    """``except SymdiffError`` handles the user's mistakes and never swallows our bugs."""
    assert not issubclass(symdiff.InternalError, symdiff.SymdiffError)
    error = symdiff.InternalError("optimize", "a fold went wrong")
    assert error.pass_name == "optimize" and "bug in symdiff (pass optimize)" in str(error)
