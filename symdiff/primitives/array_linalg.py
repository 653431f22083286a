"""Array products and linear algebra as records: ``numpy.dot`` (a number as either
operand too), ``outer``, ``inner``, ``vdot``, ``kron``, and ``numpy.linalg``'s ``solve``, ``inv``, ``det``,
``cholesky`` and ``slogdet``
(unpacked: ``sign, logdet = np.linalg.slogdet(a)``, one record per half, ``PAIRED``);
with them, ``einsum``'s (``array_einsum``), the decompositions' records
(``array_decompositions``: ``eigh``, ``qr``,
``svd``, ``pinv``, ...) and ``lstsq``'s (``array_least_squares``), so the registry reads
linear algebra from this module alone.

Expects argument types of ``symdiff.core.types``.  Guarantees ``RECORDS``,
one array record each (``arrays._array``), with its type rule (None where NumPy's
arguments are not the ones supported: a located error names the call) and VJP builders
chosen by the arguments' types, written as a person writes them:

    z = np.outer(x, y)              dx = g @ y              dy = x @ g
    x = np.linalg.solve(A, b)       db = np.linalg.solve(A.T, g)
                                    dA = -np.outer(np.linalg.solve(A.T, g), x)
    d = np.linalg.det(A)            dA = g * d * np.linalg.inv(A).T
    D = np.diag(v)                  dv = np.diag(g)
    s, l = np.linalg.slogdet(A)     dA = g * np.linalg.inv(A).T    (the sign: none)
"""

from symdiff.core import types as t
from symdiff.primitives import array_decompositions as decompositions
from symdiff.primitives import array_einsum as einsums
from symdiff.primitives import array_least_squares as least_squares
from symdiff.primitives.arrays import _array, _product_vjp, product
from symdiff.primitives.broadcasting import Text
from symdiff.primitives.record import table
from symdiff.primitives.tangents import linear


def _arrays(args, *ndims):
    """Whether ``args`` are arrays with the given numbers of axes (a tuple: any of)."""
    return len(args) == len(ndims) and all(
        isinstance(a, t.Array) and a.ndim in n for a, n in zip(args, ndims))


def _dtype(*kinds):
    return t.broadcast(kinds).dtype


# --- numpy.dot: ``@`` for arrays of one or two axes, ``*`` where one is a number --------

def dotted(args, consts):
    if len(args) != 2 or None in args:
        return None
    arrays = [a for a in args if isinstance(a, t.Array)]
    if len(arrays) == 1 and all(isinstance(a, t.Array) or t.is_number(a) for a in args):
        return t.broadcast(args, dtype="float64")  # ``numpy.dot`` makes the number an array
    if any(isinstance(a, t.Array) and a.ndim > 2 for a in args):
        return None  # (``numpy.dot`` of a stack is no product of matrices: not taken)
    return product(args, consts)


def _dot_vjp(args, out):
    if all(isinstance(a, t.Array) for a in args):
        return _product_vjp(args, out)
    x, y = args
    params = ("x", "y")
    return (Text("g * y" if isinstance(x, t.Array) else "numpy.sum(g * y)", params),
            Text("g * x" if isinstance(y, t.Array) else "numpy.sum(g * x)", params))


# --- outer and inner ------------------------------------------------------------------------

def outer(args, consts):
    """``numpy.outer`` of two arrays of one axis or more (each read flat, as NumPy
    does): a matrix, an axis of size one where a vector's is."""
    if len(args) != 2 or not all(isinstance(a, t.Array) and a.ndim for a in args):
        return None
    x, y = args
    units = tuple(a for a, kind in enumerate(args) if kind.ndim == 1 and 0 in kind.unit_axes)
    return t.Array(_dtype(x, y), 2, units)


def _outer_vjp(args, out):
    """``g @ y`` and ``x @ g`` of vectors; of arrays of more axes, of them flat, shaped
    back."""
    x, y = args
    flat_y = "y" if y.ndim == 1 else "y.ravel()"
    flat_x = "x" if x.ndim == 1 else "x.ravel()"
    dx = f"g @ {flat_y}" if x.ndim == 1 else f"(g @ {flat_y}).reshape(x.shape)"
    dy = f"{flat_x} @ g" if y.ndim == 1 else f"({flat_x} @ g).reshape(y.shape)"
    return Text(dx, ("x", "y")), Text(dy, ("x", "y"))


def inner(args, consts):
    """``numpy.inner`` of arrays of one or two axes: over their last axes."""
    if not _arrays(args, (1, 2), (1, 2)):
        return None
    x, y = args
    if x.ndim == 1 and y.ndim == 1:
        return t.NUMPY_FLOAT
    lead = [kind for kind in args if kind.ndim == 2]
    units = tuple(a for a, kind in enumerate(lead) if 0 in kind.unit_axes)
    return t.Array(_dtype(x, y), len(lead), units)


def _inner_vjp(args, out):
    x, y = args
    texts = {(1, 1): ("g * y", "g * x"),
             (2, 1): ("numpy.outer(g, y)", "x.T @ g"),
             (1, 2): ("y.T @ g", "numpy.outer(g, x)"),
             (2, 2): ("g @ y", "g.T @ x")}[(x.ndim, y.ndim)]
    return tuple(Text(text, ("x", "y")) for text in texts)


def vdot(args, consts):
    """``numpy.vdot`` of two arrays of one size: the sum of their products, flattened."""
    return t.NUMPY_FLOAT if _arrays(args, range(1, 33), range(1, 33)) else None


def _vdot_vjp(args, out):
    """``g`` times the other operand, read in this one's shape where theirs may differ."""
    x, y = args
    alike = x.ndim == y.ndim == 1
    return (Text("g * y" if alike else "g * numpy.reshape(y, x.shape)", ("x", "y")),
            Text("g * x" if alike else "g * numpy.reshape(x, y.shape)", ("x", "y")))


def kron(args, consts):
    """``numpy.kron`` of two vectors or two matrices."""
    if not (_arrays(args, (1,), (1,)) or _arrays(args, (2,), (2,))):
        return None
    x, y = args
    units = tuple(a for a in range(x.ndim) if a in x.unit_axes and a in y.unit_axes)
    return t.Array(_dtype(x, y), x.ndim, units)


def _kron_vjp(args, out):
    """``g`` read as the blocks it is made of: ``g[i * m + k]`` is ``x[i] * y[k]``."""
    if args[0].ndim == 1:
        blocks = "g.reshape(x.shape[0], y.shape[0])"
        texts = (f"{blocks} @ y", f"x @ {blocks}")
    else:
        blocks = "g.reshape(x.shape[0], y.shape[0], x.shape[1], y.shape[1])"
        texts = (f'numpy.einsum("ikjl,kl->ij", {blocks}, y)',
                 f'numpy.einsum("ikjl,ij->kl", {blocks}, x)')
    return tuple(Text(text, ("x", "y")) for text in texts)


# --- numpy.diag: a vector to its diagonal matrix, a matrix to its diagonal -----------------

def diagonal_of(args, consts):
    """``numpy.diag(v)`` of a vector: a square matrix; of a matrix: its diagonal, of
    length one where an axis of the matrix has size one."""
    if not _arrays(args, (1, 2)):
        return None
    x = args[0]
    if x.ndim == 1:
        return t.Array(x.dtype, 2, (0, 1) if x.unit_axes else ())
    return t.Array(x.dtype, 1, (0,) if x.unit_axes else ())


def _diag_vjp(args, out):
    """A vector's adjoint is the diagonal of ``g``; a matrix's, the diagonal matrix of
    ``g`` padded to its shape (a matrix that is not square has a shorter diagonal)."""
    if args[0].ndim == 1:
        return (Text("numpy.diag(g)", ("x",)),)
    return (Text("numpy.pad(numpy.diag(g), ((0, x.shape[0] - g.shape[0]), "
                 "(0, x.shape[1] - g.shape[0])))", ("x",)),)


# --- numpy.linalg ---------------------------------------------------------------------------

def solved(args, consts):
    """``solve(a, b)``: ``a`` a matrix, ``b`` a vector or a matrix (its type)."""
    if not _arrays(args, (2,), (1, 2)):
        return None
    a, b = args
    return t.Array(_dtype(a, b), b.ndim, b.unit_axes)


def _solve_vjp(args, out):
    db = "numpy.linalg.solve(a.T, g)"
    da = f"-numpy.outer({db}, out)" if args[1].ndim == 1 else f"-{db} @ out.T"
    return (Text(da, ("a", "b")), Text(db, ("a", "b")))


def square(args, consts):
    """``inv(a)``: a matrix of ``a``'s type (square: a size-one axis is both)."""
    if not _arrays(args, (2,)):
        return None
    units = (0, 1) if args[0].unit_axes else ()
    return t.Array(args[0].dtype, 2, units)


def determinant(args, consts):
    return t.NUMPY_FLOAT if _arrays(args, (2,)) else None


# ``L = cholesky(a)`` reads the lower triangle of ``a``: with ``phi(m)``, the lower
# triangle of ``m`` with its diagonal halved (``w``), ``da = phi(v)`` where ``v =
# L^-T (phi(L^T g) + phi(L^T g)^T) L^-1`` (Murray 2016, the symmetric gradient folded
# onto the triangle NumPy reads).
_HALVED = "(1.0 - 0.5 * numpy.eye(a.shape[0], dtype=a.dtype))"
_PHI_M = f"numpy.tril(out.T @ g) * {_HALVED}"
_CHOLESKY = (f"numpy.tril(numpy.linalg.solve(out.T, numpy.linalg.solve(out.T, {_PHI_M} + "
             f"({_PHI_M}).T).T)) * {_HALVED}")

# Forward: ``d log det(a) = trace(a^-1 da)``; ``dL = L phi(L^-1 S L^-T)`` with ``S`` the
# symmetric matrix NumPy reads of the tangent (its lower triangle, mirrored).
_TRACE = "numpy.trace(numpy.linalg.solve(a, g))"
_CHOLESKY_JVP = ("out @ (numpy.tril(numpy.linalg.solve(out, numpy.linalg.solve(out, "
                 f"numpy.tril(g) + numpy.tril(g, -1).T).T)) * {_HALVED})")


RECORDS = table(
    _array("dot", "numpy.dot(x, y)", ("x", "y"), dotted, _dot_vjp, numpy=("dot",),
           jvp=linear(0, 1)),
    _array("outer", "numpy.outer(x, y)", ("x", "y"), outer, _outer_vjp,
           numpy=("outer",), jvp=linear(0, 1)),
    _array("inner", "numpy.inner(x, y)", ("x", "y"), inner, _inner_vjp, numpy=("inner",),
           jvp=linear(0, 1)),
    _array("kron", "numpy.kron(x, y)", ("x", "y"), kron, _kron_vjp, numpy=("kron",),
           jvp=linear(0, 1)),
    _array("vdot", "numpy.vdot(x, y)", ("x", "y"), vdot, _vdot_vjp, numpy=("vdot",),
           jvp=linear(0, 1)),
    _array("diag", "numpy.diag(x)", ("x",), diagonal_of, _diag_vjp, numpy=("diag",),
           jvp=linear()),
    _array("solve", "numpy.linalg.solve(a, b)", ("a", "b"), solved, _solve_vjp,
           numpy=("linalg.solve",), jvp=lambda args, out: (
               Text("-numpy.linalg.solve(a, g @ out)", ("a", "b")),
               Text("numpy.linalg.solve(a, g)", ("a", "b")))),
    _array("inv", "numpy.linalg.inv(a)", ("a",), square,
           lambda args, out: (Text("-out.T @ g @ out.T", ("a",)),), numpy=("linalg.inv",),
           jvp=lambda args, out: (Text("-out @ g @ out", ("a",)),)),
    _array("det", "numpy.linalg.det(a)", ("a",), determinant,
           lambda args, out: (Text("g * out * numpy.linalg.inv(a).T", ("a",)),),
           numpy=("linalg.det",), jvp=lambda args, out: (Text(f"out * {_TRACE}", ("a",)),)),
    _array("cholesky", "numpy.linalg.cholesky(a)", ("a",), square,
           lambda args, out: (Text(_CHOLESKY, ("a",)),), numpy=("linalg.cholesky",),
           jvp=lambda args, out: (Text(_CHOLESKY_JVP, ("a",)),)),
    _array("slogdet_sign", "numpy.linalg.slogdet(a)[0]", ("a",), determinant,
           lambda args, out: (None,), pair=("slogdet", 0), jvp=lambda args, out: (None,)),
    _array("slogdet_logdet", "numpy.linalg.slogdet(a)[1]", ("a",), determinant,
           lambda args, out: (Text("g * numpy.linalg.inv(a).T", ("a",)),),
           pair=("slogdet", 1), jvp=lambda args, out: (Text(_TRACE, ("a",)),)),
)

RECORDS.update({**einsums.RECORDS, **decompositions.RECORDS, **least_squares.RECORDS})
PAIRED = {"linalg.slogdet": "slogdet",  # ``sign, logdet = numpy.linalg.slogdet(a)``
          **decompositions.PAIRED, **least_squares.PAIRED}
METHODS = {}  # (``x.dot(y)`` is ``arrays.METHODS``': ``matmul``; ``x.diagonal()``,
# ``array_diagonals``')
STATICS = {**einsums.STATICS, **decompositions.STATICS, **least_squares.STATICS}
HINTS = {
    "dot": "it takes arrays of one or two axes, or an array and a number",
    "outer": "it takes two arrays of one axis or more (read flat)",
    "inner": "it takes arrays of one or two axes",
    "vdot": "it takes two arrays of floats of one size",
    "kron": "it takes two vectors or two matrices",
    "diag": "it takes a vector or a matrix (and no offset k)",
    "solve": "it takes a matrix and a vector or a matrix",
    "inv": "it takes a square matrix", "det": "it takes a square matrix",
    "cholesky": "it takes a square matrix",
    **einsums.HINTS, **decompositions.HINTS, **least_squares.HINTS,
}
