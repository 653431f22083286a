"""``desugar`` alone: what each rewrite writes, what it leaves for ``lower``, that its
input is untouched, and that the desugared function computes what the user's does
(Python itself runs both, on many points: the witness knows nothing of symdiff)."""

import ast
import doctest
import math
import random
import textwrap

import pytest

import symdiff.lower.desugar
import symdiff.pipeline
from symdiff.frontend.parse import parse_function
from symdiff.lower.desugar import desugar, desugar_function
from symdiff.pipeline import lower


def _desugared(source):
    return ast.unparse(desugar_function(ast.parse(textwrap.dedent(source)).body[0]))


def _same(source, expected):
    assert _desugared(source) == ast.unparse(ast.parse(textwrap.dedent(expected)))


@pytest.mark.parametrize("module", [symdiff.lower.desugar, symdiff.pipeline])
def test_the_doctests_run(module):
    failures, tried = doctest.testmod(module)
    assert tried and not failures


def test_augmented_and_annotated_assignments():
    _same("""
        def f(x):
            x **= 2
            y: float
            z: float = x - 1
            return z
    """, """
        def f(x):
            x = x ** 2
            pass
            z = x - 1
            return z
    """)


def test_extend_is_a_loop_of_appends():
    _same("""
        def f(xs, ys):
            zs = list(xs)
            zs.extend(ys)
            return sum(zs)
    """, """
        def f(xs, ys):
            zs = list(xs)
            for item_index in range(len(ys)):
                item = ys[item_index]
                zs.append(item)
            return sum(zs)
    """)


def test_unpacking_of_names_and_constants_one_name_at_a_time():
    _same("""
        def f(x, y):
            a, b = y, 2.0
            c = d = a
            x0, x1 = x1, x
            return a
    """, """
        def f(x, y):
            a = y
            b = 2.0
            c = a
            d = a
            x0 = x1
            x1 = x
            return a
    """)


@pytest.mark.parametrize("statement", [
    "a, b = b, a",  # the old a is needed: lower keeps it
    "a, b = a, c",  # a value is the name it is assigned to
    "a, b = x * 2.0, y",  # a value that is not a name or a constant
    "a, b = g(x)",  # a call's values
    "(a, b), c = (x, y), z",  # nested
    "a = b = x, y",  # a tuple into names: lower's error
    "a, b = x, y, z",  # counts differ: lower's error
])
def test_what_is_left_to_lower(statement):
    source = f"def f(x, y, z, a, b, c):\n    {statement}\n    return a\n"
    assert _desugared(source) == ast.unparse(ast.parse(source))


def test_a_lambda_is_a_def_and_nested_functions_are_desugared():
    _same("""
        def f(x):
            def g(t):
                t += 1.0
                return t
            h = lambda t: t * x
            return h(g(x))
    """, """
        def f(x):
            def g(t):
                t = t + 1.0
                return t
            def h(t):
                return t * x
            return h(g(x))
    """)


def test_the_rest_of_a_block_moves_into_the_branch_that_goes_on():
    _same("""
        def f(x, n):
            for i in range(n):
                if x > 2.0:
                    break
                    x = 0.0
                x += 1.0
            if x < 0.0:
                y = -x
            else:
                return x
            return y
            x = 4.0
    """, """
        def f(x, n):
            for i in range(n):
                if x > 2.0:
                    break
                else:
                    x = x + 1.0
            if x < 0.0:
                y = -x
                return y
            else:
                return x
    """)


def test_the_input_is_untouched():
    tree = ast.parse(textwrap.dedent("""
        def f(x, n):
            x += 1.0
            a, b = x, n
            for i in range(n):
                if a > 1.0:
                    continue
                a *= 0.5
            return a + b
    """)).body[0]
    before = ast.dump(tree, include_attributes=True)
    desugar_function(tree)
    assert ast.dump(tree, include_attributes=True) == before


def early_exits(x, n):
    total = 0.0
    for i in range(n):
        total += x * i
        if total > 5.0:
            break
        if i % 2 == 1:
            continue
        x, total = total * 0.1, x
    if x < 0.5:
        return total
    a = b = x
    a -= b * 0.25
    return a + total


def stacks_and_lambdas(x, y):
    square = lambda t: t * t
    s = []
    s.append(x)
    y: float = y + square(x)
    if y > 3.0:
        return s.pop() * y
    else:
        y /= 2.0
    return y


@pytest.mark.parametrize("fn", [early_exits, stacks_and_lambdas])
def test_the_desugared_function_computes_the_same(fn):
    parsed = parse_function(fn)
    module = ast.Module([desugar(parsed).tree], type_ignores=[])
    namespace = dict(fn.__globals__)
    exec(compile(ast.fix_missing_locations(module), "<desugared>", "exec"), namespace)
    rng = random.Random(7)
    for _ in range(200):
        args = (rng.uniform(-3.0, 3.0), rng.choice([0, 1, 2, 5, 9]))
        if fn is stacks_and_lambdas:
            args = (args[0], rng.uniform(-3.0, 6.0))
        expected, got = fn(*args), namespace[fn.__name__](*args)
        assert got == expected or (math.isnan(got) and math.isnan(expected)), args


def after_the_return(x):
    y = x * x
    return y
    y = 1.0


def without_it(x):
    y = x * x
    return y


def test_statements_after_the_last_return_change_nothing():
    first, second = lower(parse_function(after_the_return)), lower(parse_function(without_it))
    shape = [(type(s), s.target, s.op, s.args) for s in first.body]
    assert shape == [(type(s), s.target, s.op, s.args) for s in second.body]
    assert first.result == second.result
    assert first.result.name == "y"  # no copy into a result name
