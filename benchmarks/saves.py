"""Loop gradients with their saves packed, against the same gradients saving one by one.

    python benchmarks/saves.py            # a few minutes
    python benchmarks/saves.py --quick    # under a minute, for seeing that it runs

For each workload with a loop (``workloads.py``'s Rosenbrock, swell loops and recurrence,
``dispatch_workloads.py``'s MLP, logistic loss and Rosenbrock over a list), in one
process: the plain call; the hand-written gradient; symdiff's generated function as
built (``optimize.saves`` packs what an iteration saves); the generated function built
with ``pack=False`` (one push per value, as before the packing); each as a multiple of
one plain call, and the packed over the one-by-one from batches timed alternately
(``run.py``'s ``measure``).  Both generated functions are called directly (no
dispatch), and their results are checked to be the same bit for bit.
"""

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
for _path in (str(HERE.parent), str(HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import symdiff  # noqa: E402
import symdiff.api  # noqa: E402
from symdiff.specialized import container_kinds  # noqa: E402

import dispatch_workloads  # noqa: E402
import run  # noqa: E402
import workloads  # noqa: E402

LOOPED = ("recurrence", "rosenbrock", "swell_loop_5", "swell_loop_40")


def generated(workload, wrt, pack):
    """The generated function for ``workload``'s arguments, packed or not."""
    kinds = container_kinds(workload.fn, workload.point)
    return symdiff.api.build(workload.fn, wrt, kinds=kinds, pack=pack).function


def row(workload, wrt, settings):
    run.log(workload.name)
    packed, plain = generated(workload, wrt, True), generated(workload, wrt, False)
    return run.pass_row(workload, packed, plain, settings)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    options = parser.parse_args(argv)
    settings = run.QUICK if options.quick else run.FULL
    with tempfile.TemporaryDirectory() as directory:  # where the nests are written
        found = [(w, None) for w in workloads.all_workloads(directory) if w.name in LOOPED]
    found += [(w, 0) for w in dispatch_workloads.all_workloads() if w.name != "mlp_object"]
    header = ["workload", "plain call", "hand-written", "symdiff, one by one",
              "symdiff, packed", "packed / one by one", "packed / hand-written"]
    print(f"load average {run.load(run.load_average())}\n")
    print(run.table(header, [row(w, wrt, settings) for w, wrt in found]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
