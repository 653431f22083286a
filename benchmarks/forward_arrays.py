"""Forward mode and higher order on NumPy arrays: jvp, grad and hvp against one call.

    python benchmarks/forward_arrays.py            # a minute or two
    python benchmarks/forward_arrays.py --quick    # fewer repetitions

For each workload below it times, with ``run.py``'s ``measure`` (each ratio from batches
alternating with its baseline's): the function, symdiff's ``jvp``, ``grad`` and ``hvp``
as users call them (built per kind of the arguments, the build already found), each
against one plain call; and, where autograd is importable, autograd's ``make_jvp`` and
``hessian_tensor_product`` on the same arguments, with symdiff's against autograd's.
Every tangent and product is checked against ``<grad, v>`` and against autograd's.
Nothing is asserted; the report is printed as markdown.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def logistic_loss(w, X, y):
    return np.mean(np.log1p(np.exp(-y * (X @ w)))) + 0.01 * np.sum(w ** 2)


def mlp_loss(W1, b1, W2, X, y):
    hidden = np.tanh(X @ W1 + b1)
    return np.mean((hidden @ W2 - y) ** 2)


def _workloads():
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((512, 64)), np.sign(rng.standard_normal(512))
    yield "logistic_loss", "w of 64, X of 512 x 64", logistic_loss, (
        rng.standard_normal(64), X, y), 1
    yield "mlp_loss", "W1 64 x 32, b1, W2 of 32, X of 512 x 64", mlp_loss, (
        rng.standard_normal((64, 32)) / 8, rng.standard_normal(32),
        rng.standard_normal(32), X, y), 3


def _arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    return parser.parse_args(argv)


def run_one(name, description, fn, args, count, symdiff, run, settings):
    run.log(name)
    wrt = tuple(range(count))
    rng = np.random.default_rng(1)
    vectors = tuple(rng.standard_normal(np.shape(a)) for a in args[:count])
    jvp, grad, hvp = (symdiff.jvp(fn, wrt=wrt), symdiff.grad(fn, wrt=wrt),
                      symdiff.hvp(fn, wrt=wrt))
    _, plain = run.measure(fn, args, settings)
    baseline = (fn, plain["number"])
    (_, tangent), jvp_t = run.measure(lambda *a: jvp(*a, *vectors), args, settings, baseline)
    gradient, grad_t = run.measure(grad, args, settings, baseline)
    product, hvp_t = run.measure(lambda *a: hvp(*a, *vectors), args, settings, baseline)
    inner = sum(float(np.sum(g * v)) for g, v in zip(gradient, vectors))
    row = {"name": name, "description": description, "plain_s": plain["median_s"],
           "jvp": jvp_t["ratio"], "grad": grad_t["ratio"], "hvp": hvp_t["ratio"],
           "jvp_err": abs(float(tangent) - inner) / max(1.0, abs(inner))}
    try:
        import autograd
    except ImportError:
        return row
    theirs = _autograd(fn, args, count, vectors, autograd)
    if theirs is None:
        return row
    their_jvp, their_hvp = theirs
    _, their_jvp_t = run.measure(their_jvp, args, settings, baseline)
    _, their_hvp_t = run.measure(their_hvp, args, settings, baseline)
    _, versus_jvp = run.measure(lambda *a: jvp(*a, *vectors), args, settings,
                                (their_jvp, their_jvp_t["number"]))
    _, versus_hvp = run.measure(lambda *a: hvp(*a, *vectors), args, settings,
                                (their_hvp, their_hvp_t["number"]))
    theirs_product = their_hvp(*args)
    row.update(jvp_vs_autograd=versus_jvp["ratio"], hvp_vs_autograd=versus_hvp["ratio"],
               hvp_err=max(float(np.max(np.abs(p - q))) for p, q in zip(product,
                                                                        theirs_product)))
    return row


def _autograd(fn, args, count, vectors, autograd):
    """autograd's jvp and Hessian-vector product of ``fn`` by its first ``count``
    parameters, or None where autograd cannot trace ``fn`` (it calls NumPy's own)."""
    import autograd.numpy as anp
    again = type(fn)(fn.__code__, dict(fn.__globals__, np=anp), fn.__name__)  # on anp

    def packed(flat, *data):
        return again(*_unpacked(flat, args[:count]), *data)
    flat = np.concatenate([np.ravel(a) for a in args[:count]])
    direction = np.concatenate([np.ravel(v) for v in vectors])
    data = args[count:]
    forward = autograd.make_jvp(packed)
    product = autograd.hessian_tensor_product(packed)

    def their_jvp(*arguments):
        return forward(flat, *data)(direction)

    def their_hvp(*arguments):
        return _unpacked(product(flat, *data, direction), args[:count])
    try:
        their_jvp()
        their_hvp()
    except Exception:  # noqa: BLE001  (reported as not measured)
        return None
    return their_jvp, their_hvp


def _unpacked(flat, like):
    found, start = [], 0
    for a in like:
        size = int(np.size(a))
        found.append(flat[start:start + size].reshape(np.shape(a)))
        start += size
    return found


def report(rows, run):
    header = ["workload", "plain call", "jvp", "grad", "hvp", "jvp / autograd's",
              "hvp / autograd's", "jvp vs <grad, v>", "hvp vs autograd's"]
    lines = [f"load average {run.load(run.load_average())}", ""]
    table = [[f"`{r['name']}` ({r['description']})", run.seconds(r["plain_s"]),
              f"{r['jvp']:.2f}×", f"{r['grad']:.2f}×", f"{r['hvp']:.2f}×",
              f"{r['jvp_vs_autograd']:.2f}×" if "jvp_vs_autograd" in r else "skipped",
              f"{r['hvp_vs_autograd']:.2f}×" if "hvp_vs_autograd" in r else "skipped",
              f"{r['jvp_err']:.1e}", f"{r['hvp_err']:.1e}" if "hvp_err" in r else "-"]
             for r in rows]
    return "\n".join(lines) + run.table(header, table)


def main(argv=None):
    options = _arguments(argv)
    import symdiff
    sys.path.insert(0, str(HERE))
    import run
    settings = run.QUICK if options.quick else run.FULL
    rows = [run_one(*workload, symdiff, run, settings) for workload in _workloads()]
    print(report(rows, run))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
