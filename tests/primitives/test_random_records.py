"""The records of random draws (``primitives.random``): data with no derivative, typed
from their static arguments, and effects every pass respects."""

import pytest

from symdiff.core import types as t
from symdiff.core.records import GENERATOR
from symdiff.optimize.effects import Calls
from symdiff.primitives import random
from symdiff.primitives.registry import cheap, effectful, rule_of, total
from symdiff.primitives.texts import expression

DRAWS = sorted(random.RECORDS)


@pytest.mark.parametrize("op", DRAWS)
def test_a_draw_is_an_effect_no_pass_drops_moves_or_recomputes(op):
    assert effectful(op)
    assert not cheap(op) and not total(op)
    record = rule_of(op)
    args = (t.FLOAT,) * len(record.params)
    assert all(v is None for v in record.array_vjp(args, None))
    assert all(v is None for v in record.array_jvp(args, None))


@pytest.mark.parametrize("op", DRAWS)
def test_the_optimizer_calls_no_draw_pure(op):
    call = expression(rule_of(op).forward.replace("numpy.", "np."))
    assert not Calls(numpy_names=frozenset({"np"})).is_pure(call)
    assert not Calls(numpy_names=frozenset({"np"})).is_pure(call, allocating=True)


@pytest.mark.parametrize("op, args, consts, want", [
    ("draw_normal_0", (GENERATOR, t.FLOAT, t.FLOAT), (None, 0.0, 1.0), t.FLOAT),
    ("draw_normal_2", (GENERATOR, t.FLOAT, t.FLOAT, t.INT, t.INT), (None, 0.0, 1.0, 4, 1),
     t.Array("float64", 2, (1,))),
    ("draw_random_as", (GENERATOR, t.Array("float32", 3, (0,))), (None, None),
     t.Array("float64", 3, (0,))),
    ("draw_integers_1", (GENERATOR, t.INT, t.INT, t.INT), (None, 0, 5, None),
     t.Array("int64", 1, ())),
    ("draw_integers_0", (GENERATOR, t.INT, t.NONE), (None, 3, None), t.INT),
    ("draw_choice_1", (GENERATOR, t.Array("int64", 1, ()), t.INT), (None, None, 3),
     t.Array("int64", 1, ())),
    ("draw_choice_1", (GENERATOR, t.Array("float64", 1, ()), t.INT), (None, None, 3), None),
    ("draw_permutation", (GENERATOR, t.INT), (None, None), t.Array("int64", 1, ())),
    ("draw_permutation", (GENERATOR, t.Array("float64", 1, ())), (None, None), None),
    ("legacy_randn_3", (t.INT, t.INT, t.INT), (2, 3, 4), t.Array("float64", 3, ())),
    ("default_rng", (t.INT,), (0,), GENERATOR),
    ("draw_normal_1", (GENERATOR, t.FLOAT, t.FLOAT, t.FLOAT), (None, 0.0, 1.0, None), None),
])
def test_the_type_rule_reads_the_size(op, args, consts, want):
    assert rule_of(op).array_result(args, consts) == want


def test_every_draw_of_every_size_has_a_record():
    for name in random.DRAWS:
        for count in (*range(random.SIZES + 1), None):
            assert random.draw_name("draw", name, count) in random.RECORDS
    for name in (*random.LEGACY, *random.SPREAD):
        assert random.draw_name("legacy", name, 0) in random.RECORDS
