"""Functions of the standard library (``corpus/library.py``): each gradient against the
tape (which runs the function itself where it can, else its twin written out), sympy
(which reads the function itself: ``statistics``' functions, ``reduce`` and the
functions of ``operator`` are its own) and central finite differences of every number
of the function itself, at ten random points each."""

import functools
import math
import operator
import random

import pytest

import symdiff
from symdiff.witnesses.finite import central_difference
from symdiff.witnesses.symbolic import evaluate_grad

try:
    from corpus import library as corpus
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import library as corpus

CASES = {c.label: c for c in corpus.CASES}
POINTS = 10


def leaves(value, path=()):
    """``(path, number)`` of each number in ``value`` (nested tuples and lists)."""
    if isinstance(value, (tuple, list)):
        return [leaf for i, item in enumerate(value) for leaf in leaves(item, path + (i,))]
    return [(path, value)]


def as_arguments(gradient, point):
    """A gradient as one entry per parameter (one parameter's comes bare)."""
    return gradient if len(point) > 1 else (gradient,)


def points(case):
    rng = random.Random(case.label)
    return [case.draw(rng) for _ in range(POINTS)]


def test_the_labels_are_distinct():
    assert len(CASES) == len(corpus.CASES)


@pytest.mark.parametrize("label", CASES)
def test_the_twin_computes_the_same_value(label):
    case = CASES[label]
    for point in points(case):
        assert case.fn(*point) == pytest.approx(case.twin(*point), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("label", CASES)
def test_gradient_agrees_with_the_tape(label):
    case = CASES[label]
    gradient = symdiff.grad(case.fn)
    tape = symdiff.tape.grad(case.fn if case.taped else case.twin)
    for point in points(case):
        got, want = leaves(gradient(*point)), leaves(tape(*point))
        assert [p for p, _ in got] == [p for p, _ in want]
        for (path, g), (_, w) in zip(got, want):
            assert type(g) is float and g == pytest.approx(w, rel=1e-10, abs=1e-12), path


@pytest.mark.parametrize("label", [c.label for c in corpus.CASES if c.symbolic])
def test_gradient_agrees_with_sympy(label):
    case = CASES[label]
    gradient = symdiff.grad(case.fn)
    for point in points(case)[:3]:
        got, want = leaves(gradient(*point)), leaves(evaluate_grad(case.fn, point))
        assert [p for p, _ in got] == [p for p, _ in want]
        for (path, g), (_, w) in zip(got, want):
            assert g == pytest.approx(w, rel=1e-9, abs=1e-12), path


@pytest.mark.parametrize("label", CASES)
def test_gradient_agrees_with_finite_differences(label):
    case = CASES[label]
    gradient = symdiff.grad(case.fn)
    for point in points(case):
        got = as_arguments(gradient(*point), point)
        for path, value in leaves(list(got)):
            estimate, steadiness = central_difference(case.fn, point, path)
            if steadiness == "steady":
                assert value == pytest.approx(estimate, rel=1e-5, abs=1e-6), path


SECOND = ["spread_and_mean", "standard_scores", "positive_means", "population_spreads"]


@pytest.mark.parametrize("label", SECOND)
def test_hessians_and_jvps_agree_with_differences_of_the_gradient(label):
    case = CASES[label]
    gradient, hessian = symdiff.grad(case.fn), symdiff.hessian(case.fn)
    jvp = symdiff.jvp(case.fn)
    rng = random.Random(f"second:{label}")
    for point in points(case)[:4]:
        direction = tuple([rng.uniform(-1.0, 1.0) for _ in p] for p in point)
        h = 1e-5

        def along(t):
            moved = tuple([v + t * d for v, d in zip(p, dp)] for p, dp in zip(point, direction))
            return [g for _, g in leaves(as_arguments(gradient(*moved), point))]
        ahead, behind = along(h), along(-h)
        want = [(a - b) / (2 * h) for a, b in zip(ahead, behind)]
        flat = [v for d in direction for v in d]
        rows = [[v for _, v in leaves(row)] for row in _hessian_rows(hessian(*point), point)]
        got = [sum(r * v for r, v in zip(row, flat)) for row in rows]
        assert got == pytest.approx(want, rel=1e-5, abs=1e-6)
        value, tangent = jvp(*point, *direction) if len(point) > 1 else jvp(point[0],
                                                                            direction[0])
        assert value == pytest.approx(case.fn(*point), rel=1e-12)
        inner = sum(g * v for (_, g), v in zip(leaves(as_arguments(gradient(*point), point)),
                                                 flat))
        assert tangent == pytest.approx(inner, rel=1e-9, abs=1e-12)


def _hessian_rows(hessian, point):
    """The rows of a Hessian, one per number of the point, in order: a list of rows
    for one list parameter, blocks ``H[i][j]`` for several."""
    if len(point) == 1:
        return hessian
    return [[hessian[i][j][a] for j in range(len(point))] for i in range(len(point))
            for a in range(len(point[i]))]


def operators_in_a_tuple(a, b):
    total = 0.0
    for op in (operator.add, operator.mul):
        total += op(a, b) ** 2
    return total


def test_operators_in_a_container_are_refused_where_they_stand():
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(operators_in_a_tuple)(1.0, 2.0)
    assert caught.value.lineno == operators_in_a_tuple.__code__.co_firstlineno + 2
    assert caught.value.filename.endswith("test_library.py") and caught.value.hint


def reduce_given_a_keyword(xs):
    return functools.reduce(lambda a, b: a * b, xs, initial=1.0)


def test_a_reduce_left_as_written_is_refused_where_it_stands():
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(reduce_given_a_keyword)([1.0, 2.0])
    assert caught.value.lineno == reduce_given_a_keyword.__code__.co_firstlineno + 1
    assert caught.value.hint


def test_reduce_of_an_empty_list_raises_python_s_error():
    with pytest.raises(TypeError, match="empty iterable with no initial value"):
        symdiff.grad(corpus.product_of)([])


def reduce_in_a_branch(xs, c):
    return functools.reduce(operator.mul, xs) if c > 0.0 else c


def test_the_way_out_of_a_reduce_refused_works():
    with pytest.raises(symdiff.SymdiffError, match="read as a fold") as caught:
        symdiff.grad(reduce_in_a_branch)([1.0, 2.0], 1.0)
    assert "surely runs it" in caught.value.hint

    def rewritten(xs, c):
        if c > 0.0:
            return functools.reduce(operator.mul, xs)
        return c
    assert symdiff.grad(rewritten, wrt="xs")([1.5, 2.0], 1.0) == [2.0, 1.5]


def sumprod_of_lists(xs, ws):
    return math.sumprod(xs, ws) * xs[0]


def sumprod_written_out(xs, ws):
    return math.fsum(x * w for x, w in zip(xs, ws)) * xs[0]


@pytest.mark.skipif(not hasattr(math, "sumprod"), reason="math.sumprod is Python 3.12's")
def test_sumprod_of_lists_is_refused_with_a_way_out_that_works():
    with pytest.raises(symdiff.SymdiffError, match="sumprod of two lists") as caught:
        symdiff.grad(sumprod_of_lists)([1.0, 2.0], [0.5, 1.5])
    assert caught.value.lineno == sumprod_of_lists.__code__.co_firstlineno + 1
    assert "math.fsum(x * w for x, w in zip(xs, ws))" in caught.value.hint
    got = symdiff.grad(sumprod_written_out)([1.0, 2.0], [0.5, 1.5])
    assert got == symdiff.tape.grad(sumprod_written_out)([1.0, 2.0], [0.5, 1.5])


@pytest.mark.skipif(not corpus.WEIGHTS_CALL_SUMPROD, reason="fmean calls sumprod from 3.12")
def test_fmean_with_weights_on_python_3_12_is_refused_with_a_way_out():
    point = corpus.rows(2, 3)(random.Random(3)), [1.0, 2.0, 0.5]
    with pytest.raises(symdiff.SymdiffError, match="sumprod of two lists") as caught:
        symdiff.grad(corpus.weighted_row_means)(*point)
    assert caught.value.filename.endswith("statistics.py") and "fmean" in caught.value.hint
    got = symdiff.grad(corpus.weighted_row_means_written_out)(*point)
    want = symdiff.tape.grad(corpus.weighted_row_means_written_out)(*point)
    assert [v for _, v in leaves(got)] == pytest.approx([v for _, v in leaves(want)])
