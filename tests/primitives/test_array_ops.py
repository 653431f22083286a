"""Array operations NumPy code writes beyond the first records: masks combined (``&``,
``|``, ``~``), reductions over a tuple of axes, ``squeeze`` with no axis, ``np.diag``,
``einsum`` of a diagonal and of up to four operands, ``@`` of a stack of matrices,
casts (``np.float32(x)``), ``...`` in an index, through ``symdiff.grad`` on small functions that use them.

Each gradient is checked against the tape witness (``symdiff.tape.grad``, which runs
the unchanged function on its own array values) and, along seeded random directions,
against a five-point central difference of the function run by NumPy.  A refused form
is a located ``SymdiffError``.
"""

import inspect

import numpy as np
import pytest

import symdiff
import symdiff.tape
from symdiff import grad
from symdiff.errors import UnsupportedSyntaxError

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles


def _as_tuple(got, wrt):
    return got if len(wrt) > 1 else (got,)


def check(f, args, wrt, seed=0):
    """symdiff's gradient by ``wrt`` at ``args``: the tape's, and finite differences'."""
    rng = np.random.default_rng(seed)
    params = list(inspect.signature(f).parameters)
    chosen = wrt if len(wrt) > 1 else wrt[0]
    got = _as_tuple(grad(f, wrt=chosen)(*args), wrt)
    tape = _as_tuple(symdiff.tape.grad(f, wrt=chosen)(*args), wrt)
    scale = 1.0 + abs(float(f(*args)))
    for name, gradient, witness in zip(wrt, got, tape):
        index = params.index(name)
        assert np.shape(gradient) == np.shape(args[index]), name
        assert np.allclose(gradient, witness, rtol=1e-9, atol=1e-12), (name, gradient, witness)
        for _ in range(2):
            v = rng.normal(size=np.shape(args[index]))
            expected = oracles.directional(f, args, index, v)
            assert float(np.sum(gradient * v)) == pytest.approx(
                expected, rel=1e-6, abs=1e-7 * scale), name
    return got


# --- masks ----------------------------------------------------------------------------

def masks_combined(x, y):
    both = (x > 0.0) & (y < 0.5)
    either = (x < -0.5) | (y > 1.0)
    return np.sum(np.where(both, x * y, 0.0)) + np.sum(np.where(either & ~both, y ** 2, x))


def outside_a_mask(x, m):
    return np.sum(x[~m] ** 2) + np.sum(np.where(m | (x > 1.0), x, 0.0))


MASK_POINTS = [
    (masks_combined, (np.array([0.5, -1.0, 2.0, 0.3]), np.array([0.1, 2.0, 0.3, 0.9])), ("x", "y")),
    (masks_combined, (np.array([[0.5, -1.0], [2.0, -0.7]]), np.array([0.1, 2.0])), ("x", "y")),
    (outside_a_mask, (np.array([0.5, -1.0, 2.0]), np.array([True, False, False])), ("x",)),
]


@pytest.mark.parametrize("f, args, wrt", MASK_POINTS)
def test_masks_combined(f, args, wrt):
    check(f, args, wrt)


def test_a_mask_has_no_adjoint_and_is_computed_as_written():
    source = symdiff.source(masks_combined, *MASK_POINTS[0][1])
    assert "both = (x > 0.0) & (y < 0.5)" in source
    assert "dboth" not in source and "deither" not in source


def bits_of_numbers(x):
    return x & 1


def inverted_number(x):
    return ~x


@pytest.mark.parametrize("f", [bits_of_numbers, inverted_number])
def test_bit_operators_of_numbers_are_refused_located(f):
    with pytest.raises(UnsupportedSyntaxError) as caught:
        grad(f)(3.0)
    assert caught.value.lineno == inspect.getsourcelines(f)[1] + 1


def floats_anded(x, y):
    return np.sum(np.where(x & y, x, y))


def test_a_mask_operator_of_floats_is_refused_located():
    with pytest.raises(symdiff.SymdiffError) as caught:
        grad(floats_anded)(np.ones(2), np.ones(2))
    assert caught.value.lineno == inspect.getsourcelines(floats_anded)[1] + 1


# --- reductions over a tuple of axes ---------------------------------------------------

def over_axes(A):
    m = np.mean(A, axis=(0, 2))
    s = np.sum(A ** 2, axis=(1, -1), keepdims=True)
    return np.sum(m ** 2) + np.sum(np.sin(s)) + np.sum(np.max(A, axis=(0, -1)) * np.prod(
        A, axis=(2, 0)))


def moments_over_axes(A):
    return np.sum(np.var(A, axis=(0, 1)) + np.std(A, axis=(1, 2), keepdims=True) ** 3)


AXES = np.random.default_rng(3).normal(size=(2, 3, 4))


@pytest.mark.parametrize("f", [over_axes, moments_over_axes])
@pytest.mark.parametrize("A", [AXES, AXES[:1], AXES.astype(np.float64)[:, :2, :1]])
def test_reductions_over_a_tuple_of_axes(f, A):
    check(f, (A,), ("A",))


def test_a_mean_over_axes_divides_by_their_sizes():
    source = symdiff.source(over_axes, AXES)
    assert "/ (A.shape[0] * A.shape[2])" in source


def axes_named_twice(A):
    return np.sum(A, axis=(0, 0))


def axes_not_constant(A, k):
    return np.sum(np.sum(A, axis=(0, k)))


@pytest.mark.parametrize("f, args", [(axes_named_twice, (AXES,)), (axes_not_constant, (AXES, 1))])
def test_axes_not_written_as_distinct_constants_are_refused_located(f, args):
    with pytest.raises(symdiff.SymdiffError) as caught:
        grad(f, wrt="A")(*args)
    assert caught.value.lineno == inspect.getsourcelines(f)[1] + 1


# --- squeeze with no axis, np.diag ------------------------------------------------------

def squeezed(C):
    return np.sum(np.exp(C.squeeze()) * np.arange(3.0)) + np.sum(np.squeeze(C * C) ** 3)


def squeezed_to_a_number(c):
    return np.squeeze(c) * 2.0 + np.sum(c)


def diagonals(A, v):
    return np.sum(np.diag(A) ** 2) + np.sum(np.diag(v) @ A) + np.sum(np.exp(np.diag(A.T @ A)))


RNG = np.random.default_rng(5)
SHAPE_POINTS = [
    (squeezed, (RNG.normal(size=(3, 1)),), ("C",)),
    (squeezed, (RNG.normal(size=(1, 3, 1)),), ("C",)),
    (squeezed_to_a_number, (RNG.normal(size=(1, 1)),), ("c",)),
    (diagonals, (RNG.normal(size=(3, 3)), RNG.normal(size=3)), ("A", "v")),
    (diagonals, (RNG.normal(size=(1, 1)), RNG.normal(size=1)), ("A", "v")),
]


@pytest.mark.parametrize("f, args, wrt", SHAPE_POINTS)
def test_squeeze_and_diag(f, args, wrt):
    check(f, args, wrt)


def diagonal_of_a_rectangle(A):
    return np.sum(np.exp(np.diag(A)))


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (1, 4)])
def test_the_diagonal_of_a_matrix_that_is_not_square(shape):
    check(diagonal_of_a_rectangle, (RNG.normal(size=shape),), ("A",))


def test_squeeze_with_no_axis_takes_out_the_axes_of_size_one():
    source = symdiff.source(squeezed, SHAPE_POINTS[1][1][0])
    assert ".reshape(C.shape)" in source
    assert symdiff.source(diagonals, *SHAPE_POINTS[3][1]).count("np.diag(") >= 3


# --- einsum: a letter twice in one operand, up to four operands ---------------------------

def traces(A, B):
    return np.einsum("ii", A) * np.einsum("ii->", A @ B) + np.sum(np.einsum("ii->i", A) ** 3)


def chained(a, B, C, d):
    return np.einsum("i,ij,jk,k->", a, B, C, d) + np.sum(np.einsum("ij,jk,kl->il", B, C, C.T))


def diagonal_blocks(T):
    return np.sum(np.einsum("iij->j", T) ** 2)


EINSUM_POINTS = [
    (traces, (RNG.normal(size=(3, 3)), RNG.normal(size=(3, 3))), ("A", "B")),
    (traces, (RNG.normal(size=(1, 1)), RNG.normal(size=(1, 1))), ("A", "B")),
    (chained, (RNG.normal(size=2), RNG.normal(size=(2, 3)), RNG.normal(size=(3, 4)),
               RNG.normal(size=4)), ("a", "B", "C", "d")),
    (diagonal_blocks, (RNG.normal(size=(2, 2, 3)),), ("T",)),
]


@pytest.mark.parametrize("f, args, wrt", EINSUM_POINTS)
def test_einsum_of_diagonals_and_of_many_operands(f, args, wrt):
    check(f, args, wrt)


def test_the_trace_by_einsum_gives_back_an_identity():
    assert "np.eye(A.shape[1], dtype=A.dtype)" in symdiff.source(traces, *EINSUM_POINTS[0][1])


# --- @ of a stack of matrices -----------------------------------------------------------

def stacked_product(A, B):
    return np.sum(np.sin(A @ B))


@pytest.mark.parametrize("shapes", [((3, 2, 4), (4,)), ((1, 3, 3), (3,)), ((2, 2, 2), (2, 1)),
                                    ((2, 5, 3, 4), (4, 2)), ((3, 4), (2, 4, 5)),
                                    ((4,), (2, 4, 5)), ((2, 3, 4), (2, 4, 5)),
                                    ((1, 3, 4), (1, 4, 1)), ((4,), (3, 2, 4, 1))], ids=str)
def test_a_stack_of_matrices_times_a_vector_a_matrix_or_a_stack(shapes):
    check(stacked_product, tuple(RNG.normal(size=s) for s in shapes), ("A", "B"))


def stacks_broadcast(A, B):
    return np.sum(A @ B)


def dot_of_a_stack(A, B):
    return np.sum(np.dot(A, B))


@pytest.mark.parametrize("f", [stacks_broadcast, dot_of_a_stack])
def test_a_product_of_stacks_numpy_broadcasts_is_refused_located(f):
    with pytest.raises(symdiff.SymdiffError) as caught:
        grad(f)(np.ones((1, 3, 4)), np.ones((2, 4, 5)))
    assert caught.value.lineno == inspect.getsourcelines(f)[1] + 1


# --- casts ---------------------------------------------------------------------------------

def scaled_in_float32(x):
    return np.sum(x * np.float32(2.0) + x * x)


def cast_down_and_up(x):
    return np.sum(np.float32(x) ** 2) + np.sum(np.float64(x * 0.5))


def test_a_float32_constant_keeps_float32():
    x = RNG.normal(size=4).astype(np.float32)
    got = grad(scaled_in_float32)(x)
    assert got.dtype == np.float32
    assert np.allclose(got, symdiff.tape.grad(scaled_in_float32)(x), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_cast_array_s_gradient_comes_back_in_its_dtype(dtype):
    """(The tape cannot follow ``np.float32(x)`` of its values: finite differences.)"""
    x = RNG.normal(size=(2, 3)).astype(dtype)
    got = grad(cast_down_and_up)(x)
    assert got.dtype == dtype
    assert np.allclose(got, 2.0 * x.astype(np.float32) + 0.5, rtol=1e-6)


# --- ... in an index --------------------------------------------------------------------

def through_an_ellipsis(A):
    return np.sum(A[..., 0] ** 2) + np.sum(A[:, None, 1, :]) + np.sum(A[0, ...] * A[1, ..., :])


@pytest.mark.parametrize("shape", [(3, 2, 2), (2, 4, 3), (2, 2, 1)], ids=str)
def test_an_ellipsis_stands_for_the_axes_left(shape):
    check(through_an_ellipsis, (RNG.normal(size=shape),), ("A",))


def ellipsis_as_a_value(x):
    y = ...
    return x * 2.0 if y is not None else x


def test_an_ellipsis_elsewhere_is_refused_located():
    with pytest.raises(UnsupportedSyntaxError) as caught:
        grad(ellipsis_as_a_value)(1.0)
    assert caught.value.lineno == inspect.getsourcelines(ellipsis_as_a_value)[1] + 1
