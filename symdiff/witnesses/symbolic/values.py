"""Python's values as the sympy witness sees them, and how its errors name them.

Expects a global, closure variable, default or constant of the user's code.  Guarantees
``_outside_value(obj)``: a sympy number for a Python number (``math.pi`` is ``pi``,
``math.inf`` is ``oo``, ints exact), a NumPy array of floats as an array of sympy numbers
(dtype ``object``: the witness's arrays; integer and boolean arrays, which index and mask,
stay NumPy's), anything else (a module, a function, a string flag) as it is; and
``_describe(value)``, the words for a value in an error.

    _outside_value(math.pi)  -> pi        _outside_value(3) -> 3 (a sympy Integer)
"""

import math
import numbers
import sys

import sympy

_CONSTANTS = ((math.pi, sympy.pi), (math.e, sympy.E), (math.tau, 2 * sympy.pi),
              (math.inf, sympy.oo))


def _outside_value(obj):
    """A global, closure variable or default value as the interpreter sees it."""
    if isinstance(obj, sympy.Basic):
        return obj
    for constant, exact in _CONSTANTS:
        if obj is constant:
            return exact
    if isinstance(obj, numbers.Integral):
        return sympy.Integer(int(obj))
    if isinstance(obj, numbers.Real):
        return sympy.Float(float(obj))
    numpy = sys.modules.get("numpy")  # imported already if the user's code has an array
    if numpy is not None and isinstance(obj, numpy.ndarray) and obj.dtype.kind == "f":
        return numpy.frompyfunc(_outside_value, 1, 1)(obj) if obj.ndim else numpy.array(
            _outside_value(obj[()]), dtype=object)
    return obj


def _describe(value):
    if type(value).__name__ == "ndarray":
        return f"an array of shape {value.shape}"
    if isinstance(value, (tuple, list, dict)):
        return f"a {type(value).__name__}"
    return "None" if value is None else getattr(value, "__name__", f"a {type(value).__name__}")

