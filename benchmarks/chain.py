"""A long elementwise chain on one large array: symdiff's gradient in bounded memory.

    python benchmarks/chain.py                 # n = 10^7 (80 MB an array), a few seconds
    python benchmarks/chain.py --n 1000000

The function is ten elementwise steps of one float64 array ``x`` of ``n`` elements,
summed; its gradient, written by hand, keeps the values of the forward steps the chain
rule needs and walks back.  For the plain call, the hand-written gradient and symdiff's
(the function it generated, called as a user calls ``grad``) this prints the peak memory
of one call (``tracemalloc``: NumPy's array buffers and Python's objects allocated during
the call, the returned gradient included, the argument not) in arrays of ``n`` floats,
the time of one call (the median of a few) and the largest difference of the gradients.
A peak that does not grow with the length of the chain beyond the values the chain rule
needs is what "bounded" means: no temporary per statement kept alive, no copies of
arrays that are never changed.  Nothing is asserted.
"""

import sys

import threads

if __name__ == "__main__":
    threads.one_thread()

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import symdiff  # noqa: E402


def chain(x):
    a = np.sin(x) * x
    b = np.exp(-a * a)
    c = np.tanh(b + x)
    d = c * c + 0.5 * x
    e = np.log1p(d * d)
    return np.sum(np.sqrt(e + 1.0) * c)


def chain_grad(x):
    sin_x = np.sin(x)
    a = sin_x * x
    b = np.exp(-a * a)
    c = np.tanh(b + x)
    d = c * c + 0.5 * x
    e = np.log1p(d * d)
    root = np.sqrt(e + 1.0)
    dc = root                                  # d/dc of sqrt(e + 1) * c, then through e
    de = c / (2.0 * root)
    dd = de * 2.0 * d / (1.0 + d * d)
    dc = dc + dd * 2.0 * c
    dx = dd * 0.5
    db = dc * (1.0 - c * c)
    dx = dx + db
    da = db * b * -2.0 * a
    return dx + da * (np.cos(x) * x + sin_x)


def peak_and_time(fn, x, repeats):
    fn(x)  # built and warm
    tracemalloc.start()
    try:
        fn(x)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - start)
    return peak, statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10 ** 7)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    x = np.linspace(-2.0, 2.0, args.n)
    gradient = symdiff.grad(chain)
    error = float(np.max(np.abs(gradient(x) - chain_grad(x)), initial=0.0))
    size = x.nbytes
    print(f"n = {args.n:,} ({size / 2 ** 20:.0f} MiB an array); load average "
          f"{__import__('os').getloadavg()[0]:.2f}; largest difference {error:.1e}\n")
    print("| | peak memory (arrays of n floats) | time of one call |")
    print("|---|---|---|")
    for label, fn in (("plain call", chain), ("hand-written gradient", chain_grad),
                      ("symdiff", gradient)):
        peak, seconds = peak_and_time(fn, x, args.repeats)
        print(f"| {label} | {peak / size:.2f} | {seconds * 1e3:.0f} ms |")


if __name__ == "__main__":
    main()
