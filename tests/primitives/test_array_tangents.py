"""The array records' JVP builders (``primitives.tangents``): every array record states
them, one per argument, beside its VJP builders; the builders write what they say.

A record without them would make forward mode give a zero tangent where the result
moves, so the first test walks every array record (each family at two counts, an index
read and an index write) and fails on one whose ``array_jvp`` is missing.
"""

import pytest

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives import array_shapes, arrays, indexing, registry
from symdiff.primitives.arrays import for_arrays
from symdiff.primitives.tangents import Contracted, Linear, Spread, together

VECTOR = t.Array("float64", 1, ())
MATRIX = t.Array("float64", 2, ())


def _all_array_records():
    found = dict(arrays.RECORDS)
    for head in array_shapes.FAMILIES:
        for count in (1, 2):
            record = registry.rule_of(f"{head}_{count}")
            found[record.name] = record
    read = indexing.index_operation((("s", False, False, False), "v"))
    write = registry.rule_of(indexing.write_op((("s", False, False, False), "v")))
    found["getitem"], found["setitem"] = read, write
    return found


@pytest.mark.parametrize("name", sorted(_all_array_records()))
def test_every_array_record_states_its_jvp_builders(name):
    record = _all_array_records()[name]
    assert record.array_jvp is not None, f"{name} has VJP builders and no JVP builders"


def test_a_reduction_is_linear_and_leaves_its_defaults_out():
    record = for_arrays(registry.rule_of("array_sum"), (MATRIX, t.NONE, t.BOOL),
                        t.NUMPY_FLOAT)
    builder = record.jvp[0]
    assert isinstance(builder, Linear)
    built = builder(ex.Name("dx"), (ex.Name("x"), ex.Const(None), ex.Const(False)),
                    ex.Name("s"), None)
    assert built == ex.Call(ex.Attribute(ex.Name("numpy"), "sum"), (ex.Name("dx"),), ())
    assert record.jvp[1:] == (None, None)


def test_a_join_writes_one_call_with_zeros_for_what_does_not_move():
    record = for_arrays(registry.rule_of("concatenate_2"), (VECTOR, VECTOR, t.INT), VECTOR)
    args = (ex.Name("a"), ex.Name("b"), ex.Const(0))
    alone = record.jvp[0](ex.Name("da"), args, ex.Name("y"), None)
    assert "zeros_like" in repr(alone) and "'b'" in repr(alone)
    both = together(list(record.jvp[:2]), [ex.Name("da"), ex.Name("db")], args,
                    ex.Name("y"), None)
    assert "zeros_like" not in repr(both) and "'da'" in repr(both) and "'db'" in repr(both)


def test_a_broadcast_operand_tangent_is_marked_where_nothing_else_has_the_shape():
    add = registry.rule_of("add")
    record = for_arrays(add, (MATRIX, VECTOR), MATRIX)
    assert not isinstance(record.jvp[0], Spread) and isinstance(record.jvp[1], Spread)
    mul = for_arrays(registry.rule_of("mul"), (MATRIX, VECTOR), MATRIX)
    assert not isinstance(mul.jvp[1], Spread)  # ``db * x`` has ``x``'s shape


def test_a_reduction_by_its_partial_sums_the_tangent_times_the_partial():
    record = for_arrays(registry.rule_of("array_max"), (MATRIX, t.INT, t.BOOL),
                        VECTOR)
    assert isinstance(record.jvp[0], Contracted)
    built = repr(record.jvp[0](ex.Name("dx"), (ex.Name("x"), ex.Const(1), ex.Const(False)),
                               ex.Name("m"), None))
    assert built.startswith("Call(func=Attribute(value=Name(id='numpy'), attr='sum')")
    assert "'expand_dims'" in built and "'dx'" in built
