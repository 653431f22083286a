"""Higher order on the array corpus (``corpus/arrays/``): ``symdiff.hvp`` and
``symdiff.hessian`` (forward mode over the generated gradient) and ``symdiff.jacobian``
of array-valued functions, against finite differences.

- ``hvp(f)(*point, *v)`` equals a central difference of ``symdiff.grad`` along ``v``
  (Richardson, two steps), on every corpus case of parameters that are numbers, arrays
  or containers of them (the hvp of the same structure) that
  ``symdiff.grad`` takes; ``HVP_REFUSED`` lists the cases refused there, each raising a
  located ``SymdiffError`` (or, for ``HVP_BROKEN``, an ``InternalError``: a bug, with its
  reason); both lists only shrink;
- ``hessian(f)`` of a small array is of shape ``x.shape + x.shape``, symmetric, and its
  product with ``v`` is the ``hvp``;
- ``jacobian(f)`` of an array-valued function is of shape ``out.shape + x.shape`` and each
  of its columns is a central difference of ``f`` along that entry.
"""

import zlib

import numpy as np
import pytest

import symdiff
from symdiff.errors import InternalError, SymdiffError

try:
    import array_oracles as oracles
    from corpus.arrays import ARRAY_CASES as CASES
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles
    from tests.corpus.arrays import ARRAY_CASES as CASES

# Cases whose generated gradient uses what forward mode does not read yet (located in the
# gradient's text); the list only shrinks.
HVP_REFUSED = {}
HVP_BROKEN = {  # case -> why forward mode over its gradient raises an InternalError
}


def _takes(case):
    """Whether ``symdiff.grad`` takes the case and its parameters are numbers, arrays
    and containers of them."""
    indices, _ = oracles.differentiated(case.fn, case.wrt)
    point = case.points[0]
    if not all(isinstance(leaf, np.ndarray) or oracles.is_number(leaf)
               for i in indices for _, leaf in oracles.leaves(point[i])):
        return False
    try:
        symdiff.grad(case.fn, wrt=case.wrt)(*point)
    except SymdiffError:
        return False
    return True


TAKEN = sorted(label for label, case in CASES.items() if _takes(case))


def _vectors(case, point, rng):
    """A vector per differentiated parameter, of its structure, shapes and dtypes."""
    indices, single = oracles.differentiated(case.fn, case.wrt)

    def leaf(path, value):
        if isinstance(value, np.ndarray):
            return rng.standard_normal(value.shape).astype(value.dtype)
        return float(rng.standard_normal())
    return indices, single, [oracles.rebuilt(point[i], leaf) for i in indices]


def _flat(values):
    """The leaves of each value, in order: one list for all the parameters."""
    return [leaf for value in values for _, leaf in oracles.leaves(value)]


def _gradient_difference(case, point, indices, vectors, h):
    """Richardson's estimate of d/dt grad(f)(x + t v) at 0, per leaf of the parameters."""
    grad = symdiff.grad(case.fn, wrt=case.wrt)
    steps = [[leaf for _, leaf in oracles.leaves(v)] for v in vectors]

    def at(t):
        moved = oracles.along(point, indices, steps, t)
        found = grad(*moved)
        return [np.asarray(g, dtype=np.float64) for g in _flat(
            found if len(indices) > 1 else (found,))]
    near = [(a - b) / (2 * h) for a, b in zip(at(h), at(-h))]
    far = [(a - b) / (4 * h) for a, b in zip(at(2 * h), at(-2 * h))]
    return [(4 * n - f) / 3 for n, f in zip(near, far)], [np.abs(n - f) for n, f in
                                                           zip(near, far)]


@pytest.mark.parametrize("label", TAKEN)
def test_hvp_of_the_corpus(label):
    case = CASES[label]
    rng = np.random.default_rng(zlib.crc32(label.encode()))
    point = case.points[0]
    indices, single, vectors = _vectors(case, point, rng)
    try:
        product = symdiff.hvp(case.fn, wrt=case.wrt)(*point, *vectors)
    except InternalError as error:
        assert label in HVP_BROKEN, f"{label}: {error}"
        return
    except SymdiffError as error:
        assert label in HVP_REFUSED, f"{label} refused: {error}"
        assert error.lineno is not None
        return
    assert label not in HVP_REFUSED and label not in HVP_BROKEN, f"{label} is taken now"
    products = [product] if single else list(product)
    for p, i in zip(products, indices):
        assert oracles.structure_failures(p, point[i], "hvp") == [], label
    products = _flat(products)
    step, rtol, atol, kink = oracles.precision(point)
    largest = max([1.0] + [float(np.max(np.abs(leaf), initial=0.0))
                           for leaf in _flat(point[i] for i in indices)])
    estimate, spread = _gradient_difference(case, point, indices, vectors, step * largest)
    assert len(products) == len(estimate)
    for p, e, s in zip(products, estimate, spread):
        if case.kinky and np.any(s > kink * (1.0 + np.abs(e))):
            return  # a kink within the steps: the difference is not a derivative
        scale = max(1.0, float(np.max(np.abs(e), initial=0.0)))
        assert np.allclose(np.asarray(p, dtype=np.float64), e, rtol=10 * rtol,
                           atol=10 * (atol + rtol) * scale + (s.max(initial=0.0) if case.kinky
                                                               else 0.0)), label


def small_loss(w, X, y):
    p = np.tanh(X @ w)
    return np.mean((p - y) ** 2) + 0.1 * np.sum(w ** 2 * np.exp(-w))


def matrix_energy(A, b):
    return np.sum(np.sin(A) * A) + np.sum((A @ b) ** 2) + np.sum(b ** 3)


def _data(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape)


def test_the_hessian_of_a_vector_is_symmetric_and_its_products_are_the_hvp():
    w, X, y = _data(4, 1), _data((6, 4), 2), _data(6, 3)
    H = symdiff.hessian(small_loss, wrt="w")(w, X, y)
    assert H.shape == (4, 4)
    assert np.allclose(H, H.T, rtol=1e-10, atol=1e-12)
    v = _data(4, 4)
    assert np.allclose(H @ v, symdiff.hvp(small_loss, wrt="w")(w, X, y, v), rtol=1e-10)
    grad = symdiff.grad(small_loss, wrt="w")
    h = 1e-5
    for j in range(4):
        e = np.zeros(4)
        e[j] = h
        column = (grad(w + e, X, y) - grad(w - e, X, y)) / (2 * h)
        assert np.allclose(H[:, j], column, rtol=1e-6, atol=1e-8)


def test_the_hessian_of_a_matrix_and_a_vector_has_their_shapes():
    A, b = _data((2, 3), 5), _data(3, 6)
    H = symdiff.hessian(matrix_energy)(A, b)
    assert [[block.shape for block in row] for row in H] == [
        [(2, 3, 2, 3), (2, 3, 3)], [(3, 2, 3), (3, 3)]]
    assert np.allclose(H[0][1], np.moveaxis(H[1][0], 0, -1), rtol=1e-10)
    flat = H[0][0].reshape(6, 6)
    assert np.allclose(flat, flat.T, rtol=1e-10)
    grad = symdiff.grad(matrix_energy)
    h = 1e-5
    for index in np.ndindex(*A.shape):
        e = np.zeros_like(A)
        e[index] = h
        dA_plus, db_plus = grad(A + e, b)
        dA_minus, db_minus = grad(A - e, b)
        assert np.allclose(H[0][0][(...,) + index], (dA_plus - dA_minus) / (2 * h), atol=1e-7)
        assert np.allclose(H[1][0][(...,) + index], (db_plus - db_minus) / (2 * h), atol=1e-7)


def layer(W, x, b):
    return np.tanh(W @ x + b)


def stats(x):
    return np.sum(x ** 2), np.cumsum(x) * 2.0


def test_the_jacobian_of_an_array_valued_function_is_out_shape_plus_in_shape():
    W, x, b = _data((3, 4), 7), _data(4, 8), _data(3, 9)
    dW, dx, db = symdiff.jacobian(layer)(W, x, b)
    assert (dW.shape, dx.shape, db.shape) == ((3, 3, 4), (3, 4), (3, 3))
    h = 1e-6
    for arrays, at in ((dW, 0), (dx, 1), (db, 2)):
        point = [W, x, b]
        for index in np.ndindex(*point[at].shape):
            e = np.zeros_like(point[at])
            e[index] = h
            plus = layer(*[p + e if k == at else p for k, p in enumerate(point)])
            minus = layer(*[p - e if k == at else p for k, p in enumerate(point)])
            assert np.allclose(arrays[(...,) + index], (plus - minus) / (2 * h), atol=1e-7)


def test_the_jacobian_of_a_tuple_of_outputs_has_one_entry_per_output():
    x = _data(5, 10)
    total, running = symdiff.jacobian(stats)(x)
    assert total.shape == (5,) and running.shape == (5, 5)
    assert np.allclose(total, 2 * x)
    assert np.allclose(running, 2.0 * np.tril(np.ones((5, 5))))


def test_jvp_of_an_array_valued_function_gives_a_tangent_of_its_shape():
    W, x, b = _data((3, 4), 11), _data(4, 12), _data(3, 13)
    dW, dx, db = _data((3, 4), 14), _data(4, 15), _data(3, 16)
    value, tangent = symdiff.jvp(layer)(W, x, b, dW, dx, db)
    assert np.allclose(value, layer(W, x, b))
    assert tangent.shape == (3,)
    h = 1e-6
    difference = (layer(W + h * dW, x + h * dx, b + h * db)
                  - layer(W - h * dW, x - h * dx, b - h * db)) / (2 * h)
    assert np.allclose(tangent, difference, atol=1e-7)


def broadcast_only(x, b):
    return np.sum((x * 0.0 + b) ** 2)


def test_a_tangent_of_a_broadcast_operand_alone_has_the_results_shape():
    """``y = x + b`` with ``b`` alone moving: ``dy`` is ``db`` broadcast to ``y``'s shape,
    so the sum over ``y`` counts every row."""
    x, b = _data((4, 3), 17), _data(3, 18)
    v = _data(3, 19)
    _, tangent = symdiff.jvp(broadcast_only, wrt="b")(x, b, v)
    assert np.isclose(tangent, np.sum(2 * 4 * b * v))


def over_a_dict(params, x):
    return np.sum(np.tanh(params["W"] @ x) ** 2)


@pytest.mark.parametrize("transform", [symdiff.jacobian, symdiff.hessian],
                         ids=lambda t: t.__name__)
def test_a_container_parameter_is_refused_by_jacobian_and_hessian_with_its_location(
        transform):
    params, x = {"W": _data((2, 3), 20)}, _data(3, 21)
    with pytest.raises(SymdiffError) as caught:
        transform(over_a_dict, wrt="params")(params, x)
    assert caught.value.lineno == over_a_dict.__code__.co_firstlineno
    value, tangent = symdiff.jvp(over_a_dict, wrt="params")(params, x, {"W": np.ones((2, 3))})
    grad = symdiff.grad(over_a_dict, wrt="params")(params, x)
    assert np.isclose(tangent, np.sum(grad["W"]))


def test_the_hvp_by_a_dict_is_a_dict_of_the_gradients_difference():
    params, x = {"W": _data((2, 3), 20)}, _data(3, 21)
    vector = {"W": _data((2, 3), 22)}
    product = symdiff.hvp(over_a_dict, wrt="params")(params, x, vector)
    assert list(product) == ["W"] and product["W"].shape == (2, 3)
    grad, h = symdiff.grad(over_a_dict, wrt="params"), 1e-5
    plus = grad({"W": params["W"] + h * vector["W"]}, x)["W"]
    minus = grad({"W": params["W"] - h * vector["W"]}, x)["W"]
    assert np.allclose(product["W"], (plus - minus) / (2 * h), rtol=1e-6, atol=1e-8)


SCALE = 2.0


def scaled_loss(w, X):
    return np.sum(np.tanh(X @ w) * SCALE)


def test_a_new_batch_size_reuses_the_build_and_a_changed_global_rebuilds_it():
    global SCALE
    jvp = symdiff.jvp(scaled_loss, wrt="w")
    w, v = _data(3, 30), _data(3, 31)
    first = jvp(w, _data((5, 3), 32), v)[1]
    built = jvp._last
    jvp(w, _data((9, 3), 33), v)
    assert jvp._last is built  # the kinds, not the sizes, pick the build
    X = _data((5, 3), 32)
    SCALE = 3.0
    try:
        assert np.isclose(jvp(w, X, v)[1], 1.5 * first)
        assert jvp._last is not built
    finally:
        SCALE = 2.0
    jvp(w, X.astype(np.float32), v.astype(np.float32))
    assert jvp._last is not built  # another dtype, another build


def started_at_zero(x, W):
    h = 0.0
    for _ in range(3):
        h = np.tanh(W @ x + h)
    return np.sum(h ** 2)


def test_an_array_a_number_constant_starts_has_its_gradient_and_hvp():
    """``h = 0.0`` then arrays: ``h`` is an array (the constant broadcast); the gradient
    against finite differences of ``f``, the hvp against those of the gradient."""
    x, W, v = _data(3, 40), _data((3, 3), 41) * 0.5, _data(3, 42)
    grad = symdiff.grad(started_at_zero, wrt="x")
    h = 1e-6
    for j in range(3):
        e = np.zeros(3)
        e[j] = h
        difference = (started_at_zero(x + e, W) - started_at_zero(x - e, W)) / (2 * h)
        assert np.isclose(grad(x, W)[j], difference, rtol=1e-6, atol=1e-8)
    along = (grad(x + h * v, W) - grad(x - h * v, W)) / (2 * h)
    assert np.allclose(symdiff.hvp(started_at_zero, wrt="x")(x, W, v), along, rtol=1e-5,
                       atol=1e-7)
