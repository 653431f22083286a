"""The type of a slice: an axis it keeps is of size one where its bounds make it so.

Against NumPy itself: for slices of constant bounds (negative, absent, with steps of
either sign) the index record's type rule says "size one" exactly where NumPy keeps at
most one place of the axis for every length of it (and one for some); for bounds the
same name apart by a constant (``k:k + 1``, ``i - 2:i``) exactly where every start
keeps at most one.  Then the lowering: ``X[:, k:k + 1]`` and ``x[..., :1]`` are typed with
the unit axis that the reverse sums a broadcast adjoint over.
"""

import itertools

import numpy as np
import pytest

from symdiff.core import types as t
from symdiff.frontend.parse import parse_function
from symdiff.pipeline import lower
from symdiff.primitives.indexing import index_op, index_pattern, index_record

BOUNDS = (None, -3, -2, -1, 0, 1, 2, 3)
STEPS = (None, -2, -1, 1, 2, 3)
VECTOR = t.Array("float64", 1, ())


def _typed(part, consts):
    record = index_record(index_op(index_pattern([part])))
    operands = tuple(t.INT for c in consts)
    return record.typed((VECTOR,) + operands, (None,) + tuple(consts)).result


def _numpy_sizes(lower, upper, step, lengths=range(12)):
    return {len(np.zeros(n)[lower:upper:step]) for n in lengths}


@pytest.mark.parametrize("lower, upper, step", [
    bounds for bounds in itertools.product(BOUNDS, BOUNDS, STEPS)])
def test_constant_bounds_give_a_unit_axis_exactly_where_numpy_keeps_one(lower, upper, step):
    given = [b for b in (lower, upper, step) if b is not None]
    part = ("s", lower is not None, upper is not None, step is not None)
    kind = _typed(part, given)
    assert kind.ndim == 1
    assert (kind.unit_axes == (0,)) == (max(_numpy_sizes(lower, upper, step)) == 1)


@pytest.mark.parametrize("width, step", list(itertools.product((1, 2, 3), (None, 1, 2, 3))))
def test_bounds_a_width_apart_give_a_unit_axis_where_every_start_keeps_one(width, step):
    part = ("s", True, True, step is not None, width)
    kind = _typed(part, [None, None] + ([step] if step else []))
    kept = {len(np.zeros(n)[k:k + width:step]) for n in range(9) for k in range(-10, 10)}
    assert (kind.unit_axes == (0,)) == (max(kept) == 1)


def a_column_by_a_loop(X):
    total = 0.0
    for k in range(X.shape[1]):
        total = total + np.sum(X * X[:, k:k + 1]) + np.sum(X[:, k - 1:k] * X[..., :1])
    return total


def test_lowering_types_windows_and_constant_slices_with_their_unit_axes():
    program = lower(parse_function(a_column_by_a_loop),
                    kinds={"X": t.Array("float64", 2, ())})
    parts = [kind for name, kind in program.types.items() if name.startswith("X_part")]
    assert len(parts) == 3 and all(kind == t.Array("float64", 2, (1,)) for kind in parts)
