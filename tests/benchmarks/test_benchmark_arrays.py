"""The array benchmark's correctness part, at its --quick sizes: every tool's gradient of
every workload agrees with the hand-written one, and each hand-written gradient agrees with
central differences along random directions.  No time is measured.  A tool that is not
installed here (JAX, PyTorch, autograd) is skipped, as the benchmark skips it; any other
failure of a tool fails the test, so the benchmark cannot rot unnoticed.  The statement
timer of ``statement_costs.py`` is checked to change nothing of what it times."""

import ast
import pathlib
import sys

import pytest

np = pytest.importorskip("numpy")

BENCHMARKS = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import array_workloads  # noqa: E402
import arrays  # noqa: E402

WORKLOADS = array_workloads.all_workloads(("small",))


@pytest.mark.parametrize("workload", WORKLOADS, ids=[w.name for w in WORKLOADS])
def test_hand_written_gradient_matches_finite_differences(workload):
    hand = workload.hand(*workload.point)
    assert arrays.finite_difference_error(workload, hand) < 1e-6


@pytest.mark.parametrize("tool", arrays.TOOLS)
@pytest.mark.parametrize("workload", WORKLOADS, ids=[w.name for w in WORKLOADS])
def test_every_tool_agrees_with_the_hand_written_gradient(workload, tool):
    record = arrays.check_all(workload, (tool,))[tool]
    if record["status"] == "skipped" and "not installed" in record["note"]:
        pytest.skip(record["note"])
    assert record["status"] == "ok", record.get("detail", record.get("note"))
    assert record["max_rel_err"] <= arrays.RTOL


def test_a_wrong_gradient_is_reported_as_wrong():
    workload = WORKLOADS[0]
    hand = workload.hand(*workload.point)
    shifted = [np.asarray(g) * (1.0 + 1e-4) for g in hand]
    error, ok = arrays.gradient_error(shifted, hand)
    assert not ok and error > 1e-5
    assert arrays.gradient_error(hand[:1], hand) == (float("inf"), False)


def test_workloads_are_differentiated_as_written():
    # the large sizes build the same kinds: one seeded maker per name and size
    for name in array_workloads.TABLE:
        small, large = (array_workloads.make(name, size) for size in array_workloads.SIZES)
        assert small.fn is large.fn and small.wrt == large.wrt
        assert [np.ndim(a) for a in small.point] == [np.ndim(a) for a in large.point]


COMPOUND = (ast.FunctionDef, ast.For, ast.While, ast.If, ast.With, ast.Try)


def test_statement_costs_times_each_statement_where_it_stands_and_changes_nothing():
    import time

    import symdiff.api
    import statement_costs
    from symdiff.specialized import container_kinds
    workload = array_workloads.make("rnn", "small")
    built = symdiff.api.build(workload.fn, workload.wrt,
                              kinds=container_kinds(workload.fn, workload.point))
    timed, totals, counts, lines = statement_costs.timed_function(built, time.perf_counter)
    got, want = timed(*workload.point), built.function(*workload.point)
    assert all(np.array_equal(g, w) for g, w in zip(got, want))
    steps = workload.point[3].shape[0]
    runs = dict(zip((text for _, text in lines), counts))
    assert runs["push(h)"] == runs["h = pop()"] == steps
    assert runs["return dWh, dWx, db"] == 1 and all(total >= 0.0 for total in totals)
    simple = [node for node in ast.walk(ast.parse(built.source).body[-1])
              if isinstance(node, ast.stmt) and not isinstance(node, COMPOUND)]
    assert sorted(line for line, _ in lines) == sorted(node.lineno for node in simple)
