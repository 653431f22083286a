"""Functions of dicts, lists, tuples (nested), namedtuples and dataclasses for forward
mode and second order: losses a Newton step is taken on, log-sum-exps, small models
with their parameters in a dict, physics energies of a list of positions, and training
steps that return new parameters (container-valued: Jacobians and VJPs).

``SCALAR`` lists ``Case``s (the format of ``containers.py``) of functions returning one
number, with the parameters to differentiate by: their Hessians, HVPs and Jacobians are
checked against finite differences of the gradient and of the function.  ``OBJECTS``
are those whose parameter is a namedtuple or dataclass (jvp and jacobian).  ``VALUED``
are functions returning containers (jacobian, jvp and vjp).
"""

import math
from collections import namedtuple
from dataclasses import dataclass

from .containers import at, matrix, numbers


def quadratic_loss(params, data):
    total = 0.0
    for x, y in data:
        r = params["w"] * x + params["b"] - y
        total += r * r
    return total / len(data) + 0.01 * params["w"] ** 2


def logsumexp(xs):
    m = max(xs)
    return m + math.log(sum(math.exp(x - m) for x in xs))


def cross_entropy(logits, target):
    m = max(logits)
    total = sum(math.exp(v - m) for v in logits)
    return m + math.log(total) - logits[target]


def nested_model(p, x):
    hidden = [math.tanh(w * x + b) for w, b in zip(p["layer"]["w"], p["layer"]["b"])]
    return (sum(v * hidden[i] for i, v in enumerate(p["out"])) - 0.5) ** 2


def rosenbrock_pair(ab):
    a, b = ab
    return (1.0 - a) ** 2 + 100.0 * (b - a * a) ** 2


def rosenbrock_list(xs):
    total = 0.0
    for i in range(len(xs) - 1):
        total += 100.0 * (xs[i + 1] - xs[i] ** 2) ** 2 + (1.0 - xs[i]) ** 2
    return total


def tiny_mlp(params, x):
    h = [math.tanh(sum(w * xi for w, xi in zip(row, x)) + b)
         for row, b in zip(params["W"], params["b"])]
    return sum(v * hj for v, hj in zip(params["v"], h))


def ridge(params, data, lam):
    w, b = params
    loss = 0.0
    for x, y in data:
        loss += (w * x + b - y) ** 2
    return loss + lam * (w * w + b * b)


def product_of_list(xs):
    return math.prod(xs)


def polynomial(coeffs, x):
    s = 0.0
    for i, c in enumerate(coeffs):
        s += c * x ** i
    return s * s


def cubes_over_keys(p):
    s = 0.0
    for k in p:
        s += p[k] ** 3 * math.exp(-p[k])
    return s


def joined_squares(xs, y):
    zs = xs + [y, y * y]
    return sum(z ** 2 for z in zs) * zs[0]


def tail_cubes(xs):
    tail = xs[1:]
    return sum(v ** 3 for v in tail) + xs[0] * tail[-1]


def gaussian_nll(theta, data):
    mu, log_sigma = theta
    sigma = math.exp(log_sigma)
    total = 0.0
    for x in data:
        total += 0.5 * ((x - mu) / sigma) ** 2 + log_sigma
    return total


def spring_chain(positions, k):
    energy = 0.0
    for i in range(len(positions) - 1):
        stretch = positions[i + 1] - positions[i] - 1.0
        energy += 0.5 * k * stretch ** 2 + 0.1 * stretch ** 4
    return energy


def dict_of_functions(p):
    return math.log(1.0 + p["a"] ** 2) + math.tanh(p["b"]) * p["a"] + math.exp(p["c"] * p["b"])


def attention_pool(scores, values):
    m = max(scores)
    weights = [math.exp(s - m) for s in scores]
    total = sum(weights)
    return sum(w * v for w, v in zip(weights, values)) / total


def rnn_loss(params, inputs):
    h = 0.0
    for x in inputs:
        h = math.tanh(params["w"] * h + params["u"] * x + params["b"])
    return (h - 0.25) ** 2


def sorted_trimmed(xs):
    s = sorted(xs)
    return sum(v * v for v in s[1:-1]) + s[-1] * s[0]


def smallest_square(xs):
    return min(xs) ** 2 + sum(xs)


def layered_params(layers, x):
    h = x
    for layer in layers:
        h = math.sin(layer["w"] * h + layer["b"])
    return h * h


Params = namedtuple("Params", "w b")


def namedtuple_model(p, x):
    return (p.w * x + p.b) ** 2 + math.sin(p.w * p.b)


@dataclass
class Spring:
    k: float
    rest: list
    name: str = "spring"


def dataclass_energy(s, x):
    return 0.5 * s.k * (x - s.rest[0]) ** 2 + s.rest[1] * x ** 3


def sgd_step(params, x, y):
    r = params["w"] * x + params["b"] - y
    return {"w": params["w"] - 0.1 * 2 * r * x, "b": params["b"] - 0.1 * 2 * r}


def moments(xs):
    mean = sum(xs) / len(xs)
    spread = {"mean": mean, "var": 0.0, "max": max(xs)}
    for v in xs:
        spread["var"] += (v - mean) ** 2 / len(xs)
    return spread


def _pairs(n, seed):
    xs, ys = numbers(n, seed + ".x"), numbers(n, seed + ".y")
    return list(zip(xs, ys))


SCALAR = [
    at(quadratic_loss, ({"w": 0.5, "b": -0.3}, _pairs(3, "ql")),
       ({"w": -1.2, "b": 0.4}, _pairs(5, "ql2")), wrt="params"),
    at(logsumexp, (numbers(3, "lse"),), (numbers(5, "lse2", -2.0, 2.0),), ([0.3],)),
    at(cross_entropy, (numbers(4, "ce"), 2), (numbers(3, "ce2"), 0), wrt="logits"),
    at(nested_model, ({"layer": {"w": numbers(2, "nm.w"), "b": numbers(2, "nm.b")},
                       "out": numbers(2, "nm.o")}, 0.7),
       ({"layer": {"w": numbers(3, "nm.w3"), "b": numbers(3, "nm.b3")},
         "out": numbers(3, "nm.o3")}, -0.4), wrt="p"),
    at(rosenbrock_pair, ((0.5, -0.2),), ((-0.7, 1.1),)),
    at(rosenbrock_list, (numbers(3, "rl"),), (numbers(5, "rl2"),)),
    at(tiny_mlp, ({"W": matrix(2, 2, "tm.W"), "b": numbers(2, "tm.b"),
                   "v": numbers(2, "tm.v")}, numbers(2, "tm.x")), wrt="params"),
    at(ridge, ((0.4, -0.6), _pairs(4, "rg"), 0.1), wrt="params"),
    at(product_of_list, (numbers(3, "pl"),), (numbers(4, "pl2"),)),
    at(polynomial, (numbers(3, "po"), 0.6), (numbers(4, "po2"), -0.8)),
    at(cubes_over_keys, ({"a": 0.5, "b": -0.7},), ({"z": 1.3, "y": 0.2, "x": -0.4},)),
    at(joined_squares, (numbers(2, "js"), 0.9), (numbers(3, "js2"), -0.5)),
    at(tail_cubes, (numbers(3, "tc"),), (numbers(5, "tc2"),)),
    at(gaussian_nll, ((0.2, -0.3), numbers(4, "gn")), wrt="theta"),
    at(spring_chain, (numbers(3, "sc", 0.0, 3.0), 2.0), (numbers(5, "sc2", 0.0, 5.0), 0.5),
       wrt="positions"),
    at(dict_of_functions, ({"a": 0.5, "b": -0.2, "c": 0.8},)),
    at(attention_pool, (numbers(3, "ap.s"), numbers(3, "ap.v")),
       (numbers(4, "ap.s4"), numbers(4, "ap.v4"))),
    at(rnn_loss, ({"w": 0.5, "u": -0.8, "b": 0.1}, numbers(4, "rnn")), wrt="params"),
    at(sorted_trimmed, (numbers(4, "st"),), (numbers(6, "st2"),), kinky=True),
    at(smallest_square, (numbers(3, "ss"),), (numbers(5, "ss2"),), kinky=True),
    at(layered_params, ([{"w": 0.5, "b": 0.1}, {"w": -0.7, "b": 0.3}], 0.4),
       ([{"w": 1.1, "b": -0.2}], -0.6)),
]

OBJECTS = [
    at(namedtuple_model, (Params(0.5, -0.3), 0.8), (Params(-1.1, 0.7), -0.4), wrt="p"),
    at(dataclass_energy, (Spring(2.0, [0.3, -0.5]), 0.6), (Spring(0.5, [1.0, 0.2]), -0.3)),
]

VALUED = [
    at(sgd_step, ({"w": 0.5, "b": -0.3}, 0.8, 0.1), ({"w": -1.2, "b": 0.4}, -0.5, 0.7),
       wrt="params"),
    at(moments, (numbers(3, "sm"),), (numbers(5, "sm2"),), kinky=True),
]
