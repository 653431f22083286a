"""Loop gradients with their loop invariants computed once, against the same gradients
computing them on every iteration.

    python benchmarks/invariants.py            # a few minutes
    python benchmarks/invariants.py --quick    # under a minute, for seeing that it runs

For ``workloads.py``'s RK4 integrator, Rosenbrock, the nests and the loops, in one
process: the plain call; the hand-written gradient; symdiff's generated function as
built (``optimize.invariants`` moves what a loop computes alike on every iteration
before it); the generated function built without that pass; each as a multiple of one
plain call, and the one over the other from batches timed alternately (``run.py``'s
``measure``).  Both generated functions are called directly (no dispatch), and their
results are checked to be the same bit for bit.
"""

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
for _path in (str(HERE.parent), str(HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import symdiff.api  # noqa: E402
from symdiff.optimize import driver  # noqa: E402
from symdiff.optimize.invariants import hoist_invariants  # noqa: E402
from symdiff.specialized import container_kinds  # noqa: E402

import run  # noqa: E402
import workloads  # noqa: E402

NAMES = ("rk4", "rosenbrock", "nest_5", "nest_10", "nest_20", "recurrence", "swell_loop_5",
         "swell_loop_40")


def generated(workload, hoist):
    """The generated function for ``workload``'s arguments, with its loops' invariants
    moved before them or not."""
    kinds = container_kinds(workload.fn, workload.point)
    saved = driver.PASSES
    if not hoist:
        driver.PASSES = tuple(p for p in saved if p is not hoist_invariants)
    symdiff.api._CACHE.clear()
    try:
        return symdiff.api.build(workload.fn, workload.wrt, kinds=kinds).function
    finally:
        driver.PASSES = saved
        symdiff.api._CACHE.clear()


def row(workload, settings):
    run.log(workload.name)
    moved, kept = generated(workload, True), generated(workload, False)
    return run.pass_row(workload, moved, kept, settings)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    options = parser.parse_args(argv)
    settings = run.QUICK if options.quick else run.FULL
    with tempfile.TemporaryDirectory() as directory:  # where the nests are written
        found = [w for w in workloads.all_workloads(directory) if w.name in NAMES]
        header = ["workload", "plain call", "hand-written", "symdiff, in the loop",
                  "symdiff, moved", "moved / in the loop", "moved / hand-written"]
        print(f"load average {run.load(run.load_average())}\n")
        print(run.table(header, [row(w, settings) for w in found]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
