"""Functions with control flow: branches, conditional expressions, loops, early exits.

Branch tests and loop counts may depend on the inputs; such functions are ``kinky``
(piecewise smooth), and their domains keep sampled points valid.
"""

import math
from math import sqrt, tanh

import numpy as np

from . import case

STEPS = 6
TOLERANCE = 1e-13


# --- branches --------------------------------------------------------------------------

def branch_sign(x):
    if x > 0:
        y = x * x
    else:
        y = -x * 3.0
    return y + x


def if_elif_else(x):
    if x < -1.0:
        y = x * 2.0 + 1.0
    elif x < 1.0:
        y = math.sin(x)
    elif x < 2.0:
        y = x * x
    else:
        y = math.exp(x - 2.0) + 3.0
    return y * x


def nested_if(x, y):
    if x > 0:
        if y > 0:
            z = x * y
        else:
            z = x - y
    else:
        if y > 1.0:
            z = x ** 2 + y
        else:
            z = math.cos(x * y)
    return z * 2.0


def branch_without_else(x, y):
    z = x * y
    if x > y:
        z = z + math.sin(x)
    return z


def conditional_expression(x):
    y = x * x if x > 0 else x ** 3
    return y + (2.0 * x if x < 1.0 else x)


def sqrt_guard(x):
    return sqrt(x) if x > 0 else 0.0


def sqrt_guard_statement(x):
    if x > 0:
        y = math.sqrt(x)
    else:
        y = 0.0
    return y * 2.0


def and_or_not(x, y):
    if x > 0 and y > 0 or not x < -2.0:
        z = x * y + x
    else:
        z = x - y * y
    return z


def chained_comparison(x):
    if -1.0 < x < 1.0:
        return math.asin(x)
    return x * 0.5


def chained_comparison_three(x, y):
    if 0.0 < x < y < 3.0:
        z = x * y
    else:
        z = x + y
    return z


def not_condition(x):
    if not x > 1.0:
        return x * x
    return 2.0 * x - 1.0


def boolean_values(x, y):
    z = (x > 0 and y) or x
    return z * 3.0


def clamp(x, lo, hi):
    return min(max(x, lo), hi)


def piecewise_linear(x):
    if x < -1.0:
        return -1.0 - (x + 1.0) * 0.5
    elif x < 1.0:
        return x
    return 1.0 + (x - 1.0) * 0.25


def early_return_in_branch(x):
    if x > 2.0:
        return x * 3.0
    y = x * x
    if y > 1.0:
        return y
    return -y


# --- for loops ---------------------------------------------------------------------------

def for_constant(x):
    for i in range(5):
        x = x * 1.1 + math.sin(x)
    return x


def for_two_args(x):
    total = 0.0
    for i in range(2, 7):
        total += x ** i / i
    return total


def for_three_args(x):
    total = 1.0
    for i in range(1, 10, 3):
        total = total * x + i
    return total


def for_negative_step(x):
    total = 0.0
    for k in range(10, 0, -2):
        total = total * 0.5 + math.cos(x * k)
    return total


def for_computed_bound(x, n):
    total = x
    for i in range(int(n)):
        total = total * x + 1.0
    return total


def for_computed_bounds(x, n):
    total = 0.0
    for i in range(1, int(n) + 2):
        total += math.sin(x / i)
    return total


def for_module_constant(x):
    y = x
    for i in range(STEPS):
        y = y - 0.1 * (y * y - 2.0)
    return y


def loop_carried_pair(x, y):
    a, b = x, y
    for i in range(6):
        a, b = b, a + b * 0.5
    return a * b


def loop_variable_arithmetic(x):
    total = 0.0
    for i in range(1, 6):
        total += x ** i * i - i / (x + 4.0)
    return total


def loop_variable_reassigned(x):
    total = 0.0
    for i in range(4):
        i = i + x
        total += i * i
    return total


def nested_loops(x):
    total = 0.0
    for i in range(3):
        for j in range(4):
            total = total + math.sin(x * i) * j - x / (j + 1)
    return total


def nested_loops_triangular(x, y):
    total = 0.0
    for i in range(4):
        for j in range(i):
            total = total * y + x * (i - j)
    return total


def product_loop(x):
    p = 1.0
    for i in range(1, 6):
        p *= 1.0 + x / i
    return p


def if_inside_loop(x):
    for i in range(8):
        if x > 1.0:
            x = x / 2.0
        else:
            x = x * 3.0 + 0.1
    return x


def conditional_expression_in_loop(x):
    total = 0.0
    for i in range(6):
        total += (x if i % 2 else -x) * i
    return total * x


def min_max_abs_in_loop(x, y):
    best = -10.0
    total = 0.0
    for i in range(5):
        best = max(best, x * i - y)
        total += abs(x - i * 0.7) + min(y, x * 0.5)
    return best + total


def loop_inside_branch(x):
    if x > 0:
        for i in range(3):
            x = x * x * 0.5 + 0.1
    else:
        x = -x
    return x


# --- while loops, break, continue ---------------------------------------------------------

def while_growth(x):
    while x < 10.0:
        x = x * 1.5 + 0.1
    return x


def while_halving(x):
    count = 0.0
    while x > 1.0:
        x = x / 2.0
        count += 1.0
    return x + count


def while_counter(x, n):
    i = 0
    total = 0.0
    while i < n:
        total += x * i
        i += 1
    return total


def while_true_break(x):
    y = x
    while True:
        y = y * 1.3 + 0.2
        if y > 4.0:
            break
    return y * x


def break_loop(x):
    total = 0.0
    for i in range(20):
        total = total * x + 1.0
        if total > 5.0:
            break
    return total


def continue_loop(x):
    total = 0.0
    for i in range(8):
        if i % 2 == 0:
            continue
        total += x ** i
    return total


def continue_on_input(x):
    total = 0.0
    for i in range(6):
        if x * i > 3.0:
            continue
        total += math.sin(x * i)
    return total + x


def break_and_continue(x):
    total = 0.0
    for i in range(10):
        if i == 2:
            continue
        total = total + x * i
        if total > 8.0:
            break
    return total


def early_return_in_loop(x):
    for i in range(10):
        x = x * 1.3
        if x > 5.0:
            return x - i
    return x


def return_in_nested_loops(x):
    total = x
    for i in range(5):
        for j in range(5):
            total = total * 1.05 + x * (i + j) * 0.1
            if total > 6.0:
                return total * 2.0
    return total


def series_exp(x):
    term = 1.0
    total = 1.0
    k = 1.0
    while abs(term) > TOLERANCE:
        term = term * x / k
        total += term
        k += 1.0
    return total


# --- iterations and recurrences ---------------------------------------------------------------

def rnn_cell(x, w, u):
    h = 0.0
    for t in range(10):
        h = tanh(w * h + u * x)
    return h


def rnn_sequence(w, u, b):
    h = 0.0
    for t in range(10):
        h = math.tanh(w * h + u * math.sin(t * 0.7) + b)
    return h * h


def newton_sqrt_fixed(a):
    x = a
    for i in range(8):
        x = 0.5 * (x + a / x)
    return x


def newton_sqrt_tolerance(a):
    x = a
    while abs(x * x - a) > 1e-12 * a:
        x = 0.5 * (x + a / x)
    return x


def fixed_point_cosine(x):
    y = x
    for i in range(30):
        y = math.cos(y)
    return y


def euler_decay(y0, k):
    y = y0
    t = 0.0
    dt = 0.02
    for step in range(50):
        y = y + dt * (-k * y + math.sin(t))
        t += dt
    return y


def euler_oscillator(x0, v0, w):
    x, v = x0, v0
    dt = 0.05
    for step in range(40):
        x, v = x + dt * v, v - dt * w * w * x
    return x * x + v


def gradient_descent(target, rate):
    w = 0.0
    for step in range(20):
        w = w - rate * 2.0 * (w - target)
    return w * w


def poly_sum(x, n):
    total = 0.0
    for k in range(n + 1):
        total += x ** k / (k + 1)
    return total


def loop_calls_looping_helper(x):
    total = 0.0
    for i in range(3):
        total += poly_sum(x, i) * (i + 1)
    return total


def long_loop(x):
    s = 0.0
    for i in range(10000):
        s = s * 0.999 + x * math.cos(i * 0.001 + x)
    return s


# --- hazards: values a loop or branch overwrites, names reused, early exits, empty loops -----

def reset_accumulator_in_loop(x):
    total = 0.0
    for i in range(3):
        acc = 0.0
        acc = acc + x
        total = total + acc
    return total


def branch_reset_in_loop(x):
    acc = x
    total = 0.0
    for i in range(6):
        if i % 3 == 0:
            acc = 1.0
        acc = acc * x + i
        total += acc * acc
    return total


def inactive_overwrite_in_loop(x):
    total = 0.0
    for i in range(4):
        z = float(i)
        z = z * x + z
        total += z * z
    return total


def augmented_ops_in_loop(x, y):
    z = x
    for i in range(3):
        z += y
        z -= 0.25 * x
        z *= 0.5 + y * y
        z /= 1.0 + x * x
        z **= 2
        z %= 7.0
    return z


def parameter_as_loop_variable(x):
    total = x * 2.0
    for x in range(3):
        total += x
    return total


def loop_variable_after_loop(x, n):
    total = 0.0
    for i in range(int(n)):
        total += x * (i + 1)
    return total * i


def swap_in_loop(x, y):
    a, b = x, y
    for i in range(5):
        a, b = b, a
        a = a * 1.5 + b
    return a - b


def nested_conditional_expression(x, y):
    z = x * y if x > 1.0 else (x + y if y > 0.0 else x - y)
    return z * z


def while_compound_condition(x):
    n = 0
    while x < 20.0 and n < 5:
        x = x * 1.7 + 0.5
        n += 1
    return x


def while_continue(x):
    n = 0
    total = 0.0
    while n < 8:
        n += 1
        if n % 3 == 0:
            continue
        total = total * 0.5 + math.sin(x * n)
    return total


def return_inside_while(x):
    y = x
    while y < 100.0:
        y = y * y + 1.0
        if y > 10.0:
            return y * x
    return -y


def helper_with_loop_and_break(v):
    total = 0.0
    for i in range(10):
        total = total + v * i
        if total > 4.0:
            break
    return total


def helper_break_in_loop(x):
    total = 0.0
    for j in range(3):
        total += helper_with_loop_and_break(x + j * 0.1) * x
    return total


def generated_names_in_loops(x, stack):
    push = 0.0
    pop = x
    trips = 0.0
    for i in range(5):
        i_trips = pop * stack
        push = push + i_trips
        if push > 50.0:
            break
        pop = pop * 0.9
        trips += 1.0
    reversed = push * 0.5
    cond = reversed + trips
    _ = cond * x
    return _


def builtin_named_locals(x):
    total = 0.0
    reversed = x * 2.0
    for i in range(3):
        total = total * reversed + i
    return total


def hypot_in_loop(x, y):
    for k in range(4):
        x = math.hypot(0.5, x) * y
    return x


def zero_trip_then_branch(x, n):
    for i in range(int(n)):
        t = x * i
        x = x + t
    if n >= 1:
        t = t * 2.0
        x = x + t
    return x


def zero_trip_then_reused_loop_variable(x, n):
    s = x
    for i in range(int(n)):
        s = s + x * i
    for i in range(2):
        s = s * x + i
    return s


def loops_that_do_nothing(x, y):
    for i in range(3):
        pass
    for i in range(2):
        y = y
    return x * y


def and_or_keeps_old_value(x, y):
    if y < 5.0:
        x = (y > 0.75 and -y) or x
    return x * 0.5


def and_or_in_loop(x, y):
    for i in range(2):
        x = (y > 0.75 and -y * x) or x * 1.5
    return x


def copy_in_loop(x, y):
    for i in range(3):
        t = y
    return t


def value_from_last_iteration(x, y):
    for i in range(3):
        t = y * x + i
    return t


def early_exit_then_update(x):
    t = math.exp(x)
    if x > 100.0:
        return t
    t = t + 1.0
    return t * x


def update_in_branch(x, y):
    t = math.tanh(x)
    if y > 0.0:
        t += y
    return t * y



# --- helpers that return several values, unpacked at the call --------------------------

def _polar(x, y):
    r = math.sqrt(x * x + y * y)
    return r, math.atan2(y, x)


def _ordered(a, b):
    if a > b:
        return b, a
    return a, b


def _leapfrog(x, v, n):
    for i in range(n):
        v = v - 0.1 * math.sin(x)
        x = x + 0.1 * v
        if x > 1.5:
            return x, v
    return x, v


def _polar_swapped(x, y):
    return _polar(y, x)


def unpack_polar(x, y):
    r, t = _polar(x, y)
    return r * math.cos(t) + t * t


def unpack_ordered(a, b):
    lo, hi = _ordered(a, b)
    return hi - lo * 0.5 + lo * hi


def unpack_leapfrog(x, v):
    x, v = _leapfrog(x, v, 6)
    return x * x + v


def unpack_delegated(x, y):
    r, t = _polar_swapped(x, y)
    return r * t


def unpack_in_loop(x, y):
    s = 0.0
    for i in range(3):
        x, y = _polar(x + 1.0, y)
        s += x * y
    return s


def unpack_into_own_arguments(a, b):
    a, b = _ordered(b, a * 2.0)
    return a - b * 3.0


# --- tables of numbers: looped over and indexed ------------------------------------------

CHEBYSHEV = (0.5, -0.25, 0.125, 0.0625, -0.03125)
GAUSS_NODES = [-0.7745966692414834, 0.0, 0.7745966692414834]
GAUSS_WEIGHTS = [0.5555555555555556, 0.8888888888888888, 0.5555555555555556]


def horner_over_a_table(x):
    s = 0.0
    for c in CHEBYSHEV:
        s = s * x + c
    return s


def gauss_quadrature(a, b):
    half, mid = 0.5 * (b - a), 0.5 * (a + b)
    total = 0.0
    for i, w in enumerate(GAUSS_WEIGHTS):
        t = mid + half * GAUSS_NODES[i]
        total += w * math.exp(-t * t) * math.cos(a * t)
    return half * total


def table_indexed_by_loop_variables(x, y):
    s = 0.0
    for i in range(len(CHEBYSHEV)):
        for j in range(i):
            s += CHEBYSHEV[i] * CHEBYSHEV[j - i] * x ** j * y
    return s + CHEBYSHEV[-1] * x


def table_written_out(x):
    p = 1.0
    for k in (0.5, 1.5, -2.5):
        p = p * (x + k) + math.sin(k * x)
    for k in [2, 3]:
        p = p / k
    return p


def table_element_after_the_loop(x):
    for c in CHEBYSHEV:
        x = math.tanh(x) + c
        if x > 0.6:
            break
    return x * c


def table_index_from_a_branch(x):
    i = 1 if x > 0.0 else 3
    return CHEBYSHEV[i] * x * x + CHEBYSHEV[i - 1] * x


# --- string flags, decided when the gradient is built -------------------------------------

ACTIVATION = "softplus"


def _activate(t):
    if ACTIVATION == "tanh":
        return math.tanh(t)
    elif ACTIVATION != "softplus":
        return max(t, 0.0)
    return math.log1p(math.exp(t))


def flagged_layer(x, w):
    return _activate(w * x + 0.5) * w + (x if "relu" < ACTIVATION else -x)


# --- loops with an else clause ------------------------------------------------------------

def for_else_after_search(x):
    for i in range(5):
        x = math.sin(x) + 0.5
        if x > 1.2:
            break
    else:
        x = x * 3.0
    return x * x


def while_else_always_runs(x, y):
    n = 0
    while n < 4:
        y = y * x + 0.1
        n += 1
    else:
        y = y + x * x
    return y


def return_inside_a_loop_with_else(x):
    for c in (0.5, 1.0, 2.0):
        if x * c > 1.5:
            return x * c
    else:
        x = x - 1.0
    return x * x


GAINS = np.array([0.5, -1.25, 2.0, 0.75])
OFFSETS = np.arange(4)


def numpy_array_tables(x, y):
    s = 0.0
    for i in range(len(GAINS)):
        s += GAINS[i] * math.tanh(x * OFFSETS[i] + y)
    for g in GAINS:
        s = s * 0.5 + g * x * y
    return s


SAMPLES_X = [0.5, 1.5, -0.3, 2.0, 0.9]
SAMPLES_Y = (1.0, 0.0, 1.0, 0.0)


def logistic_loss_over_zipped_tables(w, b):
    total = 0.0
    for x, y in zip(SAMPLES_X, SAMPLES_Y):
        p = 1.0 / (1.0 + math.exp(-(w * x + b)))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(SAMPLES_Y)

CASES = [
    case(branch_sign, (-3, 3), kinky=True),
    case(if_elif_else, (-3, 3), kinky=True),
    case(nested_if, (-3, 3), (-3, 3), kinky=True),
    case(branch_without_else, (-3, 3), (-3, 3), kinky=True),
    case(conditional_expression, (-3, 3), kinky=True),
    case(sqrt_guard, (-3, 3), kinky=True),
    case(sqrt_guard_statement, (-3, 3), kinky=True),
    case(and_or_not, (-3, 3), (-3, 3), kinky=True),
    case(chained_comparison, (-3, 3), kinky=True),
    case(chained_comparison_three, (-1, 3.5), (-1, 3.5), kinky=True),
    case(not_condition, (-3, 3), kinky=True),
    case(boolean_values, (-3, 3), (0.5, 3), kinky=True),
    case(clamp, (-3, 3), (-2, -0.5), (0.5, 2), kinky=True),
    case(piecewise_linear, (-3, 3), kinky=True),
    case(early_return_in_branch, (-3, 3), kinky=True),
    case(for_constant, (-2, 2)),
    case(for_two_args, (-2, 2)),
    case(for_three_args, (-2, 2)),
    case(for_negative_step, (-2, 2)),
    case(for_computed_bound, (-1.2, 1.2), (0, 8), kinky=True),
    case(for_computed_bounds, (0.5, 3), (0, 8), kinky=True),
    case(for_module_constant, (0, 2)),
    case(loop_carried_pair, (-3, 3), (-3, 3)),
    case(loop_variable_arithmetic, (-2, 2)),
    case(loop_variable_reassigned, (-3, 3)),
    case(nested_loops, (-3, 3)),
    case(nested_loops_triangular, (-2, 2), (-2, 2)),
    case(product_loop, (-0.9, 3)),
    case(if_inside_loop, (-3, 3), kinky=True),
    case(conditional_expression_in_loop, (-3, 3)),
    case(min_max_abs_in_loop, (-3, 3), (-3, 3), kinky=True),
    case(loop_inside_branch, (-3, 3), kinky=True),
    case(while_growth, (0.1, 12), kinky=True),
    case(while_halving, (0.1, 40), kinky=True),
    case(while_counter, (-3, 3), (0, 8), kinky=True),
    case(while_true_break, (0.5, 5), kinky=True),
    case(break_loop, (0.5, 3), kinky=True),
    case(continue_loop, (-2, 2)),
    case(continue_on_input, (-3, 3), kinky=True),
    case(break_and_continue, (-3, 3), kinky=True),
    case(early_return_in_loop, (0.1, 4), kinky=True),
    case(return_in_nested_loops, (-1, 2), kinky=True),
    case(series_exp, (-3, 3), kinky=True),
    case(rnn_cell, (-2, 2), (-1.5, 1.5), (-1.5, 1.5)),
    case(rnn_sequence, (-1.5, 1.5), (-1.5, 1.5), (-1, 1)),
    case(newton_sqrt_fixed, (0.5, 10)),
    case(newton_sqrt_tolerance, (0.5, 10), kinky=True),
    case(fixed_point_cosine, (-3, 3)),
    case(euler_decay, (-2, 2), (0.1, 3), symbolic=False),  # past sympy's node cap
    case(euler_oscillator, (-2, 2), (-2, 2), (0.5, 3), symbolic=False),  # past sympy's node cap
    case(gradient_descent, (-3, 3), (0.01, 0.4), symbolic=False),  # past sympy's node cap
    case(loop_calls_looping_helper, (-2, 2)),
    case(long_loop, (-2, 2), symbolic=False, points=4),
    case(reset_accumulator_in_loop, (-3, 3)),
    case(branch_reset_in_loop, (-2, 2)),
    case(inactive_overwrite_in_loop, (-3, 3)),
    case(augmented_ops_in_loop, (-1, 1), (0.5, 1.5), kinky=True),
    case(parameter_as_loop_variable, (-3, 3)),
    case(loop_variable_after_loop, (-3, 3), (1, 8), kinky=True),
    case(swap_in_loop, (-3, 3), (-3, 3)),
    case(nested_conditional_expression, (-3, 3), (-3, 3), kinky=True),
    case(while_compound_condition, (-3, 30), kinky=True),
    case(while_continue, (-3, 3)),
    case(return_inside_while, (0.5, 5), kinky=True),
    case(helper_break_in_loop, (0.1, 2), kinky=True),
    case(generated_names_in_loops, (-3, 3), (-3, 3), kinky=True),
    case(builtin_named_locals, (-3, 3)),
    case(hypot_in_loop, (-2, 2), (0.5, 1.5)),
    case(zero_trip_then_branch, (-1, 1), (0, 4), kinky=True),
    case(zero_trip_then_reused_loop_variable, (-1, 1), (0, 4), kinky=True),
    case(loops_that_do_nothing, (-3, 3), (-3, 3)),
    case(and_or_keeps_old_value, (-3, 3), (-1, 2), kinky=True),
    case(and_or_in_loop, (-3, 3), (-1, 2), kinky=True),
    case(copy_in_loop, (-3, 3), (-3, 3)),
    case(value_from_last_iteration, (-3, 3), (-3, 3)),
    case(early_exit_then_update, (-3, 3)),
    case(update_in_branch, (-2, 2), (-0.5, 2), kinky=True),
    case(unpack_polar, (0.2, 2), (-2, 2)),
    case(unpack_ordered, (-2, 2), (-2, 2), kinky=True),
    case(unpack_leapfrog, (-1, 1), (-1, 1), kinky=True),
    case(unpack_delegated, (0.2, 2), (0.2, 2)),
    case(unpack_in_loop, (-0.5, 2), (-2, 2)),
    case(unpack_into_own_arguments, (-2, 2), (-2, 2), kinky=True),
    case(horner_over_a_table, (-2, 2)),
    case(gauss_quadrature, (-1, 1), (1.5, 3)),
    case(table_indexed_by_loop_variables, (-2, 2), (-2, 2)),
    case(table_written_out, (-2, 2)),
    case(table_element_after_the_loop, (-2, 2), kinky=True),
    case(table_index_from_a_branch, (-2, 2), kinky=True),
    case(flagged_layer, (-2, 2), (-2, 2)),
    case(for_else_after_search, (-2, 2), kinky=True),
    case(while_else_always_runs, (-1, 1), (-1, 1)),
    case(return_inside_a_loop_with_else, (-2, 2), kinky=True),
    case(numpy_array_tables, (-1, 1), (-1, 1)),
    case(logistic_loss_over_zipped_tables, (-2, 2), (-2, 2)),
]
