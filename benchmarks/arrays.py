"""Array gradients: symdiff against hand-written NumPy, autograd, JAX and PyTorch, in one run.

    python benchmarks/arrays.py                  # both sizes, several minutes
    python benchmarks/arrays.py --quick          # the small sizes, few repeats: under a minute
    python benchmarks/arrays.py --sizes large --only rnn,kernel
    python benchmarks/arrays.py --json out.json  # raw numbers (default: results_arrays.json)

For every workload of ``array_workloads.py`` at each size it times one plain call of the
function and each way of getting its gradient: the hand-written one, symdiff's gradient as
a user calls it (``symdiff.grad``) and the function symdiff generated called directly,
symdiff's tape engine, autograd, JAX op by op and under ``jax.jit`` (the compile, the first
call, reported apart) and PyTorch eager, each when it is importable (skipped with a note
otherwise).  Every library runs on one thread: the thread variables of the BLAS libraries,
OpenMP and XLA are set before NumPy is imported, and PyTorch is told
``set_num_threads(1)``.  Before a tool is timed, its gradient is checked against the
hand-written one (``np.allclose`` to ``RTOL``, each array scaled by its largest element);
the hand-written one is checked against central differences along random directions.  A
ratio is the median time of one gradient over the median time of one plain call, batches
of the two timed alternately (``run.measure``).  At the large sizes the peak memory of one
gradient call is traced (``tracemalloc``: what Python and NumPy's array buffers allocate
during the call; the allocators of JAX and PyTorch are invisible to it).  The report is
printed as markdown, the raw numbers written as JSON; progress goes to stderr.  Nothing is
asserted: a wrong or failing gradient is reported.
"""

import sys

import threads

if __name__ == "__main__":
    threads.one_thread()

import argparse  # noqa: E402  (after the thread variables are set)
import dataclasses  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
for _path in (str(HERE.parent), str(HERE)):  # this checkout's symdiff, then the workloads
    if _path not in sys.path:
        sys.path.insert(0, _path)

import array_tools  # noqa: E402
import array_workloads  # noqa: E402
import run  # noqa: E402

RTOL = 1e-7
TOOLS = ("hand", "symdiff", "generated", "tape", "autograd", "jax", "jax_jit", "torch")
TITLES = {"plain": "plain call", "hand": "hand-written", "symdiff": "symdiff",
          "generated": "symdiff's generated function", "tape": "tape",
          "autograd": "autograd", "jax": "JAX", "jax_jit": "jax.jit", "torch": "PyTorch"}
TRACED = ("plain", "hand", "symdiff", "generated", "tape", "autograd")  # NumPy inside


# -- checking ------------------------------------------------------------------------------

def as_arrays(value):
    """A gradient (an array, a number, or a tuple of them) as a list of float arrays."""
    items = value if isinstance(value, (tuple, list)) else (value,)
    return [np.asarray(item, dtype=float) for item in items]


def gradient_error(got, want):
    """``(error, ok)``: the largest ``|g - h| / max|h|`` over the arrays, and allclose."""
    got, want = as_arrays(got), as_arrays(want)
    if len(got) != len(want) or any(g.shape != h.shape for g, h in zip(got, want)):
        return float("inf"), False
    error, ok = 0.0, True
    for g, h in zip(got, want):
        scale = max(float(np.max(np.abs(h), initial=0.0)), np.finfo(float).tiny)
        error = max(error, float(np.max(np.abs(g - h), initial=0.0)) / scale)
        ok = ok and bool(np.allclose(g, h, rtol=RTOL, atol=RTOL * scale))
    return error, ok


def finite_difference_error(workload, hand, seed=0, step=1e-6):
    """The hand-written gradient against central differences along random directions:
    the largest ``|fd - <g, v>| / max(|fd|, 1)`` over the differentiated parameters."""
    names = array_tools.parameters(workload.fn)
    rng, worst = np.random.default_rng(seed), 0.0
    for name, g in zip(workload.wrt, as_arrays(hand)):
        i = names.index(name)
        direction = rng.normal(size=np.shape(workload.point[i]))

        def moved(s, i=i, direction=direction):
            point = list(workload.point)
            point[i] = point[i] + s * direction
            return float(workload.fn(*point))

        estimate = (moved(step) - moved(-step)) / (2 * step)
        worst = max(worst, abs(estimate - float(np.sum(g * direction))) / max(abs(estimate), 1))
    return worst


def prepare(name, workload):
    """The tool ``name`` made ready for ``workload`` (an ``array_tools.Prepared``), or a
    record of why not: ``{"status": "skipped" | "error", "note": ...}``."""
    try:
        return array_tools.BUILDERS[name](workload)
    except array_tools.Skip as skip:
        return {"status": "skipped", "note": str(skip)}
    except Exception as error:  # a tool that breaks is a result, not a crash
        return {"status": "error", **run.describe(error)}


def check(name, workload, hand):
    """``(prepared tool or None, record)``: the tool's first gradient against ``hand``."""
    prepared = prepare(name, workload)
    if isinstance(prepared, dict):
        return None, prepared
    try:
        got = prepared.to_numpy(prepared.call())
    except Exception as error:
        return None, {"status": "error", **run.describe(error), **prepared.setup}
    error, ok = gradient_error(got, hand)
    record = {"status": "ok" if ok else "wrong", "max_rel_err": error, **prepared.setup}
    if not ok:
        record["note"] = f"{TITLES[name]}'s gradient differs from the hand-written one " \
                         f"by {error:.3g} (relative to each array's largest element)"
    return prepared, record


def check_all(workload, tools=TOOLS):
    """``{tool: record}``: every tool's gradient checked against the hand-written one."""
    hand = workload.hand(*workload.point)
    return {name: check(name, workload, hand)[1] for name in tools}


# -- one workload --------------------------------------------------------------------------

def run_workload(workload, settings, tools):
    run.log(f"{workload.name}: plain call")
    point = workload.point
    plain = (lambda: workload.fn(*point))
    _, plain_timing = run.measure(plain, (), settings)
    hand = workload.hand(*point)
    record = {"name": workload.name, "description": workload.description,
              "size": workload.tags[0], "wrt": list(workload.wrt),
              "shapes": [list(np.shape(a)) for a in point],
              "hand_vs_finite_differences": finite_difference_error(workload, hand),
              "tools": {"plain": {"status": "ok", "time_s": plain_timing["median_s"],
                                  "ratio": 1.0, "timing": plain_timing}}}
    calls = {"plain": plain}
    for name in tools:
        run.log(f"{workload.name}: {name}")
        prepared, result = check(name, workload, hand)
        if prepared is not None and result["status"] == "ok":
            _, timing = run.measure(prepared.call, (), settings,
                                    (plain, plain_timing["number"]))
            result.update(time_s=timing["median_s"], ratio=timing["ratio"], timing=timing)
            calls[name] = prepared.call
        record["tools"][name] = result
    if workload.tags[0] == "large":
        record["memory"] = memory_of(workload, calls)
    return record


def memory_of(workload, calls):
    """Peak bytes traced during one call of each NumPy tool that ran (tracemalloc)."""
    peaks = {}
    for name in TRACED:
        if name in calls:
            run.log(f"{workload.name}: peak memory of {name}")
            peaks[name] = run.peak_memory(calls[name], ())
    return peaks


# -- the report ----------------------------------------------------------------------------

def ratio_cell(record, notes):
    if record["status"] == "ok":
        return f"{record['ratio']:.3g}×"
    return run.cell(record, notes, lambda r: "")


def over_hand(tools, name):
    """A tool's ratio over the hand-written gradient's (both over the same plain call)."""
    if tools[name]["status"] != "ok" or tools["hand"]["status"] != "ok":
        return "—"
    return f"{tools[name]['ratio'] / tools['hand']['ratio']:.2f}×"


def ratio_table(rows, tools, notes):
    header = ["workload", "plain call"] + [TITLES[t] for t in tools]
    if "symdiff" in tools and "hand" in tools:
        header.append("symdiff / hand-written")
    body = []
    for w in rows:
        line = [w["name"], run.seconds(w["tools"]["plain"]["time_s"])]
        line += [ratio_cell(w["tools"][t], notes) for t in tools]
        if "symdiff" in tools and "hand" in tools:
            line.append(over_hand(w["tools"], "symdiff"))
        body.append(line)
    return run.table(header, body)


def setup_table(rows, notes):
    body = []
    for w in rows:
        tools = w["tools"]
        line = [w["name"]]
        for name, key in (("symdiff", "setup_s"), ("jax_jit", "setup_s")):
            record = tools.get(name, {"status": "skipped", "note": "not run"})
            line.append(run.cell(record, notes, lambda r, key=key: run.seconds(r.get(key)),
                                 judged=False))
        body.append(line)
    return run.table(["workload", "symdiff: generation (first call)",
                      "jax.jit: trace + compile (first call)"], body)


def error_table(rows, tools, notes):
    body = [[w["name"]] + [run.cell(w["tools"][t], notes,
                                    lambda r: f"{r['max_rel_err']:.2g}") for t in tools]
            + [f"{w['hand_vs_finite_differences']:.2g}"] for w in rows]
    return run.table(["workload"] + [TITLES[t] for t in tools]
                     + ["hand vs finite differences"], body)


def memory_table(rows):
    body = []
    for w in rows:
        peaks = w.get("memory")
        if not peaks:
            continue
        body.append([w["name"]] + [run.size(peaks[t]) if t in peaks else "—" for t in TRACED])
    if not body:
        return []
    return ["## Peak memory of one call at the large sizes (tracemalloc)", "",
            "What Python and NumPy's array buffers allocate during one call, the arrays "
            "it returns included and its arguments not; JAX and PyTorch allocate outside "
            "tracemalloc's view and are not listed.", "",
            run.table(["workload"] + [TITLES[t] for t in TRACED], body), ""]


def report(results):
    notes = run.Notes()
    m, tools = results["machine"], results["tools"]
    out = ["# symdiff array benchmarks", "",
           f"Machine: {m['platform']} ({m['machine']}), CPU {m['cpu']}, {m['cpu_count']} "
           f"CPUs, one thread per library; {m['implementation']} {m['python']}; symdiff "
           f"(commit {m['commit'] or 'unknown'}), numpy {m['numpy']}; "
           + ", ".join(f"{k} {v}" for k, v in results["versions"].items())
           + f". Mode: {results['mode']}. Load average (1 min) at start "
           f"{run.load(m['load_average_1min'])}, at end "
           f"{run.load(results['load_average_1min_end'])}.", ""]
    for size in results["sizes"]:
        rows = [w for w in results["workloads"] if w["size"] == size]
        out += [f"## Gradient time / plain call time, {size} sizes (median)", "",
                ratio_table(rows, tools, notes), ""]
    rows = results["workloads"]
    out += ["## One-time costs", "", setup_table(rows, notes), ""]
    out += [f"## Largest error against the hand-written gradient (allclose, rtol {RTOL:g})",
            "", error_table(rows, tools, notes), ""]
    out += memory_table(rows)
    if notes.texts:
        out += ["## Notes", ""] + [f"{i}. {text}" for i, text in enumerate(notes.texts, 1)]
    return "\n".join(out) + "\n"


# -- main ----------------------------------------------------------------------------------

def _arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="the small sizes only, few repetitions (under a minute)")
    parser.add_argument("--sizes", help="comma-separated: small, large (default: both)")
    parser.add_argument("--only", help="comma-separated workload names (default: all)")
    parser.add_argument("--tools", help=f"comma-separated, of {', '.join(TOOLS)}")
    parser.add_argument("--json", default=str(HERE / "results_arrays.json"), metavar="PATH",
                        help="where to write the raw results (default: %(default)s)")
    return parser.parse_args(argv)


def main(argv=None):
    options = _arguments(argv)
    settings = run.QUICK if options.quick else run.FULL
    sizes = options.sizes.split(",") if options.sizes else (
        ["small"] if options.quick else list(array_workloads.SIZES))
    names = options.only.split(",") if options.only else list(array_workloads.TABLE)
    tools = options.tools.split(",") if options.tools else list(TOOLS)
    results = {"machine": run.machine(), "versions": array_tools.versions(),
               "mode": settings.mode, "settings": dataclasses.asdict(settings), "rtol": RTOL,
               "sizes": sizes, "tools": tools, "threads": threads.settings(),
               "workloads": []}
    for size in sizes:
        for name in names:
            workload = array_workloads.make(name, size)
            results["workloads"].append(run_workload(workload, settings, tools))
    results["load_average_1min_end"] = run.load_average()
    results["total_s"] = time.perf_counter() - run.STARTED
    return run.publish(results, report, options.json)


if __name__ == "__main__":
    raise SystemExit(main())
