"""End to end: the generated gradient of every corpus function against three witnesses.

The witnesses: central finite differences (with one Richardson step), the tape engine
(``symdiff.tape.grad``, which runs the unchanged function on ``Value``s) and sympy
(``symdiff.witnesses.symbolic.evaluate_grad``).  Then the properties the API promises: the
optimizer changes no bit, ``value_and_grad`` returns the function's value, ``wrt``
selects, integer inputs give float gradients, edge numerics follow the documented
conventions, the generated code does not grow with the iteration count, and the
generated text is the same in every run.

Points are drawn from each case's domain with a generator seeded by the case's name,
so every run checks the same points.
"""

import hashlib
import importlib
import json
import math
import os
import random
import re
import struct
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path

import pytest

import symdiff
import symdiff.api

try:
    from corpus import attempts, checks, control, lambdas, nested, special, straight
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import attempts, checks, control, lambdas, nested, special, straight

try:
    import oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles


def _witness(module, function):
    """The witness ``module.function``, or None while it is not importable."""
    try:
        found = importlib.import_module(module)
    except ImportError:
        return None
    return getattr(found, function, None)


tape_grad = _witness("symdiff.tape", "grad")
sympy_grad = _witness("symdiff.witnesses.symbolic", "evaluate_grad")

CASES = [(f"{module.__name__.rpartition('.')[2]}.{c.label}", c)
         for module in (straight, control, lambdas, nested, checks, special, attempts)
         for c in module.CASES]
POINTS = 20  # random points per case for finite differences, tape and the optimizer
SYMPY_POINTS = 2  # sympy rebuilds and unrolls the expression at every point
FD_STEP = 1e-4  # relative finite-difference step; the Richardson step uses 2 * FD_STEP

# Bugs that a test here exposes: (test name, case id) -> reason.  Each one is an
# xfail(strict=True), so the test starts failing the moment the bug is fixed.
KNOWN_BUGS = {}  # (test, case id) -> why it fails; none are known


def cases(test, only=None):
    """pytest parameters for ``test``: every corpus case with a readable id."""
    params = []
    for case_id, case in CASES:
        if only is not None and not only(case):
            continue
        marks = []
        reason = KNOWN_BUGS.get((test, case_id))
        if reason is not None:
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        params.append(pytest.param(case_id, case, id=case_id, marks=marks))
    return params


# --- points ----------------------------------------------------------------------------

@lru_cache(maxsize=None)
def points(case_id, count=None):
    """Seeded points strictly inside the case's domain (a 1% margin at each edge)."""
    case = dict(CASES)[case_id]
    count = count or case.points or POINTS
    rng = random.Random(case_id)
    return [tuple(lo + (hi - lo) * (0.01 + 0.98 * rng.random()) for lo, hi in case.domain)
            for _ in range(count)]


EDGE_VALUES = (0.0, -0.0, 1.0, -1.0, 2.0, -2.5, 1e-8, 750.0)


def edge_points(case):
    """Points outside the comfortable domain: zeros, signs, tiny and huge numbers."""
    n = len(case.domain)
    found = []
    for shift in range(len(EDGE_VALUES)):
        found.append(tuple(EDGE_VALUES[(shift + k) % len(EDGE_VALUES)] for k in range(n)))
        found.append(tuple(EDGE_VALUES[shift] for _ in range(n)))
    return list(dict.fromkeys(found))


# --- comparing numbers -------------------------------------------------------------------

def as_tuple(gradient, n):
    """The gradient as a tuple, checking its shape: a float for one parameter."""
    if n == 1:
        assert not isinstance(gradient, tuple), f"one parameter gives a float, not {gradient!r}"
        return (gradient,)
    assert isinstance(gradient, tuple) and len(gradient) == n, f"expected {n} values"
    return gradient


def bits(value):
    """A float, int, complex or tuple of them, comparable bit for bit (any nan is nan)."""
    if isinstance(value, tuple):
        return tuple(bits(v) for v in value)
    if isinstance(value, complex):
        return ("complex", bits(value.real), bits(value.imag))
    if isinstance(value, float):
        return (type(value).__name__, "nan" if math.isnan(value)
                else struct.pack("<d", value).hex())
    return (type(value).__name__, repr(value))


def same(a, b, rel, abs_tol):
    """Close numbers, or both nan, or the same infinity."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_tol)


class Timeout(Exception):
    pass


def outcome(fn, point):
    """What calling ``fn`` gives: its result as ``bits``, or the class of what it raised."""
    try:
        return bits(fn(*point))
    except Timeout:
        raise
    except Exception as exc:  # the gradient must raise where the function does
        return ("raises", type(exc).__name__)


# --- finite differences --------------------------------------------------------------------

def central_difference(fn, point, i, step):
    up, down = list(point), list(point)
    up[i] += step
    down[i] -= step
    return (fn(*up) - fn(*down)) / (up[i] - down[i])


def finite_difference(fn, point, i):
    """(Richardson-extrapolated estimate, disagreement of the steps h and 2h)."""
    h = FD_STEP * max(1.0, abs(point[i]))
    d1 = central_difference(fn, point, i, h)
    d2 = central_difference(fn, point, i, 2 * h)
    return (4.0 * d1 - d2) / 3.0, abs(d1 - d2)


def test_finite_difference_steps_disagree_only_near_a_kink():
    estimate, spread = finite_difference(math.sin, (0.3,), 0)
    assert spread < 1e-8 and abs(estimate - math.cos(0.3)) < 1e-11
    _, spread = finite_difference(lambda x: abs(x - 1.0), (1.0 + 1.5 * FD_STEP,), 0)
    assert spread > 0.1
    _, spread = finite_difference(math.floor, (2.0 - 0.5 * FD_STEP,), 0)
    assert spread > 1.0


@pytest.mark.parametrize("case_id, case", cases("test_finite_differences"))
def test_finite_differences(case_id, case):
    gradient = symdiff.grad(case.fn)
    n = len(case.domain)
    failures, checked, skipped = [], 0, 0
    for point in points(case_id):
        got = as_tuple(gradient(*point), n)
        value = float(case.fn(*point))
        for i in range(n):
            estimate, spread = finite_difference(case.fn, point, i)
            # Smooth: the two steps agree to O(h^2).  Within 2h of a kink or jump they do not,
            # and the difference quotient says nothing about the derivative there.
            if case.kinky and spread > 1e-6 * (1.0 + abs(estimate)):
                skipped += 1
                continue
            checked += 1
            # rtol 1e-5 on the derivative; an absolute floor for the rounding of f itself,
            # which a difference quotient divides by the step.
            tolerance = 1e-5 * max(abs(estimate), abs(got[i])) + 1e-9 * (1.0 + abs(value))
            if not abs(got[i] - estimate) <= tolerance:
                failures.append(f"at {point} d/d{case.params[i]}: symdiff {got[i]!r}, "
                                f"finite differences {estimate!r}")
    assert not failures, "\n".join(failures)
    assert checked >= skipped, f"{skipped} of {checked + skipped} comparisons near a kink"


# --- the tape ------------------------------------------------------------------------------

@pytest.mark.parametrize("case_id, case", cases("test_tape"))
def test_tape(case_id, case):
    if tape_grad is None:
        pytest.skip("symdiff.tape is not importable")
    gradient, witness = symdiff.grad(case.fn), tape_grad(case.fn)
    n = len(case.domain)
    failures = []
    for point in points(case_id):
        got = as_tuple(gradient(*point), n)
        try:
            expected = as_tuple(witness(*point), n)
        except symdiff.SymdiffError as exc:
            pytest.skip(f"the tape cannot run this function: {exc}")
        # The same chain rule in a different order: a few ulps, relative to the largest
        # partial where terms of both signs cancel.
        scale = max([1.0] + [abs(e) for e in expected if math.isfinite(e)])
        for i in range(n):
            if not same(got[i], expected[i], 1e-12, 1e-14 * scale):
                failures.append(f"at {point} d/d{case.params[i]}: symdiff {got[i]!r}, "
                                f"tape {expected[i]!r}")
    assert not failures, "\n".join(failures)


# --- sympy ----------------------------------------------------------------------------------

@pytest.mark.parametrize("case_id, case", cases("test_sympy", only=lambda c: c.symbolic))
def test_sympy(case_id, case):
    if sympy_grad is None:
        pytest.skip("symdiff.witnesses.symbolic is not importable")
    gradient = symdiff.grad(case.fn)
    n = len(case.domain)
    failures = []
    for point in points(case_id)[:SYMPY_POINTS]:
        got = as_tuple(gradient(*point), n)
        try:
            expected = sympy_grad(case.fn, point)
        except symdiff.SymdiffError as exc:
            pytest.skip(f"the sympy witness cannot express this function: {exc}")
        expected = as_tuple(expected, n)
        scale = max([1.0] + [abs(e) for e in expected if math.isfinite(e)])
        for i in range(n):
            if not same(got[i], expected[i], 1e-9, 1e-12 * scale):
                failures.append(f"at {point} d/d{case.params[i]}: symdiff {got[i]!r}, "
                                f"sympy {expected[i]!r}")
    assert not failures, "\n".join(failures)


# --- the optimizer changes nothing ------------------------------------------------------------

@pytest.mark.parametrize("case_id, case", cases("test_unoptimized_is_identical"))
def test_unoptimized_is_identical(case_id, case):
    """Bit for bit wherever the function does not overflow; where it does, the optimized
    gradient may leave out what only the value needed (``DESIGN.md``, Semantics):
    ``overflowed``."""
    optimized = symdiff.grad(case.fn)
    plain = symdiff.grad(case.fn, optimize=False)
    compared = 0
    for point in points(case_id) + edge_points(case) + overflow_points(case_id, case):
        try:
            with oracles.time_limit(0.2, Timeout):
                value = outcome(case.fn, point)
        except Timeout:
            continue  # a loop that does not end at this point: nothing to compare
        with oracles.time_limit(10.0, Timeout):
            want, got = outcome(optimized, point), outcome(plain, point)
        if got != want and value == ("raises", "OverflowError"):
            overflowed(plain, optimized, point, want, got)
        else:
            assert got == want, f"at {point}: optimized {want}, unoptimized {got}"
        compared += 1
    assert compared >= len(points(case_id))


def overflow_points(case_id, case):
    """Points where squares and products of the inputs overflow a float: each input in
    turn, then all of them, made huge, the rest from the case's first point."""
    start = points(case_id, 1)[0]
    found = []
    for huge in (1e160, -1e160, 1e200):
        found += [start[:i] + (huge,) + start[i + 1:] for i in range(len(start))]
        found.append((huge,) * len(start))
    return found


def overflowed(plain, optimized, point, want, got):
    """Where the function raises ``OverflowError`` and the two gradients differ: the
    unoptimized one raises it too, computing the value; the optimized one returns the
    derivative, which the unoptimized gradient on numpy floats (where an overflow gives
    inf, not an exception) computes too, as far as it computes one."""
    assert got == ("raises", "OverflowError"), f"at {point}: unoptimized {got}"
    assert want[0] != "raises", f"at {point}: optimized {want}, unoptimized {got}"
    np = pytest.importorskip("numpy")
    with np.errstate(all="ignore"):
        try:
            witness = plain(*map(np.float64, point))
        except (OverflowError, ValueError, ZeroDivisionError):
            return  # a math call overflows on numpy floats too: no witness here
    expected = witness if isinstance(witness, tuple) else (witness,)
    derivative = optimized(*point)
    derivative = derivative if isinstance(derivative, tuple) else (derivative,)
    for g, e in zip(derivative, expected):
        if isinstance(g, complex):  # a negative number to a fractional power, as f has it
            assert math.isnan(e), f"at {point}: {derivative} vs {expected}"  # numpy: nan
        else:
            assert same(g, float(e), 1e-9, 1e-300), f"at {point}: {derivative} vs {expected}"


# --- value_and_grad -------------------------------------------------------------------------

@pytest.mark.parametrize("case_id, case", cases("test_value_and_grad"))
def test_value_and_grad(case_id, case):
    both = symdiff.value_and_grad(case.fn)
    gradient = symdiff.grad(case.fn)
    for point in points(case_id)[:10]:
        value, grads = both(*point)
        expected = case.fn(*point)
        assert value == expected and math.copysign(1, value) == math.copysign(1, expected), (
            f"at {point}: value {value!r}, the function gives {expected!r}")
        assert bits(grads) == bits(gradient(*point))


# --- integers in, floats out; wrt ---------------------------------------------------------------

def integer_points(case_id, case, count=3):
    """Points of ints strictly inside the domain, or [] when some interval holds none."""
    choices = [[k for k in range(math.floor(lo), math.ceil(hi) + 1) if lo < k < hi]
               for lo, hi in case.domain]
    if not all(choices):
        return []
    rng = random.Random("int " + case_id)
    return [tuple(rng.choice(c) for c in choices) for _ in range(count)]


@pytest.mark.parametrize("case_id, case", cases("test_integer_arguments"))
def test_integer_arguments(case_id, case):
    gradient = symdiff.grad(case.fn)
    n = len(case.domain)
    found = integer_points(case_id, case)
    if not found:
        pytest.skip("no integer point in the domain")
    for point in found:
        try:
            case.fn(*point)
        except (ValueError, ZeroDivisionError, OverflowError):
            continue
        got = as_tuple(gradient(*point), n)
        assert all(type(g) is float for g in got), f"at {point}: {got!r}"
        from_floats = as_tuple(gradient(*map(float, point)), n)
        for g, f in zip(got, from_floats):
            assert same(g, f, 1e-12, 1e-300), f"at {point}: {got} with ints, {from_floats}"


@pytest.mark.parametrize("case_id, case", cases("test_shape"))
def test_shape(case_id, case):
    """One parameter: a float; several: a tuple of floats in parameter order."""
    point = points(case_id)[0]
    result = symdiff.grad(case.fn)(*point)
    if len(case.domain) == 1:
        assert type(result) is float
    else:
        assert type(result) is tuple and len(result) == len(case.domain)
        assert all(type(g) is float for g in result)


@pytest.mark.parametrize("case_id, case", cases("test_wrt",
                                                 only=lambda c: len(c.domain) > 1))
def test_wrt(case_id, case):
    point = points(case_id)[0]
    names = case.params
    full = symdiff.grad(case.fn)(*point)
    for i, name in enumerate(names):
        by_name = symdiff.grad(case.fn, wrt=name)(*point)
        assert type(by_name) is float
        assert bits(by_name) == bits(full[i]), f"wrt={name!r}"


WRT_FORMS = [  # wrt -> which entries of the full gradient, in order
    (0, 0), (2, 2), (-1, 2), (-3, 0), (("z",), (2,)), ((1,), (1,)), (["y", "x"], (1, 0)),
    ((-1, "x", 1), (2, 0, 1)), (("x", "x"), (0, 0)),
]


@pytest.mark.parametrize("wrt, chosen", WRT_FORMS + [(("z", "y", "x"), (2, 1, 0))], ids=repr)
def test_wrt_forms(wrt, chosen):
    point = (0.3, -1.2, 2.5)
    full = symdiff.grad(straight.rotate_three)(*point)
    got = symdiff.grad(straight.rotate_three, wrt=wrt)(*point)
    if isinstance(chosen, int):
        assert type(got) is float and bits(got) == bits(full[chosen])
    else:
        assert bits(got) == bits(tuple(full[i] for i in chosen))


@pytest.mark.parametrize("wrt", ["w", 3, -4, (0, "w"), True, 1.0, ()], ids=repr)
def test_wrt_that_names_no_parameter_is_refused(wrt):
    with pytest.raises(symdiff.SymdiffError):
        symdiff.grad(straight.rotate_three, wrt=wrt)(0.3, -1.2, 2.5)


# --- edge numerics --------------------------------------------------------------------------------

def root(x):
    return math.sqrt(x)


def half_power(x):
    return x ** 0.5


def cube(x):
    return x ** 3


def zeroth(x):
    return x ** 0


def magnitude(x):
    return abs(x)


def float_magnitude(x):
    return math.fabs(x)


def larger(x, y):
    return max(x, y)


def smaller(x, y):
    return min(x, y)


def largest(x, y, z):
    return max(x, y, z)


def smallest(x, y, z):
    return min(x, y, z)


def logarithm(x):
    return math.log(x) * 2.0


def ratio(x, y):
    return x / y + 1.0


def remainder(x, y):
    return x % y * x


def floored(x, y):
    return x // y + x


def guarded_root(x):
    return math.sqrt(x) if x > 0 else 0.0


def test_sqrt_at_zero_is_infinite():
    assert symdiff.grad(root)(0.0) == math.inf
    assert symdiff.grad(root)(0) == math.inf
    assert symdiff.grad(half_power)(0.0) == math.inf


def test_odd_power_at_negative_base():
    assert symdiff.grad(cube)(-2.0) == 12.0
    assert symdiff.grad(cube)(-0.5) == 0.75


def test_zeroth_power_has_zero_derivative():
    for x in (2.0, -3.0, 0.0, 0):
        result = symdiff.grad(zeroth)(x)
        assert result == 0.0 and type(result) is float, x


def test_abs_at_zero_is_zero():
    assert symdiff.grad(magnitude)(0.0) == 0.0
    assert symdiff.grad(magnitude)(-0.0) == 0.0
    assert symdiff.grad(float_magnitude)(0.0) == 0.0
    assert symdiff.grad(magnitude)(-2.0) == -1.0


def test_ties_go_to_the_first_argument():
    # max/min return their first argument on a tie, and the gradient follows it.
    assert symdiff.grad(larger)(1.5, 1.5) == (1.0, 0.0)
    assert symdiff.grad(smaller)(1.5, 1.5) == (1.0, 0.0)
    assert symdiff.grad(largest)(2.0, 2.0, 2.0) == (1.0, 0.0, 0.0)
    assert symdiff.grad(smallest)(2.0, 2.0, 2.0) == (1.0, 0.0, 0.0)
    assert symdiff.grad(largest)(1.0, 2.0, 2.0) == (0.0, 1.0, 0.0)
    assert symdiff.grad(smallest)(3.0, 2.0, 2.0) == (0.0, 1.0, 0.0)


def test_guarded_sqrt_is_zero_where_the_guard_holds():
    for x in (-4.0, -1e-300, 0.0, -0.0):
        result = symdiff.grad(guarded_root)(x)
        assert result == 0.0, (x, result)
    assert symdiff.grad(guarded_root)(4.0) == 0.25


@pytest.mark.parametrize("fn, point, error", [
    (logarithm, (0.0,), ValueError),
    (logarithm, (-1.0,), ValueError),
    (root, (-1.0,), ValueError),
    (ratio, (1.0, 0.0), ZeroDivisionError),
    (ratio, (0.0, 0.0), ZeroDivisionError),
    (remainder, (1.0, 0.0), ZeroDivisionError),
    (floored, (1.0, 0.0), ZeroDivisionError),
], ids=lambda v: getattr(v, "__name__", None))
def test_errors_match_the_function(fn, point, error):
    with pytest.raises(error):
        fn(*point)
    for optimize in (True, False):
        with pytest.raises(error):
            symdiff.grad(fn, optimize=optimize)(*point)
        with pytest.raises(error):
            symdiff.value_and_grad(fn, optimize=optimize)(*point)


# --- size of the generated code -------------------------------------------------------------------

def loop_a(x):
    s = x
    for i in range(10):
        s = s * 0.5 + math.sin(s)
    return s


def loop_b(x):
    s = x
    for i in range(100000):
        s = s * 0.5 + math.sin(s)
    return s


def loop_n(x, n):
    s = x
    for i in range(int(n)):
        s = s * 0.999 + math.sin(s) * 0.001
    return s


def test_code_size_does_not_depend_on_the_bound():
    short, long = symdiff.source(loop_a), symdiff.source(loop_b)
    assert len(long) - len(short) == 4 * short.count("range(10)")

    def normalized(text):
        return re.sub(r"line \d+", "line N", text.replace("100000", "10").replace("loop_b",
                                                                                  "loop_a"))

    assert normalized(long) == normalized(short)


def test_code_size_does_not_depend_on_the_trip_count():
    gradient = symdiff.grad(loop_n)
    before = gradient.source
    small = gradient(0.3, 10)
    large = gradient(0.3, 10 ** 5)
    assert gradient.source == before == symdiff.source(loop_n)
    assert math.isfinite(small[0]) and math.isfinite(large[0])
    assert small[1] == large[1] == 0.0
    if tape_grad is not None:
        assert same(small[0], tape_grad(loop_n)(0.3, 10)[0], 1e-12, 1e-14)


def million(x):
    s = 0.0
    for i in range(1000000):
        s = s + math.sin(x * i * 1e-6)
    return s


def test_a_million_iterations():
    gradient = symdiff.grad(million)
    start = time.perf_counter()
    got = gradient(0.7)
    elapsed = time.perf_counter() - start
    expected = math.fsum(math.cos(0.7 * i * 1e-6) * i * 1e-6 for i in range(1000000))
    assert math.isclose(got, expected, rel_tol=1e-9)
    assert elapsed < 10.0


# --- determinism ---------------------------------------------------------------------------------

def test_source_is_the_same_when_built_twice(monkeypatch):
    first = {case_id: symdiff.source(case.fn) for case_id, case in CASES}
    monkeypatch.setattr(symdiff.api, "_CACHE", {})  # build every gradient again
    second = {case_id: symdiff.source(case.fn) for case_id, case in CASES}
    assert first == second
    for case_id, case in CASES[:5]:
        assert symdiff.grad(case.fn).source == first[case_id]


_PRINT_SOURCES = """
import hashlib, json
import symdiff
from corpus import control, straight
texts = {}
for module in (straight, control):
    for case in module.CASES:
        if module is straight and len(case.domain) == 1:
            continue
        text = symdiff.source(case.fn)
        name = module.__name__.rpartition(".")[2] + "." + case.label
        texts[name] = hashlib.sha256(text.encode()).hexdigest()
print(json.dumps(texts, sort_keys=True))
"""


def test_source_is_the_same_in_every_process():
    """The control corpus and the straight cases of several parameters, in two processes."""
    tests = Path(__file__).resolve().parent.parent
    path = os.pathsep.join([str(tests), str(tests.parent), os.environ.get("PYTHONPATH", "")])
    runs = []
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=path)
        runs.append(subprocess.Popen([sys.executable, "-c", _PRINT_SOURCES], cwd=tests,
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True))
    outputs = []
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        outputs.append(json.loads(out))
    assert outputs[0] == outputs[1]
    here = {case_id: hashlib.sha256(symdiff.source(case.fn).encode()).hexdigest()
            for case_id, case in CASES if case_id in outputs[0]}
    assert len(here) > 100
    assert outputs[0] == here
