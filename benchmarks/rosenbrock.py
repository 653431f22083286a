"""Rosenbrock over a list: symdiff's gradient against a hand-written one, autograd and JAX.

    python benchmarks/rosenbrock.py           # lists of 10 and 1,000 numbers, a few minutes
    python benchmarks/rosenbrock.py --quick   # fewer repetitions
    python benchmarks/rosenbrock.py --json out.json

The function is written as people write it, one generator expression over the list:

    sum(100 * (x[i+1] - x[i]**2)**2 + (1 - x[i])**2 for i in range(len(x) - 1))

For a list of 10 and one of 1,000 numbers it times one gradient by each tool: symdiff
(``symdiff.grad(rosenbrock)(x)``, built on its first call for the list's kind; and the
function it generated, called directly, without finding the build for the argument's
kind), a gradient written by hand with plain Python loops over the list (and the same that
also raises wherever ``rosenbrock`` raises, as symdiff's gradient must: it evaluates each
term's powers, whose ``OverflowError`` the function raises), autograd (``autograd.grad``,
on the same list and on a numpy array) and ``jax.jit(jax.grad(rosenbrock))`` on a float64
``jnp`` array.  Each time is also given as a ratio to the hand-written gradient's (on the
list), timed in alternate batches with it (``run.measure``), so both saw the same machine
load.  A tool that is not installed, or that refuses the function, is reported as such,
not raised.  Every gradient is checked
against the hand-written one (``rtol = 1e-9``).  Progress goes to stderr, the markdown
report to stdout, the raw numbers to JSON.
"""

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for _path in (str(HERE.parent), str(HERE)):  # this checkout's symdiff, then run.py
    if _path not in sys.path:
        sys.path.insert(0, _path)

import symdiff

import run

SIZES = (10, 1000)
TOOLS = ["hand", "hand_raising", "symdiff", "symdiff_built", "autograd", "autograd_array",
         "jax"]
TITLES = {"hand": "hand-written", "hand_raising": "hand-written, raising where f raises",
          "symdiff": "symdiff", "symdiff_built": "symdiff's generated function",
          "autograd": "autograd (list)", "autograd_array": "autograd (numpy array)",
          "jax": "jax.jit(jax.grad)"}


def rosenbrock(x):
    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2 for i in range(len(x) - 1))


def rosenbrock_gradient(x):
    """The gradient by hand: each term touches x[i] and x[i + 1]."""
    n = len(x)
    grad = [0.0] * n
    for i in range(n - 1):
        d = x[i + 1] - x[i] * x[i]
        grad[i] += -400.0 * x[i] * d - 2.0 * (1.0 - x[i])
        grad[i + 1] += 200.0 * d
    return grad


def rosenbrock_gradient_raising(x):
    """The gradient by hand that also raises wherever ``rosenbrock`` raises, as symdiff's
    must (an ``OverflowError`` of ``**``): each term's powers are evaluated."""
    n = len(x)
    grad = [0.0] * n
    for i in range(n - 1):
        d = x[i + 1] - x[i] ** 2
        100 * d ** 2 + (1 - x[i]) ** 2  # noqa: B018 - evaluated for its exceptions
        grad[i] += -400.0 * x[i] * d - 2.0 * (1.0 - x[i])
        grad[i + 1] += 200.0 * d
    return grad


def point(n):
    """A list of ``n`` numbers in (-1.5, 1.5), the same in every run."""
    return [1.5 * ((37 * k) % 101 / 50.5 - 1.0) + 0.01 for k in range(n)]


# -- the tools: each returns (gradient of one list, its argument, setup details) ----------

def tool_hand(x):
    return rosenbrock_gradient, x, {}


def tool_hand_raising(x):
    return rosenbrock_gradient_raising, x, {}


def tool_symdiff_built(x):
    gradient = symdiff.grad(rosenbrock)
    gradient(x)  # builds it; then the generated function is called directly, no dispatch
    return gradient._last.function, x, {}


def tool_symdiff(x):
    gradient = symdiff.grad(rosenbrock)
    start = time.perf_counter()
    gradient(x)  # builds the gradient for a list of this length
    return gradient, x, {"setup_s": time.perf_counter() - start}


def tool_autograd(x):
    try:
        import autograd
    except ImportError:
        raise run.Skip("autograd is not installed") from None
    return autograd.grad(rosenbrock), list(x), {}


def tool_autograd_array(x):
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        raise run.Skip("autograd is not installed") from None
    return autograd.grad(rosenbrock), anp.array(x, dtype=float), {}


def tool_jax(x):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        raise run.Skip("JAX is not installed") from None
    jax.config.update("jax_enable_x64", True)
    jitted = jax.jit(jax.grad(rosenbrock))

    def gradient(array):
        return jax.block_until_ready(jitted(array))

    array = jnp.asarray(x, dtype=jnp.float64)
    start = time.perf_counter()
    gradient(array)  # trace and compile
    return gradient, array, {"setup_s": time.perf_counter() - start}


BUILDERS = {"hand": tool_hand, "hand_raising": tool_hand_raising, "symdiff": tool_symdiff,
            "symdiff_built": tool_symdiff_built, "autograd": tool_autograd,
            "autograd_array": tool_autograd_array, "jax": tool_jax}


def run_tool(name, x, want, baseline, settings):
    try:
        gradient, argument, setup = BUILDERS[name](x)
    except run.Skip as skip:
        return {"status": "skipped", "note": str(skip)}
    except Exception as error:  # a tool that refuses the function is a result
        return {"status": "error", **run.describe(error)}
    try:
        result, timing = run.measure(gradient, (argument,), settings,
                                     None if name == "hand" else baseline)
        error = run.max_relative_error(tuple(float(g) for g in result), want)
    except Exception as failure:
        return {"status": "error", **run.describe(failure), **setup}
    record = {"status": "ok" if error <= run.RTOL else "wrong", "time_s": timing["median_s"],
              "ratio": timing.get("ratio", 1.0), "max_rel_err": error, "timing": timing,
              **setup}
    if record["status"] == "wrong":
        record["note"] = f"differs from the hand-written gradient by {error:.3g} (relative)"
    return record


def run_size(n, settings):
    x = point(n)
    want = tuple(rosenbrock_gradient(x))
    run.log(f"rosenbrock {n}: plain call")
    _, plain = run.measure(rosenbrock, (x,), settings)
    _, hand = run.measure(rosenbrock_gradient, (x,), settings)

    def on_the_list(argument):  # the baseline is timed on the list, whatever a tool takes
        return rosenbrock_gradient(x)
    record = {"n": n, "plain_s": plain["median_s"], "tools": {}}
    for name in TOOLS:
        run.log(f"rosenbrock {n}: {name}")
        record["tools"][name] = run_tool(name, x, want, (on_the_list, hand["number"]),
                                         settings)
    return record


def cell(record, notes, text):
    status = record["status"]
    if status == "skipped":
        return "skip " + notes.mark(record["note"])
    if status == "error":
        return "not supported " + notes.mark(record["note"])
    if status == "wrong":
        return f"**WRONG** {text} " + notes.mark(record["note"])
    return text


def times(ratio):
    """A ratio as the report prints it: two decimals below 10, whole numbers above."""
    return "—" if ratio is None else f"{ratio:.2f}×" if ratio < 10 else f"{ratio:,.0f}×"


def report(results):
    notes = run.Notes()
    m = results["machine"]
    out = ["# Rosenbrock over a list", "",
           f"{m['cpu']} ({m['cpu_count']} CPUs), Python {m['python']}, symdiff "
           f"{m['symdiff']} at {m['commit']}, load average {run.load(m['load_average_1min'])}"
           f" at start and {run.load(results['load_average_1min_end'])} at the end; "
           f"{results['mode']} run.", "",
           "Time of one gradient, and as a multiple of the hand-written gradient's:", ""]
    header = ["n", "plain call"] + [TITLES[name] for name in TOOLS]
    rows = []
    for r in results["sizes"]:
        row = [f"{r['n']:,}", run.seconds(r["plain_s"])]
        for name in TOOLS:
            t = r["tools"][name]
            row.append(cell(t, notes, f"{run.seconds(t.get('time_s'))} "
                            f"({times(t.get('ratio'))})"))
        rows.append(row)
    out += [run.table(header, rows), "", "Setup (symdiff: the first call, which builds the "
            "gradient; JAX: trace and compile):", ""]
    rows = [[f"{r['n']:,}"] + [cell(r["tools"][name], notes,
                                    run.seconds(r["tools"][name].get("setup_s")))
                               for name in ("symdiff", "jax")] for r in results["sizes"]]
    out += [run.table(["n", "symdiff", "JAX"], rows), ""]
    out += [f"[{i}] {text}" for i, text in enumerate(notes.texts, 1)]
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--json", default=str(HERE / "results-rosenbrock.json"),
                        metavar="PATH",
                        help="where to write the raw results (default: %(default)s)")
    options = parser.parse_args(argv)
    settings = run.QUICK if options.quick else run.FULL
    results = {"machine": run.machine(), "mode": settings.mode,
               "sizes": [run_size(n, settings) for n in SIZES]}
    results["load_average_1min_end"] = run.load_average()
    return run.publish(results, report, options.json)


if __name__ == "__main__":
    raise SystemExit(main())
