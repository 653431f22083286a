"""Gradients of functions given functions as values (``corpus/functions_as_values.py``)
against the tape, finite differences along random directions, and sympy where its
witness reads the function (``*args`` too; not ``**d``).

The function passed is part of the kind signature: ``euler`` given ``decay`` and given
``logistic`` are two gradients, each inlining its own; a refusal left is located.
"""

import inspect
import math
import random

import numpy as np
import pytest

import symdiff
import symdiff.tape
from symdiff.witnesses.finite import moved
from symdiff.witnesses.symbolic import evaluate_grad

try:
    import oracles
    from corpus import functions_as_values as corpus
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.corpus import functions_as_values as corpus

CASES = {c.label: c for c in corpus.VALUE_CASES}
POINTS = [pytest.param(c.label, i, id=f"{c.label}-{i}") for c in corpus.VALUE_CASES
          for i in range(len(c.points))]


def test_the_labels_are_distinct():
    assert len(CASES) == len(corpus.VALUE_CASES) >= 15


def tape_wrt(case, point):
    """The parameters differentiated: ``wrt``, or every positional one not given a
    function (stated apart from symdiff's rule)."""
    if case.wrt is not None:
        return case.wrt
    names = [n for n, v in zip(inspect.signature(case.fn).parameters, point)
             if not callable(v)]
    return names[0] if len(names) == 1 else tuple(names)


def as_list(gradient, wrt):
    return [gradient] if isinstance(wrt, str) else list(gradient)


def paths(value, path=()):
    """The paths of the numbers in ``value`` (a number, or a tuple or list of them)."""
    if isinstance(value, (tuple, list)):
        return [p for i, item in enumerate(value) for p in paths(item, path + (i,))]
    return [path]


def at_path(value, path):
    for i in path:
        value = value[i]
    return value


@pytest.mark.parametrize("label, index", POINTS)
def test_gradient_agrees_with_the_tape(label, index):
    case, point = CASES[label], CASES[label].points[index]
    got = symdiff.grad(case.fn, wrt=case.wrt)(*point)
    want = symdiff.tape.grad(case.fn, wrt=tape_wrt(case, point))(*point)
    assert type(got) is type(want) and paths(got) == paths(want)
    for path in paths(want):
        g, w = at_path(got, path), at_path(want, path)
        assert type(g) is float and math.isclose(g, w, rel_tol=1e-10, abs_tol=1e-12), (g, w)


@pytest.mark.parametrize("label, index", POINTS)
def test_gradient_agrees_with_finite_differences_along_a_direction(label, index):
    case, point = CASES[label], CASES[label].points[index]
    wrt = tape_wrt(case, point)
    names = [wrt] if isinstance(wrt, str) else list(wrt)
    params = list(inspect.signature(case.fn).parameters)
    gradient = as_list(symdiff.grad(case.fn, wrt=case.wrt)(*point), wrt)
    rng = random.Random(f"functions:{label}:{index}")
    places = [(params.index(n), path, g) for n, g in zip(names, gradient)
              for path in paths(point[params.index(n)])]
    direction = [rng.uniform(-1.0, 1.0) for _ in places]
    inner = sum(at_path(g, path) * v for (_, path, g), v in zip(places, direction))

    def along(t):
        arguments = list(point)
        for (i, path, _), v in zip(places, direction):
            arguments = moved(arguments, (i, *path) if path else i, t * v)
        return case.fn(*arguments)
    h = 1e-4
    near, far = (along(h) - along(-h)) / (2 * h), (along(2 * h) - along(-2 * h)) / (4 * h)
    assert math.isclose(inner, (4.0 * near - far) / 3.0, rel_tol=1e-6, abs_tol=1e-7)


@pytest.mark.parametrize("label, index", [p for p in POINTS if CASES[p.values[0]].symbolic])
def test_gradient_agrees_with_sympy(label, index):
    case, point = CASES[label], CASES[label].points[index]
    wrt = tape_wrt(case, point)
    got = symdiff.grad(case.fn, wrt=case.wrt)(*point)
    want = evaluate_grad(case.fn, point, wrt=wrt)
    assert paths(got) == paths(want)
    for path in paths(want):
        assert math.isclose(at_path(got, path), at_path(want, path), rel_tol=1e-9,
                            abs_tol=1e-12)


def test_the_function_passed_is_part_of_the_kind():
    gradient = symdiff.grad(corpus.euler, wrt="x")
    for rhs in (corpus.decay, corpus.logistic, corpus.decay):
        assert math.isclose(gradient(rhs, 0.4, 0.1, 4), symdiff.tape.grad(
            corpus.euler, wrt="x")(rhs, 0.4, 0.1, 4), rel_tol=1e-12)
    assert "math.sin" in symdiff.source(corpus.euler, corpus.decay, 0.4, 0.1, 4, wrt="x")
    assert "math.sin" not in symdiff.source(corpus.euler, corpus.logistic, 0.4, 0.1, 4,
                                            wrt="x")


def test_a_parameter_given_a_function_is_left_out_of_the_default_wrt_and_refused_in_it():
    gradient = symdiff.grad(corpus.euler)(corpus.decay, 1.0, 0.1, 3)
    assert len(gradient) == 2  # x, dt (n, a bound of range, is an int: left out too)
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(corpus.euler, wrt=("rhs", "x"))(corpus.decay, 1.0, 0.1, 3)
    assert "holds a function" in str(caught.value) and caught.value.lineno is not None
    assert "wrt=('x',)" in caught.value.hint
    assert symdiff.grad(corpus.euler, wrt=("x",))(corpus.decay, 1.0, 0.1, 3) == (
        symdiff.grad(corpus.euler, wrt="x")(corpus.decay, 1.0, 0.1, 3),)


def passes_math_sin(x):
    return corpus.apply_twice(math.sin, x)


def passes_a_lambda_of_math_sin(x):
    return corpus.apply_twice(lambda v: math.sin(v), x)


def passes_tanh_of_numpy(x):
    return corpus.euler(np.tanh, x, 0.1, 3)


@pytest.mark.parametrize("fn", [passes_math_sin, passes_a_lambda_of_math_sin,
                                passes_tanh_of_numpy])
def test_a_function_of_math_or_numpy_passed_is_read_as_its_primitive(fn):
    for x in (0.3, -1.1, 2.0):
        got = symdiff.grad(fn)(x)
        assert math.isclose(got, symdiff.tape.grad(fn)(x), rel_tol=1e-12)
        assert math.isclose(got, oracles.finite_difference(fn, (x,), 0)[0], rel_tol=1e-6)


def test_a_parameter_given_a_function_of_math_calls_its_primitive():
    got = symdiff.grad(corpus.apply_twice, wrt="x")(math.sin, 0.3)
    assert math.isclose(got, math.cos(math.sin(0.3)) * math.cos(0.3), rel_tol=1e-12)
    source = symdiff.source(corpus.apply_twice, math.sin, 0.3, wrt="x")
    assert "math.sin(" in source and "math.cos(" in source


def spreads_a_list(x, ps):
    return corpus.damped_rhs(0.1, x, *ps)


def takes_star_args(x, *p):
    return x * p[0]


def takes_one_tuple(x, p):
    return x * p[0]


def forwards_kwargs(x, **options):
    return corpus.scaled_sine(x, **options)


def forwards_kwargs_by_name(x, **options):
    return corpus.scaled_sine(x, scale=options["scale"])


@pytest.mark.parametrize("fn, args, words, way_out, way_args", [
    (spreads_a_list, (1.0, [0.5, 0.2]), "spreads a list", spreads_a_list, (1.0, (0.5, 0.2))),
])
def test_a_spread_refused_is_located_and_its_way_out_works(fn, args, words, way_out, way_args):
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(fn)(*args)
    error = caught.value
    assert error.filename == __file__ and error.lineno is not None and error.hint
    assert words in str(error)
    if way_out is not None:
        got = symdiff.grad(way_out)(*way_args)
        assert got == symdiff.tape.grad(way_out)(*way_args)


def test_star_args_are_read_as_the_tuple_parameter_they_are():
    for x, p in [(1.0, 2.0), (-0.3, 0.7), (2.5, -1.5)]:
        got = symdiff.grad(takes_star_args)(x, p)
        assert got == symdiff.tape.grad(takes_star_args)(x, p)
        dx, (dp,) = got
        assert (dx, (dp,)) == symdiff.grad(takes_one_tuple)(x, (p,))
        assert math.isclose(dx, oracles.finite_difference(takes_star_args, (x, p), 0)[0],
                            rel_tol=1e-6)
        assert math.isclose(dp, oracles.finite_difference(takes_star_args, (x, p), 1)[0],
                            rel_tol=1e-6)


def test_keyword_arguments_read_by_name_are_forwarded():
    got = symdiff.grad(forwards_kwargs_by_name)(0.7, scale=2.0)
    assert math.isclose(got, 2.0 * math.cos(0.7), rel_tol=1e-12)


@pytest.mark.parametrize("options", [{}, {"scale": 2.0}, {"scale": -0.5, "shift": 3.0},
                                     {"shift": 1.5}])
def test_keyword_arguments_forwarded_whole_bind_the_helper_s_parameters(options):
    gradient = symdiff.grad(forwards_kwargs)
    for x in (-1.2, 0.3, 0.7, 2.5):
        got = gradient(x, **options)
        assert got == symdiff.tape.grad(forwards_kwargs)(x, **options)
        h = 1e-6
        estimate = (forwards_kwargs(x + h, **options) - forwards_kwargs(x - h, **options)) / (
            2 * h)
        assert math.isclose(got, estimate, rel_tol=1e-6, abs_tol=1e-8)


def test_a_dict_spread_into_a_helper_binds_its_parameters_and_is_differentiated():
    def by_dict(x, opts):
        return corpus.scaled_sine(x, **opts) * x

    got_x, got_opts = symdiff.grad(by_dict)(0.7, {"scale": 2.0, "shift": 0.5})
    want_x, want_opts = symdiff.tape.grad(by_dict)(0.7, {"scale": 2.0, "shift": 0.5})
    assert math.isclose(got_x, want_x, rel_tol=1e-12)
    assert got_opts.keys() == want_opts.keys() and all(
        math.isclose(got_opts[k], want_opts[k], rel_tol=1e-12) for k in got_opts)
