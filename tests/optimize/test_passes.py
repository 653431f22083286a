"""The optimizer's newer mechanisms, each tested alone and adversarially.

- ``fuse.fuse_single_uses`` on hand-written functions: the text it writes, and the same
  results and the same first exception as before, at points made of nan, ±inf, ±0.0,
  huge and tiny floats and ints;
- ``prune.drop_dead_statements`` (liveness), ``prune.drop_empty_statements`` and
  ``prune.drop_unreachable``;
- ``optimize._float_names``, the float inference constant folding relies on;
- ``taping.recomputed`` end to end: cheap values the reverse sweep recomputes instead of
  popping, and the values it must not recompute, checked against the tape engine and
  central finite differences;
- property tests: random programs (``tests/fuzzing.py``) whose optimized and unoptimized
  gradients agree bit for bit, and random raw programs whose results and exceptions the
  new passes must not change.

The one limit the passes assume (numbers a float can hold) is a strict xfail, naming the input.
"""

import ast
import dataclasses
import inspect
import itertools
import math
import random
import sys

import pytest

try:
    import oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles

import symdiff
import symdiff.tape
from symdiff.optimize import fuse
from symdiff.optimize import driver as optimize
from symdiff.optimize import prune
from symdiff.ad.reverse import SECTION
from symdiff.ir.syntax import COMMENT
from symdiff.analysis.sweep_types import Module, infer
from symdiff.ir import sweeps as sw
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.optimize.context import Context
from symdiff.optimize.walk import statements, writes

try:
    import fuzzing
    from sweeps_text import HEADING_MARK, function_of, python_of, text_of
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import fuzzing
    from tests.sweeps_text import HEADING_MARK, function_of, python_of, text_of

HEADING = f"{HEADING_MARK}({SECTION + ': adjoints, from the result back'!r})"
LINE = f"{COMMENT}('line 3: b = a + 1.0')"

# Floats where arithmetic misbehaves, huge and tiny ones, and ints (exact past 2**53).
VALUES = (math.nan, math.inf, -math.inf, -0.0, 0.0, 1.0, -2.5, 0.5, 1e308, -1e308, 5e-324,
          0, 3, -7, 2 ** 53 + 1)


# --- helpers -----------------------------------------------------------------------------

def _function(text):
    """The ``def`` in ``text`` as sweeps IR (comments written as marker calls), every
    parameter not annotated otherwise a float (the points the tests run hold no int a
    float cannot hold)."""
    return function_of(text, t.FLOAT)


def _unparse(function):
    """The text of ``function``, its comments written as marker calls."""
    return text_of(function)


def _run(function, *passes):
    """A copy of ``function`` rewritten by ``passes`` until none changes anything; empty
    bodies get a ``pass`` so the result compiles (it changes nothing computed)."""
    typed = function.types
    function = _function(_unparse(function))
    function.types = typed
    context = Context.of(function, "math")
    for _ in range(optimize.MAX_ROUNDS):
        changed = False
        for run in passes:
            changed |= run(function, context)
        if not changed:
            break
    for node in statements(function.body):
        if isinstance(node, (sw.If, sw.For, sw.While)) and not node.body:
            node.body = [sw.Pass()]
    return function


def _same_text(function, text):
    return _unparse(function) == _unparse(_function(text))


def _compile(function):
    module = ast.fix_missing_locations(ast.Module([python_of(function)], []))
    scope = {"math": math, COMMENT: lambda text: None}
    exec(compile(module, "<test_passes>", "exec"), scope)
    return scope[function.name]


outcome, same, _mismatches = oracles.outcome, oracles.same, oracles.mismatches


def _points(function, values=VALUES):
    return list(itertools.product(values, repeat=len(function.params)))


def _assert_equivalent(original, rewritten, points=None):
    points = _points(original) if points is None else points
    bad = _mismatches(_compile(original), _compile(rewritten), points)
    assert not bad, (f"{len(bad)} mismatches, first {bad[0]}\nbefore:\n{_unparse(original)}"
                     f"\nafter:\n{_unparse(rewritten)}")


def test_same_tells_signed_zeros_nans_and_types_apart():
    assert same(-0.0, -0.0) and not same(-0.0, 0.0)
    assert same(math.nan, -math.nan) and not same(math.nan, 1.0)
    assert not same(1, 1.0) and not same(True, 1.0)
    assert same((1.0, math.inf), (1.0, math.inf)) and not same((1.0,), 1.0)


# --- fuse_single_uses ------------------------------------------------------------------------

# name -> (function, what fusing makes of it; None: unchanged)
FUSE_CASES = {
    "read once below": ("""
        def f(x, y):
            a = x * y
            b = a + 1.0
            return b
        """, """
        def f(x, y):
            b = x * y + 1.0
            return b
        """),
    "read once in a loop body": ("""
        def f(x, y):
            s = y
            for i in range(3):
                a = x * i
                s = s + a
            return s
        """, """
        def f(x, y):
            s = y
            for i in range(3):
                s = s + x * i
            return s
        """),
    "chain into a math call": ("""
        def f(x, y):
            a = x * y
            b = a - y
            c = math.sin(b)
            return c
        """, """
        def f(x, y):
            c = math.sin(x * y - y)
            return c
        """),
    "across a line comment": (f"""
        def f(x, y):
            a = x - y
            {LINE}
            b = math.sin(a)
            return b
        """, f"""
        def f(x, y):
            {LINE}
            b = math.sin(x - y)
            return b
        """),
    "raising value first in its reader": ("""
        def f(x, y):
            a = x / y
            b = a + y / x
            return b
        """, """
        def f(x, y):
            b = x / y + y / x
            return b
        """),
    "raising values keep their order": ("""
        def f(x, y):
            a = x / y
            b = math.log(y)
            c = a + b
            return c
        """, """
        def f(x, y):
            c = x / y + math.log(y)
            return c
        """),
    "raising value past quiet statements": ("""
        def f(x, y):
            a = math.log(x)
            c = y * 2.0
            b = a * c
            return b
        """, """
        def f(x, y):
            b = math.log(x) * (y * 2.0)
            return b
        """),
    "raising value into the test of a conditional": ("""
        def f(x, y):
            a = x / y
            b = x if a > 1.0 else y
            return b
        """, """
        def f(x, y):
            b = x if x / y > 1.0 else y
            return b
        """),
    "raising value as the first operand of and": ("""
        def f(x, y):
            a = math.log(x)
            b = a and y
            return b
        """, """
        def f(x, y):
            b = math.log(x) and y
            return b
        """),
    "quiet value into a branch of a conditional": ("""
        def f(x, y):
            a = x * y
            b = a if x > y else y
            return b
        """, """
        def f(x, y):
            b = x * y if x > y else y
            return b
        """),
    "quiet value after the first operand of or": ("""
        def f(x, y):
            a = x - y
            b = y or a
            return b
        """, """
        def f(x, y):
            b = y or x - y
            return b
        """),
    "raising value past a push of the generated stack": ("""
        def f(x, y):
            stack = []
            push, pop = stack.append, stack.pop
            a = x / y
            push(x)
            b = a + 1.0
            c = pop()
            return b + c
        """, """
        def f(x, y):
            stack = []
            push, pop = stack.append, stack.pop
            push(x)
            b = x / y + 1.0
            c = pop()
            return b + c
        """),
    "read twice": ("""
        def f(x, y):
            a = x - y
            b = a * a
            return b
        """, None),
    "read twice, once fused away": ("""
        def f(x, y):
            a = x * y
            b = a + 1.0
            c = a * b
            return c
        """, """
        def f(x, y):
            a = x * y
            c = a * (a + 1.0)
            return c
        """),
    "assigned twice": ("""
        def f(x, y):
            a = x * y
            if x > y:
                a = y
            b = a + 1.0
            return b
        """, None),
    "read in a nested block": ("""
        def f(x, y):
            a = x * y
            b = y
            if x > y:
                b = a + 1.0
            return b
        """, None),
    "read in a loop below": ("""
        def f(x, y):
            a = x * y
            s = 0.0
            for i in range(2):
                s = s + a
            return s
        """, None),
    "operand reassigned in between": ("""
        def f(x, y):
            a = x * y
            x = 2.0
            b = a + x
            return b
        """, None),
    "operand augmented in between": ("""
        def f(x, y):
            a = x * y
            y += 1.0
            b = a + y
            return b
        """, None),
    "operands swapped in between": ("""
        def f(x, y):
            a = x - y
            t = x
            x = y
            y = t
            b = a + x
            return b
        """, None),
    "across the reverse sweep heading": (f"""
        def f(x, y):
            a = x * y
            {HEADING}
            b = a + 1.0
            return b
        """, None),
    "into a return": ("""
        def f(x, y):
            a = x * y
            return a
        """, None),
    "into an assignment nobody reads": ("""
        def f(x, y):
            a = x / y
            c = a + 1.0
            return x
        """, None),
    "raising value past a raising statement": ("""
        def f(x, y):
            a = x / y
            b = math.log(y)
            c = a + b * b
            return c
        """, None),
    "raising value past a raising call": ("""
        def f(x, y):
            a = x / y
            math.log(y)
            b = a + 1.0
            return b
        """, None),
    "raising value after a raising operand": ("""
        def f(x, y):
            a = x / y
            b = math.log(x) + a
            return b
        """, None),
    "raising value into the body of a conditional": ("""
        def f(x, y):
            a = x / y
            b = a if x > y else y
            return b
        """, None),
    "raising value into the else of a conditional": ("""
        def f(x, y):
            a = math.log(x)
            b = y if x > y else a
            return b
        """, None),
    "raising value after the first operand of or": ("""
        def f(x, y):
            a = math.log(x)
            b = y or a
            return b
        """, None),
    "raising value after the first operand of and": ("""
        def f(x, y):
            a = x / y
            b = y and a
            return b
        """, None),
    "a power past a value that may only overflow": ("""
        def f(x: number, y: number):
            a = x ** 2
            b = y * 2.0
            c = a + b
            return c
        """, """
        def f(x: number, y: number):
            c = x ** 2 + y * 2.0
            return c
        """),
    "a value that may only overflow stays before a log": ("""
        def f(x: number, y: number):
            a = x * 2.0
            b = math.log(y)
            c = b + a
            return c
        """, """
        def f(x: number, y: number):
            a = x * 2.0
            c = math.log(y) + a
            return c
        """),
    "raising power into a conditional": ("""
        def f(x, y):
            a = math.pow(x, y)
            b = a if x < y else y
            return b
        """, None),
}


@pytest.mark.parametrize("name", list(FUSE_CASES))
def test_fuse_single_uses(name):
    text, expected = FUSE_CASES[name]
    original = _function(text)
    fused = _run(original, fuse.fuse_single_uses)
    assert _same_text(fused, expected or text), _unparse(fused)
    _assert_equivalent(original, fused)


def test_fuse_reports_whether_it_changed_anything():
    """The pass edits the tree it is given and says so; a second run changes nothing."""
    function = _function(FUSE_CASES["read once below"][0])
    context = Context.of(function)
    assert fuse.fuse_single_uses(function, context) is True
    assert fuse.fuse_single_uses(function, context) is False
    unchanged = _function(FUSE_CASES["read twice"][0])
    assert fuse.fuse_single_uses(unchanged, Context.of(unchanged)) is False


def _product(count):
    """``x * y * x * ...``: exactly ``count`` multiplications."""
    return " * ".join((["x", "y"] * count)[:count + 1])


@pytest.mark.parametrize("value_ops", range(1, fuse.MAX_OPERATIONS + 3))
def test_fuse_respects_max_operations_below_the_limit(value_ops):
    """``b = a + 1.0`` has one operation; ``a`` has ``value_ops``: fused while the sum
    stays within MAX_OPERATIONS, not once it is past."""
    assert _product(value_ops).count("*") == value_ops
    text = f"""
        def f(x, y):
            a = {_product(value_ops)}
            b = a + 1.0
            return b
        """
    original = _function(text)
    fused = _run(original, fuse.fuse_single_uses)
    built = 1 + value_ops
    assert len(fused.body) == (2 if built <= fuse.MAX_OPERATIONS else 3), _unparse(fused)
    _assert_equivalent(original, fused)


def test_fuse_never_builds_more_than_max_operations():
    value_ops = fuse.MAX_OPERATIONS  # the reader adds one: MAX_OPERATIONS + 1 in all
    text = f"""
        def f(x, y):
            a = {_product(value_ops)}
            b = a + 1.0
            return b
        """
    fused = _run(_function(text), fuse.fuse_single_uses)
    most = max(sum(isinstance(n, fuse._OPERATIONS) for n in ast.walk(s))
               for s in python_of(fused).body)
    assert most <= fuse.MAX_OPERATIONS, _unparse(fused)


@pytest.mark.parametrize("between, fused", [
    (fuse.REACH - 1, True),  # the reader is REACH statements below: searched
    (fuse.REACH, False),  # one further: not searched
])
def test_fuse_respects_reach(between, fused):
    filler = "\n".join(f"    k{i} = {i}.5" for i in range(between))
    text = f"def f(x, y):\n    a = x * y\n{filler}\n    b = a + 1.0\n    return b\n"
    original = _function(text)
    result = _run(original, fuse.fuse_single_uses)
    assert (len(result.body) == between + 2) == fused, _unparse(result)[-200:]
    _assert_equivalent(original, result, _points(original, (math.nan, -0.0, 2.0, 3)))


def test_fuse_keeps_a_raising_value_out_of_a_chained_comparison():
    original = _function("""
        def f(x, y):
            a = x / y
            b = x < y < a
            return b
        """)
    fused = _run(original, fuse.fuse_single_uses)
    _assert_equivalent(original, fused)


def test_fuse_keeps_the_order_of_pops():
    original = _function("""
        def f(x, y):
            stack = []
            push, pop = stack.append, stack.pop
            push(x)
            push(y)
            a = pop()
            b = pop()
            c = a - b
            return c
        """)
    fused = _run(original, fuse.fuse_single_uses)
    _assert_equivalent(original, fused)


def test_fuse_keeps_the_first_exception_with_huge_ints():
    """x may be an int of 2**1024 or more, which meeting a float raises OverflowError:
    x * y is not moved past math.log(z), and the first exception stays the first."""
    original = _function("""
        def f(x: number, y: number, z: number):
            a = x * y
            b = math.log(z)
            c = b + a
            return c * b
        """)
    fused = _run(original, fuse.fuse_single_uses)
    _assert_equivalent(original, fused, [(10 ** 400, 0.5, 0.0), (10 ** 400, 0.5, -1.0)])


# --- drop_unreachable, drop_dead_statements and drop_empty_statements ------------------------

PRUNE = (prune.drop_unreachable, prune.drop_dead_statements, prune.drop_empty_statements,
         prune.drop_orphan_comments)

# name -> (function, what pruning makes of it; None: unchanged)
PRUNE_CASES = {
    "a running sum read only by itself": ("""
        def f(x, y):
            s = 0.0
            for i in range(3):
                s = s + x * y
            return x
        """, """
        def f(x, y):
            return x
        """),
    "a running sum the result reads": ("""
        def f(x, y):
            s = 0.0
            for i in range(3):
                s = s + x * y
            return s
        """, None),
    "two running sums feeding each other, unread": ("""
        def f(x, y):
            s = 0.0
            t = 1.0
            for i in range(3):
                s = s + t
                t = t * s - y
            return x
        """, """
        def f(x, y):
            return x
        """),
    "an assignment that may raise": ("""
        def f(x, y):
            a = x / y
            b = math.log(x)
            c = math.pow(y, x)
            return x
        """, None),
    "covered by a later assignment in its block": ("""
        def f(x, y):
            a = x * 2.0
            a = y * 3.0
            return a
        """, """
        def f(x, y):
            a = y * 3.0
            return a
        """),
    "covered, then augmented": ("""
        def f(x, y):
            a = x * 2.0
            a = y
            a += x
            return a
        """, """
        def f(x, y):
            a = y
            a += x
            return a
        """),
    "covered in a loop body": ("""
        def f(x, y):
            for i in range(3):
                u = x * i
                u = y * i
                y = y + u
            return y
        """, """
        def f(x, y):
            for i in range(3):
                u = y * i
                y = y + u
            return y
        """),
    "forward value recomputed by the reverse loop": ("""
        def f(x, y):
            s = 0.0
            for i in range(3):
                u = x * i
                v = u + y
            for i in range(3):
                u = x * i
                s = s + math.cos(u)
            return s
        """, """
        def f(x, y):
            s = 0.0
            for i in range(3):
                u = x * i
                s = s + math.cos(u)
            return s
        """),
    "an empty loop whose variable a later loop binds first": ("""
        def f(x, n):
            for i in range(n):
                pass
            t = 0.0
            for i in range(n):
                t = t + x * i
            return t + i
        """, None),
    "read in a nested block": ("""
        def f(x, y):
            a = x * 2.0
            if y > 0:
                x = a
            a = y * 3.0
            return a + x
        """, None),
    "read before the covering assignment": ("""
        def f(x, y):
            a = x * 2.0
            b = a + 1.0
            a = y * 3.0
            return a + b
        """, None),
    "read after a loop that may reassign": ("""
        def f(x, n):
            a = x * 2.0
            for i in range(n):
                a = x * 3.0
            return a
        """, None),
    "read by the next iteration": ("""
        def f(x, y):
            a = x
            for i in range(3):
                y = y + a
                a = y * 0.5
            return y
        """, None),
    "read after a break": ("""
        def f(x, y):
            a = x
            for i in range(3):
                a = y * 2.0
                if a > x:
                    break
                a = x * 3.0
            return a
        """, None),
    "a loop whose variable is read after it": ("""
        def f(x, n):
            for i in range(n):
                s = x * 2.0
            return x + i
        """, """
        def f(x, n):
            for i in range(n):
                pass
            return x + i
        """),
    "calls defined on every float": ("""
        def f(x, y):
            a = abs(x)
            b = math.tanh(a) + math.atan2(y, x) * math.fabs(y)
            c = math.hypot(x, y) - math.copysign(math.erf(x), math.erfc(y))
            d = math.atan(b * c)
            return y
        """, """
        def f(x, y):
            return y
        """),
    "division by a nonzero number": ("""
        def f(x, y):
            a = x / 4
            b = (x + y) / -0.5
            c = y / 0.0
            d = x / y
            return y
        """, """
        def f(x, y):
            c = y / 0.0
            d = x / y
            return y
        """),
    "calls that may raise stay": ("""
        def f(x, y):
            a = math.exp(x)
            b = math.sqrt(y)
            c = math.log(abs(x))
            d = math.sinh(y) + math.tanh(x)
            return y
        """, None),
    "what follows a raise never runs": ("""
        def f(x, y):
            a = x * y
            if x > y:
                raise ValueError('x > y')
                b = a + 1.0
            raise ValueError('always')
            c = x / y
            return c
        """, """
        def f(x, y):
            if x > y:
                raise ValueError('x > y')
            raise ValueError('always')
        """),
    "an empty branch on a quiet test": ("""
        def f(x, y):
            if x > y:
                a = x * y
            else:
                a = y
            return x
        """, """
        def f(x, y):
            return x
        """),
}


@pytest.mark.parametrize("name", list(PRUNE_CASES))
def test_prune(name):
    text, expected = PRUNE_CASES[name]
    original = _function(text)
    pruned = _run(original, *PRUNE)
    assert _same_text(pruned, expected or text), _unparse(pruned)
    points = _points(original)
    if original.params[-1] == "n":  # a loop count: ints, and a float that raises
        points = list(itertools.product(VALUES, (0, 1, 3, 2.5, -1)))
    _assert_equivalent(original, pruned, points)


def test_drop_dead_statements_alone_keeps_what_may_raise_or_is_read():
    original = _function("""
        def f(x, y):
            a = x * y
            b = a / y
            c = b * 2.0
            d = math.sqrt(x)
            return y
        """)
    pruned = _run(original, prune.drop_dead_statements)
    assert _same_text(pruned, """
        def f(x, y):
            a = x * y
            b = a / y
            d = math.sqrt(x)
            return y
        """), _unparse(pruned)
    _assert_equivalent(original, pruned)


class _Runaway(Exception):
    """A call ran more lines than any correct version of it would."""


def _bounded(fn, lines=200_000):
    """``fn``, stopped with ``_Runaway`` once its own frame has run ``lines`` lines."""
    code = inspect.unwrap(fn).__code__  # a gradient stands for its generated function

    def call(*args):
        count = [0]

        def local(frame, event, arg):
            if event == "line":
                count[0] += 1
                if count[0] > lines:
                    raise _Runaway
            return local

        previous = sys.gettrace()
        sys.settrace(lambda frame, event, arg: local if frame.f_code is code else None)
        try:
            return fn(*args)
        finally:
            sys.settrace(previous)

    return call


WHILE_UPDATED_IN_BODY = """
    def f(x, y):
        t = x
        k = 0.0
        while k < 3.0:
            t = t * 0.5
            k = t + 5.0
        return t
    """


def test_drop_dead_statements_keeps_what_a_while_test_reads():
    original = _function(WHILE_UPDATED_IN_BODY)
    pruned = _run(original, prune.drop_dead_statements)
    assert "k = t + 5.0" in _unparse(pruned)


def test_the_while_loop_is_fine_without_the_pass():
    fn = _bounded(_compile(_function(WHILE_UPDATED_IN_BODY)))
    assert fn(1.0, 0.0) == 0.5
    assert same(fn(-0.0, 0.0), -0.0)


def test_drop_empty_statements_keeps_a_range_that_may_raise():
    original = _function("""
        def f(x, n):
            s = 0.0
            for i in range(n):
                s = s + 1.0
            return x
        """)
    pruned = _run(original, *PRUNE)
    _assert_equivalent(original, pruned, [(1.0, 2.5), (1.0, math.nan)])


def test_drop_orphan_comments():
    original = _function(f"""
        def f(x, y):
            {LINE}
            a = x * y
            {LINE}
            b = x / y
            {HEADING}
            {LINE}
            return x
        """)
    pruned = _run(original, *PRUNE)
    assert _same_text(pruned, f"""
        def f(x, y):
            {LINE}
            b = x / y
            {HEADING}
            {LINE}
            return x
        """), _unparse(pruned)


# The same bugs, end to end: the gradient of a user function.

def newton_sqrt(x):
    y = x
    err = 1.0
    while err > 1e-12:
        y_new = 0.5 * (y + x / y)
        d = y_new - y
        err = d * d
        y = y_new
    return y


def test_newton_iteration_unoptimized():
    grad = _bounded(symdiff.grad(newton_sqrt, optimize=False))
    for x in (0.5, 2.0, 9.0):
        assert grad(x) == pytest.approx(0.5 / math.sqrt(x), rel=1e-9)
        assert grad(x) == pytest.approx(symdiff.tape.grad(newton_sqrt)(x), rel=1e-12)


def test_newton_iteration_optimized():
    grad = _bounded(symdiff.grad(newton_sqrt))
    assert same(grad(2.0), symdiff.grad(newton_sqrt, optimize=False)(2.0))


def not_of_a_float(x):
    h = x * 2.0
    flag = not h
    z = 1.0 * flag
    return z


def test_not_of_a_float_end_to_end():
    plain = symdiff.value_and_grad(not_of_a_float, optimize=False)
    optimized = symdiff.value_and_grad(not_of_a_float)
    assert same(plain(0.0), (not_of_a_float(0.0), 0.0))
    assert not _mismatches(plain, optimized, [(v,) for v in VALUES])


def count_to(x, n):
    s = 0.0
    for i in range(n):
        s = s + 1.0
    return x * 2.0


def test_loop_over_a_float_count_end_to_end():
    plain = symdiff.grad(count_to, wrt="x", optimize=False)
    optimized = symdiff.grad(count_to, wrt="x")
    assert outcome(count_to, (1.0, 2.5))[1] is TypeError
    assert outcome(plain, (1.0, 2.5))[1] is TypeError
    assert outcome(optimized, (1.0, 2.5))[1] is TypeError


def huge_product(x, y, z):
    a = x * y
    b = z / y
    return a + b


def test_huge_int_overflow_end_to_end():
    """x = 10**400 (an int) times a float raises OverflowError: ``a = x * y`` is not
    moved past ``b = z / y``, so at y = 0.0 the optimized gradient raises it first too."""
    plain = symdiff.value_and_grad(huge_product, optimize=False)
    optimized = symdiff.value_and_grad(huge_product)
    points = [(10 ** 400, 0.0, 1.0), (10 ** 400, 2.0, 1.0)]
    assert not _mismatches(plain, optimized, points)


def negated_cube(x):
    r = -(x ** 3)
    return r


def test_times_minus_one_keeps_the_float_end_to_end():
    plain = symdiff.grad(negated_cube, optimize=False)
    optimized = symdiff.grad(negated_cube)
    assert same(plain(3), -27.0)
    assert not _mismatches(plain, optimized, [(v,) for v in VALUES])


# --- the sweeps' types (analysis.sweep_types) ----------------------------------------------

def _floats(text, adjoints=()):
    """The names of ``text`` (its parameters numbers) certainly holding floats."""
    function = function_of(text, t.NUMBER)
    found = infer(function, {p: t.NUMBER for p in function.params}, Module())
    return {name for name, kind in found.items() if kind == t.FLOAT}


FLOAT_NAMES_TEXT = """
    def g(x, n):
        stack = []
        push, pop = stack.append, stack.pop
        h = 0.5
        k = 0
        m = 1.0
        m = 2
        c = x
        t = h * 2.0 + k
        q = -h
        p = n / 2
        e = math.exp(x)
        r = math.floor(h)
        w = 1.0 if x > 0 else 2
        v = 1.0 if x > 0 else t
        cmp = h < t
        for i in range(3):
            push(h)
            h = h * t
            g = h
            push(k)
            k = k + 1
        for j in range(3):
            h = pop()
            k = pop()
        a = [h]
        a[0] = h
        x = 0.5
        s = 0.0
        u = 0.0
        for i in range(n):
            s = u
            u = s
        s2 = 0
        u2 = 0.0
        for i in range(n):
            s2 = u2
            u2 = s2
        f = 0.0
        f += k
        o = 0.5
        o = pop()
        z = x
        push(z)
        z = pop()
        return h
    """


@pytest.mark.parametrize("name", ["h", "t", "q", "p", "e", "v", "g", "s", "u", "f"])
def test_float_names_finds_names_assigned_only_floats(name):
    """Through ``push(h)``/``h = pop()``, through loops (``s = u``, ``u = s``: the least
    fixed point from their first values), ``-h``, ``/``, math calls, conditionals of two
    floats."""
    assert name in _floats(FLOAT_NAMES_TEXT)


@pytest.mark.parametrize("name", [
    "k",  # an int, and ``k + 1``
    "m",  # a float, then an int
    "c",  # a parameter's copy
    "x", "n",  # parameters (x is assigned 0.5 too)
    "r",  # math.floor gives an int
    "w",  # one branch an int
    "cmp",  # a comparison
    "i", "j",  # loop variables
    "a",  # a list
    "s2", "u2",  # a cycle through a loop that starts from an int
    "z",  # popped, but pushed from a parameter's value
    "o",  # popped, never pushed itself: any value pushed (z's, a number)
    "stack", "push", "pop",
])
def test_float_names_leaves_out_what_may_not_be_a_float(name):
    assert name not in _floats(FLOAT_NAMES_TEXT)


def test_float_names_keeps_adjoints_unless_assigned_otherwise():
    text = """
        def g(x):
            dx = 1.0
            dx += x
            dy = x
            return dx
        """
    floats = _floats(text, adjoints=("dx", "dy", "dz"))
    assert "dx" in floats
    assert "dy" not in floats


def test_float_names_leaves_out_a_negation_by_not():
    floats = _floats("""
        def g(x):
            h = x * 2.0
            flag = not h
            return flag
        """)
    assert "h" in floats
    assert "flag" not in floats


# --- recomputed: cheap values the reverse sweep recomputes instead of popping ----------------

def recompute_affine(x, a, b):
    s = 0.0
    h = x
    for i in range(3):
        h = math.sin(h)
        u = a * h + b
        s = s + math.cos(u)
    return s


def recompute_index(x):
    s = x
    for i in range(4):
        t = i + 1
        s = s * math.sin(s * t)
    return s


def recompute_scale(x):
    s = 0.0
    h = x
    for i in range(3):
        h = math.sin(h) + 0.5
        c = 0.001 * h
        s = s + math.sin(c) * h
    return s


def recompute_stable(x, a):
    s = 0.0
    for i in range(3):
        u = i * a + x
        s = s + math.sin(u) * s
    return s


def operand_reassigned(x, a):
    s = 0.0
    h = x
    for i in range(3):
        u = a * h
        h = math.sin(h)
        s = s + math.cos(u) * h
    return s


def other_block(x):
    h = x
    for i in range(3):
        u = h * 2.0
        if x > 0:
            h = math.sin(u) * h
    return h


def expensive(x):
    h = x
    for i in range(3):
        e = math.exp(h)
        h = math.sin(e) * h
    return h


def defined_twice(x):
    h = x
    for i in range(3):
        u = h * 2.0
        if h > 0:
            u = h * 3.0
        h = math.sin(u) * h
    return h


def _reverse_sweep(fn):
    """The lines of the unoptimized gradient's reverse sweep, stripped."""
    lines = [line.strip() for line in symdiff.grad(fn, optimize=False).source.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith(f"# {SECTION}"))
    return lines[start:]


# function -> (lines the reverse sweep must hold, lines it must not; the whole text must
# not hold the pushes)
RECOMPUTED = {
    recompute_affine: (["u = a * h + b"], [], ["push(u)", "push(mul_u)"]),
    recompute_index: (["t = i + 1"], [], ["push(t)"]),
    recompute_scale: (["c = 0.001 * h"], [], ["push(c)"]),
    recompute_stable: (["u = i * a + x"], [], ["push(u)", "push(mul_u)"]),
    operand_reassigned: (["u = pop()"], ["u = a * h"], []),
    other_block: (["u = pop()"], ["u = h * 2.0"], []),
    expensive: ([], ["e = math.exp(h)"], []),
    defined_twice: (["u = pop()"], ["u = h * 2.0", "u = h * 3.0"], []),
}


@pytest.mark.parametrize("fn", list(RECOMPUTED), ids=lambda f: f.__name__)
def test_recomputed_or_not(fn):
    present, absent, never = RECOMPUTED[fn]
    reverse = _reverse_sweep(fn)
    text = symdiff.grad(fn, optimize=False).source
    for line in present:
        assert line in reverse, text
    for line in absent:
        assert line not in reverse, text
    for call in never:
        assert call not in text, text


def _central_difference(fn, point, j, step=1e-6):
    h = step * max(1.0, abs(point[j]))
    up, down = list(point), list(point)
    up[j] += h
    down[j] -= h
    return (fn(*up) - fn(*down)) / (up[j] - down[j])


@pytest.mark.parametrize("fn", list(RECOMPUTED), ids=lambda f: f.__name__)
def test_recomputed_gradients_are_right(fn):
    arity = fn.__code__.co_argcount
    wrt = tuple(range(arity))
    plain = symdiff.grad(fn, wrt=wrt, optimize=False)
    optimized = symdiff.grad(fn, wrt=wrt)
    taped = symdiff.tape.grad(fn, wrt=wrt)
    rng = random.Random(f"recomputed:{fn.__name__}")
    for _ in range(10):
        point = tuple(rng.uniform(-1.5, 1.5) for _ in range(arity))
        got = plain(*point)
        assert same(optimized(*point), got), point
        for j, (value, tape_value) in enumerate(zip(got, taped(*point))):
            assert value == pytest.approx(tape_value, rel=1e-10, abs=1e-12), (point, j)
            estimate = _central_difference(fn, point, j)
            assert value == pytest.approx(estimate, rel=1e-6, abs=1e-7), (point, j)


# --- property: random programs -----------------------------------------------------------------

FUZZ_SEED = 4242
FUZZ_COUNT = {"small": 80, "medium": 16}  # about 4 s: building a gradient costs ~20 ms
SPECIAL = (math.nan, math.inf, -math.inf, -0.0, 0.0, 1e300, -1e-300, 3, 0.5)


@pytest.fixture(scope="module")
def fuzz_programs(tmp_path_factory):
    directory = tmp_path_factory.mktemp("passes")
    programs = {}
    for size, count in FUZZ_COUNT.items():
        programs[size] = [fuzzing.generate(FUZZ_SEED, index, size=size) for index in range(count)]
        fuzzing.load(programs[size], directory, f"passes_fuzz_{size}")
    return programs


def _fuzz_points(program):
    """Ordinary points with zeros and ties (``fuzzing.points``), then special values."""
    rng = random.Random(f"passes:{program.seed}:{program.index}")
    found = [point for point, _ in fuzzing.points(program, 4, special_rate=0.5)]
    found += [tuple(rng.choice(SPECIAL) for _ in program.params) for _ in range(6)]
    return found


@pytest.mark.parametrize("size", list(FUZZ_COUNT))
def test_optimized_gradients_of_random_programs_are_bitwise_identical(fuzz_programs, size):
    failures = []
    for program in fuzz_programs[size]:
        wrt = tuple(range(len(program.params)))
        builds = (symdiff.grad, symdiff.value_and_grad) if program.index % 4 == 0 else (
            symdiff.grad,)
        for build in builds:
            try:
                plain = build(program.fn, wrt=wrt, optimize=False)
                optimized = _bounded(build(program.fn, wrt=wrt))  # a runaway loop: a mismatch
            except symdiff.SymdiffError as exc:
                failures.append(f"{build.__name__} raised {exc!r}\n{program.source}")
                continue
            bad = [(args, want, got) for args, want, got in _mismatches(
                plain, optimized, _fuzz_points(program)) if build is not symdiff.grad
                or not oracles.overflows_only_in_value(program.fn, plain, optimized, args, got)]
            if bad:
                failures.append(f"{build.__name__}, first of {len(bad)}: {bad[0]}\n"
                                f"{program.source}")
    assert not failures, f"{len(failures)} programs fail; first:\n{failures[0]}"


class _RawProgram:
    """A random function of x, y, z written straight to the passes (no symdiff in between):
    values used once, reassignments, ``+=``, loops with breaks, branches, comments and the
    reverse sweep's heading; expressions that may raise (``/``, ``math.log``,
    ``math.sqrt``) next to ones that cannot, conditionals and ``and``/``or``.

    Left out: chained comparisons, ``while`` loops and ``pop()`` (each has its own test
    above), and ints of 2**1024 or more (a strict xfail above)."""

    CONSTANTS = ("0.5", "2.0", "0.0", "3", "1.5")

    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.count = 0
        self.heading = False

    def expr(self, names, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.3:
            return rng.choice(names) if rng.random() < 0.85 else rng.choice(self.CONSTANTS)
        a, b = self.expr(names, depth - 1), self.expr(names, depth - 1)
        kind = rng.choice(("+", "-", "*", "+", "*", "/", "log", "sqrt", "neg", "if", "or",
                           "and", "<"))
        if kind in ("+", "-", "*", "/", "<"):
            return f"({a} {kind} {b})"
        if kind in ("log", "sqrt"):
            return f"math.{kind}({a})"
        if kind == "neg":
            return f"-{a}"
        if kind == "if":
            return f"({a} if {rng.choice(names)} < {rng.choice(names)} else {b})"
        return f"({a} {kind} {b})"

    def block(self, names, indent, size, loops):
        names = list(names)
        rng = self.rng
        pad = "    " * indent
        start = len(self.lines)
        for _ in range(size):
            kind = rng.choices(("new", "chain", "reassign", "augment", "for", "if", "break",
                                "comment", "heading", "call"),
                               (4, 4, 3, 2, 1.2, 1, 0.7 * loops, 1, 0.4 * (indent == 1), 0.3))[0]
            value = self.expr(names, rng.choice((1, 1, 2, 3)))
            if kind == "chain":
                names.append(self.chain(names, pad))
            elif kind == "new":
                self.count += 1
                name = f"t{self.count}"
                self.lines.append(f"{pad}{name} = {value}")
                names.append(name)
            elif kind == "reassign":
                self.lines.append(f"{pad}{rng.choice(names)} = {value}")
            elif kind == "augment":
                self.lines.append(f"{pad}{rng.choice(names)} {rng.choice('+-*')}= {value}")
            elif kind == "for" and indent < 3:
                index = f"i{indent}"
                self.lines.append(f"{pad}for {index} in range({rng.choice((1, 2, 3))}):")
                self.block(names + [index], indent + 1, rng.randint(1, 4), loops + 1)
            elif kind == "if" and indent < 3:
                self.lines.append(f"{pad}if {rng.choice(names)} < {rng.choice(names)}:")
                self.block(names, indent + 1, rng.randint(1, 3), loops)
                if rng.random() < 0.5:
                    self.lines.append(f"{pad}else:")
                    self.block(names, indent + 1, rng.randint(1, 3), loops)
            elif kind == "break":
                self.lines.append(f"{pad}if {rng.choice(names)} < {rng.choice(names)}:")
                self.lines.append(f"{pad}    break")  # the sweeps have no ``continue``
            elif kind == "comment":
                self.lines.append(f"{pad}{LINE}")
            elif kind == "heading" and not self.heading:
                self.heading = True
                self.lines.append(f"{pad}{HEADING}")
            elif kind == "call":
                self.lines.append(f"{pad}math.log({value})")
        if len(self.lines) == start:
            self.lines.append(f"{pad}pass")
        return names

    LINKS = ("({p} + {o})", "({o} - {p})", "({p} * {o})", "({p} / {o})", "({o} / {p})",
             "math.log({p})", "math.sqrt({p})", "-{p}", "({o} if {p} < {q} else {q})",
             "({o} if {q} < {o} else {p})", "({p} if {o} < {q} else {o})", "({o} or {p})",
             "({p} and {o})", "({p} < {o})", "({o} + {q} * {p})")

    def chain(self, names, pad):
        """Values each read once by the next, now and then something else in between: a
        reassignment of an operand, a statement that may raise, a comment."""
        rng = self.rng
        previous = self.expr(names, 1)
        for _ in range(rng.randint(2, 5)):
            self.count += 1
            name = f"t{self.count}"
            link = rng.choice(self.LINKS).format(p=previous, o=self.expr(names, 1),
                                                 q=rng.choice(names))
            self.lines.append(f"{pad}{name} = {link}")
            previous = name
            roll = rng.random()
            if roll < 0.1:
                self.lines.append(f"{pad}{rng.choice(names)} = {self.expr(names, 1)}")
            elif roll < 0.2:
                self.lines.append(f"{pad}math.log({self.expr(names, 1)})")
            elif roll < 0.3:
                self.lines.append(f"{pad}{rng.choice(names)} += {self.expr(names, 1)}")
            elif roll < 0.35:
                self.lines.append(f"{pad}{LINE}")
        return previous

    def write(self):
        rng = self.rng
        names = self.block(["x", "y", "z"], 1, rng.randint(3, 10), 0)
        returned = rng.sample(names, min(len(names), rng.randint(1, 3)))
        self.lines.append(f"    return ({', '.join(returned)},)")
        return "def f(x, y, z):\n" + "\n".join(self.lines) + "\n"


RAW_VALUES = (math.nan, math.inf, -math.inf, -0.0, 0.0, 1.0, -2.5, 0.5, 1e308, 5e-324, 0, 3,
              -7)
RAW_RUNS = {
    "fuse": (fuse.fuse_single_uses,),
    "prune": PRUNE,
    "fuse and prune": (fuse.fuse_single_uses,) + PRUNE,
}


@pytest.mark.parametrize("passes", list(RAW_RUNS))
def test_new_passes_keep_random_raw_programs_exact(passes):
    """Each pass changes the code, never what it computes or the first exception it raises."""
    changed = 0
    for index in range(150):
        rng = random.Random(f"raw:{index}")
        text = _RawProgram(rng).write()
        original = _function(text)
        rewritten = _run(original, *RAW_RUNS[passes])
        changed += _unparse(rewritten) != _unparse(original)
        points = [tuple(rng.choice(RAW_VALUES) for _ in range(3)) for _ in range(40)]
        points += [(v, v, v) for v in RAW_VALUES]
        bad = _mismatches(_compile(original), _bounded(_compile(rewritten)), points)
        assert not bad, (f"program {index}: {len(bad)} mismatches, first {bad[0]}\n{text}\n"
                         f"after {passes}:\n{_unparse(rewritten)}")
    assert changed >= 100  # the programs give the passes work


def test_times_one_goes_where_the_other_factor_is_a_float():
    original = _function("""
        def f(x: number, y: number):
            a = 1.0 * y * math.cos(x)
            b = math.sin(x) * (y * 1.0)
            c = 1.0 * y * x
            return a + b + c
        """)
    folded = _run(original, optimize.fold_constants)
    assert _same_text(folded, """
        def f(x: number, y: number):
            a = y * math.cos(x)
            b = math.sin(x) * y
            c = 1.0 * y * x
            return a + b + c
        """), _unparse(folded)
    _assert_equivalent(original, folded)


def test_a_statement_is_copied_whole_by_its_fields():
    """``walk.clone_block`` copies a statement's attributes as ``dataclasses.replace``
    would: which holds while every field of a sweeps statement is an ``__init__`` field
    and none runs a ``__post_init__``."""
    for kind in vars(sw).values():
        if inspect.isclass(kind) and dataclasses.is_dataclass(kind) and (
                kind.__module__ == sw.__name__):
            assert all(f.init for f in dataclasses.fields(kind)), kind.__name__
            assert not hasattr(kind, "__post_init__"), kind.__name__


def test_writes_of_an_assignment_are_its_binds_and_changes():
    place = ex.Subscript(ex.Name("xs"), ex.Const(0))
    for stmt in (sw.Let("a", ex.Name("b")), sw.AddTo("a", ex.Name("b")),
                 sw.Let(place, ex.Name("b")), sw.AddTo(place, ex.Name("b"))):
        assert writes(stmt) == sw.binds(stmt) + sw.changes(stmt)
