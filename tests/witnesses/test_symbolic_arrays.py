"""The sympy witness on NumPy arrays: a symbol per element, NumPy's semantics (views,
in-place operators, broadcasting, masks decided at the point), ties of a maximum shared,
linear algebra by sympy's matrices, and located refusals (too many elements, a NumPy
function it does not read).  Every gradient is checked against finite differences along
random directions and element by element (``array_oracles``), or against a formula
derived by hand; none against symdiff.
"""

import ast
import pathlib

import numpy as np
import pytest

import symdiff
from symdiff.witnesses.symbolic import MAX_ELEMENTS, evaluate_grad, symbolic_grad

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles

RNG = np.random.default_rng(25)
WITNESS = pathlib.Path(symdiff.__file__).parent / "witnesses" / "symbolic"


def agrees(fn, point, wrt=None, kinky=False):
    gradient = evaluate_grad(fn, point, wrt=wrt)
    failures = oracles.gradient_failures(fn, point, gradient, wrt, kinky, seed=fn.__name__)
    assert not failures, "\n".join(failures)
    return gradient


def test_a_symbol_per_element_named_by_its_index():
    def f(W):
        return np.sum(W ** 2)
    grad = symbolic_grad(f, at=(np.ones((2, 3)),))
    assert grad.shape == (2, 3)
    assert [str(e) for e in grad.flat] == [f"2*W_{i}_{j}" for i in range(2) for j in range(3)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_gradient_has_the_parameters_shape_and_dtype(dtype):
    def f(W, b, X):
        return np.sum(np.tanh(X @ W + b))
    point = (RNG.standard_normal((3, 2)).astype(dtype), RNG.standard_normal(2).astype(dtype),
             RNG.standard_normal((4, 3)).astype(dtype))
    dW, db = agrees(f, point, wrt=("W", "b"))
    assert (dW.shape, dW.dtype, db.shape, db.dtype) == ((3, 2), dtype, (2,), dtype)


def test_a_write_through_a_view_changes_the_array():
    def f(x):
        y = x.copy()
        row = y[0]
        row[1] = 3.0 * x[0, 0]  # y[0, 1] too, as in NumPy
        return np.sum(y ** 2) + np.sum(x[:, 0] * y[:, 1])
    agrees(f, (RNG.standard_normal((2, 3)),))


def test_an_in_place_operator_changes_every_name_of_the_array():
    def f(x):
        y = x * 1.0
        z = y
        z *= x
        z[1:] += x[:-1]
        return np.sum(y * x)
    x = RNG.standard_normal(4)
    g = agrees(f, (x,))
    y = x * x
    y[1:] += x[:-1]  # d/dx of sum(y * x) by hand
    expected = y + 2.0 * x * x
    expected[:-1] += x[1:]
    assert np.allclose(g, expected)


def test_broadcasting_indexing_and_masks_from_the_values():
    def f(X, b):
        Z = X + b[None, :]
        Z = np.where(Z > 0.0, Z, 0.1 * Z)
        picked = Z[np.array([0, 2, 0]), 1]
        return np.sum(picked ** 2) + np.sum(Z[..., ::-1][:, 0]) + np.sum(X[X > 0.5])
    agrees(f, (RNG.standard_normal((3, 2)), RNG.standard_normal(2)), kinky=True)


def test_a_tied_maximum_shares_the_gradient():
    def f(x):
        return np.max(x)
    g = evaluate_grad(f, (np.array([0.3, 1.2, -0.5, 1.2]),))
    assert np.array_equal(g, [0.0, 0.5, 0.0, 0.5])


def test_maxima_along_an_axis_kept():
    def f(X):
        return np.sum(X - X.max(axis=1, keepdims=True) * np.min(X, axis=0))
    agrees(f, (RNG.standard_normal((3, 4)),), kinky=True)


def test_reductions_by_their_formulas():
    def f(X):
        return (np.sum(np.var(X, axis=0)) + X.std(ddof=1) + np.linalg.norm(X, axis=1).sum()
                + np.prod(X[0]) + np.sum(np.cumsum(X, axis=1) * np.diff(X, axis=0)[0]))
    agrees(f, (RNG.standard_normal((3, 3)),))


def test_linear_algebra_against_formulas():
    def det(A):
        return np.linalg.det(A)

    def log_det(A):
        sign, value = np.linalg.slogdet(A)
        return value

    def solved(A, b):
        x = np.linalg.solve(A, b)
        return x @ x

    def whitened(K):
        return np.sum(np.linalg.cholesky(K @ K.T + np.eye(3)))
    A = 2.0 * np.eye(3) + 0.3 * RNG.standard_normal((3, 3))
    b = RNG.standard_normal(3)
    assert np.allclose(evaluate_grad(det, (A,)), np.linalg.det(A) * np.linalg.inv(A).T)
    assert np.allclose(evaluate_grad(log_det, (A,)), np.linalg.inv(A).T)
    x = np.linalg.solve(A, b)
    db = np.linalg.solve(A.T, 2.0 * x)
    dA, db_found = evaluate_grad(solved, (A, b))
    assert np.allclose(dA, -np.outer(db, x)) and np.allclose(db_found, db)
    agrees(whitened, (A,))


def test_too_many_elements_are_refused_located():
    def f(x):
        return np.sum(x ** 2)
    with pytest.raises(symdiff.SymdiffError) as caught:
        evaluate_grad(f, (np.ones(MAX_ELEMENTS + 1),))
    assert caught.value.lineno is not None and str(MAX_ELEMENTS) in caught.value.message


def test_a_numpy_function_it_does_not_read_is_refused_by_name():
    def f(x):
        return np.sum(np.partition(x, 1) * np.arange(3))
    with pytest.raises(symdiff.UnknownFunctionError) as caught:
        evaluate_grad(f, (np.array([0.3, -1.0, 2.0]),))
    assert "np.partition" in caught.value.message and caught.value.lineno is not None


def test_the_array_modules_import_no_stage():
    """Within symdiff, the witness's array modules import the witness and the errors."""
    for name in ("arrays.py", "numpy_calls.py", "arguments.py", "values.py"):
        tree = ast.parse((WITNESS / name).read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
        ours = {m for m in imported if m.split(".")[0] == "symdiff"}
        assert all(m == "symdiff.errors" or m.startswith("symdiff.witnesses.symbolic.")
                   for m in ours), (name, ours)


def test_code_written_for_autograd_is_read_as_numpy():
    anp = pytest.importorskip("autograd.numpy")

    def f(W, x):
        return anp.sum(anp.tanh(W @ x) ** 2) + anp.max(x) * anp.linalg.det(W)
    agrees(f, (2.0 * np.eye(2) + 0.3 * RNG.standard_normal((2, 2)), RNG.standard_normal(2)))

    def scalar(x):
        return anp.tanh(x) * 2.0 + anp.maximum(x, 0.5)
    assert np.isclose(evaluate_grad(scalar, 0.3), 2.0 * (1.0 - np.tanh(0.3) ** 2))
