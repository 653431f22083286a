"""Loop invariants (``optimize.invariants``): what a loop computes alike on every iteration
is computed once, before it.

- The text: ``-omega ** 2`` leaves the forward loop and ``2 * omega`` the reverse loop;
  repeats read the first; a value that may raise stays where it is when a statement
  before it in the body may raise, when the loop may not run (its trip count is not
  written out), when the loop sits in a ``try`` (sweeps written out here: the user's
  loops are never in one), or in a branch; a value read from a
  list stays (the loop may change the list); an ``assert`` reads as the user wrote it.
- The numbers: the gradient built with the pass and the one built without it give the
  same results bit for bit (``repr``: -0.0, nan, the types) and the same exceptions, on
  every corpus function with a loop, at its points and at nan, ±inf, -0.0 and numbers
  whose squares overflow; and they agree with the tape at many points.
"""

import contextlib
import random
import textwrap

import pytest

import symdiff
import symdiff.api
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize import driver
from symdiff.optimize.context import Context
from symdiff.optimize.invariants import hoist_invariants

try:
    import oracles
    from optimize.loop_corpus import (SPECIAL, built_both_ways, case_points, differences,
                                      loop_cases, replaced)
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.optimize.loop_corpus import (SPECIAL, built_both_ways, case_points,
                                            differences, loop_cases, replaced)

LOOPS = '''
def spring(x, v, omega):
    for _ in range(20):
        a = -omega ** 2 * x
        b = -omega ** 2 * (x + 0.5 * v)
        x, v = x + 0.01 * v, v + 0.005 * (a + b)
    return x * v


def checked_first(x, omega):
    for i in range(5):
        y = math.sqrt(x) * i
        x = x + omega ** 2 * y
    return x


def over_a_list(xs, omega):
    s = 0.0
    for i in range(len(xs)):
        s = s * 0.5 + omega ** 2 * xs[i]
    return s


def in_a_branch(x, omega):
    for i in range(6):
        if x > 1.0:
            x = x * 0.5 + omega ** 2
        else:
            x = x + 1.0 / (i + 1.0)
    return x


def nested_loops(x, w):
    s = 0.0
    for i in range(3):
        for j in range(4):
            s = s + math.tanh(w * 2.0) * x + (w * 3.0) * s * 0.1
        x = x * 0.9
    return s


def checked_in_loop(x, n):
    for i in range(3):
        assert n > 0, "n must be positive"
        x = x * 0.5 + n * i
    return x


def read_from_a_list(xs, w):
    s = 0.0
    for i in range(3):
        s = s + xs[0] * w * s + xs[i]
    return s
'''


@pytest.fixture(scope="module")
def loops(tmp_path_factory):
    return oracles.module_from_text(tmp_path_factory.mktemp("invariants"), "invariant_loops",
                                    "import math\n\n" + textwrap.dedent(LOOPS))


def _sweeps(text):
    """The forward and the reverse sweep of ``text``, without their comments."""
    code = "\n".join(line for line in text.splitlines() if not line.strip().startswith("#")
                     or "reverse sweep" in line)
    forward, _, reverse = code.partition("reverse sweep")
    return forward, reverse


def _inside_loop(text, piece):
    """Whether a line holding ``piece`` is in the body of a ``for`` (deeper than the
    function's own statements)."""
    lines = [line for line in text.splitlines() if piece in line and "#" not in line]
    assert lines, f"{piece!r} is not in the text"
    return all(len(line) - len(line.lstrip()) > 4 for line in lines)


def _before_loop(text, piece):
    lines = [line for line in text.splitlines() if piece in line and "#" not in line]
    return bool(lines) and all(len(line) - len(line.lstrip()) == 4 for line in lines)


# --- the text ------------------------------------------------------------------------------

def test_a_power_of_a_parameter_leaves_both_loops(loops):
    text = symdiff.grad(loops.spring).source
    forward, reverse = _sweeps(text)
    assert forward.count("-omega ** 2") == 1 and _before_loop(forward, "-omega ** 2")
    assert reverse.count("2 * omega") == 1 and _before_loop(reverse, "2 * omega")
    assert "neg_a = -omega ** 2" in forward  # the name the statement had
    assert "mul_omega = 2 * omega" in reverse  # a part named by its operation


def test_a_moved_statement_keeps_the_comment_of_its_line(loops):
    lines = symdiff.grad(loops.spring).source.splitlines()
    at = next(i for i, line in enumerate(lines) if "neg_a = -omega ** 2" in line)
    assert lines[at - 1].strip().startswith("# line ") and "-omega ** 2 * x" in lines[at - 1]
    assert ", hoisted out of its loop: " in lines[at - 1]
    assert lines[at + 1].strip().startswith("# line ") and "for _ in range(20)" in lines[at + 1]


def test_a_value_that_may_raise_stays_after_a_statement_that_may_raise(loops):
    assert _inside_loop(_sweeps(symdiff.grad(loops.checked_first).source)[0], "omega ** 2")


def test_a_value_that_may_raise_stays_in_a_loop_that_may_not_run(loops):
    forward, reverse = _sweeps(symdiff.source(loops.over_a_list, [1.0, 2.0], 0.5))
    assert _inside_loop(forward, "omega ** 2")
    assert _before_loop(reverse, "2 * omega")  # raises nothing: moved all the same


def _power_loop(in_try, appended=False):
    """``for _ in range(3): p = omega ** 2; s += p`` as sweeps, in a ``try`` or not
    (``appended``: ``ys.append(s)`` first, ``ys`` a parameter)."""
    first = [sw.Push("ys", ex.Name("s"), method=True)] if appended else []
    loop = sw.For("_", (ex.Const(3),), first + [
        sw.Let("p", ex.BinOp("**", ex.Name("omega"), ex.Const(2))),
        sw.AddTo("s", ex.Name("p"))])
    body = [sw.Let("s", ex.Const(0.0))]
    body += [sw.Try([loop], (ex.Name("OverflowError"),), "caught")] if in_try else [loop]
    body += [sw.Return(ex.Name("s"))]
    types = {"omega": t.FLOAT, "p": t.FLOAT, "s": t.FLOAT, "_": t.INT, "caught": t.INT,
             "ys": t.List(t.FLOAT)}
    return sw.Function("f", ("omega", "ys"), (), None, body, types)


def test_a_value_that_may_raise_stays_in_a_loop_in_a_try():
    alone, caught = _power_loop(False), _power_loop(True)
    assert hoist_invariants(alone, Context.of(alone))
    assert isinstance(alone.body[1], sw.Let) and alone.body[1].target == "p"
    assert not hoist_invariants(caught, Context.of(caught))


def test_a_value_that_may_raise_stays_after_an_append_a_caller_sees():
    appended = _power_loop(False, appended=True)
    assert not hoist_invariants(appended, Context.of(appended))


def test_a_value_that_may_raise_stays_in_its_branch(loops):
    assert _inside_loop(_sweeps(symdiff.grad(loops.in_a_branch).source)[0], "omega ** 2")


def test_an_inner_loop_invariant_of_both_loops_leaves_both(loops):
    text = symdiff.grad(loops.nested_loops).source
    forward, reverse = _sweeps(text)
    assert _before_loop(forward, "math.tanh(") and forward.count("math.tanh(") == 1
    assert "w * 3.0" not in reverse or _before_loop(reverse, "w * 3.0")


def test_an_input_check_reads_as_written(loops):
    assert "assert n > 0, 'n must be positive'" in symdiff.grad(loops.checked_in_loop).source


def test_a_value_read_from_a_list_stays(loops):
    text = symdiff.source(loops.read_from_a_list, [1.0, 2.0, 3.0], 0.5)
    assert _inside_loop(_sweeps(text)[0], "xs[0]")


# --- the numbers ---------------------------------------------------------------------------

@contextlib.contextmanager
def _without_the_pass():
    """Builds with the driver's passes but ``hoist_invariants``."""
    saved = driver.PASSES
    driver.PASSES = tuple(p for p in driver.PASSES if p is not hoist_invariants)
    try:
        yield
    finally:
        driver.PASSES = saved


def _gradients(fn, wrt, kinds_from=None):
    """The gradient as built, and as built without ``hoist_invariants``."""
    return built_both_ways(fn, wrt, _without_the_pass, kinds_from)


def _scalar_points(name, arity, count=3, low=-2.0, high=2.0):
    rng = random.Random(name)
    inside = [tuple(low + (high - low) * rng.random() for _ in range(arity))
              for _ in range(count)]
    start = inside[0]
    odd = [start[:i] + (v,) + start[i + 1:] for v in SPECIAL for i in range(len(start))]
    return inside + odd + [(v,) * len(start) for v in SPECIAL]


def test_the_local_loops_agree_with_and_without_the_pass_and_with_the_tape(loops):
    scalar = (loops.spring, loops.checked_first, loops.in_a_branch, loops.nested_loops,
              loops.checked_in_loop)
    for fn in scalar:
        arity = fn.__code__.co_argcount
        moved, plain = _gradients(fn, None)
        points = _scalar_points(fn.__name__, arity, count=40, low=0.1, high=1.5)
        assert differences(fn, moved, plain, points) == [], fn.__name__
        tape = symdiff.tape.grad(fn)
        for point in points[:40]:
            got, want = oracles.as_tuple(moved(*point)), oracles.as_tuple(tape(*point))
            assert got == pytest.approx(want, rel=1e-10, abs=1e-12), (fn.__name__, point)
    for fn in (loops.over_a_list, loops.read_from_a_list):
        rng = random.Random(fn.__name__)
        points = [([rng.uniform(-1.5, 1.5) for _ in range(3)], rng.uniform(-1.5, 1.5))
                  for _ in range(20)]
        points += [(replaced(points[0][0], v), v) for v in SPECIAL]
        points = [tuple(p) for p in points]
        moved, plain = _gradients(fn, None, points)
        assert differences(fn, moved, plain, points) == [], fn.__name__
        tape = symdiff.tape.grad(fn)
        for point in points[:20]:
            got, want = moved(*point), tape(*point)
            assert got[0] == pytest.approx(want[0], rel=1e-10, abs=1e-12)
            assert got[1] == pytest.approx(want[1], rel=1e-10, abs=1e-12)


def test_an_overflow_is_raised_as_before(loops):
    moved, plain = _gradients(loops.spring, None)
    for fn in (moved, plain):
        with pytest.raises(OverflowError):
            fn(1.0, 0.5, 1e200)


@pytest.mark.parametrize("scalar, case", loop_cases())
def test_with_and_without_the_pass_agree_bit_for_bit(scalar, case):
    points, wrt = case_points(scalar, case)
    moved, plain = _gradients(case.fn, wrt, None if scalar else points)
    bad = differences(case.fn, moved, plain, points)
    assert not bad, f"first of {len(bad)}: {bad[0]}"
