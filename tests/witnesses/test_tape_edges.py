"""The tape at its edges: it never detaches a Value in silence, sees through the wrappers it
can and refuses the others, honours user rules, follows numpy's semantics for numpy's
spellings and math's for math's, and computes on ints too large for a float.

The expected derivatives come from witnesses that share nothing with the tape: finite
differences of numpy itself, sympy, or the function written out without the wrapper.
"""

import functools
import math
import random

import pytest

import symdiff
from symdiff import tape
from symdiff.errors import SymdiffError

np = pytest.importorskip("numpy")


# --- never detach in silence ----------------------------------------------------------------

@pytest.mark.parametrize("convert", [
    float, complex, math.tanh, math.sin, math.exp, math.sqrt, np.float64,
    lambda v: math.pow(v, 2.0), lambda v: math.atan2(v, 1.0), lambda v: "%f" % v,
], ids=["float", "complex", "tanh", "sin", "exp", "sqrt", "float64", "pow", "atan2", "%f"])
def test_math_on_a_value_outside_grad_raises_naming_the_way_out(convert):
    w = tape.Value(1.0)
    with pytest.raises(TypeError, match=r"v\.tanh\(\)|symdiff\.tape"):
        convert(w)


def test_the_reproducer_math_tanh_of_a_value():
    """``math.tanh(w)`` once gave a float with ``w.grad`` 0.0; the true gradient is 0.775."""
    w = tape.Value(0.6)
    with pytest.raises(TypeError):
        math.tanh(w)
    y = w.tanh()
    y.backward()
    assert w.grad == pytest.approx(1 - math.tanh(0.6) ** 2, rel=1e-15)
    assert tape.grad(lambda w: math.tanh(w))(0.6) == w.grad  # grad supplies taped math


def test_an_index_or_a_count_is_refused_with_a_hint():
    v = tape.Value(3.0)
    with pytest.raises(TypeError, match="int\\(v\\)"):
        range(v)
    with pytest.raises(TypeError, match="index"):
        [1, 2, 3, 4][v]


def test_whole_number_conversions_lose_nothing():
    """Their derivative is 0, so they may read the number."""
    v = tape.Value(2.7)
    assert (int(v), round(v), math.floor(v), math.ceil(v), math.trunc(v)) == (2, 3, 2, 3, 2)
    assert tape.grad(lambda x: x * int(x) + math.floor(x))(2.7) == 2.0


def test_number_tests_read_the_number_inside_grad():
    def f(x):
        if math.isnan(x) or math.isinf(x) or not math.isfinite(x) or math.isclose(x, 9.0):
            return 0.0
        return x * x if not np.isnan(x) else 0.0

    assert tape.grad(f)(1.5) == 3.0


# --- wrappers ---------------------------------------------------------------------------

def plain(x):
    return x + math.sin(x) * math.sqrt(2.0) + math.exp(x) * 0.0


@functools.lru_cache(maxsize=None)
def cached(x):
    return x + math.sin(x) * math.sqrt(2.0) + math.exp(x) * 0.0


@functools.cache
def cached_too(x):
    return plain(x)


def doubling(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return 2.0 * fn(*args)
    return wrapper


@doubling
def doubled(x):
    return plain(x)


class Counting:
    """A wrapper object: the tape cannot see what its ``__call__`` does."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self.fn = fn

    def __call__(self, *args):
        return self.fn(*args)


counted = Counting(plain)


@pytest.mark.parametrize("call, factor", [
    (lambda x: cached(x), 1.0), (cached, 1.0), (lambda x: cached_too(x), 1.0),
    (doubled, 2.0), (lambda x: doubled(x) + 0.0, 2.0),
    (lambda x: functools.partial(plain)(x), 1.0),
    (lambda x: functools.partial(lambda s, t: s * plain(t), 3.0)(x), 3.0),
], ids=["lru_cache", "lru_cache itself", "cache", "wraps", "wraps called", "partial",
        "partial with an argument"])
def test_wrappers_are_run_through(call, factor):
    """The reproducer: through lru_cache the tape once gave 1.0 against 1 + sqrt(2)."""
    want = factor * (1.0 + math.sqrt(2.0))
    assert tape.grad(call)(0.0) == pytest.approx(want, rel=1e-15)
    assert cached(0.0) == plain(0.0)  # the cache still works for plain numbers


def test_a_wrapper_the_tape_cannot_see_through_is_refused():
    with pytest.raises(SymdiffError, match="Counting"):
        tape.grad(lambda x: counted(x))(0.5)
    assert tape.grad(lambda x: counted(2.0) * x)(0.5) == counted(2.0)  # no Value: it runs


# --- user rules -------------------------------------------------------------------------

def phase(x):
    return math.remainder(x, 2.0 * math.pi)


symdiff.defgrad(phase, lambda x, out: 1.0)


def opaque(x):
    return counted(x)  # a wrapper the tape cannot see through


symdiff.defgrad(opaque, lambda x, out: 1.0)


@symdiff.custom_grad(lambda x, k, out: k * math.cos(k * x), None)
def wave(x, k=2.0):
    return math.sin(k * x)


def test_the_tape_runs_a_function_by_its_rule():
    assert tape.grad(lambda x: phase(x) * 3.0)(1.0) == 3.0
    assert tape.grad(phase)(1.0) == 1.0
    assert tape.grad(lambda x: wave(x) + wave(x, k=3.0) + wave(x, 1.0))(0.5) == pytest.approx(
        2 * math.cos(1.0) + 3 * math.cos(1.5) + math.cos(0.5), rel=1e-15)
    assert tape.grad(wave, wrt="k")(0.5, 2.0) == 0.0  # the rule says: no dependence on k
    assert tape.grad(opaque)(0.5) == 1.0
    with pytest.raises(SymdiffError, match="Counting"):  # its own code cannot run
        tape.on_values(opaque, own_rule=False)(tape.Value(1.0))


# --- numpy's semantics for numpy's spellings, math's for math's ----------------------------

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, math.inf, -math.inf, math.nan, 5e-324, 1e-200,
           1e308, -1e308]
UNARY = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
         "arccosh", "arctanh", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt",
         "fabs", "abs", "absolute", "degrees", "radians", "rad2deg", "deg2rad", "cbrt", "exp2",
         "square", "sinc", "reciprocal", "negative", "positive", "floor", "ceil", "trunc",
         "rint", "sign"]
BINARY = ["arctan2", "power", "float_power", "hypot", "fmod", "copysign", "logaddexp",
          "logaddexp2", "add", "subtract", "multiply", "divide", "true_divide", "remainder",
          "mod", "floor_divide", "maximum", "minimum", "fmax", "fmin"]


def same_float(a, b):
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(
        1, b))


def numpy_slope(function, point, i):
    """A difference quotient of numpy's own function, or None where it is not a clean one:
    the one-sided quotients on either side must agree (no kink within the step)."""
    h = 1e-6 * max(1.0, abs(point[i]))

    def at(offset):
        moved = list(point)
        moved[i] += offset
        return float(function(*moved))

    with np.errstate(all="ignore"):
        here, up, down = at(0.0), at(h), at(-h)
    if not all(map(math.isfinite, (here, up, down))):
        return None
    forward, backward = (up - here) / h, (here - down) / h
    if not math.isclose(forward, backward, rel_tol=1e-3, abs_tol=1e-5):
        return None
    return (up - down) / (2 * h)


def ordinary(point):
    """No zero, no tiny or huge coordinate: finite differences of step 1e-6 are trusted."""
    return all(1e-3 < abs(p) < 1e300 for p in point)


def run_numpy(name, point):
    function = getattr(np, name)
    fn = (lambda x: function(x)) if len(point) == 1 else (lambda x, y: function(x, y))
    return tape.value_and_grad(fn, wrt=tuple(range(len(point))))(*point)


@pytest.mark.parametrize("name", UNARY + BINARY)
def test_numpy_spellings_never_raise_where_numpy_does_not(name):
    function = getattr(np, name)
    arity = 1 if name in UNARY else 2
    points = [(x,) for x in SPECIAL] if arity == 1 else [
        (x, y) for x in SPECIAL for y in SPECIAL[::2]]
    checked = 0
    for point in points:
        value, gradient = run_numpy(name, point)
        with np.errstate(all="ignore"):
            want = float(function(*point))
        assert same_float(value, want), (name, point, value, want)
        for i, derivative in enumerate(gradient):
            assert isinstance(derivative, float)
            slope = numpy_slope(function, point, i)
            if slope is not None and ordinary(point):
                checked += 1
                assert math.isclose(derivative, slope, rel_tol=1e-4, abs_tol=1e-6), (
                    name, point, i, derivative, slope)
    assert checked


@pytest.mark.parametrize("name", UNARY + BINARY)
def test_numpy_spellings_agree_with_numpy_inside_the_domain(name):
    function = getattr(np, name)
    rng = random.Random(name)
    arity = 1 if name in UNARY else 2
    for _ in range(20):
        point = tuple(rng.uniform(0.2, 0.9) * rng.choice((1, -1, 3)) for _ in range(arity))
        value, gradient = run_numpy(name, point)
        with np.errstate(all="ignore"):
            assert same_float(value, float(function(*point)))
        for i, derivative in enumerate(gradient):
            slope = numpy_slope(function, point, i)
            if slope is not None:
                assert math.isclose(derivative, slope, rel_tol=1e-5, abs_tol=1e-7)


@pytest.mark.parametrize("name, point, value, gradient", [
    ("log", (0.0,), -math.inf, (math.inf,)),
    ("arctanh", (1.0,), math.inf, (math.inf,)),
    ("sin", (math.inf,), math.nan, (math.nan,)),
    ("power", (-1.0, 0.5), math.nan, (math.nan, math.nan)),
    ("sqrt", (-1.0,), math.nan, (math.nan,)),
    ("divide", (1.0, 0.0), math.inf, (math.inf, -math.inf)),
    ("exp", (1000.0,), math.inf, (math.inf,)),
    ("fmod", (1.0, 0.0), math.nan, (1.0, math.nan)),
    ("maximum", (math.nan, 1.0), math.nan, (1.0, 0.0)),
    ("maximum", (1.0, math.nan), math.nan, (0.0, 1.0)),
    ("fmax", (1.0, math.nan), 1.0, (1.0, 0.0)),
], ids=lambda v: repr(v) if not isinstance(v, str) else v)
def test_numpy_spellings_at_the_points_of_the_issue(name, point, value, gradient):
    got_value, got_gradient = run_numpy(name, point)
    assert same_float(got_value, value)
    assert all(same_float(g, w) for g, w in zip(got_gradient, gradient)), got_gradient


def test_numpy_clip_passes_the_gradient_to_the_argument_returned():
    clip = tape.grad(lambda x, lo, hi: np.clip(x, lo, hi))
    assert clip(0.5, -1.0, 1.0) == (1.0, 0.0, 0.0)
    assert clip(-3.0, -1.0, 1.0) == (0.0, 1.0, 0.0)
    assert clip(1.0, -1.0, 1.0) == (1.0, 0.0, 0.0)  # on the bound itself: to x
    assert clip(math.nan, -1.0, 1.0) == (1.0, 0.0, 0.0)  # numpy returns the nan x
    assert clip(0.0, 1.0, -1.0) == (0.0, 0.0, 1.0)  # hi < lo: numpy returns hi


def test_math_spellings_keep_math_semantics():
    for fn, point in [(math.log, 0.0), (math.atanh, 1.0), (math.sin, math.inf),
                      (math.sqrt, -1.0), (math.exp, 1000.0)]:
        with pytest.raises((ValueError, OverflowError)):
            fn(point)
        with pytest.raises((ValueError, OverflowError)):
            tape.grad(lambda x: fn(x))(point)
    with pytest.raises(ValueError):
        tape.grad(lambda x: math.pow(x, 0.5))(-1.0)


def test_numpy_spellings_of_plain_numbers_are_numpy_itself():
    assert type(tape.on_values(lambda x: np.sin(x))(0.5)) is np.float64
    with np.errstate(divide="ignore"):
        assert tape.on_values(lambda x: np.log(x))(0.0) == -math.inf


def test_math_fmod_by_nan_is_nan_with_a_derivative():
    """math.fmod(1.0, nan) is nan; the partial ``-trunc(x / y)`` once raised there."""
    value, (dx, dy) = tape.value_and_grad(lambda x, y: math.fmod(x, y))(1.0, math.nan)
    assert math.isnan(value) and dx == 1.0 and math.isnan(dy)


# --- ints too large for a float -----------------------------------------------------------

BIG = 10 ** 400


@pytest.mark.parametrize("fn, want", [
    (lambda x: math.log(x), 0.0),           # 1 / 10**400 rounds to 0
    (lambda x: math.log10(x) * 2.0, 0.0),
    (lambda x: x // 10 ** 399 + 1.5, 0.0),  # piecewise constant
    (lambda x: x * x, math.inf),            # 2 * 10**400 is beyond a float
    (lambda x: -x + abs(x), 0.0),
    (lambda x: x % 7, 1.0),
], ids=["log", "log10", "floordiv", "square", "neg abs", "mod"])
def test_ints_too_large_for_a_float(fn, want):
    value, derivative = tape.value_and_grad(fn)(BIG)
    expected = fn(BIG)
    assert value == (float(expected) if abs(expected) < 1e308 else expected)
    assert derivative == want


def test_a_big_int_that_the_function_cannot_take_raises_as_the_function_does():
    for fn in (lambda x: math.sqrt(x), lambda x: x * 0.5, lambda x: float(x)):
        with pytest.raises(OverflowError):
            fn(BIG)
        with pytest.raises(OverflowError):
            tape.grad(fn)(BIG)


MATH_UNARY = [name for name in ("sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh "
                                "exp expm1 log log1p log2 log10 sqrt fabs erf erfc floor ceil "
                                "degrees radians cbrt exp2").split() if hasattr(math, name)]
MATH_BINARY = ["atan2", "pow", "hypot", "fmod", "copysign", "log"]


def outcome(fn, args):
    try:
        return "value", fn(*args)
    except Exception as exc:
        return "raises", type(exc)


@pytest.mark.parametrize("name", MATH_UNARY + MATH_BINARY)
def test_math_spellings_raise_where_math_raises_and_nowhere_else(name):
    """Forward as math computes it, bit for bit or the same exception; where it succeeds,
    the derivatives are numbers, never an exception (special values and big ints too)."""
    function = getattr(math, name)
    arity = 1 if name in MATH_UNARY else 2
    values = SPECIAL + [BIG, -BIG, 3]
    points = [(x,) for x in values] if arity == 1 else [(x, y) for x in values for y in values]
    fn = (lambda x: function(x)) if arity == 1 else (lambda x, y: function(x, y))
    differentiated = tape.value_and_grad(fn, wrt=tuple(range(arity)))
    for point in points:
        want = outcome(function, point)
        got = outcome(differentiated, point)
        assert got[0] == want[0], (name, point, want, got)
        if want[0] == "raises":
            assert got[1] is want[1], (name, point, want, got)
            continue
        value, gradient = got[1]
        expected = want[1] if isinstance(want[1], float) or abs(want[1]) > 2 ** 1000 else float(
            want[1])
        assert same_float(value, expected) if isinstance(value, float) else value == expected
        assert all(isinstance(d, float) for d in gradient), (name, point, gradient)


def test_numpy_functions_of_a_value_keep_its_derivative_outside_grad():
    v = tape.Value(0.5)
    y = np.tanh(v) * np.float64(2.0) + np.int64(1) - np.float64(3.0) / v
    y.backward()
    assert isinstance(y, tape.Value)
    assert v.grad == pytest.approx(2 * (1 - math.tanh(0.5) ** 2) + 3 / 0.25, rel=1e-15)
    assert (np.float64(2.0) < v, np.float64(0.1) < v, v <= np.float64(0.5)) == (False, True, True)
    assert (np.float64(1.0) / tape.Value(0.0)).data == math.inf  # numpy's division
    assert np.heaviside(v, 0.5) == 1.0  # a step: a plain number, derivative 0
    with pytest.raises(TypeError, match="spacing"):
        np.spacing(v)
