"""Functions passed as values, as numerical code passes them: an ODE integrator given
its right-hand side (``euler(rhs, x0, dt, n)``, a Runge-Kutta step), a root finder or
a quadrature given a nested function or a lambda, a helper handing its function on to
another, the same integrator given two different functions.

Each ``Case`` is a function, the argument tuples it is tested at (a function among
them where the differentiated function takes one) and what to differentiate by.
``tests/end_to_end/test_functions_as_values.py`` checks every one against the tape,
against finite differences along random directions, and against sympy where the sympy
witness reads it.
"""

import functools
import math
from dataclasses import dataclass
from functools import partial


@dataclass(frozen=True)
class Case:
    fn: object
    points: tuple
    wrt: object = None
    name: str = None
    symbolic: bool = True  # whether the sympy witness reads it (not ``**d``)

    @property
    def label(self):
        return self.name or self.fn.__name__


def at(fn, *points, wrt=None, name=None, symbolic=True):
    return Case(fn, tuple(points), wrt, name, symbolic)


# --- integrators given their right-hand side ---------------------------------------------

def euler(rhs, x, dt, n):
    for _ in range(n):
        x = x + dt * rhs(x)
    return x


def rk4_step(f, t, x, h):
    k1 = f(t, x)
    k2 = f(t + h / 2, x + h * k1 / 2)
    k3 = f(t + h / 2, x + h * k2 / 2)
    k4 = f(t + h, x + h * k3)
    return x + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6


def trapezoid(f, a, b, n):
    h = (b - a) / n
    total = 0.5 * (f(a) + f(b))
    for i in range(1, n):
        total = total + f(a + i * h)
    return total * h


def decay(x):
    return -0.5 * x + math.sin(x)


def logistic(x):
    return x * (1.0 - x)


def forced(t, x):
    return -x + math.cos(t)


def bump(x):
    return math.exp(-x * x)


# --- functions handed in by the differentiated function ----------------------------------

def simulate(x0, k):
    def rhs(x):
        return -k * x * x
    return euler(rhs, x0, 0.1, 5)


def simulate_lambda(x0, k):
    return euler(lambda x: k * math.cos(x), x0, 0.2, 4)


def two_models(x0, a):
    return euler(decay, x0, 0.1, 3) * euler(logistic, a, 0.05, 3)


def integrate_twice(x0, h):
    x = rk4_step(forced, 0.0, x0, h)
    return rk4_step(forced, h, x, h)


def newton_root(c):
    def g(x):
        return x * x - c
    x = 1.0
    for _ in range(6):
        x = x - g(x) / (2.0 * x)
    return x


def apply_twice(f, x):
    return f(f(x))


def compose(x, s):
    return apply_twice(lambda v: s * math.tanh(v), x)


def forward_on(f, x):  # a helper handing its function on to another
    return apply_twice(f, x) + f(x)


def handed_on(x, w):
    def layer(v):
        return math.sin(w * v)
    return forward_on(layer, x)


def area(width, height):
    return trapezoid(lambda t: height * bump(t / width), -1.0, 1.0, 8)


def by_keyword(x0, k):
    return euler(x=x0, dt=0.1, n=3, rhs=lambda x: -k * x)


def smooth_max(a, b, softness):
    def soft(v):
        return softness * math.log(1.0 + math.exp(v / softness))
    return a + soft(b - a)


# --- arguments spread and gathered: ``f(t, x, *p)``, ``g(x, **options)`` ------------------

def damped_rhs(t, x, a, b):
    return -a * x + b * math.cos(t)


def step_with(f, t, x, h, *p):
    return x + h * f(t, x, *p)


def step_gathered(x, a, b):
    return step_with(damped_rhs, 0.0, x, 0.1, a, b) + step_with(forced, 0.5, x, 0.2)


def spread_tuple(x, p):
    return damped_rhs(0.1, x, *p)


def count_rest(*values):
    total = 0.0
    for v in values:
        total = total + v * v
    return total * len(values)


def gathered_loop(a, b, c):
    return count_rest(a, b, c) + count_rest(a)


def scaled_sine(x, scale=1.0, shift=0.0):
    return scale * math.sin(x) + shift


def options_forwarded(x, s, c):
    options = {"scale": s, "shift": c}
    return scaled_sine(x, **options)


def integrate_with(x0, k, w):
    params = (k, w)
    x = x0
    for i in range(3):
        x = step_with(damped_rhs, 0.1 * i, x, 0.1, *params)
    return x


# --- ``callable`` decided from the kinds, functions of math passed as values ----------------

def apply_or_scale(g, x):
    if callable(g):
        return g(x) * x
    return g * x * x


def optional_transform(x, f=None):
    if callable(f):
        return f(x) + x
    return x * x


def integrate_math(x0, dt):
    return euler(math.sin, x0, dt, 4) + trapezoid(math.exp, 0.0, x0, 4)


# --- functools.partial, bound methods and objects with ``__call__`` as values --------------

def rate_rhs(x, k):
    return -k * x * math.cos(x)


def with_partial(x0, k):
    return euler(functools.partial(rate_rhs, k=k), x0, 0.1, 3)


def partial_bound_to_a_name(x0, k):
    step = partial(rate_rhs, k=k)
    return step(x0) + euler(step, x0, 0.1, 2)


def partial_of_the_first(x0, r):
    return euler(partial(forced, r), x0, 0.2, 3)


@dataclass
class Decay:
    rate: float

    def __call__(self, x):
        return -self.rate * x * x

    def damped(self, x):
        return -self.rate * x + 0.1 * x * x


def with_callable_object(x0, d):
    return euler(d, x0, 0.2, 3)


def with_bound_method(x0, d):
    return euler(d.damped, x0, 0.1, 4) + trapezoid(d.damped, 0.0, x0, 3)


# Not ``CASES``: the corpus collectors of numbers and containers (tests/ir) read their
# cases' arguments as containers of numbers; these cases are read by their own tests.
VALUE_CASES = [
    at(euler, (decay, 1.0, 0.1, 3), (logistic, 0.3, 0.05, 5), wrt=("x", "dt")),
    at(euler, (decay, 1.0, 0.1, 3), wrt="x", name="euler_x"),
    at(rk4_step, (forced, 0.0, 1.0, 0.1), (forced, 0.5, -0.3, 0.2), wrt=("t", "x", "h")),
    at(trapezoid, (bump, -1.0, 1.5, 6), wrt=("a", "b")),
    at(apply_twice, (decay, 0.7), (logistic, 0.4), wrt="x", name="apply_twice"),
    at(simulate, (1.0, 0.3), (0.5, 1.2)),
    at(simulate_lambda, (1.0, 0.3), (-0.4, 0.8)),
    at(two_models, (1.0, 0.3), (0.2, 0.6)),
    at(integrate_twice, (1.0, 0.1), (-0.5, 0.3)),
    at(newton_root, (2.0,), (0.7,)),
    at(compose, (0.4, 1.5), (-1.0, 0.5)),
    at(handed_on, (0.4, 1.5), (-1.0, 0.5)),
    at(area, (0.8, 1.3), (1.5, 0.4)),
    at(by_keyword, (1.0, 0.3), (0.5, 1.2)),
    at(smooth_max, (0.3, 0.7, 0.5), (1.0, -0.2, 2.0)),
    at(step_gathered, (1.0, 0.5, 0.2), (-0.3, 1.5, 0.7)),
    at(spread_tuple, (1.0, (0.5, 0.2)), (0.4, (-1.0, 2.0))),
    at(gathered_loop, (0.3, -0.5, 1.2)),
    at(options_forwarded, (0.7, 2.0, 0.3), (-0.2, 0.5, 1.0), symbolic=False),
    at(integrate_with, (1.0, 0.5, 0.2), (0.2, 1.1, -0.4)),
    at(apply_or_scale, (decay, 0.7), (math.sin, -0.4), wrt="x", name="apply_or_scale_given_f"),
    at(apply_or_scale, (2.0, 0.7), (-0.5, 1.3), name="apply_or_scale_given_a_number"),
    at(optional_transform, (0.7,), (0.7, None), (0.7, math.tanh), (-0.3, bump), wrt="x"),
    at(integrate_math, (1.0, 0.1), (-0.4, 0.3)),
    at(with_partial, (1.0, 0.3), (-0.5, 1.2)),
    at(partial_bound_to_a_name, (1.0, 0.3), (0.4, -0.7)),
    at(partial_of_the_first, (0.7, 1.5), (-0.2, 0.4)),
    at(with_callable_object, (1.0, Decay(0.5)), (0.3, Decay(-1.5)), wrt="x0"),
    at(with_bound_method, (1.0, Decay(0.5)), (0.3, Decay(-1.5)), wrt="x0"),
]
