"""Held types (``symdiff.analysis.held_types``): the types of containers of arrays the
function writes out, fills or joins, decided by the one type inference; a list argument
of unlike arrays typed element by element (``core.records.Row``); and the located
refusals where a container's elements are read as one kind and are not."""

import numpy as np
import pytest

import symdiff
from symdiff.core import types as t
from symdiff.core.records import Row
from symdiff.frontend.kinds import kind_of
from symdiff.frontend.parse import parse_function
from symdiff.pipeline import lower

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles

VECTOR = t.Array("float64", 1, ())
MATRIX = t.Array("float64", 2, ())
F32_VECTOR = t.Array("float32", 1, ())


def program_of(fn, **kinds):
    return lower(parse_function(fn), kinds=kinds)


def built_of_arrays(x, w):
    parts = [x, x * w, np.sin(x)]
    pair = (np.exp(x), 2.0)
    table = {"lin": x * w, "scale": 0.5}
    return np.sum(parts[0]) + np.sum(pair[0]) * pair[1] + np.sum(table["lin"]) * table["scale"]


def filled_by_a_loop(params, scale):
    scaled = {}
    for k in params:
        scaled[k] = params[k] * scale
    return np.sum(scaled["w"] ** 2)


def joined_lists(x):
    states = []
    for k in range(3):
        states.append(np.sin(x * (k + 1.0)))
    S = np.stack(states, axis=-1)
    C = np.concatenate(states)
    total = sum(states)
    return np.sum(S) + np.sum(C) + np.sum(total)


def test_a_container_written_out_holds_the_types_of_its_arrays():
    program = program_of(built_of_arrays, x=VECTOR, w=VECTOR)
    assert program.types["parts"] == t.List(VECTOR)
    assert program.types["pair"] == t.Tuple((VECTOR, t.FLOAT))
    assert program.types["table"] == t.Dict((("lin", VECTOR), ("scale", t.FLOAT)))
    assert program.containers["parts"] == program.types["parts"]  # what the sweeps read


def test_a_dict_a_loop_fills_with_arrays_holds_them():
    params = t.Dict((("w", MATRIX), ("b", MATRIX)))
    program = program_of(filled_by_a_loop, params=params)
    assert program.types["scaled"] == params
    assert program.types["scaled_w"] == MATRIX


def test_joins_and_sums_of_a_list_of_arrays_are_arrays():
    program = program_of(joined_lists, x=F32_VECTOR)
    assert program.types["states"] == t.List(F32_VECTOR)
    assert program.types["S"] == t.Array("float32", 2, ())
    assert program.types["C"] == F32_VECTOR
    assert program.types["total"] == F32_VECTOR
    stack = next(s for s in program.body if getattr(s, "target", None) == "S")
    assert (stack.op, stack.axis) == ("stack", 1)  # the axis counted from the front


def test_a_list_argument_of_unlike_arrays_is_typed_element_by_element():
    kind = kind_of([np.ones((3, 4)), np.ones(4), np.ones((4, 1))])
    assert isinstance(kind, Row) and kind.elts == (
        MATRIX, VECTOR, t.Array("float64", 2, (1,)))
    assert str(kind).startswith("list[")
    assert kind_of([np.ones(3), np.ones(2)]) == t.List(VECTOR, 2)  # alike: one element type
    assert t.join(kind, kind) == kind


def unlike_literal(x):
    parts = [x, 1.0]
    return np.sum(sum(parts))


def concatenated_numbers(xs):
    return np.sum(np.concatenate(xs))


def stacked_by_a_computed_axis(xs, k):
    return np.sum(np.stack(xs, axis=k))


_ONE = np.ones(3)


def unlike_list_read_at_positions(x):
    parts = [np.sin(x), np.outer(x, x)]
    parts[1] = parts[1] * 2.0
    return np.sum(parts[0]) + np.sum(parts[1])


def test_an_unlike_list_read_at_constant_positions_is_typed_element_by_element():
    x = np.linspace(-1.0, 1.0, 3)
    gradient = symdiff.grad(unlike_list_read_at_positions)(x)
    assert oracles.gradient_failures(unlike_list_read_at_positions, (x,), gradient) == []
    value, tangent = symdiff.jvp(unlike_list_read_at_positions)(x, np.ones(3))
    assert np.isclose(tangent, np.sum(gradient))


@pytest.mark.parametrize("fn, args, line, column", [
    (unlike_literal, (_ONE,), 1, 4),
    (concatenated_numbers, ([1.0, 2.0],), 1, 4),
    (stacked_by_a_computed_axis, ([_ONE, _ONE], 0), 1, 36),
], ids=lambda v: getattr(v, "__name__", None))
def test_what_is_not_one_kind_is_refused_where_it_stands(fn, args, line, column):
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(fn)(*args) if fn is not stacked_by_a_computed_axis else symdiff.grad(
            fn, wrt="xs")(*args)
    error = caught.value
    assert not isinstance(error, symdiff.InternalError)
    assert error.filename == __file__
    assert (error.lineno - fn.__code__.co_firstlineno, error.col_offset) == (line, column)
    assert error.hint
