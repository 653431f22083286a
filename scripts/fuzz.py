"""Run the differential fuzzer on as many random programs as asked.

    python scripts/fuzz.py --programs 10000 --seed 1
    python scripts/fuzz.py --programs 20000 --seed 1 --jobs 2 --shrink

Programs come from tests/fuzzing.py (the generator tests/end_to_end/test_fuzz.py uses), in
batches of ``--batch`` written to module files in a temporary directory.  Each
program is checked at ``--points`` points: the generated gradient against the tape
engine, and against sympy on every ``--sympy-every``-th program; ``optimize=False``,
``jvp`` and ``hessian`` on every ``--optimizer-every``/``--jvp-every``/
``--hessian-every``-th.  Program ``i`` of seed ``s`` is the same whatever ``--jobs``
and ``--batch`` say, so a reported program can be rebuilt from the two numbers.

Prints the counts and each mismatch (the program source and the point; with
``--shrink``, also a smaller program failing the same way).  Exit status 1 when
anything mismatched.
"""

import argparse
import collections
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzzing  # noqa: E402  (tests/ holds the generator)

COUNTS = ("programs", "points", "skipped_points", "sympy_points", "sympy_skipped")


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=1000, help="how many programs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", choices=("small", "medium", "mixed"), default="mixed",
                        help="program size; mixed alternates small and medium batches")
    parser.add_argument("--features", choices=("default", "all"), default="default",
                        help="all: also the features that meet known symdiff bugs")
    parser.add_argument("--points", type=int, default=3, help="points per program")
    parser.add_argument("--sympy-every", type=int, default=4, metavar="K")
    parser.add_argument("--optimizer-every", type=int, default=5, metavar="K")
    parser.add_argument("--jvp-every", type=int, default=5, metavar="K")
    parser.add_argument("--hessian-every", type=int, default=20, metavar="K")
    parser.add_argument("--sympy-seconds", type=float, default=5.0, metavar="S",
                        help="skip sympy on a program it has not finished in S seconds")
    parser.add_argument("--batch", type=int, default=25,
                        help="programs per module file (symdiff walks a lambda's whole file)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--shrink", action="store_true",
                        help="also print a smaller program for each failing one")
    parser.add_argument("--show", type=int, default=20, metavar="N",
                        help="print at most N mismatches (all are counted)")
    return parser.parse_args(argv)


def batches(options):
    """(first program index, count, size) for each batch."""
    found = []
    for number, first in enumerate(range(0, options.programs, options.batch)):
        size = options.size
        if size == "mixed":
            size = "small" if number % 2 == 0 else "medium"
        found.append((first, min(options.batch, options.programs - first), size))
    return found


def run_batch(job):
    """Check one batch in a fresh directory; the tally without unpicklable functions."""
    options, (first, count, size) = job
    features = fuzzing.ALL_FEATURES if options.features == "all" else fuzzing.DEFAULT_FEATURES
    fuzzing.SYMPY_SECONDS = options.sympy_seconds
    with tempfile.TemporaryDirectory(prefix="symdiff-fuzz-") as directory:
        tally = fuzzing.run(options.seed, count, directory, features=features, size=size,
                            points_per_program=options.points,
                            sympy_every=options.sympy_every,
                            optimizer_every=options.optimizer_every,
                            jvp_every=options.jvp_every,
                            hessian_every=options.hessian_every,
                            batch=count, start=first)
        shrunk = {}
        if options.shrink:
            for mismatch in tally.mismatches:
                key = mismatch.program.index
                if key not in shrunk:
                    shrunk[key] = shrink(mismatch, directory).source
    for mismatch in tally.mismatches:
        mismatch.program.fn = None
    return tally, shrunk, size


def shrink(mismatch, directory):
    """A smaller program with a mismatch of the same kind at the same point."""
    kind, point = mismatch.kind, mismatch.point

    def still_fails(candidate):
        if kind.startswith("generated"):
            found = fuzzing.compare_gradients(candidate, point, False)[0]
        elif kind.startswith("optimize"):
            found = fuzzing.compare_optimizer(candidate, point)
        elif kind.startswith("jvp"):
            direction = tuple(float(v) for v in mismatch.detail.split("(")[1].rstrip(")")
                              .split(","))
            found = fuzzing.compare_jvp(candidate, point, direction)
        else:
            found = fuzzing.compare_hessian(candidate, point)
        return any(m.kind == kind for m in found)

    return fuzzing.shrink(mismatch.program, still_fails, directory)


def main(argv=None):
    options = parse_arguments(argv)
    jobs = [(options, batch) for batch in batches(options)]
    started = time.perf_counter()
    total, shrunk, sizes = fuzzing.Tally(), {}, collections.Counter()
    if options.jobs > 1:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with context.Pool(options.jobs, maxtasksperchild=1) as pool:
            results = pool.imap(run_batch, jobs)
            for done, (tally, small, size) in enumerate(results, 1):
                total.add(tally)
                shrunk.update(small)
                sizes[size] += tally.programs
                progress(done, len(jobs), total, started)
    else:
        for done, job in enumerate(jobs, 1):
            tally, small, size = run_batch(job)
            total.add(tally)
            shrunk.update(small)
            sizes[size] += tally.programs
            progress(done, len(jobs), total, started)
    summarize(options, total, shrunk, sizes, time.perf_counter() - started)
    return 1 if total.mismatches else 0


def progress(done, count, total, started):
    print(f"\rbatch {done}/{count}: {total.programs} programs, "
          f"{len(total.mismatches)} mismatches, {time.perf_counter() - started:.0f} s",
          end="", file=sys.stderr, flush=True)


def summarize(options, total, shrunk, sizes, elapsed):
    print(file=sys.stderr)
    failing = sorted({m.program.index for m in total.mismatches})
    kinds = collections.Counter(m.kind for m in total.mismatches)
    shown = 0
    for mismatch in total.mismatches:
        if shown == options.show:
            break
        shown += 1
        print(mismatch)
        if mismatch.program.index in shrunk:
            print("smaller program with the same mismatch:")
            print(fuzzing.MODULE_HEADER + shrunk.pop(mismatch.program.index))
    print(f"seed {options.seed}, features {options.features}, "
          + ", ".join(f"{count} {size}" for size, count in sorted(sizes.items()))
          + f" programs, {elapsed:.0f} s")
    print(f"programs:           {total.programs}")
    print(f"points checked:     {total.points} (skipped {total.skipped_points}: "
          "the function raises, overflows or is huge there)")
    print(f"sympy comparisons:  {total.sympy_points} (skipped {total.sympy_skipped}: "
          "too large or slow for sympy, not real, or ill-conditioned)")
    print(f"mismatches:         {len(total.mismatches)} in {len(failing)} programs")
    for kind, count in kinds.most_common():
        print(f"  {count:6d}  {kind}")
    if failing:
        print("failing programs (index):", " ".join(map(str, failing[:50])),
              "..." if len(failing) > 50 else "")


if __name__ == "__main__":
    raise SystemExit(main())
