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


def rows_of_zeros_updated_in_a_loop(layers, x):
    """The shape of a gradient of layers read again: a list of rows of zeros, one per
    layer, each entry updated in a loop by index."""
    acc = [[np.zeros_like(pair[0]), np.zeros_like(pair[1])] for pair in layers]
    for i in range(len(layers)):
        acc[i][0] += np.sin(layers[i][0]) * x
        acc[i][1] += layers[i][1] ** 2
    return sum(np.sum(a * b[:, None]) for a, b in acc)


def unit_block_written_by_a_slice(blocks, C):
    """A row of zeros of unlike arrays, one with an axis of size one, added into by slices
    (whose size is not known when it is built)."""
    parts = [np.zeros_like(blocks[0]), np.zeros_like(blocks[1])]
    parts[0] += C[:, :blocks[0].shape[1]]
    parts[1] += C[:, blocks[0].shape[1]:] * blocks[1]
    return np.sum(parts[0] * blocks[0]) + np.sum(np.sin(parts[1]))


def _layers(rng):
    return [(rng.standard_normal((2, 3)), rng.standard_normal(2)) for _ in range(3)]


def _blocks(rng):
    return [rng.standard_normal((3, 1)), rng.standard_normal((3, 2))], rng.standard_normal((3, 3))


def _product_failures(fn, point, vectors):
    """Where ``symdiff.hvp`` of ``fn`` at ``point`` along ``vectors`` (one per parameter)
    is not Richardson's difference of ``symdiff.grad`` along them."""
    grad, h = symdiff.grad(fn), 1e-4
    indices = list(range(len(point)))
    steps = [[leaf for _, leaf in oracles.leaves(v)] for v in vectors]

    def at(t):
        return [np.asarray(leaf) for g in grad(*oracles.along(point, indices, steps, t))
                for _, leaf in oracles.leaves(g)]
    near = [(a - b) / (2 * h) for a, b in zip(at(h), at(-h))]
    far = [(a - b) / (4 * h) for a, b in zip(at(2 * h), at(-2 * h))]
    found = [np.asarray(leaf) for p in symdiff.hvp(fn)(*point, *vectors)
             for _, leaf in oracles.leaves(p)]
    return [(k, f, (4 * n - w) / 3) for k, (f, n, w) in enumerate(zip(found, near, far))
            if not np.allclose(f, (4 * n - w) / 3, rtol=1e-6, atol=1e-8)]


@pytest.mark.parametrize("seed", range(3))
def test_rows_appended_in_a_loop_make_a_list_of_rows(seed):
    rng = np.random.default_rng(seed)
    layers, x = _layers(rng), float(rng.standard_normal())
    program = program_of(rows_of_zeros_updated_in_a_loop, layers=kind_of(layers))
    assert program.types["acc"] == t.List(Row((MATRIX, VECTOR)))
    assert program.types["b"] == VECTOR  # a row's entry, read by a loop over the list
    point = (layers, x)
    gradient = symdiff.grad(rows_of_zeros_updated_in_a_loop)(*point)
    assert oracles.gradient_failures(rows_of_zeros_updated_in_a_loop, point, gradient) == []
    v = ([(rng.standard_normal((2, 3)), rng.standard_normal(2)) for _ in range(3)], 0.5)
    _, tangent = symdiff.jvp(rows_of_zeros_updated_in_a_loop)(*point, *v)
    assert np.isclose(tangent, sum(np.sum(g * d) for pair, dpair in zip(gradient[0], v[0])
                                   for g, d in zip(pair, dpair)) + gradient[1] * v[1])
    assert _product_failures(rows_of_zeros_updated_in_a_loop, point, v) == []


@pytest.mark.parametrize("seed", range(3))
def test_a_row_holds_what_is_stored_in_it_joined_with_what_it_is_built_of(seed):
    rng = np.random.default_rng(seed)
    blocks, C = _blocks(rng)
    program = program_of(unit_block_written_by_a_slice, blocks=kind_of(blocks),
                         C=t.Array("float64", 2))
    assert program.types["parts"] == Row((MATRIX, MATRIX))  # (the slice's axis: not known)
    point = (blocks, C)
    gradient = symdiff.grad(unit_block_written_by_a_slice)(*point)
    assert oracles.gradient_failures(unit_block_written_by_a_slice, point, gradient) == []
    v = ([rng.standard_normal((3, 1)), rng.standard_normal((3, 2))], rng.standard_normal((3, 3)))
    assert _product_failures(unit_block_written_by_a_slice, point, v) == []
