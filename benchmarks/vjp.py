"""The cost of a vector-Jacobian product: ``symdiff.vjp`` next to a hand-written one.

    python benchmarks/vjp.py            # about a minute
    python benchmarks/vjp.py --quick    # fewer repetitions

For three functions whose result is not one number (a training step returning its new
parameters, a dense layer returning an array, a loss with its predictions), it times,
with ``run.py``'s ``measure`` (each ratio from batches alternating with its baseline's):
the hand-written vjp, symdiff's as users call it, its generated function called directly
(the build already found, the cotangent not checked), the tape's (``symdiff.tape.vjp``,
the point and the pullback), each against one plain call of the function.  Every gradient is checked against the
hand-written one.  Nothing is asserted; the report is printed as markdown.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def training_step(params, X, y):
    err = X @ params["w"] + params["b"] - y
    grad_w = X.T @ err / X.shape[0]
    return {"w": params["w"] - 0.1 * grad_w, "b": params["b"] - 0.1 * np.mean(err)}


def training_step_vjp(params, X, y, ct):
    n = X.shape[0]
    err = X @ params["w"] + params["b"] - y
    grad_w = X.T @ err / n
    new = {"w": params["w"] - 0.1 * grad_w, "b": params["b"] - 0.1 * np.mean(err)}
    derr = X @ (-0.1 * ct["w"] / n) - 0.1 * ct["b"] / n
    return new, {"w": ct["w"] + X.T @ derr, "b": ct["b"] + float(np.sum(derr))}


def dense_layer(W, b, x):
    return np.tanh(W @ x + b)


def dense_layer_vjp(W, b, x, ct):
    out = np.tanh(W @ x + b)
    d = ct * (1.0 - out * out)
    return out, (np.outer(d, x), d, W.T @ d)


def loss_with_aux(w, X, y):
    pred = X @ w
    return np.mean((pred - y) ** 2), pred


def loss_with_aux_vjp(w, X, y, ct):
    pred = X @ w
    loss = np.mean((pred - y) ** 2)
    dpred = ct[1] + ct[0] * 2.0 * (pred - y) / pred.size
    return (loss, pred), X.T @ dpred


def workloads():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(64, 8)), rng.normal(size=64)
    return [
        ("training_step", training_step, training_step_vjp, "params",
         ({"w": rng.normal(size=8), "b": 0.5}, X, y), {"w": rng.normal(size=8), "b": 1.0}),
        ("dense_layer", dense_layer, dense_layer_vjp, None,
         (rng.normal(size=(16, 8)), rng.normal(size=16), rng.normal(size=8)),
         rng.normal(size=16)),
        ("loss_with_aux", loss_with_aux, loss_with_aux_vjp, "w",
         (rng.normal(size=8), X, y), (1.0, rng.normal(size=64))),
    ]


def flat(value):
    if isinstance(value, dict):
        return [x for v in value.values() for x in flat(v)]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in flat(v)]
    return [float(x) for x in np.ravel(value)]


def run_one(workload, symdiff, run, settings):
    name, fn, hand, wrt, args, ct = workload
    run.log(name)
    product = symdiff.vjp(fn, wrt=wrt)
    product(*args, ct)  # builds it for these kinds
    generated = product._last.function
    tape = symdiff.tape.vjp(fn, wrt=wrt)
    full = args + (ct,)
    def call(*given):  # the plain call, given the cotangent too (as each ratio's baseline)
        return fn(*given[:-1])
    _, plain = run.measure(call, full, settings)
    baseline = (call, plain["number"])
    want, hand_t = run.measure(hand, full, settings, baseline)
    got, sym_t = run.measure(product, full, settings, baseline)
    _, gen_t = run.measure(generated, full, settings, baseline)
    _, tape_t = run.measure(lambda *a: tape(*a[:-1])[1](a[-1]), full, settings, baseline)
    row = {"name": name, "plain_s": plain["median_s"], "hand": hand_t["ratio"],
           "symdiff": sym_t["ratio"], "generated": gen_t["ratio"], "tape": tape_t["ratio"],
           "max_rel_err": run.max_relative_error(flat(got[1]), flat(want[1]))}
    return row


def report(rows, run):
    header = ["function", "plain call", "hand-written vjp", "symdiff.vjp",
              "its generated function", "tape", "max rel. error"]
    table = [[f"`{r['name']}`", run.seconds(r["plain_s"]), f"{r['hand']:.2f}×",
              f"{r['symdiff']:.2f}×", f"{r['generated']:.2f}×", f"{r['tape']:.2f}×",
              f"{r['max_rel_err']:.1e}"] for r in rows]
    return f"load average {run.load(run.load_average())}\n" + run.table(header, table)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    options = parser.parse_args(argv)
    import symdiff
    sys.path.insert(0, str(HERE))
    import run
    settings = run.QUICK if options.quick else run.FULL
    print(report([run_one(w, symdiff, run, settings) for w in workloads()], run))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
