"""The scalar benchmark's workloads: each hand-written gradient agrees with central
differences and with symdiff's gradient (and the dispatch workloads' with symdiff's
gradient of their first parameter), so the baselines the benchmarks compare with cannot
rot unnoticed.  No time is measured; the 100,000-step loop is left to the benchmark."""

import pathlib
import sys

import pytest

import symdiff

BENCHMARKS = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import dispatch_workloads  # noqa: E402
import run  # noqa: E402
import workloads  # noqa: E402


def scalar_workloads(directory):
    return [w for w in workloads.all_workloads(str(directory)) if "long" not in w.tags]


def test_each_hand_written_gradient_is_the_finite_differences_and_symdiffs(tmp_path):
    for workload in scalar_workloads(tmp_path):
        hand = run.as_floats(workload.hand(*workload.point))
        assert run.finite_difference_error(workload, hand) < 1e-6, workload.name
        got = run.as_floats(symdiff.grad(workload.fn)(*workload.point))
        assert run.max_relative_error(got, hand) < 1e-9, workload.name


@pytest.mark.parametrize("workload", dispatch_workloads.all_workloads(),
                         ids=lambda w: w.name)
def test_each_dispatch_workload_s_hand_written_gradient_is_symdiffs(workload):
    import dispatch
    got = dispatch.flat(symdiff.grad(workload.fn, wrt=0)(*workload.point))
    assert run.max_relative_error(got, dispatch.flat(workload.hand(*workload.point))) < 1e-9
