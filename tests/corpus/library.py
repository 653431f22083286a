"""Functions of the standard library as scientists call them: ``statistics`` means of
rows inside a loop, ``functools.reduce`` with a lambda, a function or ``operator``, and
functions of ``operator`` held in names and passed to helpers.

Each ``Case`` is a function, its twin (the same computation written out, which the tape
and sympy witnesses run where they cannot follow the library's own code: the tape's
numbers do not pass through ``statistics``' ``fsum``), how to draw its arguments, and
whether the sympy witness reads the twin.
``tests/end_to_end/test_library.py`` checks every one against the tape, sympy and
central finite differences of every number, at many points.
"""

import math
import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    fn: object
    twin: object
    draw: object
    symbolic: bool = True

    @property
    def label(self):
        return self.fn.__name__


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


CASES = [
    Case(row_means, row_means_written_out, lambda r: (rows(3, 4)(r),)),
    Case(squared_row_means, squared_row_means_written_out, lambda r: (rows(2, 3)(r),)),
    Case(weighted_row_means, weighted_row_means_written_out,
         lambda r: (rows(3, 3)(r), numbers(3, 0.5, 2.0)(r))),
    Case(centred_rows, centred_rows_written_out, lambda r: (rows(3, 3)(r),)),
]
