"""Type rules: the type of a primitive's value from its arguments' types, and whether it
may raise.

Expects argument types of ``symdiff.core.types`` (None: not known yet, as while an inference
runs to its fixed point) and, per argument, its value where the call writes a constant
(None otherwise: the static parameters a rule may read, such as a power's exponent).
Guarantees the result rules a record states (``Primitive.result``, one per record) and
``typed``: the record's whole type rule, a ``Typed`` of the result type and whether the
call may raise, as the family of names the user called it by computes it.

- ``floats``, ``ints``, ``bools``, ``numpy_floats``: always that type (``math.sin``,
  ``math.floor``, ``math.isnan``, SciPy's functions);
- ``like``: as Python's arithmetic gives: the wider of the operands' types (a bool counts
  as an int, a NumPy scalar is wider than a float: ``np.float64(1.0) * 2.0`` is numpy's);
- ``quotient``: a float, or a NumPy scalar where an operand is one (``/``);
- ``power``: ``quotient``, but an int where both operands are integers and the exponent a
  constant that is not negative (``2 ** -1`` is 0.5);
- ``pick``: one of the operands, as it is (``max``; a copy of a string is a string).

Called by numpy's name (``np.sin``), a number's value is a NumPy scalar (a test's stays a
bool).  A call may raise unless its operands are numbers and its record is ``total`` or
numpy computes it (under numpy's default ``errstate`` a division by zero, a log of a
negative number, an overflow give inf or nan and a warning: ``np.float64(1.0) / 0.0``).

    >>> from symdiff.core import types as t
    >>> like((t.INT, t.FLOAT)), power((t.INT, t.INT), (None, 2)), pick((t.STR,))
    (Float(), Int(), Str())
"""

from dataclasses import dataclass

from symdiff.core import types as t


@dataclass(frozen=True)
class Typed:
    """What a type rule gives: the result's type (None: not known from the arguments yet,
    or no value for them) and whether the call may raise."""

    result: object
    may_raise: bool


def floats(args, consts=()):
    return t.FLOAT


def ints(args, consts=()):
    return t.INT


def bools(args, consts=()):
    return t.BOOL


def numpy_floats(args, consts=()):
    return t.NUMPY_FLOAT


def like(args, consts=()):
    found = _widest(args)
    return t.INT if found == t.BOOL else found


def quotient(args, consts=()):
    return t.join(t.FLOAT, like(args))


def power(args, consts=()):
    exponent = consts[1] if len(consts) > 1 else None
    if len(args) == 2 and all(a in (t.INT, t.BOOL) for a in args) and (
            isinstance(exponent, (int, float)) and exponent >= 0):
        return t.INT
    return quotient(args)


def pick(args, consts=()):
    if len(args) == 1:
        return args[0]
    return _widest(args)


RESULTS = (floats, ints, bools, numpy_floats, like, quotient, power, pick)  # every result rule


def _widest(args):
    """The join of the operands' numbers (an optional number is one where it is computed
    with; a table's entry or anything else, a float), the unknown ones left out."""
    found = None
    for kind in args:
        found = t.join(found, _number(kind))
    return found


def _number(kind):
    if kind is None or t.is_number(kind):
        return kind
    return t.NUMPY_FLOAT if t.is_numpy(kind) else t.FLOAT


def typed(record, args, consts=(), by=None):
    """The type rule of ``record`` (a ``Primitive``) for arguments of types ``args``, with
    ``consts`` the constants among them, called by the names of ``by`` ("math", "numpy" or
    None for Python's operators and builtins)."""
    rule = _result_rule(record, by if by in ("math", "numpy") else None)
    result = rule(tuple(args), tuple(consts))
    if by == "numpy" and result is not None and result != t.BOOL:
        result = t.NUMPY_FLOAT
    numbers = all(a is None or _is_numeric(a) for a in args)
    by_numpy = by == "numpy" or record.arithmetic and any(t.is_numpy(a) for a in args)
    return Typed(result, not (numbers and (record.total or by_numpy)))


def _result_rule(record, family):
    """``record.spelled(family).result``, read without building the spelled record (a
    type rule runs for every statement of every inference)."""
    found = None
    for name, spelling in record.overrides if family is not None else ():
        if name == family:
            found = spelling.result  # the last one stated, as ``dict(overrides)`` keeps
    return found or record.result


def _is_numeric(kind):
    return t.is_number(kind) or isinstance(kind, t.Table) or (
        isinstance(kind, t.Optional) and t.is_number(kind.of))
