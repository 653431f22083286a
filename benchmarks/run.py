"""Benchmarks: symdiff's generated gradients against the alternatives, in one process.

    python benchmarks/run.py                 # full run, several minutes
    python benchmarks/run.py --quick         # fewer repetitions, scaling up to 1,000
    python benchmarks/run.py --json out.json # where the raw numbers go
    python benchmarks/run.py --no-scaling    # without the scaling section

For every workload in ``workloads.py`` it times the plain function and each way of
getting its gradient (the hand-written one, symdiff with and without its optimizer,
symdiff's tape engine, sympy, and autograd, JAX and PyTorch when they are importable),
checks each gradient against the hand-written one, and measures generation/setup time and
(for the long loop) peak memory.  A scaling section times symdiff's generation on
straight-line functions of growing length.  The report is printed as markdown; the raw
numbers are written as JSON.  Nothing is asserted: this is measurement.  Progress goes
to stderr, the report to stdout.
"""

import argparse
import contextlib
import gc
import inspect
import json
import math
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import types
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
for _path in (str(HERE.parent), str(HERE)):  # this checkout's symdiff, then workloads
    if _path not in sys.path:
        sys.path.insert(0, _path)

import symdiff
import symdiff.api
import sympy
from symdiff.witnesses.symbolic import symbolic

import workloads

RTOL = 1e-9


@dataclass(frozen=True)
class Settings:
    """How hard to measure."""

    mode: str
    target: float           # seconds per timed batch (the inner repetitions fill it)
    repeats: int            # timed batches per measurement, at most
    min_samples: int        # timed batches per measurement, at least
    budget: float           # no new batch is started after this many seconds
    sympy_limit: float      # seconds allowed for each sympy stage
    scaling_sizes: tuple
    thorough: bool          # run the tools taking seconds per call on the long loop, and
                            # trace the memory of all gradients, not only symdiff's


FULL = Settings("full", 0.2, 7, 3, 20.0, 30.0, (10, 100, 1000, 10000), True)
QUICK = Settings("quick", 0.02, 3, 1, 1.0, 3.0, (10, 100, 1000), False)
SLOW_ON_LONG_LOOP = ("tape", "autograd", "torch")   # seconds per call on 100,000 steps

TOOLS = ["plain", "hand", "symdiff", "symdiff_noopt", "tape", "sympy", "autograd", "jax",
         "torch"]
TITLES = {"plain": "plain call", "hand": "hand-written", "symdiff": "symdiff",
          "symdiff_noopt": "symdiff (no opt)", "tape": "tape", "sympy": "sympy",
          "autograd": "autograd", "jax": "JAX", "torch": "PyTorch"}
STARTED = time.perf_counter()


def log(message):
    print(f"[{time.perf_counter() - STARTED:7.1f}s] {message}", file=sys.stderr, flush=True)


# -- timing ------------------------------------------------------------------------------

def _batch(fn, args, number):
    """Seconds for ``number`` calls of ``fn(*args)``, with the collector off (as timeit)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(number):
            fn(*args)
        return time.perf_counter() - start
    finally:
        if enabled:
            gc.enable()


def measure(fn, args, settings, baseline=None):
    """``(result of the first call, timing)``; the median is seconds per call.

    The first call warms up and calibrates the number of calls per batch.  A call so
    slow that ``repeats`` of them would overrun the budget is timed one call per batch,
    and the first call counts as a sample.  ``baseline`` is ``(plain function, calls
    per batch)``: a batch of it is timed next to every batch of ``fn``, so that a ratio
    divides two times taken under the same machine load.
    """
    gc.collect()
    start = time.perf_counter()
    result = fn(*args)
    first = time.perf_counter() - start
    if first * settings.repeats > settings.budget:
        number, samples, began = 1, [first], start
    else:
        number = max(1, math.ceil(settings.target / max(first, 1e-7)))
        elapsed = _batch(fn, args, number)
        number = max(1, math.ceil(settings.target * number / max(elapsed, 1e-7)))
        samples, began = [], time.perf_counter()
    paired = []
    while True:
        if baseline is not None and len(paired) < len(samples):
            paired.append(_batch(baseline[0], args, baseline[1]) / baseline[1])
        if len(samples) >= settings.repeats or (
                len(samples) >= settings.min_samples
                and time.perf_counter() - began >= settings.budget):
            break
        samples.append(_batch(fn, args, number) / number)
    timing = {"median_s": statistics.median(samples), "min_s": min(samples),
              "number": number, "samples": len(samples)}
    if paired:
        timing["baseline_median_s"] = statistics.median(paired)
        timing["baseline_min_s"] = min(paired)
        timing["ratio"] = timing["median_s"] / timing["baseline_median_s"]
    return result, timing


def pass_row(workload, on, off, settings):
    """A table row of one optimizer pass: ``workload``'s plain call, its hand-written
    gradient's, the gradient built without the pass (``off``) and with it (``on``), each
    as a ratio to one plain call, then ``on`` against ``off`` and against the hand-written
    gradient, each pair timed in alternating batches; raises ``AssertionError`` where
    the two give other numbers at ``workload.point``."""
    args = workload.point
    if repr(on(*args)) != repr(off(*args)):
        raise AssertionError(f"{workload.name}: the gradients with and without the pass "
                             "differ")
    _, base = measure(workload.fn, args, settings)
    baseline = (workload.fn, base["number"])
    _, hand = measure(workload.hand, args, settings, baseline)
    _, new = measure(on, args, settings, baseline)
    _, old = measure(off, args, settings, baseline)
    _, versus = measure(on, args, settings, (off, old["number"]))
    _, over_hand = measure(on, args, settings, (workload.hand, hand["number"]))
    return [f"`{workload.name}`", seconds(base["median_s"]), f"{hand['ratio']:.2f}×",
            f"{old['ratio']:.2f}×", f"{new['ratio']:.2f}×", f"{versus['ratio']:.2f}×",
            f"{over_hand['ratio']:.2f}×"]


def median_time(action, settings, min_samples=None):
    """Median seconds of ``action()`` over a few runs (for generation and setup times)."""
    samples, began = [], time.perf_counter()
    least = settings.min_samples if min_samples is None else min_samples
    while len(samples) < settings.repeats and (
            len(samples) < least or time.perf_counter() - began < settings.budget):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def peak_memory(fn, args):
    """Peak bytes allocated by Python during one call of ``fn(*args)`` (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


class TimeLimit(BaseException):
    """Raised by ``time_limit``; a BaseException so library code does not swallow it."""


@contextlib.contextmanager
def time_limit(seconds):
    """Interrupt the block after ``seconds`` (SIGALRM; no limit where that is missing)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not (
            threading.main_thread()):
        yield
        return

    def interrupt(signum, frame):
        raise TimeLimit

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- checking ----------------------------------------------------------------------------

def as_floats(value):
    """A gradient (a float, or a tuple/list of them, or array scalars) as a float tuple."""
    items = value if isinstance(value, (tuple, list)) else (value,)
    return tuple(float(item) for item in items)


def max_relative_error(got, want):
    """max over components of |got - want| / |want| (the absolute error where want is 0)."""
    if len(got) != len(want):
        return math.inf
    return max((abs(g - w) / abs(w) if w else abs(g)) for g, w in zip(got, want))


def finite_difference_error(workload, hand):
    """max |central difference - hand| / max(|hand|, 1): the hand gradient's sanity check."""
    fn, point = workload.fn, list(workload.point)
    worst = 0.0
    for i, (x, want) in enumerate(zip(point, hand)):
        step = 1e-6 * max(1.0, abs(x))
        up, down = point.copy(), point.copy()
        up[i], down[i] = x + step, x - step
        estimate = (fn(*up) - fn(*down)) / (2 * step)
        worst = max(worst, abs(estimate - want) / max(abs(want), 1.0))
    return worst


# -- the tools: each returns (gradient callable, setup details) or raises Skip ------------

class Skip(Exception):
    """This tool cannot run on this workload here; the message says why."""


def generation_time(fn, settings, optimize, min_samples=None):
    """symdiff's transformation time, its cache cleared before every build."""
    def build():
        symdiff.api._CACHE.clear()
        symdiff.api.build(fn, None, optimize=optimize)
    return median_time(build, settings, min_samples)


def tool_symdiff(workload, settings, optimize=True):
    symdiff.api.build(workload.fn, None, optimize=optimize)  # errors surface here first
    setup = generation_time(workload.fn, settings, optimize)
    return symdiff.grad(workload.fn, optimize=optimize), {"setup_s": setup}


def tool_tape(workload, settings):
    return symdiff.tape.grad(workload.fn), {}


def tool_sympy(workload, settings):
    names = list(inspect.signature(workload.fn).parameters)
    stage = "building the expression"
    try:
        with time_limit(settings.sympy_limit):
            start = time.perf_counter()
            expression = symbolic(workload.fn, at=workload.point)
            built = time.perf_counter() - start
        stage = "diff + lambdify"
        with time_limit(settings.sympy_limit):
            start = time.perf_counter()
            symbols = [sympy.Symbol(name, real=True) for name in names]
            derivatives = [expression.diff(symbol) for symbol in symbols]
            gradient = sympy.lambdify(symbols, derivatives, modules="math", cse=True)
            setup = time.perf_counter() - start
    except symdiff.SymdiffError as error:
        raise Skip(f"symdiff.symbolic refuses it: {error.message}") from None
    except TimeLimit:
        raise Skip(f"expression swell: over the {settings.sympy_limit:g} s limit "
                   f"while {stage}") from None
    except RecursionError:
        raise Skip(f"expression depth: RecursionError inside sympy while {stage}") from None
    finally:
        sympy.core.cache.clear_cache()
    return gradient, {"setup_s": setup, "expression_s": built}


MATH_NAMES = ("sin", "cos", "tan", "exp", "log", "sqrt", "tanh", "atan", "pow")
NUMPY_NAMES = {"atan": "arctan", "pow": "power"}     # where numpy's spelling differs


def with_math(fn, **functions):
    """A copy of ``fn`` whose global ``math`` holds ``functions`` (another library's)."""
    namespace = types.SimpleNamespace(**functions)
    globals_ = dict(fn.__globals__, math=namespace)
    return types.FunctionType(fn.__code__, globals_, fn.__name__, fn.__defaults__,
                              fn.__closure__)


def _argnums(workload):
    n = len(workload.point)
    return 0 if n == 1 else tuple(range(n))


def tool_autograd(workload, settings):
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        raise Skip("autograd is not installed") from None
    fn = with_math(workload.fn, **{name: getattr(anp, NUMPY_NAMES.get(name, name))
                                   for name in MATH_NAMES})
    return autograd.grad(fn, _argnums(workload)), {}


def tool_jax(workload, settings):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        raise Skip("JAX is not installed") from None
    if "long" in workload.tags:
        raise Skip("JAX: jit would unroll the 100,000-step Python loop into the traced "
                   "program (it needs lax.fori_loop)")
    jax.config.update("jax_enable_x64", True)
    fn = with_math(workload.fn, **{name: getattr(jnp, NUMPY_NAMES.get(name, name))
                                   for name in MATH_NAMES})
    jitted = jax.jit(jax.grad(fn, argnums=_argnums(workload)))

    def gradient(*args):
        return jax.block_until_ready(jitted(*args))

    start = time.perf_counter()
    gradient(*workload.point)               # trace and compile
    return gradient, {"setup_s": time.perf_counter() - start}


def tool_torch(workload, settings):
    try:
        import torch
    except ImportError:
        raise Skip("PyTorch is not installed") from None

    def lift(function):
        return lambda *args: function(*(torch.as_tensor(a, dtype=torch.float64)
                                        for a in args))

    fn = with_math(workload.fn, **{name: lift(getattr(torch, name)) for name in MATH_NAMES})

    def gradient(*args):
        inputs = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in args]
        grads = torch.autograd.grad(fn(*inputs), inputs, allow_unused=True)
        return tuple(0.0 if g is None else g.item() for g in grads)

    return gradient, {}


TOOL_BUILDERS = {
    "symdiff": tool_symdiff,
    "symdiff_noopt": lambda w, s: tool_symdiff(w, s, optimize=False),
    "tape": tool_tape, "sympy": tool_sympy, "autograd": tool_autograd, "jax": tool_jax,
    "torch": tool_torch,
}


# -- one workload ------------------------------------------------------------------------

def describe(error):
    """A one-line note on an exception for the tables, and its full text for the JSON."""
    text = f"{type(error).__name__}: {error}"
    return {"note": text.splitlines()[0], "detail": text}


def run_tool(name, workload, hand, baseline, settings):
    """The record of one tool on one workload: status, time, ratio, setup, error."""
    if name == "hand":
        gradient, setup = workload.hand, {}
    elif "long" in workload.tags and name in SLOW_ON_LONG_LOOP and not settings.thorough:
        return {"status": "skipped", "note": "not run by --quick on the long loop "
                "(seconds per call)"}
    else:
        try:
            gradient, setup = TOOL_BUILDERS[name](workload, settings)
        except Skip as skip:
            return {"status": "skipped", "note": str(skip)}
        except Exception as error:  # a tool that breaks is a result, not a crash
            return {"status": "error", **describe(error)}
    try:
        result, timing = measure(gradient, workload.point, settings, baseline)
        error = max_relative_error(as_floats(result), hand)
    except Exception as failure:
        return {"status": "error", **describe(failure), **setup}
    status = "ok" if error <= RTOL else "wrong"
    record = {"status": status, "time_s": timing["median_s"],
              "ratio": timing["ratio"], "max_rel_err": error,
              "timing": timing, **setup}
    if status == "wrong":
        record["note"] = f"gradient {as_floats(result)} differs from the hand-written {hand}"
    return record


def run_workload(workload, settings):
    log(f"{workload.name}: plain call")
    value, plain = measure(workload.fn, workload.point, settings)
    hand = as_floats(workload.hand(*workload.point))
    record = {"name": workload.name, "description": workload.description,
              "point": list(workload.point), "value": value, "hand_gradient": list(hand),
              "hand_vs_finite_differences": finite_difference_error(workload, hand),
              "tools": {"plain": {"status": "ok", "time_s": plain["median_s"], "ratio": 1.0,
                                  "timing": plain}}}
    for name in TOOLS[1:]:
        log(f"{workload.name}: {name}")
        record["tools"][name] = run_tool(name, workload, hand,
                                         (workload.fn, plain["number"]), settings)
    if "long" in workload.tags:
        record["memory"] = memory_of(workload, settings)
    return record


def memory_of(workload, settings):
    """Peak traced bytes of one call: the plain function against the gradients."""
    makers = {"plain": lambda: workload.fn, "symdiff": lambda: symdiff.grad(workload.fn)}
    if settings.thorough:
        makers.update(hand=lambda: workload.hand,
                      symdiff_noopt=lambda: symdiff.grad(workload.fn, optimize=False),
                      tape=lambda: symdiff.tape.grad(workload.fn))
    peaks = {}
    for name, make in makers.items():
        log(f"{workload.name}: peak memory of {name}")
        try:
            peaks[name] = peak_memory(make(), workload.point)
        except Exception:  # already reported with the timings
            continue
    return peaks


# -- scaling -----------------------------------------------------------------------------

def run_scaling(size, directory, settings):
    """Generation time and generated size for a straight-line chain of ``size`` statements."""
    log(f"scaling: {size} statements")
    text = workloads.chain_source(size)
    fn = getattr(workloads.import_source(text, directory, f"symdiff_bench_chain_{size}"),
                 f"chain_{size}")
    symdiff.api._CACHE.clear()
    start = time.perf_counter()
    built = symdiff.api.build(fn, None)
    cold = time.perf_counter() - start
    record = {"statements": size, "source_lines": text.count("\n"),
              "source_bytes": len(text.encode()), "first_build_s": cold,
              "generated_lines": len(built.source.splitlines()),
              "generated_bytes": len(built.source.encode())}
    record["generation_s"] = generation_time(fn, settings, True, min_samples=1)
    record["generation_noopt_s"] = generation_time(fn, settings, False, min_samples=1)
    # Python's own compile() of the same source: the yardstick for generation time
    record["compile_s"] = median_time(lambda: compile(text, f"chain_{size}.py", "exec"),
                                      settings, min_samples=3)
    point = (0.3, 0.6, -0.2)
    gradient = symdiff.api.build(fn, None).function
    _, plain = measure(fn, point, settings)
    result, timing = measure(gradient, point, settings, (fn, plain["number"]))
    record.update(plain_s=plain["median_s"], grad_s=timing["median_s"], ratio=timing["ratio"],
                  max_rel_err_vs_tape=max_relative_error(
                      as_floats(result), as_floats(symdiff.tape.grad(fn)(*point))))
    return record


# -- the report --------------------------------------------------------------------------

def machine():
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    try:
        import numpy
        numpy_version = numpy.__version__
    except ImportError:
        numpy_version = None
    return {"load_average_1min": load_average(), "commit": commit(),
            "platform": platform.platform(), "machine": platform.machine(), "cpu": cpu,
            "cpu_count": os.cpu_count(), "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
            "symdiff": symdiff.__version__, "sympy": sympy.__version__,
            "numpy": numpy_version}


def load_average():
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


def commit():
    """The checkout's git commit (``+dirty`` with uncommitted changes), or None."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "symdiff"], cwd=HERE.parent,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+dirty" if dirty else "")


def load(value):
    return "n/a" if value is None else f"{value:.2f}"


def seconds(value):
    if value is None:
        return "—"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value / 1e-9:.3g} ns"


def size(value):
    for unit, scale in (("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value} B"


class Notes:
    """Numbered footnotes, each text once."""

    def __init__(self):
        self.texts = []

    def mark(self, text):
        if text not in self.texts:
            self.texts.append(text)
        return f"[{self.texts.index(text) + 1}]"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] * len(header)) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def cell(record, notes, value, judged=True):
    """A tool's table cell: ``value(record)`` when it ran, else why not.

    ``judged`` cells (times and errors of the gradient) also say when it was wrong.
    """
    status = record["status"]
    if status == "skipped":
        return "skip " + notes.mark(record["note"])
    if status == "error":
        return "**FAILED** " + notes.mark(record["note"])
    text = value(record)
    if status == "ok" or not judged:
        return text
    return f"**WRONG** {text} " + notes.mark(record["note"])


def report(results):
    notes = Notes()
    m = results["machine"]
    out = ["# symdiff benchmarks", "",
           f"Machine: {m['platform']} ({m['machine']}), CPU {m['cpu']}, {m['cpu_count']} "
           f"CPUs; {m['implementation']} {m['python']}; symdiff {m['symdiff']} (commit "
           f"{m['commit'] or 'unknown'}), sympy "
           f"{m['sympy']}, numpy {m['numpy']}. Mode: {results['mode']}. Load average "
           f"(1 min) at start {load(m['load_average_1min'])}, at end "
           f"{load(results['load_average_1min_end'])}.", "",
           "## Gradient time / plain call time (median)", ""]
    rows = []
    for w in results["workloads"]:
        tools = w["tools"]
        rows.append([w["name"], seconds(tools["plain"]["time_s"])] + [
            cell(tools[name], notes, lambda r: f"{r['ratio']:.3g}×") for name in TOOLS[1:]])
    out += [table(["workload"] + [TITLES[name] for name in TOOLS], rows), ""]
    out += ["## Generation / setup time (median)", ""]
    rows = []
    for w in results["workloads"]:
        tools = w["tools"]
        rows.append([w["name"]] + [
            cell(tools[name], notes, lambda r, key=key: seconds(r.get(key)), judged=False)
            for name, key in (("symdiff", "setup_s"), ("symdiff_noopt", "setup_s"),
                              ("sympy", "expression_s"), ("sympy", "setup_s"),
                              ("jax", "setup_s"))])
    out += [table(["workload", "symdiff generation", "symdiff generation (no opt)",
                   "sympy expression", "sympy diff + lambdify", "JAX jit"], rows), ""]
    out += [f"## Max relative error against the hand-written gradient (rtol {RTOL:g})", ""]
    rows = []
    for w in results["workloads"]:
        rows.append([w["name"]] + [cell(w["tools"][name], notes,
                                        lambda r: f"{r['max_rel_err']:.2g}")
                                   for name in TOOLS[2:]]
                    + [f"{w['hand_vs_finite_differences']:.2g}"])
    out += [table(["workload"] + [TITLES[name] for name in TOOLS[2:]]
                  + ["hand vs finite diff."], rows), ""]
    out += memory_section(results) + scaling_section(results)
    if notes.texts:
        out += ["## Notes", ""] + [f"{i}. {text}" for i, text in enumerate(notes.texts, 1)]
    failures = symdiff_failures(results)
    if failures:
        out += ["", "## symdiff failures", ""] + [f"- {line}" for line in failures]
    return "\n".join(out) + "\n"


def memory_section(results):
    out = []
    for w in results["workloads"]:
        if "memory" not in w:
            continue
        peaks = w["memory"]
        rows = [[TITLES[name], size(peaks[name]), f"{peaks[name] / max(peaks['plain'], 1):.3g}×",
                 seconds(w["tools"][name].get("time_s"))] for name in TOOLS if name in peaks]
        out += [f"## Peak memory of one call, {w['name']} (tracemalloc)", "",
                table(["", "peak", "× plain", "time per call"], rows), ""]
    return out


def scaling_row(r):
    if "error" in r:
        return [r["statements"], "**FAILED** (see the symdiff failures)"] + [""] * 12
    return [r["statements"], r["source_lines"], r["generated_lines"],
            size(r["generated_bytes"]), seconds(r["first_build_s"]),
            seconds(r.get("compile_s")), seconds(r.get("generation_s")),
            times_compile(r, "generation_s"), seconds(r.get("generation_noopt_s")),
            times_compile(r, "generation_noopt_s"), seconds(r["plain_s"]),
            seconds(r["grad_s"]), f"{r['ratio']:.3g}×", f"{r['max_rel_err_vs_tape']:.2g}"]


def times_compile(r, key):
    """A generation time in units of ``compile()`` of the same source."""
    if r.get(key) is None or not r.get("compile_s"):
        return ""
    return f"{r[key] / r['compile_s']:.0f}×"


def scaling_section(results):
    rows = [scaling_row(r) for r in results["scaling"]]
    if not rows:
        return []
    return ["## Scaling: straight-line functions", "",
            table(["statements", "source lines", "generated lines", "generated size",
                   "first build", "compile()", "generation", "× compile()",
                   "generation (no opt)", "× compile()", "plain call", "gradient call",
                   "ratio", "error vs tape"], rows), ""]


def symdiff_failures(results):
    lines = []
    for w in results["workloads"]:
        for name in ("symdiff", "symdiff_noopt"):
            record = w["tools"][name]
            if record["status"] in ("error", "wrong"):
                lines.append(f"{w['name']} ({TITLES[name]}): {record['note']}")
    for r in results["scaling"]:
        if "error" in r:
            lines.append(f"chain_{r['statements']}: {r['error']}")
        elif not r["max_rel_err_vs_tape"] <= RTOL:
            lines.append(f"chain_{r['statements']}: differs from the tape by "
                         f"{r['max_rel_err_vs_tape']:.2g}")
    return lines


def jsonable(value):
    """``value`` with non-finite floats as strings (JSON has no inf or nan)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer repetitions and scaling up to 1,000 statements")
    parser.add_argument("--json", default=str(HERE / "results.json"), metavar="PATH",
                        help="where to write the raw results (default: %(default)s)")
    parser.add_argument("--no-scaling", action="store_true", help="skip the scaling section")
    options = parser.parse_args(argv)
    settings = QUICK if options.quick else FULL
    results = {"machine": machine(), "mode": settings.mode, "settings": vars_of(settings),
               "rtol": RTOL, "workloads": [], "scaling": []}
    with tempfile.TemporaryDirectory(prefix="symdiff-bench-") as directory:
        for workload in workloads.all_workloads(directory):
            results["workloads"].append(run_workload(workload, settings))
        if not options.no_scaling:
            for n in settings.scaling_sizes:
                try:
                    results["scaling"].append(run_scaling(n, directory, settings))
                except Exception as error:  # reported, and the larger sizes skipped
                    results["scaling"].append({"statements": n,
                                               "error": describe(error)["note"]})
                    break
    results["symdiff_failures"] = symdiff_failures(results)
    results["load_average_1min_end"] = load_average()
    results["total_s"] = time.perf_counter() - STARTED
    return publish(results, report, options.json)


def publish(results, report, path):
    """Print ``report(results)``, write ``results`` to ``path`` as JSON; 0, the exit code."""
    print(report(results))
    Path(path).write_text(json.dumps(jsonable(results), indent=2) + "\n", encoding="utf-8")
    log(f"wrote {path}")
    return 0


def vars_of(settings):
    return {name: getattr(settings, name) for name in settings.__dataclass_fields__}


if __name__ == "__main__":
    raise SystemExit(main())
