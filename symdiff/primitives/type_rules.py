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
  constant that is not negative (``2 ** -1`` is 0.5), and a ``Number`` where the
  exponent is not known and the value must be certain (below);
- ``pick``: one of the operands, as it is (``max``; a copy of a string is a string).

A ``Number`` (a bool, an int or a float not known when the code is generated) is an
operand like any other: ``like(Number, Number)`` is a ``Number`` (it may be an int),
``like(Number, Float)`` a float, a quotient of numbers a float.  ``typed(...,
certain=True)`` gives the type every value has, what the sweeps' facts rest on: ``max``
of an int and a float is then a ``Number``, where a variable's type (the default) is
the float an int may stand for.

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


def floats(args, consts=(), certain=False):
    return t.FLOAT


def ints(args, consts=(), certain=False):
    return t.INT


def bools(args, consts=(), certain=False):
    return t.BOOL


def numpy_floats(args, consts=(), certain=False):
    return t.NUMPY_FLOAT


def like(args, consts=(), certain=False):
    found = _widest(args)
    return t.INT if found == t.BOOL else found


def quotient(args, consts=(), certain=False):
    return t.join(t.FLOAT, like(args))


def power(args, consts=(), certain=False):
    exponent = consts[1] if len(consts) > 1 else None
    integers = len(args) == 2 and all(a in (t.INT, t.BOOL, t.NUMBER) for a in args)
    if integers and isinstance(exponent, (int, float)) and exponent >= 0:
        return like(args)  # an int, or a number that may be one
    if integers and exponent is None and (certain or t.NUMBER in args):
        return t.NUMBER  # an int, or a float for a negative exponent
    return quotient(args)


def pick(args, consts=(), certain=False):
    if len(args) == 1:
        return args[0]
    if not certain:
        return _widest(args)
    found = None
    for kind in args:
        found = t.either(found, kind)
    return found


FIXED = (floats, ints, bools, numpy_floats)  # the rules whose result the arguments leave
RESULTS = FIXED + (like, quotient, power, pick)  # every result rule


def reads_arguments(record, by=None):
    """Whether the result rule of ``record`` called by the names of ``by`` reads its
    arguments' types (``like``), rather than giving one type for any (``floats``)."""
    return record.spelled(by).result not in FIXED


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


def typed(record, args, consts=(), by=None, certain=False):
    """The type rule of ``record`` (a ``Primitive``) for arguments of types ``args``, with
    ``consts`` the constants among them, called by the names of ``by`` ("math", "numpy" or
    None for Python's operators and builtins).  With ``certain``, the type every value
    has (``max`` of an int and a float is a ``Number``); without, the type of a variable
    the program reads it into (a float: an int stands where one is read)."""
    if record.array_result is not None or any(isinstance(a, t.Array) for a in args):
        return _on_arrays(record, tuple(args), tuple(consts))
    rule = _result_rule(record, by if by in ("math", "numpy") else None)
    result = rule(tuple(args), tuple(consts), certain)
    if by == "numpy" and result is not None and result != t.BOOL:
        result = t.NUMPY_FLOAT
    numbers = all(a is None or _is_numeric(a) for a in args)
    by_numpy = by == "numpy" or record.arithmetic and any(t.is_numpy(a) for a in args)
    return Typed(result, not (numbers and (record.total or by_numpy)))


def _on_arrays(record, args, consts):
    """The type rule of ``record`` where an operand is an array (or of an array
    operation): an elementwise record gives the broadcast of its operands (booleans for a
    test), but ``float`` of a 0-d array a Python float; an array operation its own rule.
    Either may raise (on shapes)."""
    if record.array_result is not None:  # (``total``: it never raises on its arrays)
        return Typed(record.array_result(args, consts), not record.total or record.effectful)
    if None in args:
        return Typed(None, True)
    if "float" in record.builtin and len(args) == 1 and args[0].ndim == 0:
        return Typed(t.FLOAT, False)  # ``float(s)`` of a 0-d array: Python's float
    tests = record.result is bools
    return Typed(t.broadcast(args, dtype="bool" if tests else None), True)


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
