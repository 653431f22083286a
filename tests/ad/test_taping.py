"""Taping: values restored in place for the reverse sweep (``symdiff.ad.taping``).

Two parts.  First the choice: which names the outermost loop restores in place, read
off the generated text (``grad(f, optimize=False).source``, whose statements map one
to one onto the normalized ones, so ``push(h)`` right before ``h = ...`` is the in-place
save and any other ``push(h)`` is a save at a read).  Each safety rule of ``restorable``
comes as a pair: a function the rule blocks, and its twin without the obstacle, which
is restored, so the test shows that the rule is what blocks.  Three rules cannot be
reached from Python source (``normalize`` gives every ``if`` a fresh test name, never
writes a target among its own arguments except for ``+``/``-``, and feeds a ``while``
test's temporaries to the test alone); they are checked on a normalized program edited
by hand.

Then the numbers: a table of loop functions that stress the restore path, against the
tape engine and central finite differences at seeded points, the unoptimized gradient
(bit for bit), ``value_and_grad``'s value, the per-statement contributions of
``symdiff.checking.locate.locate``, and ``hessian`` (forward over reverse) against finite
differences of the gradient.  No expected number is typed in by hand.
"""

import ast
import dataclasses
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import symdiff
import symdiff.tape
from symdiff.ir import nodes as ir
from symdiff.checking.locate import locate
from symdiff.backend.compile import compile_module
from symdiff.ad.reverse import differentiate, environment
from symdiff.backend.emit import emit
from symdiff.backend.to_python import to_python
from symdiff.pipeline import lower
from symdiff.frontend.parse import parse_function
from symdiff.ad.taping import Scope, restorable

try:
    import oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles

against_finite_differences = oracles.against_finite_differences
against_tape = oracles.against_tape
as_tuple, bits, finite_difference = oracles.as_tuple, oracles.bits, oracles.finite_difference

try:
    from corpus import case
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import case


# --- reading the generated text ----------------------------------------------------------

def _function(source):
    """The generated function: the last ``def`` (rules it calls may be defined above)."""
    tree = ast.parse(source)
    return [n for n in tree.body if isinstance(n, ast.FunctionDef)][-1]


def _stack_aliases(function):
    """The names the generated code binds to its stack's ``append`` and ``pop``."""
    for stmt in function.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Tuple):
            methods = stmt.value.elts
            if [getattr(m, "attr", None) for m in methods] == ["append", "pop"]:
                return tuple(t.id for t in stmt.targets[0].elts)
    raise AssertionError("the generated code keeps no stack")


def _reverse_line(source):
    return next(i for i, text in enumerate(source.splitlines(), 1) if "# reverse sweep" in text)


def _outermost(loops):
    inside = {id(sub) for loop in loops for sub in ast.walk(loop) if sub is not loop}
    return [loop for loop in loops if id(loop) not in inside]


def forward_loops(source):
    """The outermost loops of the forward sweep, in source order."""
    line = _reverse_line(source)
    loops = [n for n in ast.walk(_function(source))
             if isinstance(n, (ast.For, ast.While)) and n.lineno < line]
    return sorted(_outermost(loops), key=lambda n: n.lineno)


def reverse_loops(source):
    line = _reverse_line(source)
    loops = [n for n in ast.walk(_function(source))
             if isinstance(n, (ast.For, ast.While)) and n.lineno > line]
    return sorted(_outermost(loops), key=lambda n: n.lineno)


def _blocks(node):
    for sub in ast.walk(node):
        for field in ("body", "orelse"):
            block = getattr(sub, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def _pushed(stmt, push):
    """The name ``stmt`` pushes on the generated stack, if it is ``push(name)``."""
    if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == push
            and isinstance(stmt.value.args[0], ast.Name)):
        return stmt.value.args[0].id
    return None


def _assigns(stmt, name):
    return isinstance(stmt, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == name for t in stmt.targets)


def pushes(source, loop=0):
    """Every ``push(name)`` of the ``loop``-th outermost forward loop, in source order,
    as ``(name, in_place)``: in place when the next statement that is not itself a push
    assigns ``name`` (the value it overwrites is what was pushed)."""
    push, _ = _stack_aliases(_function(source))
    found = []
    for block in _blocks(forward_loops(source)[loop]):
        for i, stmt in enumerate(block):
            name = _pushed(stmt, push)
            if name is None:
                continue
            rest = [s for s in block[i + 1:] if _pushed(s, push) is None]
            found.append((stmt.lineno, name, bool(rest) and _assigns(rest[0], name)))
    return [(name, in_place) for _, name, in_place in sorted(found)]


def restored_in_place(source):
    """The names some forward loop saves where they are overwritten, never at a read."""
    found = [p for k in range(len(forward_loops(source))) for p in pushes(source, k)]
    return {n for n, in_place in found if in_place} - {n for n, in_place in found
                                                        if not in_place}


def pushed_in_place(source):
    """The names some forward loop pushes right before overwriting them."""
    return {n for k in range(len(forward_loops(source))) for n, in_place in pushes(source, k)
            if in_place}


def saved_at_reads(source):
    return {n for k in range(len(forward_loops(source))) for n, in_place in pushes(source, k)
            if not in_place}


def started_at_zero(source, loop=0):
    """The names set to ``0.0`` between a forward loop's comment and the loop itself."""
    lines = source.splitlines()
    row = forward_loops(source)[loop].lineno - 1
    names = []
    while not lines[row - 1].strip().startswith("# line"):
        row -= 1
        found = re.fullmatch(r"\s*(\w+) = 0\.0", lines[row])
        if found:
            names.append(found.group(1))
    return sorted(names)


def assignment_to(loop, call):
    """The target of the first assignment in ``loop`` whose value calls ``math.<call>``."""
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign) and any(
                isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                and c.func.attr == call for c in ast.walk(node.value)):
            return node.targets[0].id
    raise AssertionError(f"no math.{call} in the loop")


def unoptimized(fn):
    return symdiff.grad(fn, optimize=False).source


# --- the choice: what is restored in place ------------------------------------------------

def tanh_recurrence(x, w, u):
    h = 0.0
    for t in range(10):
        h = math.tanh(w * h + u * x)
    return h


def test_tanh_recurrence_pushes_h_once_per_iteration():
    source = unoptimized(tanh_recurrence)
    assert pushes(source) == [("h", True)]  # saving at the reads would push h twice
    assert started_at_zero(source) == []  # h holds the user's 0.0 on entry
    _, pop = _stack_aliases(_function(source))
    back = reverse_loops(source)[0]
    pops = [n for n in ast.walk(back) if isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Call) and getattr(n.value.func, "id", None) == pop]
    assert [p.targets[0].id for p in pops] == ["h"]


def test_the_optimizer_keeps_the_pushes():
    assert pushes(symdiff.grad(tanh_recurrence).source) == pushes(unoptimized(tanh_recurrence))


def exp_times_value(x):
    s = 0.0
    for i in range(5):
        h = x * i
        s = s + math.exp(h) * h
    return s


def test_temporary_read_twice_is_pushed_once_and_starts_at_zero():
    source = unoptimized(exp_times_value)
    temporary = assignment_to(forward_loops(source)[0], "exp")
    assert pushes(source).count((temporary, True)) == 1
    assert temporary not in saved_at_reads(source)
    assert started_at_zero(source) == [temporary]
    # h: one reading statement (the product), one assignment: a tie, not restored in place
    assert "h" not in pushed_in_place(source)


def square_of_sine(x):
    s = 0.0
    for i in range(5):
        t = math.sin(x * i)
        s = s + t * t
    return s


def test_one_reading_statement_is_a_tie_saved_at_the_read():
    source = unoptimized(square_of_sine)
    assert pushes(source) == [("t", False)]  # t * t reads t once per statement
    assert started_at_zero(source) == []


def temporaries_only_inside(x, w):
    s = 0.0
    for i in range(4):
        e = math.exp(x * i * 0.2)
        g = math.tanh(w * i + x)
        s = s + e * e + g * g + e * g
    return s


def test_names_assigned_only_inside_start_at_zero_and_no_others():
    source = unoptimized(temporaries_only_inside)
    assert restored_in_place(source) == {"e", "g"}
    assert started_at_zero(source) == ["e", "g"]


def parameter_reassigned(x, w):
    for i in range(6):
        x = math.tanh(w * x + 0.5)
    return x * w


def test_a_parameter_is_restored_without_a_start_value():
    source = unoptimized(parameter_reassigned)
    assert restored_in_place(source) == {"x"}
    assert started_at_zero(source) == []
    assert "x = 0.0" not in source


def nested_inner_assigns(x, w):
    h = x
    s = 0.0
    for i in range(4):
        for j in range(3):
            h = math.tanh(h * w + x * j)
        s = s + h * h
    return s


def test_an_inner_loop_pushes_the_name_the_outer_loop_restores():
    source = unoptimized(nested_inner_assigns)
    outer = forward_loops(source)[0]
    inner = next(n for n in ast.walk(outer) if isinstance(n, ast.For) and n is not outer)
    push, _ = _stack_aliases(_function(source))
    assert [_pushed(s, push) for s in inner.body if _pushed(s, push)] == ["h"]
    assert restored_in_place(source) == {"h"}


def loop_in_branch(x, w):
    s = 0.0
    if x > 0.3:
        for i in range(4):
            e = math.exp(x * i * 0.2)
            s = s + e * e + e * w
    return s


def test_a_loop_in_a_branch_starts_its_names_inside_the_branch():
    source = unoptimized(loop_in_branch)
    branch = next(n for n in _function(source).body if isinstance(n, ast.If))
    starts = [s.targets[0].id for s in branch.body if isinstance(s, ast.Assign)
              and isinstance(s.value, ast.Constant) and s.value.value == 0.0]
    assert starts == ["e"] and restored_in_place(source) == {"e"}


# Each rule as a pair: (blocked, name, free, name) -- in both functions the name is read by
# more statements' partials than assign it, so only the obstacle tells them apart.

def shared_with_later_loop(x, w):
    h = x
    for i in range(5):
        h = math.tanh(h * x + w)
    for i in range(3):
        h = h * h
    return h


def alone_in_its_loop(x, w):
    h = x
    for i in range(5):
        h = math.tanh(h * x + w)
    for i in range(3):
        y = h * h
    return y


def while_test_reads(x, w):
    h = x
    s = 0.0
    while h < 3.0:
        h = math.exp(h * w) + 0.5
        s = s + h * x
    return s


def while_test_reads_other(x, w):
    h = x
    s = 0.0
    while s < 3.0:
        h = math.exp(h * w) + 0.5
        s = s + h * x
    return s


def inner_while_test_reads(x, w):
    h = x
    s = 0.0
    for i in range(3):
        while h < 2.0:
            h = math.exp(h * w) + 0.2
            s = s + h * x + math.sin(h)
    return s


def inner_while_counts(x, w):
    h = x
    s = 0.0
    for i in range(3):
        n = 0
        while n < 2:
            h = math.exp(h * w) * 0.5
            s = s + h * x + math.sin(h)
            n += 1
    return s


def inner_bound(x):
    s = 0.0
    for i in range(3):
        k = i + 1
        for j in range(k):
            s = s + x * k + math.sin(x * k)
    return s


def inner_constant_bound(x):
    s = 0.0
    for i in range(3):
        k = i + 1
        for j in range(2):
            s = s + x * k + math.sin(x * k)
    return s


def loop_variable_rewritten(x):
    s = 0.0
    for i in range(5):
        i = math.tanh(i * x)
        s = s + i * i
    return s


def loop_variable_copied(x):
    s = 0.0
    for i in range(5):
        k = math.tanh(i * x)
        s = s + k * k
    return s


def assigned_in_branch_before(x, w):
    if x > 0:
        h = x
    else:
        h = -x
    for i in range(5):
        h = math.tanh(h * w + x)
    return h


def assigned_at_top_level_before(x, w):
    h = abs(x)
    for i in range(5):
        h = math.tanh(h * w + x)
    return h


BLOCKED = [
    pytest.param(shared_with_later_loop, "h", alone_in_its_loop, "h",
                 id="a later loop assigns it"),
    pytest.param(while_test_reads, "h", while_test_reads_other, "h",
                 id="the while test reads it"),
    pytest.param(inner_while_test_reads, "h", inner_while_counts, "h",
                 id="an inner while test reads it"),
    pytest.param(inner_bound, "k", inner_constant_bound, "k", id="it bounds an inner loop"),
    pytest.param(loop_variable_rewritten, "i", loop_variable_copied, "k",
                 id="it is the loop variable"),
    pytest.param(assigned_in_branch_before, "h", assigned_at_top_level_before, "h",
                 id="a branch before the loop assigns it"),
]


@pytest.mark.parametrize("blocked, blocked_name, free, free_name", BLOCKED)
def test_a_safety_rule_blocks_restoring_in_place(blocked, blocked_name, free, free_name):
    source = unoptimized(blocked)
    assert blocked_name not in pushed_in_place(source)
    assert blocked_name not in started_at_zero(source)
    twin = unoptimized(free)
    assert free_name in restored_in_place(twin) and free_name not in saved_at_reads(twin)


def test_a_later_loop_blocks_both_loops():
    source = unoptimized(shared_with_later_loop)
    assert "h" not in pushed_in_place(source)
    assert "h" in saved_at_reads(source)  # tanh's output: not cheap to recompute


# --- rules out of reach of Python source, on edited normalized programs -------------------

def program_of(fn):
    return lower(parse_function(fn))


def outer_loop(program):
    return next(s for s in program.body if isinstance(s, (ir.For, ir.While)))


def chosen(program):
    """What ``restorable`` picks for the program's first top-level loop."""
    return list(restorable(environment(program, list(program.params)), outer_loop(program),
                           Scope()))


def compiled(program):
    generated = to_python(differentiate(program, list(program.params)))
    text = emit(generated)
    return compile_module(text, generated.function.name, program.namespace, "edited.py")


def if_on_value(x, w):
    h = x
    s = 0.0
    for i in range(5):
        h = math.tanh(h * w + x)
        if h:
            s = s + h * w
    return s


def test_a_name_that_is_an_if_test_is_not_restored():
    program = program_of(if_on_value)
    assert chosen(program) == ["h"]  # normalize tests a fresh copy: `cond = h`
    loop = outer_loop(program)
    copy = next(i for i, s in enumerate(loop.body) if isinstance(s, ir.Compute))
    branch = loop.body[copy + 1]
    assert isinstance(branch, ir.If) and loop.body[copy].target == branch.test
    del loop.body[copy]
    branch.test = "h"  # the edit: `if h:` tests h itself
    assert chosen(program) == []
    gradient, witness = compiled(program), symdiff.tape.grad(if_on_value)
    for point in [(0.7, 0.3), (-0.4, 1.1), (1.3, -0.6)]:
        assert gradient(*point) == pytest.approx(witness(*point), rel=1e-12)


def sine_in_place(x, w):
    h = x
    s = 0.0
    for i in range(5):
        h = math.sin(h)
        s = s + h * w + math.cos(h)
    return s


def test_a_name_whose_partial_reads_its_old_value_is_not_restored():
    program = program_of(sine_in_place)
    assert chosen(program) == ["h"]  # normalize writes `sin_h = sin(h); h = sin_h`
    loop = outer_loop(program)
    sine, copy = loop.body[:2]
    assert (sine.op, sine.args, copy.op, copy.args) == (
        "sin", (ir.Var("h"),), "copy", (ir.Var(sine.target),))
    loop.body[:2] = [dataclasses.replace(sine, target="h")]  # the edit: `h = sin(h)`
    assert chosen(program) == []


def exp_in_while_test(x, w):
    h = x
    s = 0.0
    while math.exp(h * w) < 9.0:
        e = math.exp(h * w)
        s = s + e * x + math.sin(e)
        h = h + 0.4
    return s


def test_a_name_assigned_in_a_while_test_is_not_restored():
    program = program_of(exp_in_while_test)
    assert chosen(program) == ["e"]
    loop = outer_loop(program)
    test_value = next(s.target for s in loop.pre if isinstance(s, ir.Assign) and s.op == "exp")
    del loop.body[:2]  # the edit: the body reads the test's own exp(h * w), not a new one
    for stmt in loop.body:
        stmt.args = tuple(ir.Var(test_value) if a == ir.Var("e") else a for a in stmt.args)
    assert chosen(program) == []


# --- the choice is made the same way in every process -------------------------------------

def several_started_at_zero(x, w):
    s = 0.0
    for i in range(4):
        e = math.exp(x * i * 0.2)
        g = math.tanh(w * i + x)
        c = math.sin(x * w + i)
        s = s + e * e + g * g + e * g + c * c + c * x
    return s


_PRINT_SOURCE = """
import test_taping
print(test_taping.unoptimized(test_taping.several_started_at_zero))
"""


def test_names_start_at_zero_in_the_same_order_in_every_process():
    here = Path(__file__).resolve().parent
    path = os.pathsep.join([str(here), str(here.parent), str(here.parent.parent),
                            os.environ.get("PYTHONPATH", "")])
    texts = set()
    for seed in ("0", "1", "2", "3", "5", "7"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=path)
        run = subprocess.run([sys.executable, "-c", _PRINT_SOURCE], cwd=here, env=env,
                             capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            raise RuntimeError(run.stderr)
        texts.add(run.stdout)
    assert len(texts) == 1


# --- the gradient raises where the function does -----------------------------------------

def read_after_a_loop(x, n):
    s = 0.0
    for i in range(int(n)):
        t = math.exp(x * i)
        s = s + t * t
    return s + t * x


def read_before_the_first_assignment(x):
    s = 0.0
    for i in range(3):
        s = s + t * x + math.sin(t)  # noqa: F821 -- unbound in the first iteration
        t = math.exp(x * i)  # noqa: F841
    return s


def earlier_loop_variable(x, n):
    s = 0.0
    for k in range(int(n)):
        s = s + x * k
    for i in range(3):
        k = math.exp(x * i * 0.3)
        s = s + k * k + k * x
    return s


@pytest.mark.parametrize("fn, point", [(read_after_a_loop, (0.5, 0.0)),
                                       (read_before_the_first_assignment, (0.5,))],
                         ids=["zero trips, then read", "read before the first assignment"])
def test_a_name_started_at_zero_still_raises_where_the_function_does(fn, point):
    with pytest.raises(UnboundLocalError):
        fn(*point)
    for build in (symdiff.grad, symdiff.value_and_grad):
        with pytest.raises(UnboundLocalError):
            build(fn)(*point)


@pytest.mark.parametrize("fn", [read_after_a_loop, read_before_the_first_assignment])
def test_a_name_that_may_be_read_unbound_is_saved_at_its_reads(fn):
    assert "t" not in restored_in_place(unoptimized(fn))
    assert "t" not in started_at_zero(unoptimized(fn))


def test_a_name_read_after_a_loop_that_ran_gets_the_right_gradient():
    gradient, witness = symdiff.grad(read_after_a_loop), symdiff.tape.grad(read_after_a_loop)
    for point in [(0.5, 1.0), (0.3, 3.7), (-0.8, 5.2)]:
        assert gradient(*point) == pytest.approx(witness(*point), rel=1e-12)


def test_a_name_an_earlier_loop_may_not_bind_is_restored_safely():
    point = (0.7, 0.5)  # int(0.5) == 0: the first loop binds no k
    expected = symdiff.tape.grad(earlier_loop_variable)(*point)
    got = symdiff.grad(earlier_loop_variable)(*point)
    assert got == pytest.approx(expected, rel=1e-12)


def test_a_name_only_an_earlier_loop_binds_is_saved_at_its_reads():
    assert "k" not in restored_in_place(unoptimized(earlier_loop_variable))
    point = (0.7, 2.5)
    expected = symdiff.tape.grad(earlier_loop_variable)(*point)
    assert symdiff.grad(earlier_loop_variable)(*point) == pytest.approx(expected, rel=1e-12)


# --- the numbers: loop functions that stress the restore path ----------------------------

def sigmoid(z):
    return 1.0 / (1.0 + math.exp(-z))


def helper_temporary(z, w):
    e = math.exp(z * 0.3)
    return e * e + e * w


def helper_loop(z, w):
    total = 0.0
    for k in range(3):
        t = math.tanh(z * k + w)
        total = total + t * t + t * z
    return total


@symdiff.custom_grad(lambda a, b, out: out * (1.0 - out) * b,
                     lambda a, b, out: out * (1.0 - out) * a)
def gate(a, b):
    return 1.0 / (1.0 + math.exp(-a * b))


def rnn_tanh(x, w, u):
    h = 0.0
    for t in range(8):
        h = math.tanh(w * h + u * x)
    return h


def exp_temporary(x):
    s = 0.0
    for i in range(6):
        e = math.exp(x * i * 0.2)
        s = s + e * e + e * x
    return s


def sigmoid_recurrence(x, w):
    h = x
    s = 0.0
    for i in range(7):
        h = 1.0 / (1.0 + math.exp(-(w * h + x)))
        s = s + h * h
    return s + h


def sigmoid_helper_recurrence(x, w):
    h = x
    for i in range(6):
        h = sigmoid(w * h - x * 0.5)
        x = x + h * 0.1
    return h * x


def two_restored_names(x, w, u):
    a = x
    b = w
    for t in range(6):
        a = math.tanh(w * a + u * b)
        b = math.tanh(u * b + a * x)
    return a * b


def temporary_read_three_times(x, y):
    s = 0.0
    for i in range(5):
        t = math.exp(x * 0.3 + y * i * 0.1)
        s = s + t * t * t + math.sin(t) * y
    return s


def nested_triangular(x, w):
    h = x
    for i in range(5):
        for j in range(i):
            h = math.tanh(h * w + x * (i - j) * 0.3)
    return h


def both_branches(x, w):
    h = x
    for i in range(6):
        if i % 2 == 0:
            h = math.tanh(w * h + x)
        else:
            h = math.exp(-h * h) * w
    return h


def one_branch(x, w):
    h = x
    for i in range(7):
        h = math.tanh(w * h + x)
        if i % 3 == 0:
            h = math.sin(h) + 1.0
    return h


def data_dependent_branch(x, w):
    h = x
    s = 0.0
    for i in range(8):
        h = math.tanh(w * h + x * 0.5)
        if s > 0.5:
            h = math.exp(h * w)
        s = s + h * h
    return s


def break_loop(x, w):
    h = x
    s = 0.0
    for i in range(20):
        h = math.tanh(w * h + x)
        s = s + h * h + 0.3
        if s > 2.5:
            break
    return s * h


def continue_loop(x, w):
    h = x
    for i in range(9):
        if i % 3 == 1:
            continue
        h = math.tanh(w * h + x * i * 0.2)
    return h


def continue_on_value(x, w):
    h = x
    s = 0.0
    for i in range(8):
        h = math.tanh(h * w + x)
        if h * i > 1.5:
            continue
        s = s + h * h
    return s + h


def early_return(x, w):
    h = x
    for i in range(10):
        h = math.exp(w * h * 0.3) * 0.9
        if h > 2.0:
            return h * x
    return h


def nested_early_return(x, w):
    h = x
    for i in range(4):
        for j in range(4):
            h = math.tanh(w * h + x) * 1.5
            if h > 1.2:
                return h * w
    return h


def while_data_dependent(x, w):
    h = x
    s = 0.0
    while s < 3.0:
        h = math.tanh(w * h + x) + 1.1
        s = s + h * h * 0.25
    return s + h


def while_true_break(x, w):
    h = x
    s = 0.0
    n = 0
    while True:
        h = sigmoid(w * h + x) * 2.0
        s = s + h * x
        n += 1
        if n > 6:
            break
    return h + s


def while_inside_for(x, w):
    h = x
    s = 0.0
    for i in range(3):
        k = 0
        while k < i + 1:
            h = math.tanh(w * h + x)
            k += 1
        s = s + h * h
    return s


def outer_while_inner_for(x, w):
    h = x
    s = 0.0
    while s < 2.0:
        for j in range(3):
            h = math.tanh(h * w + x)
        s = s + h * h + 0.2
    return s * h


def reversed_range(x, w):
    h = x
    for i in reversed(range(6)):
        h = math.tanh(w * h + x * i * 0.2)
    return h


def input_bound(x, n):
    h = x
    for i in range(int(n)):
        h = math.tanh(h * x + 0.5)
    return h


def input_start_stop(x, n):
    h = 0.0
    for i in range(int(n), int(n) + 4):
        h = math.tanh(h * x + i * 0.1)
    return h


def user_stack(x, w):
    st = []
    h = x
    for i in range(5):
        h = math.tanh(w * h + x)
        st.append(h)
    s = 0.0
    for i in range(5):
        v = st.pop()
        s = s + v * w + math.sin(v) * x
    return s


def sequential_loops_share_name(x, w):
    h = x
    for i in range(4):
        h = math.tanh(w * h + x)
    for i in range(3):
        h = math.exp(h * 0.5) * w
    return h


def sequential_loops_share_temporary(x, w):
    s = 0.0
    for i in range(4):
        e = math.exp(x * i * 0.1)
        s = s + e * e
    for i in range(3):
        e = math.tanh(w * i + s * 0.1)
        s = s + e * e * x
    return s


def read_before_and_after(x, w):
    h = math.exp(x * 0.5)
    y = h * h
    for i in range(5):
        h = math.tanh(w * h + x)
    return h * y + h * h


def read_in_branch_before(x, w):
    h = x * 0.5
    if x > 0.5:
        y = h * h
    else:
        y = h * w
    for i in range(4):
        h = math.tanh(w * h + x)
    return y * h


def read_in_later_loop(x, w):
    h = x
    for i in range(4):
        h = math.tanh(h * w + x)
    s = 0.0
    for j in range(3):
        s = s + h * x * j + math.sin(h * j)
    return s


def value_of_last_iteration(x, w):
    s = 0.0
    for i in range(5):
        t = math.tanh(w * i + x)
        s = s + t * t
    return s + t * x


def lagged_value(x, w):
    s = 0.0
    for i in range(5):
        if i > 0:
            s = s + prev * w + math.sin(prev)  # noqa: F821 -- the previous iteration's
        prev = math.tanh(x * i + w)  # noqa: F841
    return s


def helper_in_loop(x, w):
    h = x
    s = 0.0
    for i in range(4):
        h = math.tanh(h * w + helper_temporary(h, x) * 0.1)
        s = s + h * h
    return s


def helper_loop_in_loop(x, w):
    s = 0.0
    for i in range(3):
        s = s * 0.5 + helper_loop(x * i * 0.2, w)
    return s


def custom_rule_in_loop(x, w):
    h = x
    s = 0.0
    for i in range(5):
        h = gate(h, w) + x * 0.1
        s = s + h * h
    return s


def index_restored(x, w):
    s = 0.0
    for i in range(6):
        k = int(i * 1.5)
        s = s * w + x * k + math.sin(x * k)
    return s


def reset_in_branch(x):
    acc = x
    total = 0.0
    for i in range(6):
        if i % 3 == 0:
            acc = 1.0
        acc = acc * x + i
        total = total + acc * acc + math.sin(acc)
    return total


def conditional_expression(x, w):
    h = x
    for i in range(6):
        h = math.tanh(h * w) if i % 2 else math.exp(-h * h) * w
    return h


def and_or(x, w):
    h = x
    for i in range(6):
        h = (h > 0.5 and math.tanh(h * w)) or math.exp(h * w) * 0.5
    return h


def augmented(x, w):
    h = x
    s = 0.0
    for i in range(5):
        h *= math.tanh(w * i + x)
        s += h * h + math.sin(h)
    return s


def pair_swap(x, w):
    a, b = x, w
    for i in range(5):
        a, b = math.tanh(b * a), math.exp(-a * a)
    return a + b


def gated_cell(x, w, u):
    h = 0.0
    c = 0.0
    for t in range(6):
        g = sigmoid(w * h + u * x)
        c = g * c + (1.0 - g) * math.tanh(x * t * 0.3)
        h = math.tanh(c) * g
    return h


def while_pre_reads(x, w):
    h = x
    s = 0.0
    while math.tanh(h) < 0.95:
        h = math.exp(h * w) * 0.5 + 0.3
        s = s + h * x
    return s


def nested_break_inner(x, w):
    h = x
    s = 0.0
    for i in range(4):
        for j in range(6):
            h = math.tanh(h * w + x * j * 0.2)
            if h > 0.6:
                break
        s = s + h * h
    return s


def loop_in_branch_restored(x, w):
    h = x
    if x > 0:
        for i in range(5):
            e = math.exp(w * h * 0.5)
            h = math.tanh(e * x + e * w)
    else:
        h = h * w
    return h


TABLE = [
    case(rnn_tanh, (-2, 2), (-1.5, 1.5), (-1.5, 1.5)),
    case(exp_temporary, (-1.5, 1.5)),
    case(sigmoid_recurrence, (-2, 2), (-2, 2)),
    case(sigmoid_helper_recurrence, (-2, 2), (-2, 2)),
    case(two_restored_names, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(temporary_read_three_times, (-1, 1), (-1, 1)),
    case(nested_inner_assigns, (-1.5, 1.5), (-1.5, 1.5)),
    case(nested_triangular, (-1.5, 1.5), (-1.5, 1.5)),
    case(both_branches, (-1.5, 1.5), (-1.5, 1.5)),
    case(one_branch, (-1.5, 1.5), (-1.5, 1.5)),
    case(data_dependent_branch, (-1, 1), (-1, 1), kinky=True),
    case(break_loop, (-1, 1.5), (-1, 1.5), kinky=True),
    case(continue_loop, (-1.5, 1.5), (-1.5, 1.5)),
    case(continue_on_value, (-1.5, 1.5), (-1.5, 1.5), kinky=True),
    case(early_return, (0.1, 1.5), (0.1, 2), kinky=True),
    case(nested_early_return, (-1, 1.5), (-1, 1.5), kinky=True),
    case(while_data_dependent, (-1, 1), (-1, 1), kinky=True),
    case(while_true_break, (-1.5, 1.5), (-1.5, 1.5)),
    case(while_inside_for, (-1.5, 1.5), (-1.5, 1.5)),
    case(outer_while_inner_for, (0.2, 1.5), (0.2, 1.5), kinky=True),
    case(reversed_range, (-1.5, 1.5), (-1.5, 1.5)),
    case(input_bound, (-1.5, 1.5), (0, 7), kinky=True),
    case(input_start_stop, (-1.5, 1.5), (0, 5), kinky=True),
    case(user_stack, (-1.5, 1.5), (-1.5, 1.5)),
    case(sequential_loops_share_name, (-1.5, 1.5), (-1.5, 1.5)),
    case(sequential_loops_share_temporary, (-1.5, 1.5), (-1.5, 1.5)),
    case(read_before_and_after, (-1.5, 1.5), (-1.5, 1.5)),
    case(read_in_branch_before, (-1.5, 1.5), (-1.5, 1.5), kinky=True),
    case(read_in_later_loop, (-1.5, 1.5), (-1.5, 1.5)),
    case(value_of_last_iteration, (-1.5, 1.5), (-1.5, 1.5)),
    case(lagged_value, (-1.5, 1.5), (-1.5, 1.5)),
    case(parameter_reassigned, (-1.5, 1.5), (-1.5, 1.5)),
    case(helper_in_loop, (-1, 1), (-1, 1)),
    case(helper_loop_in_loop, (-1, 1), (-1, 1)),
    case(custom_rule_in_loop, (-1.5, 1.5), (-1.5, 1.5)),
    case(index_restored, (-1.5, 1.5), (-0.9, 0.9)),
    case(reset_in_branch, (-1, 1)),
    case(conditional_expression, (-1.5, 1.5), (-1.5, 1.5)),
    case(and_or, (-1.5, 1.5), (-1.5, 1.5), kinky=True),
    case(augmented, (-1.5, 1.5), (-1.5, 1.5)),
    case(pair_swap, (-1.5, 1.5), (-1.5, 1.5)),
    case(gated_cell, (-1.5, 1.5), (-1.5, 1.5), (-1.5, 1.5)),
    case(while_pre_reads, (0.1, 1), (1.5, 2.5), kinky=True),
    case(nested_break_inner, (-1, 1), (-1, 1.5), kinky=True),
    case(loop_in_branch_restored, (-1, 1), (-1, 1), kinky=True),
    case(loop_in_branch, (-1, 1), (-1, 1), kinky=True),
    case(temporaries_only_inside, (-1, 1), (-1, 1)),
    case(exp_times_value, (-1, 1)),
]

# The table's functions in which nothing is restored in place: the controls.
# Saved at their reads: names assigned only inside the loop but read where they may
# still be unbound (after it, or before their assignment in an iteration): starting them
# at 0.0 would hide the UnboundLocalError.  (A temporary two loops share, read after
# neither, is a variable of each loop's own: ``lower.afresh``.)
SAVED_ONLY = {"value_of_last_iteration", "lagged_value"}

POINTS = 12


def table(only=lambda c: True):
    return [pytest.param(c, id=c.label) for c in TABLE if only(c)]


def sample(c, count=POINTS):
    return oracles.sample(c, count, "taping")








def test_the_table_is_large_and_restores_in_place():
    assert len(TABLE) >= 25 and len({c.label for c in TABLE}) == len(TABLE)
    restoring = [c.label for c in TABLE if restored_in_place(unoptimized(c.fn))]
    assert sorted(set(c.label for c in TABLE) - set(restoring)) == sorted(SAVED_ONLY)


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
    for point in sample(c, 4):
        value, grads = both(*point)
        assert value == c.fn(*point)
        assert bits(as_tuple(grads)) == bits(as_tuple(gradient(*point)))


@pytest.mark.parametrize("c", table(lambda c: c.label in {
    "rnn_tanh", "exp_temporary", "both_branches", "break_loop", "user_stack", "lagged_value",
    "nested_inner_assigns", "while_data_dependent", "index_restored", "gated_cell"}))
def test_every_contribution_matches_the_tape(c):
    """``symdiff.checking.locate.locate``: each statement's chain-rule terms, recorded in the reverse
    sweep (where restored values are read before their pop), against the tape's."""
    program = program_of(c.fn)
    for point in sample(c, 3):
        assert locate(program, list(program.params), point, rtol=1e-10, atol=1e-12) is None


HESSIAN_CASES = ["rnn_tanh", "exp_temporary", "two_restored_names", "nested_inner_assigns",
                 "user_stack", "parameter_reassigned", "lagged_value", "temporaries_only_inside"]


@pytest.mark.parametrize("c", table(lambda c: c.label in HESSIAN_CASES))
def test_hessian_against_finite_differences_of_the_gradient(c):
    hessian, gradient = symdiff.hessian(c.fn), symdiff.grad(c.fn)
    failures = []
    for point in sample(c, 3):
        matrix = hessian(*point)
        matrix = ((matrix,),) if len(point) == 1 else matrix  # one parameter: a float
        for j in range(len(point)):
            column = [finite_difference(lambda *p: as_tuple(gradient(*p))[i], point, j)[0]
                      for i in range(len(point))]
            for i, estimate in enumerate(column):
                tolerance = 1e-6 * max(1.0, abs(estimate))
                if not abs(matrix[i][j] - estimate) <= tolerance:
                    failures.append(f"at {point} H[{i}][{j}]: symdiff {matrix[i][j]!r}, "
                                    f"finite differences {estimate!r}")
    assert not failures, "\n".join(failures)
