"""The type rules with ``Number`` (a bool, an int or a float not known when the code is
generated), as the sweeps read them (``typed(..., certain=True)``): the type they give
must hold every value Python computes for arguments of those types, whichever number a
``Number`` turns out to be; and the joins ``core.types`` gives for it.
"""

import itertools

import pytest

from symdiff.analysis.value_types import sweep_join
from symdiff.core import types as t
from symdiff.primitives import registry
from test_registry import RECORDS, _computable, _run, points

_KINDS = (t.BOOL, t.INT, t.FLOAT, t.NUMBER)


def _values(kind, x):
    """The numbers a value of type ``kind`` may be, near the point ``x``."""
    whole = int(round(x))
    return {t.BOOL: [bool(whole % 2)], t.INT: [whole], t.FLOAT: [float(x)],
            t.NUMBER: [bool(whole % 2), whole, float(x)]}[kind]


def _holds(declared, value):
    return declared == value or declared == t.NUMBER and t.is_number(value) or (
        declared == t.INT and value == t.BOOL) or (
        declared == t.NUMPY_FLOAT and value == t.FLOAT)  # (a float that may be numpy's)


@pytest.mark.parametrize("record", [r for r in RECORDS if not r.numpy or r.math or r.builtin
                                    or r.operator], ids=lambda r: r.name)
def test_certain_type_holds_every_value(record):
    if not _computable(record.forward, record) or record.arity > 2:
        pytest.skip("computed by SciPy, or too many arguments to try every kind")
    for family in (None, "math"):
        spelled = record.spelled(family)
        for point in points(record, "number"):
            for kinds in itertools.product(_KINDS, repeat=record.arity):
                kinds = [t.INT if p in record.ints and k == t.FLOAT else k
                         for p, k in zip(record.params, kinds)]
                consts = [int(round(x)) if k in (t.INT,) else None for k, x in zip(kinds, point)]
                for given in ((None,) * record.arity, consts):
                    typed = record.typed(kinds, given, family, certain=True).result
                    for args in itertools.product(*map(_values, kinds, point)):
                        args = tuple(c if c is not None else a for a, c in zip(args, given))
                        try:
                            value = _run(spelled.forward, record, args)
                        except (ValueError, OverflowError, ZeroDivisionError, TypeError):
                            continue
                        if isinstance(value, complex):
                            continue  # numbers are real (a negative float's root)
                        assert _holds(typed, t.of_value(value)), (family, kinds, args, value)


def test_rules_of_numbers():
    def result(op, *args, consts=(), by=None):
        return registry.typed(op, args, consts, by).result

    n = t.NUMBER
    assert result("add", n, n) == n  # it may be an int
    assert result("add", n, t.FLOAT) == t.FLOAT and result("mul", t.BOOL, n) == n
    assert result("div", n, n) == t.FLOAT and result("div", n, t.INT) == t.FLOAT
    assert result("mul", n, t.NUMPY_FLOAT) == t.NUMPY_FLOAT  # numpy's stays numpy's
    assert result("pow", n, t.INT, consts=(None, 2)) == n  # 3 ** 2 is 9
    assert result("pow", n, t.INT, consts=(None, -1)) == t.FLOAT  # 3 ** -1 is a float
    assert result("pow", n, t.INT) == n
    assert result("abs", n) == n and result("floor", n, by="math") == t.INT
    assert result("sin", n, by="numpy") == t.NUMPY_FLOAT
    assert result("max", t.INT, t.FLOAT) == t.FLOAT  # a variable: the float it is read as
    assert registry.rule_of("max").typed((t.INT, t.FLOAT), certain=True).result == n
    assert registry.rule_of("pow").typed((t.INT, t.INT), certain=True).result == n


def test_joins_of_numbers():
    n = t.NUMBER
    assert t.join(n, t.INT) == n and t.join(n, t.FLOAT) == t.FLOAT
    assert t.join(n, t.NUMPY_FLOAT) == t.NUMPY_FLOAT and t.accepts(t.FLOAT, n)
    assert t.either(t.INT, t.FLOAT) == n and t.either(t.BOOL, t.INT) == t.INT
    assert t.either(t.FLOAT, t.NUMPY_FLOAT) == t.NUMPY_FLOAT
    assert sweep_join(t.INT, t.FLOAT) == n and sweep_join(t.List(t.INT), t.List(t.FLOAT)) == (
        t.List(n))
