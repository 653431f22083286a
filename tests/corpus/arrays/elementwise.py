"""Array functions made of ufuncs and arithmetic, broadcast against every shape pattern.

Ufuncs as ``np.exp`` and as names imported ``from numpy import ...``; operators between
arrays of one shape and, broadcast, an ``(n, m)`` array against ``(m,)``, ``(n, 1)``,
``(1, m)``, a Python float, a NumPy scalar and a 0-d array, two arrays broadcast both
ways (``(n, 1)`` with ``(1, m)``), a 3-D one against a matrix and ``np.broadcast_to``
written out; ``np.where`` with a mask given as data and with a mask computed from the
values; in-place operators on a copy; code written for numbers given NumPy scalars, 0-d arrays and entries of an
array.  ``CASES`` at the end gives each function its points (``case.at``).
"""

import math

import numpy as np
from numpy import cos, exp, sin, tanh

from .case import F32, at, mask, normal, positive, uniform


# --- ufuncs --------------------------------------------------------------------------

def exp_times_tanh(x):
    return np.sum(np.exp(x) * np.tanh(x))


def softplus_sum(x):
    return np.sum(np.log1p(np.exp(x)))


def smooth_abs(x):
    return np.sum(np.sqrt(x ** 2 + 1.0))


def power_and_reciprocal(x):
    return np.sum(np.power(x, 3) - 1.0 / (1.0 + x * x))


def imported_ufuncs(x):
    return (sin(x) * cos(2.0 * x) + exp(-x * x)).sum()


def logs_of_positive(x):
    return np.sum(np.log(x) * x + np.log2(x) - np.log10(x))


def sigmoid_mean(x):
    return np.mean(1.0 / (1.0 + np.exp(-x)) + np.arctan(x))


def trig_mix(x):
    return np.sum(np.sinh(0.5 * x) * np.cosh(x) + np.tan(0.3 * x) + np.arcsin(0.5 * tanh(x)))


def absolute_deviation(x):
    return np.sum(np.abs(x - 0.1))


def clipped_square(x):
    return np.sum(np.clip(x, -0.5, 0.5) ** 2)


def sign_times_square(x):
    return np.sum(np.sign(x) * x ** 2)


def elementwise_maximum(x, y):
    return np.sum(np.maximum(x, y) * x + np.minimum(x, y))


def square_and_reciprocal(x):
    return np.sum(np.square(x) + np.reciprocal(1.5 + x) + np.expm1(0.5 * x))


def logaddexp_sum(x, y):
    return np.sum(np.logaddexp(x, y))


def float32_scaled(x):
    y = x * np.float32(2.0) + x * x
    return np.sum(y)


def negative_and_divide(x, y):
    return np.sum(-x / (y + 2.5) - np.negative(y) * x)


# --- broadcasting ----------------------------------------------------------------------

def against_a_row_vector(X, b):
    return np.sum((X + b) ** 2)


def against_a_column(X, c):
    return np.sum(np.sin(X * c))


def against_a_row(X, r):
    return np.sum(X * r - r ** 2)


def against_a_python_float(X, s):
    return np.sum((X - s) ** 2) * s


def against_a_numpy_scalar(X, s):
    return np.sum(np.exp(s * X))


def against_a_zero_d_array(X, s):
    return np.sum(X * s + s * s)


def column_against_row(u, v):
    return np.sum(np.tanh(u * v))


def vector_outer_by_none(u, v):
    return np.sum(np.cos(u[:, None] - v[None, :]))


def cube_against_matrix(A, B):
    return np.sum(A * B + B)


def divided_by_scales(X, d):
    return np.sum(X / d) + np.sum(d)


def broadcast_chain(X, b, c, s):
    return np.sum(np.tanh((X + b) * c) * s)


# --- where and masks -------------------------------------------------------------------

def where_given_mask(x, m):
    return np.sum(np.where(m, x ** 2, 0.0))


def leaky_relu(x):
    return np.sum(np.where(x > 0, x, 0.01 * x))


def where_picks_between(x, y, m):
    return np.sum(np.where(m, x, y) ** 2)


def multiplied_by_mask(x, m):
    return np.sum(x * m) + np.sum(np.sin(x) * (1.0 - m))


def where_with_a_scalar_side(X, t):
    return np.sum(np.where(X > t, X - t, 0.0) ** 2)


def combined_masks(x, y):
    both = (x > 0.0) & (y < 0.5)
    either = (x < -0.5) | (y > 1.0)
    return np.sum(np.where(both, x * y, x + y)) + np.sum(np.where(either, y ** 2, 0.0))


# --- in place, on a copy ---------------------------------------------------------------

def augmented_on_a_copy(x):
    y = x.copy()
    y *= 2.0
    y += x ** 2
    y -= np.sin(x)
    return np.sum(y)


def augmented_on_a_new_array(x, y):
    z = x * y
    z /= 1.0 + y ** 2
    z **= 2
    return np.sum(z)


# --- scalar code given NumPy scalars and arrays ------------------------------------------

def scalar_code_on_numpy_scalars(x, t):
    return np.tanh(x) * x + t ** 2


def scalar_code_on_a_zero_d_array(s, t):
    return np.exp(s) * t + s ** 2


def entries_through_math(x):
    return math.exp(x[0]) * x[1] + math.sin(x[-1])



def biases_broadcast_explicitly(b, X):
    B = np.broadcast_to(b, X.shape)  # one bias per column, as a matrix
    return np.sum(np.tanh(X + B) * B) + np.sum(np.broadcast_to(b[0], (3, X.shape[1])) ** 2)


CASES = [
    at(exp_times_tanh, (normal("ett", 3),), (normal("ett", 2, 4),), (normal("ett", 5, dtype=F32),)),
    at(softplus_sum, (normal("sps", 1),), (normal("sps", 7),), (normal("sps", 3, 2),)),
    at(smooth_abs, (normal("sa", 4),), (normal("sa", 2, 3, dtype=F32),)),
    at(power_and_reciprocal, (normal("par", 5),), (normal("par", 3, 1),)),
    at(imported_ufuncs, (normal("iu", 3),), (normal("iu", 2, 2, 2),)),
    at(logs_of_positive, (positive("lop", 4),), (positive("lop", 2, 3),)),
    at(sigmoid_mean, (normal("sm", 1),), (normal("sm", 6),), (normal("sm", 3, 2, dtype=F32),)),
    at(trig_mix, (uniform("tm", 4),), (uniform("tm", 2, 3),)),
    at(absolute_deviation, (normal("ad", 5),), (normal("ad", 2, 3),), kinky=True),
    at(clipped_square, (normal("cs", 6),), (normal("cs", 3, 3),), kinky=True),
    at(sign_times_square, (normal("sts", 5),), (normal("sts", 2, 2),), kinky=True),
    at(elementwise_maximum, (normal("emx", 4), normal("emy", 4)),
       (normal("emx", 2, 3), normal("emy", 2, 3)), kinky=True),
    at(square_and_reciprocal, (uniform("sar", 4),), (uniform("sar", 3, 2),)),
    at(logaddexp_sum, (normal("lax", 3), normal("lay", 3)), (normal("lax", 2, 2), normal("lay", 2))),
    at(float32_scaled, (normal("f32", 4, dtype=F32),), (normal("f32", 3, 2, dtype=F32),)),
    at(negative_and_divide, (normal("ndx", 4), positive("ndy", 4)),
       (normal("ndx", 2, 3), positive("ndy", 3))),
    at(against_a_row_vector, (normal("arv", 1, 3), normal("arvb", 3)),
       (normal("arv", 4, 3), normal("arvb", 3)), (normal("arv", 4, 1), normal("arvb", 1))),
    at(against_a_column, (normal("ac", 3, 4), normal("acc", 3, 1)),
       (normal("ac", 1, 4), normal("acc", 1, 1)), (normal("ac", 5, 2), normal("acc", 5, 1))),
    at(against_a_row, (normal("ar", 3, 4), normal("arr", 1, 4)),
       (normal("ar", 3, 1), normal("arr", 1, 1)), (normal("ar", 2, 3, dtype=F32),
                                                   normal("arr", 1, 3, dtype=F32))),
    at(against_a_python_float, (normal("apf", 3, 2), 0.7), (normal("apf", 5), -1.3),
       (normal("apf", 2, 2, dtype=F32), 0.25)),
    at(against_a_numpy_scalar, (normal("ans", 3, 2), np.float64(0.4)),
       (normal("ans", 4), np.float64(-0.8))),
    at(against_a_zero_d_array, (normal("azd", 3, 2), np.array(0.7)),
       (normal("azd", 1, 5), np.array(-1.1))),
    at(column_against_row, (normal("car", 3, 1), normal("carv", 1, 4)),
       (normal("car", 1, 1), normal("carv", 1, 2)), (normal("car", 5, 1), normal("carv", 1, 1))),
    at(vector_outer_by_none, (normal("vobn", 3), normal("vobv", 4)),
       (normal("vobn", 1), normal("vobv", 2))),
    at(cube_against_matrix, (normal("cam", 2, 3, 4), normal("camb", 3, 4)),
       (normal("cam", 1, 2, 2), normal("camb", 2, 2)), (normal("cam", 3, 2, 1), normal("camb", 1, 4))),
    at(divided_by_scales, (normal("dbs", 4, 3), positive("dbsd", 3)),
       (normal("dbs", 2, 3), positive("dbsd", 2, 1)), wrt="d"),
    at(broadcast_chain, (normal("bc", 4, 3), normal("bcb", 3), normal("bcc", 4, 1), 0.5),
       (normal("bc", 1, 2), normal("bcb", 2), normal("bcc", 1, 1), -1.5),
       wrt=("b", "c", "s")),
    at(where_given_mask, (normal("wgm", 5), mask("wgmm", 5)),
       (normal("wgm", 3, 4), mask("wgmm", 3, 4)), wrt="x"),
    at(leaky_relu, (normal("lr", 6),), (normal("lr", 3, 3),), kinky=True),
    at(where_picks_between, (normal("wpbx", 4), normal("wpby", 4), mask("wpbm", 4)),
       (normal("wpbx", 2, 3), normal("wpby", 3), mask("wpbm", 2, 3)), wrt=("x", "y")),
    at(multiplied_by_mask, (normal("mbm", 5), mask("mbmm", 5)),
       (normal("mbm", 2, 3), mask("mbmm", 2, 3)), wrt="x"),
    at(where_with_a_scalar_side, (normal("wss", 3, 3), 0.2), (normal("wss", 6), -0.4),
       kinky=True),
    at(combined_masks, (normal("cmx", 5), normal("cmy", 5)), (normal("cmx", 3, 3), normal("cmy", 3, 3)),
       kinky=True),
    at(augmented_on_a_copy, (normal("aoc", 4),), (normal("aoc", 2, 3),)),
    at(augmented_on_a_new_array, (normal("aona", 4), normal("aonb", 4)),
       (normal("aona", 3, 2), normal("aonb", 2))),
    at(scalar_code_on_numpy_scalars, (np.float64(0.4), np.float64(-1.2)),
       (np.float32(0.4), np.float32(0.7))),
    at(scalar_code_on_a_zero_d_array, (np.array(0.3), 1.5), (np.array(-0.6, dtype=F32), np.float32(0.5))),
    at(entries_through_math, (normal("etm", 2),), (normal("etm", 5),)),
    at(biases_broadcast_explicitly, (normal("bbe", 4), normal("bbeX", 3, 4)),
       (normal("bbe", 1), normal("bbeX", 2, 1)),
       (normal("bbe", 2, dtype=F32), normal("bbeX", 5, 2, dtype=F32))),
]
