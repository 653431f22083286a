"""``normalize`` on small inputs: the shape of the IR, and that it still means the same.

Shape is checked on the IR itself (``symdiff.ir``); meaning with the IR evaluator
(``symdiff.ir.evaluate``) given Python's own operators and ``math`` for the primitives
(never the rules table), so the IR must compute what the user's function computes.
Gradients of the trickier functions are checked against finite differences.
"""

import ast
import math
import operator
from math import sin

import pytest

import symdiff
from symdiff.ir import evaluate
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.pipeline import lower
from symdiff.frontend.parse import parse_function
from symdiff.primitives.registry import RECORDS as RULES

SCALE = 2.0
DEBUG = False
TAU_ISH = math.pi * 2.0


def program_of(fn):
    return lower(parse_function(fn))


# --- an interpreter for the IR -----------------------------------------------------------

_OPS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
    "pow": operator.pow, "floordiv": operator.floordiv, "mod": operator.mod,
    "neg": operator.neg, "pos": operator.pos, "copy": lambda a: a, "abs": abs, "max": max,
    "min": min, "float": float, "int": int, "stop_gradient": lambda a: a,
    "logb": math.log,
}


def run_program(program, *args):
    """What ``program`` computes for ``args``: the IR evaluator, with each primitive
    computed by Python's own operators and ``math`` (never the rules table)."""
    return evaluate.run(program, args, lambda stmt: _OPS.get(stmt.op) or getattr(math, stmt.op))


# --- helpers for the checks ---------------------------------------------------------------

def blocks(program):
    """Every block of the program with its kind: top, then, else, loop, pre."""
    found = [("top", program.body)]
    for stmt in ir.walk(program.body):
        if isinstance(stmt, ir.If):
            found += [("then", stmt.body), ("else", stmt.orelse)]
        elif isinstance(stmt, ir.For):
            found.append(("loop", stmt.body))
        elif isinstance(stmt, ir.While):
            found += [("pre", stmt.pre), ("loop", stmt.body)]
    return found


def finite_difference(fn, args, i, h=1e-6):
    up, down = list(args), list(args)
    up[i] += h
    down[i] -= h
    return (fn(*up) - fn(*down)) / (2 * h)


def assert_gradient_matches(fn, args, rel=1e-5, abs_=1e-6):
    got = symdiff.grad(fn)(*args)
    got = got if isinstance(got, tuple) else (got,)
    want = tuple(finite_difference(fn, args, i) for i in range(len(args)))
    assert got == pytest.approx(want, rel=rel, abs=abs_)


def assert_same_value(fn, *args):
    assert run_program(program_of(fn), *args) == pytest.approx(fn(*args), rel=1e-12, abs=0)


_STATEMENTS = (ir.Assign, ir.Compute, ir.If, ir.For, ir.While, ir.BreakIf)
_TEST_NODES = (ex.Compare, ex.BoolOp, ex.UnaryOp, ex.Name, ex.Const, ex.Attribute)


# --- functions under test -------------------------------------------------------------------

def nested_expression(x, y):
    z = math.sin(x * y) + 1
    return z * (x - y) / (1.0 + x * x) ** 2 + -y


def augmented(x, y):
    z = x
    z += y
    z *= 3.0
    z -= x
    z /= y
    z **= 2
    z //= 1.0
    z %= 7.0
    return z + x


def unpacking(x, y):
    a, b = x, y
    a, b = b, a
    (c, d), e = (a * 2.0, b), x
    f = g = c + d
    return a - 2.0 * b + 3.0 * c + 5.0 * d * e + f * g


def rotation(x, y, z):
    a, b, c = x, y, z
    for i in range(2):
        a, b, c = b, c, a * 2.0
    return a + 10.0 * b + 100.0 * c


def reassigned(x):
    y = x * 2.0
    y = y + 1.0
    y = y * y
    x = x + y
    return x * y


def f(x, dx, t):
    """The user's names are the ones symdiff would like for itself."""
    mul_z = x * dx
    result = mul_z + t
    stack = sin(result)
    push = stack * x
    pop = push - t
    cond = pop
    if cond > 0.0:
        cond = cond * 2.0
    grad_f = cond * 2.0 + t
    _ = grad_f + x
    math = _ * _
    stop = 0.0
    skip = 1.0
    returned = 2.0
    go_on = 3.0
    value_old = 4.0
    for i in range(3):
        math = math * x + dx
        stop = stop + math
        if math > 100.0:
            break
        if math < -100.0:
            continue
        skip = skip * t
    return math + cond + stop + skip + returned + go_on + value_old


def and_guard(x):
    if x > 0 and math.sqrt(x) > 1:
        return x * 2.0
    return x * 3.0


def or_guard(x):
    if x < 0 or math.log(x) > 1:
        return x * x
    return -x


def chained_guard(x):
    if 0 < x < math.sqrt(x):
        return x * 5.0
    return x * 7.0


def nested_guard(x):
    if x > 0 and (x > 1 or math.log(-x) > 0):
        return x * x
    return x


def conditional_sqrt(x):
    return math.sqrt(x) if x > 0 else 0.0


def conditional_log(x):
    return x * 2.0 if x > 0 else math.log(-x)


def early_exits(x, y):
    total = 0.0
    for i in range(6):
        if i == 4:
            break
        if i % 2 == 1:
            continue
        total = total + x * i
        if total > 50.0:
            return total * y
    k = 0
    while k < 5:
        k = k + 1
        for j in range(3):
            if j > k:
                break
            total = total + y * j
        if total > 100.0:
            return total - x
        if k == 3:
            continue
        total = total * 1.5
    return total + x * y


def square_plus_one(a):
    a = a * a
    return a + 1.0


def scaled(a, factor=2.0):
    if a > 0.0:
        return a * factor
    return a


def uses_helpers(x, y):
    return square_plus_one(x) * square_plus_one(y) + square_plus_one(x + y) + scaled(
        x) + scaled(y, factor=x)


def uses_constants(x):
    return SCALE * x + TAU_ISH * x + math.pi * x


def make_scaled(k):
    def scaled_closure(x):
        return k * x + SCALE
    return scaled_closure


def debug_branch(x):
    y = x * 2.0
    if DEBUG:
        y = round(y)
    return y


def not_debug_branch(x):
    y = x * 2.0
    if not DEBUG:
        y = y * 3.0
    else:
        y = round(y)
    return y


SHAPE_FUNCTIONS = [nested_expression, augmented, unpacking, rotation, reassigned, f,
                   and_guard, or_guard, chained_guard, nested_guard, conditional_sqrt,
                   conditional_log, early_exits, uses_helpers, uses_constants, debug_branch]


# --- one operation per statement -------------------------------------------------------------

@pytest.mark.parametrize("fn", SHAPE_FUNCTIONS, ids=lambda fn: fn.__name__)
def test_every_assign_applies_one_primitive_to_operands(fn):
    program = program_of(fn)
    for stmt in ir.walk(program.body):
        assert isinstance(stmt, _STATEMENTS), stmt
        if isinstance(stmt, ir.Assign):
            assert stmt.op in RULES, stmt
            assert all(isinstance(a, (ir.Var, ir.Const)) for a in stmt.args), stmt
            assert len(stmt.args) == len(RULES[stmt.op].partials), stmt
            assert stmt.target.isidentifier()
        tests = []
        if isinstance(stmt, ir.Compute):
            tests.append(stmt.expr)
        elif isinstance(stmt, (ir.While, ir.BreakIf)):
            tests.append(stmt.test)
        for expr in tests:  # decisions only: no arithmetic, no calls hide in them
            for node in ex.walk(expr):
                assert isinstance(node, _TEST_NODES), expr
                assert not isinstance(node, ex.UnaryOp) or node.op == "not", expr
        if isinstance(stmt, ir.For):
            assert all(isinstance(b, (ir.Var, ir.Const)) for b in stmt.bounds)


def test_nested_expression_becomes_a_chain_of_single_operations():
    program = program_of(nested_expression)
    ops = [s.op for s in program.body if isinstance(s, ir.Assign)]
    assert ops.count("mul") == 3 and ops.count("sin") == 1 and ops.count("pow") == 1
    assert len(program.body) == len(ops)  # straight-line code: no control statements appear
    assert_same_value(nested_expression, 0.7, -1.3)


def test_every_statement_remembers_the_users_line():
    lines, first = _source_lines(nested_expression)
    for stmt in ir.walk(program_of(nested_expression).body):
        assert stmt.origin.lineno in lines
        assert stmt.origin.text == lines[stmt.origin.lineno].strip()
        assert stmt.origin.function == "nested_expression"


def _source_lines(fn):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return {first + i: line for i, line in enumerate(lines)}, first


# --- augmented assignment, unpacking, versions ---------------------------------------------

def test_augmented_assignment_is_expanded_into_fresh_versions():
    program = program_of(augmented)
    top = [s for s in program.body if isinstance(s, ir.Assign)]
    assert [s.op for s in top] == ["copy", "add", "mul", "sub", "div", "pow", "floordiv",
                                   "mod", "add"]
    updates = top[1:-1]
    for previous, stmt in zip(top, updates):
        assert ir.Var(previous.target) in stmt.args  # each reads the version before it
    assert len({s.target for s in top}) == len(top)
    assert_same_value(augmented, 1.7, 0.6)


@pytest.mark.parametrize("args", [(1.0, 2.0), (-0.5, 3.25), (2.5, -1.5)])
def test_tuple_unpacking_and_swaps_keep_their_meaning(args):
    assert_same_value(unpacking, *args)
    assert run_program(program_of(unpacking), *args) == unpacking(*args)
    assert_gradient_matches(unpacking, args)


def test_rotation_in_a_loop():
    assert run_program(program_of(rotation), 1.0, 2.0, 3.0) == rotation(1.0, 2.0, 3.0)
    assert_gradient_matches(rotation, (1.0, 2.0, 3.0))


def test_top_level_reassignment_gets_a_fresh_version_name():
    program = program_of(reassigned)
    targets = [s.target for s in program.body if isinstance(s, (ir.Assign, ir.Compute))]
    assert len(targets) == len(set(targets))
    assert "y" in targets  # the first assignment keeps the user's name
    versions_of_y = [t for t in targets if t == "y" or t.startswith("y_")]
    assert len(versions_of_y) == 3
    assert program.params == ["x"]
    assert not any(t == "x" for t in targets)  # the parameter is never overwritten
    assert_same_value(reassigned, 0.3)
    assert_gradient_matches(reassigned, (0.3,))


# --- hygiene --------------------------------------------------------------------------------

def test_generated_names_never_collide_with_user_names():
    program = program_of(f)
    user_names = {"x", "dx", "t", "mul_z", "result", "stack", "push", "pop", "cond", "grad_f",
                  "_", "math", "stop", "skip", "returned", "go_on", "value_old", "i"}
    assert user_names <= set(program.reserved)
    assert program.math_name != "math"  # the user's own variable is called math
    text = symdiff.source(f)
    tree = ast.parse(text)
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    assert function.name != "grad_f" and function.name.startswith("grad_f")
    assert f"import math as {program.math_name}" in text
    params = [a.arg for a in function.args.args]
    assert params == ["x", "dx", "t"]


@pytest.mark.parametrize("args", [(0.7, 1.3, -0.4), (0.2, -0.5, 1.1), (1.5, 2.5, 0.9)])
def test_gradient_with_colliding_names_matches_finite_differences(args):
    assert run_program(program_of(f), *args) == pytest.approx(f(*args), rel=1e-12)
    assert_gradient_matches(f, args)


# --- short circuits ------------------------------------------------------------------------

@pytest.mark.parametrize("fn, x, slope", [
    (and_guard, -1.0, 3.0), (and_guard, 4.0, 2.0), (and_guard, 0.25, 3.0),
    (or_guard, -1.0, -2.0), (or_guard, 10.0, 20.0), (or_guard, 2.0, -1.0),
    (chained_guard, -1.0, 7.0), (chained_guard, 0.25, 5.0), (chained_guard, 4.0, 7.0),
    (nested_guard, 2.0, 4.0), (nested_guard, -1.0, 1.0),
], ids=lambda v: getattr(v, "__name__", None))
def test_and_or_and_chained_comparisons_short_circuit(fn, x, slope):
    assert symdiff.grad(fn)(x) == slope
    assert run_program(program_of(fn), x) == fn(x)


def test_conditional_expression_evaluates_only_the_branch_taken():
    assert symdiff.grad(conditional_sqrt)(-1.0) == 0.0
    assert symdiff.grad(conditional_sqrt)(4.0) == 0.25
    assert symdiff.grad(conditional_log)(3.0) == 2.0
    assert symdiff.grad(conditional_log)(-2.0) == pytest.approx(-0.5)
    program = program_of(conditional_sqrt)
    branches = [s for s in ir.walk(program.body) if isinstance(s, ir.If)]
    assert len(branches) == 1
    assert [s.op for s in branches[0].body if isinstance(s, ir.Assign)] == ["sqrt"]
    assert all(s.op != "sqrt" for s in branches[0].orelse if isinstance(s, ir.Assign))


# --- break, continue, return -----------------------------------------------------------------

def test_exits_are_lowered_to_flags_and_a_final_break_if():
    program = program_of(early_exits)
    for stmt in ir.walk(program.body):
        assert isinstance(stmt, _STATEMENTS)
    for kind, block in blocks(program):
        for position, stmt in enumerate(block):
            if isinstance(stmt, ir.BreakIf):
                assert kind == "loop", "BreakIf outside a loop body"
                assert position == len(block) - 1, "BreakIf not the last statement"
    assert any(isinstance(s, ir.BreakIf) for s in ir.walk(program.body))


@pytest.mark.parametrize("args", [(1.0, 0.5), (9.0, 0.3), (0.2, 30.0), (-1.0, 2.0),
                                  (30.0, 1.0)])
def test_exits_keep_their_meaning(args):
    assert run_program(program_of(early_exits), *args) == pytest.approx(early_exits(*args),
                                                                       rel=1e-12)
    assert_gradient_matches(early_exits, args)


# --- helpers, closures, constants ----------------------------------------------------------

def test_helpers_are_inlined_with_fresh_names():
    program = program_of(uses_helpers)
    statements = list(ir.walk(program.body))
    from_helpers = {s.origin.function for s in statements}
    assert {"square_plus_one", "scaled", "uses_helpers"} <= from_helpers
    squares = [s for s in statements if isinstance(s, ir.Assign)
               and s.origin.function == "square_plus_one" and s.op == "mul"]
    assert len(squares) == 3  # one per call site, each under its own name
    assert len({s.target for s in squares}) == 3
    top = [s.target for s in program.body if isinstance(s, (ir.Assign, ir.Compute))]
    assert len(top) == len(set(top))
    for args in [(0.5, 1.5), (-0.5, 2.0), (1.2, -0.7)]:
        assert run_program(program, *args) == pytest.approx(uses_helpers(*args), rel=1e-12)
        assert_gradient_matches(uses_helpers, args)


def test_module_constants_are_read_by_name():
    program = program_of(uses_constants)
    constants = [a for s in ir.walk(program.body) if isinstance(s, ir.Assign)
                 for a in s.args if isinstance(a, ir.Const)]
    assert {c.text for c in constants} >= {"SCALE", "TAU_ISH"}
    assert program.namespace["SCALE"] == 2.0 and program.namespace["TAU_ISH"] == TAU_ISH
    assert symdiff.grad(uses_constants)(1.0) == pytest.approx(2.0 + 3.0 * math.pi)


def test_each_closure_gets_its_own_constants():
    three, five = make_scaled(3.0), make_scaled(5.0)
    assert symdiff.grad(three)(1.0) == 3.0
    assert symdiff.grad(five)(1.0) == 5.0
    assert run_program(program_of(three), 2.0) == 8.0


def test_if_on_a_module_constant_is_decided_statically():
    program = program_of(debug_branch)
    assert not any(isinstance(s, (ir.If, ir.Compute)) for s in ir.walk(program.body))
    assert symdiff.grad(debug_branch)(1.5) == 2.0  # the untaken `round` is never looked at


def test_if_not_on_a_module_constant_is_decided_statically():
    assert symdiff.grad(not_debug_branch)(1.5) == 6.0
