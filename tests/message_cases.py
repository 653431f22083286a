"""Functions symdiff refuses, for the messages that must speak of the user's code.

A marker comment on each offending line names the case and where the error must point
(``# AT <case> at <text>``: the column of that text on the line; without it, the first
non-blank column).  ``test_messages.py`` reads the locations from this file.
"""

import functools
import math
import operator
import statistics

GRID = ((1.0, 2.0), (3.0, 4.0))
COEFFS = (1.0, -2.0, 3.0, 0.5)
range_limit = 3


def keeps_a_tuple(x, y):
    pair = (x, y)
    return pair  # AT local_tuple at pair


def returns_a_pair(x, y):
    return x, y  # AT returned_tuple at x, y


def pair_helper(t):
    return t, t  # AT helper_tuple at t, t


def uses_the_pair_as_one_number(x):
    return pair_helper(x) * 2.0


def passes_a_tuple_to_abs(x):
    return abs((x, x))  # AT tuple_argument at (x, x)


def row_sum(inputs, x):
    return x


def passes_a_table_of_tables(x):
    return row_sum(GRID, x)  # AT table_of_tables at GRID


def hides_range(x):
    range = 3
    s = 0.0
    for i in range(3):  # AT hidden_range at range(3)
        s = s + x * i
    return s + range


def hides_reversed(x):
    reversed = 2.0
    s = 0.0
    for i in reversed(range(3)):  # AT hidden_reversed at reversed(range
        s = s + x * i
    return s * reversed


def yields(x):
    yield x * x  # AT yield at yield
    return x


def loops_over_reversed_list(x):
    s = 0.0
    for c in reversed(list(COEFFS)):  # AT reversed_list at reversed(
        s = s * x + c
    return s


def enumerates_reversed(x):
    s = 0.0
    for i, c in enumerate(reversed(COEFFS)):  # AT enumerate_reversed at enumerate(
        s = s * x + c * i
    return s


def zips_reversed(x):
    s = 0.0
    for a, b in zip(reversed(COEFFS), COEFFS):  # AT zip_reversed at zip(
        s = s * x + a * b
    return s


def loops_over_reversed_call(x):
    s = 0.0
    for c in reversed(math.sin(x)):  # AT reversed_call at reversed(
        s = s + c
    return s


def total_of(inputs, x):
    s = 0.0
    for v in inputs:
        s = s + v * x
    return s


def loops_over_a_table_of_tables_in_a_helper(x):
    return total_of(GRID, x)  # AT helper_loops_over_grid at GRID


def indexes_a_table_of_tables(x):
    return GRID[0] * x  # AT indexes_grid at GRID


class Plant:
    """An object defined at module level, read as data: its fields and its methods."""

    def __init__(self):
        self.gain = 2.0
        self.lookup = {"a": 1.0}

    @property
    def doubled(self):
        return 2.0 * self.gain

    def retune(self, x):
        self.gain = x  # AT object_field_assigned at self.gain
        return x


PLANT = Plant()


def reads_a_dict_field(x):
    return PLANT.lookup * x  # AT object_dict_field at PLANT.lookup


def reads_a_property(x):
    return PLANT.doubled * x  # AT object_property at PLANT.doubled


def calls_a_method_assigning_a_field(x):
    return PLANT.retune(x)


def folds_where_it_might_not_run(x, y):
    folded = functools.reduce(operator.mul, [x, y]) if x > 0.0 else y  # AT reduce_in_a_branch at functools.reduce
    return folded


def variance_given_its_mean(x, y):
    return statistics.variance([x, y, 1.0], x)  # AT variance_given_xbar at statistics.variance
