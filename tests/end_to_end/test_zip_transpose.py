"""``zip(*pairs)`` (issue 27): the transpose of a tuple of sequences, unpacked (``xs, ys
= zip(*pairs)``) where the kinds know every length, or looped over (``for x, y in
zip(*pairs)``, a comprehension too) where they know how many sequences a parameter
holds.  Gradients against the tape, sympy and central finite differences at many
points; forward mode against the gradient; ``check`` agreeing four ways."""

import math
import random

import pytest

import symdiff
import symdiff.tape
from symdiff.witnesses.symbolic import evaluate_grad


def columns_of_pairs(pairs):
    xs, ys = zip(*pairs)
    return sum(x * y for x, y in zip(xs, ys)) + xs[0] * math.sin(ys[-1])


def pairs_built_here(a, b):
    pairs = ((a, b), (b, a * a), (1.0, a))
    xs, ys = zip(*pairs)
    return xs[2] * ys[0] + math.fsum(ys) * xs[1]


def three_columns(rows):
    xs, ys, zs = zip(*rows)
    return xs[0] * ys[1] + math.exp(zs[0]) * xs[1]


def looped_over(pairs):
    total = 0.0
    for x, y in zip(*pairs):
        total = total + x * math.sin(y)
    return total


def in_a_generator(pairs, w):
    return sum(w * x * math.cos(y) for x, y in zip(*pairs))


def counted(pairs):
    total = 0.0
    for i, (x, y) in enumerate(zip(*pairs), start=1):
        total = total + i * x * y
    return total


def _tuples(rng, rows, columns):
    return tuple(tuple(rng.uniform(-1.5, 1.5) for _ in range(columns)) for _ in range(rows))


def _points(fn, rng):
    if fn is pairs_built_here:
        return [(rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)) for _ in range(6)]
    if fn is three_columns:
        return [(_tuples(rng, n, 3),) for n in (2, 4, 5)]
    if fn is in_a_generator:
        return [(_tuples(rng, 2, n), rng.uniform(-1.5, 1.5)) for n in (1, 3, 4)]
    if fn is columns_of_pairs:
        return [(_tuples(rng, n, 2),) for n in (1, 3, 4)]
    return [(_tuples(rng, 2, n),) for n in (0, 1, 3, 4)]


FUNCTIONS = [columns_of_pairs, pairs_built_here, three_columns, looped_over, in_a_generator,
             counted]


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [n for v in value for n in _flat(v)]
    return [value]


def _shape(value):
    return tuple(map(_shape, value)) if isinstance(value, (tuple, list)) else None


def _moved(point, k, h):
    """``point`` with its ``k``-th number (in the order ``_flat`` reads them) moved by h."""
    count = [0]

    def move(value):
        if isinstance(value, tuple):
            return tuple(move(v) for v in value)
        count[0] += 1
        return value + h if count[0] - 1 == k else value
    return move(point)


def close_to_the_tape(fn, point):
    """Whether ``grad(fn)`` at ``point`` has the tape's structure and numbers."""
    got, want = symdiff.grad(fn)(*point), symdiff.tape.grad(fn)(*point)
    return _shape(got) == _shape(want) and _flat(got) == pytest.approx(_flat(want),
                                                                       rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_the_gradient_agrees_with_the_tape_and_finite_differences(fn):
    rng = random.Random(f"zip:{fn.__name__}")
    for point in _points(fn, rng):
        assert close_to_the_tape(fn, point)
        got = _flat(symdiff.grad(fn)(*point))
        h = 1e-6
        want = [(fn(*_moved(point, k, h)) - fn(*_moved(point, k, -h))) / (2 * h)
                for k in range(len(_flat(point)))]
        assert got == pytest.approx(want, rel=1e-5, abs=1e-7)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_the_gradient_agrees_with_sympy(fn):
    rng = random.Random(f"zip-sympy:{fn.__name__}")
    for point in _points(fn, rng):
        got = symdiff.grad(fn)(*point)
        want = evaluate_grad(fn, point)
        assert _flat(got) == pytest.approx(_flat(want), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_forward_mode_agrees_with_the_gradient(fn):
    rng = random.Random(f"zip-jvp:{fn.__name__}")
    for point in _points(fn, rng):
        direction = tuple(_with_numbers(p, rng) for p in point)
        value, tangent = symdiff.jvp(fn)(*point, *direction)
        assert value == pytest.approx(fn(*point), rel=1e-13, abs=1e-13)
        inner = sum(g * d for g, d in zip(_flat(symdiff.grad(fn)(*point)), _flat(direction)))
        assert tangent == pytest.approx(inner, rel=1e-10, abs=1e-12)


def _with_numbers(value, rng):
    if isinstance(value, tuple):
        return tuple(_with_numbers(v, rng) for v in value)
    return rng.uniform(-1.0, 1.0)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_check_agrees_four_ways(fn):
    points = [p for p in _points(fn, random.Random(f"zip-check:{fn.__name__}"))
              if _flat(p)][:2]
    report = symdiff.check(fn, *points)
    assert report.ok, str(report)
    assert all(row.sympy is not None for row in report.rows)


def test_the_columns_are_the_tuples_written_out():
    source = symdiff.source(columns_of_pairs, ((1.0, 2.0), (3.0, 4.0)))
    assert "xs = pairs_0_0, pairs_1_0" in source and "ys = pairs_0_1, pairs_1_1" in source
