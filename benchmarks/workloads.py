"""The benchmark workloads: plain Python functions and their gradients derived by hand.

Every workload is a function of float parameters returning one float, written in the
subset symdiff reads, together with a gradient derived on paper and written out by hand
(it returns a tuple in parameter order, or one float for a one-parameter function).
These hand-written gradients are the reference every tool is checked against, and the
baseline its speed is compared with; ``run.py`` also checks them against central finite
differences.

Straight-line functions too long to write out (the nested compositions and the scaling
chains) are produced as source text by ``nest_source`` and ``chain_source`` and imported
from a module file (symdiff reads a function's source, so it must live in a file).
"""

import importlib.util
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Workload:
    """One function to differentiate, its hand-written gradient and where to evaluate it.

    ``point`` holds the arguments (numbers, containers or arrays); ``wrt`` names the
    parameters differentiated, as ``symdiff.grad`` takes it (None: its default).
    """

    name: str
    description: str
    fn: object
    hand: object
    point: tuple
    tags: list = field(default_factory=list)
    wrt: object = None


# (1) A mixed expression: 35 operations on 3 variables, most of the math module ----------

def mixed(x, y, z):
    a = math.sin(x) * math.cos(y) + math.exp(-z * z)
    b = math.log(1.0 + x * x) + math.sqrt(y * y + 1.0)
    c = math.tanh(a * b) - math.atan(z / (1.0 + y * y))
    d = math.pow(a + 2.0, 1.5) + c ** 2 / (b + 0.5)
    return d * math.cos(x * z) + math.exp(c) * math.sin(a - b)


def mixed_grad(x, y, z):
    # forward, keeping what the partials need
    sx, cx, sy, cy = math.sin(x), math.cos(x), math.sin(y), math.cos(y)
    ez = math.exp(-z * z)
    a = sx * cy + ez
    q = 1.0 + x * x
    r = math.sqrt(y * y + 1.0)
    b = math.log(q) + r
    t = math.tanh(a * b)
    s = 1.0 + y * y
    w = z / s
    c = t - math.atan(w)
    root = math.sqrt(a + 2.0)
    e = b + 0.5
    d = (a + 2.0) * root + c * c / e
    cxz, sxz = math.cos(x * z), math.sin(x * z)
    ec = math.exp(c)
    sab, cab = math.sin(a - b), math.cos(a - b)
    # reverse: result = d * cxz + ec * sab
    gd = cxz
    gx = -sxz * z * d
    gz = -sxz * x * d
    gc = ec * sab                       # d exp(c) / dc = exp(c)
    ga = ec * cab
    gb = -ec * cab
    # d = (a + 2) ** 1.5 + c ** 2 / e
    ga += gd * 1.5 * root
    gc += gd * 2.0 * c / e
    gb -= gd * c * c / (e * e)
    # c = tanh(a * b) - atan(w)
    gp = gc * (1.0 - t * t)
    ga += gp * b
    gb += gp * a
    gw = -gc / (1.0 + w * w)
    gz += gw / s
    gy = -gw * z / (s * s) * 2.0 * y
    # b = log(q) + r
    gx += gb * 2.0 * x / q
    gy += gb * y / r
    # a = sin(x) * cos(y) + exp(-z * z)
    gx += ga * cx * cy
    gy -= ga * sx * sy
    gz -= ga * 2.0 * z * ez
    return gx, gy, gz


# (2) A recurrence: 1,000 steps of a scalar recurrent cell --------------------------------

def recurrence(w, u, x):
    h = 0.0
    for _ in range(1000):
        h = math.tanh(w * h + u * x)
    return h


def recurrence_grad(w, u, x):
    hs = [0.0]
    h = 0.0
    for _ in range(1000):
        h = math.tanh(w * h + u * x)
        hs.append(h)
    gw = gu = gx = 0.0
    gh = 1.0
    for i in range(1000, 0, -1):
        h = hs[i]
        gpre = gh * (1.0 - h * h)      # through tanh
        gw += gpre * hs[i - 1]
        gu += gpre * x
        gx += gpre * u
        gh = gpre * w
    return gw, gu, gx


# (3) Rosenbrock in 10 variables, written as a loop that shifts the variables ------------

def rosenbrock(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9):
    s = 0.0
    for _ in range(9):
        s += 100.0 * (x1 - x0 * x0) ** 2 + (1.0 - x0) ** 2
        x0, x1, x2, x3, x4, x5, x6, x7, x8 = x1, x2, x3, x4, x5, x6, x7, x8, x9
    return s


def rosenbrock_grad(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9):
    # f = sum_i 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2, i = 0..8
    x = (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9)
    g = [0.0] * 10
    for i in range(9):
        r = x[i + 1] - x[i] * x[i]
        g[i] += -400.0 * x[i] * r - 2.0 * (1.0 - x[i])
        g[i + 1] += 200.0 * r
    return tuple(g)


# (5) A long loop: 100,000 steps of an ODE, integrating a function of its state ----------

def long_loop(a, b):
    h = 0.5
    s = 0.0
    for _ in range(100000):
        h = h + 0.001 * math.sin(a * h + b)
        s += 0.001 * h * h
    return s


def long_loop_grad(a, b):
    # forward mode by hand: carry dh/da, dh/db (and ds/da, ds/db) along the loop
    h = 0.5
    ha = hb = sa = sb = 0.0
    for _ in range(100000):
        arg = a * h + b
        k = 0.001 * math.cos(arg)
        ha, hb = ha + k * (h + a * ha), hb + k * (a * hb + 1.0)
        h = h + 0.001 * math.sin(arg)
        sa += 0.002 * h * ha
        sb += 0.002 * h * hb
    return sa, sb


# (6) The same composition written as a loop, 5 and 40 steps ------------------------------

def swell_loop_5(x):
    for _ in range(5):
        x = math.sin(x) * x + math.cos(x)
    return x


def swell_loop_40(x):
    for _ in range(40):
        x = math.sin(x) * x + math.cos(x)
    return x


def _swell_loop_grad(x, steps):
    # d/dx [sin(x) * x + cos(x)] = x * cos(x): the product along the steps, carried forward
    g = 1.0
    for _ in range(steps):
        c = math.cos(x)
        g *= x * c
        x = math.sin(x) * x + c
    return g


def swell_loop_5_grad(x):
    return _swell_loop_grad(x, 5)


def swell_loop_40_grad(x):
    return _swell_loop_grad(x, 40)


# (7) An RK4 integrator: x'' = -omega**2 x, 200 steps of size 0.01 --------------------------

def rk4(x0, v0, omega):
    h = 0.01
    x, v = x0, v0
    for _ in range(200):
        k1x = v
        k1v = -omega ** 2 * x
        k2x = v + 0.5 * h * k1v
        k2v = -omega ** 2 * (x + 0.5 * h * k1x)
        k3x = v + 0.5 * h * k2v
        k3v = -omega ** 2 * (x + 0.5 * h * k2x)
        k4x = v + h * k3v
        k4v = -omega ** 2 * (x + h * k3x)
        x = x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x)
        v = v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v)
    return x * v


def rk4_grad(x0, v0, omega):
    # reverse mode by hand: each step saves the three points its slopes are taken at
    h, a, h6 = 0.01, 0.005, 0.01 / 6.0
    w2 = omega * omega
    x, v = x0, v0
    saved = []
    for _ in range(200):
        p2 = x + a * v
        k2x = v - a * w2 * x
        p3 = x + a * k2x
        k3x = v - a * w2 * p2
        p4 = x + h * k3x
        saved.append((x, p2, p3, p4))
        k3v = -w2 * p3
        x, v = (x + h6 * (v + 2.0 * k2x + 2.0 * k3x + v + h * k3v),
                v - h6 * w2 * (x + 2.0 * p2 + 2.0 * p3 + p4))
    gx, gv, gw2 = v, x, 0.0  # the adjoints of x * v
    for x, p2, p3, p4 in reversed(saved):
        g1x = g4x = h6 * gx
        g1v = g4v = h6 * gv
        g2x, g3x, g2v, g3v = 2.0 * g1x, 2.0 * g1x, 2.0 * g1v, 2.0 * g1v
        g3x += -w2 * h * g4v
        g3v += h * g4x
        g2x += -w2 * a * g3v
        g2v += a * g3x
        g1x += -w2 * a * g2v
        g1v += a * g2x
        gw2 -= p4 * g4v + p3 * g3v + p2 * g2v + x * g1v
        gx += -w2 * (g4v + g3v + g2v + g1v)
        gv += g4x + g3x + g2x + g1x
    return gx, gv, 2.0 * omega * gw2


# (4) Nested composition x -> sin(x) * x + cos(x), straight-line, generated ---------------

NEST_DEPTHS = (5, 10, 20, 40)


def nest_source(depth):
    """``nest_<depth>(x)`` and its hand-derived gradient ``nest_<depth>_grad(x)``.

    d/dx [sin(x) * x + cos(x)] = cos(x) * x + sin(x) - sin(x) = x * cos(x), so the
    gradient is the product of ``x * cos(x)`` over the chain, carried forward.
    """
    lines = [f"def nest_{depth}(x):"]
    lines += ["    x = math.sin(x) * x + math.cos(x)"] * depth
    lines += ["    return x", "", "", f"def nest_{depth}_grad(x):", "    g = 1.0"]
    lines += ["    c = math.cos(x)", "    g *= x * c", "    x = math.sin(x) * x + c"] * depth
    lines += ["    return g", "", ""]
    return "\n".join(lines)


# Scaling: straight-line chains of n statements over (x, y, z), generated -----------------

_CHAIN_STEPS = (
    "v{i} = math.sin(v{a}) * y + v{b} * 0.5",
    "v{i} = math.tanh(v{a} + z * v{c})",
    "v{i} = v{a} * 0.9 + math.exp(-v{b} * v{b}) * x",
)


def chain_source(n):
    """``chain_<n>(x, y, z)``: ``n`` assignments (3 to 5 operations each), then a return."""
    lines = [f"def chain_{n}(x, y, z):", "    v0 = x * z", "    v1 = math.cos(y) + x",
             "    v2 = v1 * v0 - z"]
    for i in range(3, n):
        step = _CHAIN_STEPS[i % 3].format(i=i, a=i - 1, b=i - 2, c=i - 3)
        lines.append("    " + step)
    lines += [f"    return v{n - 1}", "", ""]
    return "\n".join(lines)


def import_source(text, directory, module_name):
    """Write ``text`` (after ``import math``) to ``directory/module_name.py`` and import it."""
    path = Path(directory) / f"{module_name}.py"
    path.write_text("import math\n\n\n" + text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def all_workloads(directory):
    """Every workload, in report order; the generated ones are imported from ``directory``."""
    nests = import_source("".join(nest_source(d) for d in NEST_DEPTHS), directory,
                          "symdiff_bench_nests")
    found = [
        Workload("mixed", "35-op expression of 3 variables (sin cos exp log sqrt tanh "
                 "atan pow / **)", mixed, mixed_grad, (0.7, -1.3, 0.4)),
        Workload("recurrence", "h = tanh(w*h + u*x), 1,000 steps in a for loop",
                 recurrence, recurrence_grad, (0.5, -0.3, 1.2), ["loop"]),
        Workload("rosenbrock", "10-variable Rosenbrock, 9-iteration loop shifting "
                 "10 scalars by tuple assignment", rosenbrock, rosenbrock_grad,
                 (-1.2, 1.0, 0.8, -0.5, 0.3, 1.1, 0.9, -0.7, 0.2, 1.4), ["loop"]),
    ]
    for depth in NEST_DEPTHS:
        found.append(Workload(
            f"nest_{depth}", f"x -> sin(x)*x + cos(x) composed {depth} times, straight line",
            getattr(nests, f"nest_{depth}"), getattr(nests, f"nest_{depth}_grad"), (0.7,),
            ["nest"]))
    for steps, fn, hand in ((5, swell_loop_5, swell_loop_5_grad),
                            (40, swell_loop_40, swell_loop_40_grad)):
        found.append(Workload(
            f"swell_loop_{steps}", f"x -> sin(x)*x + cos(x), {steps} steps of a for loop",
            fn, hand, (0.7,), ["loop"]))
    found.append(Workload(
        "rk4", "RK4 integrator of x'' = -omega**2 x, 200 steps of a for loop",
        rk4, rk4_grad, (1.0, 0.5, 2.0), ["loop"]))
    found.append(Workload(
        "long_loop", "100,000-step loop: h += 0.001*sin(a*h + b); s += 0.001*h*h",
        long_loop, long_loop_grad, (0.8, 0.3), ["loop", "long"]))
    return found
