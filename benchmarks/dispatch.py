"""The cost of finding a build: gradients of functions of containers, call by call.

    python benchmarks/dispatch.py                 # a few minutes
    python benchmarks/dispatch.py --quick         # fewer repetitions
    python benchmarks/dispatch.py --tree /tmp/old # another checkout's symdiff, to compare

For each workload of ``dispatch_workloads.py`` (and ``workloads.py``'s Rosenbrock of ten
scalars, built once, for comparison) it times, with ``run.py``'s ``measure`` (each ratio
from batches alternating with its baseline's): the hand-written gradient, symdiff's
gradient as users call it, and symdiff's generated function called directly (the build
already found), each against one plain call of the function; symdiff's gradient
against the hand-written one; and the call against the generated function alone, which
gives the dispatch's share of the call.  Every gradient is checked against the
hand-written one.  Nothing is asserted; the report is printed as markdown.
"""

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--tree", metavar="DIR", help="measure the symdiff of checkout DIR")
    return parser.parse_args(argv)


def gradients(workload, symdiff):
    """``(symdiff's gradient as called, its generated function)`` for ``workload``."""
    gradient = symdiff.grad(workload.fn, wrt=0 if workload.hand.__name__ != (
        "rosenbrock_grad") else None)
    gradient(*workload.point)  # builds it for these kinds
    built = getattr(gradient, "_last", None)
    if built is None:  # a function of numbers: built when grad was applied
        built = symdiff.api.build(workload.fn, gradient.wrt if hasattr(gradient, "wrt")
                                  else None)
    return gradient, built.function


def flat(value):
    if hasattr(value, "__dataclass_fields__"):
        return flat(vars(value))
    if isinstance(value, dict):
        return [x for v in value.values() for x in flat(v)]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in flat(v)]
    return [float(value)]


def run_one(workload, symdiff, run, settings):
    run.log(f"{workload.name}")
    gradient, generated = gradients(workload, symdiff)
    args = workload.point
    _, plain = run.measure(workload.fn, args, settings)
    baseline = (workload.fn, plain["number"])
    hand, hand_t = run.measure(workload.hand, args, settings, baseline)
    got, sym_t = run.measure(gradient, args, settings, baseline)
    _, gen_t = run.measure(generated, args, settings, baseline)
    _, versus_hand = run.measure(gradient, args, settings, (workload.hand, hand_t["number"]))
    _, versus_gen = run.measure(gradient, args, settings, (generated, gen_t["number"]))
    error = run.max_relative_error(flat(got), flat(hand))
    return {"name": workload.name, "description": workload.description,
            "plain_s": plain["median_s"], "hand": hand_t["ratio"], "symdiff": sym_t["ratio"],
            "generated": gen_t["ratio"], "symdiff_vs_hand": versus_hand["ratio"],
            "call_vs_generated": versus_gen["ratio"], "max_rel_err": error}


def report(rows, run, commit):
    header = ["workload", "plain call", "hand-written", "symdiff", "symdiff's generated "
              "function", "symdiff / hand-written", "dispatch share of the call",
              "dispatch / generated function", "max rel. error"]
    lines = [f"symdiff at {commit}, load average {run.load(run.load_average())}", ""]
    table = [[f"`{r['name']}`", run.seconds(r["plain_s"]), f"{r['hand']:.2f}×",
              f"{r['symdiff']:.2f}×", f"{r['generated']:.2f}×", f"{r['symdiff_vs_hand']:.2f}×",
              f"{1 - 1 / r['call_vs_generated']:.0%}", f"{r['call_vs_generated'] - 1:.0%}",
              f"{r['max_rel_err']:.1e}"] for r in rows]
    return "\n".join(lines) + run.table(header, table)


def main(argv=None):
    options = _arguments(argv)
    if options.tree:  # that checkout's symdiff, imported before run.py puts ours first
        sys.path.insert(0, str(Path(options.tree).resolve()))
    import symdiff
    import symdiff.api
    sys.path.insert(0, str(HERE))
    import dispatch_workloads
    import run
    import workloads
    settings = run.QUICK if options.quick else run.FULL
    found = dispatch_workloads.all_workloads()
    found.append(workloads.Workload(
        "rosenbrock", "workloads.py's Rosenbrock of 10 scalars, a loop (built once)",
        workloads.rosenbrock, workloads.rosenbrock_grad,
        (-1.2, 1.0, 0.8, -0.5, 0.3, 1.1, 0.9, -0.7, 0.2, 1.4)))
    rows = [run_one(w, symdiff, run, settings) for w in found]
    tree = options.tree or str(HERE.parent)
    print(report(rows, run, f"{Path(symdiff.__file__).parent.parent} ({_commit(tree)})"))
    return 0


def _commit(tree):
    import subprocess
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree,
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


if __name__ == "__main__":
    raise SystemExit(main())
