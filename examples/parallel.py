"""A gradient over a grid of 10,000 points: in a process pool, and on a Dask cluster.

The gradient symdiff returns pickles, so a pool of processes can map it over
points like any function.  This one is defined in ``__main__``, so it travels as
its generated text (a worker's ``__main__`` is not this script); a gradient of a
function in an importable module travels by reference and is rebuilt in the worker.
The pool uses the "spawn" start method, where a worker inherits nothing: what works
there works under every start method.  Every result is checked against the same
gradient evaluated here (bit for bit: the same code ran) and against the tape engine
(an independent witness).  With Dask installed (``pip install "dask[distributed]"``),
the grid is evaluated again on a local cluster of two worker processes.

    python examples/parallel.py          # add --no-dask to leave the cluster out
"""

import math
import multiprocessing
import sys

import symdiff
import symdiff.tape

SIDE = 100  # a SIDE x SIDE grid: 10,000 points


def potential(x, y):
    """A smooth landscape: two wells, a ripple and a slow rise."""
    r2 = x * x + y * y
    wells = -math.exp(-(x - 1.0) ** 2 - y * y) - 0.5 * math.exp(-(x + 1.0) ** 2 - y * y)
    return wells + 0.1 * math.sin(3.0 * x) * math.cos(2.0 * y) + 0.05 * math.log1p(r2)


def grid(side):
    """``side * side`` points covering [-2, 2] x [-2, 2], row by row."""
    ticks = [-2.0 + 4.0 * i / (side - 1) for i in range(side)]
    return [(x, y) for y in ticks for x in ticks]


def evaluate_shard(gradient, shard):
    """The gradient at each point of one shard (what one Dask task computes)."""
    return [gradient(*point) for point in shard]


def check(results, here, witness, label):
    """``results`` equal those computed here, and agree with the tape's."""
    if results != here:
        raise SystemExit(f"{label}: results differ from the gradient evaluated here")
    for (gx, gy), (tx, ty) in zip(results, witness):
        if not (math.isclose(gx, tx, rel_tol=1e-12, abs_tol=1e-14)
                and math.isclose(gy, ty, rel_tol=1e-12, abs_tol=1e-14)):
            raise SystemExit(f"{label}: symdiff {(gx, gy)} and the tape {(tx, ty)} disagree")
    print(f"{label}: {len(results)} gradients, equal to the ones computed here and to the tape's")


def with_dask(gradient, points, here, witness):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        print("dask: not installed (pip install 'dask[distributed]' to run this part)")
        return
    shards = [points[i:i + 1000] for i in range(0, len(points), 1000)]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        futures = [client.submit(evaluate_shard, gradient, shard) for shard in shards]
        results = [value for shard in client.gather(futures) for value in shard]
    check(results, here, witness, "dask, 2 worker processes")


def main(argv):
    gradient = symdiff.grad(potential)
    points = grid(SIDE)
    here = [gradient(*point) for point in points]
    witness = [symdiff.tape.grad(potential)(*point) for point in points]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pooled = pool.starmap(gradient, points, chunksize=1000)
    check(pooled, here, witness, "process pool, 2 spawned workers")
    if "--no-dask" not in argv:
        with_dask(gradient, points, here, witness)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
