"""The array records of ``array_reductions``, ``array_linalg`` and ``array_shapes``,
through ``symdiff.grad`` on small functions that use them.

Each gradient is checked as autograd's ``check_vjp`` does: for a random direction ``v``
(seeded), ``<grad, v>`` against ``d/dt f(x + t v)`` at 0 by a five-point central
difference of the function itself, run by NumPy.  The float32 build of each function is
checked to give gradients of float32 close to the float64 build's.  Where finite
differences cannot decide (ties of ``max``, the norm at the origin) the convention is
checked against a NumPy formula of it.  A refused form is a located ``SymdiffError``.
"""

import inspect

import numpy as np
import pytest
import scipy.special as sp
from scipy.special import logsumexp

import symdiff
from symdiff import grad
from symdiff.errors import InternalError, SymdiffError

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles


def _gradients(f, args, wrt):
    got = grad(f, wrt=wrt if len(wrt) > 1 else wrt[0])(*args)
    return got if len(wrt) > 1 else (got,)


def check_vjp(f, args, rng):
    params = list(inspect.signature(f).parameters)
    wrt = tuple(p for p, a in zip(params, args) if isinstance(a, (np.ndarray, float)))
    got = _gradients(f, args, wrt)
    oracles.assert_along_directions(f, args, params, wrt, got, rng,
                                    1.0 + abs(float(f(*args))))
    return got


# --- the functions (each uses the records under test) ------------------------------------

def max_all(x):
    return np.max(x) * np.min(x)


def max_axis(x):
    return np.sum(np.max(x, axis=0) ** 2) + np.sum(np.amin(x, axis=-1) * 3.0)


def max_keep(x):
    return np.sum(x.max(axis=1, keepdims=True) * x) + np.sum(x.min(axis=0, keepdims=True))


def prod_all(x):
    return np.prod(x) * 2.0 + np.linalg.norm(x) * logsumexp(x) + np.var(x) * np.std(x)


def prod_axes(x):
    return np.prod(x) + np.sum(np.prod(x, axis=0) ** 2) + np.sum(x.prod(axis=-1,
                                                                       keepdims=True) * x)


def moments(x):
    return np.var(x) + np.sum(np.std(x, axis=0) ** 3) + np.sum(x.var(axis=-1, ddof=1)) + (
        np.sum(x.std(axis=0, keepdims=True, ddof=1) * x))


def norms(x):
    return np.linalg.norm(x) + np.sum(np.linalg.norm(x, axis=0) ** 3) + np.sum(
        np.linalg.norm(x, axis=-1, keepdims=True) * x)


def softmaxes(x):
    return logsumexp(x) + np.sum(sp.logsumexp(x, axis=0) ** 2) + np.sum(
        logsumexp(x, axis=-1, keepdims=True) * x)


def cumulative(x):
    return np.sum(np.cumsum(x) ** 2) + np.sum(np.cumsum(x, axis=0) ** 3) + np.sum(
        x.cumsum(axis=-1) * x)


def differences(x):
    return np.sum(np.diff(x) ** 2) + np.sum(np.diff(x, axis=0) ** 3)


def difference(x):
    return np.sum(np.diff(x) ** 3)


def traced(a):
    return np.trace(a @ a.T) + a.trace() ** 2


def dots(a, x):
    return np.sum(np.dot(a, x) ** 2) + np.sum(np.dot(a, 2.5) * a) + np.sum(
        np.dot(1.5, x) ** 3) + np.dot(x, x)


def outers(x, y):
    return np.sum(np.outer(x, y) ** 3) + np.sum(np.outer(y, x) * np.outer(y, x))


def outers_flat(a, t):
    """NumPy's outer reads arrays of more axes flat."""
    return np.sum(np.outer(a, t) ** 3) + np.sum(np.sin(np.outer(t, a[0])))


def krons(a, b, x, y):
    return np.sum(np.kron(a, b) ** 3) + np.sum(np.kron(x, y) ** 3)


def inners(a, b, x):
    return np.sum(np.inner(a, b) ** 2) + np.sum(np.inner(a, x) ** 3) + np.sum(
        np.inner(x, b) ** 2) + np.inner(x, x)


def einsums(a, b, x):
    return (np.sum(np.einsum("ij,kj->ik", a, b) ** 2) + np.einsum("ij->", a)
            + np.sum(np.einsum("ij->ji", a) @ a) + np.einsum("ij,ij", a, a)
            + np.sum(np.einsum("ij,k->ik", a, x) ** 3) + np.sum(np.einsum("ij", b) ** 3)
            + np.sum(np.einsum("ij,kj", a, b) ** 2))


def solves(a, x, b):
    return np.sum(np.linalg.solve(a, x) ** 2) + np.sum(np.linalg.solve(a, b) ** 3)


def inverses(a):
    return np.sum(np.linalg.inv(a) ** 2) + np.linalg.det(a) ** 2 + np.log(
        np.abs(np.linalg.det(a)))


def log_determinant(a):
    sign, logdet = np.linalg.slogdet(a)
    return logdet * 2.0 + sign * np.sum(a)


def cholesky_factor(a):
    factor = np.linalg.cholesky(a @ a.T + a)
    return np.sum(factor ** 3) + np.sum(np.linalg.cholesky(a) * a)


def reshapes(a):
    n = a.shape[0]
    return (np.sum(a.reshape(-1) ** 3) + np.sum(np.reshape(a, (n, 2, -1)) ** 2 * 1.5)
            + np.sum(a.reshape(a.shape[1], n) ** 3) + np.sum(np.ravel(a) * a.flatten()))


def shaped_as(a, b):
    return (np.sum(a.reshape(b.shape) * b) + np.sum(np.reshape(b, a.shape) ** 3)
            + np.sum(np.zeros(a.shape) + a * np.ones(a.shape)) + np.sum(np.full(b.shape, 2.0)
                                                                         * b ** 3))


def axes_moved(t):
    return (np.sum(np.transpose(t, (2, 0, 1)) ** 3 * np.arange(t.size).reshape(4, 2, 3))
            + np.sum(t.transpose(1, 0, 2) ** 3) + np.sum(np.expand_dims(t, 1) ** 3)
            + np.sum(np.squeeze(np.expand_dims(t, axis=-1), axis=-1) ** 2))


def joins(a, b, x, y):
    return (np.sum(np.concatenate([a, b], axis=1) ** 3) + np.sum(np.concatenate((a, a)) ** 3)
            + np.sum(np.stack([x, y], axis=1) ** 3) + np.sum(np.stack([a, a, a]) ** 3)
            + np.sum(np.vstack([x, y, x]) ** 3) + np.sum(np.hstack([a, b]) ** 3)
            + np.sum(np.hstack([x, y]) ** 3) + np.sum(np.vstack([a, a]) ** 3))


def built(x, s):
    return np.sum(np.array([s, s * s, 2.0]) ** 3) + np.sum(np.array([x, x * s]) ** 3) + (
        np.sum(np.asarray(x) ** 3))


def constants(x, s):
    n = x.shape[0]
    return (np.sum(x * np.zeros(n) + x * np.ones((n,)) * np.full((n,), s)) +
            np.sum(np.full_like(x, s) * x + np.zeros_like(x) + np.ones_like(x))
            + np.sum(np.eye(n) @ x ** 3) + np.sum(np.eye(n, n) @ x) + np.sum(
                np.linspace(s, 2.0, n) * x) + np.sum(np.arange(n) * x) + np.sum(
                np.arange(1, n + 1) * x ** 2) + np.sum(np.arange(0.0, n, 1.0) * x ** 3))


def _matrix(rng, n, dtype=np.float64):
    return (rng.normal(size=(n, n)) + n * np.eye(n)).astype(dtype)


def _cases(rng):
    """(function, arguments) of every case, the arguments drawn from ``rng``."""
    normal = rng.normal
    cases = []
    for shape in ((5,), (3, 4), (1, 4), (4, 1)):
        x = normal(size=shape)
        cases += [(max_all, (x,)), (prod_all, (x,)), (cumulative, (x,))]
        if len(shape) == 2:
            cases += [(max_axis, (x,)), (max_keep, (x,)), (prod_axes, (x,)), (norms, (x,)),
                      (softmaxes, (x,))]
        if len(shape) == 2 and min(shape) > 1:
            cases += [(differences, (x,)), (moments, (x,))]
    cases.append((difference, (normal(size=6),)))
    cases += [(traced, (normal(size=(3, 4)),)), (traced, (normal(size=(2, 2)),)),
              (dots, (normal(size=(3, 4)), normal(size=4))),
              (outers, (normal(size=3), normal(size=4))),
              (krons, (normal(size=(2, 3)), normal(size=(4, 2)), normal(size=3),
                       normal(size=2))),
              (inners, (normal(size=(3, 4)), normal(size=(2, 4)), normal(size=4))),
              (einsums, (normal(size=(3, 4)), normal(size=(2, 4)), normal(size=5))),
              (solves, (_matrix(rng, 3), normal(size=3), normal(size=(3, 2)))),
              (inverses, (_matrix(rng, 3),)), (log_determinant, (_matrix(rng, 4),)),
              (cholesky_factor, (_matrix(rng, 4) + 4.0 * np.eye(4),)),
              (reshapes, (normal(size=(4, 6)),)),
              (axes_moved, (normal(size=(2, 3, 4)),)),
              (shaped_as, (normal(size=(2, 6)), normal(size=(4, 3)))),
              (joins, (normal(size=(3, 2)), normal(size=(3, 4)), normal(size=5),
                       normal(size=5))),
              (built, (normal(size=4), float(normal()))),
              (constants, (normal(size=4), float(normal())))]
    flat = np.random.default_rng(20261204)
    cases += [(outers_flat, (flat.normal(size=(2, 3)), flat.normal(size=(2, 2, 1))))]
    return cases


_CASES = _cases(np.random.default_rng(20261202))


@pytest.mark.parametrize("case", range(len(_CASES)))
def test_vjp_against_finite_differences(case):
    f, args = _CASES[case]
    check_vjp(f, args, np.random.default_rng(case))


@pytest.mark.parametrize("case", range(len(_CASES)))
def test_float32_gradients_are_float32_and_agree(case):
    f, args = _CASES[case]
    params = list(inspect.signature(f).parameters)
    wrt = tuple(p for p, a in zip(params, args) if isinstance(a, np.ndarray))
    narrowed = tuple(a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in args)
    if np.asarray(f(*narrowed)).dtype != np.float32:
        pytest.skip("NumPy computes this function in float64 (np.dot with a number, an "
                    "int array)")
    wide = _gradients(f, args, wrt)
    narrow = _gradients(f, narrowed, wrt)
    for low, high in zip(narrow, wide):
        assert low.dtype == np.float32
        np.testing.assert_allclose(low, high, rtol=2e-3, atol=2e-3 * np.max(np.abs(high)))


def test_a_new_size_reuses_the_build():
    rng = np.random.default_rng(3)
    g = grad(max_axis)
    g(rng.normal(size=(3, 4)))
    first = g.source
    check_vjp(max_axis, (rng.normal(size=(6, 2)),), rng)
    assert g(rng.normal(size=(6, 2))).shape == (6, 2) and g.source == first


# --- conventions where finite differences cannot decide ----------------------------------

def max_sum(x):
    return np.max(x, axis=1).sum()


def test_ties_share_the_gradient_equally():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 2, size=(6, 4)).astype(float)  # many ties
    mask = x == x.max(axis=1, keepdims=True)
    np.testing.assert_array_equal(grad(max_sum)(x), mask / mask.sum(axis=1, keepdims=True))
    flat = np.repeat(rng.normal(size=1), 5)
    np.testing.assert_array_equal(grad(max_all)(flat), np.full(5, 2 * flat[0] / 5))


def norm_only(x):
    return np.linalg.norm(x) + np.sum(np.linalg.norm(x, axis=1))


def test_norm_at_the_origin_is_zero():
    gradient = grad(norm_only)(np.zeros((3, 2)))
    np.testing.assert_array_equal(gradient, np.zeros((3, 2)))


def maximum_sum(x, y):
    return np.sum(np.maximum(x, y))


def test_elementwise_maximum_ties_as_the_scalar_max():
    """``np.maximum`` on arrays gives a tie to its first argument, as ``max`` of numbers
    does (the scalar build is the witness)."""
    rng = np.random.default_rng(6)
    x = rng.normal(size=5)
    y = np.where(rng.random(5) < 0.5, x, rng.normal(size=5))
    dx, dy = grad(maximum_sum)(x, y)
    for i in range(5):
        expected = grad(lambda_free_max)(float(x[i]), float(y[i]))
        assert (dx[i], dy[i]) == expected


def lambda_free_max(a, b):
    return max(a, b)


# --- readable NumPy ------------------------------------------------------------------------

def layer(w, x):
    return np.sum(np.outer(w, x) ** 2) + np.sum(np.concatenate([w, x]) ** 2)


def test_generated_code_reads_as_numpy():
    g = grad(layer)
    rng = np.random.default_rng(7)
    g(rng.normal(size=3), rng.normal(size=2))
    assert "@ x" in g.source and "w @ " in g.source
    assert "[:w.shape[0]]" in g.source and "import numpy as np" in g.source


# --- refusals ------------------------------------------------------------------------------

def axis_variable(x, k):
    return np.sum(np.max(x, axis=k))


def trace_vector(x):
    return np.trace(x)


def dot_3d(t, a):
    return np.sum(np.dot(t, a))


def norm_ord(x):
    return np.linalg.norm(x, ord=1)


def diff_twice(x):
    return np.sum(np.diff(x, n=2))


def concatenate_of_numbers(x):
    xs = [x[0], x[1]]
    return np.sum(np.concatenate(xs))


def var_ddof_variable(x, d):
    return np.var(x, ddof=int(d))


def logsumexp_weights(x):
    return logsumexp(x, b=x)


def solve_vector(x):
    return np.sum(np.linalg.solve(x, x))


def transpose_repeated(t):
    return np.sum(np.transpose(t, (0, 0, 1)))


def shape_in_a_name(x):
    shape = x.shape
    return np.sum(np.zeros(shape) + x)


_REFUSED = [(axis_variable, ("m", 1)), (trace_vector, ("v",)), (dot_3d, ("t", "m")),
            (norm_ord, ("v",)), (diff_twice, ("v",)),
            (concatenate_of_numbers, ("v",)), (var_ddof_variable, ("v", 1.0)),
            (logsumexp_weights, ("v",)), (solve_vector, ("v",)), (transpose_repeated, ("t",)),
            (shape_in_a_name, ("m",))]


@pytest.mark.parametrize("case", range(len(_REFUSED)))
def test_refused_forms_are_located_errors(case):
    f, kinds = _REFUSED[case]
    rng = np.random.default_rng(case)
    shapes = {"v": (4,), "m": (3, 3), "t": (2, 3, 3)}
    args = [rng.normal(size=shapes[k]) if isinstance(k, str) else k for k in kinds]
    with pytest.raises(SymdiffError) as raised:
        grad(f, wrt=inspect.signature(f).parameters.__iter__().__next__())(*args)
    error = raised.value
    assert not isinstance(error, InternalError)
    assert error.filename == __file__ and error.lineno is not None
    first, last = f.__code__.co_firstlineno, f.__code__.co_firstlineno + 3
    assert first <= error.lineno <= last


def test_unknown_linalg_function_is_refused_by_name():
    def uses_eig(a):
        return np.sum(np.linalg.eigvals(a))
    with pytest.raises(symdiff.SymdiffError, match="eigvals"):
        grad(uses_eig)(np.eye(3))
