"""Input checks and optional arguments, over ``corpus/checks.py``.

At valid points the gradient agrees with the tape, sympy and finite differences (the
``CASES`` also run through every test of ``test_end_to_end``); at each bad point the
generated gradient — reverse and forward mode, optimized or not, and the gradient of the
gradient — raises what the function raises, the same class with the same message, and so
do the tape and the sympy witness.  Checks never reach the reverse sweep.
"""

import random
import subprocess
import sys

import pytest

import symdiff
import symdiff.tape
from symdiff.witnesses.symbolic import evaluate_grad

try:
    import oracles
    from corpus import checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.corpus import checks

BAD = [pytest.param(c, point, id=f"{c.label}-{i}") for c in checks.CASES
       for i, point in enumerate(c.bad)]


def raised(fn, *args, **kwargs):
    """(class, message) of what calling ``fn`` raises; None when it returns."""
    try:
        fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - whatever it is, both sides must agree
        return type(exc), str(exc)
    return None


@pytest.mark.parametrize("c, point", BAD)
def test_the_gradient_raises_what_the_function_raises(c, point):
    expected = raised(c.fn, *point)
    assert expected is not None, f"{c.label}{point} is not a bad point"
    tangents = (1.0,) * len(point)
    for made in (symdiff.grad(c.fn), symdiff.grad(c.fn, optimize=False),
                 symdiff.value_and_grad(c.fn), symdiff.tape.grad(c.fn)):
        assert raised(made, *point) == expected, made
    assert raised(symdiff.jvp(c.fn), *point, *tangents) == expected
    assert raised(lambda *a: evaluate_grad(c.fn, a), *point) == expected
    first = c.params[0]
    twice = symdiff.grad(symdiff.grad(c.fn, wrt=first), wrt=first)
    assert raised(twice, *point) == expected


@pytest.mark.parametrize("c", checks.CASES, ids=lambda c: c.label)
def test_checks_stay_out_of_the_reverse_sweep(c):
    text = symdiff.source(c.fn)
    forward, _, reverse = text.partition("# reverse sweep")
    assert "raise " in forward or "assert " in forward
    assert "raise " not in reverse and "assert " not in reverse


@pytest.mark.parametrize("c", checks.CASES, ids=lambda c: c.label)
def test_check_reports_ok_on_valid_points(c):
    report = symdiff.check(c.fn, *oracles.sample(c, 3, "checks"))
    assert report.ok, str(report)


def _optional_id(entry):
    fn, domain, kwargs, _ = entry
    return f"{fn.__name__}-{len(domain)}-{'-'.join(kwargs)}"


@pytest.mark.parametrize("entry", checks.OPTIONAL, ids=_optional_id)
def test_optional_arguments_against_the_witnesses(entry):
    fn, domain, kwargs, _ = entry
    wrt = tuple(range(len(domain)))
    gradient = symdiff.grad(fn, wrt=wrt)
    by_tape = symdiff.tape.grad(fn, wrt=wrt)
    rng = random.Random(fn.__name__)
    for _ in range(5):
        point = tuple(rng.uniform(lo, hi) for lo, hi in domain)
        got = gradient(*point, **kwargs)
        assert got == pytest.approx(by_tape(*point, **kwargs), rel=1e-12)
        assert got == pytest.approx(evaluate_grad(fn, point, wrt=wrt, kwargs=kwargs), rel=1e-9)
        for i in wrt:
            estimate, _ = oracles.finite_difference(lambda *a: fn(*a, **kwargs), point, i)
            assert got[i] == pytest.approx(estimate, rel=1e-6, abs=1e-9)
    assert symdiff.check(fn, point, wrt=wrt, kwargs=kwargs).ok


@pytest.mark.parametrize("entry", checks.OPTIONAL, ids=_optional_id)
def test_optional_arguments_raise_what_the_function_raises(entry):
    fn, domain, _, (point, kwargs) = entry
    wrt = tuple(range(len(domain)))
    expected = raised(fn, *point, **kwargs)
    assert expected is not None
    for made in (symdiff.grad(fn, wrt=wrt), symdiff.tape.grad(fn, wrt=wrt)):
        assert raised(made, *point, **kwargs) == expected
    assert raised(lambda *a: evaluate_grad(fn, a, wrt=wrt, kwargs=kwargs), *point) == expected


def test_a_parameter_defaulting_to_none_is_left_out_of_the_default_wrt():
    gradient = symdiff.grad(checks.concentration)
    assert isinstance(gradient(1.0), float)
    assert gradient(1.0) == symdiff.tape.grad(checks.concentration)(1.0)
    assert gradient(1.0) == pytest.approx(evaluate_grad(checks.concentration, (1.0, None, None)))
    assert "is None" in gradient.source  # decided when the gradient runs


def test_differentiating_by_a_parameter_given_as_none_is_a_clear_error():
    gradient = symdiff.grad(checks.concentration, wrt=("t", "dose"))
    assert gradient(1.0, 50.0)[1] == pytest.approx(symdiff.tape.grad(
        checks.concentration, wrt=("t", "dose"))(1.0, 50.0)[1])
    with pytest.raises(TypeError, match="dose is None"):
        gradient(1.0)
    with pytest.raises(TypeError, match="dose is None"):
        symdiff.jvp(checks.concentration, wrt=("t", "dose"))(1.0, None, None, 1.0, 1.0)


def test_the_gradient_takes_kwargs_and_reads_only_constant_keys():
    gradient = symdiff.grad(checks.pk_model)
    assert "**kwargs" in gradient.source
    assert raised(gradient, 1.0, 2.0) == raised(checks.pk_model, 1.0, 2.0)  # KeyError


def test_asserts_follow_python_under_optimize_flag():
    code = ("import symdiff, sys; sys.path.insert(0, 'tests'); from corpus import checks; "
            "g = symdiff.grad(checks.drag); print(checks.drag(-1.0, 1.0, 0.5), g(-1.0, 1.0, 0.5))")
    for flags, raises in (([], True), (["-O"], False)):
        run = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True,
                             text=True, cwd=_root(), env=_env())
        assert ("AssertionError" in run.stderr) == raises, run.stderr
        assert (run.returncode == 0) != raises


def _root():
    import pathlib
    return str(pathlib.Path(__file__).resolve().parent.parent.parent)


def _env():
    import os
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=_root() + (os.pathsep + path if path else ""))


@pytest.mark.parametrize("c", checks.CASES, ids=lambda c: c.label)
def test_the_divergence_locator_runs_the_checks(c):
    from symdiff.checking.locate import locate
    from symdiff.pipeline import lower
    from symdiff.frontend.parse import parse_function

    program = lower(parse_function(c.fn))
    point = oracles.sample(c, 1, "locate")[0]
    assert locate(program, program.params, point) is None  # the two sides agree
    for bad in c.bad:
        assert raised(locate, program, program.params, bad) == raised(c.fn, *bad)


def test_second_derivatives_take_kwargs_and_raise_as_the_function_does():
    point, kwargs = (1.0, 2.0), {"dose": 50.0, "k": 0.7}
    hessian = symdiff.hessian(checks.pk_model)(*point, **kwargs)
    taped = symdiff.tape.grad(checks.pk_model)
    for i in range(2):
        column = [oracles.finite_difference(
            lambda *a: taped(*a, **kwargs)[j], point, i)[0] for j in range(2)]
        assert [row[i] for row in hessian] == pytest.approx(column, rel=1e-6)
    assert symdiff.hvp(checks.pk_model)(*point, 1.0, 0.0, **kwargs) == pytest.approx(
        tuple(row[0] for row in hessian))
    bad = {"dose": -1.0}
    expected = raised(checks.pk_model, *point, **bad)
    assert raised(symdiff.hessian(checks.pk_model), *point, **bad) == expected
    assert raised(symdiff.jacobian(checks.pk_model), *point, **bad) == expected


def test_check_leaves_optional_arguments_at_none_and_says_so():
    report = symdiff.check(checks.concentration)
    assert report.ok and report.rows
    assert all(row.point[1:] == (None, None) for row in report.rows)
    assert any("optional" in note and "dose" in note for note in report.notes)
    assert symdiff.check(checks.concentration, wrt=("t", "dose")).ok
