"""``map(f, xs, ...)``, the functions of ``operator`` and the ``statistics`` functions
read through their source (``fmean`` with and without weights, the medians): the
gradient matches the tape engine, which runs the function as written, where it can
(the tape cannot follow ``statistics``' own ``fsum``, so those are checked against the
same mean written out), and central finite differences of every element, at many
points."""
import math
import operator
import random
import statistics
from operator import mul

import pytest

import symdiff
from symdiff.witnesses.finite import central_difference


def squares_by_lambda(xs):
    return sum(map(lambda v: v * v, xs))


def sines_by_function(xs):
    return math.fsum(map(math.sin, xs)) * xs[0]


def products_by_operator(xs, ws):
    return math.fsum(map(operator.mul, xs, ws))


def products_by_imported_operator(xs, ws):
    return sum(map(mul, xs, ws)) / len(xs)


def _scaled(x, w):
    return math.tanh(x * w) + w


def pairs_by_helper(xs, ws):
    return sum(map(_scaled, xs, ws))


def listed_then_indexed(xs):
    ys = list(map(math.exp, xs))
    return ys[0] * ys[-1] + sum(ys)


def looped_over(xs, ws):
    total = 0.0
    for p in map(lambda x, w: x * w - 1.0, xs, ws):
        total += p * p
    return total


def comprehension_over_a_map(xs, ws):
    return sum([p * p for p in map(lambda x, w: x * w, xs, ws) if p > -1.0])


def operators_called(x, y):
    return operator.truediv(operator.mul(x, y), operator.add(x, 3.0)) + operator.neg(
        operator.pow(y, 2.0))


def mean_of_a_list(xs):
    return statistics.fmean(xs) ** 2


def mean_of_a_list_written_out(xs):
    return (math.fsum(xs) / len(xs)) ** 2


def weighted_mean(xs, ws):
    return statistics.fmean(xs, ws) * xs[0]


def weighted_mean_written_out(xs, ws):
    return math.fsum(x * w for x, w in zip(xs, ws)) / math.fsum(ws) * xs[0]


def mean_of_numbers(x, y):
    return statistics.fmean([x, y, x * y])


def mean_of_numbers_written_out(x, y):
    return math.fsum([x, y, x * y]) / 3


def centred(xs):
    m = statistics.median(xs)
    return sum((v - m) ** 2 for v in xs) + statistics.median_low(xs) * statistics.median_high(xs)


def _draws(count, low=-2.0, high=2.0):
    return lambda r: [r.uniform(low, high) for _ in range(count)]


def _positive(count):
    return lambda r: [r.uniform(0.5, 2.0) for _ in range(count)]


# function, its twin the tape runs (itself, or the same written out), arguments drawn
CASES = [
    (squares_by_lambda, squares_by_lambda, lambda r: (_draws(5)(r),)),
    (sines_by_function, sines_by_function, lambda r: (_draws(4)(r),)),
    (products_by_operator, products_by_operator, lambda r: (_draws(4)(r), _draws(4)(r))),
    (products_by_imported_operator, products_by_imported_operator,
     lambda r: (_draws(3)(r), _draws(3)(r))),
    (pairs_by_helper, pairs_by_helper, lambda r: (_draws(4)(r), _draws(4)(r))),
    (listed_then_indexed, listed_then_indexed, lambda r: (_draws(4)(r),)),
    (looped_over, looped_over, lambda r: (_draws(5)(r), _draws(5)(r))),
    (comprehension_over_a_map, comprehension_over_a_map,
     lambda r: (_draws(5)(r), _draws(5)(r))),
    (operators_called, operators_called, lambda r: (r.uniform(0.5, 2.0), r.uniform(-2.0, 2.0))),
    (mean_of_a_list, mean_of_a_list_written_out, lambda r: (_draws(5)(r),)),
    *[(weighted_mean, weighted_mean_written_out, lambda r: (_draws(4)(r), _positive(4)(r)))
      ] * (not hasattr(math, "sumprod")),  # (3.12's fmean calls sumprod: refused, located,
    # in test_library.py)
    (mean_of_numbers, mean_of_numbers_written_out,
     lambda r: (r.uniform(-2.0, 2.0), r.uniform(-2.0, 2.0))),
    (centred, centred, lambda r: (_draws(5)(r),)),
]


def _leaves(gradient):
    """The numbers of a gradient of several parameters, or of one, in order."""
    parts = gradient if isinstance(gradient, tuple) else (gradient,)
    return [v for part in parts for v in (part if isinstance(part, list) else [part])]


def _paths(point):
    """Where each number of ``point`` is, in the order ``_leaves`` gives them."""
    return [i if j is None else (i, j) for i, value in enumerate(point)
            for j in (range(len(value)) if isinstance(value, list) else [None])]


@pytest.mark.parametrize("fn, twin, draw", CASES, ids=[c[0].__name__ for c in CASES])
def test_matches_the_tape_and_finite_differences(fn, twin, draw):
    rng = random.Random(fn.__name__)
    gradient, tape = symdiff.grad(fn), symdiff.tape.grad(twin)
    for _ in range(10):
        point = draw(rng)
        assert fn(*point) == pytest.approx(twin(*point), rel=1e-12, abs=1e-12)
        got = _leaves(gradient(*point))
        assert got == pytest.approx(_leaves(tape(*point)), rel=1e-10, abs=1e-12)
        for value, where in zip(got, _paths(point)):
            estimate, steadiness = central_difference(fn, point, where)
            if steadiness == "steady":  # (not across a median's switch of element)
                assert value == pytest.approx(estimate, rel=1e-5, abs=1e-6), where


def test_the_generated_code_reads_as_the_operations_written():
    source = symdiff.source(products_by_operator, [1.0, 2.0], [0.5, 0.25])
    code = "\n".join(line for line in source.splitlines() if not line.strip().startswith("#"))
    assert "operator." not in code and "map(" not in code


def test_the_value_is_the_library_function_s_to_the_last_bit():
    rng = random.Random(7)
    for _ in range(20):
        xs, ws = _draws(6)(rng), _positive(6)(rng)
        if not hasattr(math, "sumprod"):  # (weights: sumprod from 3.12, not read yet)
            value, _ = symdiff.value_and_grad(weighted_mean)(xs, ws)
            assert value == weighted_mean(xs, ws)
        value, _ = symdiff.value_and_grad(mean_of_a_list)(xs)
        assert value == mean_of_a_list(xs)


@pytest.mark.skipif(hasattr(math, "sumprod"), reason="fmean calls sumprod from 3.12")
def test_unequal_lengths_raise_the_library_s_error():
    with pytest.raises(statistics.StatisticsError, match="same length"):
        symdiff.grad(weighted_mean)([1.0, 2.0], [1.0])


def mapped_with_a_default(xs):
    return sum(map(lambda v, k=2.0: v * k, xs))


def test_a_map_left_as_written_is_refused_where_it_stands():
    with pytest.raises(symdiff.SymdiffError) as error:
        symdiff.grad(mapped_with_a_default)([1.0, 2.0])
    assert error.value.lineno is not None and error.value.filename.endswith("test_maps.py")


def map_held_in_a_name(xs):
    mapped = map(math.sin, xs)
    return sum(mapped)


def test_a_map_held_in_a_name_is_refused_by_what_was_written():
    with pytest.raises(symdiff.SymdiffError, match=r"map\(\.\.\.\) is only read inside") as error:
        symdiff.grad(map_held_in_a_name)([1.0, 2.0])
    assert error.value.lineno is not None and error.value.hint
