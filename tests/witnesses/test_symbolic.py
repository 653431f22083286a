"""The sympy witness against the functions themselves and finite differences.

Every function below is an ordinary ``def`` written the way users write them.
``symbolic`` must reproduce its value (it never runs it) and sympy's derivative
of that expression must match central finite differences of the real function,
at points chosen away from kinks and jumps.
"""

import math
import math as m
import random
import time
from math import cos as cosine
from math import log, sin, sqrt

import pytest
import sympy

import symdiff
from symdiff import stop_gradient
from symdiff.errors import (RecursionCycleError, SymdiffError, UndefinedNameError,
                            UnknownFunctionError, UnsupportedSyntaxError)
from symdiff.witnesses.symbolic import (MAX_ITERATIONS, evaluate, evaluate_grad, symbolic,
                                        symbolic_grad)

try:
    import numpy as np
except ImportError:  # the numpy case skips itself
    np = None

SCALE = 2.5
POWER = 3
OFFSET = -0.25


# --- the functions under test -----------------------------------------------------------

def f_straight(x, y):
    z = x * y
    w = z + x / y - 3.0
    return w ** 2 - z + (+x) * -y


def f_trig(x):
    return math.sin(x) + math.cos(x) * math.tan(x) + math.asin(x) - math.acos(x) + math.atan(x)


def f_hyperbolic(x):
    return (math.sinh(x) * math.cosh(x) + math.tanh(x) + math.asinh(x)
            + math.acosh(1 + x * x) + math.atanh(x / 2))


def f_logs(x):
    return (math.exp(x) + math.expm1(x) + math.log(x) + math.log(x, 3) + math.log1p(x)
            + math.log2(x) + math.log10(x) + math.sqrt(x) + math.pow(x, 1.5) + pow(x, 2))


def f_two_args(x, y):
    return (math.atan2(y, x) + math.hypot(x, y) + math.erf(x - y) + math.erfc(y) + x ** y
            + math.copysign(x, y - 1.0) * y)


def f_steps(x, y):
    return (math.floor(x) * x + math.ceil(y) * y + x // y + x % y + math.fmod(x, y)
            + math.trunc(x) * y + math.fabs(x - 3.0))


def f_builtins(x, y):
    return (abs(x - y) + min(x, y) * max(x, 2 * y) + float(x) + int(y) * x
            + min(x, y, 1.0) + max((x, y)) + pow(y, 0.5))


def f_import_styles(x):
    return math.sin(x) + m.cos(x) + sin(x) * cosine(x) + m.exp(-x) + log(sqrt(x + 2.0))


def f_constants(x):
    return (SCALE * x ** POWER + OFFSET + math.pi * x + math.e ** x + m.tau
            + min(x, math.inf))


def make_model(a, b):
    def model(x):
        return a * x ** 2 + b * sin(x)
    return model


f_closure = make_model(1.5, -2.0)


def helper(u, v=2.0):
    return u * v + sin(u)


def polar(x, y):
    return math.hypot(x, y), math.atan2(y, x)


def f_helpers(x, y):
    r, theta = polar(x, y)
    return helper(x) + helper(y, v=x) + r * theta


def f_unpacking(x, y):
    a, b = x, y
    a, b = b, a * b
    (c, d), e = (a, b), a + b
    return a * b + c - d * e


def f_augmented(x, y):
    s = x
    s += y
    s *= x
    s -= 1.0
    s /= y
    s **= 2
    return s


def f_branches(x):
    if x < -1.0:
        y = x * x
    elif x < 1.0 and not x > 0.5:
        y = math.sin(x)
    elif x < 2.0 or x > 10.0:
        y = 2.0 * x
    else:
        y = x ** 3
    return y if x < 5.0 else -y


def f_ifexp(x, y):
    return x * y if x > y else x + y


def f_loop_constant(x):
    s = 0.0
    for i in range(5):
        s = s + x ** i / (i + 1)
    for k in range(1, 10, 3):
        s = s * 0.5 + k * x
    return s


def f_loop_input_bound(x, n):
    for i in range(int(n)):
        x = x * 0.5 + math.sin(x)
    return x


def f_newton(a):
    y = a
    while abs(y * y - a) > 1e-10:
        y = y - (y * y - a) / (2 * y)
    return y


def f_break_continue(x):
    s = 0.0
    for i in range(10):
        if i == 2:
            continue
        s = s + x * i
        if s > 5.0:
            break
    return s


def f_early_return(x):
    for i in range(5):
        x = x * 1.5
        if x > 10.0:
            return x - 10.0
    return -x


def f_while_break(x):
    while True:
        x = x / 2.0
        if x < 1.0:
            break
    return x * x


def f_numpy(x, y):
    return (np.sin(x) * np.exp(y) + np.arctan(x) + np.arcsin(x / 3.0) + np.power(x, 2.0)
            + np.sqrt(y) + np.abs(x - y) + np.maximum(x, y) + np.log1p(y)
            + np.arctan2(x, y) + np.tanh(x) + np.copysign(y, x - 1.0))


def f_defaults(x, y=2.0, *, scale=3.0):
    return scale * x * y


def f_statements(x):
    """A docstring, an annotation, pass and a chained assignment."""
    t: float = x * 2.0
    pass
    u = v = t + 1.0
    return u * v


# (function, sampling box per parameter)
CASES = [
    (f_straight, [(0.5, 2.0), (0.5, 2.0)]),
    (f_trig, [(0.1, 0.8)]),
    (f_hyperbolic, [(0.1, 0.8)]),
    (f_logs, [(0.5, 3.0)]),
    (f_two_args, [(0.5, 2.0), (0.5, 2.0)]),
    (f_steps, [(1.0, 5.0), (0.6, 1.5)]),
    (f_builtins, [(0.2, 3.0), (0.2, 3.0)]),
    (f_import_styles, [(0.2, 3.0)]),
    (f_constants, [(0.2, 3.0)]),
    (f_closure, [(-2.0, 2.0)]),
    (f_helpers, [(0.5, 2.0), (0.5, 2.0)]),
    (f_unpacking, [(-2.0, 2.0), (-2.0, 2.0)]),
    (f_augmented, [(0.5, 2.0), (0.5, 2.0)]),
    (f_branches, [(-3.0, 12.0)]),
    (f_ifexp, [(0.0, 2.0), (0.0, 2.0)]),
    (f_loop_constant, [(-1.5, 1.5)]),
    (f_loop_input_bound, [(0.1, 2.0), (0.2, 6.8)]),
    (f_newton, [(1.0, 4.0)]),
    (f_break_continue, [(0.1, 2.0)]),
    (f_early_return, [(0.5, 4.0)]),
    (f_while_break, [(1.5, 40.0)]),
    (f_defaults, [(-2.0, 2.0), (-2.0, 2.0)]),
    (f_statements, [(-2.0, 2.0)]),
    pytest.param(f_numpy, [(0.2, 2.0), (0.2, 2.0)],
                 marks=pytest.mark.skipif(np is None, reason="numpy is not installed")),
]
CASE_IDS = [getattr(case, "values", case)[0].__name__ for case in CASES]


def sample(box, rng, count=4):
    return [tuple(rng.uniform(lo, hi) for lo, hi in box) for _ in range(count)]


def central_difference(fn, point, i):
    h = 1e-6 * max(1.0, abs(point[i]))
    up, down = list(point), list(point)
    up[i] += h
    down[i] -= h
    return (float(fn(*up)) - float(fn(*down))) / (2 * h)


# --- values and derivatives ---------------------------------------------------------------

@pytest.mark.parametrize("fn, box", CASES, ids=CASE_IDS)
def test_value_matches_the_function(fn, box):
    for point in sample(box, random.Random(fn.__name__)):
        assert evaluate(fn, point) == pytest.approx(float(fn(*point)), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("fn, box", CASES, ids=CASE_IDS)
def test_gradient_matches_finite_differences(fn, box):
    for point in sample(box, random.Random(fn.__name__ + "grad")):
        grads = evaluate_grad(fn, point, wrt=tuple(range(len(point))))
        for i, grad in enumerate(grads):
            expected = central_difference(fn, point, i)
            assert grad == pytest.approx(expected, rel=1e-6, abs=1e-6), (point, i)


def test_sympy_evalf_agrees_with_the_evaluator():
    point = (0.7, 1.3)
    for fn in (f_straight, f_two_args, f_steps, f_helpers):
        expr = symbolic(fn, at=point)
        subs = {sympy.Symbol(name, real=True): v for name, v in zip("xy", point)}
        assert float(expr.evalf(subs=subs)) == pytest.approx(evaluate(fn, point), rel=1e-12)


def test_expression_uses_real_symbols_named_after_the_parameters():
    x, y = sympy.symbols("x y", real=True)
    assert symbolic(f_straight).free_symbols == {x, y}
    assert symbolic(f_closure) == sympy.Float(1.5) * x ** 2 + sympy.Float(-2.0) * sympy.sin(x)
    assert symbolic(f_import_styles).free_symbols == {x}


def test_grad_shapes_follow_wrt():
    x, y = sympy.symbols("x y", real=True)
    assert symbolic_grad(f_trig) == symbolic(f_trig).diff(x)
    both = symbolic_grad(f_straight)
    assert isinstance(both, tuple) and len(both) == 2
    assert symbolic_grad(f_straight, wrt="y") == both[1]
    assert symbolic_grad(f_straight, wrt=0) == both[0]
    assert symbolic_grad(f_straight, wrt=("y", "x")) == (both[1], both[0])
    assert isinstance(evaluate_grad(f_straight, (1.0, 2.0), wrt="x"), float)
    with pytest.raises(ValueError):
        symbolic_grad(f_straight, wrt="z")


def test_keyword_defaults_are_constants_and_defaulted_parameters_symbols():
    x, y = sympy.symbols("x y", real=True)
    assert symbolic(f_defaults) == 3.0 * x * y
    assert evaluate_grad(f_defaults, {"x": 2.0, "y": 5.0}) == (15.0, 6.0)


def test_branches_follow_the_point():
    x = sympy.Symbol("x", real=True)
    assert symbolic(f_branches, at=(-2.0,)) == x ** 2
    assert symbolic(f_branches, at=(0.3,)) == sympy.sin(x)
    assert symbolic(f_branches, at=(0.7,)) == 2.0 * x
    assert symbolic(f_branches, at=(3.0,)) == x ** 3
    assert symbolic(f_branches, at=(11.0,)) == -2.0 * x


def test_input_dependent_trip_count_follows_the_point():
    x = sympy.Symbol("x", real=True)
    assert symbolic(f_while_break, at=(3.0,)) == 0.0625 * x ** 2  # halved twice
    assert symbolic(f_while_break, at=(5.0,)) == 0.015625 * x ** 2  # three times
    assert evaluate_grad(f_loop_input_bound, (0.5, 3.5))[1] == 0.0


def test_newton_converges_to_the_square_root():
    assert evaluate(f_newton, (2.0,)) == pytest.approx(math.sqrt(2.0), rel=1e-10)
    assert evaluate_grad(f_newton, (2.0,)) == pytest.approx(0.5 / math.sqrt(2.0), rel=1e-8)


def test_stop_gradient_is_a_constant_with_a_value():
    def f(x, y):
        return stop_gradient(x * y) * x + symdiff.stop_gradient(y) * y

    for point in [(0.5, 2.0), (-1.5, 0.25)]:
        x, y = point
        assert evaluate(f, point) == pytest.approx(f(*point), rel=1e-12)
        assert evaluate_grad(f, point) == pytest.approx((x * y, y), rel=1e-12)
    expr = symbolic(f)
    subs = {sympy.Symbol("x", real=True): 0.5, sympy.Symbol("y", real=True): 2.0}
    assert float(expr.evalf(subs=subs)) == pytest.approx(f(0.5, 2.0))
    assert expr.doit() == sympy.sympify("x**2*y + y**2", locals={
        "x": sympy.Symbol("x", real=True), "y": sympy.Symbol("y", real=True)})


def test_min_max_pick_pythons_argument_and_the_first_on_a_tie():
    def f(x, y):
        return min(x, y) + 2 * max(x, y)

    x, y = sympy.symbols("x y", real=True)
    assert symbolic(f, at=(1.0, 2.0)) == x + 2 * y
    assert symbolic(f, at=(1.0, 1.0)) == 3 * x
    assert symbolic(f) == sympy.Min(x, y) + 2 * sympy.Max(x, y)


def test_abs_has_derivative_zero_at_zero():
    def f(x):
        return abs(x) + math.fabs(math.sqrt(x + 1.0) - 1.0)

    assert evaluate_grad(f, (0.0,)) == 0.0
    assert evaluate_grad(f, (-0.5,)) == pytest.approx(-1.0 - 0.5 / math.sqrt(0.5))


def test_piecewise_constant_operations_are_flat():
    def f(x, y):
        return x // y + math.floor(x) + math.ceil(y) + int(x)

    assert evaluate_grad(f, (2.5, 0.7)) == (0.0, 0.0)


# --- errors -------------------------------------------------------------------------------

def bad_set(x):
    v = {x, 2 * x}
    return v


def bad_try(x):
    try:
        return x
    except ValueError:
        return 0.0


def bad_for(x):
    for t in 2.0 * x:  # a number is not iterable
        x = x + t
    return x


def ping(x):
    return pong(x * 0.5)


def pong(x):
    return ping(x) + 1.0


def needs_point(x):
    if x > 0:
        return x
    return -x


def unknown_call(x):
    return hash(x)


def undefined_name(x):
    return x * not_defined_anywhere  # noqa: F821


def swell(x):
    for i in range(1000):
        x = sin(x) + x
    return x


def spin(x):
    while True:
        x = x * 1.0
    return x


def returns_tuple(x):
    return x, x


@pytest.mark.parametrize("fn, cls, line", [
    (bad_set, UnsupportedSyntaxError, 1),
    (bad_try, UnsupportedSyntaxError, 1),
    (bad_for, UnsupportedSyntaxError, 1),
    (ping, RecursionCycleError, 4),
    (needs_point, SymdiffError, 1),
    (unknown_call, UnknownFunctionError, 1),
    (undefined_name, UndefinedNameError, 1),
    (returns_tuple, SymdiffError, 0),
])
def test_errors_name_class_and_line(fn, cls, line):
    with pytest.raises(cls) as info:
        symbolic(fn)
    first = fn.__code__.co_firstlineno
    if fn is ping:  # the cycle is found at pong's call back into ping
        first = pong.__code__.co_firstlineno - 3
    assert info.value.lineno == first + line
    assert info.value.filename == __file__


def test_missing_point_asks_for_at():
    with pytest.raises(SymdiffError, match="at="):
        symbolic(needs_point)
    assert symbolic(needs_point, at=(-2.0,)) == -sympy.Symbol("x", real=True)
    assert symbolic(needs_point, at=3.0) == sympy.Symbol("x", real=True)


def test_complex_values_are_refused():
    def f(x):
        return math.sqrt(x) if x > -10.0 else x

    with pytest.raises(SymdiffError, match="not a real number"):
        evaluate_grad(f, (-1.0,))


def test_swelling_expression_is_refused_quickly():
    start = time.perf_counter()
    with pytest.raises(SymdiffError, match="nodes"):
        symbolic(swell)
    assert time.perf_counter() - start < 5.0


def test_endless_loop_is_refused():
    with pytest.raises(SymdiffError, match=f"{MAX_ITERATIONS:,}"):
        symbolic(spin, at=(1.0,))


def test_bad_points_are_rejected():
    with pytest.raises(ValueError):
        symbolic(f_straight, at=(1.0,))
    with pytest.raises(ValueError):
        symbolic(f_straight, at={"x": 1.0, "z": 2.0})


# --- ``*args``: the tuple of the arguments past the named ones, at a point -----------------

def gathers_the_rest(x, *rest):
    total = x
    for r in rest:
        total = total * r + sin(r)
    return total


def spreads_into(*xs):
    return gathers_the_rest(*xs) * xs[0]


@pytest.mark.parametrize("fn, named", [(gathers_the_rest, 1), (spreads_into, 0)])
def test_star_args_read_at_a_point_agree_with_finite_differences(fn, named):
    rng = random.Random(f"star:{fn.__name__}")
    for count in (1, 2, 4):
        point = tuple(rng.uniform(-1.5, 1.5) for _ in range(count))
        gathered = (*point[:named], tuple(point[named:]))
        got = evaluate_grad(fn, gathered)
        flat = [*got[:named], *got[named]] if named else list(got)
        assert type(got[-1] if named else got) is tuple and len(flat) == count
        for i, g in enumerate(flat):
            up, down = list(point), list(point)
            up[i] += 1e-6
            down[i] -= 1e-6
            assert g == pytest.approx((fn(*up) - fn(*down)) / 2e-6, rel=1e-6, abs=1e-8)
        assert evaluate(fn, gathered) == pytest.approx(fn(*point), rel=1e-12)


def test_star_args_without_a_point_are_refused_located():
    with pytest.raises(UnsupportedSyntaxError, match=r"\*rest at a point") as refused:
        symbolic(gathers_the_rest)
    assert refused.value.filename == __file__
    assert refused.value.lineno == gathers_the_rest.__code__.co_firstlineno


def divides_and_keeps_the_rest(a, b):
    q, r = divmod(a, b)
    return r * r * q + divmod(a, b)[1]


@pytest.mark.parametrize("point", [(5.3, 1.7), (-2.2, 0.7), (3.9, -1.1)])
def test_divmod_is_floor_and_remainder(point):
    assert evaluate(divides_and_keeps_the_rest, point) == pytest.approx(
        divides_and_keeps_the_rest(*point), rel=1e-12)
    got = evaluate_grad(divides_and_keeps_the_rest, point)
    for i, g in enumerate(got):
        up, down = list(point), list(point)
        up[i] += 1e-6
        down[i] -= 1e-6
        assert g == pytest.approx((divides_and_keeps_the_rest(*up) - divides_and_keeps_the_rest(
            *down)) / 2e-6, rel=1e-6, abs=1e-8)
