"""Differential fuzzing: random programs, the generated gradient against the witnesses.

Programs come from ``tests/fuzzing.py`` (seeded, so every failure is reproducible from
the seed and index its message prints along with the source and the point).  Each
batch is written to a module file and imported, since symdiff reads source files.
``scripts/fuzz.py`` runs as many programs as asked.

Checks, per program: generated gradient == tape to a few ulps at three points (a
tenth of them special: zeros of both signs, ties between parameters), == sympy at an
ordinary point for every third program (unless the point is ill-conditioned), and on
dedicated batches: ``optimize=False`` gives the same numbers, ``jvp`` matches ``grad``,
the Hessian is symmetric and, at ordinary points, matches finite differences of the
tape gradient; where one of a program's own input checks fails (``raise`` or ``assert``
on a parameter, feature ``check``), every gradient raises what the function raises.
About a third of the programs call helpers of their own (module-level
or nested, ``def`` or lambda, some returning several values); the tests of the harness
below check the shapes those take.

The batches run once per module, in forked worker processes where the platform forks
(``SYMDIFF_FUZZ_WORKERS``, default: up to four, one per core), and only those the
selected tests need: about 1,200 programs, about half a minute on two cores.

Features that meet known symdiff bugs (``fuzzing.KNOWN_BUG_FEATURES``, empty today) are
left out of the batches, each bug kept as a strict xfail reproducer; the regression
tests below are the minimal reproducers of bugs the fuzzer found, fixed since.
"""

import ast
import math
import os
import re

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
    **{f"main {seed}": dict(seed=seed, count=75, size="small", sympy_every=3)
       for seed in range(1, 13)},  # more with scripts/fuzz.py
    **{f"medium {seed}": dict(seed=seed, count=20, size="medium", sympy_every=5)
       for seed in (101, 102)},
    **{f"higher {seed}": dict(HIGHER, seed=seed, count=60) for seed in (201, 202, 203)},
    "hessian, straight line and branches": dict(
        HESSIAN, seed=301, count=30,
        features=fuzzing.DEFAULT_FEATURES - fuzzing.LOOP_FEATURES),
    "hessian, loops without branches": dict(
        HESSIAN, seed=301, count=30,
        features=fuzzing.DEFAULT_FEATURES - {"if", "ifexp", "break", "early_return"}),
    "hessian, all default features": dict(HESSIAN, seed=304, count=30),
    "checks": dict(SMALL, seed=401, count=100, points_per_program=8),
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
    assert tally.points >= 2 * tally.programs  # few points skipped (overflow, domain)
    assert tally.sympy_points >= tally.programs // 6  # sympy compared on most of its share


@pytest.mark.parametrize("job", jobs("medium"))
def test_medium_programs(tallies, job):
    clean(tallies, job)


@pytest.mark.parametrize("job", jobs("higher"))
def test_optimizer_and_jvp(tallies, job):
    clean(tallies, job)


@pytest.mark.parametrize("job", jobs("hessian"))
def test_hessian_symmetric_and_right(tallies, job):
    clean(tallies, job)


@pytest.mark.parametrize("job", jobs("checks"))
def test_failing_checks_raise_the_same(tallies, job):
    """Programs that check their inputs: where a check fails, every gradient raises what
    the function raises (``fuzzing.compare_raising``)."""
    tally = clean(tallies, job)
    assert tally.raising_points >= 20, report(tally)


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
    program = fuzzing.generate(11, 3, fuzzing.DEFAULT_FEATURES - {"check"}, size="small")
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


def test_shrink_removes_a_helper_no_longer_called(directory):
    """The shrinker deletes whole module-level helpers too, the first line included."""
    source = ("def _h0_0(t):\n    return t * 2.0, t\n"
              "def f_0_0(x, y):\n    a, b = _h0_0(x)\n    c = math.sin(y)\n    return c + x\n")
    program = fuzzing.Program(0, 0, "f_0_0", ("x", "y"), source, frozenset())
    fuzzing.load([program], directory, "fuzz_shrink_helper")

    def runs_and_uses_sin(candidate):
        return fuzzing.value_at(candidate, (0.3, 0.4)) is not None and "sin(" in candidate.source

    smaller = fuzzing.shrink(program, runs_and_uses_sin, directory)
    assert smaller.source == "def f_0_0(x, y):\n    c = math.sin(y)\n    return c + x\n"


def test_an_ill_conditioned_point_is_not_a_sympy_mismatch(directory, monkeypatch):
    """sin of about 7e6: the float gradients (generated and tape, which agree) and sympy's
    part in the 7th digit, as rounding decides.  At a well-conditioned point a gradient
    off by 1e-6 is still reported."""
    large = fuzzing.Program(0, 0, "sin_of_large", ("x", "y"), (
        "def sin_of_large(x, y):\n    a = x * (2.0 * x + y)\n"
        "    return math.sin((a ** 3) ** 3)\n"), frozenset())
    smooth = fuzzing.Program(0, 1, "smooth", ("x", "y"),
                             "def smooth(x, y):\n    return x * math.sin(y)\n", frozenset())
    fuzzing.load([large, smooth], directory, "fuzz_conditioning")
    assert fuzzing.compare_gradients(large, (1.654967, 0.178486), special=False) == (
        [], True, False)

    right = fuzzing.evaluate_grad
    monkeypatch.setattr(fuzzing, "evaluate_grad", lambda *args, **options: tuple(
        g * (1.0 + 1e-6) for g in right(*args, **options)))
    found, checked, _ = fuzzing.compare_gradients(smooth, (0.3, 0.2), special=False)
    assert checked and [m.kind for m in found] == ["generated != sympy"]


def test_the_hessian_meets_finite_differences_at_ordinary_points_only(directory):
    """At a tie of max the Hessian is one side's (the first argument's), the differences
    average both sides and steadily so: only the symmetry is checked there."""
    program = fuzzing.Program(0, 0, "tied", ("x", "y"),
                              "def tied(x, y):\n    return max(y, x) ** 2 * 0.6\n",
                              frozenset())
    fuzzing.load([program], directory, "fuzz_hessian_tie")
    assert fuzzing.compare_hessian(program, (0.0, 0.0), special=True) == []
    assert [m.kind for m in fuzzing.compare_hessian(program, (0.0, 0.0))] == [
        "hessian != finite differences of the tape gradient"]
    assert fuzzing.compare_hessian(program, (0.3, -0.2)) == []


NEW_FEATURES = {"helper", "lambda", "multi_return", "nested_def", "nested_lambda", "defaults"}


def test_programs_use_helpers_in_the_shapes_symdiff_reads():
    """Module-level helpers and nested functions, ``def`` or lambda: every name defined
    once, nested ones only at the top of a body, every ``return`` of a function giving as
    many values as each call unpacks (one, for a call inside an expression), and some
    nested function reading a variable of its enclosing function that changes after the
    definition (late binding)."""
    programs = [fuzzing.generate(12, index, size=size)
                for index in range(100) for size in ("small", "medium")]
    assert NEW_FEATURES <= set().union(*(p.features for p in programs))
    late = 0
    for program in programs:
        tree = ast.parse(program.source)
        arities = _defined_functions(tree)
        unpacked = {id(node.value): len(node.targets[0].elts) for node in ast.walk(tree)
                    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in arities:
                assert arities[node.func.id] == unpacked.get(id(node), 1), program.source
        late += _reads_a_later_value(tree)
    assert late >= 5


def test_new_features_stay_out_when_not_allowed():
    allowed = fuzzing.DEFAULT_FEATURES - NEW_FEATURES - {"table"}
    for index in range(60):
        program = fuzzing.generate(13, index, allowed)
        tree = ast.parse(program.source)
        assert len(tree.body) == 1 and isinstance(tree.body[0], ast.FunctionDef)
        assert not any(isinstance(node, (ast.Lambda, ast.FunctionDef)) for node in ast.walk(
            tree.body[0]) if node is not tree.body[0])


def test_programs_read_tables_and_write_loop_else_clauses(directory):
    """Tables of constants at module level, looped over in each way (plain, ``enumerate``,
    ``zip``), indexed and measured; loops with an ``else:`` holding no ``break`` or
    ``continue`` of its own.  The programs load and most run."""
    programs = [fuzzing.generate(14, index, size="medium") for index in range(60)]
    assert {"table", "loop_else"} <= set().union(*(p.features for p in programs))
    text = "\n".join(p.source for p in programs)
    for shape in (r"for \w+ in _T\d+_\d:", r"for [ijk], \w+ in enumerate\(_T",
                  r"for \w+, \w+ in zip\(_T", r"_T\d+_\d\[[ijk]\]", r"_T\d+_\d\[-?\d\]",
                  r"range\(len\(_T", r"/ len\(_T"):
        assert re.search(shape, text), shape
    for program in programs:
        tree = ast.parse(program.source)
        tables = [s for s in tree.body if isinstance(s, ast.Assign)
                  and isinstance(s.value, (ast.Tuple, ast.List))]
        assert all(1 <= len(s.value.elts) <= 5 for s in tables)
        for loop in ast.walk(tree):
            if isinstance(loop, (ast.For, ast.While)):
                assert not any(isinstance(s, (ast.Break, ast.Continue)) for s in loop.orelse)
    fuzzing.load(programs, directory, "fuzz_tables")
    values = [fuzzing.value_at(p, (0.3, -0.7, 1.1)[:len(p.params)]) for p in programs]
    assert sum(isinstance(v, float) for v in values) >= 50


def _definitions(body):
    """(name, its ast.FunctionDef or ast.Lambda) of each function defined in ``body``."""
    for statement in body:
        if isinstance(statement, ast.FunctionDef):
            yield statement.name, statement
        elif isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Lambda):
            yield statement.targets[0].id, statement.value


def _defined_functions(tree):
    """name -> how many values it returns, for each function of a program; asserts each
    is defined once, at module level or at the top of a function's body, and that all
    its returns give as many values."""
    found, lambdas = {}, 0
    pending = [tree.body]
    while pending:
        for name, node in _definitions(pending.pop()):
            assert name not in found, f"{name} defined twice"
            returns = [node.body] if isinstance(node, ast.Lambda) else [
                n.value for n in _own_nodes(node) if isinstance(n, ast.Return)]
            widths = {len(r.elts) if isinstance(r, ast.Tuple) else 1 for r in returns}
            assert len(widths) == 1, f"{name} returns {widths} values"
            found[name] = widths.pop()
            lambdas += isinstance(node, ast.Lambda)
            if isinstance(node, ast.FunctionDef):
                pending.append(node.body)
    assert lambdas == sum(isinstance(n, ast.Lambda) for n in ast.walk(tree))  # no other
    assert len(found) == sum(isinstance(n, ast.FunctionDef) for n in ast.walk(tree)) + lambdas
    return found


def _own_nodes(function):
    """The nodes of ``function``'s body, not those of the functions defined in it."""
    pending = list(function.body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))


def _reads_a_later_value(tree):
    """True when a function nested at the top of a module-level function reads one of
    that function's variables that a statement after the definition assigns."""
    for function in tree.body:
        if not isinstance(function, ast.FunctionDef):
            continue
        for position, statement in enumerate(function.body):
            for _, node in _definitions([statement]):
                params = {a.arg for a in node.args.args}
                read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                        and isinstance(n.ctx, ast.Load)} - params
                later = {n.id for s in function.body[position + 1:] for n in ast.walk(s)
                         if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                if read & later:
                    return True
    return False
