"""Ranges read as values (``lower.ranges``): a range kept in a name, written where a
table is read, sliced or copied, is a read-only table of ints computed as Python
computes it.  Shape is checked on the IR (a ``Compute`` of type ``table[int]``);
meaning by ``symdiff.check`` (the tape, sympy and finite differences) and by second
derivatives against central differences of the gradient.
"""

import math

import pytest

import symdiff
from symdiff.core import types as t
from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.pipeline import lower


def power_by_range(x, n):
    steps = range(n)  # empty for n <= 0
    p = x
    for _ in steps:
        p = p * x
    return p + len(steps)


def written_in_len(x, n):
    total = x
    for i in range(len(range(1, n, 2))):
        total = total * x + i
    return total


def odd_positions(x, n):
    odd = list(range(n))[1::2]
    return sum(x * i for i in odd) + math.sin(x) * len(odd)


def over_a_copy_of_a_range(x):  # (refused by the fence once)
    y = x
    for k in list(range(1, 4)):
        y = y * k + math.cos(x)
    return y


def changes_a_range(xs):
    idx = range(len(xs))
    idx.append(0)
    return sum(xs[i] for i in idx)


def the_way_out(xs):
    idx = range(len(xs))
    total = sum(xs[i] for i in idx)
    for i in (0,):
        total = total + xs[i]
    return total


def test_a_range_kept_in_a_name_is_a_table_of_ints():
    program = lower(parse_function(power_by_range))
    computed = [s for s in ir.walk(program.body) if isinstance(s, ir.Compute)
                and s.target == "steps"]
    assert len(computed) == 1 and computed[0].reads == ("n",)
    assert program.types["steps"] == t.Table(t.INT)


def test_a_loop_over_a_copy_of_a_range_agrees_with_the_witnesses():
    assert symdiff.check(over_a_copy_of_a_range, (0.7,), (-1.3,)).ok


@pytest.mark.parametrize("fn", [power_by_range, written_in_len, odd_positions])
@pytest.mark.parametrize("n", [-2, 0, 1, 4])
def test_gradients_of_ranges_agree_with_the_witnesses(fn, n):
    report = symdiff.check(fn, (0.7, n), (-1.3, n), wrt="x")
    assert report.ok, report


@pytest.mark.parametrize("fn", [power_by_range, written_in_len, odd_positions])
@pytest.mark.parametrize("n", [-1, 3])
def test_second_derivatives_of_ranges_against_differences_of_the_gradient(fn, n):
    gradient, second = symdiff.grad(fn, wrt="x"), symdiff.hessian(fn, wrt="x")
    h = 1e-5
    for x in (0.7, -1.3):
        estimate = (gradient(x + h, n) - gradient(x - h, n)) / (2 * h)
        assert abs(second(x, n) - estimate) <= 1e-6 * (1.0 + abs(estimate))


def test_a_range_changed_in_place_is_refused_where_it_is_changed_with_a_way_out():
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(changes_a_range, wrt="xs")([0.3, 1.2, -0.4])
    code = changes_a_range.__code__
    assert caught.value.lineno == code.co_firstlineno + 2
    assert symdiff.check(the_way_out, ([0.3, 1.2, -0.4],), wrt="xs").ok
