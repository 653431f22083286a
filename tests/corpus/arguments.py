"""Functions with every kind of argument and local, written as ML and scientific code
writes them: keyword-only options (``def huber(r, *, delta=1.0)``), container defaults
(``coeffs=[1.0, 2.0]``), int and bool defaults the default ``wrt`` leaves out (a label,
a step count, a flag), strings, None and bools as ordinary locals, ``float("inf")``,
copies of containers, ``max``/``min`` with ``key=``, ``isinstance`` dispatch.

``CASES`` at the end, in the format of ``containers.py``: a point gives the positional
arguments, then the keyword-only ones (passed by name).
"""

import math

from .containers import at, numbers


# --- keyword-only parameters -------------------------------------------------------------

def huber(r, *, delta=1.0):
    a = abs(r)
    if a <= delta:
        return 0.5 * r * r
    return delta * (a - 0.5 * delta)


def scaled_square(x, *, scale):
    return scale * x * x


def smooth_l1_mean(preds, targets, *, beta=0.5):
    total = 0.0
    for p, t in zip(preds, targets):
        d = abs(p - t)
        if d < beta:
            total += 0.5 * d * d / beta
        else:
            total += d - 0.5 * beta
    return total / len(preds)


def _soft_threshold(x, *, lam=0.1):
    return math.copysign(max(abs(x) - lam, 0.0), x)


def shrunk_energy(x, y):
    return _soft_threshold(x) ** 2 + _soft_threshold(y, lam=0.3) ** 2


def weighted_sum(xs, *, weights):
    return sum(w * x for w, x in zip(weights, xs))


def damped_step(x, v, *, dt=0.1, gamma=0.5):
    v_next = v - dt * (x + gamma * v)
    x_next = x + dt * v_next
    return x_next * x_next + v_next * v_next


# --- container defaults ------------------------------------------------------------------

def polynomial(x, coeffs=[1.0, 2.0, 0.5]):
    return sum(c * x ** k for k, c in enumerate(coeffs))


def two_term_mixture(x, w=(0.25, 0.75)):
    return w[0] * math.exp(-x * x) + w[1] * math.exp(-0.5 * (x - 1.0) ** 2)


def affine_from_config(x, p={"a": 2.0, "b": -1.0}):
    y = p["a"] * x + p["b"]
    return y * y


def cubic_with_weights(x, *, weights=[0.5, 1.5]):
    return weights[0] * x + weights[1] * x ** 3


# --- int and bool defaults: left out of the default wrt ----------------------------------

def cross_entropy(logits, label=1):
    m = max(logits)
    z = sum(math.exp(v - m) for v in logits)
    return m + math.log(z) - logits[label]


def repeated_squaring(x, n=3):
    for _ in range(n):
        x = x * x
    return x


def squared_norm(xs, normalize=True):
    total = sum(x * x for x in xs)
    if normalize:
        return total / len(xs)
    return total


def explicit_euler(x0, rate, steps=4, dt=0.05):
    x = x0
    for _ in range(steps):
        x = x + dt * (-rate * x + math.sin(x))
    return x


# --- strings, None and bools as locals; special floats; copies ---------------------------

def reduced_loss(preds, targets, reduction="Mean"):
    mode = reduction.strip().lower()
    errors = [(p - t) ** 2 for p, t in zip(preds, targets)]
    if mode == "sum":
        return sum(errors)
    elif mode.startswith("mean"):
        return sum(errors) / len(errors)
    return max(errors)


def activation(x, kind="tanh"):
    name = kind.lower()
    if name == "relu":
        return max(x, 0.0)
    if name == "softplus":
        return math.log1p(math.exp(x))
    return math.tanh(x)


def largest_square(xs):
    best = None
    for x in xs:
        s = x * x
        if best is None or s > best:
            best = s
    return best


def first_above(xs, threshold):
    found = False
    total = 0.0
    for x in xs:
        if not found and x > threshold:
            found = True
            total += 10.0 * x
        else:
            total += x * x
    if found:
        return total
    return -total


def spread(xs):
    lo = float("inf")
    hi = float("-inf")
    for x in xs:
        lo = min(lo, x)
        hi = max(hi, x)
    return hi - lo


def clipped_log(x, floor=None):
    if floor is None:
        floor = float("-inf")
    return max(math.log(x), floor)


def rounded_gain(x):
    return x * x * round(x, ndigits=2)


def rescaled_copy(params, factor):
    p = dict(params)
    p["w"] = p["w"] * factor
    return p["w"] * p["b"] + params["w"]


def copied_lists(xs):
    ys = list(xs)
    ys.append(ys[0] * ys[-1])
    zs = tuple(xs)
    return sum(ys) * zs[0]


# --- max/min with a key, range inside zip, dispatch on the kinds ------------------------

def peak_value(xs):
    n = len(xs)
    k = max(range(n), key=lambda j: xs[j])
    return xs[k] * xs[k] + k


def closest_to_zero(xs):
    return min(xs, key=abs) ** 2


def _distance(p):
    return (p[0] - 1.0) ** 2 + p[1] ** 2


def nearest_point(points):
    best = min(points, key=_distance)
    return best[0] * best[1]


def rank_weighted(ys):
    n = len(ys)
    return sum(y * k for y, k in zip(ys, range(1, n + 1))) / n


def discounted(rewards, gamma):
    total = 0.0
    for r, t in zip(rewards, range(len(rewards))):
        total += r * gamma ** t
    return total


def sum_of_squares(x):
    if isinstance(x, (int, float)):
        return x * x
    return sum(v * v for v in x)


def as_vector_norm(x):
    if isinstance(x, (list, tuple)):
        return math.sqrt(sum(v * v for v in x))
    return abs(x)


def cubed_total(x):
    if hasattr(x, "__len__"):
        return sum(v ** 3 for v in x)
    return x ** 3


# --- sorted values: medians, trimmed means ----------------------------------------------

def median(xs):
    s = sorted(xs)
    n = len(s)
    if n % 2 == 1:
        return s[n // 2]
    return 0.5 * (s[n // 2 - 1] + s[n // 2])


def trimmed_mean(xs, trim=1):
    s = sorted(xs)
    kept = s[trim:len(s) - trim]
    return sum(kept) / len(kept)


def top_two_margin(scores):
    ranked = sorted(scores, reverse=True)
    return ranked[0] - ranked[1] + 0.1 * ranked[0] * ranked[1]


# --- sorted by a key, max/min with a default, copies by method ---------------------------

def largest_magnitudes(xs):
    s = sorted(xs, key=abs, reverse=True)
    return s[0] * s[1] + 0.5 * s[-1]


def closest_first(xs, centre):
    s = sorted(xs, key=lambda v: (v - centre) ** 2)
    return s[0] + 0.25 * s[1] * centre


def _negated(v):
    return -v


def ranked_by_helper(scores, temperature):
    s = sorted(scores, key=_negated)
    total = 0.0
    for k, v in enumerate(s):
        total += v * temperature ** k
    return total


def repeated_sorts(xs):
    total = 0.0
    for k in range(3):
        s = sorted(xs, key=lambda v: (v - k) ** 2)
        total = total + s[0] * (k + 1)
        xs = [v * 0.5 + 0.1 for v in xs]
    return total


def peak_or_zero(xs):
    return 2.0 * max(xs, default=0.0) + min(xs, default=1.0)


def farthest_or_origin(xs, origin):
    far = max(xs, key=lambda v: (v - origin) ** 2, default=origin)
    return far * far + origin


def copied_by_method(xs):
    ys = xs.copy()
    ys[0] = ys[0] * 3.0
    return ys[0] * ys[-1] + xs[0]


def config_by_method(params, scale):
    p = params.copy()
    p["a"] = p["a"] * scale
    return p["a"] * p["b"] + params["a"]


# --- helpers taking **kwargs: the options a call passes, known when it is built ----------

def _scaled_core(x, **options):
    return x * options["scale"] + options.get("shift", 0.0)


def _forwarding(x, **kw):
    return _scaled_core(x, **kw)


def options_forwarded(x, a):
    return _forwarding(x, scale=a, shift=0.5) * _forwarding(a, scale=x)


def _dense(x, w, activation="tanh", **opts):
    y = w * x * opts.get("gain", 1.0) + opts.get("bias", 0.0)
    return math.tanh(y) if activation == "tanh" else max(y, 0.0)


def options_with_a_flag(x, w):
    return _dense(x, w) + _dense(x, w, activation="relu", gain=2.0, bias=0.1)


def _penalty(ws, **weights):
    return weights.get("l2", 0.0) * sum(w * w for w in ws) + weights.get("l1", 0.0) * sum(
        abs(w) for w in ws)


def options_of_a_list(ws, lam):
    return _penalty(ws, l2=lam) + _penalty(ws, l1=0.5 * lam, l2=lam * lam)


CASES = [
    at(huber, (0.5, 1.0), (3.0, 2.0), (-2.5, 1.0), wrt=("r", "delta"), kinky=True),
    at(huber, (0.5, 1.0), (-3.0, 2.0), kinky=True, name="huber_by_default"),
    at(scaled_square, (1.5, 2.0), (-0.5, 3.0)),
    at(scaled_square, (1.5, 2.0), (-0.5, 3.0), wrt="scale", name="scaled_square_by_scale"),
    at(smooth_l1_mean, (numbers(3, "sl"), numbers(3, "sl2"), 0.5),
       (numbers(2, "sl3"), numbers(2, "sl4"), 0.25), kinky=True),
    at(smooth_l1_mean, ([0.1, 0.9, -0.4], [0.3, 0.2, -0.5], 0.5), wrt=("preds", "beta"),
       kinky=True, name="smooth_l1_mean_by_beta"),
    at(shrunk_energy, (0.8, -0.9), (-0.5, 1.2), kinky=True),
    at(weighted_sum, (numbers(3, "ws"), numbers(3, "ws2")), wrt=("xs", "weights")),
    at(damped_step, (0.7, -0.2, 0.1, 0.5), (1.5, 0.3, 0.05, 0.2), wrt=("x", "v", "gamma")),
    at(polynomial, (1.5, [1.0, 2.0, 0.5]), (-0.7, [0.3, -1.2, 0.8, 0.1])),
    at(polynomial, (1.5, [1.0, 2.0, 0.5]), wrt="x", name="polynomial_by_x"),
    at(two_term_mixture, (0.3, (0.25, 0.75)), (-1.1, (0.6, 0.4))),
    at(affine_from_config, (0.8, {"a": 2.0, "b": -1.0}), (-0.4, {"a": 0.5, "b": 0.3})),
    at(cubic_with_weights, (0.9, [0.5, 1.5]), wrt=("x", "weights")),
    at(cross_entropy, ([0.5, 2.0, -1.0], 1), ([0.1, -0.3], 0), kinky=True),
    at(repeated_squaring, (1.1, 3), (-0.9, 2)),
    at(squared_norm, (numbers(3, "sn"), True), (numbers(2, "sn2"), False)),
    at(explicit_euler, (0.8, 1.5, 4, 0.05), (-0.3, 0.7, 3, 0.1)),
    at(explicit_euler, (0.8, 1.5, 4, 0.05), wrt=("rate", "dt"), name="explicit_euler_by_dt"),
    at(reduced_loss, (numbers(3, "rl"), numbers(3, "rl2"), "Mean"),
       (numbers(3, "rl3"), numbers(3, "rl4"), " SUM"), (numbers(2, "rl5"), [0.0, 0.0], "max"),
       wrt="preds", kinky=True),
    at(activation, (0.7, "tanh"), (-0.3, "ReLU"), (0.4, "relu"), (0.2, "Softplus"), wrt="x",
       kinky=True),
    at(largest_square, ([0.5, -1.2, 0.8],), ([0.3],), kinky=True),
    at(first_above, ([0.1, 0.9, 0.7], 0.5), ([0.1, 0.2], 0.5), wrt="xs", kinky=True),
    at(spread, ([0.3, 0.9, -0.2],), ([1.5, 0.5],), kinky=True),
    at(clipped_log, (2.0, None), (0.5, -0.1), (2.0, 0.1), wrt="x", kinky=True),
    at(rounded_gain, (1.2345,), (-0.731,), kinky=True),
    at(rescaled_copy, ({"w": 0.5, "b": -1.5}, 2.0), ({"w": 1.5, "b": 0.25}, -0.5)),
    at(copied_lists, ([0.5, -1.2, 0.8],), ([2.0, 0.3],)),
    at(peak_value, ([0.5, -1.2, 0.8],), ([0.3, 0.9, 0.1, -0.5],), kinky=True),
    at(closest_to_zero, ([0.5, -0.2, 0.8],), ([-1.5, 0.7],), kinky=True),
    at(nearest_point, ([(0.0, 0.5), (1.2, 0.3), (2.0, -1.0)],), ([(0.9, 0.1)],), kinky=True),
    at(rank_weighted, (numbers(3, "rw"),), (numbers(1, "rw1"),)),
    at(discounted, (numbers(4, "dc"), 0.9), (numbers(2, "dc2"), 0.5)),
    at(sum_of_squares, (1.5,), (-0.25,), name="sum_of_squares_of_a_number"),
    at(sum_of_squares, ([0.5, -1.5],), ((0.25, 2.0, -1.0),), name="sum_of_squares_of_a_list"),
    at(as_vector_norm, ([0.6, -0.8],), ((1.5, 2.0),), name="as_vector_norm_of_a_list"),
    at(as_vector_norm, (-2.5,), (0.75,), kinky=True, name="as_vector_norm_of_a_number"),
    at(cubed_total, ([0.5, -1.5],), name="cubed_total_of_a_list"),
    at(cubed_total, (1.25,), name="cubed_total_of_a_number"),
    at(median, ([0.5, -1.2, 0.8],), ([0.3, 0.9, 0.1, -0.5],), kinky=True),
    at(trimmed_mean, ([0.5, -1.2, 0.8, 2.0, 0.1], 1), ([0.3, 0.9, 0.1, -0.5, 1.5, 0.7], 2),
       kinky=True),
    at(top_two_margin, ([0.5, -1.2, 0.8],), ([0.3, 0.35, 0.1, 0.2],), kinky=True),
    at(largest_magnitudes, ([0.5, -1.2, 0.8],), ([0.3, 0.35, -0.1, 2.0],), kinky=True),
    at(closest_first, ([0.5, -1.2, 0.8], 0.6), ([0.3, 0.9, -0.1, 2.0], -0.2), kinky=True),
    at(ranked_by_helper, ([0.5, -1.2, 0.8], 0.7), ([0.3, 0.9], 1.3), kinky=True),
    at(repeated_sorts, ([0.5, -1.2, 0.8, 2.2],), ([0.3, 1.4],), kinky=True),
    at(peak_or_zero, ([0.5, -1.2, 0.8],), ([],), ([1.5],), kinky=True),
    at(farthest_or_origin, ([0.5, -1.2, 0.8], 0.3), ([], 0.7), kinky=True),
    at(copied_by_method, ([0.5, -1.2, 0.8],), ([2.0, 0.3],)),
    at(config_by_method, ({"a": 0.5, "b": -1.5}, 2.0), ({"a": 1.5, "b": 0.25}, -0.5)),
    at(options_forwarded, (0.7, 1.1), (-0.4, 2.0), symbolic=False),  # sympy: no **kw calls
    at(options_with_a_flag, (0.7, 1.3), (-0.6, 0.9), kinky=True),
    at(options_of_a_list, ([0.5, -1.2, 0.8], 0.3), ([0.3, 0.9], 1.2), kinky=True),
]
