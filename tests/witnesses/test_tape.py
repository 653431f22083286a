"""The tape engine against sympy, and its walk, conventions and function runner.

The functions under test are ordinary ``def``s written the way users write them, importing
``math`` in every style; their sympy twins are built independently in the tables below.
"""

import math
import math as m
import random
import sys
import tracemalloc
import types
from math import acos, asin, cosh, erf, erfc, exp, expm1, fmod, hypot, log1p, sinh, tan
from math import atan as arctangent
from math import ceil as ceiling
from math import floor as round_down
from math import log2 as lg
from math import sqrt as root

import mpmath
import pytest
import sympy as sp

import symdiff
from symdiff import tape
from symdiff.errors import SymdiffError

try:
    import numpy as np
except ImportError:     # the numpy tests skip themselves
    np = None


# --- the functions under test --------------------------------------------------------

def f_add(x, y):
    return x + y


def f_add_ints(x):
    return 2 + x + 3


def f_sub(x, y):
    return x - y


def f_rsub_int(x):
    return 3 - x - 1


def f_mul(x, y):
    return x * y


def f_mul_ints(x):
    return 4 * x * 2


def f_div(x, y):
    return x / y


def f_rdiv_int(x):
    return 3 / x / 2


def f_floordiv(x, y):
    return x // y


def f_rfloordiv_int(x):
    return 7 // x


def f_mod(x, y):
    return x % y


def f_rmod_int(x):
    return 7 % x


def f_pow(x, y):
    return x ** y


def f_cube(x):
    return x ** 3


def f_rpow_int(x):
    return 2 ** x


def f_builtin_pow(x, y):
    return pow(x, y)


def f_math_pow(x, y):
    return m.pow(x, y)


def f_neg_pos(x):
    return -x + (+x) * 3


def f_abs(x):
    return abs(x)


def f_sin(x):
    return math.sin(x)


def f_cos(x):
    return m.cos(x)


def f_tan(x):
    return tan(x)


def f_asin(x):
    return asin(x)


def f_acos(x):
    return acos(x)


def f_atan(x):
    return arctangent(x)


def f_atan2(y, x):
    return math.atan2(y, x)


def f_sinh(x):
    return sinh(x)


def f_cosh(x):
    return cosh(x)


def f_tanh(x):
    return m.tanh(x)


def f_asinh(x):
    return math.asinh(x)


def f_acosh(x):
    return m.acosh(x)


def f_atanh(x):
    return math.atanh(x)


def f_exp(x):
    return exp(x)


def f_expm1(x):
    return expm1(x)


def f_log(x):
    return math.log(x)


def f_log_base(x, b):
    return m.log(x, b)


def f_log1p(x):
    return log1p(x)


def f_log2(x):
    return lg(x)


def f_log10(x):
    return math.log10(x)


def f_sqrt(x):
    return root(x)


def f_hypot(x, y):
    return hypot(x, y)


def f_hypot3(x, y, z):
    return m.hypot(x, y, z)


def f_fabs(x):
    return math.fabs(x)


def f_erf(x):
    return erf(x)


def f_erfc(x):
    return erfc(x)


def f_floor(x):
    return round_down(x)


def f_ceil(x):
    return ceiling(x)


def f_fmod(x, y):
    return fmod(x, y)


# composites

def logistic(x):
    return 1 / (1 + m.exp(-x))


def softplus(x):
    return math.log1p(math.exp(x))


def gaussian(x, mu, s):
    return exp(-(x - mu) ** 2 / (2 * s ** 2)) / (s * root(2 * math.pi))


def rosenbrock(x, y):
    return (1 - x) ** 2 + 100 * (y - x * x) ** 2


def horner(x):
    acc = 0.0
    for c in (3, -2, 0.5, 4):
        acc = acc * x + c
    return acc


def branchy(x, y):
    if x > 0:
        z = x * x * y
    else:
        z = -x + m.sin(y)
    return z


def heron(x):
    y = x
    for _ in range(3):
        y = 0.5 * (y + x / y)
    return y


def bump(x):
    return exp(-x * x) + m.sin(x)


def uses_helper(x, y):
    return bump(x * y) + bump(y)


def larger(x, y):
    return max(x * y, x + y) - min(x, 2 * y)


def layer(w, x, b):
    return math.tanh(w * x + b) * 3


def polar(x, y):
    return hypot(x, y) * math.cos(math.atan2(y, x))


def logsumexp(x, y):
    return m.log(m.exp(x) + m.exp(y))


def while_sum(x):
    total, k = 0.0, 0
    while total < 10:
        total = total + x * x + k
        k += 1
    return total * abs(x)


halve = lambda x: m.sqrt(x) / 2      # noqa: E731 -- a lambda helper on purpose


def nested(x, y):
    def inner(t):
        return tan(t) * 2
    return sum(exp(v) for v in (x, y)) + inner(x) + halve(y) + sum([m.cos(v) for v in (x,)])


def stopped(x):
    return x * symdiff.stop_gradient(x) + x


def numpy_mix(x, y):
    return np.sin(x) * np.exp(y) + np.arctan(x * y) + np.sqrt(np.abs(y))


# --- their sympy twins: (function, builder(point, *symbols), domain of each argument) ----

WIDE, POSITIVE, UNIT = (-5.0, 5.0), (0.1, 10.0), (-0.95, 0.95)
DIVISOR = (0.5, 3.0)

CASES = [
    (f_add, lambda p, x, y: x + y, [WIDE, WIDE]),
    (f_add_ints, lambda p, x: x + 5, [WIDE]),
    (f_sub, lambda p, x, y: x - y, [WIDE, WIDE]),
    (f_rsub_int, lambda p, x: 2 - x, [WIDE]),
    (f_mul, lambda p, x, y: x * y, [WIDE, WIDE]),
    (f_mul_ints, lambda p, x: 8 * x, [WIDE]),
    (f_div, lambda p, x, y: x / y, [WIDE, DIVISOR]),
    (f_div, lambda p, x, y: x / y, [WIDE, (-3.0, -0.5)]),
    (f_rdiv_int, lambda p, x: sp.Rational(3, 2) / x, [DIVISOR]),
    (f_floordiv, lambda p, x, y: sp.Integer(p[0] // p[1]), [WIDE, DIVISOR]),
    (f_rfloordiv_int, lambda p, x: sp.Integer(7 // p[0]), [DIVISOR]),
    (f_mod, lambda p, x, y: x - y * math.floor(p[0] / p[1]), [(-10.0, 10.0), DIVISOR]),
    (f_mod, lambda p, x, y: x - y * math.floor(p[0] / p[1]), [(-10.0, 10.0), (-3.0, -0.5)]),
    (f_rmod_int, lambda p, x: 7 - x * math.floor(7 / p[0]), [DIVISOR]),
    (f_pow, lambda p, x, y: x ** y, [(0.1, 3.0), (-2.0, 2.0)]),
    (f_cube, lambda p, x: x ** 3, [(-3.0, 3.0)]),
    (f_rpow_int, lambda p, x: 2 ** x, [WIDE]),
    (f_builtin_pow, lambda p, x, y: x ** y, [(0.1, 3.0), (-2.0, 2.0)]),
    (f_math_pow, lambda p, x, y: x ** y, [(0.1, 3.0), (-2.0, 2.0)]),
    (f_neg_pos, lambda p, x: 2 * x, [WIDE]),
    (f_abs, lambda p, x: sp.Abs(x), [WIDE]),
    (f_sin, lambda p, x: sp.sin(x), [WIDE]),
    (f_cos, lambda p, x: sp.cos(x), [WIDE]),
    (f_tan, lambda p, x: sp.tan(x), [(-1.4, 1.4)]),
    (f_asin, lambda p, x: sp.asin(x), [UNIT]),
    (f_acos, lambda p, x: sp.acos(x), [UNIT]),
    (f_atan, lambda p, x: sp.atan(x), [WIDE]),
    (f_atan2, lambda p, y, x: sp.atan2(y, x), [(-3.0, 3.0), (-3.0, 3.0)]),
    (f_sinh, lambda p, x: sp.sinh(x), [(-3.0, 3.0)]),
    (f_cosh, lambda p, x: sp.cosh(x), [(-3.0, 3.0)]),
    (f_tanh, lambda p, x: sp.tanh(x), [(-3.0, 3.0)]),
    (f_asinh, lambda p, x: sp.asinh(x), [WIDE]),
    (f_acosh, lambda p, x: sp.acosh(x), [(1.05, 5.0)]),
    (f_atanh, lambda p, x: sp.atanh(x), [UNIT]),
    (f_exp, lambda p, x: sp.exp(x), [(-3.0, 3.0)]),
    (f_expm1, lambda p, x: sp.exp(x) - 1, [(-3.0, 3.0)]),
    (f_log, lambda p, x: sp.log(x), [POSITIVE]),
    (f_log_base, lambda p, x, b: sp.log(x) / sp.log(b), [POSITIVE, (1.5, 5.0)]),
    (f_log_base, lambda p, x, b: sp.log(x) / sp.log(b), [POSITIVE, (0.2, 0.8)]),
    (f_log1p, lambda p, x: sp.log(1 + x), [(-0.9, 5.0)]),
    (f_log2, lambda p, x: sp.log(x, 2), [POSITIVE]),
    (f_log10, lambda p, x: sp.log(x, 10), [POSITIVE]),
    (f_sqrt, lambda p, x: sp.sqrt(x), [POSITIVE]),
    (f_hypot, lambda p, x, y: sp.sqrt(x ** 2 + y ** 2), [WIDE, WIDE]),
    (f_hypot3, lambda p, x, y, z: sp.sqrt(x ** 2 + y ** 2 + z ** 2), [WIDE, WIDE, WIDE]),
    (f_fabs, lambda p, x: sp.Abs(x), [WIDE]),
    (f_erf, lambda p, x: sp.erf(x), [(-3.0, 3.0)]),
    (f_erfc, lambda p, x: sp.erfc(x), [(-3.0, 3.0)]),
    (f_floor, lambda p, x: sp.Integer(math.floor(p[0])), [WIDE]),
    (f_ceil, lambda p, x: sp.Integer(math.ceil(p[0])), [WIDE]),
    (f_fmod, lambda p, x, y: x - y * int(p[0] / p[1]), [(-10.0, 10.0), DIVISOR]),
    (f_fmod, lambda p, x, y: x - y * int(p[0] / p[1]), [(-10.0, 10.0), (-3.0, -0.5)]),
    # composites
    (logistic, lambda p, x: 1 / (1 + sp.exp(-x)), [WIDE]),
    (softplus, lambda p, x: sp.log(1 + sp.exp(x)), [WIDE]),
    (gaussian, lambda p, x, mu, s: sp.exp(-(x - mu) ** 2 / (2 * s ** 2)) / (s * sp.sqrt(2 * sp.pi)),
     [WIDE, (-1.0, 1.0), (0.5, 2.0)]),
    (rosenbrock, lambda p, x, y: (1 - x) ** 2 + 100 * (y - x ** 2) ** 2, [(-2.0, 2.0)] * 2),
    (horner, lambda p, x: ((3 * x - 2) * x + sp.Rational(1, 2)) * x + 4, [WIDE]),
    (branchy, lambda p, x, y: sp.Piecewise((x ** 2 * y, x > 0), (-x + sp.sin(y), True)),
     [WIDE, WIDE]),
    (heron, lambda p, x: _heron_sympy(x), [(0.5, 4.0)]),
    (uses_helper, lambda p, x, y: _bump_sympy(x * y) + _bump_sympy(y), [(-2.0, 2.0)] * 2),
    (larger, lambda p, x, y: (x * y if p[0] * p[1] >= p[0] + p[1] else x + y)
     - (x if p[0] <= 2 * p[1] else 2 * y), [WIDE, WIDE]),
    (layer, lambda p, w, x, b: 3 * sp.tanh(w * x + b), [(-1.0, 1.0)] * 3),
    (polar, lambda p, x, y: sp.sqrt(x ** 2 + y ** 2) * sp.cos(sp.atan2(y, x)), [WIDE, WIDE]),
    (logsumexp, lambda p, x, y: sp.log(sp.exp(x) + sp.exp(y)), [WIDE, WIDE]),
    (while_sum, lambda p, x: _while_sum_sympy(p[0], x), [(-2.0, 2.0)]),
    (stopped, lambda p, x: x * p[0] + x, [WIDE]),
    (nested, lambda p, x, y: sp.exp(x) + sp.exp(y) + 2 * sp.tan(x) + sp.sqrt(y) / 2 + sp.cos(x),
     [(-1.2, 1.2), POSITIVE]),
]


def _heron_sympy(x):
    y = x
    for _ in range(3):
        y = (y + x / y) / 2
    return y


def _bump_sympy(x):
    return sp.exp(-x ** 2) + sp.sin(x)


def _while_sum_sympy(at, x):
    """The expression ``while_sum`` computes near ``at``: the loop count is fixed there."""
    total, k, expr = 0.0, 0, sp.Integer(0)
    while total < 10:
        total, expr, k = total + at * at + k, expr + x ** 2 + k, k + 1
    return expr * sp.Abs(x)


def _sympy_gradient(builder, point):
    symbols = sp.symbols(f"a0:{len(point)}", real=True)
    expr = builder(point, *symbols)
    values = [mpmath.mpf(v) for v in point]
    return tuple(float(sp.lambdify(symbols, sp.diff(expr, s), modules="mpmath")(*values))
                 for s in symbols)


@pytest.mark.parametrize("fn, builder, domain", CASES,
                         ids=[f"{case[0].__name__}-{i}" for i, case in enumerate(CASES)])
def test_gradient_matches_sympy(fn, builder, domain):
    rng = random.Random(fn.__name__ + repr(domain))
    gradient = tape.grad(fn, wrt=tuple(range(len(domain))))
    for _ in range(12):
        point = [rng.uniform(lo, hi) for lo, hi in domain]
        got = gradient(*point)
        want = _sympy_gradient(builder, point)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert math.isclose(g, w, rel_tol=1e-9, abs_tol=1e-12), (point, got, want)


def test_numpy_functions_on_scalars():
    pytest.importorskip("numpy")
    rng = random.Random(7)
    for _ in range(10):
        x, y = rng.uniform(-2, 2), rng.uniform(0.1, 2)
        got = tape.grad(numpy_mix)(x, y)
        want = _sympy_gradient(lambda p, a, b: sp.sin(a) * sp.exp(b) + sp.atan(a * b)
                               + sp.sqrt(b), (x, y))
        assert got == pytest.approx(want, rel=1e-9)


def test_numpy_module_in_a_closure():
    numpy = pytest.importorskip("numpy")

    def f(x):
        return numpy.arcsinh(x) + numpy.power(x, 2) + numpy.log(x)

    assert tape.grad(f)(2.0) == pytest.approx(1 / math.sqrt(5) + 4 + 0.5, rel=1e-12)


def test_numpy_scalars_meet_values():
    numpy = pytest.importorskip("numpy")
    x = tape.Value(3.0)
    y = numpy.float64(2.0) * x + numpy.int64(1)
    y.backward()
    assert isinstance(y, tape.Value) and (y.data, x.grad) == (7.0, 2.0)


# --- the graph walk ----------------------------------------------------------------------

def long_chain(x):
    for _ in range(10 ** 6):
        x = x * 1.0000001
    return x


def test_million_node_chain_needs_no_recursion():
    assert sys.getrecursionlimit() < 10 ** 5
    assert tape.grad(long_chain)(0.5) == pytest.approx(1.0000001 ** 10 ** 6, rel=1e-8)


def test_memory_per_node_is_small():
    n = 20000
    tracemalloc.start()
    try:
        x = tape.Value(1.0)
        y = x
        for _ in range(n):
            y = y * 1.0000001
        graph_bytes = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        y.backward()
        walk_bytes = tracemalloc.get_traced_memory()[1] - graph_bytes
    finally:
        tracemalloc.stop()
    assert graph_bytes / n < 300
    assert walk_bytes / n < 200


def test_backward_twice_gives_the_same_gradients():
    x, y = tape.Value(1.5), tape.Value(-0.5)
    z = x * y + tape.sin(x) * x
    z.backward()
    first = (x.grad, y.grad)
    z.backward()
    assert (x.grad, y.grad) == first == (y.data + math.cos(1.5) * 1.5 + math.sin(1.5), 1.5)


def test_a_fresh_graph_starts_from_zero():
    x = tape.Value(2.0)
    (x * x).backward()
    assert x.grad == 4.0
    (x * 3).backward()
    assert x.grad == 3.0


def test_shared_subexpression_accumulates():
    x = tape.Value(3.0)
    s = x * x
    z = s * s + s          # x**4 + x**2
    z.backward()
    assert x.grad == 4 * 27 + 6


def test_backward_on_a_leaf():
    x = tape.Value(3.0)
    x.backward()
    assert x.grad == 1.0


# --- conventions and operators ---------------------------------------------------------------

def test_reverse_operands_with_ints():
    for build, want in [(lambda x: 3 - x, -1.0), (lambda x: 3 / x, -0.75),
                        (lambda x: 2 ** x, 4 * math.log(2)), (lambda x: 7 % x, -3.0),
                        (lambda x: 1 + x, 1.0), (lambda x: 5 * x, 5.0), (lambda x: 9 // x, 0.0),
                        (lambda x: 2.5 ** x, 2.5 ** 2 * math.log(2.5))]:
        x = tape.Value(2)
        build(x).backward()
        assert x.grad == pytest.approx(want, rel=1e-15)


def test_abs_and_fabs_at_zero():
    assert tape.grad(f_abs)(0.0) == 0.0
    assert tape.grad(f_fabs)(0) == 0.0


def test_max_and_min_route_the_gradient_to_the_argument_returned():
    def f(x, y):
        return max(x, y) + 2 * min(x, y)

    assert tape.grad(f)(1.0, 2.0) == (2.0, 1.0)
    assert tape.grad(f)(3.0, 2.0) == (1.0, 2.0)
    assert tape.grad(f)(2.0, 2.0) == (3.0, 0.0)      # ties: Python returns the first one


def test_exceptions_match_math():
    with pytest.raises(ValueError):
        tape.grad(f_log)(0.0)
    with pytest.raises(ValueError):
        tape.log(0)
    with pytest.raises(ValueError):
        tape.sqrt(tape.Value(-1.0))
    with pytest.raises(ZeroDivisionError):
        tape.grad(f_div)(1.0, 0.0)
    with pytest.raises(ZeroDivisionError):
        tape.grad(lambda x: 1 / x)(0)
    with pytest.raises(ZeroDivisionError):
        tape.Value(0.0) ** -1
    with pytest.raises(ValueError):
        tape.pow(tape.Value(0.0), -1)
    with pytest.raises(ValueError):
        tape.Value(-8.0) ** (1 / 3)
    with pytest.raises(OverflowError):
        tape.exp(tape.Value(1000.0))
    with pytest.raises(ZeroDivisionError):
        tape.log(tape.Value(2.0), 1.0)


def test_infinite_local_derivatives():
    assert tape.grad(f_sqrt)(0.0) == math.inf
    assert tape.grad(lambda x: x ** 0.5)(0.0) == math.inf
    assert tape.grad(f_asin)(1.0) == math.inf
    assert tape.grad(f_acos)(1.0) == -math.inf


def test_power_conventions():
    assert tape.grad(lambda x: x ** 0)(0.0) == 0.0
    assert tape.grad(lambda x: x ** 0)(2.0) == 0.0
    assert tape.grad(lambda x: x ** 1)(0.0) == 1.0
    assert tape.grad(f_cube)(-2.0) == 12.0
    assert tape.grad(f_pow)(0.0, 2.5) == (0.0, 0.0)      # d/dy of 0 ** y is 0
    dx, dy = tape.grad(f_pow)(-2.0, 3.0)
    assert dx == 12.0 and math.isnan(dy)
    assert tape.grad(f_math_pow)(-2.0, 2) == (-4.0, pytest.approx(4 * math.nan, nan_ok=True))


def test_origin_conventions():
    assert tape.grad(f_hypot)(0.0, 0.0) == (0.0, 0.0)
    assert all(math.isnan(d) for d in tape.grad(f_atan2)(0.0, 0.0))


def test_piecewise_constant_results():
    assert tape.floor(tape.Value(2.5)) == 2 and type(tape.ceil(tape.Value(2.5))) is int
    assert tape.grad(f_floor)(2.5) == 0.0
    assert tape.grad(lambda x: round(x) + math.trunc(x))(2.5) == 0.0


def test_comparisons_and_conversions():
    x, y = tape.Value(2.0), tape.Value(3.0)
    assert (x < y, x <= 2, x > 1.5, x >= y, x == 2, x != 2.0) == (True, True, True, False,
                                                                  True, False)
    assert 1 < x and 2 == x and not (3 <= x)
    assert (int(y), round(tape.Value(2.6)), bool(tape.Value(0.0))) == (3, 3, False)
    assert (math.floor(tape.Value(2.5)), math.ceil(tape.Value(2.5)), math.trunc(y)) == (2, 3, 3)
    assert len({x, tape.Value(2.0)}) == 2          # hashed by identity
    assert (x == "2") is False


def test_plain_numbers_pass_through_to_math():
    assert tape.sin(0.5) == math.sin(0.5) and type(tape.sin(0.5)) is float
    assert tape.hypot(3, 4) == 5.0 and tape.atan2(1.0, 1.0) == math.atan2(1.0, 1.0)


def test_stop_gradient_and_detach():
    x = tape.Value(2.0)
    y = x.detach()
    assert y.data == 2.0 and y is not x
    assert tape.grad(stopped)(3.0) == 4.0


# --- the runner ------------------------------------------------------------------------

HELPER_SOURCE = """
from math import exp as e
import math as mm

def bump(x):
    return e(-x * x) + mm.sin(x) + twice(x)

def twice(x):
    return 2 * x if x < 10 else bump(x - 10)      # mutual recursion, rarely taken
"""


def _make_helper_module():
    module = types.ModuleType("tape_test_helpers")
    exec(compile(HELPER_SOURCE, "<tape_test_helpers>", "exec"), module.__dict__)
    return module


def test_helper_importing_math_differently():
    helpers = _make_helper_module()

    def f(x):
        return helpers.bump(x) * 3

    bump_prime = -2 * 0.7 * math.exp(-0.49) + math.cos(0.7) + 2
    assert tape.grad(f)(0.7) == pytest.approx(3 * bump_prime, rel=1e-12)
    from_import = helpers.bump

    def g(x):
        return from_import(x)

    assert tape.grad(g)(0.7) == pytest.approx(bump_prime, rel=1e-12)
    far = -2 * 10.7 * math.exp(-10.7 ** 2) + math.cos(10.7) + bump_prime
    assert tape.grad(g)(10.7) == pytest.approx(far, rel=1e-12)


def test_user_modules_are_not_modified():
    helpers = _make_helper_module()
    before_helpers, before_here = dict(vars(helpers)), dict(globals())
    tape.grad(uses_helper)(0.3, 0.4)
    tape.grad(lambda x: helpers.bump(x))(0.3)
    for before, after in [(before_helpers, vars(helpers)), (before_here, globals())]:
        assert before.keys() == after.keys()
        assert all(after[name] is value for name, value in before.items())
    assert exp is math.exp and m is math and bump.__globals__ is globals()


def test_closures_holding_math():
    sine, cube = math.sin, f_cube

    def f(x):
        return sine(x) + cube(x) + m.cos(x)

    assert tape.grad(f)(0.5) == pytest.approx(math.cos(0.5) + 0.75 - math.sin(0.5), rel=1e-15)
    assert dict(zip(f.__code__.co_freevars, (c.cell_contents for c in f.__closure__))) == {
        "cube": f_cube, "sine": math.sin}


def test_recursive_user_function():
    def power(x, n):
        return 1.0 if n == 0 else x * power(x, n - 1)

    assert tape.grad(power, wrt="x")(2.0, 5) == 80.0


def test_math_function_without_a_derivative_is_refused():
    with pytest.raises(SymdiffError, match="gcd"):
        tape.grad(lambda x: math.gcd(x, 4))(2.5)
    assert tape.grad(lambda x: x * math.gcd(6, 4))(2.5) == 2.0
    assert tape.grad(lambda x: x if math.isfinite(x) else 0.0)(2.5) == 1.0


def test_wrt_and_return_shapes():
    def f(x, y, z=2.0):
        return x * y * z

    assert tape.grad(f)(1.0, 3.0) == (6.0, 2.0, 3.0)      # every positional parameter
    assert tape.grad(f)(1.0, 3.0, z=1) == (3.0, 1.0, 3.0)
    assert tape.grad(f, wrt="y")(1.0, 3.0) == 2.0
    assert tape.grad(f, wrt=1)(1, 3) == 2.0
    assert tape.grad(f, wrt=-1)(1.0, 3.0) == 3.0
    assert tape.grad(f, wrt=("z", 0))(1.0, 3.0) == (3.0, 6.0)
    assert tape.grad(f, wrt=["y"])(1.0, 3.0) == (2.0,)
    assert tape.grad(f_sin)(0.0) == 1.0
    assert tape.grad(lambda x, unused: x * x)(3, 5) == (6.0, 0.0)
    for bad in ("w", 3, 1.0, True):
        with pytest.raises(SymdiffError):
            tape.grad(f, wrt=bad)

    def h(x, *rest, scale=2.0):
        return scale * math.sin(x) + len(rest)

    # ``*rest`` is a positional parameter holding a tuple, as ``symdiff.grad`` reads it
    assert tape.grad(h)(0.5, 1, 2) == (2 * math.cos(0.5), (0.0, 0.0))
    assert tape.grad(h)(0.5) == (2 * math.cos(0.5), ())
    assert tape.grad(h, wrt="scale")(0.5, 1, scale=3) == math.sin(0.5)
    assert tape.grad(h, wrt="rest")(0.5, 1, 2) == (0.0, 0.0)
    assert tape.grad(lambda *xs: xs[0] * xs[1])(2.0, 3.0) == (3.0, 2.0)
    with pytest.raises(SymdiffError):
        tape.grad(lambda x, **named: x, wrt="named")


def test_constant_and_non_number_results():
    assert tape.grad(lambda x, y: 4.0)(1.0, 2.0) == (0.0, 0.0)
    assert tape.value_and_grad(lambda x: 7)(1.0) == (7.0, 0.0)
    with pytest.raises(SymdiffError):
        tape.grad(lambda x: (x, x))(1.0)
    with pytest.raises(SymdiffError):
        tape.grad(lambda x: x)("1.0")


def test_value_and_grad():
    value, gradient = tape.value_and_grad(rosenbrock)(0.5, 1.0)
    assert value == pytest.approx(0.25 + 100 * 0.75 ** 2)
    assert gradient == pytest.approx((-1.0 - 400 * 0.5 * 0.75, 200 * 0.75))
    assert tape.value_and_grad(f_exp, wrt=0)(0.0) == (1.0, 1.0)


def test_grad_of_a_math_function_itself():
    assert tape.grad(math.sin)(0.0) == 1.0


# --- the methods micrograd and PyTorch users call ------------------------------------------

def _methods_network(a, b):
    """A small network written with Value methods, as micrograd users write it."""
    z = 2 * a + 2 + a * b
    q = z.relu() + z * a
    h = (z * b).tanh().exp() + (a * a + 1.0).log() + b.sigmoid()
    y = h + q * a + (b - a).relu() - (a * b).sin() * b.cos() + (a * a + 0.5).sqrt()
    return y / (1.0 + (b - 0.3).abs())


def _plain_network(a, b):
    """The same network as plain Python, for symdiff.grad."""
    z = 2 * a + 2 + a * b
    q = max(z, 0.0) + z * a
    h = (math.exp(math.tanh(z * b)) + math.log(a * a + 1.0)
         + 1.0 / (1.0 + math.exp(-b)))
    y = (h + q * a + max(b - a, 0.0) - math.sin(a * b) * math.cos(b)
         + math.sqrt(a * a + 0.5))
    return y / (1.0 + abs(b - 0.3))


@pytest.mark.parametrize("seed", range(4))
def test_value_methods_agree_with_the_generated_gradient(seed):
    rng = random.Random(seed)
    gradient = symdiff.grad(_plain_network)
    for _ in range(25):
        point = (rng.uniform(-3, 3), rng.uniform(-3, 3))
        a, b = tape.Value(point[0]), tape.Value(point[1])
        y = _methods_network(a, b)
        y.backward()
        assert y.data == pytest.approx(_plain_network(*point), rel=1e-12)
        expected = gradient(*point)
        assert a.grad == pytest.approx(expected[0], rel=1e-9, abs=1e-12)
        assert b.grad == pytest.approx(expected[1], rel=1e-9, abs=1e-12)


def test_relu_and_sigmoid_at_their_edges():
    for x, value, slope in ((-3.0, 0.0, 0.0), (0.0, 0.0, 0.0), (-0.0, 0.0, 0.0),
                            (2.5, 2.5, 1.0)):
        v = tape.Value(x)
        out = v.relu()
        out.backward()
        assert (out.data, v.grad) == (value, slope)
    assert math.isnan(tape.Value(math.nan).relu().data)
    for x in (-800.0, -30.0, 0.0, 30.0, 800.0):  # no overflow at either end
        v = tape.Value(x)
        out = v.sigmoid()
        out.backward()
        assert 0.0 <= out.data <= 1.0
        assert v.grad == pytest.approx(out.data * (1.0 - out.data), abs=1e-300)
    assert tape.sigmoid(0.0) == 0.5 and tape.relu(-1.0) == 0.0  # plain numbers pass through


@pytest.mark.parametrize("a, b", [(5.3, 1.7), (-2.2, 0.7), (3.9, -1.1), (-4.4, -1.3)])
def test_divmod_of_values_is_python_s_with_its_own_partials(a, b):
    for left, right in ((tape.Value(a), tape.Value(b)), (a, tape.Value(b)), (tape.Value(a), b)):
        q, r = divmod(left, right)
        assert (getattr(q, "data", q), r.data) == divmod(a, b)
        r.backward()
        h = 1e-6
        if isinstance(left, tape.Value):
            assert left.grad == pytest.approx((divmod(a + h, b)[1] - divmod(a - h, b)[1])
                                              / (2 * h), rel=1e-6)
        if isinstance(right, tape.Value):
            assert right.grad == pytest.approx((divmod(a, b + h)[1] - divmod(a, b - h)[1])
                                               / (2 * h), rel=1e-6)
        assert not isinstance(q, tape.Value) or not q._edges  # the quotient: derivative 0
