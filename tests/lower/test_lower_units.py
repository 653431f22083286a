"""The lowering units on the points where they meet: exit flags written only where
something reads them, a primitive's spelling written with its statement, a helper's
body placed after its parameters, and the units reaching one another only through the
frame (no unit imports another that imports it back: ``test_layout``).

Shape is checked on the IR; meaning against the tape engine and finite differences
(``tests/oracles.py``), which know nothing of the IR.
"""

import math
from dataclasses import dataclass

import pytest

try:
    import numpy as np
except ImportError:
    np = None

try:
    import oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles

from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.pipeline import lower


def _flag_writes(program, flag):
    return [s for s in ir.walk(program.body)
            if isinstance(s, ir.Compute) and s.target.startswith(flag)]


def both_branches_return(x):
    if x > 1.0:
        return x * x
    else:
        return 2.0 * x


def return_in_a_loop(x, n):
    for i in range(n):
        x = x * 1.25
        if x > 3.0:
            return x
    return x - 1.0


def return_then_more(x):
    if x > 0.0:
        if x > 2.0:
            return x * 3.0
        x = x * x
    y = x + 1.0
    return y * x


def read_before_a_set(x, n):
    for i in range(n):
        if x > 4.0:
            return x
        x = x * 1.5
    if x > 1.0:
        return x * 2.0
    else:
        return x


def test_a_flag_nothing_reads_is_never_written():
    assert _flag_writes(lower(parse_function(both_branches_return)), "returned") == []


@pytest.mark.parametrize("fn", [return_in_a_loop, return_then_more, read_before_a_set])
def test_a_flag_something_reads_starts_false_and_is_set_at_each_return(fn):
    program = lower(parse_function(fn))
    writes = _flag_writes(program, "returned")
    assert program.body[0] in writes and program.body[0].expr.value is False
    assert len(writes) > 1 and all(w.expr.value is True for w in writes[1:])
    assert any(w.target in ir.reads(s) for w in writes[:1] for s in ir.walk(program.body))


@dataclass
class Case:
    fn: object
    label: str
    params: tuple
    domain: tuple
    kinky: bool = True


CASES = [
    Case(lambda x: both_branches_return(x), "both", ("x",), ((-3.0, 3.0),)),
    Case(return_then_more, "then_more", ("x",), ((-3.0, 3.0),)),
]


def in_a_loop(x):
    return return_in_a_loop(x, 5)


def before_a_set(x):
    return read_before_a_set(x, 4)


CASES += [Case(in_a_loop, "loop", ("x",), ((0.1, 3.0),)),
          Case(before_a_set, "before", ("x",), ((0.1, 3.0),))]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.label)
def test_the_gradients_agree_with_the_witnesses(case):
    points = oracles.sample(case, 40, "lower_units")
    assert oracles.against_tape(case, points) == []
    failures, checked, _ = oracles.against_finite_differences(case, points)
    assert failures == [] and checked > 20


def numpy_calls(x):
    return np.tanh(x) * math.sin(x)


def test_a_primitive_is_spelled_as_the_user_called_it():
    if np is None:
        pytest.skip("numpy is not installed")
    program = lower(parse_function(numpy_calls))
    spelled = {s.op: (s.family, s.call) for s in program.body if isinstance(s, ir.Assign)}
    assert spelled["tanh"] == ("numpy", "np.tanh")
    assert spelled["sin"][0] == "math"
    assert spelled["mul"][0] is None  # the user's operator, ...
    product = next(s for s in program.body if isinstance(s, ir.Assign) and s.op == "mul")
    assert program.computed_by(product) == "numpy"  # ... computed by numpy: read off types


def helper(t, k):
    t = t * k
    return t + 1.0


def calls_a_helper(x):
    y = helper(x, 2.0)
    return y * x


def test_a_helper_body_follows_its_parameters_copies():
    program = lower(parse_function(calls_a_helper))
    first = program.body[0]
    assert isinstance(first, ir.Assign) and first.op == "copy" and first.args == (ir.Var("x"),)
    assert program.body[1].origin.function == "helper"


def scaled_square(t, T):
    t = t * T[0]
    return t * t


WEIGHTS = (2.0, 3.0)


def calls_a_helper_often(x, y):
    total = 0.0
    for _ in range(2):
        total = total + scaled_square(x, WEIGHTS) * scaled_square(y, WEIGHTS)
    return total + scaled_square(x * y, WEIGHTS) + scaled_square(x + y, WEIGHTS)


def test_a_helper_is_read_once_per_build_however_often_it_is_called(monkeypatch):
    """Parsed, fenced and desugared once, and its tree's facts (``lower.reading``) read
    once: every call site inlines from the same reading.  The gradient is the tape's."""
    import symdiff.lower.scope as scope

    parsed, read = [], []
    real_parse, real_read = scope.parse_function, scope.read_tree
    monkeypatch.setattr(scope, "parse_function",
                        lambda fn: parsed.append(fn.__name__) or real_parse(fn))
    monkeypatch.setattr(scope, "read_tree", lambda tree, index=None: read.append(
        tree.name) or real_read(tree, index))
    program = lower(parse_function(calls_a_helper_often))
    assert parsed == ["scaled_square"]
    assert sorted(read) == ["calls_a_helper_often", "scaled_square"]
    assert sum(isinstance(s, ir.Assign) for s in ir.walk(program.body)) > 4 * 2  # inlined 4x
    case = Case(calls_a_helper_often, "often", ("x", "y"), ((-2.0, 2.0), (-2.0, 2.0)))
    assert oracles.against_tape(case, oracles.sample(case, 10, "read_once")) == []


def test_a_reading_states_the_facts_of_its_tree():
    from symdiff.lower.reading import read_tree

    reading = read_tree(parse_function(scaled_square).tree)
    assert (reading.locals, reading.params) == (("t", "T"), ("t", "T"))
    assert (reading.tables, reading.assigned, reading.gives_value) == (
        {"T"}, {"t"}, True)
    tree = reading.tree
    first = tree.body[0]
    assert reading.parent(first) is tree and reading.parent(first.value) is first
    assert reading.parent(tree) is None
