"""``numpy.linalg``'s ``pinv``, ``qr`` and ``matrix_power`` in the sympy witness, by their
textbook formulas on one matrix of sympy values.

Expects the reader of ``numpy_calls`` (``reader.numbers_of``, ``reader.unsupported``) and
an array of sympy values.  Guarantees, as NumPy computes them where their derivatives
exist:

- ``pinv(a)`` of a matrix of full rank: ``(a.T a)^-1 a.T`` (``a.T (a a.T)^-1`` for a wide one);
- ``qr(a)`` (reduced, at least as many rows as columns): Gram-Schmidt's ``Q`` and ``R``,
  each column of ``Q`` (row of ``R``) given the sign NumPy's has at the point (LAPACK's
  ``R`` may have a negative diagonal);
- ``matrix_power(a, n)`` for an int ``n >= 0``: ``a @ a @ ...`` (the identity for 0).

``eigh``, ``eigvalsh`` and ``svd`` have no closed form this witness writes (roots of a
characteristic polynomial of a symbolic matrix), nor ``lstsq``, which returns singular
values too: a call of them is refused by name, so ``check`` compares those with the tape
and finite differences alone.

    np.linalg.pinv(A) of a 2x1 A  ──►  [[A_0_0/(A_0_0**2 + A_1_0**2), A_1_0/(...)]]
"""

import sympy

from symdiff.witnesses.symbolic.arrays import is_array, lifted, numpy, operand, plain


def _matrix(reader, value, node, name):
    if not is_array(value) or value.ndim != 2:
        raise reader.unsupported(node, f"np.linalg.{name} of an array that is not a matrix")
    return sympy.Matrix(operand(value).tolist())


def _no_keywords(reader, kwargs, node, name):
    if kwargs:
        raise reader.unsupported(node, f"keyword arguments to np.linalg.{name}")


def _array(matrix):
    return lifted(numpy().array(matrix.tolist(), dtype=object))


def _pinv(reader, func, args, kwargs, node):
    _no_keywords(reader, kwargs, node, "pinv")
    a = _matrix(reader, args[0], node, "pinv")
    if a.rows >= a.cols:
        return _array((a.T * a).inv(method="ADJ") * a.T)
    return _array(a.T * (a * a.T).inv(method="ADJ"))


def _qr(reader, func, args, kwargs, node):
    _no_keywords(reader, kwargs, node, "qr")
    a = _matrix(reader, args[0], node, "qr")
    m, n = a.shape
    if m < n:
        raise reader.unsupported(node, "np.linalg.qr of a matrix wider than tall")
    signs = numpy().sign(numpy().diag(numpy().linalg.qr(reader.numbers_of(args[0], node))[1]))
    q, r = sympy.zeros(m, n), sympy.zeros(n, n)
    for j in range(n):
        v = a[:, j]
        for i in range(j):
            r[i, j] = (q[:, i].T * a[:, j])[0, 0]
            v = v - r[i, j] * q[:, i]
        r[j, j] = sympy.sqrt((v.T * v)[0, 0])
        q[:, j] = v / r[j, j]
    for j in range(n):  # NumPy's signs: column j of Q and row j of R by the same sign
        q[:, j] = q[:, j] * int(signs[j])
        r[j, :] = r[j, :] * int(signs[j])
    return _array(q), _array(r)


def _matrix_power(reader, func, args, kwargs, node):
    _no_keywords(reader, kwargs, node, "matrix_power")
    a = _matrix(reader, args[0], node, "matrix_power")
    n = plain(args[1])
    if type(n) is not int or n < 0 or a.rows != a.cols:
        raise reader.unsupported(node, "np.linalg.matrix_power but of a square matrix and "
                                 "an int n >= 0")
    result = sympy.eye(a.rows)
    for _ in range(n):
        result = result * a
    return _array(result)


DECOMPOSITIONS = {"linalg.pinv": _pinv, "linalg.qr": _qr, "linalg.matrix_power": _matrix_power}
