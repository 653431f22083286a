"""Functions whose result is not one number: tuples, lists and dicts of numbers and of
arrays, arrays, nested, as training steps, layers and losses with auxiliary values
return them.  ``symdiff.vjp`` differentiates them (``tests/end_to_end/test_vjp.py``).

Each is listed in ``CASES`` with the argument tuples it is tested at, as the array corpus
lists its own (``corpus.arrays.case.at``: ``wrt`` names the parameters differentiated
when not all are; ``kinky`` marks a kink on the inputs).  Every function leaves its
arguments as they were and returns the same structure at each of its points.
"""

import math

import numpy as np

try:
    from corpus.arrays.case import at, normal, positive
except ImportError:  # run with the repository root on sys.path
    from tests.corpus.arrays.case import at, normal, positive


# --- numbers in, containers of numbers out ---------------------------------------------

def polar(r, theta):
    return r * math.cos(theta), r * math.sin(theta)


def rotate_pair(p, angle):
    x, y = p
    c, s = math.cos(angle), math.sin(angle)
    return [c * x - s * y, s * x + c * y]


def stats_of(xs):
    n = len(xs)
    mean = sum(xs) / n
    var = sum((v - mean) ** 2 for v in xs) / n
    return {"mean": mean, "var": var}


def squares_in_a_loop(xs):
    out = []
    for v in xs:
        out.append(v * v + 1.0)
    return out


def scalar_step(params, x, y):
    w, b = params["w"], params["b"]
    err = w * x + b - y
    return {"w": w - 0.1 * err * x, "b": b - 0.1 * err}


def decayed_step(params, x):
    return {k: v - 0.1 * v * x for k, v in params.items()}  # a dict comprehension returned


def loss_and_residual(w, b, x, y):
    r = w * x + b - y
    return r * r, r


def nested_result(a, b):
    return {"sum": (a + b, a - b), "prod": [a * b, math.exp(a) * b]}


def clipped_pair(x, y):
    if x > y:
        gap, low = x - y, y
    else:
        gap, low = y - x, x
    return gap, low


def cumulative(xs):
    total = 0.0
    running = []
    for v in xs:
        total = total + v
        running.append(total * v)
    return running


def partial_products(xs):
    out = [xs[0]]
    for i in range(1, len(xs)):
        out.append(out[i - 1] * xs[i])
    return out


def tuple_of_constants_and_values(x):
    return 2.0, x * x, 3.0


def summed_then_appended(xs):
    ys = []
    for v in xs:
        ys.append(v * v)
    s = sum(ys)
    ys.append(s)  # the reverse pops it again: the value returned keeps it
    return ys


def copied_then_changed(xs):
    ys = list(xs)
    ys[0] = ys[0] * 2.0
    return ys


def the_parameter_itself(params):
    return params


def entry_changed_after(p):
    q = {"w": p["w"] * 2.0, "b": p["b"]}
    q["w"] = q["w"] + p["b"]
    return q


def element_changed_by_itself(x, y):
    out = [x, y]
    out[0] = out[0] * out[1]
    return out


def nested_tuples(x):
    return x * 2.0, (x * 3.0, x)


def constant_list(x):
    return [1.0, 2.0]


def params_and_loss(params, x):
    loss = params["w"] * x + params["b"]
    return params, loss


def with_a_count(x, xs):
    return x * 2.0, len(xs)


# --- arrays ------------------------------------------------------------------------------

def dense_layer(W, b, x):
    return np.tanh(W @ x + b)


def batched_layer(X, W, b):
    return np.maximum(X @ W + b, 0.0) + 0.1 * (X @ W)


def softmax(z):
    e = np.exp(z - np.max(z))
    return e / np.sum(e)


def elementwise_square(x):
    return x * x


def normalized_rows(X):
    norms = np.sqrt(np.sum(X * X, axis=1, keepdims=True))
    return X / norms


def row_sums(X):
    return np.sum(X ** 2, axis=1)


def outer_product(u, v):
    return np.outer(u, np.sin(v))


def recurrence(h0, W, xs):
    h = h0
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + xs[t])
    return h


def states_stacked(h0, W, xs):
    h = h0
    states = []
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + xs[t])
        states.append(h)
    return np.stack(states)


def layers_of_a_dict(params, x):
    hidden = {k: np.tanh(params[k] * x) for k in params}
    return hidden["a"] + 2.0 * hidden["b"]


def identity(x):
    return x


def repeated_sine(x):
    for _ in range(3):
        x = np.sin(x)
    return x


def written_by_index(x):
    y = x.copy()
    y[0] = x[1] * 3.0
    return y


def scaled_copy(x, s):
    return s * x


def masked_update(x, m):
    return np.where(m, np.exp(x), x * 2.0)


# --- containers of arrays ----------------------------------------------------------------

def training_step(params, X, y):
    pred = X @ params["w"] + params["b"]
    err = pred - y
    gw = X.T @ err / X.shape[0]
    gb = np.mean(err)
    return {"w": params["w"] - 0.1 * gw, "b": params["b"] - 0.1 * gb}


def mlp_step(params, X, y):
    h = np.tanh(X @ params["W1"] + params["b1"])
    out = h @ params["w2"]
    err = out - y
    dh = np.outer(err, params["w2"]) * (1.0 - h * h)
    new = {"W1": params["W1"] - 0.05 * (X.T @ dh),
           "b1": params["b1"] - 0.05 * np.sum(dh, axis=0),
           "w2": params["w2"] - 0.05 * (h.T @ err)}
    return new


def loss_with_aux(w, X, y):
    pred = X @ w
    loss = np.mean((pred - y) ** 2)
    return loss, pred


def logits_and_probs(W, x):
    z = W @ x
    p = np.exp(z) / np.sum(np.exp(z))
    return {"logits": z, "probs": p}


def layer_outputs(x, W1, W2):
    h1 = np.tanh(W1 @ x)
    h2 = np.tanh(W2 @ h1)
    return [h1, h2]


def hidden_and_output(x, W1, v):
    h1 = np.tanh(W1 @ x)
    h2 = np.sin(h1)
    return {"hidden": [h1, h2], "out": h2 @ v}


def arrays_and_their_loss(params, x):
    loss = np.sum(params["w"] * x)
    return params, loss


def with_its_sine(x):
    return x, np.sin(x)


def twice_by_key(x):
    return {"a": x, "b": x}


def moments(x):
    return np.mean(x), np.var(x), np.max(x)


CASES = [
    at(polar, (1.5, 0.3), (0.7, -2.0)),
    at(rotate_pair, ((1.0, 2.0), 0.4), ([0.5, -1.5], 2.0)),
    at(stats_of, ([1.0, 2.0, 4.0],), ([0.5, -0.25],)),
    at(squares_in_a_loop, ([1.0, -2.0, 0.5],), ([3.0],)),
    at(decayed_step, ({"w": 0.5, "b": -0.2}, 1.5), ({"w": -1.0, "b": 0.3, "c": 2.0}, -0.5)),
    at(scalar_step, ({"w": 0.5, "b": -0.2}, 1.5, 2.0), ({"w": -1.0, "b": 0.3}, -0.5, 0.1),
       wrt="params"),
    at(loss_and_residual, (0.5, 0.1, 2.0, 1.0), (-1.0, 2.0, 0.3, -0.4), wrt=("w", "b")),
    at(nested_result, (0.3, 1.2), (-0.5, 2.0)),
    at(clipped_pair, (2.0, 0.5), (0.25, 1.5), kinky=True),
    at(cumulative, ([1.0, 2.0, -0.5],), ([0.3, 0.7],)),
    at(partial_products, ([1.5, 2.0, -0.5, 1.2],), ([0.3],)),
    at(tuple_of_constants_and_values, (1.5,), (-0.3,)),
    at(summed_then_appended, ([1.0, 2.0],), ([0.5, -1.0, 3.0],)),
    at(copied_then_changed, ([1.0, 2.0],), ([-0.5],)),
    at(the_parameter_itself, ({"w": 1.0, "b": 2.0},), ({"w": normal("w", 2), "b": 0.5},)),
    at(entry_changed_after, ({"w": 1.0, "b": 2.0},)),
    at(element_changed_by_itself, (1.5, 2.5)),
    at(nested_tuples, (1.5,)),
    at(with_a_count, (1.5, [1.0, 2.0]), wrt="x"),
    at(constant_list, (1.5,)),
    at(params_and_loss, ({"w": 0.5, "b": 1.5}, 2.0)),
    at(arrays_and_their_loss, ({"w": normal("w", 3)}, 1.5)),
    at(identity, (normal("x", 3),), (0.5,)),
    at(repeated_sine, (normal("x", 3),)),
    at(written_by_index, (normal("x", 4),)),
    at(dense_layer, (normal("W", 3, 4), normal("b", 3), normal("x", 4)),
       (normal("W2", 2, 5), normal("b2", 2), normal("x2", 5))),
    at(batched_layer, (normal("X", 6, 3), normal("W", 3, 2), normal("b", 2)), wrt=("W", "b"),
       kinky=True),
    at(softmax, (normal("z", 5),), (normal("z2", 3),)),
    at(elementwise_square, (normal("x", 4),), (normal("X", 2, 3),)),
    at(normalized_rows, (normal("X", 4, 3),)),
    at(row_sums, (normal("X", 5, 2),)),
    at(outer_product, (normal("u", 3), normal("v", 4))),
    at(recurrence, (normal("h", 3), normal("W", 3, 3) * 0.5, normal("xs", 4, 3)),
       wrt=("h0", "W")),
    at(scaled_copy, (normal("x", 4), 1.5), (normal("x2", 2, 2), -0.5)),
    at(masked_update, (normal("x", 5), normal("m", 5) > 0.0), wrt="x"),
    at(training_step, ({"w": normal("w", 3), "b": 0.2}, normal("X", 5, 3), normal("y", 5)),
       wrt="params"),
    at(mlp_step, ({"W1": normal("W1", 3, 4), "b1": normal("b1", 4), "w2": normal("w2", 4)},
                  normal("X", 6, 3), normal("y", 6)), wrt="params"),
    at(loss_with_aux, (normal("w", 3), normal("X", 4, 3), normal("y", 4)), wrt="w"),
    at(logits_and_probs, (normal("W", 3, 4) * 0.5, normal("x", 4))),
    at(layer_outputs, (normal("x", 3), normal("W1", 4, 3), normal("W2", 2, 4))),
    at(hidden_and_output, (normal("x", 3), normal("W1", 4, 3), normal("v", 4))),
    at(with_its_sine, (normal("x", 3),)),
    at(twice_by_key, (normal("x", 2),), (0.5,)),
    at(moments, (positive("x", 6),), kinky=True),
    at(states_stacked, (normal("h", 3), normal("W", 3, 3) * 0.5, normal("xs", 4, 3))),
    at(layers_of_a_dict, ({"a": normal("a", 3), "b": normal("b", 3)}, normal("x", 3))),
]
