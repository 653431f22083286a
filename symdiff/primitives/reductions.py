"""Reductions: the functions of a whole list or tuple of numbers symdiff reads.

``sum`` (with ``start``), ``min`` and ``max`` of one iterable (the element returned gets
the gradient: the first one, on a tie), ``math.fsum`` and ``math.prod`` (with
``start``), and the means and spreads of ``statistics`` that sum exactly with fractions
(``statistics.mean``, ``variance``...: ``LIBRARY``, named by their dotted path, called as
the library computes them).  Each is named by the text ``ir.nodes.Reduce.op`` holds;
``function`` gives the Python function it stands for, and ``in_math`` whether generated
code calls it through ``math``.

    >>> function("fsum")([0.1] * 10), in_math("fsum"), in_math("max")
    (1.0, True, False)
    >>> function("statistics.mean")([1.0, 2.0]), library_op(statistics.pstdev)
    (1.5, 'statistics.pstdev')
"""

import builtins
import math
import statistics

REDUCTIONS = ("sum", "min", "max", "fsum", "prod")
JOINS = ("stack", "concatenate")  # of a list of arrays, along an axis (``stacked``)
# joins along an axis the elements' number of axes decides: of vectors, the join and its
# axis; of arrays of two axes or more, a concatenation along the other axis
SIDED = {"vstack": ("stack", 0, 0), "hstack": ("concatenate", 0, 1),
         "column_stack": ("stack", 1, 1)}  # vectors as columns
_MATH = ("fsum", "prod")
WITH_START = ("sum", "prod")  # take a ``start`` (sum's second argument, prod's keyword)
LIBRARY = tuple(f"statistics.{name}" for name in (
    "mean", "variance", "pvariance", "stdev", "pstdev", "geometric_mean", "harmonic_mean"))


def library_op(obj):
    """The ``LIBRARY`` op of the function ``obj`` (``statistics.mean``), or None."""
    for op in LIBRARY:
        if obj is getattr(statistics, op.partition(".")[2]):
            return op
    return None


def in_library(op):
    return op in LIBRARY


def in_math(op):
    return op in _MATH


def function(op):
    """The function a ``Reduce`` of ``op`` calls; NumPy's for a join of a list of arrays
    (``stack``, ``concatenate``: called with the axis), imported when asked, since only
    code that joins arrays asks."""
    if op in JOINS:
        import numpy

        return getattr(numpy, op)
    if op in LIBRARY:
        return getattr(statistics, op.partition(".")[2])
    return getattr(math if op in _MATH else builtins, op)
