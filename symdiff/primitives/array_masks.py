"""Masks combined: ``&``, ``|`` and ``~`` of boolean arrays (and of their
integers and booleans), records with no derivative.

Expects argument types of ``symdiff.core.types``.  Guarantees ``RECORDS``, one array
record per operator (``bitand``, ``bitor``, ``invert``), each spelled by its
Python operator and its NumPy function, whose type rule gives the broadcast of boolean
operands as a boolean array (of integers, an integer array; of numbers, a number) and no
value for a float operand (NumPy's ``&`` of floats raises ``TypeError``: refused, located,
where the types say so).  Every VJP is None: a mask selects, it carries no derivative.
(``^`` stays refused by the fence, whose hint says a power is written ``**``.)

    both = (x > 0.0) & (y < 0.5)       both: array[bool, 1, ()]     (no adjoint)
    rest = ~m                          rest: array[bool, 1, ()]
"""

from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.record import table


def _is_integral(kind):
    return kind in (t.BOOL, t.INT) or isinstance(kind, t.Array) and (
        kind.dtype == "bool" or kind.dtype.startswith(("int", "uint")))


def bits(args, consts):
    """The operands' broadcast: booleans of booleans, integers where one is an integer;
    None where an operand is a float (or not known yet)."""
    if not args or not all(_is_integral(a) for a in args):
        return None
    arrays = [a for a in args if isinstance(a, t.Array)]
    if not arrays:
        return t.BOOL if all(a == t.BOOL for a in args) else t.INT
    ints = [a.dtype for a in arrays if a.dtype != "bool"]
    return t.broadcast(args, dtype=max(ints, key=lambda d: (len(d), d)) if ints else "bool")


def _no_derivative(args, out):
    return (None,) * len(args)


def _operator(name, text, params, operator, numpy):
    return _array(name, text, params, bits, _no_derivative, numpy=(numpy,), operator=operator,
                  jvp=_no_derivative, broadcasting=True, cheap=True)


RECORDS = table(
    _operator("bitand", "x & y", ("x", "y"), "&", "bitwise_and"),
    _operator("bitor", "x | y", ("x", "y"), "|", "bitwise_or"),
    _operator("invert", "~x", ("x",), "~", "invert"),
)

METHODS = {}
STATICS = {}
HINTS = {name: "it combines masks (boolean arrays) or integers, never floats"
         for name in RECORDS}
