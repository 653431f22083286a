"""The builtin ``divmod`` of numbers (issue 27): ``q, r = divmod(a, b)`` is the pair of
the records of ``a // b`` and ``a % b`` (Python computes the three alike), so the quotient
has derivative 0 and the remainder 1 in ``a`` and ``-(a // b)`` in ``b``.  Checked in
reverse and forward mode, second order and ``check`` against the tape, sympy and central
finite differences at points away from the jumps; a ``divmod`` bound whole to one name is
refused, located, and the way out its hint gives differentiates."""

import math
import random

import pytest

import symdiff
import symdiff.tape
from symdiff.witnesses.symbolic import evaluate_grad


def unpacked(a, b):
    q, r = divmod(a, b)
    return r * r + q * a


def read_by_index(a, b):
    return divmod(a, b)[1] * math.sin(a) + divmod(a, b)[0]


def in_a_loop(x, period):
    total = 0.0
    for k in range(3):
        turns, phase = divmod(x * (k + 1.0), period)
        total = total + math.cos(phase) * turns + phase * phase
    return total


def of_a_constant(x):
    whole, rest = divmod(x, 0.75)
    return rest ** 3 + whole


FUNCTIONS = [unpacked, read_by_index, in_a_loop, of_a_constant]


def _points(fn, seed):
    """Points away from the jumps of ``//`` (a quotient within 0.05 of a whole number is
    drawn again), with a positive or negative divisor."""
    rng = random.Random(f"{seed}:{fn.__name__}")
    arity = fn.__code__.co_argcount
    found = []
    while len(found) < 8:
        point = tuple(rng.uniform(-4.0, 4.0) for _ in range(arity))
        divisors = [point[1] * k for k in (1.0, 2.0, 3.0)] if arity == 2 else [0.75]
        numerators = [point[0] * k for k in (1.0, 2.0, 3.0)]
        if arity == 2 and abs(point[1]) < 0.3:
            continue
        if all(abs(n / d - round(n / d)) > 0.05 for n in numerators for d in divisors):
            found.append(point)
    return found


def _central(fn, point, i, h=1e-6):
    up, down = list(point), list(point)
    up[i] += h
    down[i] -= h
    return (fn(*up) - fn(*down)) / (2 * h)


def _tuple(value):
    return value if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_the_gradient_agrees_with_the_tape_sympy_and_finite_differences(fn):
    for point in _points(fn, "grad"):
        got = _tuple(symdiff.grad(fn)(*point))
        assert got == pytest.approx(_tuple(symdiff.tape.grad(fn)(*point)), rel=1e-12, abs=1e-12)
        assert got == pytest.approx(_tuple(evaluate_grad(fn, point)), rel=1e-9, abs=1e-12)
        want = [_central(fn, point, i) for i in range(len(point))]
        assert got == pytest.approx(want, rel=1e-5, abs=1e-7)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_forward_mode_agrees_with_the_gradient(fn):
    rng = random.Random(f"jvp:{fn.__name__}")
    for point in _points(fn, "jvp"):
        direction = [rng.uniform(-1.0, 1.0) for _ in point]
        value, tangent = symdiff.jvp(fn)(*point, *direction)
        assert value == pytest.approx(fn(*point), rel=1e-14)
        gradient = _tuple(symdiff.grad(fn)(*point))
        assert tangent == pytest.approx(sum(g * d for g, d in zip(gradient, direction)),
                                        rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("fn", [unpacked, of_a_constant], ids=lambda fn: fn.__name__)
def test_the_hessian_agrees_with_finite_differences_of_the_gradient(fn):
    for point in _points(fn, "hessian"):
        got = symdiff.hessian(fn)(*point)
        rows = got if isinstance(got, tuple) else ((got,),)
        for i in range(len(point)):
            for j in range(len(point)):
                want = _central(lambda *p: _tuple(symdiff.grad(fn)(*p))[i], point, j)
                assert rows[i][j] == pytest.approx(want, rel=1e-5, abs=1e-7)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_check_agrees_four_ways(fn):
    report = symdiff.check(fn, *_points(fn, "check")[:3])
    assert report.ok, str(report)
    assert all(row.sympy is not None for row in report.rows)


def test_the_halves_are_the_operators_records():
    code = [line.strip() for line in symdiff.source(unpacked, 5.3, 1.7).splitlines()
            if not line.strip().startswith("#")]
    assert "q = a // b" in code and "r = a % b" in code
    assert not any("divmod" in line for line in code)


def bound_whole(a, b):
    pair = divmod(a, b)
    return pair[1] * a


def test_a_divmod_bound_to_one_name_is_located_and_its_way_out_works():
    with pytest.raises(symdiff.SymdiffError, match="returns 2 values") as refused:
        symdiff.grad(bound_whole)
    error = refused.value
    assert error.filename == __file__
    assert error.lineno == bound_whole.__code__.co_firstlineno + 1
    assert "unpack it" in error.hint

    def unpacked_as_told(a, b):
        first, second = divmod(a, b)
        return second * a
    for point in _points(unpacked, "way out"):
        assert symdiff.grad(unpacked_as_told)(*point) == pytest.approx(
            [_central(unpacked_as_told, point, i) for i in range(2)], rel=1e-5, abs=1e-7)
