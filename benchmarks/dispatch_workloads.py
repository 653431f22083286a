"""The dispatch workloads: functions of containers, with gradients derived by hand.

A gradient of a function whose parameters are containers is generated per kind of its
arguments, so each call first finds the build for the kinds it is given: these are the
workloads where that costs most, next to the function itself.  Each is a function in
the language symdiff reads, its gradient written out by hand (it returns what
``symdiff.grad(f, wrt=0)`` returns: the gradient of the first parameter, in its
structure), and the arguments it is measured at (made by a seeded generator).

- ``mlp``: a two-layer perceptron over a dict of lists of parameters, 3 data points;
- ``logistic``: logistic loss over 1,000 ``((x1, x2), y)`` pairs (the data outweighs
  the parameters: every number of it is an argument);
- ``rosenbrock_list``: Rosenbrock over a list of 10 numbers, written as a loop;
- ``mlp_object``: ``mlp`` with its parameters in a dataclass (``params.w1``): the kind
  of an object (its class and its fields' kinds) is found on every call.
"""

import math
import random
from dataclasses import dataclass

from workloads import Workload


def mlp(params, data):
    loss = 0.0
    for x, y in data:
        hidden = []
        for row, b in zip(params["w1"], params["b1"]):
            s = b
            for w, xi in zip(row, x):
                s += w * xi
            hidden.append(math.tanh(s))
        out = params["b2"]
        for w, h in zip(params["w2"], hidden):
            out += w * h
        loss += (out - y) ** 2
    return loss


def mlp_grad(params, data):
    w1, b1, w2 = params["w1"], params["b1"], params["w2"]
    g_w1 = [[0.0] * len(row) for row in w1]
    g_b1 = [0.0] * len(b1)
    g_w2 = [0.0] * len(w2)
    g_b2 = 0.0
    for x, y in data:
        hidden = []
        for row, b in zip(w1, b1):
            s = b
            for w, xi in zip(row, x):
                s += w * xi
            hidden.append(math.tanh(s))
        out = params["b2"]
        for w, h in zip(w2, hidden):
            out += w * h
        g_out = 2.0 * (out - y)
        g_b2 += g_out
        for j, h in enumerate(hidden):
            g_w2[j] += g_out * h
            g_s = g_out * w2[j] * (1.0 - h * h)  # through tanh
            g_b1[j] += g_s
            g_row = g_w1[j]
            for k, xi in enumerate(x):
                g_row[k] += g_s * xi
    return {"w1": g_w1, "b1": g_b1, "w2": g_w2, "b2": g_b2}


def logistic(w, data):
    total = 0.0
    for (x1, x2), y in data:
        z = w[0] * x1 + w[1] * x2 + w[2]
        total += math.log(1.0 + math.exp(-y * z))
    return total


def logistic_grad(w, data):
    w0, w1, w2 = w
    g0 = g1 = g2 = 0.0
    for (x1, x2), y in data:
        e = math.exp(-y * (w0 * x1 + w1 * x2 + w2))
        c = -y * e / (1.0 + e)  # d log(1 + e) / dz
        g0 += c * x1
        g1 += c * x2
        g2 += c
    return [g0, g1, g2]


def rosenbrock_list(x):
    s = 0.0
    for i in range(len(x) - 1):
        d = x[i + 1] - x[i] ** 2
        s += 100.0 * d ** 2 + (1.0 - x[i]) ** 2
    return s


def rosenbrock_list_grad(x):
    g = [0.0] * len(x)
    for i in range(len(x) - 1):
        d = x[i + 1] - x[i] * x[i]
        g[i] += -400.0 * x[i] * d - 2.0 * (1.0 - x[i])
        g[i + 1] += 200.0 * d
    return g


@dataclass
class Layers:
    w1: list
    b1: list
    w2: list
    b2: float


def mlp_object(params, data):
    loss = 0.0
    for x, y in data:
        hidden = []
        for row, b in zip(params.w1, params.b1):
            s = b
            for w, xi in zip(row, x):
                s += w * xi
            hidden.append(math.tanh(s))
        out = params.b2
        for w, h in zip(params.w2, hidden):
            out += w * h
        loss += (out - y) ** 2
    return loss


def mlp_object_grad(params, data):
    g = mlp_grad(vars(params), data)
    return Layers(g["w1"], g["b1"], g["w2"], g["b2"])


def all_workloads():
    rng = random.Random(28)
    params = {"w1": [[rng.uniform(-1, 1) for _ in range(3)] for _ in range(4)],
              "b1": [rng.uniform(-0.5, 0.5) for _ in range(4)],
              "w2": [rng.uniform(-1, 1) for _ in range(4)], "b2": 0.1}
    points = [([rng.uniform(-1, 1) for _ in range(3)], rng.uniform(-1, 1)) for _ in range(3)]
    pairs = [((rng.uniform(-2, 2), rng.uniform(-2, 2)), rng.choice((-1.0, 1.0)))
             for _ in range(1000)]
    xs = [rng.uniform(-1.5, 1.5) for _ in range(10)]
    return [
        Workload("mlp", "3-4-1 tanh perceptron, params a dict of lists, 3 data points",
                 mlp, mlp_grad, (params, points)),
        Workload("logistic", "logistic loss over 1,000 ((x1, x2), y) pairs",
                 logistic, logistic_grad, ([0.3, -0.2, 0.1], pairs)),
        Workload("rosenbrock_list", "Rosenbrock over a list of 10 numbers, as a loop",
                 rosenbrock_list, rosenbrock_list_grad, (xs,)),
        Workload("mlp_object", "mlp with its params in a dataclass (params.w1)",
                 mlp_object, mlp_object_grad, (Layers(**params), points)),
    ]
