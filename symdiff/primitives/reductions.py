"""Reductions: the functions of a whole list or tuple of numbers symdiff reads.

``sum`` (with ``start``), ``min`` and ``max`` of one iterable (the element returned gets
the gradient: the first one, on a tie), ``math.fsum`` and ``math.prod`` (with
``start``).  Each is named by the text ``ir.nodes.Reduce.op`` holds; ``function`` gives
the Python function it stands for, and ``in_math`` whether generated code calls it
through ``math``.

    >>> function("fsum")([0.1] * 10), in_math("fsum"), in_math("max")
    (1.0, True, False)
"""

import builtins
import math

REDUCTIONS = ("sum", "min", "max", "fsum", "prod")
JOINS = ("stack", "concatenate")  # of a list of arrays, along an axis (``stacked``)
_MATH = ("fsum", "prod")
WITH_START = ("sum", "prod")  # take a ``start`` (sum's second argument, prod's keyword)


def in_math(op):
    return op in _MATH


def function(op):
    """The function a ``Reduce`` of ``op`` calls; NumPy's for a join of a list of arrays
    (``stack``, ``concatenate``: called with the axis), imported when asked, since only
    code that joins arrays asks."""
    if op in JOINS:
        import numpy

        return getattr(numpy, op)
    return getattr(math if op in _MATH else builtins, op)
