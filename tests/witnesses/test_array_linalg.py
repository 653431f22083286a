"""The tape's linear algebra (``symdiff.witnesses.tape.array_linalg``): ``@`` with NumPy's
rules for 1-d operands and broadcast batches, ``dot``, ``inner``, ``outer``, ``einsum``,
transposes, ``diag`` and ``numpy.linalg``, against central finite differences along
random directions."""

import pytest

from symdiff.errors import SymdiffError

from .array_checks import check_vjp

np = pytest.importorskip("numpy")

MATMUL_SHAPES = [((3, 4), (4, 2)), ((4,), (4, 2)), ((3, 4), (4,)), ((4,), (4,)),
                 ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                 ((2, 3, 4), (4,))]


def _pair(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=shapes[0]), rng.normal(size=shapes[1])


@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul(shapes):
    a, b = _pair(shapes)
    check_vjp(lambda a, b: a @ b, (a, b), wrt=(0, 1))
    check_vjp(lambda a, b: np.matmul(a, b), (a, b), wrt=(0,))
    check_vjp(lambda a, b: a @ b, (a, b), wrt=(1,))


@pytest.mark.parametrize("shapes", [((3, 4), (4, 2)), ((4,), (4,)), ((4,), (4, 3)),
                                    ((3, 4), (4,)), ((), (3, 2)), ((3,), ())], ids=str)
def test_dot_and_the_method(shapes):
    a, b = _pair(shapes, 1)
    check_vjp(lambda a, b: np.dot(a, b), (np.asarray(a), np.asarray(b)), wrt=(0, 1))
    if np.ndim(a):
        check_vjp(lambda a, b: a.dot(b), (a, b), wrt=(0, 1))


@pytest.mark.parametrize("shapes", [((4,), (4,)), ((3, 4), (4,)), ((3, 4), (2, 4)),
                                    ((2, 3, 4), (5, 4))], ids=str)
def test_inner(shapes):
    check_vjp(lambda a, b: np.inner(a, b), _pair(shapes, 2), wrt=(0, 1))


def test_outer_flattens_its_operands():
    check_vjp(lambda a, b: np.outer(a, b), _pair(((3,), (2, 2)), 3), wrt=(0, 1))


@pytest.mark.parametrize("subscripts, shapes", [
    ("ij,jk->ik", [(3, 4), (4, 2)]),
    ("ij,jk", [(3, 4), (4, 2)]),
    ("i,i->", [(4,), (4,)]),
    ("ij->i", [(3, 4)]),
    ("ij->ji", [(3, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij,k->ijk", [(2, 3), (4,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("ijk->", [(2, 3, 4)]),
    ("ii->", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(3, 3)]),
    ("iij->j", [(2, 2, 3)]),
    ("ij,jj->i", [(2, 3), (3, 3)]),
    ("i,ij,jk,k->i", [(2,), (2, 3), (3, 4), (4,)]),
], ids=lambda x: x if isinstance(x, str) else "")
def test_einsum(subscripts, shapes):
    rng = np.random.default_rng(4)
    args = tuple(rng.normal(size=s) for s in shapes)
    check_vjp(lambda *a: np.einsum(subscripts, *a), args, wrt=tuple(range(len(args))))


def test_einsum_names_the_ellipsis_axes_and_sums_what_it_broadcast():
    """``"...ij,...jk"`` of a stack of one matrix and a stack of three: the gradient of
    the stack of one is the sum over the three (here of ones: ``b``'s row sums)."""
    import symdiff.tape
    a, b = np.ones((1, 2, 3)), np.arange(18.0).reshape(3, 3, 2)

    def f(x):
        return np.sum(np.einsum("...ij,...jk", x, b))
    expected = np.broadcast_to(np.sum(b, axis=(0, 2)), (1, 2, 3))
    np.testing.assert_allclose(symdiff.tape.grad(f)(a), expected)


@pytest.mark.parametrize("call", [
    lambda x: x.T, lambda x: np.transpose(x), lambda x: np.transpose(x, (1, 2, 0)),
    lambda x: x.transpose(2, 0, 1), lambda x: np.swapaxes(x, 0, 2), lambda x: x.mT,
    lambda x: np.moveaxis(x, 0, -1),
], ids=["T", "transpose", "axes", "method", "swapaxes", "mT", "moveaxis"])
def test_transposes(call):
    check_vjp(call, (np.random.default_rng(5).normal(size=(2, 3, 4)),))


@pytest.mark.parametrize("k", [0, 1, -2])
def test_diag_both_ways_and_diagonal(k):
    rng = np.random.default_rng(6)
    check_vjp(lambda v: np.diag(v, k), (rng.normal(size=4),))
    check_vjp(lambda m: np.diag(m, k), (rng.normal(size=(4, 5)),))
    check_vjp(lambda m: np.diagonal(m, k), (rng.normal(size=(4, 5)),))


def _well_conditioned(n, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, n)) + n * np.eye(n)


@pytest.mark.parametrize("b_shape", [(3,), (3, 2)], ids=str)
def test_solve(b_shape):
    A, b = _well_conditioned(3, 7), np.random.default_rng(8).normal(size=b_shape)
    check_vjp(lambda A, b: np.linalg.solve(A, b), (A, b), wrt=(0, 1))


@pytest.mark.parametrize("call", [
    lambda A: np.linalg.inv(A), lambda A: np.linalg.det(A),
    lambda A: np.linalg.slogdet(A)[1], lambda A: np.linalg.slogdet(A).logabsdet,
    lambda A: np.linalg.inv(A) @ A[:, 0],
], ids=["inv", "det", "slogdet", "logabsdet", "inv@"])
def test_inverse_and_determinant(call):
    check_vjp(call, (_well_conditioned(3, 9),))


def test_batched_inverse_and_determinant():
    A = np.stack([_well_conditioned(3, s) for s in (10, 11)])
    check_vjp(lambda A: np.linalg.inv(A), (A,))
    check_vjp(lambda A: np.linalg.det(A), (A,))
    check_vjp(lambda A: np.linalg.slogdet(A)[1], (A,))


def test_slogdet_of_a_negative_determinant():
    A = _well_conditioned(3, 12)[::-1].copy()
    assert np.linalg.det(A) < 0
    check_vjp(lambda A: np.linalg.slogdet(A)[1], (A,))


def test_cholesky_along_symmetric_directions():
    """NumPy reads the lower triangle; the VJP is the symmetric one, so the function is
    checked on A's symmetric part, ``(S + S.T) / 2``."""
    rng = np.random.default_rng(13)
    M = rng.normal(size=(4, 4))
    S = M @ M.T + 4.0 * np.eye(4)

    def f(S):
        return np.linalg.cholesky((S + S.T) / 2.0)
    check_vjp(f, (S,))
    check_vjp(lambda S: np.sum(np.log(np.diag(f(S)))), (S,))


def test_cholesky_reads_the_lower_triangle():
    """Along any direction: NumPy's factor of ``A`` is that of its lower triangle mirrored."""
    rng = np.random.default_rng(17)
    M = rng.normal(size=(3, 3))
    A = M @ M.T + 3.0 * np.eye(3) + np.triu(rng.normal(size=(3, 3)), 1)  # not symmetric
    check_vjp(lambda A: np.linalg.cholesky(A), (A,))
    check_vjp(lambda A: np.sum(np.log(np.diag(np.linalg.cholesky(A)))), (A,))


def test_dot_of_many_dimensions_is_refused():
    from symdiff.witnesses.tape.arrays import ArrayValue
    with pytest.raises((TypeError, SymdiffError), match="dot"):
        np.dot(ArrayValue(np.ones((2, 2, 2))), np.ones((2, 2)))


def test_eigh_along_symmetric_directions():
    """Eigenvalues, and functions of the eigenvectors that do not depend on their signs."""
    rng = np.random.default_rng(14)
    M = rng.normal(size=(4, 4))

    def parts(S):
        return np.linalg.eigh((S + S.T) / 2.0)
    check_vjp(lambda S: parts(S)[0], (M,))
    check_vjp(lambda S: parts(S).eigenvectors ** 2, (M,))
    check_vjp(lambda S: np.sum(parts(S)[1][:, 0] ** 2 * np.arange(4.0)) * parts(S)[0][2], (M,))
