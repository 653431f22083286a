"""Random draws as data, end to end: the generated gradient of each function of
``corpus/arrays/random.py`` makes the draws ``f`` makes, in its order, once each.

Witnesses, each given its own copy of the generator (the state the caller passed):
finite differences of ``f`` (central, every number of the differentiated parameters),
the tape engine running ``f`` unchanged, autograd where the function is written for it,
and ``symdiff.check``.  The caller's generator ends where ``f`` leaves it (a draw
dropped, duplicated or moved out of a loop would leave it elsewhere).  Refusals name the
draw, at its line, with a hint.
"""

import copy

import numpy as np
import pytest

import symdiff
import symdiff.tape
from symdiff.errors import SymdiffError
from tests.corpus.arrays import random as corpus

CASES = {case.label: case for case in corpus.CASES}


def fresh(point):
    return tuple(copy.deepcopy(v) for v in point)


def leaves(value, path=()):
    """``(path, number)`` of each float of a number, an array or a dict of them."""
    if isinstance(value, dict):
        return [leaf for k in value for leaf in leaves(value[k], path + (k,))]
    if isinstance(value, np.ndarray):
        return [(path + (i,), float(value[i])) for i in np.ndindex(value.shape)]
    return [(path, float(value))]


def moved(value, path, h):
    if not path:
        return value + h
    if isinstance(value, dict):
        return {k: moved(v, path[1:], h) if k == path[0] else v for k, v in value.items()}
    out = value.copy()
    out[path[0]] += h
    return out


def picked(value, path):
    for key in path:
        value = value[key]
    return float(value)


def finite_gradient(case, point, h=1e-6):
    """The central differences of ``f`` by every number of the differentiated parameters,
    each evaluation from a copy of the point's generator."""
    params = list(case.params)
    found = {}
    for name in case.differentiated:
        index = params.index(name)
        for path, _ in leaves(point[index]):
            up, down = list(fresh(point)), list(fresh(point))
            up[index], down[index] = moved(up[index], path, h), moved(down[index], path, -h)
            found[(name,) + path] = (case.fn(*up) - case.fn(*down)) / (2 * h)
    return found


def as_named(case, gradient):
    single = isinstance(case.wrt, str)
    parts = (gradient,) if single else tuple(gradient)
    return {(name,) + path: picked(part, path) for name, part in zip(case.differentiated, parts)
            for path, _ in leaves(part)}


def wrt_of(case):
    return case.wrt if case.wrt is not None else tuple(case.params)


def cases_and_points():
    return [pytest.param(label, k, id=f"{label}-{k}") for label, case in CASES.items()
            for k in range(len(case.points))]


@pytest.mark.parametrize("label, k", cases_and_points())
def test_the_gradient_is_that_of_the_draws_f_makes(label, k):
    case = CASES[label]
    point = case.points[k]
    got = as_named(case, symdiff.grad(case.fn, wrt=wrt_of(case))(*fresh(point)))
    want = finite_gradient(case, point)
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == pytest.approx(want[key], rel=1e-5, abs=1e-6), key


@pytest.mark.parametrize("label, k", cases_and_points())
def test_the_tape_agrees(label, k):
    case = CASES[label]
    point = case.points[k]
    got = as_named(case, symdiff.grad(case.fn, wrt=wrt_of(case))(*fresh(point)))
    taped = as_named(case, symdiff.tape.grad(case.fn, wrt=wrt_of(case))(*fresh(point)))
    for key in taped:
        assert got[key] == pytest.approx(taped[key], rel=1e-9, abs=1e-12), key


@pytest.mark.parametrize("label, k", cases_and_points())
def test_the_callers_generator_advances_as_f_advances_it(label, k):
    case = CASES[label]
    point = case.points[k]
    by_gradient, by_f = fresh(point), fresh(point)
    symdiff.grad(case.fn, wrt=wrt_of(case))(*by_gradient)
    case.fn(*by_f)
    for mine, theirs in zip(by_gradient, by_f):
        if isinstance(mine, np.random.Generator):
            assert mine.bit_generator.state == theirs.bit_generator.state
            assert mine.random() == theirs.random()


@pytest.mark.parametrize("label", ["gaussian_expectation", "draws_in_branches",
                                   "number_draws", "legacy_seeded"])
def test_check_compares_the_same_draws(label):
    case = CASES[label]
    report = symdiff.check(case.fn, *case.points, wrt=case.wrt)
    assert report.ok, str(report)
    assert report.rows


def test_check_leaves_the_callers_generator_as_it_was():
    case = CASES["noisy_regression"]
    point = fresh(case.points[0])
    before = copy.deepcopy(point[-1].bit_generator.state)
    symdiff.check(case.fn, point, wrt=case.wrt)
    assert point[-1].bit_generator.state == before


def test_autograd_agrees_on_a_function_written_for_it():
    autograd = pytest.importorskip("autograd")
    case = CASES["autograd_reparameterized"]
    mu, rng = fresh(case.points[0])
    want = autograd.grad(case.fn)(mu, copy.deepcopy(rng))
    got = symdiff.grad(case.fn, wrt="mu")(mu, copy.deepcopy(rng))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_hand_written_gradient_of_a_reparameterized_estimate():
    def f(mu, rng):
        eps = rng.standard_normal(size=(50, mu.shape[0]))
        return np.mean(np.sum((mu + eps) ** 2, axis=1))
    mu, rng = np.array([0.2, -0.4]), np.random.default_rng(21)
    eps = copy.deepcopy(rng).standard_normal(size=(50, 2))
    np.testing.assert_allclose(symdiff.grad(f, wrt="mu")(mu, copy.deepcopy(rng)),
                               2 * np.mean(mu + eps, axis=0), rtol=1e-12)


def test_the_global_state_advances_as_f_advances_it():
    case = corpus.LEGACY[0]
    (theta,) = case.points[0]
    np.random.seed(5)
    got = symdiff.grad(case.fn)(theta)
    after_gradient = np.random.random()
    np.random.seed(5)
    case.fn(theta)
    assert after_gradient == np.random.random()
    np.random.seed(5)
    z = np.random.normal(0.0, 1.0, size=theta.shape)
    k = np.random.randint(0, 3)
    np.testing.assert_allclose(got, (k + 1) * (1 - np.tanh(theta + z) ** 2), rtol=1e-12)


def test_default_wrt_leaves_the_generator_out():
    case = CASES["noisy_regression"]
    w, X, y, rng = fresh(case.points[0])
    gradient = symdiff.grad(lambda_free_noisy)(w, rng)
    assert isinstance(gradient, np.ndarray) and gradient.shape == w.shape


def lambda_free_noisy(w, rng):
    return np.sum((w - rng.normal(size=w.shape)) ** 2)


def in_draws(rng, x):
    return np.sum(x * rng.normal(x, 1.0, size=x.shape))


def other_method(x, rng):
    return np.sum(x * rng.beta(2.0, 3.0, size=x.shape))


def other_module_draw(x):
    return np.sum(x * np.random.beta(2.0, 3.0, size=x.shape))


def float_choice(x, rng):
    return np.sum(rng.choice(x, size=2))


def scaled_by_a_parameter(x, s, rng):
    return np.sum(x * rng.normal(0.0, s, size=x.shape))


def joined_size(x, rng):
    return np.sum(x * rng.normal(size=(2,) + x.shape))


def weighted_choice(x, rng):
    return np.sum(x[rng.choice(3, size=2, p=[0.2, 0.3, 0.5])])


@pytest.mark.parametrize("fn, args, line, words", [
    (joined_size, (np.ones(2), np.random.default_rng(0)), "(2,) + x.shape", "joining shapes"),
    (weighted_choice, (np.ones(3), np.random.default_rng(0)), "p=", "no keyword argument 'p'"),
    (other_method, (np.ones(2), np.random.default_rng(0)), "rng.beta", "beta is not a draw"),
    (other_module_draw, (np.ones(2),), "np.random.beta", "np.random.beta is not a draw"),
    (float_choice, (np.ones(3), np.random.default_rng(0)), "rng.choice", "choice"),
    (scaled_by_a_parameter, (np.ones(2), 1.0, np.random.default_rng(0)), "s, size",
     "not a constant"),
])
def test_other_draws_are_refused_where_they_are(fn, args, line, words):
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(fn, wrt="x")(*args)
    error = caught.value
    assert line in (error.source_line or ""), error
    assert words in error.message and error.hint, error
    assert error.filename == __file__


def test_the_reparameterized_form_the_hint_gives_differentiates():
    def f(x, s, rng):
        return np.sum(x * (0.0 + s * rng.standard_normal(size=x.shape)))
    x, s, rng = np.ones(2), 1.5, np.random.default_rng(3)
    ds = symdiff.grad(f, wrt="s")(x, s, copy.deepcopy(rng))
    assert ds == pytest.approx(np.sum(copy.deepcopy(rng).standard_normal(size=2)))


def test_a_generator_named_in_wrt_is_refused_at_the_parameter():
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(lambda_free_noisy, wrt=("w", "rng"))(np.ones(2), np.random.default_rng(0))
    assert "random generator" in caught.value.message


def test_the_readmes_example_runs_as_written(tmp_path):
    import runpy
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = text[text.index("### Randomness"):].split("```python", 1)[1].split("```", 1)[0]
    script = tmp_path / "readme_randomness.py"
    script.write_text(block, encoding="utf-8")
    runpy.run_path(str(script))  # (its asserts hold)


@pytest.mark.parametrize("label", ["draws_in_branches", "legacy_seeded", "seeded_inside",
                                   "option_price", "dropout_mlp"])
def test_the_ir_evaluator_draws_as_f_draws(label):
    """The evaluator ``check``'s divergence locator runs: the program's value is ``f``'s
    at the same state."""
    from symdiff.api import build
    from symdiff.ir.evaluate import on_records, run
    from symdiff.specialized import container_kinds
    case = CASES[label]
    point = case.points[0]
    program = build(case.fn, wrt_of(case), kinds=container_kinds(case.fn, point)).program
    assert run(program, fresh(point), on_records(program)) == pytest.approx(
        case.fn(*fresh(point)), rel=1e-12)


def test_checks_report_says_why_sympy_is_left_out_and_shows_the_generator_plainly():
    case = CASES["number_draws"]
    text = str(symdiff.check(case.fn, *case.points, wrt=case.wrt))
    assert "does not take random draws" in text
    assert "<Generator(PCG64)>" in text and " at 0x" not in text


@pytest.mark.parametrize("label", ["gaussian_expectation", "draws_in_branches", "option_price"])
def test_value_and_grad_gives_fs_value_at_the_same_draws(label):
    case = CASES[label]
    point = case.points[0]
    value, gradient = symdiff.value_and_grad(case.fn, wrt=wrt_of(case))(*fresh(point))
    assert value == pytest.approx(case.fn(*fresh(point)), rel=1e-12)
    assert as_named(case, gradient) == pytest.approx(
        as_named(case, symdiff.grad(case.fn, wrt=wrt_of(case))(*fresh(point))), rel=1e-12)
