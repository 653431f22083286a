"""Functions of the standard library as scientists call them: ``statistics`` means of
rows inside a loop, its exact means and spreads (``mean``, ``variance``, ``stdev``...), ``functools.reduce`` with a lambda, a function or ``operator``, and
functions of ``operator`` held in names and passed to helpers.

Each ``Case`` is a function, its twin (the same computation written out, which the tape
runs where it cannot follow the library's own code: the tape's numbers do not pass
through ``statistics``' own ``fsum`` in ``median``'s and ``fmean``'s source), how to
draw its arguments, whether the tape runs the function itself (``reduce``,
``operator`` and the tape's own ``statistics`` functions take its numbers as any) and
whether the sympy witness reads it.
``tests/end_to_end/test_library.py`` checks every one against the tape, sympy and
central finite differences of every number, at many points.
"""

import functools
import math
import operator
import random
import statistics
from functools import reduce
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    fn: object
    twin: object
    draw: object
    taped: bool = False  # whether the tape runs ``fn`` itself, not the twin
    symbolic: bool = True

    @property
    def label(self):
        return self.fn.__name__

    @property
    def params(self):
        code = self.fn.__code__
        return code.co_varnames[:code.co_argcount]

    @property
    def points(self):
        """Three points drawn for the case (the corpus collectors of ``tests/ir`` call
        each case's function at its ``points``)."""
        rng = random.Random(self.label)
        return [self.draw(rng) for _ in range(3)]


def numbers(count, low=-2.0, high=2.0):
    return lambda r: [r.uniform(low, high) for _ in range(count)]


def rows(count, width, low=-2.0, high=2.0):
    return lambda r: [numbers(width, low, high)(r) for _ in range(count)]


# --- ``statistics.fmean`` of each row, in a loop or a comprehension -------------------------

def row_means(table):
    return sum([statistics.fmean(r) for r in table])


def row_means_written_out(table):
    return sum([math.fsum(r) / len(r) for r in table])


def squared_row_means(table):
    total = 0.0
    for r in table:
        total += statistics.fmean(r) ** 2
    return total


def squared_row_means_written_out(table):
    total = 0.0
    for r in table:
        total += (math.fsum(r) / len(r)) ** 2
    return total


def weighted_row_means(table, weights):
    total = 0.0
    for r in table:
        total += statistics.fmean(r, weights) * r[0]
    return total


def weighted_row_means_written_out(table, weights):
    total = 0.0
    for r in table:
        total += math.fsum(x * w for x, w in zip(r, weights)) / math.fsum(weights) * r[0]
    return total


def centred_rows(table):
    out = 0.0
    for i, r in enumerate(table):
        m = statistics.fmean(r)
        out += sum((v - m) ** 2 for v in r) * (i + 1)
    return out


def centred_rows_written_out(table):
    out = 0.0
    for i, r in enumerate(table):
        m = math.fsum(r) / len(r)
        out += sum((v - m) ** 2 for v in r) * (i + 1)
    return out


# --- ``statistics``' exact means and spreads (records the tape and sympy know too) ----------

def spread_and_mean(xs):
    return statistics.variance(xs) + statistics.mean(xs) ** 2


def standard_scores(xs):
    m, s = statistics.mean(xs), statistics.stdev(xs)
    return sum(((x - m) / s) ** 3 for x in xs)


def population_spreads(xs, ys):
    return statistics.pstdev(xs) * statistics.pvariance(ys) + statistics.mean([xs[0], ys[1]])


def positive_means(xs):
    return statistics.geometric_mean(xs) * statistics.harmonic_mean(xs) - math.log(
        statistics.geometric_mean([xs[0], xs[1] * 2.0]))


def spreads_of_rows(table):
    total = 0.0
    for r in table:
        total += statistics.stdev(r) + statistics.fmean(r)
    return total


def mean_of_numbers(x, y):
    return statistics.mean([x, y, x * y]) * statistics.variance((x, y, 1.0))


# --- ``functools.reduce`` with a lambda, a function, ``operator`` --------------------------

def horner(coeffs, x):
    return functools.reduce(lambda acc, c: acc * x + c, coeffs, 0.0)


def horner_written_out(coeffs, x):
    acc = 0.0
    for c in coeffs:
        acc = acc * x + c
    return acc


def product_of(xs):
    return reduce(operator.mul, xs)


def product_of_written_out(xs):
    total = xs[0]
    for x in xs[1:]:
        total = total * x
    return total


def _soft_max(a, b):
    return math.log(math.exp(a) + math.exp(b))


def soft_maximum(xs, y):
    return reduce(_soft_max, xs) * y + reduce(operator.add, [y, y * y, 2.0 * y], 1.0)


def soft_maximum_written_out(xs, y):
    total = xs[0]
    for x in xs[1:]:
        total = math.log(math.exp(total) + math.exp(x))
    return total * y + (1.0 + y + y * y + 2.0 * y)


def folds_in_a_loop(table):
    out = 0.0
    for r in table:
        out += reduce(lambda a, b: a + b * b, r, 0.0) + reduce(max, r)
    return out


def folds_in_a_loop_written_out(table):
    out = 0.0
    for r in table:
        best = r[0]
        for v in r[1:]:
            best = max(best, v)
        out += sum(v * v for v in r) + best
    return out


def _folded_by(f, xs):
    return reduce(f, xs, 1.0)


def fold_given_its_function(xs, s):
    return _folded_by(lambda a, b: a * math.tanh(s * b), xs) + _folded_by(operator.add, xs)


def fold_given_its_function_written_out(xs, s):
    total = 1.0
    for x in xs:
        total = total * math.tanh(s * x)
    return total + 1.0 + sum(xs)


# --- functions of ``operator`` held in names and passed to helpers ---------------------------

def held_operator(a, b):
    op = operator.mul
    combine = operator.add
    return combine(op(a, b), op(b, b)) - operator.neg(a)


def held_operator_written_out(a, b):
    return a * b + b * b + a


def _apply(f, a, b):
    return f(a, b) * a


def operator_passed(a, b):
    return _apply(operator.add, a, b) + _apply(operator.mul, b, a) + _apply(
        operator.truediv, a, b)


def operator_passed_written_out(a, b):
    return (a + b) * a + b * a * b + a / b * a


# Python 3.12's fmean with weights calls math.sumprod on the lists, not read yet (refused,
# located: ``test_library.py``)
WEIGHTS_CALL_SUMPROD = hasattr(math, "sumprod")

CASES = [
    Case(row_means, row_means_written_out, lambda r: (rows(3, 4)(r),)),
    Case(squared_row_means, squared_row_means_written_out, lambda r: (rows(2, 3)(r),)),
    Case(centred_rows, centred_rows_written_out, lambda r: (rows(3, 3)(r),)),
    *[Case(weighted_row_means, weighted_row_means_written_out,
           lambda r: (rows(3, 3)(r), numbers(3, 0.5, 2.0)(r)))] * (not WEIGHTS_CALL_SUMPROD),
    Case(spread_and_mean, spread_and_mean, lambda r: (numbers(5)(r),), True),
    Case(standard_scores, standard_scores, lambda r: (numbers(4)(r),), True),
    Case(population_spreads, population_spreads,
         lambda r: (numbers(3)(r), numbers(4)(r)), True),
    Case(positive_means, positive_means, lambda r: (numbers(4, 0.5, 3.0)(r),), True),
    Case(spreads_of_rows, spreads_of_rows, lambda r: (rows(3, 4)(r),), True),
    Case(mean_of_numbers, mean_of_numbers,
         lambda r: (r.uniform(-2.0, 2.0), r.uniform(-2.0, 2.0)), True),
    Case(horner, horner_written_out, lambda r: (numbers(4)(r), r.uniform(-1.5, 1.5)), True),
    Case(product_of, product_of_written_out, lambda r: (numbers(4)(r),), True),
    Case(soft_maximum, soft_maximum_written_out,
         lambda r: (numbers(3)(r), r.uniform(-2.0, 2.0)), True),
    Case(folds_in_a_loop, folds_in_a_loop_written_out, lambda r: (rows(3, 3)(r),), True),
    Case(fold_given_its_function, fold_given_its_function_written_out,
         lambda r: (numbers(3)(r), r.uniform(-1.5, 1.5)), True),
    Case(held_operator, held_operator_written_out,
         lambda r: (r.uniform(-2.0, 2.0), r.uniform(-2.0, 2.0)), True),
    Case(operator_passed, operator_passed_written_out,
         lambda r: (r.uniform(-2.0, 2.0), r.uniform(0.5, 2.0)), True),
]
