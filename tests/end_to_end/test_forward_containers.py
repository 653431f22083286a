"""Forward mode of every function of the container corpora, at every point: its
tangent along random directions (of each parameter's structure) against the gradient's
inner product with them (``grad``, reverse mode) and against central finite differences
of the function (away from a branch's kink).  The functions forward mode still refuses
are listed with the construct they stop at; the list only shrinks.
"""

import inspect
import math
import random

import pytest

import symdiff
from symdiff import structures
from symdiff.errors import SymdiffError
from symdiff.frontend.parse import parse_function
from symdiff.frontend.wrt import choose

try:
    from corpus import arguments, branch_local, containers, control_lists, joins, tangent_lists
except ImportError:
    from tests.corpus import (arguments, branch_local, containers, control_lists, joins,
                              tangent_lists)

CASES = [c for corpus in (containers, tangent_lists, joins, control_lists, branch_local,
                          arguments) for c in corpus.CASES]

REFUSED = {}  # label -> the construct forward mode stops at (filled in below)


def _direction(value, rng):
    return structures.like(value, lambda path: rng.uniform(-1.0, 1.0))


def _inner(a, b):
    return math.fsum(structures.at(a, p) * structures.at(b, p) for p in structures.paths(a))


def _moved(point, positions, directions, h):
    moved = list(point)
    for p, d in zip(positions, directions):
        moved[p] = structures.like(point[p], lambda path, p=p, d=d: structures.at(
            point[p], path) + h * structures.at(d, path))
    return moved


def call(case, function, point, *extra):
    """``function`` at ``point`` (``case.fn``'s arguments in order), ``extra`` after its
    positional arguments, the keyword-only ones passed by name."""
    count = case.fn.__code__.co_argcount
    return function(*point[:count], *extra, **dict(zip(case.params[count:], point[count:])))


def _close(a, b, tol):
    return abs(a - b) <= tol * (1.0 + abs(a) + abs(b))


@pytest.mark.parametrize("case", CASES, ids=[c.label for c in CASES])
def test_forward_mode_agrees_with_reverse_and_finite_differences(case):
    choice = choose(case.wrt, parse_function(case.fn))
    positions = [case.params.index(n) for n in choice.names]
    rng = random.Random(case.label)
    try:
        forward = symdiff.jvp(case.fn, wrt=case.wrt)
        for point in case.points:
            point = tuple(point)
            directions = [_direction(point[p], rng) for p in positions]
            value, along = call(case, forward, point, *directions)
            gradient = call(case, symdiff.grad(case.fn, wrt=case.wrt), point)
            gradient = (gradient,) if choice.single else gradient
            assert _close(value, call(case, case.fn, point), 1e-12)
            expected = math.fsum(_inner(g, d) for g, d in zip(gradient, directions))
            assert _close(along, expected, 1e-9), (point, along, expected)
            if case.kinky:
                continue
            h = 1e-6
            up = call(case, case.fn, _moved(point, positions, directions, h))
            down = call(case, case.fn, _moved(point, positions, directions, -h))
            assert _close(along, (up - down) / (2 * h), 1e-5), (point, along)
    except SymdiffError as error:
        assert case.label in REFUSED, f"{case.label}: {error}"
        assert REFUSED[case.label] in str(error)
        return
    assert case.label not in REFUSED, f"{case.label} now differentiates: take it off"


def inserted_at(xs, a, k):
    """``xs.insert(k, v)``: Python's insert, before position ``k`` (from the end when
    negative; at an end when past it)."""
    ys = [x * a for x in xs]
    ys.insert(k, a * a)
    ys.insert(0, math.sin(ys[-1]))
    return ys[0] * ys[1] + ys[-1] * ys[len(ys) // 2]


@pytest.mark.parametrize("k", [0, 1, 2, 3, 7, -1, -2, -3, -9])
def test_forward_mode_reads_an_insert_as_python_runs_it(k):
    rng = random.Random(f"insert {k}")
    xs, a = [rng.uniform(-1.0, 1.0) for _ in range(3)], rng.uniform(0.5, 1.5)
    dxs, da = [rng.uniform(-1.0, 1.0) for _ in range(3)], rng.uniform(-1.0, 1.0)
    value, tangent = symdiff.jvp(inserted_at, wrt=("xs", "a"))(xs, a, k, dxs, da)
    assert value == inserted_at(xs, a, k)
    h = 1e-5
    up = inserted_at([x + h * d for x, d in zip(xs, dxs)], a + h * da, k)
    down = inserted_at([x - h * d for x, d in zip(xs, dxs)], a - h * da, k)
    assert _close(tangent, (up - down) / (2 * h), 1e-6)


def test_reverse_mode_still_refuses_an_insert_at_the_call():
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(inserted_at, wrt="xs")([0.1, 0.2, 0.3], 1.0, 1)
    assert caught.value.lineno == inserted_at.__code__.co_firstlineno + 4


def inserted_into_a_shared_list(xs, a):
    h = [a, a * a]
    x = [0.0, 0.0]
    for k in range(2):
        x = h
        h.insert(1, a * xs[k])
    return sum(x) * x[1]


def shared_after_an_insert(xs, a):
    h = [a, a * a]
    x = [0.0, 0.0]
    for k in range(2):
        h.insert(1, a * xs[k])
        x = h
    return sum(x) * x[1]


def inserted_into_a_parameter(xs, a):
    xs.insert(0, a * a)
    return sum(xs)


def inserted_into_an_alias(xs, a):
    h = [a, a * a]
    x = h
    h.insert(1, a * xs[0])
    return sum(x) * x[1]


@pytest.mark.parametrize("fn", [inserted_into_a_shared_list, shared_after_an_insert,
                                inserted_into_a_parameter, inserted_into_an_alias])
def test_an_insert_into_a_list_another_name_holds_is_refused(fn):
    """An insert makes its list anew: where another name (an alias, a loop's shared
    name, the caller's, for a parameter) holds the list, Python changes that one too,
    so it is refused, located, rather than read wrong."""
    with pytest.raises(SymdiffError) as caught:
        symdiff.jvp(fn, wrt="a")([0.3, 0.7], 1.3, 1.0)
    lines, first = inspect.getsourcelines(fn)
    assert "insert" in lines[caught.value.lineno - first] or (
        "x = h" in lines[caught.value.lineno - first])


def popped_row_changed(xs, a):
    r1 = [a, a * a]
    r2 = [xs[0], xs[1]]
    rows = [r1, r2]
    last = rows.pop()
    last[0] = a * 3.0
    return r2[0] * a


def test_a_row_popped_off_a_list_holding_names_is_not_changed_through_it():
    """``rows = [r1, r2]`` holds the lists by name: the row popped off is ``r2`` itself,
    so a change through it is refused, located, as one through ``r2`` would be."""
    with pytest.raises(SymdiffError) as caught:
        symdiff.jvp(popped_row_changed, wrt="a")([0.3, 0.7], 1.3, 1.0)
    assert caught.value.lineno == popped_row_changed.__code__.co_firstlineno + 5


def rebuilt_in_a_branch(xs, a):
    ys = [a, a * xs[1]]
    if a > 0:
        ys = [a * a, xs[0]]
    ys.append(a * 3.0)
    return ys[0] * ys[1] + sum(ys)


def built_in_a_loops_branch(xs, a):
    total = 0.0
    parts = [a, a]
    for x in xs:
        if x > 0.5:
            parts = [x * a, a * a]
        total += parts[0] * parts[1]
    return total


@pytest.mark.parametrize("fn", [rebuilt_in_a_branch, built_in_a_loops_branch])
@pytest.mark.parametrize("a", [1.3, -0.7])
def test_forward_mode_reads_a_list_built_in_a_branch_after_it(fn, a):
    """Forward mode builds a list's tangent beside it, in the branch that builds it, and
    reads both after the ``if`` (reverse mode starts no adjoint there: it refuses)."""
    xs = [0.3, 0.7, 0.9]
    value, tangent = symdiff.jvp(fn, wrt="a")(xs, a, 1.0)
    assert value == fn(xs, a)
    h = 1e-5
    assert _close(tangent, (fn(xs, a + h) - fn(xs, a - h)) / (2 * h), 1e-6)
    with pytest.raises(SymdiffError):
        symdiff.grad(fn, wrt="a")(xs, a)
