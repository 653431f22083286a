"""The tape's reductions on arrays (``symdiff.witnesses.tape.array_reductions``), with
``axis`` and ``keepdims``, against central finite differences along random directions;
the ties of ``max``/``min`` shared equally, ``prod`` exact at zeros, ``norm`` 0 at 0."""

import pytest

from .array_checks import check_vjp, tape_vjp

np = pytest.importorskip("numpy")
special = pytest.importorskip("scipy.special")

AXES = [None, 0, 1, -1, (0, 2), (0, 1, 2)]


def _x(seed=0, shape=(2, 3, 4)):
    return np.random.default_rng(seed).uniform(0.5, 1.5, size=shape)


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("name", ["sum", "mean", "prod", "max", "min", "var", "std"])
def test_reduction_vjp(name, axis, keepdims):
    function = getattr(np, name)
    check_vjp(lambda x: function(x, axis=axis, keepdims=keepdims), (_x(len(name)),))


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "max", "min", "var", "std"])
def test_the_methods_are_the_functions(name):
    check_vjp(lambda x: getattr(x, name)(axis=1), (_x(3),))
    check_vjp(lambda x: getattr(x, name)(), (_x(4),))


@pytest.mark.parametrize("ddof", [0, 1])
def test_var_and_std_with_ddof(ddof):
    check_vjp(lambda x: np.var(x, axis=0, ddof=ddof) + np.std(x, ddof=ddof), (_x(5, (4, 3)),))


def test_max_ties_share_the_gradient_equally():
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    g = np.array([0.6, 0.9])
    (vjp,) = tape_vjp(lambda x: np.max(x, axis=1), (x,), (0,), g)
    assert np.allclose(vjp, [[0.0, 0.3, 0.3], [0.3, 0.3, 0.3]])
    (vjp,) = tape_vjp(lambda x: np.min(x), (x,), (0,), 1.0)
    assert np.allclose(vjp, [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])


def test_prod_is_exact_where_elements_are_zero():
    """The product of the others, also where y / x would divide 0 by 0."""
    x = np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 5.0]])
    check_vjp(lambda x: np.prod(x, axis=1), (x,))
    (vjp,) = tape_vjp(lambda x: np.prod(x, axis=1), (x,), (0,), np.ones(2))
    assert np.array_equal(vjp, [[6.0, 0.0, 0.0], [0.0, 0.0, 0.0]])


@pytest.mark.parametrize("call", [
    lambda x: np.linalg.norm(x),
    lambda x: np.linalg.norm(x, axis=1),
    lambda x: np.linalg.norm(x, axis=0, keepdims=True),
    lambda x: np.linalg.norm(x, "fro"),
    lambda x: np.linalg.norm(x[0], 1),
    lambda x: np.linalg.norm(x[1], np.inf),
    lambda x: np.linalg.norm(x, ord=2, axis=-1),
], ids=["all", "axis1", "keepdims", "fro", "ord1", "inf", "ord2"])
def test_norm_vjp(call):
    x = np.random.default_rng(6).normal(size=(3, 4))
    check_vjp(call, (x,))


def test_norm_at_zero_has_gradient_zero():
    (vjp,) = tape_vjp(lambda x: np.linalg.norm(x), (np.zeros(3),), (0,), 1.0)
    assert np.array_equal(vjp, np.zeros(3))


@pytest.mark.parametrize("axis", [None, 0, 1, -1], ids=str)
def test_cumsum_and_diff(axis):
    x = _x(7, (3, 4))
    check_vjp(lambda x: np.cumsum(x, axis=axis), (x,))
    check_vjp(lambda x: x.cumsum(axis), (x,))
    if axis is not None:
        check_vjp(lambda x: np.diff(x, axis=axis), (x,))
        check_vjp(lambda x: np.diff(x, n=2, axis=axis) if x.shape[axis] > 2 else x, (x,))


@pytest.mark.parametrize("offset", [0, 1, -1])
def test_trace(offset):
    check_vjp(lambda x: np.trace(x, offset=offset), (_x(8, (3, 4)),))
    check_vjp(lambda x: np.trace(x, offset, 0, 2), (_x(9, (3, 2, 4)),))


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)], ids=str)
def test_logsumexp(axis, keepdims):
    x = np.random.default_rng(10).normal(size=(3, 4)) * 3.0
    check_vjp(lambda x: special.logsumexp(x, axis=axis, keepdims=keepdims), (x,))


def test_add_reduce_is_sum():
    check_vjp(lambda x: np.add.reduce(x, axis=0) + np.maximum.reduce(x, axis=1).sum(), (_x(11, (3, 4)),))


def test_keywords_the_tape_lacks_are_refused_by_name():
    from symdiff.witnesses.tape.arrays import ArrayValue
    x = ArrayValue(_x(12, (3, 4)))
    with pytest.raises(TypeError, match="initial="):
        np.max(x, initial=0.0)
    with pytest.raises(TypeError, match="out="):
        np.sum(x, out=np.empty(()))
