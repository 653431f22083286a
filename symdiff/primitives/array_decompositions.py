"""``numpy.linalg``'s decompositions as records: ``eigh`` and ``eigvalsh`` of a symmetric
matrix, ``qr`` (reduced, of a matrix with at least as many rows as columns), ``svd``
(``full_matrices=False``, distinct singular values) and ``svdvals``, ``pinv`` (of a
matrix of full rank)
and ``matrix_power`` (a constant ``n >= 0``).

Expects argument types of ``symdiff.core.types``.  Guarantees ``RECORDS``: one array
record per value a decomposition returns (``w, v = np.linalg.eigh(a)`` is the records
``eigh_values`` and ``eigh_vectors`` of ``a``, ``PAIRED``; ``np.linalg.svd(a,
full_matrices=False)[1]`` the record ``svd_s``), each with its type rule (None where
NumPy's arguments are not the ones supported: a located error names the call), a VJP
and a JVP builder.  A part's builders read the other parts as the call that computes
them (``numpy.linalg.eigh(a)[1]``): where the forward sweep computed that part into a
name, the optimizer reads the name (``optimize.reuse``).

``eigh`` (and ``eigvalsh``) read one triangle of ``a``, as NumPy does (``UPLO="L"``: the
lower): the gradient is the derivative of NumPy's function of all of ``a``'s entries,
the symmetric gradient ``G`` folded onto that triangle (an entry below the diagonal
stands for itself and its mirror, ``G_ij + G_ji``; the diagonal as it is; nothing
above), so it agrees with differences along any direction, not only symmetric ones.
The eigenvectors' and the singular vectors' signs are LAPACK's; the derivatives hold
for distinct eigenvalues (singular values), where ``1 / (w_j - w_i)`` is finite.

    w = np.linalg.eigvalsh(A)      dA = np.tril((V * g) @ V.T) * (2 - I)
    P = np.linalg.pinv(A)          dA = -P.T @ g @ P.T + (I - A @ P) @ g.T @ P @ P.T + ...
    B = np.linalg.matrix_power(A, 3)   dA = g @ A.T @ A.T + A.T @ g @ A.T + A.T @ A.T @ g
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import Text
from symdiff.primitives.record import table


def _matrix(args, consts=()):
    """``args[0]`` where it is a matrix of floats (or of ints: NumPy computes in
    float64), else None."""
    a = args[0] if args else None
    return a if isinstance(a, t.Array) and a.ndim == 2 else None


def _float(a):
    return a.dtype if a.dtype.startswith("float") else "float64"


def _const(consts, at, default):
    consts = tuple(consts) + (None,) * (at + 1)
    return default if consts[at] is None else consts[at]


def _square_units(a):
    return (0, 1) if a.unit_axes else ()


# --- type rules ----------------------------------------------------------------------------

def _symmetric(consts):
    return _const(consts, 1, "L") in ("L", "U")


def eigenvalues(args, consts):
    a = _matrix(args)
    if a is None or not _symmetric(consts):
        return None
    return t.Array(_float(a), 1, (0,) if a.unit_axes else ())


def eigenvectors(args, consts):
    a = _matrix(args)
    if a is None or not _symmetric(consts):
        return None
    return t.Array(_float(a), 2, _square_units(a))


def pseudo_inverse(args, consts):
    """``pinv(a)``: ``a``'s transpose's shape."""
    a = _matrix(args)
    if a is None:
        return None
    return t.Array(_float(a), 2, tuple(sorted(1 - axis for axis in a.unit_axes)))


def _factor(rows, cols, takes=None):
    """The type rule of a factor of ``a`` (m x n, k = min(m, n)) of the shape ``rows`` x
    ``cols``, each ``"m"``, ``"n"``, ``"k"`` (or None: no such axis), of a call whose
    constants ``takes`` accepts (``svd``'s reduced factors by default)."""
    takes = _reduced if takes is None else takes

    def typed(args, consts):
        a = _matrix(args)
        if a is None or not takes(consts):
            return None
        unit = {"m": 0 in a.unit_axes, "n": 1 in a.unit_axes, "k": bool(a.unit_axes)}
        axes = [size for size in (rows, cols) if size is not None]
        return t.Array(_float(a), len(axes), tuple(i for i, s in enumerate(axes) if unit[s]))
    return typed


def _reduced(consts):
    """``svd``'s ``full_matrices``: False only (the full ``U`` or ``Vh`` of a matrix that
    is not square has columns no function of ``a`` fixes, and the kinds do not say
    whether it is square)."""
    return len(consts) < 2 or consts[1] is False


def _either(consts):
    """``svd``'s singular values: the same for ``full_matrices`` True or False."""
    return len(consts) < 2 or type(consts[1]) is bool


def _qr_reduced(consts):
    """``qr``'s ``mode``: "reduced" only (NumPy's default)."""
    return _const(consts, 1, "reduced") == "reduced"


def powered(args, consts):
    a = _matrix(args)
    n = _const(consts, 1, None)
    if a is None or type(n) is not int or n < 0:
        return None
    return t.Array(_float(a), 2, _square_units(a))


# --- builders whose text depends on a constant argument --------------------------------------

@dataclass(frozen=True)
class _Chosen:
    """A builder written as the text ``make`` gives for the call's constant arguments
    (``make(*values)``, None for an argument that is not a constant)."""

    make: object
    params: tuple

    def __call__(self, g, args, out, names):
        values = tuple(a.value if isinstance(a, ex.Const) else None for a in args)
        return Text(self.make(*values), self.params)(g, args, out, names)


_EYE = "numpy.eye(a.shape[0], dtype=a.dtype)"
_OFF = f"(1.0 - {_EYE})"


def _triangle(uplo):
    return "numpy.tril" if uplo in (None, "L") else "numpy.triu"


def _eigh(uplo):
    return "numpy.linalg.eigh(a)" if uplo in (None, "L") else "numpy.linalg.eigh(a, UPLO='U')"


def _read(uplo, x="g"):
    """The symmetric matrix NumPy reads of ``x``: its triangle, mirrored."""
    lower = uplo in (None, "L")
    return (f"({_triangle(uplo)}({x}) + {_triangle(uplo)}({x}, {-1 if lower else 1}).T)")


def _gaps(w):
    """``E_ij = w_j - w_i`` with the diagonal 1: what the off-diagonal parts divide by."""
    return f"({w} - {w}[:, None] + {_EYE})"


def _values_vjp(_, uplo):
    """``V diag(g) V.T``, symmetric, folded onto the triangle read."""
    v = f"{_eigh(uplo)}[1]"
    return f"{_triangle(uplo)}(({v} * g) @ {v}.T) * (2.0 - {_EYE})"


def _values_jvp(_, uplo):
    v = f"{_eigh(uplo)}[1]"
    return f"numpy.sum({v} * ({_read(uplo)} @ {v}), axis=0)"


def _vectors_vjp(_, uplo):
    """``V ((V.T g - g.T V) / E) V.T`` (``H + H.T`` of ``H = V (F * V.T g) V.T``),
    folded onto the triangle read, the diagonal halved."""
    w = f"{_eigh(uplo)}[0]"
    inner = f"(out.T @ g - g.T @ out) * {_OFF} / {_gaps(w)}"
    return f"{_triangle(uplo)}(out @ ({inner}) @ out.T) * (1.0 - 0.5 * {_EYE})"


def _vectors_jvp(_, uplo):
    """``dV = V ((V.T dS V) / E)``, off the diagonal."""
    w = f"{_eigh(uplo)}[0]"
    return f"out @ ((out.T @ {_read(uplo)} @ out) * {_OFF} / {_gaps(w)})"


_EIGH_PARAMS = ("a", "UPLO")


def _by_uplo(make):
    return lambda args, out: (_Chosen(make, _EIGH_PARAMS), None)


# --- pinv -----------------------------------------------------------------------------------
# dP = -P dA P + P P.T dA.T (I - A P) + (I - P A) dA.T P.T P  (Golub and Pereyra 1973; full
# rank), and its transpose for the VJP.

_ROWS, _COLS = "numpy.eye(a.shape[0], dtype=a.dtype)", "numpy.eye(a.shape[1], dtype=a.dtype)"
_PINV_VJP = (f"-out.T @ g @ out.T + ({_ROWS} - a @ out) @ g.T @ out @ out.T"
             f" + out.T @ out @ g.T @ ({_COLS} - out @ a)")
_PINV_JVP = (f"-out @ g @ out + out @ out.T @ g.T @ ({_ROWS} - a @ out)"
             f" + ({_COLS} - out @ a) @ g.T @ out.T @ out")

# --- qr (reduced, m >= n): with C = M + M.T below the diagonal and M on it (``_SYM``),
# M = R gR.T - gQ.T Q, dA = (gQ + Q C) R^-T; forward, with X = Q.T dA R^-1,
# dQ = dA R^-1 - Q (triu(X) + tril(X, -1).T) and dR = (triu(X) + tril(X, -1).T) R.

_Q, _R = "numpy.linalg.qr(a)[0]", "numpy.linalg.qr(a)[1]"
_QR = "numpy.linalg.qr(a, mode=mode)"


def _copied_lower(m):
    return f"(numpy.tril({m}) + numpy.tril({m}, -1).T)"


_QR_Q_VJP = f"numpy.linalg.solve({_R}, (g - out @ {_copied_lower('g.T @ out')}).T).T"
_QR_R_VJP = f"numpy.linalg.solve(out, ({_Q} @ {_copied_lower('out @ g.T')}).T).T"


def _upper_copied(x):
    return f"(numpy.triu({x}) + numpy.tril({x}, -1).T)"


_RIGHT = f"numpy.linalg.solve({_R}.T, g.T).T"  # dA R^-1
_QR_Q_JVP = f"{_RIGHT} - out @ {_upper_copied(f'out.T @ {_RIGHT}')}"
_QR_R_JVP = (f"{_upper_copied('numpy.linalg.qr(a)[0].T @ numpy.linalg.solve(out.T, g.T).T')}"
             " @ out")

# --- svd (full_matrices=False): F_ij = 1 / (s_j**2 - s_i**2) off the diagonal ------------

_SVD = "numpy.linalg.svd(a, full_matrices=False)"


def _svd_parts(own):
    """``(u, s, vh)``: ``out`` for the part ``own`` (0, 1, 2), the call for the others."""
    return tuple("out" if i == own else f"{_SVD}[{i}]" for i in range(3))


def _svd_f(s):
    eye = f"numpy.eye({s}.shape[0], dtype=a.dtype)"  # k x k, k = min(m, n)
    return f"((1.0 - {eye}) / ({s} ** 2 - {s}[:, None] ** 2 + {eye}))"


def _svd_vjps():
    u, s, vh = _svd_parts(1)
    by_s = f"({u} * g) @ {vh}"
    u, s, vh = _svd_parts(0)
    by_u = (f"(out @ ((out.T @ g - g.T @ out) * {_svd_f(s)} * {s})"
            f" + (g - out @ (out.T @ g)) / {s}) @ {vh}")
    u, s, vh = _svd_parts(2)
    by_vh = (f"{u} @ ({s}[:, None] * ((out @ g.T - g @ out.T) * {_svd_f(s)}) @ out"
             f" + (g - g @ out.T @ out) / {s}[:, None])")
    return by_u, by_s, by_vh


def _svd_jvps():
    u, s, vh = _svd_parts(1)
    by_s = f"numpy.sum({u} * (g @ {vh}.T), axis=0)"
    u, s, vh = _svd_parts(0)
    p = f"(out.T @ g @ {vh}.T)"
    by_u = (f"out @ ({_svd_f(s)} * ({p} * {s} + {s}[:, None] * {p}.T))"
            f" + (g @ {vh}.T - out @ {p}) / {s}")
    u, s, vh = _svd_parts(2)
    p = f"({u}.T @ g @ out.T)"
    by_vh = (f"-({_svd_f(s)} * ({s}[:, None] * {p} + {p}.T * {s})) @ out"
             f" + ({u}.T @ g - {p} @ out) / {s}[:, None]")
    return by_u, by_s, by_vh


_SVD_VJPS, _SVD_JVPS = _svd_vjps(), _svd_jvps()
_SVD_PARAMS = ("a", "full_matrices")


def _svd_part(index, name, typed):
    forward = "numpy.linalg.svd(a, full_matrices=full_matrices)" if index == 1 else _SVD
    return _array(f"svd_{name}", f"{forward}[{index}]", _SVD_PARAMS, typed,
                  lambda args, out: (Text(_SVD_VJPS[index], _SVD_PARAMS), None),
                  defaults=(True,), ints=("full_matrices",), pair=("svd", index),
                  jvp=lambda args, out: (Text(_SVD_JVPS[index], _SVD_PARAMS), None))


_QR_PARAMS = ("a", "mode")
_QR_MODE = dict(defaults=("reduced",), ints=("mode",))


# --- matrix_power: the sum over k of A^k g A^(n-1-k), transposed for the VJP ----------------

def _power(x, k):
    return None if k == 0 else x if k == 1 else f"numpy.linalg.matrix_power({x}, {k})"


def _power_sum(x):
    def make(_, n):
        terms = [" @ ".join(p for p in (_power(x, k), "g", _power(x, n - 1 - k)) if p)
                 for k in range(n)]
        return " + ".join(terms) if terms else "0.0 * g"
    return make


def _power_vjp(args, out):
    return (_Chosen(_power_sum("a.T"), ("a", "n")), None)


def _power_jvp(args, out):
    return (_Chosen(_power_sum("a"), ("a", "n")), None)


RECORDS = table(
    _array("eigh_values", "numpy.linalg.eigh(a, UPLO=UPLO)[0]", _EIGH_PARAMS, eigenvalues,
           _by_uplo(_values_vjp), defaults=("L",), ints=("UPLO",), pair=("eigh", 0),
           jvp=_by_uplo(_values_jvp)),
    _array("eigh_vectors", "numpy.linalg.eigh(a, UPLO=UPLO)[1]", _EIGH_PARAMS, eigenvectors,
           _by_uplo(_vectors_vjp), defaults=("L",), ints=("UPLO",), pair=("eigh", 1),
           jvp=_by_uplo(_vectors_jvp)),
    _array("eigvalsh", "numpy.linalg.eigvalsh(a, UPLO=UPLO)", _EIGH_PARAMS, eigenvalues,
           _by_uplo(_values_vjp), defaults=("L",), ints=("UPLO",),
           numpy=("linalg.eigvalsh",), jvp=_by_uplo(_values_jvp)),
    _array("pinv", "numpy.linalg.pinv(a)", ("a",), pseudo_inverse,
           lambda args, out: (Text(_PINV_VJP, ("a",)),), numpy=("linalg.pinv",),
           jvp=lambda args, out: (Text(_PINV_JVP, ("a",)),)),
    _array("qr_q", f"{_QR}[0]", _QR_PARAMS, _factor("m", "k", _qr_reduced),
           lambda args, out: (Text(_QR_Q_VJP, _QR_PARAMS), None), pair=("qr", 0),
           jvp=lambda args, out: (Text(_QR_Q_JVP, _QR_PARAMS), None), **_QR_MODE),
    _array("qr_r", f"{_QR}[1]", _QR_PARAMS, _factor("k", "n", _qr_reduced),
           lambda args, out: (Text(_QR_R_VJP, _QR_PARAMS), None), pair=("qr", 1),
           jvp=lambda args, out: (Text(_QR_R_JVP, _QR_PARAMS), None), **_QR_MODE),
    _svd_part(0, "u", _factor("m", "k")),
    _svd_part(1, "s", _factor("k", None, _either)),
    _svd_part(2, "vh", _factor("k", "n")),
    _array("svdvals", "numpy.linalg.svdvals(a)", ("a",), _factor("k", None),
           lambda args, out: (Text(_SVD_VJPS[1], ("a",)),), numpy=("linalg.svdvals",),
           jvp=lambda args, out: (Text(_SVD_JVPS[1], ("a",)),)),
    _array("matrix_power", "numpy.linalg.matrix_power(a, n)", ("a", "n"), powered,
           _power_vjp, ints=("n",), numpy=("linalg.matrix_power",), jvp=_power_jvp),
)

# ``w, v = numpy.linalg.eigh(a)``, ``q, r = numpy.linalg.qr(a)``, ``u, s, vh = ...svd(a)``
PAIRED = {"linalg.eigh": "eigh", "linalg.qr": "qr", "linalg.svd": "svd"}
METHODS = {}
STATICS = {**{op: {"UPLO": "str"} for op in ("eigh_values", "eigh_vectors", "eigvalsh")},
           **{f"svd_{name}": {"full_matrices": "bool"} for name in ("u", "s", "vh")},
           "qr_q": {"mode": "qr_mode"}, "qr_r": {"mode": "qr_mode"},
           "matrix_power": {"n": "int"}}
_SYMMETRIC = "it takes a symmetric matrix (an array of 2 axes) and UPLO 'L' or 'U'"
_SVD_HINT = ("it takes a matrix and full_matrices=False (the reduced factors: the full "
             "ones of a matrix that is not square have columns no function of it fixes; "
             "the singular values alone take either; compute_uv and hermitian are not "
             "taken)")
_QR_HINT = ("it takes a matrix with at least as many rows as columns and mode='reduced' "
            "(NumPy's default: 'complete' adds columns to Q that no function of a fixes, "
            "unless a is square, where the two are the same: leave mode out there)")
HINTS = {
    "eigh_values": _SYMMETRIC, "eigh_vectors": _SYMMETRIC, "eigvalsh": _SYMMETRIC,
    "pinv": "it takes a matrix of full rank (and no rcond)",
    "qr_q": _QR_HINT, "qr_r": _QR_HINT,
    "svd_u": _SVD_HINT, "svd_s": _SVD_HINT, "svd_vh": _SVD_HINT,
    "svdvals": "it takes a matrix (an array of 2 axes)",
    "matrix_power": "it takes a square matrix and a constant int n >= 0",
}
