"""The spellings of the numba target (``backend.numba_spellings``): each expression the
generated text writes that numba lacks, written as one numba compiles, with the same
value.

Each spelling is checked three ways: on the expression alone (the text it writes), by
running the expression and its spelling in Python on many lists (ties, negative zeros,
descending sorts), and, where numba is installed, by compiling gradients that use it and
comparing their numbers with the Python gradient's to the last bit.
"""

import ast
import math
import random
import struct

import pytest

import symdiff
from symdiff.backend.numba_spellings import (SPELLINGS, empty_list, spelled_for_numba,
                                             tables_as_tuples)
from symdiff.backend.numba_spellings import _Spelling
from symdiff.core import expr as ex
from symdiff.core import types as t

np = pytest.importorskip("numpy")

try:
    import numba
except ImportError:
    numba = None

needs_numba = pytest.mark.skipif(
    numba is None, reason="jit='numba' needs numba: pip install -e '.[test,numba]'")


def parsed(text):
    return ex.from_ast(ast.parse(text, mode="eval").body)


def spelled(text, builtins=None, namespace=None):
    """The text of ``text`` after the first spelling that takes it (or None)."""
    names = _Spelling(builtins or {}, namespace or {"math": math}, "np")
    node = parsed(text)
    for spelling in SPELLINGS:
        written = spelling(node, names)
        if written is not None:
            return ast.unparse(ex.to_ast(written))
    return None


def test_each_spelling_writes_what_numba_compiles():
    assert spelled("range(len(xs))[1:]") == "np.arange(len(xs))[1:]"
    assert spelled("range(2, n, 3)[::2]") == "np.arange(2, n, 3)[::2]"
    assert spelled("sorted(range(len(xs)), key=xs.__getitem__)") == (
        "np.argsort(np.array(xs), kind='mergesort')")
    assert spelled("sorted(range(len(xs)), key=xs.__getitem__, reverse=True)") == (
        "np.argsort(-np.array(xs), kind='mergesort')")
    assert spelled("max(range(len(xs)), key=xs.__getitem__)") == "xs.index(max(xs))"
    assert spelled("min(range(len(xs)), key=xs.__getitem__)") == "xs.index(min(xs))"
    assert spelled("math.log(x, b)") == "math.log(x) / math.log(b)"
    assert spelled("math.fmod(x, y)") == "np.fmod(x, y)"
    assert spelled("math.prod(xs)") == "np.prod(np.array(xs))"


def test_what_is_not_the_construct_is_left_as_written():
    for text in ("range(len(xs))[1]", "sorted(range(len(xs)), key=ys.__getitem__)",
                 "max(range(len(xs)), key=xs.__getitem__, default=0)", "math.log(x)",
                 "sorted(xs)", "max(xs)", "m.log(x, b)", "sorted(range(n), key=f)",
                 "math.prod(xs, start=2.0)"):
        assert spelled(text) is None, text


def test_a_builtin_is_read_by_its_alias_where_the_users_code_shadows_it():
    assert spelled("range_1(len(xs))[1:]", {"range": "range_1"}) == (
        "np.arange(len(xs))[1:]")
    assert spelled("range(len(xs))[1:]", {"range": "range_1"}) is None  # the user's range


def test_math_is_read_by_the_name_it_is_bound_to():
    assert spelled("m.log(x, b)", namespace={"m": math}) == "m.log(x) / m.log(b)"


def lists(seed, count=300):
    """Lists with ties, zeros of both signs and repeated values."""
    rng = random.Random(seed)
    pool = [0.0, -0.0, 1.5, -1.5, 2.0]
    for _ in range(count):
        n = rng.randint(1, 7)
        yield [rng.choice(pool) if rng.random() < 0.4 else rng.uniform(-2, 2)
               for _ in range(n)]


def values_of(text, xs, **scope):
    return eval(text, {"np": np, "math": math, **scope}, {"xs": xs})


@pytest.mark.parametrize("text", [
    "sorted(range(len(xs)), key=xs.__getitem__)",
    "sorted(range(len(xs)), key=xs.__getitem__, reverse=True)",
    "max(range(len(xs)), key=xs.__getitem__)",
    "min(range(len(xs)), key=xs.__getitem__)",
    "range(len(xs))[1:]", "range(len(xs))[:-2]", "range(len(xs))[::-2]",
    "range(len(xs))[1:5:2]"])
def test_a_spelling_gives_the_same_positions_in_python(text):
    written = spelled(text)
    for xs in lists(text):
        assert [int(p) for p in np.atleast_1d(values_of(written, xs))] == [
            int(p) for p in np.atleast_1d(values_of(text, xs))], xs


def bits(value):
    if isinstance(value, (tuple, list)):
        return tuple(bits(v) for v in value)
    return struct.pack("<d", value).hex() if isinstance(value, float) else repr(value)


def test_the_log_to_a_base_and_fmod_give_pythons_bits():
    rng = random.Random(3)
    for _ in range(2000):
        x, b = rng.uniform(1e-3, 1e3), rng.choice([2.0, 10.0, math.e, rng.uniform(0.1, 9)])
        assert bits(values_of(spelled("math.log(x, b)"), [], x=x, b=b)) == bits(
            math.log(x, b))
        y = rng.uniform(-5, 5) or 1.0
        for sign in (1.0, -1.0):
            assert bits(float(np.fmod(sign * x, y))) == bits(math.fmod(sign * x, y))


def test_a_product_multiplies_in_pythons_order():
    written = spelled("math.prod(xs)")
    for xs in lists("prod"):
        assert bits(float(values_of(written, xs))) == bits(float(math.prod(xs))), xs


def test_an_empty_list_is_written_with_an_element_of_its_type():
    written = {str(kind): ast.unparse(ex.to_ast(empty_list(kind, ex.List(()))))
               for kind in (t.List(t.FLOAT), t.List(t.INT), t.List(t.BOOL),
                            t.List(t.List(t.FLOAT)))}
    assert written == {"list[float]": "[0.0] * 0", "list[int]": "[0] * 0",
                       "list[bool]": "[False] * 0", "list[list[float]]": "[[0.0] * 0] * 0"}
    assert empty_list(t.List(t.STR), ex.List(())) == ex.List(())  # numba's own way
    assert empty_list(None, ex.List(())) == ex.List(())


def test_a_table_of_numbers_is_a_tuple_and_the_rest_stays():
    rows = [[1.0, 2.0], [3.0, 4.0]]
    found = tables_as_tuples({"W": [0.5, 0.25], "M": rows, "s": "text", "mixed": [1.0, "a"],
                              "math": math})
    assert found == {"W": (0.5, 0.25), "M": ((1.0, 2.0), (3.0, 4.0)), "s": "text",
                     "mixed": [1.0, "a"], "math": math}
    assert rows == [[1.0, 2.0], [3.0, 4.0]]  # the user's table untouched


def test_the_function_is_copied_not_changed():
    from symdiff.frontend.parse import parse_function
    from symdiff.pipeline import generate

    def tail(xs):
        return sum(xs[1:]) * xs[0]
    built = generate(parse_function(tail), kinds={"xs": t.List(t.FLOAT, None)})
    assert "np.arange" not in built.source
    numba_text = generate(parse_function(tail), target="numba",
                          kinds={"xs": t.List(t.FLOAT, None)}).source
    assert "np.arange(len(xs))[1:]" in numba_text and "import numpy as np" in numba_text


def test_a_range_bound_to_a_name_is_an_arange():
    from symdiff.frontend.parse import parse_function
    from symdiff.pipeline import generate

    def copied(xs):
        return sum(list(xs)) * xs[0]
    kinds = {"xs": t.List(t.FLOAT, None)}
    assert "_positions = range(len(xs))" in generate(parse_function(copied),
                                                     kinds=kinds).source
    numba_text = generate(parse_function(copied), target="numba", kinds=kinds).source
    assert "_positions = np.arange(len(xs))" in numba_text, numba_text
    assert callable(spelled_for_numba)


# --- compiled -----------------------------------------------------------------------------

def tail_sum(xs):
    return xs[0] ** 3 + sum(xs[1:]) * xs[-1]


def by_rank(xs):
    s = sorted(xs)
    return s[0] * s[-1] + s[1]


def by_rank_descending(xs):
    s = sorted(xs, reverse=True)
    return s[0] * xs[0] - s[1]


def largest_times_smallest(xs):
    return max(xs) * min(xs) + xs[0]


def overwritten_copy(xs):
    ys = list(xs)
    for i in range(len(ys)):
        ys[i] = ys[i] * ys[i - 1] + 1.0
    return sum(ys)


def product_of_squares(xs):
    return math.prod([1.0 + x * x for x in xs]) * xs[0]


def logs_and_remainders(x, y):
    return math.log(x, 2.0) * math.fmod(x, y) + math.log(y, x)


def accumulated(xs):
    terms = []
    for x in xs:
        terms.append(x * x)
    return sum(terms) * xs[0]


GAUSS = [0.25, 0.5, 0.25]


def weighted(x):
    s = 0.0
    for i, w in enumerate(GAUSS):
        s += w * math.sin(x * (i + 1))
    return s


def determinant(m):
    return m[0][0] * m[1][1] - m[0][1] * m[1][0]


def row_sums(m, x):
    total = 0.0
    for row in m:
        for v in row:
            total += v * x
    return total


LISTS = [[0.4, -0.9, 0.1], [1.5, 1.5, -0.0, 0.0], [0.3, 2.0, 2.0, -1.0, 0.7]]


@needs_numba
@pytest.mark.parametrize("fn", [tail_sum, by_rank, by_rank_descending,
                                largest_times_smallest, accumulated, product_of_squares,
                                overwritten_copy])
def test_a_list_function_compiled_gives_the_python_bits(fn):
    compiled, python = symdiff.grad(fn, jit="numba"), symdiff.grad(fn)
    for xs in LISTS:
        assert bits(compiled(list(xs))) == bits(python(list(xs))), xs


@needs_numba
def test_logs_to_a_base_and_fmod_compiled_give_the_python_bits():
    compiled = symdiff.grad(logs_and_remainders, jit="numba")
    python = symdiff.grad(logs_and_remainders)
    rng = random.Random(5)
    for _ in range(50):
        point = (rng.uniform(0.1, 9.0), rng.uniform(0.5, 3.0))
        assert bits(compiled(*point)) == bits(python(*point)), point


@needs_numba
def test_a_table_of_the_module_is_read_as_a_constant():
    assert bits(symdiff.grad(weighted, jit="numba")(0.7)) == bits(symdiff.grad(weighted)(0.7))


@needs_numba
@pytest.mark.parametrize("fn, args", [
    (determinant, ([[1.0, 2.0], [3.0, 4.0]],)),
    (determinant, (([1.0, 2.0], [3.0, 4.0]),)),
    (row_sums, ([[0.5, 1.5, 2.0], [0.25, -1.0, 3.0]], 0.7)),
    (row_sums, ([[0.5], [0.25, -1.0, 3.0]], 0.7))])
def test_a_list_of_lists_is_passed_to_numba_as_its_rows(fn, args):
    compiled, python = symdiff.grad(fn, jit="numba"), symdiff.grad(fn)
    assert bits(compiled(*args)) == bits(python(*args))
    assert type(compiled(*args)) is type(python(*args))
