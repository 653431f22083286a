"""The scalar functions of Tangent's test corpus that use lists, tuples, dicts or list
comprehensions, written again over plain Python containers.

Each function does the computation of the Tangent test function named in its comment
(``tests/functions.py`` of google/tangent); numpy's reductions become ``sum`` and loops
over lists, numpy arrays become lists (of lists), and a function that overwrote an
element of its argument copies the argument first, so that calling it twice gives the
same value.  ``CASES`` at the end, in the format of ``containers.py``.
"""

import math

from .containers import at, matrix, numbers


def anf_list(a):  # test_anf_list
    b = [1, a * a, 2]
    return sum(b)


def deep_anf_list(x):  # test_deep_anf_list
    b = [1, x[0] * x[1] * x[2], 3]
    return sum(b)


def subscript_product(x):  # test_subscript1
    a = x[0]
    b = x[1]
    return a * b


def subscript_overwrite(x):  # test_subscript2
    y = list(x)
    a = y[0]
    b = y[1]
    y[0] = a * b
    return sum(y)


def subscript_of_squares(x):  # test_subscript3
    y = [v ** 2.0 for v in x]
    z = list(x)
    z[0] = y[1] * y[2]
    return sum(u * v for u, v in zip(z, y))


def list_and_subscript(a):  # test_list_and_subscript
    x = [1.0, a, 3.0]
    return x[0] * x[1]


def sum_of_list(x):  # sum_, numpy_sum
    return sum(x)


def sum_of_a_copy(x):  # cast_sum_
    return sum(list(x))


def overwrite_with_sum(x):  # overwrite_call
    x = sum(x)
    x = x * x
    return x


def mean_of_list(x):  # numpy_mean
    return sum(x) / len(x)


def two_values_returned(a):  # fn_multiple_return, its results unpacked by a caller
    first, second = _double_and_same(a)
    return first * second


def _double_and_same(a):
    return 2 * a, a


def unpacked_saxpy(abc):  # unpacking_args_saxpy
    a, b, c = abc
    return a * b + c


def dict_saxpy(val):  # dict_saxpy
    return val["a"] * val["b"] + val["c"]


def saxpy_through_a_dict(abc):  # dict_wrapper
    a, b, c = abc
    return dict_saxpy({"a": a, "b": b, "c": c})


def pick_from_packed(a, b, c, i):  # passthru_pack
    x = a, b, c
    return x[i]


def first_of_unpacked(abc):  # passthru_unpack
    a, b, c = abc
    return a


def polar_radius_times_angle(a, b):  # cart2polar, its two results combined
    r, theta = _polar(a, b)
    return r * theta


def _polar(a, b):
    r = math.sqrt(a ** 2.0 + b ** 2.0)
    theta = math.atan2(b, a)
    return r, theta


def tripled_by_comprehension(a):  # listcomp
    return sum([i * 3 for i in a])


def copied_by_subscript(x):  # active_subscript
    y = [0.0] * len(x)
    for i in range(len(x)):
        y[i] = x[i]
    return sum(y)


def rows_from_elements(x):  # init_array_grad_maybe_active
    h = [[0.0] * 3 for _ in range(len(x))]
    for t in range(len(h)):
        h[t] = [x[t]] * 3
    return sum(sum(row) for row in h)


def sum_of_tail(x):  # slicing
    return sum(x[1:])


def sum_of_every_other(x):  # extended_slice
    return sum(x[::2])


def recurrent_sum(inputs, w):  # rnn
    h = [[0.0] * 3 for _ in range(4)]
    for t in range(3):
        step = [sum(inputs[t][k] * w[k][j] for k in range(len(w))) for j in range(3)]
        h[t + 1] = [s + p for s, p in zip(step, h[t])]
    return sum(sum(row) for row in h[1:])


def bilinear_tanh(x, h, u, w, b):  # bilinear
    total = 0.0
    for j in range(len(b)):
        y = sum(x[i] * w[i][j] for i in range(len(x)))
        y = y + sum(h[i] * u[i][j] for i in range(len(h)))
        total += math.tanh(y + b[j])
    return total


def pushed_and_popped(a):  # stack_pushing, its stack a list
    stack = []
    y = a * a
    stack.append(a)
    aa = stack.pop()
    z = y * aa
    z = z * aa
    return z


def pushed_and_dropped(a):  # useless_stack_ops, its stack a list
    stack = []
    b = a * a
    stack.append(b)
    b = stack.pop()
    return a


def nested_dict(p):  # nested_dict
    return p["i"]["j"] * p["i"]["k"]


def logistic_regression(inputs, label, w, b):  # logistic_regression
    loss = 0.0
    for j in range(len(b)):
        h1 = sum(inputs[i] * w[i][j] for i in range(len(inputs))) + b[j]
        prediction = 0.5 * (math.tanh(h1) + 1)
        probability = prediction * label[j] + (1 - prediction) * (1 - label[j])
        loss -= math.log(probability)
    return loss


CASES = [
    at(anf_list, (0.7,), (-1.3,)),
    at(deep_anf_list, ([0.5, -1.2, 0.8],), ((1.1, 0.3, 2.0),), ([0.4, 0.6, -0.9, 1.5],)),
    at(subscript_product, ([0.5, -1.2],), ((1.1, 0.3, 2.0),)),
    at(subscript_overwrite, ([0.5, -1.2],), (numbers(4, "tso"),)),
    at(subscript_of_squares, ([0.5, -1.2, 0.8],), (numbers(5, "tsq"),)),
    at(list_and_subscript, (0.7,), (-1.3,)),
    at(sum_of_list, ([0.7],), ([0.5, -1.2],), (numbers(5, "tsl"),)),
    at(sum_of_a_copy, ([0.7],), ([0.5, -1.2],), (numbers(5, "tsac"),)),
    at(overwrite_with_sum, ([0.7],), ([0.5, -1.2],), (numbers(5, "tows"),)),
    at(mean_of_list, ([0.7],), ([0.5, -1.2],), (numbers(5, "tmol"),)),
    at(two_values_returned, (0.7,), (-1.3,)),
    at(unpacked_saxpy, ((0.5, 1.5, -2.0),), ([1.1, -0.4, 0.9],)),
    at(dict_saxpy, ({"a": 0.5, "b": 1.5, "c": -2.0},), ({"c": 0.9, "b": -0.4, "a": 1.1},)),
    at(saxpy_through_a_dict, ((0.5, 1.5, -2.0),), ([1.1, -0.4, 0.9],)),
    at(pick_from_packed, (0.5, 1.5, -2.0, 0), (0.5, 1.5, -2.0, 2), (1.1, -0.4, 0.9, -2),
       wrt=("a", "b", "c")),
    at(first_of_unpacked, ((0.5, 1.5, -2.0),), ([1.1, -0.4, 0.9],)),
    at(polar_radius_times_angle, (0.5, 1.5), (-1.1, 0.4)),
    at(tripled_by_comprehension, ([0.7],), ([0.5, -1.2],), (numbers(5, "ttc"),)),
    at(copied_by_subscript, ([0.7],), ([0.5, -1.2],), (numbers(5, "tcs"),)),
    at(rows_from_elements, ([0.7],), ([0.5, -1.2],), (numbers(5, "trfe"),)),
    at(sum_of_tail, ([0.7],), ([0.5, -1.2],), (numbers(5, "tst"),)),
    at(sum_of_every_other, ([0.7],), ([0.5, -1.2],), (numbers(5, "tseo"),)),
    at(recurrent_sum, (matrix(3, 2, "trnn.in"), matrix(2, 3, "trnn.w")),
       (matrix(3, 1, "trnn.in1"), matrix(1, 3, "trnn.w1"))),
    at(bilinear_tanh, (numbers(2, "tb.x"), numbers(3, "tb.h"), matrix(3, 2, "tb.u"),
                       matrix(2, 2, "tb.w"), numbers(2, "tb.b")),
       ([0.4], [0.3], [[0.5]], [[-0.7]], [0.1])),
    at(pushed_and_popped, (0.7,), (-1.3,)),
    at(pushed_and_dropped, (0.7,), (-1.3,)),
    at(nested_dict, ({"i": {"j": 0.5, "k": -1.5}},), ({"i": {"k": 2.0, "j": 0.3}},)),
    at(logistic_regression, (numbers(3, "tlr.x"), [1, 0], matrix(3, 2, "tlr.w"),
                             numbers(2, "tlr.b")),
       ([0.5], [0], [[0.8]], [0.2]), wrt=("w", "b")),
]
