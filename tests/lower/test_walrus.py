"""Assignment expressions (``:=``): the gradient of a function that uses them matches
the tape engine (which runs the function as written) and central finite differences at
many points; where moving the assignment to a line of its own would change what the
statement computes, the refusal is located and its hint, applied, differentiates."""
import math
import random

import pytest

import symdiff
from symdiff import SymdiffError


def in_a_condition(x):
    if (y := x * x) > 1.0:
        return y * x
    return (t := x + 1.0) * t


def in_a_loop(x, xs):
    total = 0.0
    for v in xs:
        if (w := v * x) > 0.0:
            total += math.exp(-w)
    return total


def in_a_while_test(x, n=4):
    while (n := n - 1) >= 0:
        if n == 1:
            continue  # the test, and so the assignment, runs again
        x = math.sin(x) + 0.5 * x
    return x * n


def in_a_comprehension_filter(x, xs):
    kept = [y for v in xs if (y := v * x) > 0.0]
    return sum(kept) + len(kept) * x


def of_a_list(x, xs):
    return sum(ys := [math.tanh(v * x) for v in xs]) / len(ys)


def stored_at_an_index(x):
    ys = [0.0, 0.0]
    ys[1] = (s := x * x) + 1.0
    for y in (zs := [s, x]):
        ys[0] = ys[0] + y * len(zs)
    return ys[0] * ys[1]


def nested(x):
    return (a := (b := x * 2.0) + math.cos(b)) * a + b


def in_a_call(x):
    return math.hypot(s := math.sin(x), s * x)


CASES = [(in_a_condition, lambda r: (r.uniform(-2.0, 2.0),)),
         (in_a_loop, lambda r: (r.uniform(-2.0, 2.0), [r.uniform(-2.0, 2.0) for _ in range(4)])),
         (in_a_while_test, lambda r: (r.uniform(-2.0, 2.0),)),
         (in_a_comprehension_filter, lambda r: (r.uniform(-2.0, 2.0),
                                                [r.uniform(-2.0, 2.0) for _ in range(5)])),
         (of_a_list, lambda r: (r.uniform(-2.0, 2.0), [r.uniform(-2.0, 2.0) for _ in range(3)])),
         (nested, lambda r: (r.uniform(-2.0, 2.0),)),
         (stored_at_an_index, lambda r: (r.uniform(-2.0, 2.0),)),
         (in_a_call, lambda r: (r.uniform(-2.0, 2.0),))]


def _central(fn, x, rest, h=1e-6):
    return (fn(x + h, *rest) - fn(x - h, *rest)) / (2 * h)


@pytest.mark.parametrize("fn, draw", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_matches_the_tape_and_finite_differences(fn, draw):
    rng = random.Random(fn.__name__)
    gradient, tape = symdiff.grad(fn, wrt=[0]), symdiff.tape.grad(fn)
    for _ in range(12):
        x, *rest = draw(rng)
        got = _first(gradient(x, *rest))
        assert got == pytest.approx(_first(tape(x, *rest)), rel=1e-10, abs=1e-12)
        assert got == pytest.approx(_central(fn, x, rest), rel=1e-5, abs=1e-6)


def _first(gradient):
    return gradient[0] if isinstance(gradient, (tuple, list)) else gradient


def test_the_generated_code_assigns_on_a_line_of_its_own():
    code = [line for line in symdiff.grad(in_a_condition).source.splitlines()
            if not line.strip().startswith("#")]
    assert not any(":=" in line for line in code) and "    y = x * x" in code


def read_before_assigned(x):
    y = x
    return y * (y := x * 3.0)


def read_first_then_assigned(x):
    y = x
    old = y
    return old * (x * 3.0)


def after_a_call(x):
    return math.sin(x) + (t := x * x) * t


def after_a_call_assigned_first(x):
    t = x * x
    return math.sin(x) + t * t


def in_a_later_operand(x):
    return x > 0.0 and (t := x * x) > 1.0 and t < 4.0 or x


@pytest.mark.parametrize("refused, rewritten", [
    (read_before_assigned, read_first_then_assigned),
    (after_a_call, after_a_call_assigned_first),
])
def test_a_refusal_is_located_and_its_hint_works(refused, rewritten):
    with pytest.raises(SymdiffError, match=r":=.*own line") as error:
        symdiff.grad(refused)(0.7)
    assert error.value.lineno and error.value.filename.endswith("test_walrus.py")
    for x in (-1.3, 0.4, 2.2):
        assert symdiff.grad(rewritten)(x) == pytest.approx(_central(rewritten, x, ()),
                                                           rel=1e-6)
        assert refused(x) == rewritten(x)


def test_in_a_later_operand_of_and_is_refused_where_it_is():
    with pytest.raises(SymdiffError, match="may not run") as error:
        symdiff.grad(in_a_later_operand)(0.7)
    assert error.value.col_offset is not None


def test_a_dict_display_is_read_key_then_value_as_python_evaluates_it():
    import ast

    from symdiff.lower.hygiene import Hygiene
    from symdiff.lower.walrus import named_assignments
    tree = ast.parse("def f(x):\n    d = {'a': (p := x), (q := 'b'): 1.0}\n").body[0]
    before, stmt = named_assignments(tree.body[0], Hygiene(tree))
    assert [ast.unparse(made) for made in before] == ["p = x", "q = 'b'"]
    assert ast.unparse(stmt) == "d = {'a': p, q: 1.0}"
