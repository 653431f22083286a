"""The arrays core: NumPy arrays as parameters, locals and elements, differentiated.

Each gradient is checked against central differences of the unchanged function: along
random directions (the vector-Jacobian product against a numerical directional
derivative, as autograd's ``check_vjp`` does) and, for these small arrays, element by
element; optimized and not; in the parameter's shape and dtype.  Each function is
differentiated at several shapes, so a new kind of argument (another ndim, an axis of
size one) builds another gradient and a new batch size reuses the one built.  The
array corpus checks many more functions; these pin the mechanisms one at a time.
"""

import numpy as np
import pytest

import symdiff
import symdiff.tape
from symdiff import SymdiffError
from symdiff.errors import UnknownFunctionError
from symdiff.frontend.kinds import kind_of
from symdiff.core import types as t

try:
    import array_oracles as oracles
except ImportError:
    from tests import array_oracles as oracles

RNG = np.random.default_rng(20261202)


def normal(*shape, dtype=np.float64):
    return RNG.normal(size=shape).astype(dtype)


def numerical_vjp(f, args, i, direction, eps):
    """The directional derivative of ``f`` along ``direction`` in its ``i``-th argument."""
    def at(step):
        moved = list(args)
        moved[i] = args[i] + step * direction
        return float(f(*moved))
    return (at(eps) - at(-eps)) / (2 * eps)


def check_gradient(f, args, wrt, optimize=True, directions=3):
    """``grad(f, wrt)`` at ``args`` against central differences: its shape and dtype, its
    product with random directions, and each element of it."""
    names = f.__code__.co_varnames[:f.__code__.co_argcount]
    gradient = symdiff.grad(f, wrt=tuple(wrt) if len(wrt) > 1 else wrt[0],
                            optimize=optimize)(*args)
    gradients = gradient if len(wrt) > 1 else (gradient,)
    for name, got in zip(wrt, gradients):
        i = names.index(name)
        arg = args[i]
        single = np.asarray(arg).dtype == np.float32
        eps, tol = (1e-2, 2e-2) if single else (1e-6, 1e-6)
        if isinstance(arg, np.ndarray):
            assert isinstance(got, np.ndarray), (name, type(got))
            assert got.shape == arg.shape and got.dtype == arg.dtype, (name, got.shape, got.dtype)
        for _ in range(directions):
            v = RNG.normal(size=np.shape(arg)).astype(np.asarray(arg).dtype)
            expected = numerical_vjp(f, args, i, v, eps)
            assert np.isclose(np.sum(got * v), expected, rtol=tol, atol=tol), (name, f.__name__)
        for index in np.ndindex(np.shape(arg)):
            unit = np.zeros(np.shape(arg), dtype=np.asarray(arg).dtype)
            unit[index] = 1
            expected = numerical_vjp(f, args, i, unit, eps)
            assert np.isclose(np.asarray(got)[index], expected, rtol=tol, atol=tol), (
                name, index, f.__name__)
    return gradient


# --- the functions ----------------------------------------------------------------------

def logistic(w, X, y):
    return np.mean(np.log1p(np.exp(-y * (X @ w))))


def layer(W, b, X):
    return np.sum(np.tanh(X @ W + b))


def column_offset(c, X):
    return np.sum((X + c) ** 2)


def masked(w, X, y):
    pred = X @ w
    mask = y > 0
    return np.sum(np.where(mask, pred - y, 0.0) ** 2)


def with_a_number(w, s):
    return np.sum(w * s + np.sin(w)) * s


def methods(W):
    return (W * W).sum() + W.T.sum() + W.mean(axis=0).sum()


def along_axes(W, b):
    return np.sum(np.sum(W, axis=0) * b) + np.sum(np.mean(W, axis=1, keepdims=True) * W)


def centered(W):
    m = np.mean(W, axis=1, keepdims=True)
    return np.sum((W - m) ** 2)


def two_layers(W, b, X):
    h = np.tanh(X @ W + b)
    return np.sum(h @ b)


def rectified(w):
    return np.sum(np.maximum(w, 0.0) + np.abs(w))


def ratio(w, b):
    return np.sum(1.0 / (1.0 + np.exp(-w))) / np.sum(b * b)


def recurrence(W, h0, n):
    h = h0
    for _ in range(n):
        h = np.tanh(W @ h)
    return np.sum(h)


def over_rows(w, X):
    s = 0.0
    for row in X:
        s = s + np.sum(row * w) ** 2
    return s


def by_time(W, X):
    h = X[0] * 0.0
    for k in range(X.shape[0]):
        h = np.tanh(W @ h + X[k])
    return np.sum(h)


def columns(X):
    return np.sum(X[:, 0] * X[:, 1]) + np.sum(X[1:, :] ** 2) + X[0, 1] * X[-1, -1]


def stencil(w):
    return np.sum((w[1:] - w[:-1]) ** 2) + np.sum(w[::2])


def picked(X, rows):
    return np.sum(X[rows] ** 2)


def masked_rows(X, keep):
    return np.sum(X[keep] * 2.0)


def outer_by_axes(w, X):
    return np.sum(X * w[None, :]) + np.sum(w[:, None] * w[None, :])


def weights_in_a_dict(params, X):
    h = np.tanh(X @ params["W1"] + params["b1"])
    return np.sum(h @ params["w2"])


def weights_in_a_list(ws, X):
    h = X
    for W in ws:
        h = np.tanh(h @ W)
    return np.sum(h)


def unused(w, b):
    return np.sum(w * w)


def one_branch(w, b, flag):
    if flag > 0:
        z = np.sum(w * b)
    else:
        z = np.sum(w)
    return z


def aliased(x, y, c):
    z = x + y
    return np.sum(z * c) + np.sum(x * x) + np.sum(z * x)


X_DATA, Y_DATA = normal(6, 3), normal(6)  # the module's data, read by the function


def module_data(w):
    return np.mean((X_DATA @ w - Y_DATA) ** 2) + np.sum(Y_DATA * 2.0) * np.sum(w)


def bounded(w):
    return np.sum(np.sqrt(w * w + 1.0) + np.log(w * w + 2.0) + np.clip(w, -0.5, 0.5))


def chained(w):
    return np.exp(w).sum() + (w * 2).mean(0) + np.dot(w, w) + w.dot(w[::-1])


def measured(w, X):
    n, d = X.shape
    return np.sum((X @ w) ** 2) / n + d * np.sum(w) / len(X) + X.shape[0] * w.size


def written(w):
    y = w.copy()
    y[0] = 2.0 * w[1]
    return np.sum(y * y)


def filled(w):
    out = w * 0.0
    for i in range(1, len(w)):
        out[i] = out[i - 1] * 0.5 + w[i] ** 2
    return np.sum(out)


def written_columns(X, w):
    Z = X * 1.0
    Z[:, 0] += w[:4]
    Z[1:, 1] = np.tanh(Z[:-1, 0])
    return np.sum(Z ** 2)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def cross_entropy(w, X, y):
    p = sigmoid(X @ w)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def pairwise(X):
    d = X[:, None, :] - X[None, :, :]
    return np.sum(np.exp(-np.sum(d ** 2, axis=-1)))


def attention(Q, K, V):
    e = np.exp(Q @ K.T / np.sqrt(Q.shape[1]))
    return np.sum(e / np.sum(e, axis=1, keepdims=True) @ V)


def huber(w, X, y, delta=1.0):
    r = X @ w - y
    a = np.abs(r)
    return np.sum(np.where(a <= delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def iterated(w):
    x, k = w, 0
    while k < 3:
        x = np.sin(x) + w
        k += 1
    return np.sum(x * x)


def products(x, X):
    return np.prod(x) + np.sum(np.prod(X, axis=1) * np.arange(1.0, X.shape[0] + 1))


def built_from_numbers(a, b):
    v = np.array([a, b * a, np.sin(b)]) + np.zeros(3)
    return v @ v


X53, W34 = normal(5, 3), normal(3, 4)
CASES = [
    (logistic, (normal(3), X53, np.sign(normal(5))), ["w"]),
    (logistic, (normal(1), normal(7, 1), np.sign(normal(7))), ["w"]),
    (layer, (W34, normal(4), X53), ["W", "b"]),
    (layer, (normal(3, 1), normal(1), normal(2, 3)), ["W", "b"]),
    (column_offset, (normal(5, 1), X53), ["c", "X"]),
    (column_offset, (normal(1, 3), X53), ["c", "X"]),
    (column_offset, (normal(3), X53), ["c"]),
    (masked, (normal(3), X53, normal(5)), ["w"]),
    (with_a_number, (normal(4), 1.5), ["w", "s"]),
    (methods, (W34,), ["W"]),
    (along_axes, (W34, normal(4)), ["W", "b"]),
    (centered, (W34,), ["W"]),
    (two_layers, (normal(3, 3), normal(3), X53), ["W", "b", "X"]),
    (rectified, (normal(6) + 0.01,), ["w"]),
    (ratio, (normal(3), normal(3)), ["w", "b"]),
    (recurrence, (normal(3, 3) / 2, normal(3), 3), ["W", "h0"]),
    (recurrence, (normal(3, 3) / 2, normal(3), 0), ["W", "h0"]),
    (over_rows, (normal(3), X53), ["w", "X"]),
    (by_time, (normal(3, 3) / 2, X53), ["W", "X"]),
    (columns, (normal(4, 3),), ["X"]),
    (stencil, (normal(7),), ["w"]),
    (picked, (X53, np.array([0, 2, 2, 4])), ["X"]),
    (masked_rows, (X53, normal(5) > 0), ["X"]),
    (outer_by_axes, (normal(3), X53), ["w", "X"]),
    (unused, (normal(3), normal(4)), ["w", "b"]),
    (one_branch, (normal(3), normal(3), 1.0), ["w", "b"]),
    (one_branch, (normal(3), normal(3), -1.0), ["w", "b"]),
    (aliased, (normal(3), normal(3), normal(3)), ["x", "y"]),
    (module_data, (normal(3),), ["w"]),
    (bounded, (np.array([0.2, -0.9, 0.7, 0.1]),), ["w"]),
    (chained, (normal(4),), ["w"]),
    (measured, (normal(3), X53), ["w", "X"]),
    (written, (normal(5),), ["w"]),
    (filled, (normal(6),), ["w"]),
    (written_columns, (normal(4, 3), normal(5)), ["X", "w"]),
    (cross_entropy, (normal(3), X53, (normal(5) > 0) * 1.0), ["w"]),
    (pairwise, (normal(4, 2),), ["X"]),
    (attention, (normal(3, 2), normal(4, 2), normal(4, 2)), ["Q", "K", "V"]),
    (huber, (normal(3), X53, 3 * normal(5)), ["w"]),
    (iterated, (normal(3),), ["w"]),
    (products, (np.array([2.0, 0.0, 4.0]), np.array([[1.0, 2.0, 0.0], [3.0, 0.5, 2.0],
                                                    [0.0, 0.0, 1.0]])), ["x", "X"]),
    (products, (np.array([0.0, 0.0, 4.0]), normal(2, 3)), ["x", "X"]),
    (built_from_numbers, (0.3, 0.7), ["a", "b"]),
    (layer, (W34.astype(np.float32), normal(4, dtype=np.float32),
             X53.astype(np.float32)), ["W", "b"]),
]


@pytest.mark.parametrize("optimize", [True, False], ids=["optimized", "raw"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: getattr(c, "__name__", None))
def test_gradient_against_central_differences(case, optimize):
    f, args, wrt = case
    check_gradient(f, args, wrt, optimize)


def test_a_dict_of_weight_arrays_gets_a_dict_of_their_gradients():
    params = {"W1": normal(3, 4), "b1": normal(4), "w2": normal(4)}
    X = normal(5, 3)
    gradient = symdiff.grad(weights_in_a_dict, wrt="params")(params, X)
    assert list(gradient) == list(params)
    for key, value in params.items():
        assert gradient[key].shape == value.shape
        v = normal(*value.shape)
        moved = lambda s: float(weights_in_a_dict({**params, key: value + s * v}, X))  # noqa: E731
        assert np.isclose(np.sum(gradient[key] * v), (moved(1e-6) - moved(-1e-6)) / 2e-6,
                          rtol=1e-6, atol=1e-7)


def test_a_list_of_weight_arrays_gets_a_list_of_their_gradients():
    ws, X = [normal(3, 3) / 2, normal(3, 2)], normal(5, 3)
    gradient = symdiff.grad(weights_in_a_list, wrt="ws")(ws, X)
    assert isinstance(gradient, list) and len(gradient) == 2
    for k, W in enumerate(ws):
        assert gradient[k].shape == W.shape
        v = normal(*W.shape)
        def moved(s):
            return float(weights_in_a_list([w + s * v if j == k else w
                                            for j, w in enumerate(ws)], X))
        assert np.isclose(np.sum(gradient[k] * v), (moved(1e-6) - moved(-1e-6)) / 2e-6,
                          rtol=1e-6, atol=1e-7)


def test_a_new_batch_size_reuses_the_build_and_a_new_kind_builds_another():
    g = symdiff.grad(layer, wrt=("W", "b"))
    W, b = normal(3, 4), normal(4)
    g(W, b, normal(5, 3))
    built = g._last
    g(W, b, normal(11, 3))
    assert g._last is built  # only the batch size changed
    g(W, b, normal(1, 3))  # a batch of one: an axis of size one broadcasts otherwise
    assert g._last is not built


def test_the_modules_arrays_are_read_as_they_are_not_written_as_tuples():
    source = symdiff.source(module_data, normal(3))
    assert "Y_DATA = (" not in source and "Y_DATA: a ndarray" in source


def test_a_write_leaves_the_callers_array_as_it_was():
    w = normal(5)
    before = w.copy()
    symdiff.grad(written)(w)
    assert np.array_equal(w, before)


def test_kinds_of_arrays_are_dtype_ndim_and_unit_axes():
    assert kind_of(np.zeros((4, 1, 3))) == t.Array("float64", 3, (1,))
    assert kind_of(np.zeros(3, dtype=np.float32)) == t.Array("float32", 1, ())
    assert kind_of(np.zeros(3, dtype=np.int64)) == t.Array("int64", 1, ())
    assert kind_of(np.zeros(3, dtype=complex)) is None


def test_the_gradient_reads_as_numpy_a_person_writes():
    source = symdiff.source(layer, W34, normal(4), X53, wrt=("W", "b"))
    assert "dW = X.T @ dadd_result" in source
    assert "db = dadd_result.sum(axis=0)" in source
    assert "np.sum(g" not in source and "g.sum(" not in source and "* 1.0" not in source
    source = symdiff.source(picked, X53, np.array([0, 2, 2]), wrt="X")
    assert "np.add.at(dX, rows, " in source


def test_an_array_returned_is_refused_with_its_location():
    def elementwise(w):
        return np.tanh(w) * np.sum(w)
    with pytest.raises(SymdiffError, match="returns an array"):
        symdiff.grad(elementwise)(normal(3))


def test_a_reduction_takes_a_number_whole_and_refuses_an_axis_of_it():
    """NumPy reduces a number whole (``np.sum(a @ b)`` of two vectors is one): its
    derivative is the number's own; an axis of a number is refused, located."""
    def summed(a):
        return np.sum(a) * 2.0 + np.mean(a * a) + np.max(a) * np.min(3.0 * a) + np.prod(a)

    def of_a_product(x):
        return np.sum(np.tanh(x) @ np.tanh(x)) + np.max(x @ x)

    def along_an_axis(a):
        return np.sum(a, axis=0)
    for a in (0.5, -1.25, 2.0):
        assert not oracles.gradient_failures(summed, (a,), symdiff.grad(summed)(a))
    x = normal(3)
    assert not oracles.gradient_failures(of_a_product, (x,), symdiff.grad(of_a_product)(x))
    with pytest.raises(SymdiffError, match="numpy.sum of float is not supported"):
        symdiff.grad(along_an_axis)(0.5)


def test_a_clip_of_one_bound_is_the_maximum_or_minimum_and_of_none_is_refused_at_the_none():
    """``np.clip(x, lo, None)`` computes ``np.maximum(x, lo)``, ``np.clip(x, None, hi)``
    ``np.minimum(x, hi)`` (their gradients against the tape's); two None bounds are
    refused at the first."""
    def lower_bound(x):
        return np.sum(np.clip(x, 0.1, None) ** 2)

    def upper_bound(x):
        return np.sum(np.clip(x, None, 0.5) ** 2)

    def no_bound(x):
        return np.sum(np.clip(x, None, None) ** 2)
    x = normal(5)
    for fn, made in ((lower_bound, "np.maximum(x, 0.1)"), (upper_bound, "np.minimum(x, 0.5)")):
        gradient = symdiff.grad(fn)
        np.testing.assert_allclose(gradient(x), symdiff.tape.grad(fn)(x), rtol=1e-12)
        assert made in gradient.source
    with pytest.raises(SymdiffError, match="not None") as refused:
        symdiff.grad(no_bound)(x)
    error = refused.value
    assert error.source_line[error.col_offset:].startswith("None, None")


def test_a_sided_stack_of_a_list_by_name_joins_by_its_elements_axes():
    """``np.vstack``, ``np.hstack`` and ``np.column_stack`` of a list a loop fills: of
    vectors and of matrices, and hstack of numbers (their vector); a vertical stack of
    numbers is refused at the call, located, and the way out its hint gives works."""
    def vertical(x):
        parts = []
        for k in range(3):
            parts.append(np.sin(x * (k + 1.0)))
        J = np.vstack(parts)
        return np.sum(J * np.arange(J.size).reshape(J.shape))

    def horizontal(x):
        parts = []
        for k in range(3):
            parts.append(np.sin(x * (k + 1.0)))
        J = np.hstack(parts)
        return np.sum(J * np.arange(J.size).reshape(J.shape))

    def as_columns(x):
        parts = []
        for k in range(3):
            parts.append(np.sin(x * (k + 1.0)))
        J = np.column_stack(parts)
        return np.sum(J * np.arange(J.size).reshape(J.shape))

    def of_numbers(x):
        vals = []
        for k in range(3):
            vals.append(np.sum(x) * (k + 1.0))
        V = np.vstack(vals)
        return np.sum(V ** 2)

    def way_out(x):
        vals = []
        for k in range(3):
            vals.append(np.sum(x) * (k + 1.0))
        V = np.stack(vals)[:, None]
        return np.sum(V ** 2)

    def numbers_side_by_side(x):
        vals = []
        for k in range(3):
            vals.append(np.sum(x) * (k + 1.0))
        return np.sum(np.hstack(vals) ** 2)
    for fn in (vertical, horizontal, as_columns):
        for x in (normal(4), normal(2, 3)):
            assert not oracles.gradient_failures(fn, (x,), symdiff.grad(fn)(x)), fn.__name__
    for fn in (way_out, numbers_side_by_side):
        x = normal(3)
        assert not oracles.gradient_failures(fn, (x,), symdiff.grad(fn)(x))
    with pytest.raises(SymdiffError, match="vstack") as refused:
        symdiff.grad(of_numbers)(normal(3))
    error = refused.value
    assert error.source_line[error.col_offset:].startswith("V = np.vstack(vals)")
    assert "np.stack(xs)[:, None]" in str(error)


def test_an_array_method_without_a_record_is_refused_as_a_method_at_its_place():
    """Of a parameter, of a value the function computes and of an expression alike: the
    message names the method, not an object read without its kinds."""
    def of_a_parameter(x):
        return np.sum(x * x.searchsorted(0.0))

    def of_a_local(x):
        y = np.sin(x)
        return np.sum(x * y.searchsorted(0.0))

    def of_an_expression(x):
        return np.sum(x * (x + 1.0).searchsorted(0.0))
    for fn in (of_a_parameter, of_a_local, of_an_expression):
        with pytest.raises(UnknownFunctionError, match="searchsorted is not a method") as refused:
            symdiff.grad(fn)(normal(3))
        error = refused.value
        assert error.source_line[error.col_offset:].split(".searchsorted")[0] in (
            "x", "y", "(x + 1.0)")
        assert "np.searchsorted" in str(error) and "defgrad" in str(error)


def test_a_number_parameter_of_array_code_gets_floats_back():
    """A float parameter's gradient is a float, and its Hessian and Jacobian entries
    by another number are floats, where the function computes with NumPy in between;
    an entry by an array is an array."""
    def packed(a, b):
        v = np.array([a, b])
        return np.sum(v ** 2) * a

    def mixed(x, s):
        return np.sum(x * s) * s
    a, b = 0.7, -1.3
    gradient = symdiff.grad(packed)(a, b)
    assert all(type(g) is float for g in gradient)
    assert not oracles.gradient_failures(packed, (a, b), gradient)
    hessian = symdiff.hessian(packed)(a, b)
    assert all(type(h) is float for row in hessian for h in row)
    expected = ((6 * a, 2 * b), (2 * b, 2 * a))
    assert np.allclose(hessian, expected, rtol=1e-12)
    assert all(type(j) is float for j in symdiff.jacobian(packed)(a, b))
    x = normal(3)
    (hxx, hxs), (hsx, hss) = symdiff.hessian(mixed)(x, 0.5)
    assert type(hss) is float and np.isclose(hss, 2 * np.sum(x))
    assert isinstance(hxs, np.ndarray) and np.allclose(hxs, 2 * 0.5 * np.ones(3))
    assert hxx.shape == (3, 3) and not np.any(hxx)


def test_forward_mode_takes_array_code():
    """``jvp`` of array code is built per kind of the arguments, as ``grad`` is: its
    tangent is the gradient along the direction (``test_forward_arrays`` runs the
    corpus)."""
    rng = np.random.default_rng(3)
    point = [rng.standard_normal(shape) for shape in ((3, 2), (2,), (5, 3))]
    directions = [rng.standard_normal(np.shape(p)) for p in point]
    value, tangent = symdiff.jvp(layer)(*point, *directions)
    gradient = symdiff.grad(layer)(*point)
    assert value == pytest.approx(layer(*point))
    assert tangent == pytest.approx(sum(np.sum(g * v) for g, v in zip(gradient, directions)))


def test_integer_arrays_are_read_never_differentiated():
    rows = np.array([0, 1, 1])
    dX, drows = symdiff.grad(picked)(X53, rows)
    assert drows.shape == rows.shape and not np.any(drows)
    assert np.allclose(dX[1], 4 * X53[1])


def test_a_float32_gradient_through_selections_stays_float32():
    """A ReLU, a clip, an elementwise maximum or minimum of float32 arrays: the mask of
    their derivative multiplies the adjoint as it is (``g * (x >= 0)``), so the gradient
    is float32, the float64 one's numbers rounded."""
    def relu(x):
        return np.sum(np.maximum(x, 0.0) ** 2)

    def clipped(x):
        return np.sum(np.clip(x, -0.5, 0.5) * x)

    def smaller(x, y):
        return np.sum(np.minimum(x, y) * np.maximum(y, 0.25 * x))
    x = np.array([-1.5, -0.25, 0.3, 0.75, 2.0], dtype=np.float32)
    y = np.array([0.5, -1.0, 0.1, 1.5, -0.3], dtype=np.float32)
    for fn, args in ((relu, (x,)), (clipped, (x,)), (smaller, (x, y))):
        wrt = ("x", "y")[:len(args)]
        found = symdiff.grad(fn, wrt=wrt)(*args)
        wide = symdiff.grad(fn, wrt=wrt)(*(a.astype(np.float64) for a in args))
        for mine, theirs in zip(found, wide):
            assert mine.dtype == np.float32, fn.__name__
            np.testing.assert_allclose(mine, theirs, rtol=1e-6, atol=1e-6)
        wide_args = tuple(a.astype(np.float64) for a in args)
        assert not oracles.gradient_failures(fn, wide_args, wide, wrt=wrt)


def test_a_concatenation_of_no_axis_joins_the_arrays_flat():
    """``np.concatenate([a, b], axis=None)`` (or ``None`` by position) joins the arrays
    read flat, as NumPy does: against central differences and, read again, the Hessian
    times v against differences of the gradient."""
    def by_keyword(a, b):
        return np.sum(np.concatenate([a, b], axis=None) ** 2 * np.arange(a.size + b.size))

    def by_position(a, b):
        return np.sum(np.sin(np.concatenate((a, b), None)))
    a, b = normal(2, 2), normal(3)
    for fn in (by_keyword, by_position):
        gradient = symdiff.grad(fn, wrt=("a", "b"))
        assert not oracles.gradient_failures(fn, (a, b), gradient(a, b), wrt=("a", "b"))
        va, vb = normal(2, 2), normal(3)
        product = symdiff.hvp(fn, wrt=("a", "b"))(a, b, va, vb)
        h = 1e-5
        ahead, behind = gradient(a + h * va, b + h * vb), gradient(a - h * va, b - h * vb)
        for got, plus, minus in zip(product, ahead, behind):
            np.testing.assert_allclose(got, (plus - minus) / (2 * h), rtol=1e-5, atol=1e-6)
