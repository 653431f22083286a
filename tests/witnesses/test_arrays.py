"""The tape's array node (``symdiff.witnesses.tape.arrays``): ``ArrayValue`` and its walk
back, broadcasting undone by ``unbroadcast``, its mixing with scalar ``Value``s and plain
data, the handle's copy semantics, and what it refuses to do in silence."""

import pytest

from symdiff.witnesses.tape.arrays import ArrayValue, unbroadcast
from symdiff.witnesses.tape.value import Value

from .array_checks import check_vjp

np = pytest.importorskip("numpy")


@pytest.mark.parametrize("shape, target", [((3, 4), (4,)), ((3, 4), (3, 1)), ((3, 4), (1, 4)),
                                           ((3, 4), ()), ((2, 3, 4), (3, 1)), ((3, 4), (3, 4)),
                                           ((2, 1, 4), (1, 1))], ids=str)
def test_unbroadcast_is_the_transpose_of_broadcasting(shape, target):
    """<unbroadcast(g), v> == <g, broadcast(v)> for random g and v."""
    rng = np.random.default_rng(len(shape) + len(target))
    g, v = rng.normal(size=shape), rng.normal(size=target)
    back = unbroadcast(g, target)
    assert np.shape(back) == target
    assert np.isclose(np.sum(back * v), np.sum(g * np.broadcast_to(v, shape)))


def test_backward_twice_gives_the_same_gradient():
    x = ArrayValue(np.array([1.0, 2.0, 3.0]))
    y = np.sum(x * x)
    y.backward()
    first = x.grad.copy()
    y.backward()
    assert np.array_equal(first, x.grad)


def test_a_long_chain_walks_without_recursion():
    x = ArrayValue(np.array([0.5, 0.25]))
    y = x
    for _ in range(20000):
        y = y * 1.0
    y.backward(np.ones(2))
    assert np.array_equal(x.grad, np.ones(2))


def test_a_node_used_many_times_gets_every_contribution_and_no_gradient_is_shared():
    x = ArrayValue(np.array([1.0, -2.0]))
    y = x + x           # the two contributions are the same array object g
    z = y * 3.0 + y
    z.backward(np.array([1.0, 1.0]))
    assert np.array_equal(x.grad, [8.0, 8.0])
    assert x.grad is not y.grad


def test_seed_must_have_the_shape():
    with pytest.raises(ValueError, match="seed"):
        ArrayValue(np.ones(3)).__mul__(2.0).backward(np.ones(2))


def test_zero_d_results_are_scalar_values_that_mix_with_the_scalar_tape():
    import math
    x = ArrayValue(np.array([0.3, 0.4]))
    s = np.sum(x)
    assert isinstance(s, Value) and isinstance(x[0], Value)
    from symdiff.witnesses.tape.math_functions import exp
    y = exp(s) * x[1] + math.pi
    y.backward()
    assert np.allclose(x.grad, [math.exp(0.7) * 0.4, math.exp(0.7) * 0.4 + math.exp(0.7)])


def test_values_broadcast_against_arrays_get_the_sum():
    rng = np.random.default_rng(3)
    check_vjp(lambda x, s: x * s + s / (x * x + 1.0) - s ** 2, (rng.normal(size=(3, 2)), 1.3),
              wrt=(0, 1))


def test_plain_arrays_and_values_meet_through_numpy():
    """``ndarray * Value`` reaches the tape through ``Value.__array_ufunc__``."""
    data = np.array([1.0, 2.0, 3.0])
    s = Value(2.0)
    y = np.sum(data * s) + np.sum(s * data) + np.sum(np.power(s, data))
    y.backward()
    assert np.isclose(s.grad, 12.0 + np.sum(data * 2.0 ** (data - 1.0)))


def test_attributes():
    x = ArrayValue(np.ones((2, 3), dtype=np.float32))
    assert (x.shape, x.ndim, x.size, x.dtype, len(x)) == ((2, 3), 2, 6, np.float32, 2)
    assert x.T.shape == (3, 2) and isinstance(x.T, ArrayValue)


def test_comparisons_give_plain_bool_arrays():
    x = ArrayValue(np.array([1.0, 2.0]))
    for result in (x < 1.5, x <= 1.0, x > np.array([0.0, 3.0]), x >= x, x == 1.0, x != 1.0,
                   1.5 < x):
        assert type(result) is np.ndarray and result.dtype == bool


def test_the_handle_keeps_copy_semantics():
    x = ArrayValue(np.array([1.0, 2.0]))
    y = x * 1.0
    alias = y
    before = y * 1.0
    y[0] = 5.0
    assert alias is y and np.array_equal(y.data, [5.0, 2.0])
    assert np.array_equal(before.data, [1.0, 2.0])
    y += 1.0
    assert np.array_equal(alias.data, [6.0, 3.0])   # += changes the array in place, as numpy


@pytest.mark.parametrize("convert", [float, np.asarray,
                                     lambda v: np.zeros(2).__setitem__(slice(None), v)],
                         ids=["float", "asarray", "write"])
def test_detaching_is_refused_with_the_way_out(convert):
    x = ArrayValue(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="derivative would be lost"):
        convert(x)


def test_an_index_or_a_count_is_refused():
    x = ArrayValue(np.array([1.0]))
    with pytest.raises(TypeError, match="index"):
        range(x)
