"""Parameters held in objects, as ML and science code holds them: namedtuples and
dataclasses of parameters (``p.w``), nested (a network of layers), plain instances read
as data (``system.mass``), bound methods (``model.loss``) and instances with
``__call__`` (``spring``), methods calling methods (``self.forward(x)``).

Each ``Case`` is a function (a plain one, a bound method, a callable instance), the
argument tuples it is tested at, and what to differentiate by.  ``tests/end_to_end/
test_objects.py`` checks every one against the tape and against finite differences
along random directions; a plain function is checked against sympy too where the sympy
witness reads it (it does not read attributes yet, so none here).
"""

import math
from collections import namedtuple
from dataclasses import dataclass

Params = namedtuple("Params", "w b")
Layer = namedtuple("Layer", ["w", "b"])
Gaussian = namedtuple("Gaussian", "mu log_sigma")


@dataclass
class Linear:
    w: float
    b: float


@dataclass(frozen=True)
class Oscillator:
    omega: float
    damping: float
    label: str = "osc"  # a static field: kept in the gradient as it is


@dataclass
class Net:
    layers: list
    scale: float = 1.0
    name: str = "net"


@dataclass
class Mixture:
    weights: list
    means: list
    width: float = 1.0


class Plain:
    """Equal by attributes (what the corpus collectors compare arguments by, before and
    after a call); nothing else of symdiff reads it."""

    def __eq__(self, other):
        return type(self) is type(other) and vars(self) == vars(other)


class System(Plain):
    """A plain instance: its attributes are data unless wrt names it."""

    def __init__(self, mass, k, name="spring"):
        self.mass, self.k, self.name = mass, k, name


class Model(Plain):
    def __init__(self, w, b):
        self.w, self.b = w, b

    def predict(self, x):
        return self.w * x + self.b

    def loss(self, x, y):
        return (self.predict(x) - y) ** 2

    def penalized(self, x, y, lam):
        return self.loss(x, y) + lam * (self.w ** 2 + self.b ** 2)


class Spring(Plain):
    def __init__(self, k, rest):
        self.k, self.rest = k, rest

    def __call__(self, x):
        return 0.5 * self.k * (x - self.rest) ** 2


class Pendulum(Plain):
    def __init__(self, length, g=9.81):
        self.length, self.g = length, g

    def energy(self, theta, omega):
        kinetic = 0.5 * (self.length * omega) ** 2
        return kinetic + self.g * self.length * (1.0 - math.cos(theta))


@dataclass
class Quadratic:
    a: float
    b: float
    c: float

    def __call__(self, x):
        return self.a * x * x + self.b * x + self.c


@dataclass(frozen=True)
class Case:
    """A function, its argument tuples, what to differentiate by (None: the default)."""

    fn: object
    points: tuple
    wrt: object = None
    name: str = None

    @property
    def label(self):
        return self.name or getattr(self.fn, "__name__", type(self.fn).__name__)


def at(fn, *points, wrt=None, name=None):
    return Case(fn, tuple(points), wrt, name)


# --- namedtuples ------------------------------------------------------------------------

def linear_loss(p, x, y):
    return (p.w * x + p.b - y) ** 2


def tanh_unit(p, x):
    return math.tanh(p.w * x + p.b) ** 2


def unpacked_namedtuple(p, x):
    w, b = p
    return math.exp(w * x) + b * b


def indexed_namedtuple(p, x):
    return p[0] * x + p[1] * math.sin(x)


def gaussian_nll(g, x):
    sigma = math.exp(g.log_sigma)
    return 0.5 * ((x - g.mu) / sigma) ** 2 + g.log_sigma


def two_records(p, q, x):
    return p.w * q.w * x + p.b - q.b


def records_in_a_loop(p, xs, ys):
    total = 0.0
    for x, y in zip(xs, ys):
        total = total + (p.w * x + p.b - y) ** 2
    return total / len(xs)


def helper_of_record(layer, x):
    return math.tanh(layer.w * x + layer.b)


def through_helper(p, x):
    return helper_of_record(p, x) * helper_of_record(p, 2.0 * x)


# --- dataclasses ------------------------------------------------------------------------

def dataclass_loss(model, x, y):
    prediction = model.w * x + model.b
    return (prediction - y) ** 2


def damped(osc, t):
    return math.exp(-osc.damping * t) * math.cos(osc.omega * t)


def network(net, x):
    h = x
    for layer in net.layers:
        h = math.tanh(layer.w * h + layer.b)
    return net.scale * h * h


def network_indexed(net, x):
    first, last = net.layers[0], net.layers[-1]
    return first.w * x + last.b * net.scale


def mixture_density(m, x):
    total = 0.0
    for w, mu in zip(m.weights, m.means):
        total = total + w * math.exp(-((x - mu) / m.width) ** 2)
    return math.log(total)


def list_of_records(layers, x):
    return sum(layer.w * x + layer.b for layer in layers)


def dict_of_records(params, x):
    return params["a"].w * x + params["b"].b * x * x


def record_holding_a_dict(net, x):
    return net.layers[0]["w"] * x + net.scale


# --- objects with ``__call__`` passed and called, functions they hold --------------------

class Affine(namedtuple("Affine", "w b")):
    def __call__(self, x):
        return self.w * x + self.b


def called_quadratic(q, x):
    return q(x) * q(0.5 * x)


def called_affine(layer, x):
    return layer(layer(x)) ** 2


def called_spring(spring, x):
    return spring(x) + spring(2.0 * x)


def called_in_turn(layers, x):
    for layer in layers:
        x = layer(x)
    return x * x


def called_by_index(layers, x):
    return layers[1](layers[0](x)) + layers[-1](x)


# --- plain instances, read as data ------------------------------------------------------

def energy(x, v, system):
    return 0.5 * system.mass * v ** 2 + 0.5 * system.k * x ** 2


def force(system, x):
    return -system.k * x / system.mass


# --- objects defined at module level, read as data -------------------------------------

SPRING = Oscillator(1.5, 0.2, "module")  # a frozen dataclass
PHYSICS = namedtuple("Physics", "g rho")(9.81, 1.2)
SETTINGS = Linear(0.5, -0.25)  # a dataclass whose fields may change: a snapshot is read


def module_spring_energy(x, v):
    return 0.5 * SPRING.omega ** 2 * x * x + 0.5 * v * v - SPRING.damping * x * v


def drag_and_gravity(h, v):
    return PHYSICS.g * h + 0.5 * PHYSICS.rho * v * abs(v)


def _settings_line(x):
    return SETTINGS.w * x + SETTINGS.b


def settings_through_helper(x, y):
    return (_settings_line(x) - y) ** 2 + math.tanh(SETTINGS.w * y)


def module_and_argument_records(p, x):
    return (p.w * x + p.b) * SPRING.omega + PHYSICS.rho * p.w ** 2


def integrated_with_module_constants(x, v):
    for _ in range(3):
        v = v - 0.1 * (SPRING.omega ** 2 * x + SPRING.damping * v)
        x = x + 0.1 * v
    return x * x + v * v


# Not ``CASES``: the corpus collectors of numbers and containers (tests/ir) read their
# cases' arguments as containers of numbers; these cases are read by their own tests.
OBJECT_CASES = [
    at(linear_loss, (Params(0.5, -0.3), 1.2, 0.7), (Params(1.5, 0.25), -0.8, 0.1)),
    at(linear_loss, (Params(0.5, -0.3), 1.2, 0.7), wrt="p", name="linear_loss_p"),
    at(tanh_unit, (Params(0.5, 0.1), 1.5), (Params(-0.4, 0.3), 0.2)),
    at(unpacked_namedtuple, (Params(0.3, 0.2), 1.1), (Params(-0.5, 1.5), 0.4)),
    at(indexed_namedtuple, (Params(0.3, 0.2), 1.1), (Params(-0.5, 1.5), 0.4)),
    at(gaussian_nll, (Gaussian(0.2, -0.1), 0.9), (Gaussian(-1.0, 0.4), 0.3)),
    at(two_records, (Params(0.5, 0.2), Layer(1.5, -0.4), 0.7)),
    at(records_in_a_loop, (Params(0.5, 0.2), [0.1, 0.5, 0.9], [1.0, 0.2, -0.3]),
       wrt="p"),
    at(through_helper, (Params(0.5, 0.2), 0.7), (Layer(-0.3, 0.6), 1.3)),
    at(dataclass_loss, (Linear(0.5, -0.3), 1.2, 0.7), (Linear(2.0, 1.0), -0.5, 0.3)),
    at(damped, (Oscillator(2.0, 0.3), 1.1), (Oscillator(0.5, 0.1, "slow"), 2.5)),
    at(network, (Net([Layer(0.5, 0.1), Layer(-0.3, 0.2)], 2.0), 1.5),
       (Net([Layer(0.8, -0.1)], 0.5, "one"), 0.3),
       (Net([Layer(0.5, 0.1), Layer(-0.3, 0.2), Layer(1.1, 0.0)], 1.0), -0.7)),
    at(network_indexed, (Net([Layer(0.5, 0.1), Layer(-0.3, 0.2)], 2.0), 1.5)),
    at(mixture_density, (Mixture([0.3, 0.7], [-0.5, 0.8], 1.2), 0.1),
       (Mixture([0.2, 0.5, 0.3], [0.0, 1.0, 2.0]), 0.6)),
    at(list_of_records, ([Layer(0.5, 0.1), Layer(-0.3, 0.2)], 1.5), wrt="layers"),
    at(dict_of_records, ({"a": Params(0.5, 0.1), "b": Params(-0.3, 0.2)}, 1.5)),
    at(record_holding_a_dict, (Net([{"w": 0.5}], 2.0), 1.5)),
    at(energy, (1.0, 2.0, System(2.0, 3.0)), (-0.5, 0.3, System(0.5, 7.0, "stiff"))),
    at(energy, (1.0, 2.0, System(2.0, 3.0)), wrt="system", name="energy_by_system"),
    at(force, (System(2.0, 3.0), 0.4), wrt=(0, 1)),
    at(Model(0.5, -0.2).loss, (1.0, 2.0), (0.3, -1.0), name="bound_loss"),
    at(Model(0.5, -0.2).penalized, (1.0, 2.0, 0.1), name="bound_penalized"),
    at(Model(0.5, -0.2).loss, (1.0, 2.0), wrt=("self", "x"), name="bound_loss_self"),
    at(Pendulum(1.5).energy, (0.3, 1.2), (-1.0, 0.4), name="pendulum_energy"),
    # an instance with ``__call__`` (grad(spring) reads it so: tests/end_to_end/
    # test_object_kinds.py), stated by its method, as the corpus collectors read functions
    at(Spring(3.0, 0.5).__call__, (2.0,), (-0.4,), name="spring"),
    at(Quadratic(1.0, -2.0, 0.5).__call__, (0.7,), (-1.3,), name="quadratic"),
    at(Quadratic(1.0, -2.0, 0.5).__call__, (0.7,), wrt="self", name="quadratic_self"),
    at(called_quadratic, (Quadratic(1.0, -2.0, 0.5), 0.7), (Quadratic(0.3, 0.2, -1.0), -1.3)),
    at(called_affine, (Affine(0.5, -0.3), 1.2), (Affine(-1.5, 0.25), 0.4)),
    at(called_spring, (Spring(3.0, 0.5), 0.8), wrt=("spring", "x")),
    at(called_in_turn, ([Affine(0.5, -0.3), Affine(1.5, 0.2)], 0.7),
       ([Affine(0.9, 0.1), Affine(-0.4, 0.3), Affine(1.1, 0.0)], -0.6), wrt=("layers", "x")),
    at(called_in_turn, ((Affine(0.5, -0.3), Quadratic(1.0, -2.0, 0.5)), 0.7),
       wrt=("layers", "x"), name="called_in_turn_unlike"),
    at(called_by_index, ([Affine(0.5, -0.3), Affine(1.5, 0.2)], 0.7), wrt=("layers", "x")),
    at(module_spring_energy, (0.7, -0.3), (-1.2, 0.5)),
    at(drag_and_gravity, (2.0, 0.7), (0.5, -1.3)),
    at(settings_through_helper, (0.7, 0.2), (-1.1, 0.9)),
    at(module_and_argument_records, (Params(0.5, -0.3), 1.2), (Params(1.5, 0.25), -0.8)),
    at(integrated_with_module_constants, (0.7, -0.3), (1.5, 0.2)),
]
