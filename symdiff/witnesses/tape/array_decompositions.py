"""``numpy.linalg``'s decompositions on ArrayValues: ``eigh``, ``eigvalsh``, ``qr``,
``svd`` and ``pinv`` of a 2-d matrix, each part of the result recorded with its own VJP.

Expects an ArrayValue (or data) of 2 axes.  Guarantees NumPy's values (the named tuples
NumPy returns, so ``w, v = eigh(A)`` and ``eigh(A).eigenvalues`` both read) and these
VJPs, stated here apart from the registry's:

    eigh(A)        S = sym. matrix read from A's lower (UPLO="L") or upper triangle;
                   G = V (diag(gw) + K * (V.T gV)) V.T, K_ij = 1 / (w_j - w_i) off the
                   diagonal; dA = G + G.T on the triangle read off the diagonal, G_ii on it
    qr(A)          m >= n: dA = (gQ + Q sym_lower(R gR.T - gQ.T Q)) R^-T
    svd(A)         full_matrices=False: dA = U (K∘(U.T gU - gU.T U) S + diag(gs)
                   + S K∘(V.T gV - gV.T V)) V.T + (I - U U.T) gU S^-1 V.T
                   + U S^-1 gV.T (I - V V.T),  K_ij = 1 / (s_j**2 - s_i**2)
    pinv(A)        full rank: d(A+) = -A+ dA A+ + A+ A+.T dA.T (I - A A+)
                   + (I - A+ A) dA.T A+.T A+

The derivatives hold at distinct eigenvalues (singular values) and full rank; the
eigenvectors' and singular vectors' signs are LAPACK's.
"""

from collections import namedtuple

from symdiff.witnesses.tape.arrays import lift, numpy, record

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])


def _matrix(name, data):
    if data.ndim != 2:
        raise TypeError(f"numpy.linalg.{name} on the tape takes a 2-d matrix (no stack)")


def _folded(np, G, uplo):
    """The gradient by ``A``'s entries of a function of the symmetric matrix NumPy reads
    from one triangle of ``A``, ``G`` its gradient by that matrix."""
    both = G + G.T
    keep = np.tril(both, -1) if uplo == "L" else np.triu(both, 1)
    return keep + np.diag(np.diag(G))


def _reciprocal_gaps(np, values):
    """``K_ij = 1 / (values_j - values_i)`` off the diagonal, 0 on it."""
    gaps = values[None, :] - values[:, None]
    off = ~np.eye(len(values), dtype=bool)
    return np.where(off, 1.0 / np.where(off, gaps, 1.0), 0.0)


def eigh(A, UPLO="L"):
    """``numpy.linalg.eigh`` of a 2-d matrix; its gradient by every entry of ``A``
    (NumPy reads one triangle: the gradient lives on it)."""
    np = numpy()
    data, node = lift(A)
    _matrix("eigh", data)
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    w, v = np.linalg.eigh(data, UPLO)
    if node is None:
        return EighResult(w, v)
    K = _reciprocal_gaps(np, w)
    values = record(w, (node, lambda g: _folded(np, (v * g) @ v.T, UPLO)))
    vectors = record(v, (node, lambda g: _folded(np, v @ (K * (v.T @ g)) @ v.T, UPLO)))
    return EighResult(values, vectors)


def eigvalsh(A, UPLO="L"):
    return eigh(A, UPLO).eigenvalues


def _below_mirrored(np, M):
    """The symmetric matrix with ``M``'s lower triangle (and diagonal)."""
    return np.tril(M) + np.tril(M, -1).T


def qr(A, mode="reduced"):
    """``numpy.linalg.qr`` (reduced) of a matrix with at least as many rows as columns."""
    np = numpy()
    data, node = lift(A)
    _matrix("qr", data)
    if mode != "reduced" or data.shape[0] < data.shape[1]:
        raise TypeError("numpy.linalg.qr on the tape takes mode='reduced' and a matrix with "
                        "at least as many rows as columns")
    q, r = np.linalg.qr(data)
    if node is None:
        return QRResult(q, r)

    def back(gq, gr):
        m = r @ gr.T - gq.T @ q
        return np.linalg.solve(r, (gq + q @ _below_mirrored(np, m)).T).T
    zero_q, zero_r = np.zeros_like(q), np.zeros_like(r)
    return QRResult(record(q, (node, lambda g: back(g, zero_r))),
                    record(r, (node, lambda g: back(zero_q, g))))


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """``numpy.linalg.svd`` with ``full_matrices=False`` (or of a square matrix), or
    ``compute_uv=False`` (the singular values alone); of a matrix that is not square with
    ``full_matrices=True``, the singular values, and ``U`` and ``Vh`` whose derivative
    is refused where a gradient reaches them."""
    np = numpy()
    data, node = lift(a)
    _matrix("svd", data)
    if hermitian:
        raise TypeError("numpy.linalg.svd on the tape takes hermitian=False")
    full = full_matrices and compute_uv and data.shape[0] != data.shape[1]
    u, s, vh = np.linalg.svd(data, full_matrices=False)
    if node is None:
        return SVDResult(u, s, vh) if compute_uv else s
    v = vh.T
    K = _reciprocal_gaps(np, s ** 2)

    def by_u(g):
        inner = (K * (u.T @ g - g.T @ u)) * s[None, :]
        return u @ inner @ vh + (g - u @ (u.T @ g)) / s[None, :] @ vh

    def by_vh(g):
        gv = g.T
        inner = s[:, None] * (K * (v.T @ gv - gv.T @ v))
        return u @ inner @ vh + (u / s[None, :]) @ gv.T @ (np.eye(v.shape[0]) - v @ vh)
    values = record(s, (node, lambda g: (u * g[None, :]) @ vh))
    if not compute_uv:
        return values
    if full:
        full_u, _, full_vh = np.linalg.svd(data)
        return SVDResult(record(full_u, (node, _no_full_factors)), values,
                         record(full_vh, (node, _no_full_factors)))
    return SVDResult(record(u, (node, by_u)), values, record(vh, (node, by_vh)))


def _no_full_factors(g):
    raise TypeError("numpy.linalg.svd on the tape: the full U and Vh of a matrix that is not "
                    "square have columns no function of it fixes; pass full_matrices=False")


def svdvals(x):
    return svd(x, full_matrices=False, compute_uv=False)


def pinv(a, rcond=None, hermitian=False):
    """``numpy.linalg.pinv`` of a matrix of full rank (the default cutoff)."""
    np = numpy()
    data, node = lift(a)
    _matrix("pinv", data)
    if rcond is not None or hermitian:
        raise TypeError("numpy.linalg.pinv on the tape takes neither rcond nor hermitian")
    p = np.linalg.pinv(data)
    if node is None:
        return p
    m, n = data.shape

    def vjp(g):
        dp_t = -p.T @ g @ p.T
        dp_t += (np.eye(m) - data @ p) @ g.T @ (p @ p.T)
        dp_t += (p.T @ p) @ g.T @ (np.eye(n) - p @ data)
        return dp_t
    return record(p, (node, vjp))


def _or_zero(g):
    """``g``, or 0 for the empty residuals of a square system."""
    return g if g.size else 0.0


LstsqResult = namedtuple("LstsqResult", ["solution", "residuals", "rank", "singular_values"])


def lstsq(a, b, rcond=None):
    """``numpy.linalg.lstsq`` of a matrix of full column rank: the solution ``x`` of the
    normal equations, ``dx = (A.T A)^-1 (dA.T r + A.T (db - dA x))``, ``r = b - A x``;
    the residuals ``|r|**2`` (``2 r.T (db - dA x)``, ``x`` being optimal), the rank, and
    the singular values as ``svd``'s."""
    np = numpy()
    (ad, an), (bd, bn) = lift(a), lift(b)
    _matrix("lstsq", ad)
    if rcond is not None:
        raise TypeError("numpy.linalg.lstsq on the tape takes rcond=None")
    x, res, rank, sv = np.linalg.lstsq(ad, bd, rcond=None)
    r = bd - ad @ x
    gram = ad.T @ ad
    column = bd.ndim == 1

    def solution_edges():
        edges = ()
        if bn is not None:
            edges += (bn, lambda g: ad @ np.linalg.solve(gram, g))
        if an is not None:
            def by_a(g):
                z = np.linalg.solve(gram, g)
                return np.outer(r, z) - np.outer(ad @ z, x) if column else (
                    r @ z.T - ad @ z @ x.T)
            edges += (an, by_a)
        return edges

    def residual_edges():
        edges = ()
        if bn is not None:
            edges += (bn, lambda g: 2.0 * r * (np.sum(g) if column else _or_zero(g)))
        if an is not None:
            edges += (an, lambda g: -2.0 * (np.sum(g) * np.outer(r, x) if column else
                                            (r * _or_zero(g)) @ x.T))
        return edges
    values = svd(a, full_matrices=False, compute_uv=False)
    return LstsqResult(record(x, solution_edges()), record(res, residual_edges()), rank,
                       values)
