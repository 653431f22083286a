"""Hoisting: a loop's cheap operations on values it never changes run once, before it
(``symdiff.lower.hoist.hoist_invariants``, the last step of ``normalize``).

Two parts.  First the IR: each function is normalized with every step but the hoisting
(``unhoisted``), then hoisted, and the statements whose enclosing loops changed are
compared with what the pass promises (``moved``: each statement with the loops and
branches around it before and after).  Each rule that keeps a statement in its loop
comes as a pair, as in ``test_taping``: a function the rule blocks, in which nothing
moves, and its twin without the obstacle, in which the statement moves; so the test
shows that the rule is what blocks.  The pass must not change its input, must give what
``normalize`` gives, and must never leave a loop body empty.

Then the numbers: a table of loop functions (something moves out of each loop that
surely runs; nothing out of one that may run no iteration), against the tape
engine and central finite differences at seeded points, the unoptimized gradient (bit
for bit), ``value_and_grad``'s value, gradients at points where a loop runs no
iteration (against the tape), ``jvp`` and ``hessian`` against finite differences, and
``symdiff.check``.  No expected number is typed in by hand.

The end of the file holds the cases that once went wrong: an operand bound only on a
path not taken, and an infinite operand of a loop that runs no iteration.
"""

import ast
import dataclasses
import math
import random
import sys
from unittest import mock

import pytest

import symdiff
import symdiff.pipeline
import symdiff.tape
from symdiff.ir import nodes as ir
from symdiff.core.expr import to_ast
from symdiff.lower.hoist import hoist_invariants
from symdiff.frontend.parse import parse_function

try:
    from corpus import case
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import case

try:
    import oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles

against_finite_differences = oracles.against_finite_differences
against_tape = oracles.against_tape
as_tuple, bits, finite_difference = oracles.as_tuple, oracles.bits, oracles.finite_difference


# --- reading the IR ----------------------------------------------------------------------

def hoisted(fn):
    return symdiff.pipeline.lower(parse_function(fn))


def unhoisted(fn):
    """``fn`` normalized by every step but the hoisting."""
    with mock.patch.object(symdiff.pipeline, "hoist_invariants", lambda program, **_: program):
        return symdiff.pipeline.lower(parse_function(fn))


def _operand(operand):
    return operand.name if isinstance(operand, ir.Var) else repr(operand.value)


def describe(stmt):
    """A leaf statement as text: ``mul(u, x)`` (operands as the IR names them; the
    statements the tests look for read only the user's own names)."""
    if isinstance(stmt, ir.Assign):
        return f"{stmt.op}({', '.join(_operand(a) for a in stmt.args)})"
    if isinstance(stmt, ir.Push):
        return f"push({stmt.stack}, {_operand(stmt.value)})"
    if isinstance(stmt, ir.Pop):
        return f"pop({stmt.stack})"
    if isinstance(stmt, ir.Build):
        return f"build({stmt.target})"
    if isinstance(stmt, ir.BreakIf):
        return "break-if"
    return f"compute({ast.unparse(to_ast(stmt.expr))})"


def placements(program):
    """A key for each leaf statement -> (statement, the loops and branches around it,
    outermost first: ``for <variable>``, ``while``, ``if``), in program order.  The key
    is the statement as written, with its origin's ``hoisted`` mark left out (a moved
    statement is a copy that carries it), and a count for equal statements."""
    found = {}
    seen = {}

    def key(stmt):
        origin = getattr(stmt, "origin", None)
        if origin is not None:
            stmt = dataclasses.replace(stmt, origin=dataclasses.replace(origin, hoisted=False))
        text = repr(stmt)
        seen[text] = seen.get(text, 0) + 1
        return (text, seen[text])

    def visit(block, around):
        for stmt in block:
            if isinstance(stmt, ir.For):
                visit(stmt.body, around + (f"for {stmt.target}",))
            elif isinstance(stmt, ir.While):
                visit(stmt.pre, around + ("while",))
                visit(stmt.body, around + ("while",))
            elif isinstance(stmt, ir.If):
                visit(stmt.body, around + ("if",))
                visit(stmt.orelse, around + ("if",))
            else:
                found[key(stmt)] = (stmt, around)

    visit(program.body, ())
    return found


def moved(fn):
    """What hoisting moves in ``fn``: ``(statement, around before, around after)`` for
    every statement whose loops changed, in the order of the hoisted program."""
    before = unhoisted(fn)
    after = hoist_invariants(before)
    old, new = placements(before), placements(after)
    assert list(old) != [] and sorted(old) == sorted(new), "hoisting added or dropped a statement"
    return [(describe(stmt), old[key][1], around) for key, (stmt, around) in new.items()
            if old[key][1] != around]


def around(program, text):
    """The loops and branches around the one leaf statement described by ``text``."""
    found = [where for stmt, where in placements(program).values() if describe(stmt) == text]
    assert len(found) == 1, f"{len(found)} statements {text}"
    return found[0]


def loops(block):
    return [s for s in ir.walk(block) if isinstance(s, (ir.For, ir.While))]


def just_before(program, loop, count):
    """The ``count`` statements right before ``loop``, in its block."""
    for stmt in [program] + list(ir.walk(program.body)):
        for block in ([stmt.body] if stmt is program else ir.children(stmt)):
            for index, item in enumerate(block):
                if item is loop:
                    return [describe(s) for s in block[max(0, index - count):index]]
    raise AssertionError("the loop is in no block")


def shape(value):
    """``value`` as nested tuples that compare equal when the programs are equal
    (syntax trees by ``ast.dump``, a module's globals and other objects by identity)."""
    if isinstance(value, dict) and _is_module_globals(value):
        return ("globals", id(value))
    if isinstance(value, ast.AST):
        return ("ast", ast.dump(value, include_attributes=True))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(
            (f.name, shape(getattr(value, f.name))) for f in dataclasses.fields(value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(shape(v) for v in value)
    if isinstance(value, dict):
        return ("dict",) + tuple((k, shape(v)) for k, v in value.items())
    if isinstance(value, (set, frozenset)):
        return ("set",) + tuple(sorted(value))
    if value is None or isinstance(value, (bool, int, float, str)):
        return (type(value).__name__, repr(value))
    return ("object", id(value))


def _is_module_globals(value):
    module = sys.modules.get(value.get("__name__"))
    return module is not None and vars(module) is value


# --- what moves ------------------------------------------------------------------------------

def invariant_product(x, u, w):
    h = 0.0
    for t in range(5):
        h = math.tanh(w * h + u * x)
    return h


def invariant_chain(x, u, c):
    s = 0.0
    for t in range(4):
        a = u * x
        b = a + c
        s = s + b * s
    return s


def two_deep(x, u):
    s = 0.0
    for i in range(3):
        for j in range(4):
            s = s * 0.5 + u * x
    return s


def reads_outer_variable(x, u):
    s = 0.0
    for i in range(3):
        for j in range(4):
            s = s * 0.5 + u * i
    return s


def chain_two_deep(x, u, c):
    s = 0.0
    for i in range(3):
        for j in range(2):
            a = u * x
            b = a - c
            s = s * 0.5 + b
    return s


def every_safe_op(x, u):
    s = x
    for i in range(4):
        a = -u
        b = +x
        c = a - b
        d = c
        s = s * d + a
    return s


def loop_in_branch(x, u, w):
    h = x
    if x > 0:
        for i in range(5):
            h = math.sin(h * w + u * x)
    return h


def while_body_invariant(x, u):
    s = 0.0
    while s < 3.0:
        s = s + u * u + 0.5
    return s


def invariant_before_break(x, u, w):
    h = x
    s = 0.0
    for i in range(20):
        h = math.tanh(w * h + u * x)
        s = s + h * h + 0.3
        if s > 2.5:
            break
    return s * h


def invariant_before_continue(x, u, w):
    h = x
    for i in range(9):
        a = u * x
        b = a + w
        if i % 3 == 1:
            continue
        h = math.tanh(w * h + b)
    return h


def invariant_before_return(x, u, w):
    h = x
    for i in range(10):
        h = math.exp(w * h * 0.3 + u * x) * 0.9
        if h > 2.0:
            return h * x
    return h


def invariant_in_reversed(x, u, w):
    h = x
    for i in reversed(range(6)):
        h = math.tanh(w * h + (u - x) * i)
    return h


def scaled_tanh(z, a, b):
    return math.tanh(z * a + a * b)


def helper_reads_invariants(x, u):
    h = x
    for i in range(5):
        h = scaled_tanh(h, u, x) + x * 0.1
    return h


def pushed_invariant(x, u):
    st = []
    for i in range(3):
        st.append(u * x)
    s = 0.0
    for k in range(3):
        v = st.pop()
        s = s * 0.5 + v * u
    return s


MOVES = [
    (invariant_product, [("mul(u, x)", ("for t",), ())]),
    (invariant_chain, [("mul(u, x)", ("for t",), ()), ("add(a, c)", ("for t",), ())]),
    (two_deep, [("mul(u, x)", ("for i", "for j"), ())]),
    (reads_outer_variable, [("mul(u, i)", ("for i", "for j"), ("for i",))]),
    (chain_two_deep, [("mul(u, x)", ("for i", "for j"), ()),
                      ("sub(a, c)", ("for i", "for j"), ())]),
    (every_safe_op, [("neg(u)", ("for i",), ()), ("pos(x)", ("for i",), ()),
                     ("sub(a, b)", ("for i",), ()), ("copy(c)", ("for i",), ())]),
    (loop_in_branch, [("mul(u, x)", ("if", "for i"), ("if",))]),
    (invariant_before_break, [("mul(u, x)", ("for i",), ())]),
    (invariant_before_continue, [("mul(u, x)", ("for i",), ()), ("add(a, w)", ("for i",), ())]),
    (invariant_before_return, [("mul(u, x)", ("for i",), ())]),
    (invariant_in_reversed, [("sub(u, x)", ("for i",), ())]),
    (helper_reads_invariants, [("mul(u, x)", ("for i",), ()), ("mul(x, 0.1)", ("for i",), ())]),
    (pushed_invariant, [("mul(u, x)", ("for i",), ())]),
]


@pytest.mark.parametrize("fn, expected", MOVES, ids=[fn.__name__ for fn, _ in MOVES])
def test_what_moves(fn, expected):
    assert moved(fn) == expected


@pytest.mark.parametrize("fn, count", [(invariant_chain, 2), (chain_two_deep, 2),
                                       (every_safe_op, 4)])
def test_a_chain_moves_together_in_order_right_before_its_loop(fn, count):
    program = hoisted(fn)
    first = loops(program.body)[0]
    assert just_before(program, first, count) == [text for text, _, _ in moved(fn)]


def test_a_moved_statement_stays_in_its_branch():
    program = hoisted(loop_in_branch)
    branch = next(s for s in program.body if isinstance(s, ir.If))
    assert just_before(program, loops(branch.body)[0], 1) == ["mul(u, x)"]


def test_pushes_and_pops_stay_in_their_loops():
    program = hoisted(pushed_invariant)
    stack = [(type(stmt).__name__, where) for stmt, where in placements(program).values()
             if isinstance(stmt, (ir.Push, ir.Pop))]
    assert stack == [("Push", ("for i",)), ("Pop", ("for k",))]
    assert around(program, "mul(u, x)") == ()
    assert around(program, "mul(v, u)") == ("for k",)


# --- what stays: each rule, and its twin without the obstacle --------------------------------

def product_in_loop(x, u):
    s = 0.0
    for i in range(4):
        s = s * 0.5 + u * x
    return s


def exp_in_loop(x, u):
    s = 0.0
    for i in range(4):
        s = s * 0.5 + math.exp(x)
    return s


def sine_in_loop(x, u):
    s = 0.0
    for i in range(4):
        s = s * 0.5 + math.sin(x)
    return s


def division_in_loop(x, u):
    s = 0.0
    for i in range(4):
        s = s * 0.5 + x / u
    return s


def power_in_loop(x, u):
    s = 0.0
    for i in range(4):
        s = s * 0.5 + x ** u
    return s


def operand_assigned_in_loop(x, u):
    s = 0.0
    for i in range(4):
        v = math.sin(x)
        s = s * 0.5 + u * v
    return s


def operand_assigned_before(x, u):
    s = 0.0
    v = math.sin(x)
    for i in range(4):
        s = s * 0.5 + u * v
    return s


def operand_carried(x, u):
    s = 0.0
    v = x
    for i in range(4):
        a = u * v
        v = v + 1.0
        s = s * 0.5 + a
    return s


def operand_not_carried(x, u):
    s = 0.0
    v = x
    for i in range(4):
        a = u * v
        w = v + 1.0
        s = s * 0.5 + a * w
    return s


def read_before_in_iteration(x, u, a):
    s = 0.0
    for i in range(3):
        s = s * 0.5 + a
        a = u * x
    return s


def read_after_in_iteration(x, u, a):
    s = 0.0
    for i in range(3):
        a = u * x
        s = s * 0.5 + a
    return s


def read_in_previous_iteration(x, u):
    s = 0.0
    for i in range(3):
        if i > 0:
            s = s * 0.5 + a  # noqa: F821 -- the previous iteration's
        a = u * x  # noqa: F841
    return s


def read_after_the_loop(x, u):
    s = 0.0
    for i in range(3):
        a = u * x
        s = s * 0.5 + a
    return s + a


def read_only_in_the_loop(x, u):
    s = 0.0
    for i in range(3):
        a = u * x
        s = s * 0.5 + a
    return s


def assigned_twice(x, u):
    s = 0.0
    a = x
    for i in range(3):
        a = u * x
        s = s * 0.5 + a
        a = u - x
        s = s * a
    return s + a  # (read after the loop: one variable for a, in the loop and after)


def assigned_once(x, u):
    s = 0.0
    for i in range(3):
        a = u * x
        s = s * 0.5 + a
        b = u - x
        s = s * b
    return s


def operand_bound_after_the_loop(x, u, n):
    s = 0.0
    for i in range(3):
        s = s * 0.5 + q * x  # noqa: F821 -- unbound unless the loop runs no iteration
    q = u + 1.0
    return s + q


def operand_bound_before_the_loop(x, u, n):
    s = 0.0
    q = u + 1.0
    for i in range(3):
        s = s * 0.5 + q * x
    return s + q


def bound_in_a_branch_before_a_sure_loop(x, u, n):
    s = 0.0
    if x > 0:
        q = u + 1.0
    else:
        q = u - 1.0
    for i in range(3):
        s = s * 0.5 + q * x
    return s + q


def zero_trip_at_infinity(x, u, n):
    s = x
    for i in range(int(n)):
        s = s * 0.5 + u * x
    return s


def inside_a_branch(x, u):
    s = 0.0
    for i in range(3):
        if x > 0:
            s = s * 0.5 + u * x
    return s


def reads_inner_variable(x, u):
    s = 0.0
    for i in range(3):
        for j in range(4):
            s = s * 0.5 + u * j
    return s


def while_test_reads(x, u, a):
    s = 0.0
    while a + s < 3.0:
        a = u * x
        s = s + 1.0
    return s


def while_test_does_not_read(x, u, a):
    s = 0.0
    while s < 3.0:
        a = u * x
        s = s + 1.0 + a * a
    return s


def invariant_in_while_test(x, u):
    s = 0.0
    while s < u * x + 2.0:
        s = s + 1.0
    return s


def invariant_in_while_body(x, u):
    s = 0.0
    while s < 2.0:
        s = s + 1.0 + u * x
    return s


def popped_operand(x, u):
    st = []
    for i in range(3):
        st.append(x)
    s = 0.0
    for k in range(3):
        v = st.pop()
        s = s * 0.5 + v * u
    return s


def operand_not_popped(x, u):
    st = []
    for i in range(3):
        st.append(x)
    s = 0.0
    v = x
    for k in range(3):
        s = s * 0.5 + v * u
    return s


# (function the rule blocks, the statement that stays, its twin, the statement that moves)
STAYS = [
    (exp_in_loop, "exp(x)", product_in_loop, "mul(u, x)"),
    (sine_in_loop, "sin(x)", product_in_loop, "mul(u, x)"),
    (division_in_loop, "div(x, u)", product_in_loop, "mul(u, x)"),
    (power_in_loop, "pow(x, u)", product_in_loop, "mul(u, x)"),
    (operand_assigned_in_loop, "mul(u, v)", operand_assigned_before, "mul(u, v)"),
    (operand_carried, "mul(u, v)", operand_not_carried, "mul(u, v)"),
    (read_before_in_iteration, "mul(u, x)", read_after_in_iteration, "mul(u, x)"),
    (read_in_previous_iteration, "mul(u, x)", read_only_in_the_loop, "mul(u, x)"),
    (read_after_the_loop, "mul(u, x)", read_only_in_the_loop, "mul(u, x)"),
    (assigned_twice, "mul(u, x)", assigned_once, "mul(u, x)"),
    (operand_bound_after_the_loop, "mul(q, x)", operand_bound_before_the_loop, "mul(q, x)"),
    (inside_a_branch, "mul(u, x)", product_in_loop, "mul(u, x)"),
    (reads_inner_variable, "mul(u, j)", two_deep, "mul(u, x)"),
    (while_test_reads, "mul(u, x)", product_in_loop, "mul(u, x)"),
    (invariant_in_while_test, "mul(u, x)", product_in_loop, "mul(u, x)"),
    (while_test_does_not_read, "mul(u, x)", product_in_loop, "mul(u, x)"),
    (invariant_in_while_body, "mul(u, x)", product_in_loop, "mul(u, x)"),
    (zero_trip_at_infinity, "mul(u, x)", product_in_loop, "mul(u, x)"),
    (while_body_invariant, "mul(u, u)", product_in_loop, "mul(u, x)"),
    (bound_in_a_branch_before_a_sure_loop, "mul(q, x)", operand_bound_before_the_loop,
     "mul(q, x)"),
    (popped_operand, "mul(v, u)", operand_not_popped, "mul(v, u)"),
]


@pytest.mark.parametrize("blocked, stays, free, moves", STAYS,
                         ids=[blocked.__name__ for blocked, _, _, _ in STAYS])
def test_a_rule_keeps_a_statement_in_its_loop(blocked, stays, free, moves):
    assert moved(blocked) == []
    assert around(hoisted(blocked), stays) != ()  # it is there, inside its loop
    assert moves in [text for text, _, after in moved(free) if after == ()]


def test_nothing_moves_out_of_a_while_test():
    program = hoisted(invariant_in_while_test)
    loop = loops(program.body)[0]
    assert "mul(u, x)" in [describe(s) for s in loop.pre]


def test_pops_and_pushes_never_move():
    for fn in (popped_operand, operand_not_popped, pushed_invariant):
        for text, _, _ in moved(fn):
            assert not text.startswith(("push", "pop")), (fn.__name__, text)


# --- the pass itself -----------------------------------------------------------------------

def invariants_only(x, u):
    for i in range(3):
        a = u * x
        b = a + 1.0
        s = b
    return s


def dead_invariant(x, u):
    for i in range(3):
        a = u * x  # noqa: F841 -- never read: nothing later in the iteration needs it
    return x


IR_FUNCTIONS = ([fn for fn, _ in MOVES] + [f for row in STAYS for f in (row[0], row[2])]
                + [invariants_only, dead_invariant])
IR_FUNCTIONS = list(dict.fromkeys(IR_FUNCTIONS))


def test_a_loop_of_invariants_keeps_its_last_statement():
    assert [describe(s) for s in loops(hoisted(invariants_only).body)[0].body] == ["copy(b)"]
    assert [describe(s) for s in loops(hoisted(dead_invariant).body)[0].body] == ["mul(u, x)"]


@pytest.mark.parametrize("fn", IR_FUNCTIONS, ids=lambda fn: fn.__name__)
def test_no_loop_body_is_left_empty(fn):
    for loop in loops(hoisted(fn).body):
        assert loop.body, fn.__name__


@pytest.mark.parametrize("fn", IR_FUNCTIONS, ids=lambda fn: fn.__name__)
def test_the_pass_leaves_its_input_alone_and_gives_what_normalize_gives(fn):
    program = unhoisted(fn)
    before = shape(program)
    result = hoist_invariants(program)
    assert shape(program) == before and result.body is not program.body
    assert shape(result) == shape(hoisted(fn))
    assert shape(hoist_invariants(result)) == shape(result)  # nothing more to move


# --- the numbers: loop functions in which something moves ----------------------------------

def sigmoid(z):
    return 1.0 / (1.0 + math.exp(-z))


def inner_sum(z, w):
    total = 0.0
    for k in range(3):
        t = math.tanh(z * k * 0.3 + w * z)
        total = total + t * t
    return total


@symdiff.custom_grad(lambda a, b, out: out * (1.0 - out) * b,
                     lambda a, b, out: out * (1.0 - out) * a)
def gate(a, b):
    return 1.0 / (1.0 + math.exp(-a * b))


def rnn_input(x, u, w):
    h = 0.0
    for t in range(8):
        h = math.tanh(w * h + u * x)
    return h


def affine_chain(x, u, c):
    h = x
    for t in range(6):
        a = u * x
        b = a - c
        h = math.tanh(h * b + a)
    return h


def two_deep_sine(x, u, w):
    h = x
    for i in range(3):
        for j in range(4):
            h = math.sin(h * w + u * x) * 0.9
    return h


def outer_index(x, u):
    h = x
    for i in range(4):
        for j in range(3):
            h = math.tanh(h * u + x * i * 0.2)
    return h


def triangular(x, w):
    h = x
    for i in range(5):
        for j in range(i):
            h = math.tanh(h * w + x * i * 0.3)
    return h


def while_accumulates(x, u):
    h = x
    s = 0.0
    while s < 3.0:
        h = math.tanh(h * u + x * u)
        s = s + h * h + 0.5
    return s * h


def while_true_break(x, w):
    h = x
    s = 0.0
    n = 0
    while True:
        h = sigmoid(w * h + x * w) * 2.0
        s = s + h * x
        n += 1
        if n > 6:
            break
    return h + s


def early_return(x, u, w):
    h = x
    for i in range(10):
        h = math.exp(w * h * 0.3 + u * x) * 0.9
        if h > 2.0:
            return h * x
    return h


def nested_early_return(x, w):
    h = x
    for i in range(4):
        for j in range(4):
            h = math.tanh(w * h + x * w) * 1.5
            if h > 1.2:
                return h * w
    return h


def input_bound(x, u, n):
    s = x
    for i in range(int(n)):
        s = math.sin(s) * 0.5 + u * x
    return s


def start_stop(x, u, n):
    h = 0.0
    for i in range(int(n), int(n) + 4):
        h = math.tanh(h * x + i * 0.1 + u * u)
    return h


def loop_in_branches(x, u, w):
    h = x
    if x > 0:
        for i in range(5):
            h = math.sin(h * w + u * x)
    else:
        for i in range(4):
            h = math.cos(h * u) + w * x
    return h


def helper_arguments(x, u, w):
    h = x
    s = 0.0
    for i in range(4):
        h = sigmoid(h * w + u * w)
        s = s + h * h
    return s


def helper_with_loop(x, w):
    s = 0.0
    for i in range(3):
        s = s * 0.5 + inner_sum(x, w)
    return s


def custom_rule_in_loop(x, u, w):
    h = x
    s = 0.0
    for i in range(5):
        h = gate(h, u * w) + x * 0.1
        s = s + h * h
    return s


def stack_of_invariants(x, u):
    st = []
    h = x
    for i in range(4):
        h = math.tanh(h * u + x)
        st.append(h * (u + x))
    s = 0.0
    for i in range(4):
        v = st.pop()
        s = s * u + math.sin(v) * (x - u)
    return s


def while_in_for(x, w):
    h = x
    s = 0.0
    for i in range(3):
        k = 0
        while k < i + 1:
            h = math.tanh(w * h + x * w)
            k += 1
        s = s + h * h
    return s


def for_in_while(x, w):
    h = x
    s = 0.0
    while s < 2.0:
        for j in range(3):
            h = math.tanh(h * w + x * w)
        s = s + h * h + 0.2
    return s * h


def two_loops_share(x, u):
    h = x
    for i in range(4):
        h = math.tanh(h * u + u * x)
    for i in range(3):
        h = math.sin(h) * 0.5 + u * x
    return h


def gated_cell(x, w, u):
    h = 0.0
    c = 0.0
    for t in range(6):
        g = sigmoid(w * h + u * x)
        c = g * c + (1.0 - g) * math.tanh(x * w)
        h = math.tanh(c) * g
    return h


def parameter_rebound_after(x, u):
    s = 0.0
    for i in range(5):
        s = math.sin(s) + u * x
    x = x * 2.0
    return s * x


def augmented_invariant(x, u):
    s = 0.0
    for i in range(6):
        s *= 0.5
        s += u * x - x
    return s


# loops that may run no iteration -------------------------------------------------------------

def zero_trip_outer(x, u, n):
    s = x
    for i in range(int(n)):
        for j in range(3):
            s = s * 0.5 + u * x
    return s


def zero_trip_inner(x, u, n):
    s = x
    for i in range(3):
        for j in range(int(n)):
            s = math.sin(s) + u * x
    return s * u


def zero_trip_chain(x, u, n):
    h = x
    for i in reversed(range(int(n))):
        a = u * x
        b = a - u
        h = math.tanh(h * b) + a
    return h


def zero_trip_while(x, u, w):
    s = x * 0.5
    while s < w:
        s = s + u * u + 0.5
    return s * u


def zero_trip_in_branch(x, u, n):
    h = x
    if x > 0:
        for i in range(int(n)):
            h = math.sin(h * u + u * x)
    return h * u


def zero_trip_helper(x, u, n):
    h = x
    for i in range(int(n)):
        h = sigmoid(h * u + x * u)
    return h


TABLE = [
    case(rnn_input, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(affine_chain, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(two_deep_sine, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(outer_index, (-1.5, 1.5), (-1.5, 1.5)),
    case(triangular, (-1.5, 1.5), (-1.5, 1.5)),
    case(while_accumulates, (-1.5, 1.5), (-1.5, 1.5), kinky=True),
    case(while_true_break, (-1.5, 1.5), (-1.5, 1.5)),
    case(invariant_before_break, (-1, 1.5), (-1, 1), (-1, 1.5), kinky=True),
    case(invariant_before_continue, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(early_return, (0.1, 1.5), (-0.5, 0.5), (0.1, 2), kinky=True),
    case(nested_early_return, (-1, 1.5), (-1, 1.5), kinky=True),
    case(invariant_in_reversed, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(input_bound, (-1.5, 1.5), (-1.5, 1.5), (-1, 6), kinky=True),
    case(start_stop, (-1.5, 1.5), (-1.5, 1.5), (-3, 3), kinky=True),
    case(loop_in_branches, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5), kinky=True),
    case(helper_arguments, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(helper_reads_invariants, (-1.5, 1.5), (-1.5, 1.5)),
    case(helper_with_loop, (-1.5, 1.5), (-1.5, 1.5)),
    case(custom_rule_in_loop, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(stack_of_invariants, (-1.5, 1.5), (-1.5, 1.5)),
    case(pushed_invariant, (-1.5, 1.5), (-1.5, 1.5)),
    case(while_in_for, (-1.5, 1.5), (-1.5, 1.5)),
    case(for_in_while, (0.2, 1.5), (0.2, 1.5), kinky=True),
    case(two_loops_share, (-1.5, 1.5), (-1.5, 1.5)),
    case(gated_cell, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(parameter_rebound_after, (-1.5, 1.5), (-1.5, 1.5)),
    case(augmented_invariant, (-1.5, 1.5), (-1.5, 1.5)),
    case(every_safe_op, (-1, 1), (-1, 1)),
    case(chain_two_deep, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(operand_bound_before_the_loop, (-1.5, 1.5), (-1.5, 1.5), (-1, 5), kinky=True),
    case(zero_trip_outer, (-1.5, 1.5), (-1.5, 1.5), (-3, 4), kinky=True),
    case(zero_trip_inner, (-1.5, 1.5), (-1.5, 1.5), (-3, 4), kinky=True),
    case(zero_trip_chain, (-1.5, 1.5), (-1.5, 1.5), (-3, 4), kinky=True),
    case(zero_trip_while, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5), kinky=True),
    case(zero_trip_in_branch, (-1.5, 1.5), (-1.5, 1.5), (-3, 4), kinky=True),
    case(zero_trip_helper, (-1.5, 1.5), (-1.5, 1.5), (-3, 4), kinky=True),
]

POINTS = 10


def table(only=lambda c: True):
    return [pytest.param(c, id=c.label) for c in TABLE if only(c)]


def sample(c, count=POINTS, domain=None):
    return oracles.sample(c, count, "hoist", domain)










# Functions whose loops may all run no iteration (a ``while``, or a range from the
# arguments): nothing moves out of them, and they check that the rest stays right.
MAY_NOT_RUN = ["triangular", "while_accumulates", "while_true_break", "input_bound",
               "start_stop", "while_in_for", "zero_trip_inner",
               "zero_trip_chain", "zero_trip_while", "zero_trip_in_branch", "zero_trip_helper"]


def test_the_table_is_large_and_every_loop_that_surely_runs_hoists():
    assert len(TABLE) >= 20 and len({c.label for c in TABLE}) == len(TABLE)
    assert [c.label for c in TABLE if not moved(c.fn)] == MAY_NOT_RUN
    assert len(TABLE) - len(MAY_NOT_RUN) >= 20


@pytest.mark.parametrize("c", table())
def test_against_the_tape(c):
    failures = against_tape(c, sample(c))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("c", table())
def test_against_finite_differences(c):
    failures, checked, skipped = against_finite_differences(c, sample(c))
    assert not failures, "\n".join(failures)
    assert checked >= 2 * skipped, f"{skipped} of {checked + skipped} comparisons near a kink"


@pytest.mark.parametrize("c", table())
def test_unoptimized_is_identical(c):
    optimized, plain = symdiff.grad(c.fn), symdiff.grad(c.fn, optimize=False)
    for point in sample(c):
        assert bits(as_tuple(plain(*point))) == bits(as_tuple(optimized(*point))), point


@pytest.mark.parametrize("c", table())
def test_value_and_grad_returns_the_functions_value(c):
    both, gradient = symdiff.value_and_grad(c.fn), symdiff.grad(c.fn)
    for point in sample(c):
        value, grads = both(*point)
        assert value == c.fn(*point)
        assert bits(as_tuple(grads)) == bits(as_tuple(gradient(*point)))


# (function, a domain on which its loop runs no iteration); each is in TABLE too, with a
# domain on which it runs
ZERO_TRIP = [
    (input_bound, ((-1.5, 1.5), (-1.5, 1.5), (-3, 0.99))),
    (zero_trip_outer, ((-1.5, 1.5), (-1.5, 1.5), (-3, 0.99))),
    (zero_trip_inner, ((-1.5, 1.5), (-1.5, 1.5), (-3, 0.99))),
    (zero_trip_chain, ((-1.5, 1.5), (-1.5, 1.5), (-3, 0.99))),
    (zero_trip_while, ((0.5, 1.5), (-1.5, 1.5), (-1.5, 0.2))),
    (zero_trip_in_branch, ((0.1, 1.5), (-1.5, 1.5), (-3, 0.99))),
    (zero_trip_helper, ((-1.5, 1.5), (-1.5, 1.5), (-3, 0.99))),
]


@pytest.mark.parametrize("fn, domain", ZERO_TRIP, ids=[fn.__name__ for fn, _ in ZERO_TRIP])
def test_no_iteration_gives_the_tapes_gradient(fn, domain):
    c = case(fn, *domain)
    assert c.label in {t.label for t in TABLE}
    points = sample(c)
    failures = against_tape(c, points)
    assert not failures, "\n".join(failures)
    both, plain = symdiff.value_and_grad(fn), symdiff.grad(fn, optimize=False)
    for point in points:
        value, grads = both(*point)
        assert value == fn(*point)
        assert bits(as_tuple(grads)) == bits(as_tuple(plain(*point)))


# --- forward mode, Hessians and check() ------------------------------------------------------

JVP_CASES = ["rnn_input", "triangular", "while_true_break", "input_bound", "helper_with_loop",
             "stack_of_invariants"]


@pytest.mark.parametrize("c", table(lambda c: c.label in JVP_CASES))
def test_jvp_against_finite_differences(c):
    forward = symdiff.jvp(c.fn)
    rng = random.Random(f"hoist-direction:{c.label}")
    failures = []
    for point in sample(c, 4):
        direction = tuple(rng.uniform(-1.0, 1.0) for _ in point)
        value, tangent = forward(*point, *direction)
        assert value == c.fn(*point)

        def along(t):
            return c.fn(*(p + t * d for p, d in zip(point, direction)))

        estimate, spread = finite_difference(along, (0.0,), 0)
        if c.kinky and spread > 1e-5 * (1.0 + abs(estimate)):
            continue
        if not abs(tangent - estimate) <= 1e-7 * max(1.0, abs(estimate)):
            failures.append(f"at {point} along {direction}: jvp {tangent!r}, "
                            f"finite differences {estimate!r}")
    assert not failures, "\n".join(failures)


HESSIAN_CASES = ["rnn_input", "affine_chain", "two_deep_sine", "helper_reads_invariants",
                 "stack_of_invariants", "gated_cell"]


@pytest.mark.parametrize("c", table(lambda c: c.label in HESSIAN_CASES))
def test_hessian_against_finite_differences_of_the_tapes_gradient(c):
    hessian, witness = symdiff.hessian(c.fn), symdiff.tape.grad(c.fn)
    failures = []
    for point in sample(c, 3):
        matrix = hessian(*point)
        for j in range(len(point)):
            for i in range(len(point)):
                estimate, _ = finite_difference(lambda *p: as_tuple(witness(*p))[i], point, j)
                if not abs(matrix[i][j] - estimate) <= 1e-6 * max(1.0, abs(estimate)):
                    failures.append(f"at {point} H[{i}][{j}]: symdiff {matrix[i][j]!r}, "
                                    f"finite differences {estimate!r}")
    assert not failures, "\n".join(failures)


CHECK_CASES = ["rnn_input", "affine_chain", "outer_index"]


@pytest.mark.parametrize("c", table(lambda c: c.label in CHECK_CASES))
def test_check_reports_agreement(c):
    report = symdiff.check(c.fn, *sample(c, 2))
    assert report.ok, str(report)
    assert len(report.rows) == 2 * len(c.params) and not report.divergences


# --- bugs --------------------------------------------------------------------------------

def bound_in_a_branch_before(x, u, n):
    if x > 0:
        q = u + 1.0
    s = 0.0
    for i in range(int(n)):
        s = s * 0.5 + q * x
    return s


def bound_by_an_earlier_loop_variable(x, m, n):
    for k in range(int(m)):
        x = math.sin(x)
    s = 0.0
    for i in range(int(n)):
        s = s * 0.5 + k * x
    return s


def bound_in_an_earlier_loop(x, u, m, n):
    for k in range(int(m)):
        q = u + k
    s = x
    for i in range(int(n)):
        s = s * 0.5 + q * x
    return s


# (function, domain where the operand is bound only on paths not taken and no loop
# runs: the function returns a number, the tape gives a gradient; domain where it is bound)
UNBOUND = [
    (bound_in_a_branch_before, ((-1.5, -0.1), (-1.5, 1.5), (-3, 0.99)),
     ((0.1, 1.5), (-1.5, 1.5), (-1, 4))),
    (bound_by_an_earlier_loop_variable, ((-1.5, 1.5), (-3, 0.99), (-3, 0.99)),
     ((-1.5, 1.5), (1, 4), (-1, 4))),
    (bound_in_an_earlier_loop, ((-1.5, 1.5), (-1.5, 1.5), (-3, 0.99), (-3, 0.99)),
     ((-1.5, 1.5), (-1.5, 1.5), (1, 4), (-1, 4))),
]

@pytest.mark.parametrize("fn, _, bound", UNBOUND, ids=[row[0].__name__ for row in UNBOUND])
def test_an_operand_bound_on_some_paths_only_stays_and_is_right(fn, _, bound):
    c = case(fn, *bound, kinky=True)
    assert moved(fn) == []
    failures = against_tape(c, sample(c))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("fn, unbound, _", UNBOUND, ids=[row[0].__name__ for row in UNBOUND])
def test_an_operand_not_bound_when_no_loop_runs(fn, unbound, _):
    c = case(fn, *unbound)
    points = sample(c)
    for point in points:
        c.fn(*point)  # runs, and returns a number
    failures = against_tape(c, points)
    assert not failures, "\n".join(failures)


def test_no_iteration_at_an_infinite_operand():
    """Nothing moves out of a loop that may run no iteration: the moved operation's chain
    rule would run on a zero adjoint, and ``0.0 * inf`` is nan where the tape gives 0."""
    assert moved(zero_trip_at_infinity) == []
    gradient, witness = symdiff.grad(zero_trip_at_infinity), symdiff.tape.grad(
        zero_trip_at_infinity)
    for point in [(math.inf, 2.0, 0.0), (-math.inf, -0.5, -1.0)]:
        got, expected = gradient(*point), witness(*point)
        assert bits(got) == bits(expected), (point, got, expected)


def operand_reassigned_in_a_later_branch(x, y):
    p = -y
    for i in range(1):
        y = math.cos(p * x) + math.cos(y) + y / (1.0 + y * y)
    g = abs((y * y + 0.5) ** 0.5)
    if p < g:
        y += max(math.log(y * y + 0.5), y - y)
    else:
        p, x = x, -(g * p)
    return p + y + (y * y + 1.0) ** 2.5


def test_an_operand_assigned_after_the_loop_stays():
    """Found by the fuzzer: ``p * x`` moved before the loop, then the reverse sweep read
    ``x`` at top level after the ``else`` branch had overwritten it (top-level values are
    never saved).  An operand assigned again anywhere after the loop keeps the operation
    in its loop, where the loop's own saving sees the later assignment."""
    assert moved(operand_reassigned_in_a_later_branch) == []
    c = case(operand_reassigned_in_a_later_branch, (-1.5, 1.5), (-2.5, 2.5), kinky=True)
    failures = against_tape(c, sample(c) + [(-0.479919, -1.961629)])
    assert not failures, "\n".join(failures)
