"""The array corpus: functions over ``np.ndarray`` as ML engineers and scientists write
NumPy, each with the argument tuples it is tested at and what it is differentiated by.

The functions live in modules by what they exercise; this package gathers them:

    CATEGORIES["elementwise"]   ufuncs, arithmetic, every broadcast pattern, where, masks
    CATEGORIES["reductions"]    sum/mean/prod/max/min/var/std/norm/cumsum/diff/trace/logsumexp
    CATEGORIES["linalg"]        @, dot, matmul, inner, outer, einsum, transpose, np.linalg
    CATEGORIES["indexing"]      shapes, indexing, loops over arrays, writes, lists of arrays
    CATEGORIES["models"]        losses, layers, attention, recurrences, stencils, kernels,
                                robust statistics and signals (``signals``), polynomials,
                                pairwise tables and clipped losses (``polynomials``)
    CATEGORIES["idioms"]        NumPy as people write it: imports by name, autograd's
                                numpy, norms by axis, masks combined, stacks, squeeze
    CATEGORIES["containers"]    arrays in lists, tuples and dicts: a params dict, lists of
                                layers, per-step lists stacked, dicts built and filled
    CATEGORIES["moves"]         axes swapped and moved, rolls, flips, sorts, running
                                products, repeats, argmax/argsort and other questions
    CATEGORIES["slices"]        bounds a loop computes, one place of an axis broadcast
                                (x[:, :1], x[-1:], x[:, k:k + 1]), steps, None axes

``ARRAY_CASES`` maps ``"category.label"`` to its ``case.Case``.  Every function returns a
scalar (a Python float or a NumPy scalar) at each of its points and leaves its arguments
as they were (``tests/end_to_end/test_arrays.py`` checks both in plain NumPy).

The corpus is a package of its own, and its table is not named ``CASES``, on purpose: the
IR evaluator's tests (``tests/ir/test_ir_evaluate.py``) run every function and every
``CASES`` of the modules directly in ``corpus/`` on floats and on the scalar tape, which
do not take arrays yet; they opt in by reading ``ARRAY_CASES`` when they do.
"""

from . import (containers, elementwise, for_autograd, idioms, indexing, linalg, models,
               moves, polynomials, reductions, signals, slices)

CATEGORIES = {
    "elementwise": elementwise.CASES,
    "reductions": reductions.CASES,
    "linalg": linalg.CASES,
    "indexing": indexing.CASES,
    "models": models.CASES + signals.CASES + polynomials.CASES,
    "idioms": idioms.CASES + for_autograd.CASES,
    "containers": containers.CASES,
    "moves": moves.CASES,
    "slices": slices.CASES,
}

ARRAY_CASES = {f"{category}.{case.label}": case
               for category, cases in CATEGORIES.items() for case in cases}
