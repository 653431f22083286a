"""What each statement of a generated array gradient costs, at a workload's size.

    python benchmarks/statement_costs.py rnn large      # one workload at one size
    python benchmarks/statement_costs.py --all small    # every workload
    python benchmarks/statement_costs.py kernel large --repeats 20 --clock wall

The gradient symdiff generates for an ``array_workloads`` workload is parsed, and every
simple statement of its function (in loops too) is timed where it stands: the text is
rewritten so that a clock is read before and after each one and the difference added to
that statement's total, then compiled in the generated function's own globals.  The clock
is the CPU time of the thread by default (``time.thread_time``: other processes on a
shared machine do not inflate it; reading it costs about a microsecond, so use ``--clock
wall``, ``perf_counter``, a tenth of that, for the small sizes on a quiet machine).
The rewritten function is called ``--repeats`` times (after one call that warms up); the
report lists each statement with its line, its time per gradient call, its share of the
total, and how often it ran per call, next to one plain call of the function and one call
of the hand-written gradient, on the same clock.  The statements stay in order and
nothing else changes, and the result is checked against the hand-written gradient.
"""

import argparse
import ast
import sys
import time
from pathlib import Path

import threads

if __name__ == "__main__":
    threads.one_thread()

HERE = Path(__file__).resolve().parent
for _path in (str(HERE.parent), str(HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import symdiff.api  # noqa: E402
from symdiff.specialized import container_kinds  # noqa: E402

import array_workloads  # noqa: E402
import arrays  # noqa: E402

CLOCK, TOTALS, COUNTS = "_statement_clock", "_statement_totals", "_statement_counts"
CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}


class _Timed(ast.NodeTransformer):
    """Every simple statement ``s`` of a body becomes: read the clock; ``s``; add the time
    to ``s``'s total (a ``return`` reads its value first, then adds, then returns it)."""

    def __init__(self, source):
        self.source = source
        self.lines = []  # statement number -> (its first line, its text on one line)

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                setattr(node, field, [timed for stmt in body for timed in self._timed(stmt)])
        return node

    def _timed(self, stmt):
        if isinstance(stmt, (ast.For, ast.While, ast.If, ast.With, ast.Try)):
            return [self.generic_visit(stmt)]
        k = len(self.lines)
        text = " ".join(ast.get_source_segment(self.source, stmt).split())
        self.lines.append((stmt.lineno, text.replace("( ", "(").replace(" )", ")")))
        start = ast.parse(f"_start_{k} = {CLOCK}()").body
        done = ast.parse(f"{TOTALS}[{k}] += {CLOCK}() - _start_{k}\n{COUNTS}[{k}] += 1").body
        if isinstance(stmt, ast.Return):
            keep = ast.parse(f"_returned_{k} = None").body[0]
            keep.value = stmt.value or ast.Constant(None)
            return start + [keep] + done + ast.parse(f"return _returned_{k}").body
        return start + [stmt] + done


def timed_function(built, clock):
    """``(the gradient with each statement timed, its totals, counts, statement lines)``."""
    tree = ast.parse(built.source)
    definition = next(node for node in tree.body if isinstance(node, ast.FunctionDef))
    timer = _Timed(built.source)
    timer.generic_visit(definition)
    module = ast.fix_missing_locations(ast.Module(body=[definition], type_ignores=[]))
    totals, counts = [0.0] * len(timer.lines), [0] * len(timer.lines)
    scope = dict(built.function.__globals__, **{CLOCK: clock, TOTALS: totals,
                                                COUNTS: counts})
    exec(compile(module, f"<timed {definition.name}>", "exec"), scope)
    return scope[definition.name], totals, counts, timer.lines


def per_call(fn, point, repeats, clock):
    fn(*point)
    start = clock()
    for _ in range(repeats):
        fn(*point)
    return (clock() - start) / repeats


def costs(workload, repeats, clock=time.thread_time):
    """The report of one workload: its statements' costs, as markdown."""
    built = symdiff.api.build(workload.fn, workload.wrt,
                              kinds=container_kinds(workload.fn, workload.point))
    fn, totals, counts, lines = timed_function(built, clock)
    error, ok = arrays.gradient_error(fn(*workload.point), workload.hand(*workload.point))
    for i in range(len(totals)):
        totals[i], counts[i] = 0.0, 0
    for _ in range(repeats):
        fn(*workload.point)
    total = sum(totals)
    rows = [[line, f"`{text}`", arrays.run.seconds(spent / repeats), f"{spent / total:.1%}",
             f"{count / repeats:g}"] for (line, text), spent, count in zip(lines, totals, counts)]
    plain = per_call(workload.fn, workload.point, repeats, clock)
    hand = per_call(workload.hand, workload.point, repeats, clock)
    head = (f"### {workload.name}\n\nplain call {arrays.run.seconds(plain)}, hand-written "
            f"gradient {arrays.run.seconds(hand)}, the generated statements "
            f"{arrays.run.seconds(total / repeats)} in all (agrees with the hand-written "
            f"gradient: {ok}, {error:.2g})\n")
    return head + "\n" + arrays.run.table(["line", "statement", "per call", "share", "runs"],
                                          rows) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", nargs="?", help="a workload of array_workloads.TABLE")
    parser.add_argument("size", choices=array_workloads.SIZES)
    parser.add_argument("--all", action="store_true", help="every workload at that size")
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--clock", choices=CLOCKS, default="cpu")
    options = parser.parse_args(argv)
    names = list(array_workloads.TABLE) if options.all else [options.name]
    for name in names:
        print(costs(array_workloads.make(name, options.size), options.repeats,
                    CLOCKS[options.clock]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
