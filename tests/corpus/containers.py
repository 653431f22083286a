"""Functions over tuples, lists and dicts of numbers, written as scientific and ML code
writes them: parameters unpacked (``w, b = params``), lists indexed in loops, built up
with ``append`` and comprehensions, reduced with ``sum``, ``min``, ``max``,
``math.fsum`` and ``math.prod``, and passed to helpers that take and return containers.

Each function comes with the argument tuples it is tested at (``CASES`` at the end).
The shape of an argument is part of the point: a list parameter is given lists of
several lengths (1, 2 and more where the function allows), some with int elements.
``wrt`` names the parameters to differentiate by when not all of them are (a data list,
an integer index); the gradient of a container parameter has its structure.

Every function returns a number at each of its points and leaves its arguments as they
were (``tests/end_to_end/test_containers.py`` checks both in plain Python).  ``kinky`` marks a
function with a branch on its inputs (a filter, ``min``/``max``, ``sorted``): its
finite-difference comparisons are skipped at points within a step of the branch.
"""

import math
import random
from dataclasses import dataclass
from math import exp, log, sqrt, tanh

import numpy as np


@dataclass(frozen=True)
class Case:
    """A function, the argument tuples to test it at, and what to differentiate by."""

    fn: object
    points: tuple
    wrt: object = None
    kinky: bool = False
    symbolic: bool = True
    name: str = None

    def __post_init__(self):
        count = len(self.params)  # keyword-only ones last: a point passes them by name
        if not self.points:
            raise ValueError(f"{self.label}: no points")
        for point in self.points:
            if not isinstance(point, tuple) or len(point) != count:
                raise ValueError(f"{self.label}: {point!r} is not {count} arguments")

    @property
    def label(self):
        return self.name or self.fn.__name__

    @property
    def params(self):
        code = self.fn.__code__
        return code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]


def at(fn, *points, wrt=None, kinky=False, symbolic=True, name=None):
    """A ``Case`` with its points given positionally, each a tuple of arguments."""
    return Case(fn, tuple(points), wrt=wrt, kinky=kinky, symbolic=symbolic, name=name)


def numbers(n, seed, lo=-1.0, hi=1.0):
    """``n`` distinct floats in ``(lo, hi)``, four decimals, the same in every run."""
    rng = random.Random(seed)
    found = []
    while len(found) < n:
        value = round(lo + (hi - lo) * (0.02 + 0.96 * rng.random()), 4)
        if value not in found:
            found.append(value)
    return found


def matrix(rows, cols, seed, lo=-1.0, hi=1.0):
    """A list of ``rows`` lists of ``cols`` floats (see ``numbers``)."""
    flat = numbers(rows * cols, seed, lo, hi)
    return [flat[r * cols:(r + 1) * cols] for r in range(rows)]


# --- unpacking parameters ----------------------------------------------------------------

def linear_residual(params, x, y):
    w, b = params
    return (w * x + b - y) ** 2


def polar_to_sum(point):
    r, theta = point
    return r * math.cos(theta) + r * math.sin(theta)


def unpack_then_swap(pair):
    a, b = pair
    a, b = b, a * b
    return a - 2.0 * b


def layers_of_scalars(layers, x):
    for w, b in layers:
        x = tanh(w * x + b)
    return x


def residuals_by_position(xs, ys):
    total = 0.0
    for i, (a, b) in enumerate(zip(xs, ys)):
        total += (i + 1) * (a - b) ** 2
    return total


def three_unpacked(abc):
    a, b, c = abc
    return a * b * c + a - c


# --- indexing: constant, loop variable, computed, negative --------------------------------

def first_times_last(xs):
    return xs[0] * xs[-1] + xs[0]


def determinant_2x2(m):
    return m[0][0] * m[1][1] - m[0][1] * m[1][0]


def weighted_by_position(xs):
    s = 0.0
    for i in range(len(xs)):
        s += (i + 1) * xs[i] ** 2
    return s


def numpy_over_a_list(xs):
    s = 0.0
    for i in range(len(xs)):
        s = s + np.exp(xs[i]) * xs[i]
    return s


def neighbour_differences(xs):
    s = 0.0
    for i in range(1, len(xs)):
        s += (xs[i] - xs[i - 1]) ** 2
    return s + 0.1 * xs[0]


def mirror_products(xs):
    s = 0.0
    for i in range(len(xs)):
        s += xs[i] * xs[-1 - i]
    return s


def computed_index(xs, k):
    n = len(xs)
    return xs[k % n] * xs[(k + 1) % n] + xs[(2 * k) % n]


def negative_loop_index(xs):
    s = 0.0
    for i in range(1, len(xs) + 1):
        s = 0.5 * s + xs[-i]
    return s * s


def trace_of_square(m):
    s = 0.0
    for i in range(len(m)):
        for j in range(len(m)):
            s += m[i][j] * m[j][i]
    return s


def index_from_a_table(xs):
    order = [2, 0, 1]
    s = 0.0
    for i in range(len(order)):
        s += (i + 1.0) * xs[order[i]]
    return s * xs[order[-1]]


# --- slices ------------------------------------------------------------------------------

def tail_sum(xs):
    return xs[0] ** 2 + sum(xs[1:])


def zipped_with_tail(xs):
    s = 0.0
    for a, b in zip(xs, xs[1:]):
        s += (b - a) ** 2
    return s + xs[-1]


def head_squares(xs):
    head = xs[:-1]
    s = xs[-1]
    for v in head:
        s += v * v
    return s


def middle_of_tuple(t):
    inner = t[1:-1]
    return t[0] * t[-1] + sum(inner) * len(inner)


# --- len, iteration, reversed, sorted ----------------------------------------------------

def mean(xs):
    return sum(xs) / len(xs)


def variance(xs):
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / len(xs)


def product_by_iteration(xs):
    p = 1.0
    for x in xs:
        p *= x
    return p


def horner_reversed(coeffs, x):
    acc = 0.0
    for c in reversed(coeffs):
        acc = acc * x + c
    return acc


def sorted_weights(xs):
    s = 0.0
    for i, v in enumerate(sorted(xs)):
        s += (i + 1) * v
    return s


def median_of_three(xs):
    return sorted(xs)[1] * xs[0]


def largest_by_loop(xs):
    best = xs[0]
    for x in xs[1:]:
        if x > best:
            best = x
    return best * best


# --- dicts -------------------------------------------------------------------------------

def dict_line(p, x):
    return (p["w"] * x + p["b"]) ** 2


def dict_of_lists(p, x):
    s = p["bias"]
    for i in range(len(p["weights"])):
        s += p["weights"][i] * x ** (i + 1)
    return tanh(s)


def dict_iteration(p):
    s = 0.0
    for key in p:
        s += p[key] ** 2
    return s


def nested_dicts(p):
    inner = p["layer"]
    return inner["scale"] * tanh(inner["shift"] + p["offset"])


def dict_of_pairs(p, x):
    w, b = p["first"]
    h = tanh(w * x + b)
    v, c = p["second"]
    return v * h + c


# --- literals of active values -----------------------------------------------------------

def list_literal(a, b):
    xs = [a, b, a * b]
    return xs[0] + xs[1] * xs[2]


def tuple_indexed_in_loop(x0, x1, x2):
    xs = (x0, x1, x2)
    s = 0.0
    for i in range(len(xs)):
        s += (i + 1) * xs[i] ** 2
    return s


def dict_literal(a, b):
    d = {"x": a, "y": b}
    return d["x"] * d["y"] + d["x"]


def nested_literal(a, b):
    pairs = [(a, b), (b, a * b), (1.0, a)]
    s = 0.0
    for u, v in pairs:
        s += u * v
    return s


def literal_of_containers(xs, c):
    rows = [xs, [c * x for x in xs]]
    return sum(rows[1]) * rows[0][0]


# --- building: append, [0.0] * n, element assignment --------------------------------------

def powers_appended(x):
    powers = []
    for k in range(5):
        powers.append(x ** k)
    return sum(powers)


def squares_appended(xs):
    squares = []
    for x in xs:
        squares.append(x * x)
    return sum(squares) / len(squares)


def zeros_then_filled(xs):
    ys = [0.0] * len(xs)
    for i in range(len(xs)):
        ys[i] = 2.0 * xs[i] + i
    s = 0.0
    for i in range(len(ys)):
        s += ys[i] * xs[i]
    return s


def _decay(y):
    return 0.5 * y + 0.1 * y ** 3


def explicit_euler(y0, dt):
    n = 4
    ys = [0.0] * (n + 1)
    ys[0] = y0
    for i in range(n):
        ys[i + 1] = ys[i] - dt * _decay(ys[i])
    return ys[-1]


def euler_trajectory_loss(y0, dt):
    n = 4
    ys = [0.0] * (n + 1)
    ys[0] = y0
    for i in range(n):
        ys[i + 1] = ys[i] - dt * _decay(ys[i])
    return sum(y * y for y in ys) / len(ys)


def prefix_sums(xs):
    out = [0.0] * len(xs)
    acc = 0.0
    for i in range(len(xs)):
        acc += xs[i]
        out[i] = acc
    return sum(o * o for o in out)


def overwritten_in_place(xs):
    ys = list(xs)
    for i in range(len(ys)):
        ys[i] = ys[i] * ys[i - 1] + 1.0
    return sum(ys)


def element_overwritten_twice(xs):
    ys = list(xs)
    ys[0] = ys[0] * ys[-1]
    ys[0] = math.sin(ys[0]) + ys[0]
    return sum(ys) * ys[0]


def smoothing_passes(xs):
    ys = list(xs)
    for _ in range(3):
        for i in range(1, len(ys) - 1):
            ys[i] = 0.5 * ys[i] + 0.25 * (ys[i - 1] + ys[i + 1])
    return sum(y * y for y in ys)


def grid_of_values(x, y):
    grid = [[0.0] * 3 for _ in range(2)]
    for i in range(2):
        for j in range(3):
            grid[i][j] = math.sin(x * i + y * j)
    return sum(sum(row) for row in grid)


# --- comprehensions ----------------------------------------------------------------------

def squares_comprehension(xs):
    squares = [x * x for x in xs]
    return sum(squares) + squares[0]


def positive_part_sum(xs):
    return sum(x for x in xs if x > 0.0) + 0.5 * xs[0]


def even_positions(xs):
    return sum(xs[i] ** 2 for i in range(len(xs)) if i % 2 == 0)


def outer_product_sum(xs, ys):
    return sum(a * b * b for a in xs for b in ys)


def pairwise_distances(xs):
    return sum((xs[i] - xs[j]) ** 2 for i in range(len(xs)) for j in range(i))


def products_of_pairs(pairs):
    return sum([a * b for a, b in pairs])


def polynomial_enumerate(coeffs, x):
    return sum(c * x ** i for i, c in enumerate(coeffs))


def nested_comprehension(m):
    flat = [v for row in m for v in row if v > -0.5]
    return sum(flat) * len(flat)


def matrix_comprehension(xs):
    gram = [[a * b for b in xs] for a in xs]
    return sum(gram[i][i] for i in range(len(gram))) + gram[0][-1]


# --- helpers taking and returning containers ---------------------------------------------

def _dot(u, v):
    return sum(a * b for a, b in zip(u, v))


def norm_by_helper(xs):
    return sqrt(_dot(xs, xs))


def _scaled(xs, c):
    return [c * x for x in xs]


def scaled_then_summed(xs, c):
    ys = _scaled(xs, c)
    return sum(y * y for y in ys)


def _mean_and_variance(xs):
    m = sum(xs) / len(xs)
    v = sum((x - m) ** 2 for x in xs) / len(xs)
    return m, v


def standardized_first(xs):
    m, v = _mean_and_variance(xs)
    return (xs[0] - m) / sqrt(v + 1.0)


def _matvec(m, v):
    return [_dot(row, v) for row in m]


def quadratic_form(m, v):
    return _dot(v, _matvec(m, v))


def _add(u, v):
    return [a + b for a, b in zip(u, v)]


def sum_of_vectors(u, v):
    w = _add(u, v)
    return _dot(w, w) + w[0]


def _split(pair):
    first, second = pair
    return second, first * second


def helper_returns_tuple(pair):
    a, b = _split(pair)
    c, d = _split((a, b))
    return a + b + c * d


def _append_squares(xs, out):
    result = list(out)
    for x in xs:
        result.append(x * x)
    return result


def helper_extends_a_list(xs, c):
    ys = _append_squares(xs, [c])
    return sum(ys) * ys[0]


# --- reductions --------------------------------------------------------------------------

def sum_with_start(xs, offset):
    return sum(xs, offset) ** 2


def sum_of_list_with_start(xs):
    return sum([x * x for x in xs], 1.0) * xs[0]


def min_times_max(xs):
    return min(xs) * max(xs)


def max_of_squares(xs):
    return max(x * x for x in xs) + min(xs)


def fsum_of_list(xs):
    return math.fsum(xs) * xs[0]


def fsum_of_generator(xs):
    return math.fsum(x ** 3 for x in xs)


def prod_of_list(xs):
    return math.prod(xs)


def prod_of_generator(xs):
    return math.prod(1.0 + x * x for x in xs)


def softmax_with_max_shift(xs):
    m = max(xs)
    exps = [exp(x - m) for x in xs]
    total = sum(exps)
    return exps[0] / total


# --- models ------------------------------------------------------------------------------

def polynomial(coeffs, x):
    total = 0.0
    power = 1.0
    for c in coeffs:
        total += c * power
        power *= x
    return total


def horner(coeffs, x):
    acc = 0.0
    for c in coeffs:
        acc = acc * x + c
    return acc


def softmax_first(xs):
    exps = [exp(x) for x in xs]
    total = sum(exps)
    probs = [e / total for e in exps]
    return probs[0]


def logsumexp(xs):
    m = max(xs)
    return m + log(sum(exp(x - m) for x in xs))


def cross_entropy(logits, target):
    m = max(logits)
    lse = m + log(sum(exp(z - m) for z in logits))
    return lse - logits[target]


def mlp_lists(w1, b1, w2, x):
    hidden = []
    for row, b in zip(w1, b1):
        hidden.append(tanh(_dot(row, x) + b))
    return _dot(w2, hidden)


def _layer(w, b, x):
    return [tanh(_dot(row, x) + bias) for row, bias in zip(w, b)]


def mlp_over_layers(layers, x, y):
    h = x
    for w, b in layers:
        h = _layer(w, b, h)
    return sum((hi - yi) ** 2 for hi, yi in zip(h, y))


def least_squares(params, data):
    w, b = params
    loss = 0.0
    for x, y in data:
        loss += (w * x + b - y) ** 2
    return loss / len(data)


def least_squares_comprehension(params, data):
    w, b = params
    return sum((w * x + b - y) ** 2 for x, y in data) / len(data)


def rosenbrock(x):
    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2 for i in range(len(x) - 1))


def rosenbrock_loop(x):
    total = 0.0
    for i in range(len(x) - 1):
        total += 100.0 * (x[i + 1] - x[i] * x[i]) ** 2 + (1.0 - x[i]) ** 2
    return total


def dict_model_loss(params, xs, ys):
    loss = 0.0
    for x, y in zip(xs, ys):
        prediction = params["w"] * x + params["b"]
        loss += (prediction - y) ** 2
    return loss + params["decay"] * params["w"] ** 2


def ridge_over_a_dict(params, data):
    w = params["w"]
    total = 0.0
    for features, target in data:
        total += (_dot(w, features) + params["b"] - target) ** 2
    return total + 0.1 * sum(v * v for v in w)


def gaussian_negative_log_likelihood(theta, data):
    mu, log_sigma = theta
    sigma = exp(log_sigma)
    total = 0.0
    for x in data:
        total += 0.5 * ((x - mu) / sigma) ** 2 + log_sigma
    return total


def weighted_mean(xs, ws):
    return _dot(xs, ws) / sum(ws)


def oscillator_state(state, dt):
    x, v = state
    for _ in range(5):
        x, v = x + dt * v, v - dt * math.sin(x)
    return x * x + v * v


def attention_score(query, keys, values):
    scores = [_dot(query, k) for k in keys]
    m = max(scores)
    weights = [exp(s - m) for s in scores]
    total = sum(weights)
    return sum(w * v for w, v in zip(weights, values)) / total


def logistic_regression(weights, data):
    total = 0.0
    for features, label in data:
        z = _dot(weights, features)
        p = 1.0 / (1.0 + exp(-z))
        total -= label * log(p) + (1 - label) * log(1.0 - p)
    return total / len(data)


def kinetic_energy(masses, velocities):
    return 0.5 * sum(m * sum(v * v for v in vel) for m, vel in zip(masses, velocities))


def trapezoid_rule(ys, h):
    interior = ys[1:-1]
    return h * (0.5 * ys[0] + sum(interior) + 0.5 * ys[-1])


def moving_average(xs):
    width = 2
    averages = [sum(xs[i:i + width]) / width for i in range(len(xs) - width + 1)]
    return sum(a * a for a in averages)


# --- lists used as stacks: append and pop, mixed with indexing, len and sum -------------

RPN = (0, 1, -1, 2, -2, 0, 2, -2, -3, 1, 1, -2, -1)  # x0 x1 + x2 * x0 x2 * - x1 x1 * +


def pushdown_evaluation(xs):
    stack = []
    for code in RPN:
        if code >= 0:
            stack.append(xs[code])
        else:
            right = stack.pop()
            left = stack.pop()
            if code == -1:
                stack.append(left + right)
            elif code == -2:
                stack.append(left * right)
            else:
                stack.append(left - right)
    return stack.pop() + len(stack)


def window_from_the_end(xs):
    window = list(xs)
    total = 0.0
    while len(window) > 1:
        last = window.pop()
        total += last * window[-1] + sum(window) / len(window)
    return total + window[0]


def built_then_unwound(xs, r):
    partial = []
    acc = 0.0
    for x in xs:
        acc = acc * r + x
        partial.append(acc)
    total = 0.0
    for _ in range(len(xs)):
        total = total * r + partial.pop() ** 2
    return total


def peek_and_measure(x, y):
    s = [x]
    for k in range(4):
        s.append(s[-1] * y + math.sin(s[0]) / len(s))
    top = s.pop()
    return top * s[-1] + sum(s) - s.pop()


def bound_methods(xs):
    stack = []
    push, pop = stack.append, stack.pop
    for x in xs:
        push(x * x)
    total = 0.0
    for _ in range(len(xs)):
        total = total * 0.5 + pop()
    return total


def drop_the_last(xs, c):
    ys = [x * c for x in xs]
    ys.pop()
    last = ys.pop(-1)
    return last * sum(ys) + len(ys) * c


def _mean_of(values):
    return sum(values) / len(values)


def popped_then_passed(xs):
    ys = list(xs)
    first_out = ys.pop()
    return first_out * _mean_of(ys) + ys[-1]


def shrinking_sums(xs):
    ys = list(xs)
    total = 0.0
    for _ in range(len(xs) - 1):
        total += sum(ys) * ys.pop()
    return total + math.prod(ys)


def largest_after_pops(xs):
    ys = [math.tanh(x) for x in xs]
    ys.pop()
    return max(ys) * ys.pop()


def pop_by_position(xs, i):
    ys = [x * x for x in xs]
    total = sum(ys)
    taken = ys.pop(i)
    return taken * total + sum(ys) * ys[-1]


def pop_from_the_front(x, y):
    queue = [x, x * y, y, math.sin(x)]
    total = 0.0
    while len(queue) > 1:
        first = queue.pop(0)
        total = total * 0.5 + first * queue[0] + sum(queue)
    return total + queue.pop(0)


def pop_second_to_last(xs):
    ys = list(xs)
    total = 0.0
    for _ in range(len(xs) - 1):
        total = total * 0.5 + ys.pop(-2) * sum(ys)
    return total + ys[0]


def stack_of_running_products(x, y):
    s = []
    p = 1.0
    for k in range(3):
        p = p * (x + k * y)
        s.append(p)
    while len(s) > 1:
        top = s.pop()
        s[-1] = s[-1] + top * y
    return s[0]


# --- loops over dicts ----------------------------------------------------------------------

def weighted_sum_over_keys(weights, values):
    total = 0.0
    for name in weights:
        total += weights[name] * values[name]
    return total


def l2_penalty(params):
    return 0.5 * sum(v ** 2 for v in params.values())


def mean_of_values(p):
    return sum(p.values()) / len(p)


def polynomial_over_items(coeffs, x):
    s = 0.0
    for name, c in coeffs.items():
        s += c * tanh(x)
        x = x * c
    return s


def horner_over_reversed_keys(coeffs, x):
    s = 0.0
    for k in reversed(coeffs):
        s = s * x + coeffs[k]
    return s


def sgd_step_loss(params, grads, lr):
    updated = {k: params[k] - lr * grads[k] for k in params}
    return sum((v - 1.0) ** 2 for v in updated.values())


def decayed_in_place_of_a_name(params, x):
    return sum({k: v * x - v ** 2 for k, v in params.items()}.values()) * x


def momentum_steps(x0, v0, lr):
    state = {"position": x0, "velocity": v0}
    rates = {"position": lr, "velocity": 0.5 * lr}
    for step in range(3):
        for key in state:
            state[key] = state[key] - rates[key] * state[key] ** 3
    return state["position"] * state["velocity"]


def dict_of_lists_over_items(p, x):
    s = 0.0
    for name, weights in p.items():
        for i in range(len(weights)):
            s += weights[i] * x ** i
    return tanh(s)


def pairs_over_items(p, x):
    s = 0.0
    for name, (w, b) in p.items():
        s += tanh(w * x + b)
    return s


def scaled_by_comprehension(p, scale):
    scaled = {k: v * scale for k, v in p.items()}
    return sum(scaled[k] * p[k] for k in p)


def filled_by_key(p, w):
    out = {}
    for k in p:
        out[k] = tanh(p[k] * w)
    total = 0.0
    for k in out:
        total += out[k] ** 2
    return total


def logsumexp_over_values(logits):
    m = max(logits.values())
    return m + log(sum(exp(v - m) for v in logits.values()))


def named_key(p, x):
    key = "slope"
    return p[key] * x + p["offset"]


def feature_dicts(weights, rows):
    loss = 0.0
    for row, target in rows:
        prediction = 0.0
        for name in weights:
            prediction += weights[name] * row[name]
        loss += (prediction - target) ** 2
    return loss / len(rows)


def first_keys_until_large(p):
    s = 0.0
    for k in p:
        s += p[k] ** 2
        if s > 1.0:
            break
    return s


def horner_over_sorted_keys(coeffs, x):
    s = 0.0
    for name in sorted(coeffs):
        s = s * x + coeffs[name]
    return s


# --- ranges held as values: positions kept in a name, sliced, copied, sorted -------------

def every_other_squared(xs):
    evens = range(0, len(xs), 2)
    total = 0.0
    for i in evens:
        total = total + xs[i] ** 2
    return total * len(evens)


def neighbour_products(xs):
    after_first = range(len(xs))[1:]
    return sum(xs[i] * xs[i - 1] for i in after_first)


def product_of_the_first(xs, n):
    first = range(n)  # empty for n <= 0, as in Python
    p = xs[0]
    for i in first:
        p = p * xs[i]
    return p + len(first)


def cubes_by_position(xs):
    positions = list(range(len(xs)))
    return sum(xs[i] ** 3 for i in positions)


def ends_of_a_backward_range(xs):
    backward = range(len(xs) - 1, -1, -1)
    return xs[backward[0]] * xs[backward[-1]] + math.sin(xs[backward[len(backward) // 2]])


def differences_over_positions(xs):
    steps = range(1, len(xs))
    ds = [xs[i] - xs[i - 1] for i in steps]
    return sum(d * d for d in ds)


def smallest_by_order(xs):
    order = sorted(range(len(xs)), key=xs.__getitem__)
    return 2.0 * xs[order[0]] + xs[order[-1]] ** 2


def ranked_by_position(xs):
    total = 0.0
    for k, i in enumerate(range(1, len(xs))):
        total = total + (k + 1) * xs[i] ** 2
    return total


def backward_over_a_range(xs):
    positions = range(len(xs))
    total = 0.0
    for i in reversed(positions):
        total = total * 0.5 + xs[i]
    return total


def empty_range_reversed(xs):
    none = range(len(xs), 0)
    total = xs[0] ** 2
    for i in none:
        total = total + xs[i]
    return total + len(none)


def _data(n, seed):
    """``n`` (x, y) pairs of data."""
    return [(x, y) for x, y in zip(numbers(n, seed + ".x", -2, 2), numbers(n, seed + ".y"))]


def _rows(n, width, seed):
    """``n`` (features, target) pairs of data."""
    return [(row, t) for row, t in zip(matrix(n, width, seed + ".f"), numbers(n, seed + ".t"))]


def _labelled(n, width, seed):
    """``n`` (features, 0 or 1) pairs of data."""
    return [(row, k % 2) for k, row in enumerate(matrix(n, width, seed))]


CASES = [
    # unpacking parameters
    at(linear_residual, ((0.5, -0.3), 1.2, 0.7), ([1.5, 0.25], -0.8, 0.1),
       ((2, -1), 0.5, 0.0), wrt="params"),
    at(linear_residual, ((0.5, -0.3), 1.2, 0.7), ([1.5, 0.25], -0.8, 0.1),
       name="linear_residual_all"),
    at(polar_to_sum, ((1.3, 0.4),), ([0.7, -2.1],), ((2, 1),)),
    at(unpack_then_swap, ((0.6, -1.2),), ([1.7, 0.3],)),
    at(layers_of_scalars, ([(0.5, 0.1)], 0.3), ([(1.2, -0.4), (-0.7, 0.2)], 0.8),
       ([(0.9, 0.0), (1.1, -0.3), (0.4, 0.5)], -1.1)),
    at(residuals_by_position, (numbers(1, "rp.a"), numbers(1, "rp.b")),
       (numbers(2, "rp.a"), numbers(2, "rp.b")), (numbers(5, "rp.a"), numbers(5, "rp.b"))),
    at(three_unpacked, ((0.5, 1.5, -2.0),), ([1.1, -0.4, 0.9],), ((1, 2, 3),)),
    # indexing
    at(first_times_last, ([0.7],), ([0.4, -1.3],), (numbers(5, "ftl"),)),
    at(determinant_2x2, (matrix(2, 2, "det"),), ([[1, 2], [3, 4]],)),
    at(weighted_by_position, ([1.5],), ([0.4, -0.9],), (numbers(6, "wbp"),)),
    at(numpy_over_a_list, ([1.5],), ([0.4, -0.9],), (numbers(5, "npl"),)),
    at(neighbour_differences, ([0.3],), ([0.4, -0.9],), (numbers(5, "nd"),)),
    at(mirror_products, ([0.8],), ([0.4, -0.9],), (numbers(5, "mp"),)),
    at(computed_index, ([0.8], 3), ([0.4, -0.9], 1), (numbers(5, "ci"), 7),
       (numbers(4, "ci"), -2), wrt="xs"),
    at(negative_loop_index, ([0.8],), ([0.4, -0.9],), (numbers(5, "nli"),)),
    at(trace_of_square, ([[0.7]],), (matrix(2, 2, "tos"),), (matrix(3, 3, "tos"),)),
    at(index_from_a_table, ([0.2, 0.5, -1.1],), (numbers(5, "ift"),)),
    # slices
    at(tail_sum, ([0.8],), ([0.4, -0.9],), (numbers(5, "ts"),)),
    at(zipped_with_tail, ([0.8],), ([0.4, -0.9],), (numbers(5, "zt"),)),
    at(head_squares, ([0.8],), ([0.4, -0.9],), (numbers(5, "hs"),)),
    at(middle_of_tuple, ((0.8, 0.3),), ((0.4, -0.9, 1.3),), (tuple(numbers(6, "mot")),)),
    # len, iteration, reversed, sorted
    at(mean, ([0.8],), ([0.4, -0.9],), ([1, 2, 4],), (numbers(6, "mean"),)),
    at(variance, ([0.8],), ([0.4, -0.9],), (numbers(6, "var"),)),
    at(product_by_iteration, ([0.8],), ([0.4, -0.9],), (numbers(5, "pbi"),)),
    at(horner_reversed, ([0.8], 0.5), ([0.4, -0.9], 1.3), (numbers(5, "hr"), -0.7)),
    at(sorted_weights, ([0.8],), ([0.4, -0.9],), (numbers(5, "sw"),), kinky=True),
    at(median_of_three, ([0.4, -0.9, 0.1],), ([1.3, 0.2, -0.6],), kinky=True),
    at(largest_by_loop, ([0.8],), ([0.4, -0.9],), (numbers(5, "lbl"),), kinky=True),
    # dicts
    at(dict_line, ({"w": 0.7, "b": -0.2}, 1.3), ({"b": 0.4, "w": 2}, -0.5), wrt="p"),
    at(dict_line, ({"w": 0.7, "b": -0.2}, 1.3), name="dict_line_all"),
    at(dict_of_lists, ({"weights": [0.5], "bias": 0.1}, 0.7),
       ({"weights": [0.5, -0.3], "bias": 0.1}, 0.9),
       ({"bias": -0.2, "weights": numbers(4, "dol")}, 0.6), wrt="p"),
    at(dict_iteration, ({"a": 0.5},), ({"a": 0.5, "b": -1.5},),
       ({"z": 0.1, "y": 1.2, "x": -0.7},)),
    at(nested_dicts, ({"layer": {"scale": 1.5, "shift": 0.2}, "offset": -0.4},),
       ({"offset": 0.3, "layer": {"shift": -0.9, "scale": 0.6}},)),
    at(dict_of_pairs, ({"first": (0.5, 0.1), "second": (1.5, -0.2)}, 0.8),
       ({"second": [0.7, 0.3], "first": [-1.2, 0.4]}, -0.3)),
    # loops over dicts
    at(weighted_sum_over_keys, ({"a": 0.5}, {"a": -1.2}),
       ({"w": 0.7, "b": -0.2}, {"b": 1.5, "w": 0.3}),
       ({"x": 0.1, "y": 1.2, "z": -0.7}, {"x": 2, "y": -0.4, "z": 0.9})),
    at(l2_penalty, ({"w": 0.7},), ({"w": 0.7, "b": -0.2},), ({"c": 3, "a": -1.1, "b": 0.4},)),
    at(mean_of_values, ({"w": 0.7},), ({"w": 0.7, "b": -0.2},), ({"c": 3, "a": -1.1, "b": 0.4},)),
    at(polynomial_over_items, ({"c0": 0.5}, 0.3), ({"c0": 0.5, "c1": -1.2}, 0.8),
       ({"c2": 0.4, "c0": 1.1, "c1": -0.6}, -0.5)),
    at(horner_over_reversed_keys, ({"c0": 0.5}, 0.3), ({"c0": 0.5, "c1": -1.2}, 0.8),
       ({"c0": 1.1, "c1": -0.6, "c2": 0.4}, -0.5)),
    at(decayed_in_place_of_a_name, ({"w": 0.7, "b": -0.3}, 1.2), ({"a": 2.0}, -0.5)),
    at(sgd_step_loss, ({"w": 0.7}, {"w": 0.2}, 0.1),
       ({"w": 0.7, "b": -0.2}, {"w": 0.3, "b": -1.1}, 0.05),
       ({"b": 1.5, "w": -0.4, "c": 0.9}, {"c": 0.2, "b": 0.1, "w": 0.6}, 0.5)),
    at(momentum_steps, (0.8, 0.3, 0.1), (-0.6, 0.9, 0.2), (1.1, -0.4, 0.05)),
    at(dict_of_lists_over_items, ({"first": [0.5]}, 0.7),
       ({"first": [0.5, -0.3], "second": [0.2]}, 0.9),
       ({"b": numbers(3, "dloi.b"), "a": numbers(2, "dloi.a")}, -0.6), wrt="p"),
    at(pairs_over_items, ({"first": (0.5, 0.1)}, 0.8),
       ({"first": (0.5, 0.1), "second": (1.5, -0.2)}, 0.8),
       ({"c": [0.7, 0.3], "a": [-1.2, 0.4], "b": [0.2, -0.9]}, -0.3)),
    at(scaled_by_comprehension, ({"w": 0.7}, 1.5), ({"w": 0.7, "b": -0.2}, -0.5),
       ({"c": 3, "a": -1.1, "b": 0.4}, 0.25)),
    at(filled_by_key, ({"w": 0.7}, 1.5), ({"w": 0.7, "b": -0.2}, -0.5),
       ({"c": 1, "a": -1.1, "b": 0.4}, 0.25)),
    at(logsumexp_over_values, ({"cat": 0.7},), ({"cat": 0.7, "dog": -0.2},),
       ({"a": 1.3, "b": -1.1, "c": 0.4},)),
    at(named_key, ({"slope": 0.7, "offset": -0.2}, 1.3), ({"offset": 0.4, "slope": 2}, -0.5)),
    at(feature_dicts, ({"x": 0.5}, [({"x": 1.2}, 0.3)]),
       ({"x": 0.5, "bias": -0.1}, [({"bias": 1.0, "x": 0.4}, 0.7),
                                   ({"bias": 1.0, "x": -1.3}, -0.2)]),
       ({"u": 0.3, "v": -0.8, "bias": 0.2},
        [({"u": u, "v": v, "bias": 1.0}, t) for (u, v), t in zip(matrix(4, 2, "fd"),
                                                                  numbers(4, "fd.t"))]),
       wrt="weights"),
    at(first_keys_until_large, ({"a": 0.5},), ({"a": 0.5, "b": -1.5, "c": 2.0},),
       ({"z": 0.1, "y": 0.2, "x": -0.3},), kinky=True),
    at(horner_over_sorted_keys, ({"c0": 0.5}, 0.3), ({"c1": -1.2, "c0": 0.5}, 0.8),
       ({"c2": 0.4, "c0": 1.1, "c1": -0.6}, -0.5), symbolic=False),  # sympy sorts numbers
    # literals of active values
    at(list_literal, (0.7, -1.2), (1.5, 0.4)),
    at(tuple_indexed_in_loop, (0.7, -1.2, 0.3), (1.5, 0.4, -0.8)),
    at(dict_literal, (0.7, -1.2), (1.5, 0.4)),
    at(nested_literal, (0.7, -1.2), (1.5, 0.4)),
    at(literal_of_containers, ([0.8], 0.5), ([0.4, -0.9], 1.5), (numbers(4, "loc"), -0.3)),
    # building
    at(powers_appended, (0.7,), (-1.3,)),
    at(squares_appended, ([0.8],), ([0.4, -0.9],), (numbers(5, "sa"),)),
    at(zeros_then_filled, ([0.8],), ([0.4, -0.9],), (numbers(5, "ztf"),)),
    at(explicit_euler, (0.8, 0.1), (-1.2, 0.25)),
    at(euler_trajectory_loss, (0.8, 0.1), (-1.2, 0.25)),
    at(prefix_sums, ([0.8],), ([0.4, -0.9],), (numbers(5, "ps"),)),
    at(overwritten_in_place, ([0.8],), ([0.4, -0.9],), (numbers(5, "oip"),)),
    at(element_overwritten_twice, ([0.8],), ([0.4, -0.9],), (numbers(5, "eot"),)),
    at(smoothing_passes, ([0.8],), ([0.4, -0.9],), (numbers(5, "sp"),)),
    at(grid_of_values, (0.7, -0.3), (1.2, 0.5)),
    # comprehensions
    at(squares_comprehension, ([0.8],), ([0.4, -0.9],), (numbers(5, "sc"),)),
    at(positive_part_sum, ([0.8],), ([0.4, -0.9],), (numbers(6, "pps"),), kinky=True),
    at(even_positions, ([0.8],), ([0.4, -0.9],), (numbers(5, "ep"),)),
    at(outer_product_sum, ([0.8], [0.3]), ([0.4, -0.9], [1.1, 0.2, -0.5]),
       (numbers(4, "ops.x"), numbers(2, "ops.y"))),
    at(pairwise_distances, ([0.8],), ([0.4, -0.9],), (numbers(5, "pd"),)),
    at(products_of_pairs, ([(0.8, 0.3)],), ([(0.4, -0.9), (1.2, 0.5)],),
       ([(0.1, 0.2), (0.3, 0.4), (-0.5, 0.6)],)),
    at(polynomial_enumerate, ([0.8], 0.5), ([0.4, -0.9], 1.3), (numbers(5, "pe"), -0.7)),
    at(nested_comprehension, ([[0.8]],), (matrix(2, 3, "nc"),), (matrix(3, 2, "nc2"),),
       kinky=True),
    at(matrix_comprehension, ([0.8],), ([0.4, -0.9],), (numbers(4, "mc"),)),
    # helpers
    at(norm_by_helper, ([0.8],), ([0.4, -0.9],), (numbers(5, "nbh"),)),
    at(scaled_then_summed, ([0.8], 0.5), ([0.4, -0.9], 1.5), (numbers(4, "sts"), -0.3)),
    at(standardized_first, ([0.8],), ([0.4, -0.9],), (numbers(5, "sf"),)),
    at(quadratic_form, ([[0.7]], [0.3]), (matrix(2, 2, "qf"), [0.5, -0.4]),
       (matrix(3, 3, "qf3"), numbers(3, "qf3.v"))),
    at(sum_of_vectors, ([0.8], [0.1]), ([0.4, -0.9], [0.3, 0.2]),
       (numbers(4, "sov.u"), numbers(4, "sov.v"))),
    at(helper_returns_tuple, ((0.6, -1.2),), ([1.7, 0.3],)),
    at(helper_extends_a_list, ([0.8], 0.5), ([0.4, -0.9], 1.5), (numbers(4, "hel"), -0.3)),
    # reductions
    at(sum_with_start, ([0.8], 0.5), ([0.4, -0.9], 1.5), (numbers(5, "sws"), -0.3)),
    at(sum_of_list_with_start, ([0.8],), ([0.4, -0.9],), (numbers(5, "sols"),)),
    at(min_times_max, ([0.8],), ([0.4, -0.9],), (numbers(5, "mtm"),), kinky=True),
    at(max_of_squares, ([0.8],), ([0.4, -0.9],), (numbers(5, "mos"),), kinky=True),
    at(fsum_of_list, ([0.8],), ([0.4, -0.9],), (numbers(5, "fol"),)),
    at(fsum_of_generator, ([0.8],), ([0.4, -0.9],), (numbers(5, "fog"),)),
    at(prod_of_list, ([0.8],), ([0.4, -0.9],), (numbers(5, "pol"),), ([2, 3],)),
    at(prod_of_generator, ([0.8],), ([0.4, -0.9],), (numbers(5, "pog"),)),
    at(softmax_with_max_shift, ([0.8],), ([0.4, -0.9],), (numbers(5, "swms"),)),
    # models
    at(polynomial, ([0.8], 0.5), ([0.4, -0.9], 1.3), (numbers(5, "poly"), -0.7)),
    at(horner, ([0.8], 0.5), ([0.4, -0.9], 1.3), (numbers(5, "horner"), -0.7)),
    at(softmax_first, ([0.8],), ([0.4, -0.9],), (numbers(5, "smf"),)),
    at(logsumexp, ([0.8],), ([0.4, -0.9],), (numbers(5, "lse"),)),
    at(cross_entropy, ([0.8, -0.2], 0), ([0.4, -0.9, 1.1], 2), (numbers(5, "ce"), -1),
       wrt="logits"),
    at(mlp_lists, ([[0.5]], [0.1], [1.2], [0.7]),
       (matrix(2, 3, "mlp.w1"), numbers(2, "mlp.b1"), numbers(2, "mlp.w2"),
        numbers(3, "mlp.x")),
       wrt=("w1", "b1", "w2")),
    at(mlp_over_layers,
       ([(matrix(1, 2, "mol.w"), [0.1])], [0.4, -0.2], [0.5]),
       ([(matrix(3, 2, "mol.w1"), numbers(3, "mol.b1")),
         (matrix(2, 3, "mol.w2"), numbers(2, "mol.b2"))], [0.4, -0.2], [0.5, -0.1]),
       wrt="layers"),
    at(least_squares, ((0.5, -0.3), _data(1, "ls")), ([1.5, 0.25], _data(2, "ls")),
       ((0.7, 0.1), _data(6, "ls")), wrt="params"),
    at(least_squares_comprehension, ((0.5, -0.3), _data(1, "lsc")),
       ([1.5, 0.25], _data(2, "lsc")), ((0.7, 0.1), _data(6, "lsc")), wrt="params"),
    at(rosenbrock, ([0.8, 1.1],), (numbers(3, "rb", -1.5, 1.5),),
       (numbers(10, "rb10", -1.5, 1.5),)),
    at(rosenbrock_loop, ([0.8, 1.1],), (numbers(3, "rbl", -1.5, 1.5),),
       (numbers(10, "rbl10", -1.5, 1.5),)),
    at(dict_model_loss, ({"w": 0.5, "b": -0.3, "decay": 0.1}, [0.4], [1.0]),
       ({"w": 1.5, "b": 0.2, "decay": 0.01}, numbers(4, "dml.x"), numbers(4, "dml.y")),
       wrt="params"),
    at(ridge_over_a_dict, ({"w": [0.5], "b": 0.1}, _rows(1, 1, "rod")),
       ({"w": [0.5, -0.3], "b": 0.1}, _rows(3, 2, "rod2")),
       ({"b": -0.2, "w": numbers(3, "rod3")}, _rows(4, 3, "rod3")), wrt="params"),
    at(gaussian_negative_log_likelihood, ((0.3, -0.2), [0.5]),
       ([0.1, 0.4], numbers(5, "gnll", -2, 2)), wrt="theta"),
    at(weighted_mean, ([0.8], [0.5]), ([0.4, -0.9], [0.3, 1.2]),
       (numbers(4, "wm.x"), numbers(4, "wm.w", 0.2, 2.0))),
    at(oscillator_state, ((0.5, 0.0), 0.1), ([1.2, -0.4], 0.2), wrt="state"),
    at(attention_score, ([0.5, -0.2], [[0.3, 0.1]], [1.5]),
       (numbers(2, "att.q"), matrix(3, 2, "att.k"), numbers(3, "att.v"))),
    at(logistic_regression, ([0.5], _labelled(2, 1, "lr1")),
       (numbers(3, "lr.w"), _labelled(4, 3, "lr3")), wrt="weights"),
    at(kinetic_energy, ([1.5], [[0.3, -0.4]]),
       ([1.0, 2.5], [numbers(3, "ke.v1"), numbers(3, "ke.v2")])),
    at(trapezoid_rule, ([0.8, 0.3], 0.5), ([0.4, -0.9, 1.1], 0.25),
       (numbers(6, "tr"), 0.1)),
    at(moving_average, ([0.8, 0.3],), ([0.4, -0.9, 1.1],), (numbers(6, "ma"),)),
    # lists used as stacks
    at(pushdown_evaluation, ([0.5, -1.2, 0.8],), (numbers(3, "pde"),), ([1.5, 0.3, -0.7],)),
    at(window_from_the_end, ([0.8],), ([0.4, -0.9],), (numbers(5, "wfe"),)),
    at(built_then_unwound, ([0.8], 0.5), ([0.4, -0.9], 1.3), (numbers(5, "btu"), -0.7)),
    at(peek_and_measure, (0.7, -1.2), (1.5, 0.4), (-0.3, 0.9)),
    at(bound_methods, ([0.8],), ([0.4, -0.9],), (numbers(5, "bm"),), symbolic=False),
    at(drop_the_last, ([0.8, 0.3], 1.5), ([0.4, -0.9, 1.1], -0.5), (numbers(6, "dtl"), 0.7)),
    at(popped_then_passed, ([0.8, 0.3],), ([0.4, -0.9, 1.1],), (numbers(6, "ptp"),)),
    at(shrinking_sums, ([0.8],), ([0.4, -0.9],), (numbers(5, "ss"),)),
    at(largest_after_pops, ([0.8, 0.3],), ([0.4, -0.9, 1.1],), (numbers(6, "lap"),),
       kinky=True),
    at(stack_of_running_products, (0.7, -1.2), (1.5, 0.4), (-0.3, 0.9)),
    at(pop_by_position, ([0.8, 0.3], 0), ([0.4, -0.9, 1.1], 1), (numbers(5, "pbp"), -2),
       (numbers(4, "pbp"), -4), wrt="xs"),
    at(pop_from_the_front, (0.7, -1.2), (1.5, 0.4), (-0.3, 0.9)),
    at(pop_second_to_last, ([0.8, 0.3],), ([0.4, -0.9, 1.1],), (numbers(6, "pstl"),)),
    # ranges held as values
    at(every_other_squared, ([0.8],), ([0.4, -0.9],), (numbers(5, "eos"),)),
    at(neighbour_products, ([0.8],), ([0.4, -0.9],), (numbers(5, "np"),)),
    at(product_of_the_first, ([0.8, 0.3], -2), ([0.4, -0.9, 1.1], 0), (numbers(5, "pf"), 3),
       wrt="xs"),
    at(cubes_by_position, ([0.8],), ([0.4, -0.9, 1.1],)),
    at(ends_of_a_backward_range, ([0.8],), ([0.4, -0.9],), (numbers(5, "ebr"),)),
    at(differences_over_positions, ([0.8],), ([0.4, -0.9],), (numbers(5, "dop"),)),
    at(smallest_by_order, ([0.8],), ([0.4, -0.9, 1.1],), (numbers(5, "sbo"),), kinky=True,
       symbolic=False),  # (sympy reads no key=xs.__getitem__)
    at(ranked_by_position, ([0.8],), ([0.4, -0.9, 1.1],)),
    at(backward_over_a_range, ([0.8],), ([0.4, -0.9, 1.1],)),
    at(empty_range_reversed, ([0.8],), ([0.4, -0.9],)),
]
