"""Records built inside the function: namedtuples and dataclasses made of its numbers
(``State(x=..., v=...)``, ``type(p)(w=..., b=...)``) and read by their fields, as ODE
steps and parameter updates are written.  ``tests/end_to_end/test_record_builds.py``
checks each against the tape, finite differences and, for its Hessian, finite
differences of the tape's gradient.
"""

import math
from collections import namedtuple
from dataclasses import dataclass

from .objects import at

State = namedtuple("State", "x v")
Scaled = namedtuple("Scaled", ["value", "scale", "unit"], defaults=[1.0, "m"])
Params = namedtuple("Params", "w b")


@dataclass
class Pair:
    left: float
    right: float
    label: str = "pair"


def by_keywords(x, v):
    s = State(x=x * x, v=math.sin(v))
    return s.x * s.v + s.v


def by_position(x, v):
    s = State(x + v, x * v)
    return s.x ** 2 - 3.0 * s.v


def with_defaults(x):
    s = Scaled(x * 2.0)
    t = Scaled(x, scale=x * x)
    return s.value * s.scale + t.value * t.scale


def with_a_flag(x, y):
    p = Pair(math.exp(x), y, label="weighted")
    if p.label == "weighted":
        return p.left * p.right
    return p.left + p.right


def _step(s, dt):
    return State(x=s.x + dt * s.v, v=s.v - dt * math.sin(s.x))


def through_a_helper(x, v):
    s = State(x, v)
    s = _step(s, 0.1)
    s = _step(s, 0.1)
    return s.x * s.x + s.v * s.v


def stepped_in_a_loop(x, v):
    s = State(x, v)
    for _ in range(4):
        s = _step(s, 0.05)
    return s.x * s.v


def like_the_parameter(p, x):
    q = type(p)(w=p.w * x, b=p.b - x)
    return math.tanh(q.w + q.b) * q.w


def record_to_a_helper(x, y):
    return _energy(State(x=x, v=y * y))


def _energy(s):
    return 0.5 * s.v * s.v + math.cos(s.x)


def updated_parameters(p, x, y):
    new = Params(w=p.w - 0.1 * (p.w * x - y) * x, b=p.b - 0.1 * (p.w * x - y))
    return (new.w * x + new.b - y) ** 2


@dataclass
class Layer:
    w: float
    act: object


def _leaky(z):
    return z if z > 0.0 else 0.01 * z


def _applied(layer, z):
    return layer.act(layer.w * z)


def holding_a_function(x, w):
    layer = Layer(w, math.tanh)
    return _applied(layer, x) * x


def layers_holding_functions(x, w, v):
    layers = [Layer(w, _leaky), Layer(v, _leaky)]
    h = x
    for layer in layers:
        h = layer.act(layer.w * h) + h
    return h


def alike_flags_in_a_loop(x, w, v):
    pairs = [Pair(w, x), Pair(v, x)]
    s = 0.0
    for pair in pairs:
        s += pair.left * pair.right
    return s


RECORD_CASES = [
    at(by_keywords, (0.7, 0.3), (-1.2, 2.0)),
    at(by_position, (0.7, 0.3), (1.5, -0.4)),
    at(with_defaults, (0.7,), (-1.3,)),
    at(with_a_flag, (0.2, 1.5), (-0.6, 0.4)),
    at(through_a_helper, (0.7, 0.3), (-0.2, 1.1)),
    at(stepped_in_a_loop, (0.3, 0.4), (-1.0, 0.8)),
    at(like_the_parameter, (Params(0.5, -0.2), 0.7), (Params(-1.0, 0.4), 1.3)),
    at(record_to_a_helper, (0.7, 0.3), (2.0, -1.0)),
    at(updated_parameters, (Params(0.5, -0.2), 0.7, 0.1), (Params(1.5, 0.3), -0.4, 1.0)),
    at(holding_a_function, (0.7, 0.3), (-1.2, 2.0)),
    at(layers_holding_functions, (0.7, 0.3, -0.5), (-1.2, 2.0, 0.4)),
    at(alike_flags_in_a_loop, (0.7, 0.3, -0.5), (-1.2, 2.0, 0.4)),
]
