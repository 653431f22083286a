"""symdiff.check: four witnesses per point, the divergence locator, custom rules.

Functions with a wrong hand-written rule (``symdiff.defgrad``) are planted here; the
report must say it is not ok, name the rule's function and argument, and point at the
line of *this file* that calls the function.  Expected lines are found through marker
comments (``# <call: name>``), never written as numbers.
"""

import math
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import symdiff
from tests.wrong_builds import marked_line as marked_in

HERE = Path(__file__)
ROOT = HERE.parent.parent.parent
COLUMNS = ("point", "wrt", "generated", "tape", "sympy", "finite diff", "status")


def marked_line(name):
    """The line number of the one line of this file that ends with ``# <call: name>``."""
    return marked_in(HERE, name)


def code_of(lineno):
    """The statement on ``lineno`` of this file, without its comment."""
    return HERE.read_text().splitlines()[lineno - 1].split("#")[0].strip()


def far_apart(a, b):
    return abs(a - b) > 1e-6 * max(1.0, abs(a), abs(b))


# --- correct functions -------------------------------------------------------------------

def smooth(x, y):
    z = x * y
    return z + math.sin(x) * math.exp(-y * y)


def looped(x, y):
    total = 0.0
    for i in range(4):
        total = total * y + math.tanh(x * i + y)
    return total


def branched(x, y):
    if x > y:
        z = x * x - y
    else:
        z = math.cos(x) * y
    return z / (1.0 + y * y)


CORRECT = [smooth, looped, branched]


@pytest.mark.parametrize("fn", CORRECT, ids=lambda fn: fn.__name__)
def test_correct_function_at_given_points(fn):
    points = [(0.3, 0.7), (1.2, -0.4), (-0.8, 1.5)]
    report = symdiff.check(fn, *points)
    assert report.ok, str(report)
    assert bool(report)
    assert len(report.rows) == len(points) * 2
    assert [row.point for row in report.rows] == [p for p in points for _ in range(2)]
    assert [row.param for row in report.rows] == ["x", "y"] * len(points)
    assert not report.divergences and not report.rule_problems
    for row in report.rows:
        assert row.status.startswith("ok")
        assert row.generated == pytest.approx(row.tape, rel=1e-12, abs=1e-12)
        assert row.generated == pytest.approx(row.sympy, rel=1e-9, abs=1e-12)
        assert row.generated == pytest.approx(row.finite_difference, rel=1e-5, abs=1e-7)


@pytest.mark.parametrize("fn", CORRECT, ids=lambda fn: fn.__name__)
def test_correct_function_at_random_points(fn):
    report = symdiff.check(fn, samples=4, seed=3)
    assert report.ok, str(report)
    assert len({row.point for row in report.rows}) == 4
    assert all(row.status.startswith("ok") for row in report.rows)


def test_random_points_are_reproducible():
    first = symdiff.check(smooth, samples=3, seed=7)
    second = symdiff.check(smooth, samples=3, seed=7)
    assert [row.point for row in first.rows] == [row.point for row in second.rows]
    assert [row.point for row in first.rows] != [
        row.point for row in symdiff.check(smooth, samples=3, seed=8).rows]


def test_wrt_selects_the_rows():
    report = symdiff.check(smooth, (0.3, 0.7), wrt="y")
    assert report.ok and [row.param for row in report.rows] == ["y"]


# --- a masked loss whose hand-written backward treats the mask as a constant -------------

def soft_mask(v):
    return 1.0 / (1.0 + math.exp(-4.0 * v))


def masked_square(x, target):
    mask = soft_mask(x)
    return mask * (x - target) ** 2


def masked_square_dx_mask_constant(x, target, out):
    return soft_mask(x) * 2.0 * (x - target)  # wrong: the mask moves with x too


def masked_square_dtarget(x, target, out):
    return -soft_mask(x) * 2.0 * (x - target)


symdiff.defgrad(masked_square, masked_square_dx_mask_constant, masked_square_dtarget)


def masked_model(w, x):
    prediction = w * x + 0.1
    loss = masked_square(prediction, 0.5)  # <call: masked>
    return loss + 0.01 * w * w


def test_wrong_rule_of_masked_loss_is_caught():
    report = symdiff.check(masked_model, (0.8, 0.9), (1.3, 0.4))
    assert not report.ok and not bool(report)
    assert [(p.function, p.argument) for p in report.rule_problems] == [("masked_square", "x")]
    problem = report.rule_problems[0]
    assert far_apart(problem.rule, problem.finite_difference)
    first = report.divergences[0]
    assert first.lineno == marked_line("masked")
    assert first.text.split("#")[0].strip() == code_of(first.lineno)
    assert first.argument == "prediction"
    assert far_apart(first.generated, first.tape)
    assert any("sympy differs" in row.status for row in report.rows)
    assert all(row.generated == pytest.approx(row.tape, rel=1e-12) for row in report.rows)


def test_the_rule_itself_is_what_symdiff_calls():
    """The generated gradient and the tape follow the (wrong) rule, as the user asked;
    sympy and finite differences read the function's own code, and disagree with it."""
    point = (0.8, 0.9)
    generated = symdiff.grad(masked_model)(*point)
    taped = symdiff.tape.grad(masked_model)(*point)
    from symdiff.witnesses.symbolic import evaluate_grad
    symbolic = evaluate_grad(masked_model, point)
    assert taped == pytest.approx(generated, rel=1e-12)
    assert far_apart(generated[0], symbolic[0])
    own_code = symdiff.tape.on_values(masked_square, own_rule=False)
    x, target = symdiff.tape.Value(0.8 * 0.9 + 0.1), symdiff.tape.Value(0.5)
    own_code(x, target).backward()
    rule = masked_square_dx_mask_constant(x.data, target.data, None)
    assert far_apart(x.grad, rule)


# --- a rule wrong only in its second argument; the locator in loops and branches ----------

def scaled_square(u, v):
    return u * u * v


def scaled_square_du(u, v, out):
    return 2.0 * u * v


def scaled_square_dv_wrong(u, v, out):
    return 2.0 * u * u  # wrong: twice the right value


symdiff.defgrad(scaled_square, scaled_square_du, scaled_square_dv_wrong)


def calibrate(v):
    return 2.0 * math.sin(v) + v


symdiff.defgrad(calibrate, lambda v, out: 2.0 * math.cos(v) + 1.0)  # a correct rule


def second_argument_caller(a, b):
    c = a + 0.5
    d = scaled_square(c, b * b)  # <call: second>
    return d * a


def loop_caller(a, b):
    total = 0.0
    for i in range(3):
        u = calibrate(a) + i
        total = total + scaled_square(u, b)  # <call: loop>
        total = total * 0.5
    return calibrate(total * 0.1)


def branch_caller(a, b):
    c = calibrate(b)
    if a > 0.5:
        d = scaled_square(a, c)  # <call: branch>
    else:
        d = a * c
    return d + calibrate(a)


def helper_with_wrong_call(p, q):
    return scaled_square(p, q) + p  # <call: helper>


def helper_caller(a, b):
    e = calibrate(a * b)
    f = helper_with_wrong_call(e, b)
    return calibrate(f)


def test_rule_wrong_only_in_second_argument():
    report = symdiff.check(second_argument_caller, (0.7, 1.3), (1.1, -0.6))
    assert not report.ok
    assert [(p.function, p.argument) for p in report.rule_problems] == [("scaled_square", "v")]
    rows = {(row.point, row.param): row for row in report.rows}
    assert rows[(0.7, 1.3), "b"].status != "ok"
    first = report.divergences[0]
    assert first.lineno == marked_line("second")
    assert first.argument != "c"  # the partial by the first argument is right


@pytest.mark.parametrize("caller, marker, argument", [
    (loop_caller, "loop", "b"),
    (branch_caller, "branch", "c"),
], ids=["inside a loop", "inside a branch"])
def test_locator_finds_the_wrong_call_among_correct_rules(caller, marker, argument):
    report = symdiff.check(caller, (0.7, 1.3), (1.1, 0.4))
    assert not report.ok
    assert [(p.function, p.argument) for p in report.rule_problems] == [("scaled_square", "v")]
    assert report.divergences, str(report)
    first = report.divergences[0]
    assert first.lineno == marked_line(marker), str(report)
    assert first.text.split("#")[0].strip() == code_of(first.lineno)
    assert first.argument == argument
    assert far_apart(first.generated, first.tape)
    assert all(d.lineno == marked_line(marker) for d in report.divergences)


def test_locator_inside_a_helper():
    report = symdiff.check(helper_caller, (0.7, 1.3))
    assert not report.ok
    assert report.divergences[0].lineno == marked_line("helper"), str(report)
    assert report.divergences[0].function == "helper_with_wrong_call"


def test_branch_not_taken_leaves_the_wrong_rule_unused():
    report = symdiff.check(branch_caller, (0.2, 1.3), (-0.4, 0.9))
    assert report.ok, str(report)
    assert not report.rule_problems and not report.divergences


# --- correct rules, stop_gradient ---------------------------------------------------------

def softplus(x):
    return math.log1p(math.exp(x))


symdiff.defgrad(softplus, lambda x, out: 1.0 / (1.0 + math.exp(-x)))


@symdiff.custom_grad(lambda x, y, out: y * math.cos(x * y), lambda x, y, out: x * math.cos(x * y))
def sine_of_product(x, y):
    return math.sin(x * y)


def uses_correct_rules(a, b):
    h = softplus(a * b) + sine_of_product(a, b)
    for i in range(2):
        h = h * 0.5 + softplus(h - b)
    return h


def test_correct_custom_rules_pass():
    report = symdiff.check(uses_correct_rules, (0.3, 0.8), (-1.2, 0.5), (2.0, -0.7))
    assert report.ok, str(report)
    assert not report.rule_problems and not report.divergences
    assert all(row.status == "ok" for row in report.rows)


def detached_product(x, y):
    w = symdiff.stop_gradient(x * y)
    return w * x + y


def test_stop_gradient_is_honoured_by_every_witness():
    point = (0.6, 1.7)
    expected = (point[0] * point[1], 1.0)  # w counts as a constant
    assert symdiff.grad(detached_product)(*point) == pytest.approx(expected, rel=1e-12)
    assert symdiff.tape.grad(detached_product)(*point) == pytest.approx(expected, rel=1e-12)
    from symdiff.witnesses.symbolic import evaluate_grad
    assert evaluate_grad(detached_product, point) == pytest.approx(expected, rel=1e-12)
    report = symdiff.check(detached_product, point, (-1.1, 0.4))
    assert report.ok, str(report)
    x_rows = [row for row in report.rows if row.param == "x"]
    assert all("finite differences see through stop_gradient" in row.status for row in x_rows)
    assert all(row.generated == pytest.approx(row.tape, rel=1e-12) for row in report.rows)
    assert all(row.generated == pytest.approx(row.sympy, rel=1e-12) for row in report.rows)


def signed_square(x, y):
    return math.copysign(x * x, y) + x


def test_check_a_function_using_copysign():
    """The tape once lacked copysign, and check() raised instead of reporting."""
    assert symdiff.grad(signed_square)(0.7, -1.2) == pytest.approx((-0.4, 0.0))
    report = symdiff.check(signed_square, (0.7, -1.2), (-1.1, 0.5))
    assert report.ok, str(report)


# --- the printed report -------------------------------------------------------------------

def test_printed_report_is_a_table():
    text = str(symdiff.check(smooth, (0.3, 0.7)))
    lines = text.splitlines()
    assert lines[0] == "check smooth: ok"
    for column in COLUMNS:
        assert column in lines[1]
    assert set(lines[2].replace(" ", "")) == {"-"}
    assert len(lines) == 3 + 2  # one row per parameter


def test_printed_failure_names_the_line_and_the_rule():
    report = symdiff.check(loop_caller, (0.7, 1.3))
    text = str(report)
    assert text.splitlines()[0] == "check loop_caller: FAILED"
    for column in COLUMNS:
        assert column in text
    assert f"{HERE}:{marked_line('loop')}" in text
    assert "scaled_square" in text and "wrong rule" in text


def test_masked_loss_example_runs():
    example = ROOT / "examples" / "masked_loss.py"
    done = subprocess.run([sys.executable, str(example)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAILED" in done.stdout and "masked_error" in done.stdout


# --- defaults, points outside the real numbers, rules the tape cannot see into, sympy's budget

def with_default(x, y=2.0, n=3):
    total = 0.0
    for i in range(n):
        total = total + x * y + math.sin(x * i)
    return total


def test_points_may_leave_out_parameters_with_defaults():
    """The reproducer: check(f, (1.5,)) on def f(x, y=2.0) once raised ValueError."""
    report = symdiff.check(with_default, (1.5,), (0.5, -1.0), (0.3, 1.0, 2))
    assert report.ok, str(report)
    assert [row.point for row in report.rows][::2] == [(1.5, 2.0, 3), (0.5, -1.0, 3),
                                                       (0.3, 1.0, 2)]
    assert symdiff.check(with_default, samples=2).ok  # random points give every parameter


def test_a_point_without_a_required_parameter_is_refused():
    with pytest.raises(ValueError, match="parameters"):
        symdiff.check(with_default, ())


def power_of(x, y):
    return x ** y


@pytest.mark.parametrize("fn, point, param", [
    (power_of, (-2.0, 3.0), "y"),
    (lambda x, y: x ** y, (-2.0, 3.0), "y"),
    (lambda x: (x - 1.0) ** 0.5, (1.0,), "x"),
], ids=["def", "lambda", "at the edge of the domain"])
def test_finite_differences_leaving_the_real_numbers_are_a_status(fn, point, param):
    """The reproducer: a finite-difference step of x ** y at x < 0 once raised TypeError
    (a complex number)."""
    report = symdiff.check(fn, point)
    assert report.ok, str(report)
    row = next(r for r in report.rows if r.param == param)
    assert math.isnan(row.finite_difference)
    assert row.status.startswith("ok (finite differences undefined here")
    assert row.generated == row.tape or math.isnan(row.generated) and math.isnan(row.tape)


def phase(x):
    return math.remainder(x, 2.0 * math.pi)  # the tape has no derivative for remainder


symdiff.defgrad(phase, lambda x, out: 1.0)


def wrapped_angle(a, b):
    return phase(a * b) * b + a


def log_gamma_of(x):
    return math.lgamma(x)


symdiff.defgrad(log_gamma_of, lambda x, out: (math.lgamma(x + 1e-6) - math.lgamma(x - 1e-6))
                / 2e-6)


def uses_lgamma(x, y):
    return log_gamma_of(x * y) + x


@pytest.mark.parametrize("fn", [wrapped_angle, uses_lgamma], ids=lambda fn: fn.__name__)
def test_a_function_using_a_rule_whose_code_the_tape_cannot_run(fn):
    """The reproducer: check stopped with "math.lgamma has no derivative on the tape"."""
    report = symdiff.check(fn, (0.7, 1.3), (1.1, 0.9))
    assert report.ok, str(report)
    assert all(row.generated == pytest.approx(row.tape, rel=1e-12) for row in report.rows)
    assert not report.rule_problems


def test_a_wrong_rule_whose_code_the_tape_cannot_run_is_caught_by_finite_differences():
    def phase_wrong(x):
        return math.remainder(x, 2.0 * math.pi)

    symdiff.defgrad(phase_wrong, lambda x, out: 2.0)

    def caller(a):
        return phase_wrong(a) * a

    report = symdiff.check(caller, (0.7,), (1.1,))
    assert not report.ok
    assert [(p.function, p.argument) for p in report.rule_problems] == [("phase_wrong", "x")]
    assert all("a rule is wrong" in row.status for row in report.rows), str(report)


def swelling(x, y):
    a = math.sin(x * y) + math.exp(x)
    for i in range(6):
        a = math.sin(a) * a + math.cos(a * y)
    return a


def test_the_sympy_witness_has_a_time_budget():
    """sympy on one small function once took 76 s; past its budget its column says so,
    and the gradient is still judged by the tape and finite differences."""
    before = threading.active_count()
    report = symdiff.check(swelling, (0.3, 0.7), (0.4, 0.2), sympy_timeout=0.01)
    assert report.ok, str(report)
    assert all(row.sympy is None and row.sympy_status == "timed out" for row in report.rows)
    assert all(row.status == "ok (sympy: timed out)" for row in report.rows), str(report)
    table = str(report)
    assert "timed out" in table.splitlines()[3] and "sympy: timed out" in table
    assert threading.active_count() == before  # the worker was stopped


def test_without_a_budget_sympy_runs_to_the_end():
    report = symdiff.check(smooth, (0.3, 0.7), sympy_timeout=None)
    assert report.ok and all(row.sympy_status == "ok" for row in report.rows)


def log_times(x):
    return math.log(x) * x


def test_where_the_function_raises_the_gradient_must_raise_the_same():
    report = symdiff.check(log_times, (0.0,), (-1.0,), (1.0,))
    assert report.ok, str(report)
    first, second, third = report.rows
    assert "raises ValueError" in str(first.generated) and first.status.startswith("ok")
    assert "the function raises ValueError here, and so does the gradient" in second.status
    assert third.status == "ok"
    assert "raises ValueError" in str(report)


def quiet(x):
    return 2.0 * x


symdiff.defgrad(quiet, lambda x, out: 1.0 / (x - x))  # raises where quiet does not


def calls_quiet(x):
    return quiet(x) + x


def test_a_gradient_that_raises_where_the_function_does_not_is_a_failure():
    report = symdiff.check(calls_quiet, (0.5,))
    assert not report.ok
    assert report.rows[0].status == "generated raises ZeroDivisionError where the function does not"
