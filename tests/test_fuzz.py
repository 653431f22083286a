"""Differential fuzzing: random programs, the generated gradient against the witnesses.

Programs come from ``tests/fuzzing.py`` (seeded, so every failure is reproducible from
the seed and index its message prints along with the source and the point).  Each
batch is written to a module file and imported, since symdiff reads source files.
``scripts/fuzz.py`` runs as many programs as asked.

Checks, per program: generated gradient == tape to a few ulps at three points (a
tenth of them special: zeros of both signs, ties between parameters), == sympy at an
ordinary point for every third program, and on dedicated batches: ``optimize=False``
gives the same numbers, ``jvp`` matches ``grad``, the Hessian is symmetric and matches
finite differences of the tape gradient.

The batches run once per module, in forked worker processes where the platform forks
(``SYMDIFF_FUZZ_WORKERS``, default: up to four, one per core), and only those the
selected tests need: about 2,800 programs, under a minute on two cores.

Features that meet known symdiff bugs (``fuzzing.KNOWN_BUG_FEATURES``, empty today) are
left out of the batches, each bug kept as a strict xfail reproducer; the regression
tests below are the minimal reproducers of bugs the fuzzer found, fixed since.
"""

import math
import os

import pytest

import symdiff
import symdiff.tape

try:
    import fuzzing
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import fuzzing

WORKERS = int(os.environ.get("SYMDIFF_FUZZ_WORKERS", min(4, os.cpu_count() or 1)))

SMALL = dict(size="small", sympy_every=0)
HIGHER = dict(SMALL, points_per_program=2, optimizer_every=1, jvp_every=1)
HESSIAN = dict(SMALL, points_per_program=1, hessian_every=1)
JOBS = {  # name -> arguments of fuzzing.run: every batch the tests below check
    **{f"main {seed}": dict(seed=seed, count=100, size="small", sympy_every=3)
       for seed in range(1, 25)},
    **{f"medium {seed}": dict(seed=seed, count=20, size="medium", sympy_every=5)
       for seed in (101, 102)},
    **{f"higher {seed}": dict(HIGHER, seed=seed, count=80) for seed in (201, 202, 203)},
    "hessian, straight line and branches": dict(
        HESSIAN, seed=301, count=40,
        features=fuzzing.DEFAULT_FEATURES - fuzzing.LOOP_FEATURES),
    "hessian, loops without branches": dict(
        HESSIAN, seed=301, count=40,
        features=fuzzing.DEFAULT_FEATURES - {"if", "ifexp", "break", "early_return"}),
    "hessian, all default features": dict(HESSIAN, seed=304, count=40),
}


def jobs(prefix):
    return [name for name in JOBS if name.startswith(prefix)]


@pytest.fixture(scope="module")
def tallies(request):
    """name -> Tally of each batch the selected tests of this module check."""
    wanted = [item.callspec.params["job"] for item in request.session.items
              if getattr(item, "module", None) is request.module
              and "job" in getattr(getattr(item, "callspec", None), "params", {})]
    wanted = list(dict.fromkeys(wanted))
    return dict(zip(wanted, fuzzing.run_jobs([JOBS[name] for name in wanted], WORKERS)))


@pytest.fixture(scope="module")
def directory(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def report(tally, limit=3):
    """The assertion message: counts, then each of the first mismatches with its source."""
    head = (f"{len(tally.mismatches)} mismatches in {tally.programs} programs "
            f"({tally.points} points checked)")
    return "\n\n".join([head] + [str(m) for m in tally.mismatches[:limit]])


def clean(tallies, job):
    tally = tallies[job]
    assert tally.programs == JOBS[job]["count"]
    assert not tally.mismatches, report(tally)
    return tally


# --- the main batches -------------------------------------------------------------------

@pytest.mark.parametrize("job", jobs("main"))
def test_generated_matches_tape_and_sympy(tallies, job):
    tally = clean(tallies, job)
    assert tally.points >= 200  # few points skipped (overflow, domain)
    assert tally.sympy_points >= 15  # sympy compared on most of its share


@pytest.mark.parametrize("job", jobs("medium"))
def test_medium_programs(tallies, job):
    clean(tallies, job)


@pytest.mark.parametrize("job", jobs("higher"))
def test_optimizer_and_jvp(tallies, job):
    clean(tallies, job)


@pytest.mark.parametrize("job", jobs("hessian"))
def test_hessian_symmetric_and_right(tallies, job):
    clean(tallies, job)


# --- regressions: bugs the fuzzer found, fixed since --------------------------------------

def exp_then_loop(x):
    y = math.exp(x)
    for i in range(2):
        y = y * 2.0
    return y


def division_then_loop(x):
    y = 1.0 / x
    for i in range(2):
        y = y + 1.0
    return y


def exp_then_branch(x):
    y = math.exp(x)
    if x < 5.0:
        z = y * 1.5
        y = x
    return z


@pytest.mark.parametrize("fn, expected", [
    (exp_then_loop, lambda x: 4.0 * math.exp(x)),
    (division_then_loop, lambda x: -1.0 / (x * x)),
    (exp_then_branch, lambda x: 1.5 * math.exp(x)),
], ids=["exp, loop", "division, loop", "exp, branch"])
def test_rule_output_overwritten_later(fn, expected):
    """A rule reading its own output (exp, /) after the variable holding it changed."""
    x = 0.7
    assert symdiff.tape.grad(fn)(x) == pytest.approx(expected(x), rel=1e-12)
    assert symdiff.grad(fn)(x) == pytest.approx(expected(x), rel=1e-12)


def overwritten_in_loop(x, y):
    for i in range(3):
        y = x * 2.0
    return y


def first_set_in_loop(x):
    for i in range(3):
        y = x * 2.0
    return y


@pytest.mark.parametrize("fn, point, expected", [
    (overwritten_in_loop, (0.7, 0.3), (2.0, 0.0)),
    (first_set_in_loop, (0.7,), 2.0),
], ids=["parameter", "loop local"])
def test_loop_overwrite_returned(fn, point, expected):
    """A loop overwrites the result without reading it: the seed adjoint must survive."""
    assert symdiff.tape.grad(fn)(*point) == expected
    assert symdiff.grad(fn)(*point) == expected


def return_in_nested_loop(x):
    total = x
    for i in range(3):
        for j in range(3):
            total = total * 1.5
            if total > 2.0:
                return total
    return total


def test_return_in_nested_loop():
    assert return_in_nested_loop(1.0) == 2.25  # returns at i = 0, j = 1: 1.5 * 1.5 * x
    assert symdiff.tape.grad(return_in_nested_loop)(1.0) == 2.25
    assert symdiff.jvp(return_in_nested_loop)(1.0, 1.0) == (2.25, 2.25)
    assert symdiff.grad(return_in_nested_loop)(1.0) == 2.25


def return_in_nested_branch(x, y):
    a = y * y
    if x < 0.0:
        if y < 0.0:
            return y
    y = x
    return y + a


def test_return_in_nested_branch():
    """After a return nested in two ifs, `y = x` must not change what `y * y` saw."""
    point, expected = (1.5, -1.8), (1.0, 2.0 * -1.8)
    assert symdiff.tape.grad(return_in_nested_branch)(*point) == expected
    assert symdiff.grad(return_in_nested_branch)(*point) == expected


# --- the harness itself -----------------------------------------------------------------------

def test_programs_are_reproducible_and_respect_features():
    assert fuzzing.generate(5, 17).source == fuzzing.generate(5, 17).source
    assert fuzzing.generate(5, 17).source != fuzzing.generate(5, 18).source
    straight = fuzzing.DEFAULT_FEATURES - fuzzing.LOOP_FEATURES - {
        "if", "ifexp", "break", "early_return"}
    for index in range(40):
        program = fuzzing.generate(7, index, straight)
        assert not program.features - straight
        assert not any(word in program.source for word in ("for ", "while ", "if "))
        compile(program.source, "<fuzz>", "exec")


def test_programs_return_one_number(directory):
    programs = [fuzzing.generate(9, index, size="medium") for index in range(30)]
    fuzzing.load(programs, directory, "fuzz_shape")
    values = [fuzzing.value_at(p, (0.3, -0.7, 1.1)[:len(p.params)]) for p in programs]
    assert sum(isinstance(v, float) for v in values) >= 25  # None: overflow or domain


def test_points_include_special_values():
    program = fuzzing.generate(3, 4)
    drawn = fuzzing.points(program, 300)
    special = [point for point, is_special in drawn if is_special]
    assert 10 <= len(special) <= 60
    assert any(math.copysign(1.0, v) < 0 and v == 0 for p in special for v in p)
    assert any(len(set(p)) < len(p) for p in special)  # a tie


def test_a_wrong_gradient_is_reported_with_source_and_point(directory, monkeypatch):
    program = fuzzing.generate(11, 3, size="small")
    fuzzing.load([program], directory, "fuzz_planted")
    right = symdiff.grad

    def off_by_a_little(fn, **options):
        gradient = right(fn, **options)
        return lambda *args: tuple(g * (1.0 + 1e-8) + 1e-9 for g in gradient(*args))

    monkeypatch.setattr(fuzzing.symdiff, "grad", off_by_a_little)
    point = (0.25, -1.5, 0.75)[:len(program.params)]
    found, checked, _ = fuzzing.compare_gradients(program, point, special=False)
    assert checked and found and found[0].kind == "generated != tape"
    text = str(found[0])
    assert program.source in text and repr(point) in text


def test_points_where_an_intermediate_overflows_are_skipped(directory):
    """x ** 4096 overflows, then x is overwritten: the result is finite, the generated
    gradient nan (0 * inf, as JAX's would be), the tape's finite: not a mismatch."""
    source = ("def overflowing(x, y):\n    for i in range(12):\n        x = x * x\n"
              "    if x > 1.0:\n        x = 1.0 / (1.0 + y * y)\n    return x\n")
    program = fuzzing.Program(0, 0, "overflowing", ("x", "y"), source, frozenset())
    fuzzing.load([program], directory, "fuzz_overflow")
    assert math.isnan(symdiff.grad(program.fn)(1.5, 1.6)[0])
    assert fuzzing.compare_gradients(program, (1.5, 1.6), special=False)[:2] == ([], False)


def test_shrink_keeps_the_failure(directory):
    """A stand-in failure ("the source calls math.sin") shrinks to a few lines."""
    def uses_sin(candidate):
        return "math.sin(" in candidate.source

    program = next(p for p in (fuzzing.generate(2, index) for index in range(100))
                   if uses_sin(p) and p.source.count("\n") > 6)
    fuzzing.load([program], directory, "fuzz_shrink")
    smaller = fuzzing.shrink(program, uses_sin, directory)
    assert uses_sin(smaller)
    assert smaller.source.count("\n") < program.source.count("\n")
    assert smaller.source.count("\n") <= 4
