"""The rewrites that take out what a careful person would not write, each alone.

- ``floats.float_constants``: an int literal beside an operand the types prove a float
  becomes a float literal (``2 * n`` with ``n`` an int, or not known, stays);
- ``signs.fold_signs``: a negation moved into the sum, difference, accumulation or
  negation that takes it (never out of an int, whose zero has no sign);
- ``echoes.drop_copies_back``: ``b = a`` right after ``a = b`` goes; a second copy of a
  name copies the first.

Each case is the text before and after, and the two functions compute the same results
and raise the same exceptions at points made of nan, ±inf, ±0.0, huge and tiny numbers
(ints where the parameter is an int or not known).  The whole optimizer is checked on the
corpora in ``test_optimize.py`` and ``tests/end_to_end``.
"""

import ast
import itertools
import math
import textwrap

import pytest

try:
    import oracles
    from sweeps_text import function_of, python_of, text_of
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.sweeps_text import function_of, python_of, text_of

from symdiff.ir.syntax import COMMENT
from symdiff.optimize import driver
from symdiff.optimize.context import Context
from symdiff.optimize.echoes import drop_copies_back
from symdiff.optimize.floats import float_constants
from symdiff.optimize.signs import fold_signs

FLOATS = (math.nan, math.inf, -math.inf, -0.0, 0.0, 1.0, -2.5, 0.5, 1e308, -1e308, 5e-324,
          3.0)
INTS = (0, 1, -3, 2 ** 53 + 1, 2 ** 1030, True)
COUNTS = (0, 1, 3, True)  # ints a loop runs to
POINTS = {"float": FLOATS, "int": INTS, "count": COUNTS, "bool": (True, False),
          None: FLOATS[:6] + INTS}


def _rewritten(text, run):
    function = function_of(text)
    context = Context.of(function, "math")
    for _ in range(driver.MAX_ROUNDS):
        if not run(function, context):
            return function  # and a further run would change nothing
    raise AssertionError(f"{run.__name__} still changes the function after every run")


def _compile(function):
    module = ast.fix_missing_locations(ast.Module([python_of(function)], []))
    scope = {"math": math, COMMENT: lambda text: None}
    exec(compile(module, "<test_rewrites>", "exec"), scope)
    return scope[function.name]


def _points(text):
    tree = ast.parse(text.strip()).body[0]
    kinds = [a.annotation.id if a.annotation is not None else None for a in tree.args.args]
    kinds = ["count" if k == "int" and "range" in text else k for k in kinds]
    return list(itertools.product(*(POINTS[k] for k in kinds)))


def _check(run, before, after):
    before, after = textwrap.dedent(before), textwrap.dedent(after or before)
    got = _rewritten(before, run)
    assert text_of(got) == text_of(function_of(after)), text_of(got)
    bad = oracles.mismatches(_compile(function_of(before)), _compile(got), _points(before))
    assert not bad, f"{len(bad)} mismatches, first {bad[0]}\n{text_of(got)}"


FLOAT_CASES = {
    "beside a float expression": ("""
        def f(x: float, d: float):
            d -= 2 * (1.0 - x)
            return d
        """, """
        def f(x: float, d: float):
            d -= 2.0 * (1.0 - x)
            return d
        """),
    "each arithmetic operation, either side": ("""
        def f(x: float):
            y = 3 + x - 2 * x / 7 + x * 5 - 1
            return y
        """, """
        def f(x: float):
            y = 3.0 + x - 2.0 * x / 7.0 + x * 5.0 - 1.0
            return y
        """),
    "a negative literal": ("""
        def f(x: float):
            return -3 * x
        """, """
        def f(x: float):
            return -3.0 * x
        """),
    "an int stays": ("""
        def f(n: int):
            return 2 * n + 1
        """, None),
    "a number not known stays": ("""
        def f(x):
            return 2 * x
        """, None),
    "powers, remainders and comparisons stay": ("""
        def f(x: float):
            y = x ** 2 + x % 3 + x // 2
            return y if x > 1 else y
        """, None),
    "an int a float does not hold exactly stays": ("""
        def f(x: float):
            return x * 9007199254740993
        """, None),
}


@pytest.mark.parametrize("name", FLOAT_CASES)
def test_float_constants(name):
    _check(float_constants, *FLOAT_CASES[name])


SIGN_CASES = {
    "accumulation of a negated product": ("""
        def f(d: float, g: float, x: float):
            d += -g * (2.0 * x)
            return d
        """, """
        def f(d: float, g: float, x: float):
            d -= g * (2.0 * x)
            return d
        """),
    "accumulation of a negated factor on the right": ("""
        def f(d: float, g: float, x: float):
            d += g * -x / x
            return d
        """, """
        def f(d: float, g: float, x: float):
            d -= g * x / x
            return d
        """),
    "subtracting a negative constant": ("""
        def f(d: float):
            d -= -1.0
            return d
        """, """
        def f(d: float):
            d += 1.0
            return d
        """),
    "subtracting a negation, adding one": ("""
        def f(a: float, b: float, c: float):
            y = a - -(b / c) + -b
            return y
        """, """
        def f(a: float, b: float, c: float):
            y = a + b / c - b
            return y
        """),
    "a negation of a negated quotient": ("""
        def f(a: float, b: float):
            return -(-2.0 * a / b)
        """, """
        def f(a: float, b: float):
            return 2.0 * a / b
        """),
    "an int's negation stays": ("""
        def f(d: float, n: int):
            d += -n
            return d + -n * d
        """, None),
    "a negated int times a float stays": ("""
        def f(d: float, n: int, x: float):
            d -= -n * x
            return d
        """, None),
    "a negated int literal zero stays": ("""
        def f(d: float):
            d -= -0
            return d
        """, None),
    "a number not known stays": ("""
        def f(d: float, x):
            d += -x
            return d
        """, None),
}


@pytest.mark.parametrize("name", SIGN_CASES)
def test_fold_signs(name):
    _check(fold_signs, *SIGN_CASES[name])


COPY_CASES = {
    "a copy back in a loop body": ("""
        def f(ds: float, n: int):
            t = 0.0
            for i in range(n):
                dadd = ds
                t += ds * 2.0
                ds = dadd
                t += dadd
            return t
        """, """
        def f(ds: float, n: int):
            t = 0.0
            for i in range(n):
                dadd = ds
                t += ds * 2.0
                t += dadd
            return t
        """),
    "a second copy copies the first": ("""
        def f(dx: float, s: float):
            dmul = dx
            dcos = dx
            dx = dcos * s
            dx += dmul
            return dx
        """, """
        def f(dx: float, s: float):
            dmul = dx
            dcos = dmul
            dx = dcos * s
            dx += dmul
            return dx
        """),
    "a copy back after a write stays": ("""
        def f(ds: float):
            dadd = ds
            ds = ds * 2.0
            ds = dadd
            return ds
        """, None),
    "a copy back after the copy changes stays": ("""
        def f(ds: float):
            dadd = ds
            dadd += 1.0
            ds = dadd
            return ds
        """, None),
    "a write nested in a branch ends the copy": ("""
        def f(ds: float, c: bool):
            dadd = ds
            if c:
                ds = 3.0
            ds = dadd
            return ds
        """, None),
    "a first copy written again is not copied": ("""
        def f(dx: float, n: int):
            dmul = dx
            dcos = dx
            for i in range(n):
                dmul = dmul * 2.0
            return dcos + dmul
        """, None),
}


@pytest.mark.parametrize("name", COPY_CASES)
def test_drop_copies_back(name):
    _check(drop_copies_back, *COPY_CASES[name])


def test_the_rewrites_run_in_the_optimizer():
    for run in (float_constants, fold_signs, drop_copies_back):
        assert run in driver.PASSES
