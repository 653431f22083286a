"""``ad.shared_terms``: a call or comparison a contribution reads twice is bound once,
and the gradients that read it stay the numbers they were."""

import numpy as np
import pytest

import symdiff
from symdiff.ad.shared_terms import bind_shared
from symdiff.core import expr as ex
from symdiff.core.expr import BinOp, Call, Compare, Name
from symdiff.ir import sweeps as sw


def _fresh(stem):
    return stem


def _sum(arg):
    return Call(ex.Attribute(Name("np"), "sum"), (arg,), (("axis", ex.Const(1)),))


def test_a_comparison_read_twice_is_bound_once_and_read_by_its_name():
    mask = Compare(Name("x"), ("==",), (Name("m"),))
    term = BinOp("/", BinOp("*", Name("g"), mask), _sum(mask))
    lets, (bound,) = bind_shared([term], _fresh, "m")
    assert lets == [sw.Let("mask_m", mask)]
    assert bound == BinOp("/", BinOp("*", Name("g"), Name("mask_m")), _sum(Name("mask_m")))


def test_a_call_shared_by_two_contributions_is_bound_by_its_argument():
    total = _sum(Name("w"))
    lets, terms = bind_shared([BinOp("/", Name("a"), total), BinOp("/", Name("b"), total)],
                              _fresh, "m")
    assert [let.target for let in lets] == ["sum_w"]
    assert terms == [BinOp("/", Name("a"), Name("sum_w")), BinOp("/", Name("b"), Name("sum_w"))]


def test_the_outermost_repetition_is_bound_and_a_single_use_is_left():
    inner = _sum(Name("x"))
    outer = Call(ex.Attribute(Name("np"), "exp"), (inner,))
    lets, (term,) = bind_shared([BinOp("*", outer, outer)], _fresh, "y")
    assert [let.value for let in lets] == [outer]
    assert term == BinOp("*", Name("exp_y"), Name("exp_y"))
    assert bind_shared([BinOp("*", outer, Name("z"))], _fresh, "y") == (
        [], [BinOp("*", outer, Name("z"))])


def test_a_call_read_by_index_is_not_bound():
    eigh = Call(ex.Attribute(Name("np"), "eigh"), (Name("K"),))
    term = BinOp("@", ex.Subscript(eigh, ex.Const(1)), ex.Subscript(eigh, ex.Const(1)))
    lets, (same,) = bind_shared([term], _fresh, "s")
    assert lets == [] and same == term  # (it may give several values)


def row_peaks(x):
    return np.sum(np.max(x, axis=1) ** 2)


@pytest.mark.parametrize("x", [np.array([[1.0, 3.0, 3.0], [2.0, -1.0, 0.5]]),
                               np.array([[0.5, 0.5], [0.5, 0.5]])])
def test_the_ties_of_a_maximum_share_its_gradient_with_the_mask_computed_once(x):
    text = symdiff.source(row_peaks, x)
    assert text.count("x == ") == 1
    assert np.array_equal(symdiff.grad(row_peaks)(x), symdiff.tape.grad(row_peaks)(x))
