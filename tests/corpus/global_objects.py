"""Objects defined at module level (or in a closure) and read as data, as science and
ML code holds its constants and its models: ``system.mass``, ``system.energy(v)``,
``np.sum(system.W @ x)``, ``model.predict(x)`` of a layer built once, an object with
``__call__``, a method calling another through ``self``, an object held in a field of
another, an object passed to a helper.

Each entry of ``SCALAR_CASES`` is ``(function, points)`` of a function of numbers;
``ARRAY_CASES`` the same of functions of arrays.  ``tests/end_to_end/
test_global_objects.py`` checks each with ``symdiff.check`` (generated against the tape,
sympy where it reads the function, and finite differences) at every point.  The objects'
fields are data: nothing here differentiates by them.
"""

import math
from collections import namedtuple
from dataclasses import dataclass

import numpy as np


class System:
    """A plain class: its fields set in ``__init__``."""

    def __init__(self, mass, mode="soft"):
        self.mass = mass
        self.mode = mode
        self.coeffs = [1.0, -0.5, 0.25]
        self.W = np.array([[0.5, -1.0, 0.25], [1.5, 0.3, -0.7]])
        self.damping = None

    def energy(self, v):
        return 0.5 * self.mass * v ** 2

    def force(self, x):
        if self.mode == "soft":
            return -self.mass * math.tanh(x)
        return -self.mass * x

    def total(self, x, v):
        return self.energy(v) + x * self.force(x)  # a method calling methods through self

    def series(self, x):
        s = 0.0
        for c in self.coeffs:
            s = s * x + c
        return s

    def damped(self, v):
        if self.damping is None:
            return self.energy(v)
        return self.energy(v) * self.damping

    def split(self, x):
        return self.mass * x, math.sin(x)

    def transposed(self, x):
        return np.sum(x @ self.W.T) + self.W.shape[0] * np.sum(x * x)

    @staticmethod
    def square(x):
        return x * x

    def through_static(self, x):
        return self.square(x) + self.mass * x


class Spring:
    """An object called as a function: ``spring(x)``."""

    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return 0.5 * self.k * x * x + math.sin(x)


class Layer:
    """A layer of a network built once at module level, its weights data."""

    def __init__(self, W, b):
        self.W = W
        self.b = b

    def predict(self, x):
        return np.tanh(self.W @ x + self.b)

    def score(self, x):
        return np.sum(self.predict(x) ** 2)

    def __call__(self, x):
        return self.score(x)


class Network:
    """Layers held in fields of another object."""

    def __init__(self, first, scale):
        self.first = first
        self.scale = scale

    def loss(self, x):
        return self.scale * self.first.score(x)


class Decay:
    """A right-hand side of an ODE, handed to an integrator as a bound method."""

    def __init__(self, k):
        self.k = k

    def rhs(self, x):
        return -self.k * math.sin(x)

    def run(self, x0):
        return euler(self.rhs, x0, 0.1, 4)


def euler(rhs, x, dt, n):
    for _ in range(n):
        x = x + dt * rhs(x)
    return x


@dataclass
class Settings:
    gain: float
    verbose: bool = False


Physics = namedtuple("Physics", "g rho")


@dataclass(slots=True)
class Gain:
    """A dataclass with slots (no ``__dict__``) and a method."""

    k: float

    def apply(self, x):
        return self.k * x * x


class Line(namedtuple("Line", "a b")):
    """A namedtuple with a method."""

    def at(self, x):
        return self.a * x + self.b

system = System(2.0)
stiff = System(3.5, mode="hard")
spring = Spring(4.0)
settings = Settings(1.5)
physics = Physics(9.81, 1.2)
model = Layer(np.array([[0.2, -0.4, 0.1], [0.7, 0.3, -0.5]]), np.array([0.05, -0.1]))
network = Network(model, 0.5)
decay = Decay(0.7)
gain = Gain(2.0)
line = Line(1.5, 0.5)


def field_times(v):
    return system.mass * v ** 2


def method_energy(v):
    return system.energy(v)


def method_force_hard(x):
    return stiff.force(x) + system.force(x)


def methods_through_self(x, v):
    return system.total(x, v)


def list_field_loop(x):
    return system.series(x) * math.exp(-x)


def list_field_element(x):
    return system.coeffs[1] * x ** 3


def none_field(v):
    return system.damped(v)


def static_method(x):
    return system.through_static(x)


def called_object(x):
    return spring(x) * 2.0


def dataclass_fields(x):
    return settings.gain * x ** 2 if not settings.verbose else x


def namedtuple_fields(h, v):
    return physics.g * h + 0.5 * physics.rho * v * abs(v)


def slots_dataclass_method(x):
    return gain.apply(x) + gain.k


def namedtuple_method(x):
    return line.at(x) * x


def _weighted_total(values, x):
    s = 0.0
    for v in values:
        s = s + v * x * x
    return s


def namedtuple_as_table(x):
    return _weighted_total(physics, x)


def array_field_elements(x):
    return system.W[0, 1] * x * x + system.W[1, 2] * x  # arrays read in a function of numbers


def _kinetic(body, v):
    return body.energy(v) + body.mass * v


def object_passed_to_helper(v):
    return _kinetic(system, v) + _kinetic(stiff, 2.0 * v)


def make_closure(mass):
    local = System(mass)  # soft: math.tanh, which the tape runs on its own math

    def closed(x):
        return local.force(x) * x
    return closed


closed_over = make_closure(1.25)


def bound_method_to_integrator(x0):
    return euler(decay.rhs, x0, 0.1, 4)


def method_running_integrator(x0):
    return decay.run(x0) ** 2


def unpacked_method(x):
    p, q = system.split(x)
    return p * q


def array_field(x):
    return np.sum(system.W @ x)


def layer_predict(x):
    return np.sum(model.predict(x))


def layer_method_through_self(x):
    return model.score(x)


def layer_called(x):
    return model(x) + np.sum(x * x)


def array_field_transposed(x):
    return system.transposed(x)


def nested_objects(x):
    return network.loss(x)


def nested_field(x):
    return np.sum(network.first.W @ x) * network.scale


SCALAR_CASES = [
    (field_times, [(0.7,), (-1.3,)]),
    (method_energy, [(0.7,), (1.9,)]),
    (method_force_hard, [(0.4,), (-1.1,)]),
    (methods_through_self, [(0.3, 0.8), (-0.9, 1.4)]),
    (list_field_loop, [(0.6,), (1.7,)]),
    (list_field_element, [(0.6,), (-1.2,)]),
    (none_field, [(0.8,), (-0.4,)]),
    (static_method, [(0.8,), (-0.4,)]),
    (called_object, [(0.5,), (-1.5,)]),
    (dataclass_fields, [(0.5,), (2.5,)]),
    (namedtuple_fields, [(1.5, 0.3), (0.2, -0.9)]),
    (object_passed_to_helper, [(0.5,), (-1.5,)]),
    (closed_over, [(0.5,), (-1.5,)]),
    (bound_method_to_integrator, [(0.5,), (2.0,)]),
    (method_running_integrator, [(0.5,), (2.0,)]),
    (unpacked_method, [(0.4,), (-1.1,)]),
    (slots_dataclass_method, [(0.4,), (-1.1,)]),
    (namedtuple_method, [(0.4,), (-1.1,)]),
    (namedtuple_as_table, [(0.4,), (-1.1,)]),
    (array_field_elements, [(0.4,), (-1.1,)]),
]

X1 = np.array([0.3, -0.8, 1.1])
X2 = np.array([-0.5, 0.4, 0.9])
ARRAY_CASES = [
    (array_field, [(X1,), (X2,)]),
    (layer_predict, [(X1,), (X2,)]),
    (layer_method_through_self, [(X1,), (X2,)]),
    (layer_called, [(X1,), (X2,)]),
    (array_field_transposed, [(X1,), (X2,)]),
    (nested_objects, [(X1,), (X2,)]),
    (nested_field, [(X1,), (X2,)]),
]
