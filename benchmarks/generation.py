"""Generation time of the scaling chains, this tree against others, in one run.

    python benchmarks/generation.py                       # this tree alone
    python benchmarks/generation.py --against /tmp/base   # and an older tree, alternating
    git archive 4cacb98 | tar -x -C /tmp/base             # (how to lay one out)

For each size of ``workloads.chain_source`` (250, 500, 1,000 and 2,000 statements by
default) and each repeat, every tree is measured in a fresh process of its own, the
trees one after the other in turn, so a change of the machine's load falls on all of
them alike.  A process builds the chain once untimed (imports, the module file parsed
and kept), then times ``symdiff.api.build`` with its cache cleared, optimized and
not, in CPU time (``time.process_time``), and Python's own ``compile()`` of the same
source, the yardstick.  The report keeps the best of the repeats and prints a markdown
table: each time, its multiple of ``compile()``, and how much faster this tree is than
each other one; the load average at the start and the end says how quiet the machine
was.  Nothing is asserted.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

WORKER = r"""
import json, sys, tempfile, time
tree, benchmarks, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path[:0] = [tree, benchmarks]
import symdiff.api
import workloads
text = workloads.chain_source(size)
fn = getattr(workloads.import_source(text, tempfile.mkdtemp(), f"chain_{size}_module"),
             f"chain_{size}")

def cpu(run):
    start = time.process_time()
    run()
    return time.process_time() - start

def build(optimize):
    symdiff.api._CACHE.clear()
    symdiff.api.build(fn, None, optimize=optimize)

build(True)
compiled = min(cpu(lambda: compile(text, "chain.py", "exec")) for _ in range(5))
print(json.dumps({"optimized": cpu(lambda: build(True)),
                  "not optimized": cpu(lambda: build(False)), "compile": compiled}))
"""


def measure(tree, size):
    """One process's times for ``tree`` at ``size`` statements."""
    done = subprocess.run([sys.executable, "-c", WORKER, str(tree), str(HERE), str(size)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(trees, sizes, repeats):
    best = {}  # (tree, size) -> each time's best
    for size in sizes:
        for repeat in range(repeats):
            for tree in trees:
                print(f"{size} statements, repeat {repeat + 1}: {tree}", file=sys.stderr)
                times = measure(tree, size)
                kept = best.setdefault((tree, size), times)
                for key, value in times.items():
                    kept[key] = min(kept[key], value)
    return best


def seconds(value):
    return f"{value:.3g} s" if value >= 1 else f"{value * 1e3:.3g} ms"


def report(trees, sizes, best, loads):
    names = ["this tree"] + [Path(t).name for t in trees[1:]]
    head = ["statements", "compile()"]
    for kind in ("optimized", "not optimized"):
        for name in names:
            head.append(f"{kind}, {name}")
        head += [f"faster than {name}" for name in names[1:]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for size in sizes:
        mine = best[trees[0], size]
        row = [f"{size:,}", seconds(mine["compile"])]
        for kind in ("optimized", "not optimized"):
            for tree in trees:
                value = best[tree, size][kind]
                row.append(f"{seconds(value)} ({value / mine['compile']:.0f}×)")
            row += [f"{best[tree, size][kind] / mine[kind]:.1f}×" for tree in trees[1:]]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    lines.append(f"CPU time, best of the repeats; load average {loads[0]:.2f} at the start, "
                 f"{loads[1]:.2f} at the end ({os.cpu_count()} CPUs).")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", action="append", default=[],
                        help="another source tree to measure (repeatable)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000, 2000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="write the times to this file")
    options = parser.parse_args(argv)
    trees = [str(ROOT)] + [str(Path(t).resolve()) for t in options.against]
    start = os.getloadavg()[0]
    best = run(trees, options.sizes, options.repeats)
    loads = (start, os.getloadavg()[0])
    print(report(trees, options.sizes, best, loads))
    if options.json:
        Path(options.json).write_text(json.dumps(
            {"loads": loads, "times": [{"tree": t, "statements": n, **v}
                                       for (t, n), v in best.items()]}, indent=1))


if __name__ == "__main__":
    main()
