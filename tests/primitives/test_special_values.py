"""The promise "the gradient raises exactly where the function raises", at special values.

Every primitive, under every name a user can call it by (``tests/primitives/test_rules.py``'s
``SPELLINGS``), is run at 0, -0.0, ±inf, nan, 5e-324, 1e-200, 1e308 and ints too large
for a float (±10**400) in each argument position, the other arguments at ordinary values
(0.7, -1.5 and the small ints 2, 0, -1 programs write as constants).  At every point:

- the function raises if and only if the gradient raises, with the same exception type
  (numpy's spellings under numpy's default ``errstate``: warnings, no exceptions), but
  for an ``OverflowError`` of a value only the function's result needs: the gradient
  does not compute that value, and gives a real derivative there (``value_and_grad``
  computes it, and raises as the function does);
- where neither raises, the gradient is real (never complex) and matches the tape engine
  wherever the tape computes one; where the tape cannot (it raises), it is a float;
- an int too large for a float is outside the promise, as README says: a gradient is a
  float, so where one of the two meets such an int as a float and the other does not,
  the one that does raises ``OverflowError`` and that is the only difference allowed.

The cases the promise was broken by are kept by name below, as is each row of README's
table of conventions, read from README itself.
"""

import ast
import itertools
import math
import random
import re
import warnings
from pathlib import Path

import pytest

import symdiff
import symdiff.tape
from symdiff.primitives.registry import rule_of

try:
    import test_rules
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.primitives import test_rules

np = pytest.importorskip("numpy")

HUGE = 10 ** 400
SPECIAL = (0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 1e-200, 1e308, HUGE, -HUGE)
ORDINARY = (0.7, -1.5, 2, 0, -1)
SPELLINGS = test_rules.SPELLINGS
RTOL = 1e-9


def outcome(fn, args):
    """What calling ``fn`` gives: its value, or the class of what it raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args)
        except Exception as error:  # the exception is the outcome to compare
            return type(error)


def raised(value):
    return isinstance(value, type) and issubclass(value, BaseException)


def values(value):
    return value if isinstance(value, tuple) else (value,)


def only_value_overflows(fn, grad, point):
    """Where ``fn`` raises ``OverflowError`` and its gradient gives ``grad``: whether that
    is an overflow of the value alone (``value_and_grad`` raises it, as ``fn`` does) and
    ``grad`` is a real derivative."""
    both = outcome(symdiff.value_and_grad(fn), point)
    return both is OverflowError and all(isinstance(g, (float, int)) and not isinstance(
        g, bool) for g in values(grad))


def same(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= RTOL * max(1.0, abs(a), abs(b))


def points(op):
    """Each special value in each position, the others at ordinary values (but no int
    raised to the power 10**400, no rounding to 10**400 digits: computing those exactly
    takes forever)."""
    arity = len(rule_of(op).partials)
    for position in range(arity):
        for others in itertools.product(ORDINARY, repeat=arity - 1):
            for special in SPECIAL:
                point = list(others)
                point.insert(position, special)
                if op in ("pow", "roundn") and huge(point[1:]):
                    continue
                yield tuple(point)


def huge(point):
    return any(isinstance(v, int) and abs(v) >= 2 ** 1024 for v in point)


def convention(spelling, op, point):
    """The gradient a stated convention gives where the tape is no witness; else None.

    numpy's ``maximum``, ``minimum`` and ``clip`` return a nan argument (the first nan
    of x, lo, hi) where the tape, computing with Python's ``max`` and ``min``, returns
    another: the gradient goes to the argument returned, so all of it to that nan.
    And the tape's ``1 / (x * log(y))`` underflows to a division by -0.0 at x = 5e-324,
    where the derivative 1 / (x log y) is -5.6e323 for y = 0.7: -inf.  numpy's logarithms
    at -0.0 (where they give -inf): the derivative 1 / x is 1 / -0.0, -inf; the tape
    gives +inf.
    """
    if spelling in ("np.log", "np.log2", "np.log10") and point == (0.0,) and (
            math.copysign(1.0, point[0]) < 0):
        return (-math.inf,)
    if spelling.startswith("np.") and op in ("max", "min", "clip"):
        nans = [i for i, v in enumerate(point) if isinstance(v, float) and math.isnan(v)]
        if nans:
            return tuple(1.0 if i == nans[0] else 0.0 for i in range(len(point)))
    if op == "norm_logcdf" and point[0] == point[1] and point[2] > 0:
        return (None, None, 0.0)  # z = 0 exactly: d/dscale = -z / scale * phi / Phi = 0
    if op == "logb" and point[0] == 5e-324 and 0 < point[1] < 1:
        return (-math.inf, None)
    return None


def problems(spelling, op, fn, gradient, point):
    """What is wrong with the gradient of ``fn`` at ``point``: a list of strings."""
    value, grad = outcome(fn, point), outcome(gradient, point)
    if huge(point):
        if raised(value) != raised(grad) and OverflowError not in (value, grad):
            return [f"at {point!r}: the function gives {value!r}, the gradient {grad!r}"]
        return []
    if value is OverflowError and not raised(grad):
        return [] if only_value_overflows(fn, grad, point) else [
            f"at {point!r}: the function gives {value!r}, the gradient {grad!r}"]
    if raised(value) or raised(grad):
        if value is not grad:
            return [f"at {point!r}: the function gives {value!r}, the gradient {grad!r}"]
        return []
    found = []
    if any(isinstance(g, complex) or not isinstance(g, (float, int)) for g in values(grad)):
        found.append(f"at {point!r}: the gradient {grad!r} is not real")
        return found
    expected = convention(spelling, op, point)
    if expected is not None:
        if not all(e is None or same(float(g), e) for g, e in zip(values(grad), expected)):
            found.append(f"at {point!r}: the gradient {grad!r}, the convention {expected!r}")
        return found
    taped = outcome(symdiff.tape.grad(fn), point)
    if raised(taped) or any(isinstance(t, complex) for t in values(taped)):
        return found  # the tape cannot witness this point
    if not all(same(float(g), float(t)) for g, t in zip(values(grad), values(taped))):
        found.append(f"at {point!r}: the gradient {grad!r}, the tape {taped!r}")
    return found


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    """One module holding a function per spelling (``f<index>``), imported from a file."""
    lines = ["import math", "import numpy as np"]
    if test_rules.HAVE_SCIPY:
        lines += ["from scipy import special", "from scipy.stats import norm",
                  "import scipy.stats as st"]
    lines.append("")
    for i, (_, op, expression) in enumerate(SPELLINGS):
        params = ", ".join(test_rules.PARAMS[:len(rule_of(op).partials)])
        prelude, _, expression = expression.rpartition("; ")  # `a, b = math.frexp(x); a`
        body = f"{prelude}; return {expression}" if prelude else f"return {expression}"
        lines += ["", f"def f{i}({params}):", f"    {body}", ""]
    return load(tmp_path_factory.mktemp("special"), "special_spellings", "\n".join(lines))


def load(directory, name, text):
    import importlib.util
    path = Path(directory) / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


@pytest.mark.parametrize("index", range(len(SPELLINGS)), ids=[s[0] for s in SPELLINGS])
def test_gradient_raises_where_the_function_raises(module, index):
    spelling, op, _ = SPELLINGS[index]
    fn = getattr(module, f"f{index}")
    gradient = symdiff.grad(fn)
    found = [p for point in points(op)
             for p in problems(spelling, op, fn, gradient, point)]
    assert not found, f"{spelling}: {len(found)} points\n" + "\n".join(found[:12])


# --- the cases the promise was broken by ------------------------------------------------

REPORTED = '''
import math
import numpy as np


def power_zero(x):
    return x ** 0


def power_minus_one(x):
    return x ** -1


def angle(x):
    return math.atan2(x, 0.0)


def remainder(x, y):
    return math.fmod(x, y)


def np_log(x):
    return np.log(x)


def np_arctanh(x):
    return np.arctanh(x)


def np_sin(x):
    return np.sin(x)


def np_power(x, y):
    return np.power(x, y)


def square(x):
    return x * x


def math_pow(x, y):
    return math.pow(x, y)


def fabs(x):
    return math.fabs(x)


def power(x, y):
    return x ** y


def np_clip(x):
    return np.clip(x, -1.0, 1.0)


def np_quotient(x, y):
    return np.multiply(x, y) / 0


def np_late(x, y):
    s = x
    t = 0.0
    for i in range(2):
        t = s / (y - i)
        s = np.sin(s)
    return t
'''

# (function, point): the function and the gradient each give a value there
BOTH_GIVE_VALUES = [("power_zero", (5e-324,)), ("power_minus_one", (1e-200,)),
                    ("angle", (1e-200,)), ("remainder", (1.0, math.nan)), ("np_log", (0.0,)),
                    ("np_arctanh", (1.0,)), ("np_sin", (math.inf,)), ("np_power", (-1.0, 0.5)),
                    # an operator on a numpy scalar computes as numpy does, its partials too
                    ("np_quotient", (1.0, 2.0)), ("np_late", (0.5, 1.0))]
# (function, point, exception): the function raises there, and so does the gradient
BOTH_RAISE = [("math_pow", (-1.0, 0.5), ValueError), ("math_pow", (0.0, -1.0), ValueError),
              ("math_pow", (1e300, 2.0), OverflowError)]


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    return load(tmp_path_factory.mktemp("reported"), "reported_cases", REPORTED)


@pytest.mark.parametrize("name, point", BOTH_GIVE_VALUES)
def test_where_the_function_gives_a_value_so_does_the_gradient(reported, name, point):
    fn = getattr(reported, name)
    assert not raised(outcome(fn, point))
    grad = outcome(symdiff.grad(fn), point)
    assert not raised(grad) and all(isinstance(g, float) for g in values(grad)), grad


@pytest.mark.parametrize("name, point, error", BOTH_RAISE)
def test_where_the_function_raises_the_gradient_raises_the_same(reported, name, point, error):
    fn = getattr(reported, name)
    assert outcome(fn, point) is error
    assert outcome(symdiff.grad(fn), point) is error
    assert outcome(symdiff.grad(fn, optimize=False), point) is error


def test_math_pow_keeps_its_spelling(reported):
    text = symdiff.source(reported.math_pow)
    assert "math.pow(x, y)" in text and "**" not in text.split("reverse sweep")[0]
    assert isinstance(symdiff.value_and_grad(reported.math_pow)(2, 3)[0], float)


def test_numpy_spellings_give_what_numpy_gives(reported):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert symdiff.grad(reported.np_log)(0.0) == math.inf
        assert symdiff.grad(reported.np_arctanh)(1.0) == math.inf
        assert math.isnan(symdiff.grad(reported.np_sin)(math.inf))
        assert all(math.isnan(g) for g in symdiff.grad(reported.np_power)(-1.0, 0.5))
    with np.errstate(all="raise"):  # and numpy's errstate decides, forward and gradient alike
        with pytest.raises(FloatingPointError):
            symdiff.grad(reported.np_log)(0.0)


def test_huge_ints_are_refused_alike_or_overflow(reported):
    """README: a gradient is a float, so an int too large for one overflows it."""
    assert outcome(symdiff.grad(reported.square), (HUGE,)) is OverflowError
    assert outcome(reported.fabs, (HUGE,)) is OverflowError


# --- README's table of conventions, row by row ----------------------------------------

README = Path(__file__).resolve().parent.parent.parent / "README.md"

CONVENTIONS = '''
import math
import numpy as np


def absolute(x):
    return abs(x)


def math_fabs(x):
    return math.fabs(x)


def np_abs(x):
    return np.abs(x)


def maximum(a, b):
    return max(a, b)


def minimum(a, b):
    return min(a, b)


def np_maximum(a, b):
    return np.maximum(a, b)


def np_minimum(a, b):
    return np.minimum(a, b)


def root(x):
    return math.sqrt(x)


def np_root(x):
    return np.sqrt(x)


def power(x, y):
    return x ** y


def power_zero(x):
    return x ** 0


def arcsin(x):
    return math.asin(x)


def arccos(x):
    return math.acos(x)


def arccosh(x):
    return math.acosh(x)


def angle(y, x):
    return math.atan2(y, x)


def length(x, y):
    return math.hypot(x, y)


def steps(x, y):
    return math.floor(x) + math.ceil(x) + math.trunc(x) + int(x) + round(x) + x // y


def np_steps(x):
    return np.sign(x) + np.rint(x)


def np_heaviside(x, h):
    return np.heaviside(x, h) * 3.0


def clip(x, lo, hi):
    return np.clip(x, lo, hi)


def fmax(a, b):
    return np.fmax(a, b)


def fmin(a, b):
    return np.fmin(a, b)


def cube_root(x):
    return np.cbrt(x)


def remainder(x, y):
    return x % y


def math_remainder(x, y):
    return math.fmod(x, y)


def divmod_parts(x, y):
    q, r = divmod(x, y)
    return 3.0 * r + x * q


def branch(x):
    if x > 0.0:
        return 2.0 * x
    return -x
'''

NAN, INF = math.nan, math.inf


def _check_abs(m):
    for fn in (m.absolute, m.math_fabs, m.np_abs):
        assert _grad(fn, 0.0) == 0.0 and _grad(fn, -0.0) == 0.0


def _returned(fn, a, b):
    """Which argument ``fn`` returns: 0 or 1 (the first when both are alike)."""
    value = fn(a, b)
    same_as = [math.isnan(value) if math.isnan(v) else v == value and not math.isnan(value)
               for v in (a, b)]
    return same_as.index(True)


def _check_gradient_to_returned(*fns, points):
    for fn in fns:
        for a, b in points:
            expected = [0.0, 0.0]
            expected[_returned(fn, a, b)] = 1.0
            assert _same_values(_grad(fn, a, b), expected), (fn.__name__, a, b)


def _check_max_min(m):
    _check_gradient_to_returned(m.maximum, m.minimum, points=[
        (1.0, 2.0), (2.0, 1.0), (1.5, 1.5), (-0.0, 0.0)])


def _check_np_max_min(m):
    _check_gradient_to_returned(m.np_maximum, m.np_minimum, points=[
        (1.0, 2.0), (2.0, 1.0), (1.5, 1.5), (NAN, 1.0), (1.0, NAN), (NAN, NAN)])


def _check_sqrt(m):
    assert _grad(m.root, 0.0) == INF and _grad(m.np_root, 0.0) == INF


def _check_power_at_zero(m):
    for y, dx in ((0.5, INF), (1.0, 1.0), (1, 1.0), (2.0, 0.0), (3.5, 0.0), (INF, NAN)):
        assert _same_values(_grad(m.power, 0.0, y), (dx, 0.0)), y


def _check_power_negative_base(m):
    assert math.isnan(_grad(m.power, -2.0, 3.0)[1])


def _check_power_zero(m):
    for x in (NAN, INF, -INF, 0.0, -0.0, 5e-324, 1e-200, 2.5, -3.0):
        assert _grad(m.power_zero, x) == 0.0, x


def _check_inverse_trig(m):
    assert _grad(m.arcsin, 1.0) == INF and _grad(m.arcsin, -1.0) == INF
    assert _grad(m.arccos, 1.0) == -INF and _grad(m.arccos, -1.0) == -INF
    assert _grad(m.arccosh, 1.0) == INF


def _check_atan2(m):
    assert _same_values(_grad(m.angle, 0.0, 0.0), (NAN, NAN))


def _check_hypot(m):
    assert _grad(m.length, 0.0, 0.0) == (0.0, 0.0)


def _check_steps(m):
    for x in (2.0, 2.5, -1.0, 0.0):
        assert _grad(m.steps, x, 0.5) == (0.0, 0.0) and _grad(m.np_steps, x) == 0.0
        assert _grad(m.np_heaviside, x, 0.5) == (0.0, 0.0)  # also at 0, where h is the value


def _check_clip(m):
    for point, expected in (((0.5, -1.0, 1.0), (1, 0, 0)), ((-2.0, -1.0, 1.0), (0, 1, 0)),
                            ((2.0, -1.0, 1.0), (0, 0, 1)), ((-1.0, -1.0, 1.0), (1, 0, 0)),
                            ((1.0, -1.0, 1.0), (1, 0, 0)), ((0.5, 1.0, -1.0), (0, 0, 1)),
                            ((NAN, -1.0, 1.0), (1, 0, 0)), ((0.5, NAN, 1.0), (0, 1, 0)),
                            ((0.5, -1.0, NAN), (0, 0, 1)), ((NAN, NAN, NAN), (1, 0, 0))):
        value = m.clip(*point)
        returned = [i for i, v in enumerate(point) if v == value or (
            math.isnan(v) and math.isnan(value))]
        assert expected.index(1) in returned, point  # the table's claim is numpy's answer
        assert _same_values(_grad(m.clip, *point), expected), point


def _check_fmax_fmin(m):
    for fn in (m.fmax, m.fmin):
        assert _grad(fn, NAN, 1.0) == (0.0, 1.0) and _grad(fn, 1.0, NAN) == (1.0, 0.0)
    _check_gradient_to_returned(m.fmax, m.fmin, points=[(1.0, 2.0), (2.0, 1.0), (1.5, 1.5)])


def _check_cbrt(m):
    assert _grad(m.cube_root, 0.0) == INF


def _check_remainder(m):
    for x, y in ((7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (1.0, 3.0)):
        assert _grad(m.remainder, x, y) == (1.0, -(x // y))
        assert _grad(m.math_remainder, x, y) == (1.0, -math.trunc(x / y))
        assert _grad(m.divmod_parts, x, y) == (3.0 + x // y, -3.0 * (x // y))  # q: 0


def _check_branch(m):
    assert _grad(m.branch, 1.0) == 2.0 and _grad(m.branch, -1.0) == -1.0
    assert _grad(m.branch, 0.0) == -1.0  # the branch taken at 0 is the else


def _check_zero_d_array(m):
    import numpy as np
    for dtype in (np.float64, np.float32):
        for other in (1.5, np.float64(1.5), np.float32(1.5)):
            ds, dt = _grad(m.exp_times, np.array(0.5, dtype=dtype), other)
            assert type(ds) is np.ndarray and ds.shape == () and ds.dtype == dtype
            assert type(dt) is float and math.isclose(ds, 1.5 * math.exp(0.5), rel_tol=1e-6)
            assert type(_grad(m.exp_times, dtype(0.5), other)[0]) is float
            ds, dt = _grad(m.summed_exp_times, np.array(0.5, dtype=dtype), other)
            assert type(ds) is np.ndarray and ds.shape == () and ds.dtype == dtype
    assert type(_grad(m.exp_times, 0.5, np.array(1.5))[1]) is np.ndarray


CONVENTIONS += """

def exp_times(s, t):
    return np.exp(s) * t


def summed_exp_times(s, t):
    return np.sum(np.exp(s) * t)
"""


CONVENTIONS += """

def square_plus(x, y):
    return x ** 2 + y


def loop_of_squares(xs):
    s = 0.0
    for i in range(len(xs) - 1):
        d = xs[i + 1] - xs[i] ** 2
        s += 100.0 * d ** 2 + (1.0 - xs[i]) ** 2
    return s


def log_term(x):
    return 3.0 * x + math.log(x)


def atanh_term(x):
    return x + math.atanh(x)


def log_gamma(x):
    return math.lgamma(x)


def gamma_function(x):
    return math.gamma(x)


def integer_functions(x, n):
    flag = 1.0 if math.isnan(x) or math.isinf(x) or not math.isfinite(x) else 0.0
    near = 1.0 if math.isclose(x, 2.0) else 0.0
    return x * math.factorial(n) + math.comb(n, 2) + math.perm(n, 2) + math.ulp(x) + flag + near


def step_after(x, y):
    return math.nextafter(x, y)


def rounded_remainder(x, y):
    return math.remainder(x, y)


def length3(x, y, z):
    return math.hypot(x, y, z) + math.dist((x, y), (z, 0.0))


def product3(a, b, c):
    return math.prod((a, b, c))


def signed(x, y):
    return math.copysign(x, y)


def scaled(x, i):
    return math.ldexp(x, i)


def split(x):
    m, e = math.frexp(x)
    f, i = math.modf(x)
    return 3.0 * m + e + 5.0 * f + i


def sinc(x):
    return np.sinc(x)
"""


def _check_gamma(m):
    for pole in (0.0, -1.0, -2.0):
        for fn in (m.log_gamma, m.gamma_function):
            with pytest.raises(ValueError):
                fn(pole)
            with pytest.raises(ValueError):
                _grad(fn, pole)
    for x in (0.5, 2.5, -1.5, 7.0):
        assert same(_grad(m.log_gamma, x), symdiff.tape.grad(m.log_gamma)(x))
        assert same(_grad(m.gamma_function, x), symdiff.tape.grad(m.gamma_function)(x))


def _check_integer_functions(m):
    for x in (0.5, 2.0, -3.0):
        dx, dn = symdiff.grad(m.integer_functions, wrt=("x", "n"))(x, 4)
        assert dx == math.factorial(4) and dn == 0.0


def _check_nextafter(m):
    assert _grad(m.step_after, 1.0, 2.0) == (1.0, 0.0)


def _check_copysign(m):
    for (x, y), expected in (((2.0, 1.0), 1.0), ((2.0, -1.0), -1.0), ((-2.0, 1.0), -1.0),
                             ((-2.0, -1.0), 1.0), ((0.0, 1.0), 1.0), ((0.0, -1.0), -1.0)):
        assert _grad(m.signed, x, y) == (expected, 0.0)
        assert symdiff.tape.grad(m.signed)(x, y) == (expected, 0.0)


def _check_ldexp(m):
    for x, i in ((1.5, 3), (-0.25, -2), (0.0, 5)):
        assert symdiff.grad(m.scaled, wrt="x")(x, i) == 2.0 ** i


def _check_frexp_modf(m):
    for x in (0.0, 1.5, -6.25, 1e-300):
        mantissa = math.frexp(x)[0] / x if x else 1.0
        assert _grad(m.split, x) == 3.0 * mantissa + 5.0


def _check_sinc(m):
    assert _grad(m.sinc, 0.0) == 0.0
    assert same(_grad(m.sinc, 1e-3), symdiff.tape.grad(m.sinc)(1e-3))


def _check_rounded_remainder(m):
    for x, y in ((7.5, 2.0), (-7.5, 2.0), (5.0, 3.0)):
        n = round(x / y)
        assert _grad(m.rounded_remainder, x, y) == (1.0, -float(n))


def _check_zero_length(m):
    assert _grad(m.length3, 0.0, 0.0, 0.0) == (0.0, 0.0, 0.0)


def _check_product(m):
    assert _grad(m.product3, 0.0, 2.0, 3.0) == (6.0, 0.0, 0.0)
    assert _grad(m.product3, 0.0, 0.0, 3.0) == (0.0, 0.0, 0.0)


def _scipy(m):
    return pytest.importorskip("scipy.special"), pytest.importorskip("scipy.stats").norm


def _check_xlogy(m):
    special, _ = _scipy(m)
    assert _grad(lambda x, y: special.xlogy(x, y), 2.0, 0.0) == (-math.inf, math.inf)
    assert _grad(lambda x, y: special.xlogy(x, y), 0.0, 0.0)[1] == 0.0
    assert _grad(lambda x, y: special.xlog1py(x, y), 2.0, -1.0)[0] == -math.inf


def _check_zeta(m):
    """``zeta(s, x)``: ``-s * zeta(s + 1, x)`` in ``x`` against a central difference of
    SciPy's values; by ``s`` refused where the call is."""
    special, _ = _scipy(m)
    for s, x in ((2.0, 0.7), (3.5, 2.0)):
        h = 1e-6 * x
        numeric = (special.zeta(s, x + h) - special.zeta(s, x - h)) / (2 * h)
        gradient = symdiff.grad(lambda x: special.zeta(s, x))(x)
        assert abs(gradient - numeric) <= 1e-6 * abs(numeric)
    with pytest.raises(symdiff.SymdiffError) as refused:
        _grad(lambda s, x: special.zeta(s, x), 2.0, 0.7)
    assert not isinstance(refused.value, symdiff.InternalError) and refused.value.lineno


def _check_logit_scale(m):
    special, norm = _scipy(m)
    assert math.isnan(_grad(lambda p: special.logit(p), 1.5))
    assert all(math.isnan(g) for g in _grad(lambda x, s: norm.cdf(x, 0.0, s), 0.5, -1.0))


def _check_ndtri(m):
    special, norm = _scipy(m)
    assert _grad(lambda q: special.ndtri(q), 0.0) == math.inf
    assert _grad(lambda q: norm.ppf(q), 1.0) == math.inf


def _check_log_ndtr(m):
    special, norm = _scipy(m)
    for x in (-30.0, -8.0, 0.5):
        h = 1e-5 * max(1.0, abs(x))
        numeric = (special.log_ndtr(x + h) - special.log_ndtr(x - h)) / (2 * h)
        for gradient in (_grad(lambda t: special.log_ndtr(t), x), _grad(lambda t: norm.logcdf(t), x)):
            assert math.isfinite(gradient) and abs(gradient - numeric) <= 1e-6 * abs(numeric)


def _check_value_overflow(m):
    """The derivative where only the value overflows, against its closed form; the
    function, ``value_and_grad`` and the unoptimized gradient (which computes the value)
    raise; a domain error of a value only the result needs is raised still."""
    def loop_closed_form(xs):
        x0, x1 = xs
        return [-400.0 * x0 * (x1 - x0 * x0) - 2.0 * (1.0 - x0), 200.0 * (x1 - x0 * x0)]

    cases = [(m.square_plus, (1e200, 1.0), lambda x, y: (2.0 * x, 1.0)),
             (m.square_plus, (-1e155, 0.5), lambda x, y: (2.0 * x, 1.0)),
             (m.loop_of_squares, ([0.5, 1e155],), loop_closed_form)]
    for fn, point, closed_form in cases:
        for raising in (fn, symdiff.value_and_grad(fn), symdiff.grad(fn, optimize=False)):
            assert outcome(raising, point) is OverflowError, (fn.__name__, point)
        got, want = list(_grad(fn, *point)), list(closed_form(*point))
        assert len(got) == len(want) and all(same(g, w) for g, w in zip(got, want)), got
    for fn, point in ((m.log_term, -1.0), (m.log_term, 0.0), (m.atanh_term, 2.0)):
        for gradient in (symdiff.grad(fn), symdiff.value_and_grad(fn)):
            assert outcome(gradient, (point,)) is outcome(fn, (point,)) is ValueError


ROW_CHECKS = {
    "`abs(x)`, `fabs(x)` at 0": _check_abs,
    "`max(a, b)`, `min(a, b)`": _check_max_min,
    "`np.maximum`, `np.minimum`": _check_np_max_min,
    "`sqrt(x)` at 0": _check_sqrt,
    "`x ** y` at `x = 0`": _check_power_at_zero,
    "`x ** y` at `x < 0`": _check_power_negative_base,
    "`x ** 0`": _check_power_zero,
    "`asin`, `acos` at ±1; `acosh` at 1": _check_inverse_trig,
    "`atan2(y, x)` at the origin": _check_atan2,
    "`hypot(x, y)` at the origin": _check_hypot,
    "`floor`, `ceil`, `trunc`, `int`, `round`, `//`, `np.sign`, `np.rint`, `np.heaviside(x, h)`":
        _check_steps,
    "`np.clip(x, lo, hi)`": _check_clip,
    "`np.fmax`, `np.fmin`": _check_fmax_fmin,
    "`cbrt(x)` at 0": _check_cbrt,
    "`lgamma`, `gamma` at 0, -1, -2, ...": _check_gamma,
    "`factorial`, `comb`, `perm`, `ulp`, `isnan`, `isinf`, `isfinite`, `isclose`":
        _check_integer_functions,
    "`nextafter(x, y)`": _check_nextafter,
    "`copysign(x, y)`": _check_copysign,
    "`ldexp(x, i)`": _check_ldexp,
    "`m, e = frexp(x)`; `f, i = modf(x)`": _check_frexp_modf,
    "`np.sinc(x)` at 0": _check_sinc,
    "`remainder(x, y)`": _check_rounded_remainder,
    "`hypot(x, y, z, ...)`, `dist(p, q)` at zero length": _check_zero_length,
    "`prod((a, b, c))`": _check_product,
    "`xlogy(x, y)`, `xlog1py(x, y)` at `y = 0` (`-1`)": _check_xlogy,
    "`zeta(s, x)`": _check_zeta,
    "`logit` outside (0, 1); `norm.*` with `scale <= 0`": _check_logit_scale,
    "`ndtri`, `norm.ppf` at 0 and 1": _check_ndtri,
    "`log_ndtr`, `norm.logcdf`": _check_log_ndtr,
    "`x % y`, `fmod(x, y)`, `r` of `q, r = divmod(x, y)`": _check_remainder,
    "a branch condition": _check_branch,
    "an `OverflowError` of a value only the result needs": _check_value_overflow,
    "a 0-d array argument": _check_zero_d_array,
}


def _grad(fn, *point):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return symdiff.grad(fn)(*point)


def _same_values(got, expected):
    return len(values(got)) == len(expected) and all(
        same(float(g), float(e)) for g, e in zip(values(got), expected))


def table_rows():
    """The first cell of each row of README's table of conventions."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Conventions at non-differentiable points", 1)[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]
    return [re.match(r"\|\s*(.*?)\s*\|", row).group(1) for row in rows]


def test_every_row_of_the_table_is_checked():
    assert table_rows() == list(ROW_CHECKS)


@pytest.fixture(scope="module")
def conventions(tmp_path_factory):
    return load(tmp_path_factory.mktemp("conventions"), "convention_cases", CONVENTIONS)


@pytest.mark.parametrize("row", list(ROW_CHECKS))
def test_the_table_row_holds(conventions, row):
    ROW_CHECKS[row](conventions)


# --- fuzzing: random compositions of primitives at special values ----------------------

FUZZ_PROGRAMS = 150  # per seed: bounded, a few seconds
FUZZ_POINTS = 6
FUZZ_VALUES = tuple(v for v in SPECIAL if not isinstance(v, int)) + (0.5, -2.0, 3.0)
LEAVES = ("x", "y", "x", "y", "0.0", "0", "-1", "2", "0.5", "-1.5")
# round(x, int(y)) at y = -1e308 takes forever on ints; every other spelling is drawn
FUZZ_SPELLINGS = [s for s in SPELLINGS if s[1] != "roundn" and "; " not in s[2]]


class _Fill(ast.NodeTransformer):
    def __init__(self, arguments):
        self.arguments = arguments

    def visit_Name(self, node):
        return self.arguments.get(node.id, node)


def composition(rng, depth):
    """A random expression over x and y: primitives of every spelling, nested."""
    if depth == 0 or rng.random() < 0.25:
        return ast.parse(rng.choice(LEAVES), mode="eval").body
    _, op, text = rng.choice(FUZZ_SPELLINGS)
    arguments = {name: composition(rng, depth - 1)
                 for name in test_rules.PARAMS[:len(rule_of(op).partials)]}
    return _Fill(arguments).visit(ast.parse(text, mode="eval").body)


def special_program(seed, index):
    rng = random.Random(f"special {seed} {index}")
    name = f"special_{seed}_{index}"
    body = ast.unparse(composition(rng, rng.choice((1, 2, 2, 3))))
    return name, f"def {name}(x, y):\n    return {body}\n"


@pytest.mark.parametrize("seed", (41, 42))
def test_fuzz_gradient_and_function_raise_alike_on_special_values(tmp_path, seed):
    """Random compositions of primitives (every spelling, constants among the leaves) at
    points drawn from the special values: the function raises iff its gradient raises
    (optimized or not), with the same type, and a gradient that gives a value gives a
    real one."""
    programs = [special_program(seed, i) for i in range(FUZZ_PROGRAMS)]
    header = "import math\nimport numpy as np\n"
    if test_rules.HAVE_SCIPY:
        header += "from scipy import special\nfrom scipy.stats import norm\nimport scipy.stats as st\n"
    text = header + "\n\n" + "\n\n".join(p for _, p in programs)
    module = load(tmp_path, f"special_fuzz_{seed}", text)
    rng = random.Random(f"special points {seed}")
    found = []
    for name, source in programs:
        fn = getattr(module, name)
        gradients = (symdiff.grad(fn, wrt=(0, 1)), symdiff.grad(fn, wrt=(0, 1), optimize=False))
        for _ in range(FUZZ_POINTS):
            point = tuple(rng.choice(FUZZ_VALUES) for _ in range(2))
            value = outcome(fn, point)
            if isinstance(value, complex):
                continue  # `(-2.0) ** 0.5`: a function that is not real there has no gradient
            for gradient in gradients:
                grad = outcome(gradient, point)
                if value is OverflowError and not raised(grad):
                    alike = only_value_overflows(fn, grad, point)
                elif raised(value) or raised(grad):
                    alike = value is grad
                else:
                    alike = not any(isinstance(g, complex) for g in values(grad))
                if not alike:
                    found.append(f"at {point!r}: the function gives {value!r}, the gradient "
                                 f"{grad!r}\n{source}")
    assert not found, f"{len(found)} mismatches; the first:\n{found[0]}"
