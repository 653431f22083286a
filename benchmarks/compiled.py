"""Compiled gradients: symdiff's gradient under ``jit="numba"`` beside the Python one,
the function itself (plain and under ``numba.njit``) and a gradient written by hand and
compiled with ``numba.njit``.

    python benchmarks/compiled.py            # about a minute on 2 busy CPUs
    python benchmarks/compiled.py --quick    # fewer repetitions
    python benchmarks/compiled.py --arrays   # only the loops over array elements

For each workload (the scalar ones, then the loops over array elements of
``compiled_arrays``) the report gives the time of one call of each (the best of
seven rounds in which they take turns), the two ratios
the compiled gradient is held to (at most 1.5x the hand-written compiled gradient, at
most 4x the njit-ed function), and the one-time costs beside them: numba's compile of
the function, of the hand-written gradient, and symdiff's build with ``jit="numba"``
(generating the text and numba compiling it).  Every gradient is checked against the
Python gradient (bit for bit) and the hand-written one (relative error).  JAX is not
timed here: none of these loops is written as ``lax.scan``, and jax unrolls them.
Nothing is asserted; the numbers are printed as a markdown table.
"""

import argparse
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent

sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import symdiff  # noqa: E402
import symdiff.api  # noqa: E402
import workloads  # noqa: E402
from compiled_arrays import array_workloads  # noqa: E402


# --- the workloads the rest do not have ------------------------------------------------

def recurrence(x, y, n):
    t = x
    for i in range(n):
        t = t * 0.999 + 0.001 * math.sin(t * y)
    return t


def recurrence_hand(x, y, n):
    saved = np.empty(n)
    t = x
    for i in range(n):
        saved[i] = t
        t = t * 0.999 + 0.001 * math.sin(t * y)
    dt, dy = 1.0, 0.0
    for i in range(n - 1, -1, -1):
        t = saved[i]
        c = dt * 0.001 * math.cos(t * y)
        dy += c * t
        dt = dt * 0.999 + c * y
    return dt, dy


def rosenbrock_hand(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9):
    x = (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9)
    g = np.zeros(10)
    for i in range(9):
        r = x[i + 1] - x[i] * x[i]
        g[i] += -400.0 * x[i] * r - 2.0 * (1.0 - x[i])
        g[i + 1] += 200.0 * r
    return g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9]


def rk4(k, a, y0):
    y = y0
    t = 0.0
    h = 0.01
    for i in range(200):
        k1 = -k * y + a * math.sin(t)
        k2 = -k * (y + 0.5 * h * k1) + a * math.sin(t + 0.5 * h)
        k3 = -k * (y + 0.5 * h * k2) + a * math.sin(t + 0.5 * h)
        k4 = -k * (y + h * k3) + a * math.sin(t + h)
        y = y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        t = t + h
    return y * y


def rk4_hand(k, a, y0):
    # forward mode by hand: the tangents of y by k, a and y0 carried through each stage
    y, yk, ya, yy = y0, 0.0, 0.0, 1.0
    t = 0.0
    h = 0.01
    for i in range(200):
        s0, s1, s2 = math.sin(t), math.sin(t + 0.5 * h), math.sin(t + h)
        k1 = -k * y + a * s0
        k1k, k1a, k1y = -y - k * yk, -k * ya + s0, -k * yy
        u2 = y + 0.5 * h * k1
        k2 = -k * u2 + a * s1
        k2k = -u2 - k * (yk + 0.5 * h * k1k)
        k2a = -k * (ya + 0.5 * h * k1a) + s1
        k2y = -k * (yy + 0.5 * h * k1y)
        u3 = y + 0.5 * h * k2
        k3 = -k * u3 + a * s1
        k3k = -u3 - k * (yk + 0.5 * h * k2k)
        k3a = -k * (ya + 0.5 * h * k2a) + s1
        k3y = -k * (yy + 0.5 * h * k2y)
        u4 = y + h * k3
        k4 = -k * u4 + a * s2
        k4k = -u4 - k * (yk + h * k3k)
        k4a = -k * (ya + h * k3a) + s2
        k4y = -k * (yy + h * k3y)
        w = h / 6.0
        y = y + w * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        yk = yk + w * (k1k + 2.0 * k2k + 2.0 * k3k + k4k)
        ya = ya + w * (k1a + 2.0 * k2a + 2.0 * k3a + k4a)
        yy = yy + w * (k1y + 2.0 * k2y + 2.0 * k3y + k4y)
        t = t + h
    return 2.0 * y * yk, 2.0 * y * ya, 2.0 * y * yy


def monte_carlo(mu, sigma, shocks):
    s = 1.0
    total = 0.0
    for z in shocks:
        s = s * math.exp(mu + sigma * z)
        total = total + s
    return total / len(shocks)


def monte_carlo_hand(mu, sigma, shocks):
    s, s_mu, s_sigma = 1.0, 0.0, 0.0
    total_mu = total_sigma = 0.0
    for z in shocks:
        e = math.exp(mu + sigma * z)
        s_mu = (s_mu + s) * e
        s_sigma = (s_sigma + s * z) * e
        s = s * e
        total_mu += s_mu
        total_sigma += s_sigma
    return total_mu / len(shocks), total_sigma / len(shocks)


def shocks(count=1000):
    rng = np.random.default_rng(7)
    return [float(v) for v in rng.standard_normal(count) * 0.01]


def workloads_here(directory):
    """``(name, description, f, hand-written gradient, point, wrt)`` of each workload."""
    swell = workloads.import_source(workloads.nest_source(40), directory, "symdiff_numba_nest")
    point = (-1.2, 1.0, 0.8, -0.5, 0.3, 1.1, 0.9, -0.7, 0.2, 1.4)
    return [
        ("expr", "35-op expression of 3 variables", workloads.mixed, workloads.mixed_grad,
         (0.7, -1.3, 0.4), None),
        ("loop_1000", "t = t*0.999 + 0.001*sin(t*y), 1,000 steps", recurrence,
         recurrence_hand, (0.3, 1.7, 1000), ("x", "y")),
        ("loop_100000", "h += 0.001*sin(a*h + b); s += 0.001*h*h, 100,000 steps",
         workloads.long_loop, workloads.long_loop_grad, (0.8, 0.3), None),
        ("rosenbrock", "10 variables, a 9-step loop shifting them", workloads.rosenbrock,
         rosenbrock_hand, point, None),
        ("swell", "x -> sin(x)*x + cos(x) composed 40 times", swell.nest_40,
         swell.nest_40_grad, (0.7,), None),
        ("rk4", "RK4, 200 steps of y' = -k*y + a*sin(t)", rk4, rk4_hand, (0.8, 0.5, 1.2),
         None),
        ("monte_carlo", "a path of 1,000 shocks from a list", monte_carlo, monte_carlo_hand,
         (0.001, 0.2, shocks()), ("mu", "sigma")),
    ] + array_workloads()


# --- timing ------------------------------------------------------------------------------

def calls_per_round(fn, args, budget):
    """How many calls of ``fn`` take about ``budget`` / 10 seconds (after a first call)."""
    fn(*args)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget / 10:
        fn(*args)
        count += 1
    return count


def per_call(timed, args, budget, rounds=7):
    """``{column: seconds}``: the best over ``rounds`` of the mean time of one call, the
    columns taking turns within each round (so a busy moment of the machine falls on all
    of them, and their ratios stay comparable)."""
    counts = {column: calls_per_round(fn, args, budget) for column, fn in timed.items()}
    best = {column: math.inf for column in timed}
    for _ in range(rounds):
        for column, fn in timed.items():
            start = time.perf_counter()
            for _ in range(counts[column]):
                fn(*args)
            best[column] = min(best[column], (time.perf_counter() - start) / counts[column])
    return best


def first_call(make, args):
    """``(callable, seconds)``: what ``make()`` returns, timed with its first call."""
    start = time.perf_counter()
    made = make()
    made(*args)
    return made, time.perf_counter() - start


def entries(value):
    """A gradient's numbers (floats, arrays, a tuple of them) as one float64 array."""
    parts = value if isinstance(value, tuple) else (value,)
    return np.concatenate([np.ravel(np.asarray(p, dtype=np.float64)) for p in parts])


def same_bits(got, want):
    parts = (got, want) if isinstance(got, tuple) else ((got,), (want,))
    return len(parts[0]) == len(parts[1]) and all(
        type(g) is type(w) and np.asarray(g).tobytes() == np.asarray(w).tobytes()
        for g, w in zip(*parts))


def relative_error(got, want):
    got, want = entries(got), entries(want)
    return float(np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-300)))


def measure(workload, budget):
    name, _, fn, hand, args, wrt = workload
    row = {"name": name}
    jitted, row["njit compile"] = first_call(lambda: numba.njit(fn), args)
    hand_jitted, row["hand compile"] = first_call(lambda: numba.njit(hand), args)
    python = symdiff.grad(fn, wrt=wrt)
    symdiff.api._CACHE.clear()
    compiled, row["symdiff compile"] = first_call(
        lambda: symdiff.grad(fn, wrt=wrt, jit="numba"), args)
    row["same bits"] = same_bits(compiled(*args), python(*args))
    row["error"] = relative_error(compiled(*args), hand_jitted(*args))
    row.update(per_call({"plain": fn, "njit": jitted, "python grad": python,
                         "numba grad": compiled, "hand njit grad": hand_jitted}, args, budget))
    return row


def seconds(value):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value * 1e9:.3g} ns"


def report(rows):
    print("| workload | plain | njit | symdiff Python grad | symdiff numba grad | "
          "hand-written njit grad | numba grad / hand | numba grad / njit | "
          "Python grad / numba grad | compile: njit / hand / symdiff | same bits | "
          "rel. error vs hand |")
    print("|---" * 12 + "|")
    for r in rows:
        print(f"| {r['name']} | {seconds(r['plain'])} | {seconds(r['njit'])} | "
              f"{seconds(r['python grad'])} | {seconds(r['numba grad'])} | "
              f"{seconds(r['hand njit grad'])} | "
              f"{r['numba grad'] / r['hand njit grad']:.2f}x | "
              f"{r['numba grad'] / r['njit']:.2f}x | "
              f"{r['python grad'] / r['numba grad']:.1f}x | "
              f"{seconds(r['njit compile'])} / {seconds(r['hand compile'])} / "
              f"{seconds(r['symdiff compile'])} | {'yes' if r['same bits'] else 'no'} | "
              f"{r['error']:.1e} |")
    hand = statistics.geometric_mean([r["numba grad"] / r["hand njit grad"] for r in rows])
    njit = statistics.geometric_mean([r["numba grad"] / r["njit"] for r in rows])
    print(f"\nGeometric means: numba grad / hand-written njit grad {hand:.2f}x "
          f"(target <= 1.5x), numba grad / njit-ed function {njit:.2f}x (target <= 4x).")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter timing rounds")
    parser.add_argument("--arrays", action="store_true",
                        help="only the loops over array elements")
    options = parser.parse_args(argv)
    budget = 0.05 if options.quick else 0.4
    print(f"numba {numba.__version__}, numpy {np.__version__}, Python "
          f"{sys.version.split()[0]}\n")
    with tempfile.TemporaryDirectory() as directory:
        rows = []
        chosen = array_workloads() if options.arrays else workloads_here(directory)
        for workload in chosen:
            print(f"measuring {workload[0]}", file=sys.stderr)
            rows.append(measure(workload, budget))
    report(rows)


if __name__ == "__main__":
    main()
