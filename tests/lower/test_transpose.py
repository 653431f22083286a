"""``zip(*pairs)``: looped over, its sequences written out by the kinds of the parameter
spread (``lower.zip_spread``, in desugar); unpacked (``xs, ys = zip(*pairs)``), the
tuples it gives written out by the kinds of every name (``lower.transpose``).

What each writes, and what it refuses: the class, the place (marked in the source by
``# REFUSED at``) and a hint whose way out, applied, differentiates."""

import ast
import math
import textwrap

import pytest

import symdiff
from symdiff.core import types as t
from symdiff.errors import UnsupportedSyntaxError
from symdiff.lower.desugar import desugar_function
from oracles import marked_place

try:
    from end_to_end.test_zip_transpose import close_to_the_tape
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.end_to_end.test_zip_transpose import close_to_the_tape


def _desugared(source, kinds):
    tree = ast.parse(textwrap.dedent(source)).body[0]
    return ast.unparse(desugar_function(tree, {"math": math}, kinds=kinds))


PAIR = t.Tuple((t.List(t.FLOAT), t.List(t.FLOAT)))


def test_a_loop_over_zip_of_a_tuple_parameter_spread_zips_its_elements():
    got = _desugared("""
        def f(pairs):
            s = 0.0
            for x, y in zip(*pairs):
                s = s + x * y
            return s
    """, {"pairs": PAIR})
    assert "values = pairs[0]" in got and "values_1 = pairs[1]" in got and "*pairs" not in got
    assert "length = min(len(values), len(values_1))" in got
    assert "x = values[x_index]" in got and "y = values_1[x_index]" in got


def test_spread_among_other_sequences_and_inside_enumerate():
    got = _desugared("""
        def f(pairs, ws):
            s = 0.0
            for i, (w, x, y) in enumerate(zip(ws, *pairs)):
                s = s + i * w * x * y
            return s
    """, {"pairs": PAIR, "ws": t.List(t.FLOAT)})
    assert "length = min(len(ws), len(values), len(values_1))" in got
    assert "x = values[i]" in got and "y = values_1[i]" in got


def loops_over_a_list(pairs):
    s = 0.0
    for x, y in zip(*pairs):  # REFUSED at *pairs
        s = s + x * y
    return s


def loops_over_a_local(a, b):
    pairs = ((a, b), (b, a * a))
    s = 0.0
    for x, y in zip(*pairs):  # REFUSED at *pairs
        s = s + x * math.sin(y)
    return s


def unpacks_a_list(pairs):
    xs, ys = zip(*pairs)  # REFUSED at *pairs
    return xs[0] * ys[1]


def unpacks_into_too_few_names(pairs):
    xs, ys = zip(*pairs)  # REFUSED at zip(*pairs)
    return xs[0] * ys[1]


def zips_tuples_written_out(a, b):
    xs, ys = zip((a, b), (b, a))  # REFUSED at (a, b), (b, a)
    return xs[0] * ys[1]


def zips_strictly(pairs):
    xs, ys = zip(*pairs, strict=True)  # REFUSED at strict=True
    return xs[0] * ys[1]


def zips_by_name(pairs):
    s = 0.0
    for x, y in zip(pairs[0], pairs[1]):
        s = s + x * y
    return s


def zips_the_local_by_name(a, b):
    pairs = ((a, b), (b, a * a))
    s = 0.0
    for x, y in zip(pairs[0], pairs[1]):
        s = s + x * math.sin(y)
    return s


def unpacks_a_tuple(pairs):
    xs, ys = zip(*pairs)
    return xs[0] * ys[1]


def binds_first(a, b):
    pairs = ((a, b), (b, a))
    xs, ys = zip(*pairs)
    return xs[0] * ys[1]


def unpacks_into_three(pairs):
    xs, ys, zs = zip(*pairs)
    return xs[0] * ys[1]


TRIPLES = ((1.0, 2.0, 3.0), (3.0, 4.0, 5.0))


@pytest.mark.parametrize("fn, args, words, way_out, way_args", [
    (loops_over_a_list, ([[1.0, 2.0], [3.0, 4.0]],), "is a list", zips_by_name,
     ([[1.0, 2.0], [3.0, 4.0]],)),
    (loops_over_a_local, (0.5, 1.5), "not a tuple parameter", zips_the_local_by_name,
     (0.5, 1.5)),
    (unpacks_a_list, ([(1.0, 2.0), (3.0, 4.0)],), "spreads a list", unpacks_a_tuple,
     (((1.0, 2.0), (3.0, 4.0)),)),
    (unpacks_into_too_few_names, (TRIPLES,), "gives 3 tuples", unpacks_into_three,
     (TRIPLES,)),
    (zips_tuples_written_out, (0.5, 1.5), "bind it to a name", binds_first, (0.5, 1.5)),
    (zips_strictly, (((1.0, 2.0), (3.0, 4.0)),), "keywords", unpacks_a_tuple,
     (((1.0, 2.0), (3.0, 4.0)),)),
])
def test_a_refusal_is_located_and_its_way_out_differentiates(fn, args, words, way_out,
                                                             way_args):
    with pytest.raises(UnsupportedSyntaxError) as refused:
        symdiff.grad(fn)(*args)
    error = refused.value
    assert words in str(error) and error.hint
    assert (error.filename, (error.lineno, error.col_offset)) == (__file__, marked_place(fn))
    if way_out is not None:
        assert close_to_the_tape(way_out, way_args)
