"""The array corpus: functions over ``np.ndarray`` as ML engineers and scientists write
NumPy, each with the argument tuples it is tested at and what it is differentiated by.

The functions live in five modules by what they exercise; this one gathers them:

    CATEGORIES["elementwise"]   ufuncs, arithmetic, every broadcast pattern, where, masks
    CATEGORIES["reductions"]    sum/mean/prod/max/min/var/std/norm/cumsum/diff/trace/logsumexp
    CATEGORIES["linalg"]        @, dot, matmul, inner, outer, einsum, transpose, np.linalg
    CATEGORIES["indexing"]      shapes, indexing, loops over arrays, writes, lists of arrays
    CATEGORIES["models"]        losses, layers, attention, recurrences, stencils, kernels

``CASES`` maps ``"category.label"`` to its ``array_case.Case``.  Every function returns a
scalar (a Python float or a NumPy scalar) at each of its points and leaves its arguments
as they were (``tests/end_to_end/test_arrays.py`` checks both in plain NumPy).
"""

from . import arrays_elementwise, arrays_indexing, arrays_linalg, arrays_models, arrays_reductions

CATEGORIES = {
    "elementwise": arrays_elementwise.CASES,
    "reductions": arrays_reductions.CASES,
    "linalg": arrays_linalg.CASES,
    "indexing": arrays_indexing.CASES,
    "models": arrays_models.CASES,
}

CASES = {f"{category}.{case.label}": case
         for category, cases in CATEGORIES.items() for case in cases}
