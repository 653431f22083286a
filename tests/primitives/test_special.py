"""The gamma family and the other new primitives at the points where things go wrong.

- ``digamma`` and ``trigamma`` as generated code defines them (``symdiff.primitives.special``)
  and as the tape computes them (``symdiff.witnesses.tape.polygamma``), against mpmath at
  thousands of points: within a few ulps of the value, or of 1 near the function's zeros
  (where no float formula has relative accuracy), and ``nan`` at the poles.
- Every new primitive at 0, -0.0, ±inf, nan, 5e-324, 1e308 and the poles of gamma: the
  gradient raises exactly where the function raises, with the same exception class, and
  elsewhere agrees with the tape (bit for bit but for rounding; ``nan`` where it is ``nan``).
"""

import importlib.util
import math
import random

import pytest

import symdiff
import symdiff.tape
from symdiff.primitives import special
from symdiff.witnesses.tape import polygamma
from oracles import outcome

mpmath = pytest.importorskip("mpmath")
HAVE_SCIPY = importlib.util.find_spec("scipy") is not None
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy, at the poles

SPECIAL = (0.0, -0.0, 1.0, -1.0, -2.0, -3.5, 0.5, math.inf, -math.inf, math.nan, 5e-324,
           -5e-324, 1e308, -1e308, 171.0, 172.0)


def _generated(key):
    """The helper as generated code defines it."""
    scope = {"math": math}
    exec(compile(special.HELPERS[key], f"<{key}>", "exec"), scope)
    return scope[key]


def _sample():
    rng = random.Random("digamma")
    points = [rng.uniform(-30.0, 30.0) for _ in range(2000)]
    points += [10.0 ** rng.uniform(-12.0, 15.0) for _ in range(1500)]
    points += [-(10.0 ** rng.uniform(-12.0, 1.5)) for _ in range(800)]
    points += [n + d for n in range(-12, 3) for d in (1e-9, -1e-9, 0.25, -0.25)]
    return [x for x in points if not (x <= 0 and x == math.floor(x))]


POINTS = _sample()
FUNCTIONS = {"digamma": (mpmath.digamma, 16), "trigamma": (lambda x: mpmath.polygamma(1, x), 8)}
POSITIVE_ULPS = {"generated": 6, "tape": 8}  # for x > 0 where |value| >= 1 (4 and 5 measured)


@pytest.mark.parametrize("source", ["generated", "tape"])
@pytest.mark.parametrize("key", sorted(FUNCTIONS))
def test_gamma_derivatives_are_accurate(key, source):
    """Within ``ulps`` ulps of max(|value|, 1) everywhere; a few ulps of the value itself for
    positive arguments away from digamma's zero at 1.4616."""
    fn = _generated(key) if source == "generated" else getattr(polygamma, key)
    reference, ulps = FUNCTIONS[key]
    mpmath.mp.prec = 120
    worst = []
    for x in POINTS:
        want = float(reference(x))
        got = fn(x)
        error = abs(got - want) / math.ulp(max(abs(want), 1.0))
        if error > ulps:
            worst.append((error, x, got, want))
        if x > 0 and abs(want) >= 1.0:
            assert abs(got - want) <= POSITIVE_ULPS[source] * math.ulp(want), (x, got, want)
    assert not worst, sorted(worst)[-3:]


@pytest.mark.parametrize("key", sorted(FUNCTIONS))
def test_gamma_derivatives_at_poles_and_infinities(key):
    for fn in (_generated(key), getattr(polygamma, key)):
        for pole in (0.0, -0.0, -1.0, -2.0, -17.0, -1e300, -math.inf):
            assert math.isnan(fn(pole)), (fn, pole)
        assert math.isnan(fn(math.nan))
        assert fn(math.inf) == (math.inf if key == "digamma" else 0.0)


UNARY = ["math.lgamma(x)", "math.gamma(x)", "math.ulp(x)", "float(math.isnan(x)) + x",
         "math.fsum([x, 2.0 * x, 1.0])",
         "math.prod((x, x, 3.0))", "math.hypot(x, 2.0, x)", "math.dist((x, 1.0), (0.5, x))",
         "math.remainder(x, 0.7)", "math.remainder(1.3, x)", "math.nextafter(x, 0.0)",
         "math.ldexp(x, 3)", "math.log(x, 3.0)", "math.log(3.0, x)", "math.expm1(x)",
         "math.log1p(x)", "math.erf(x)", "math.erfc(x)", "m, e = math.frexp(x); m * e + m",
         "f, i = math.modf(x); f - 2.0 * i", "x * math.factorial(int(x))",
         "x * math.comb(7, 3) + math.perm(5, 2) + math.perm(4)",
         "x if math.isclose(x, 1.0, abs_tol=1e-3) else 2.0 * x",
         "x if math.isinf(x) or math.isnan(x) else x * x"]
SCIPY = ["special.gammaln(x)", "special.digamma(x)", "special.expit(x)", "special.log_expit(x)",
         "special.logit(x)",
         "special.xlogy(x, 2.0)", "special.xlogy(0.0, x)", "special.xlogy(2.0, x)",
         "special.xlog1py(x, 0.5)", "special.xlog1py(2.0, x)", "special.ndtr(x)",
         "special.log_ndtr(x)", "special.ndtri(x)", "norm.cdf(x)", "norm.cdf(1.0, 0.0, x)",
         "norm.pdf(x, 0.5, 2.0)", "norm.logpdf(0.3, x)", "norm.logcdf(x)", "norm.sf(x, scale=2.0)",
         "norm.ppf(x)", "norm.ppf(0.3, scale=x)"]


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    lines = ["import math"]
    if HAVE_SCIPY:
        lines += ["from scipy import special", "from scipy.stats import norm"]
    for i, expression in enumerate(UNARY + (SCIPY if HAVE_SCIPY else [])):
        prelude, _, expression = expression.rpartition("; ")
        lines += ["", "", f"def f{i}(x):"] + [f"    {prelude}"] * bool(prelude) + [
            f"    return {expression}"]
    path = tmp_path_factory.mktemp("special") / "special_values.py"
    path.write_text("\n".join(lines) + "\n")
    spec = importlib.util.spec_from_file_location("special_values", path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def _agree(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b)) + 1e-300


CASES = [(i, e) for i, e in enumerate(UNARY + (SCIPY if HAVE_SCIPY else []))]


@pytest.mark.parametrize("index, expression", CASES, ids=[e for _, e in CASES])
def test_gradient_raises_where_the_function_raises(module, index, expression):
    fn = getattr(module, f"f{index}")
    gradient, by_tape = symdiff.grad(fn), symdiff.tape.grad(fn)
    for x in SPECIAL:
        want, got = outcome(fn, (x,)), outcome(gradient, (x,))
        assert want[0] == got[0], (x, want, got)
        if want[0] == "raises":
            assert want[1] is got[1], (x, want, got)
            continue
        taped = outcome(by_tape, (x,))
        assert taped[0] == "value" and _agree(got[1], taped[1]), (x, got, taped)


def test_scipy_cases_are_checked_when_scipy_is_installed():
    """The SciPy half of the corpus runs with SciPy and is left out, with this reason, without."""
    try:
        from corpus import special as corpus
    except ImportError:  # run with the repository root, not tests/, on sys.path
        from tests.corpus import special as corpus
    if not HAVE_SCIPY:
        pytest.skip("SciPy is not installed: the scipy.special and scipy.stats cases are left out")
    assert [c.label for c in corpus.SCIPY_ONLY] == corpus.SCIPY_CASES


def log_likelihood(x):
    return 2.0 * math.lgamma(x) + math.gamma(x)


@pytest.mark.parametrize("x", [0.7, 2.5, -1.5, 12.0])
def test_second_derivatives_go_through_the_helper(x):
    """The gradient calls the digamma it defines; differentiated again, that def is inlined
    like any helper, loops and all, and gives the trigamma terms."""
    mpmath.mp.prec = 80
    want = 2.0 * float(mpmath.polygamma(1, x)) + float(mpmath.diff(mpmath.gamma, x, 2))
    got = symdiff.grad(symdiff.grad(log_likelihood))(x)
    assert abs(got - want) <= 1e-12 * abs(want)
    report = symdiff.check(symdiff.grad(log_likelihood), (x,))
    assert report.ok, str(report)
    value, tangent = symdiff.jvp(log_likelihood)(x, 1.0)
    assert value == log_likelihood(x) and tangent == symdiff.grad(log_likelihood)(x)


@pytest.mark.skipif(not HAVE_SCIPY, reason="SciPy is not installed")
def test_the_static_reader_binds_scipy_imports(tmp_path):
    """``symdiff show``/``check`` read a file without running it: its SciPy imports too."""
    from symdiff.frontend import static

    path = tmp_path / "pricing.py"
    path.write_text("import math\nimport scipy.stats as st\nfrom scipy import special\n"
                    "from scipy.stats import norm\nprint('never run')\n\n\n"
                    "def price(x, s):\n"
                    "    return norm.cdf(x) * st.norm.pdf(x, scale=s) + special.gammaln(s)\n")
    module = static.load(str(path))
    fn = module.function("price")
    report = symdiff.check(fn, (0.3, 1.5), (-0.8, 2.5))
    assert report.ok, str(report)
