"""Which NumPy functions give a result of their first argument's dtype, as the NumPy
spellings the generated text writes them (``numpy.sum(x)``, ``x.reshape(n)``).

Expects nothing.  Guarantees ``LIKE_FIRST`` (functions, by NumPy's name, submodules by
their path: ``linalg.norm``), ``LIKE_FIRST_METHODS`` (array methods and ``.T``) and
``REDUCTIONS`` (the reductions that take ``axis``/``keepdims``).  A back end that must
write a dtype out where NumPy leaves it implied (numba widens Python numbers to
float64) reads them here, beside the records, rather than keeping a list of its own.

    numpy.sum(x32, axis=0)   ->  float32, as x32
    x32.reshape(n, -1)       ->  float32
"""

LIKE_FIRST = frozenset((
    "sum", "mean", "max", "min", "amax", "amin", "prod", "cumsum", "cumprod", "std", "var",
    "expand_dims", "reshape", "transpose", "squeeze", "flip", "broadcast_to", "diff",
    "full_like", "zeros_like", "ones_like", "empty_like", "copy", "ascontiguousarray",
    "diag", "tril", "triu", "ravel", "atleast_1d", "pad", "linalg.norm", "linalg.det",
    "linalg.inv", "linalg.cholesky", "trace"))
LIKE_FIRST_METHODS = frozenset(("sum", "mean", "max", "min", "prod", "reshape", "transpose",
                                "copy", "ravel", "squeeze", "cumsum", "std", "var", "T"))
REDUCTIONS = ("sum", "mean", "max", "min", "amax", "amin", "prod")
