"""``numpy.linalg.lstsq`` as records, one per value it returns (``x, residuals, rank, sv
= np.linalg.lstsq(A, b, rcond=None)``, ``PAIRED``; ``np.linalg.lstsq(A, b)[0]`` the
record ``lstsq_solution``), for a matrix ``A`` of full column rank (m >= n) and ``b`` a
vector or a matrix.

Expects argument types of ``symdiff.core.types``.  Guarantees ``RECORDS`` with their type
rules, VJP and JVP builders (``rcond`` None only: NumPy's default cutoff).  Where ``A`` is
square the residuals are empty, as NumPy's, and the gradient through them is 0.  Where ``A`` has
fewer rows than columns ``A.T A`` is singular and the gradient raises ``LinAlgError``.

    x = np.linalg.lstsq(A, b)[0]    z = np.linalg.solve(A.T @ A, g)
                                    db = A @ z,  dA = np.outer(b - A @ x, z) - np.outer(A @ z, x)
"""

from symdiff.core import types as t
from symdiff.primitives.array_decompositions import _float, _matrix
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import Text
from symdiff.primitives.record import table

# --- lstsq (full column rank): x solves A.T A x = A.T b; with r = b - A x and z = (A.T A)^-1 g,
# db = A z and dA = r z.T - A z x.T; the residuals |r|**2 move as 2 r.T dr (x is optimal:
# dA's own term vanishes), the singular values as svd's; the rank is an int.

_LSTSQ = "numpy.linalg.lstsq(a, b, rcond=rcond)"
_LSTSQ_PARAMS = ("a", "b", "rcond")
_Z = "numpy.linalg.solve(a.T @ a, g)"


def solution(args, consts):
    a, b = (tuple(args) + (None, None))[:2]
    if _matrix(args) is None or not isinstance(b, t.Array) or b.ndim not in (1, 2):
        return None
    return t.Array(_float(t.broadcast((a, b))), b.ndim, ())


def _lstsq_vjp(args, out):
    vector = args[1].ndim == 1
    da = (f"numpy.outer(b - a @ out, {_Z}) - numpy.outer(a @ {_Z}, out)" if vector else
          f"(b - a @ out) @ {_Z}.T - a @ {_Z} @ out.T")
    return (Text(da, _LSTSQ_PARAMS), Text(f"a @ {_Z}", _LSTSQ_PARAMS), None)


def _lstsq_jvp(args, out):
    return (Text("numpy.linalg.solve(a.T @ a, g.T @ (b - a @ out) - a.T @ (g @ out))",
                 _LSTSQ_PARAMS),
            Text("numpy.linalg.solve(a.T @ a, a.T @ g)", _LSTSQ_PARAMS), None)


def _residuals_vjp(args, out):
    x, r = f"{_LSTSQ}[0]", f"(b - a @ {_LSTSQ}[0])"
    if args[1].ndim == 1:  # (residuals of one value, or none where A is square)
        return (Text(f"-2.0 * numpy.sum(g) * numpy.outer({r}, {x})", _LSTSQ_PARAMS),
                Text(f"2.0 * numpy.sum(g) * {r}", _LSTSQ_PARAMS), None)
    g = "(g if g.size else 0.0)"  # (none where A is square: its residuals are 0)
    return (Text(f"-2.0 * ({r} * {g}) @ {x}.T", _LSTSQ_PARAMS),
            Text(f"2.0 * {r} * {g}", _LSTSQ_PARAMS), None)


def _residuals_jvp(args, out):
    x, r = f"{_LSTSQ}[0]", f"(b - a @ {_LSTSQ}[0])"
    return (Text(f"-2.0 * numpy.sum({r} * (g @ {x}), axis=0)", _LSTSQ_PARAMS)
            if args[1].ndim == 2 else Text(f"-2.0 * ({r} @ (g @ {x}))[None]", _LSTSQ_PARAMS),
            Text(f"2.0 * numpy.sum({r} * g, axis=0, keepdims={args[1].ndim == 1})",
                 _LSTSQ_PARAMS), None)


def _lstsq_part(index, name, typed, vjp, jvp):
    return _array(f"lstsq_{name}", f"{_LSTSQ}[{index}]", _LSTSQ_PARAMS, typed, vjp,
                  defaults=(None,), ints=("rcond",), pair=("lstsq", index), jvp=jvp)


def _of_b(typed):
    return lambda args, consts: typed(args, consts) if solution(args, consts) else None


_NONE = lambda args, out: (None, None, None)  # noqa: E731  (the rank: an int)
_BY_A = (Text("(numpy.linalg.svd(a, full_matrices=False)[0] * g)"
              " @ numpy.linalg.svd(a, full_matrices=False)[2]", _LSTSQ_PARAMS), None, None)
_BY_A_JVP = (Text("numpy.sum(numpy.linalg.svd(a, full_matrices=False)[0] * (g @ numpy.linalg."
                  "svd(a, full_matrices=False)[2].T), axis=0)", _LSTSQ_PARAMS), None, None)


RECORDS = table(
    _lstsq_part(0, "solution", solution, _lstsq_vjp, _lstsq_jvp),
    _lstsq_part(1, "residuals", _of_b(lambda args, consts: t.Array(
        _float(args[0]), 1, ())), _residuals_vjp, _residuals_jvp),
    _lstsq_part(2, "rank", _of_b(lambda args, consts: t.INT), _NONE, _NONE),
    _lstsq_part(3, "singular", _of_b(lambda args, consts: t.Array(
        _float(args[0]), 1, (0,) if args[0].unit_axes else ())),
                lambda args, out: _BY_A, lambda args, out: _BY_A_JVP),
)

PAIRED = {"linalg.lstsq": "lstsq"}
METHODS = {}
STATICS = {f"lstsq_{name}": {"rcond": "none"} for name in (
    "solution", "residuals", "rank", "singular")}
HINTS = {f"lstsq_{name}": "it takes a matrix of full column rank, a vector or a matrix, and "
                          "rcond=None" for name in ("solution", "residuals", "rank", "singular")}
