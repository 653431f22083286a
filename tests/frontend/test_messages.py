"""Messages in the user's terms, and loops over a table backwards.

Each refused function of ``message_cases.py`` raises its error class at the place its
marker names (the wording is free); ``for c in reversed(TABLE)`` and its relatives
give the gradients the tape, sympy and finite differences give.
"""

import math
import re

import pytest
import sympy

import message_cases as cases
import symdiff
import symdiff.tape
from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from test_fence import assert_points_at
from oracles import finite_difference

_MARKER = re.compile(r"#\s*AT\s+(\w+)(?:\s+at\s+(.+?))?\s*$")


def _markers(path):
    found = {}
    with open(path, encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, 1):
            match = _MARKER.search(line)
            if match:
                code = line[:match.start()]
                anchor = match.group(2)
                found[match.group(1)] = (lineno, code.index(anchor) if anchor
                                         else len(code) - len(code.lstrip()))
    return found


MARKERS = _markers(cases.__file__)

CASES = {
    "local_tuple": cases.keeps_a_tuple,
    "returned_tuple": cases.returns_a_pair,
    "helper_tuple": cases.uses_the_pair_as_one_number,
    "tuple_argument": cases.passes_a_tuple_to_abs,
    "table_of_tables": cases.passes_a_table_of_tables,
    "hidden_range": cases.hides_range,
    "hidden_reversed": cases.hides_reversed,
    "yield": cases.yields,
    "reversed_list": cases.loops_over_reversed_list,
    "enumerate_reversed": cases.enumerates_reversed,
    "zip_reversed": cases.zips_reversed,
    "reversed_call": cases.loops_over_reversed_call,
    "helper_loops_over_grid": cases.loops_over_a_table_of_tables_in_a_helper,
    "indexes_grid": cases.indexes_a_table_of_tables,
    "object_dict_field": cases.reads_a_dict_field,
    "object_property": cases.reads_a_property,
    "object_field_assigned": cases.calls_a_method_assigning_a_field,
    "reduce_in_a_branch": cases.folds_where_it_might_not_run,
    "variance_given_xbar": cases.variance_given_its_mean,
}


def test_every_marker_has_a_case():
    assert set(MARKERS) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_refused_with_its_class_at_its_place(name):
    with pytest.raises(SymdiffError) as raised:
        symdiff.grad(CASES[name])
    assert type(raised.value) is UnsupportedSyntaxError, raised.value
    assert_points_at(raised.value, cases.__file__, *MARKERS[name])


def test_the_messages_no_longer_say_the_misleading_things():
    """The four messages that contradicted themselves or spoke of something else."""
    said = {name: str(_error(CASES[name])) for name in
            ("local_tuple", "table_of_tables", "hidden_range", "yield")}
    assert "Jacobians" not in said["local_tuple"]
    assert "not a number, not a number" not in said["table_of_tables"]
    assert "not supported — loop over range" not in said["hidden_range"]
    assert "expression statement" not in said["yield"]


def _error(fn):
    with pytest.raises(SymdiffError) as raised:
        symdiff.grad(fn)
    return raised.value


# --- loops over a table backwards --------------------------------------------------------

COEFFS = (1.0, -2.0, 3.0, 0.5, -1.25)
LIST_COEFFS = [0.5, 1.5, -2.0]


def horner_backwards(x):
    s = 0.0
    for c in reversed(COEFFS):
        s = s * x + math.sin(c * x)
    return s


def backwards_over_a_list(x, y):
    s = y
    for c in reversed(LIST_COEFFS):
        s = s * math.tanh(x * c) + y * c
    return s


def backwards_with_break(x):
    s = 1.0
    for c in reversed(COEFFS):
        if s > 4.0:
            break
        s = s * x + c * c
    return s


def backwards_by_position(x):
    s = 0.0
    for i in reversed(range(len(COEFFS))):
        s = s * x + math.sin(COEFFS[i] * x)
    return s


def backwards_written_out(x):
    s = 0.0
    for c in reversed((2.0, -1.0, 0.5)):
        s = s * x + c
    return s


def backwards_over_a_parameter(x, coeffs):
    s = 0.0
    for c in reversed(coeffs):
        s = s * x + math.exp(c * x)
    return s


def nested_backwards(x):
    s = 0.0
    for a in reversed(COEFFS):
        for b in COEFFS:
            s = s + math.sin(a * x + b)
    return s


BACKWARDS = [horner_backwards, backwards_over_a_list, backwards_with_break,
             backwards_by_position, backwards_written_out, nested_backwards]
POINTS = [0.3, -0.7, 1.1]


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize("fn", BACKWARDS, ids=lambda fn: fn.__name__)
def test_a_loop_over_a_table_backwards_against_the_witnesses(fn):
    count = fn.__code__.co_argcount
    gradient, tape = symdiff.grad(fn), symdiff.tape.grad(fn)
    unoptimized = symdiff.grad(fn, optimize=False)
    for x in POINTS:
        point = (x, 0.4)[:count]
        got = _as_tuple(gradient(*point))
        assert got == pytest.approx(_as_tuple(tape(*point)), rel=1e-12, abs=1e-14)
        assert got == pytest.approx(_as_tuple(unoptimized(*point)), rel=1e-12, abs=1e-14)
        for i in range(count):
            estimate, _ = finite_difference(fn, point, i)
            assert got[i] == pytest.approx(estimate, rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("fn", [horner_backwards, backwards_written_out],
                         ids=lambda fn: fn.__name__)
def test_a_loop_over_a_table_backwards_against_sympy(fn):
    symbol = sympy.Symbol("x", real=True)
    for x in POINTS:
        expected = symdiff.symbolic_grad(fn, at=(x,)).subs(symbol, x)
        assert symdiff.grad(fn)(x) == pytest.approx(float(expected), rel=1e-12)


def test_backwards_reads_the_table_from_its_end():
    """The reversed loop differs from the forward one (not a loop run the other way by
    accident in both sweeps), and the forward sweep says so in its text."""
    def forwards(x):
        s = 0.0
        for c in COEFFS:
            s = s * x + math.sin(c * x)
        return s
    assert symdiff.grad(horner_backwards)(0.3) != pytest.approx(symdiff.grad(forwards)(0.3))
    assert "in reversed(range(5)):" in symdiff.source(horner_backwards)


@pytest.mark.parametrize("coeffs", [LIST_COEFFS, tuple(COEFFS)], ids=["list", "tuple"])
def test_a_table_parameter_backwards(coeffs):
    gradient = symdiff.grad(backwards_over_a_parameter, wrt="x")
    tape = symdiff.tape.grad(backwards_over_a_parameter, wrt="x")
    for x in POINTS:
        assert gradient(x, coeffs) == pytest.approx(tape(x, coeffs), rel=1e-12)
        estimate, _ = finite_difference(lambda t: backwards_over_a_parameter(t, coeffs), (x,), 0)
        assert gradient(x, coeffs) == pytest.approx(estimate, rel=1e-6)


def test_a_backwards_loop_differentiates_again():
    second = symdiff.grad(symdiff.grad(horner_backwards))
    for x in POINTS:
        h = 1e-5
        gradient = symdiff.tape.grad(horner_backwards)
        estimate = (gradient(x + h) - gradient(x - h)) / (2 * h)
        assert second(x) == pytest.approx(estimate, rel=1e-6)
