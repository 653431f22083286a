"""SciPy's records (``symdiff.primitives.scipy``) beyond the tables of every primitive
(``test_registry``, ``test_rules``, ``test_special_values``): the Hurwitz ``zeta(s, x)``
of arrays and of numbers, differentiated in ``x`` against central differences of SciPy's
values, its hvp against those of the gradient, and a call whose ``s`` carries a
derivative refused where it is, located, in reverse and forward mode."""

import numpy as np
import pytest

import symdiff

special = pytest.importorskip("scipy.special")

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles


def zeta_of_arrays(x, s):
    return np.sum(special.zeta(3.0, x) * x) + np.sum(special.zeta(s, x ** 2))


def zeta_of_numbers(x):
    return special.zeta(2.5, x) * x


def zeta_by_its_order(x, s):
    return np.sum(special.zeta(s * 2.0, x))


def _point(seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.5, 2.0, size=4), rng.uniform(2.0, 3.0, size=4)


@pytest.mark.parametrize("seed", range(3))
def test_zeta_of_arrays_is_differentiated_in_x(seed):
    x, s = _point(seed)
    gradient = symdiff.grad(zeta_of_arrays, wrt="x")(x, s)
    assert oracles.gradient_failures(zeta_of_arrays, (x, s), gradient, wrt="x") == []


@pytest.mark.parametrize("x", [0.6, 1.0, 3.5])
def test_zeta_of_numbers_is_differentiated_in_x(x):
    h = 1e-6
    numeric = (zeta_of_numbers(x + h) - zeta_of_numbers(x - h)) / (2 * h)
    assert symdiff.grad(zeta_of_numbers)(x) == pytest.approx(numeric, rel=1e-7)


def test_the_hvp_of_zeta_is_the_gradients_difference():
    x, s = _point(3)
    v = np.random.default_rng(4).standard_normal(4)
    grad, h = symdiff.grad(zeta_of_arrays, wrt="x"), 1e-4
    near = (grad(x + h * v, s) - grad(x - h * v, s)) / (2 * h)
    far = (grad(x + 2 * h * v, s) - grad(x - 2 * h * v, s)) / (4 * h)
    product = symdiff.hvp(zeta_of_arrays, wrt="x")(x, s, v)
    assert np.allclose(product, (4 * near - far) / 3, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("transform", [symdiff.grad, symdiff.jvp], ids=lambda t: t.__name__)
def test_zeta_by_a_differentiated_order_is_refused_where_it_is_called(transform):
    x, s = _point(5)
    extra = (np.ones(4), np.ones(4)) if transform is symdiff.jvp else ()
    with pytest.raises(symdiff.SymdiffError) as refused:
        transform(zeta_by_its_order)(x, s, *extra)
    error = refused.value
    assert not isinstance(error, symdiff.InternalError)
    assert error.lineno == zeta_by_its_order.__code__.co_firstlineno + 1 and error.hint
    gradient = symdiff.grad(zeta_by_its_order, wrt="x")(x, s)  # by x alone: taken
    assert oracles.gradient_failures(zeta_by_its_order, (x, s), gradient, wrt="x") == []
