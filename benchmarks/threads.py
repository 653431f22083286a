"""One thread for every library measured: set before NumPy, JAX or PyTorch is imported.

``one_thread()`` sets the thread counts the BLAS libraries and OpenMP read when they load
(OpenBLAS, MKL, Accelerate, numexpr) and XLA's CPU flags; a library loaded before it runs
keeps the threads it started with.  PyTorch is told at run time (``array_tools``).
"""

import os

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")
XLA_ONE_THREAD = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"


def one_thread():
    """Every library on one thread; effective only before NumPy (or JAX) is imported."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"
    flags = os.environ.get("XLA_FLAGS", "")
    if XLA_ONE_THREAD not in flags:
        os.environ["XLA_FLAGS"] = f"{flags} {XLA_ONE_THREAD}".strip()


def settings():
    """The variables as they are now, for the report."""
    return {name: os.environ.get(name) for name in THREAD_VARIABLES + ("XLA_FLAGS",)}
