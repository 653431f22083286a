"""Linear algebra on ArrayValues: ``@``/``matmul``, ``dot``, ``inner``, ``outer``,
``einsum``, ``transpose``, ``swapaxes``, ``diag``, ``diagonal`` and ``numpy.linalg``'s
``solve``, ``inv``, ``det``, ``slogdet``, ``cholesky`` (the decompositions:
``array_decompositions``).

Expects ArrayValues, Values and data mixed.  Guarantees NumPy's values and the VJPs
written here: ``matmul`` with NumPy's rules for 1-d operands and broadcast batch axes
(the VJP of a broadcast batch is summed back); ``einsum`` for a constant subscript string,
``...`` named by letters of its own (the VJP of an operand is the einsum of the cotangent
with the other operands, summed where the operand's axis of size one was broadcast, and
written onto the diagonal where an index repeats in it); ``solve(A, b)`` with ``A`` square 2-d.

    A @ B            dA = g @ B.T,  dB = A.T @ g
    solve(A, b)      db = solve(A.T, g), dA = -db x.T
    det(A)           dA = g det(A) inv(A).T
    cholesky(A)      Murray (2016): sym(L^-T Phi(L^T g) L^-1), Phi = lower part, diag halved
"""

from collections import namedtuple

from symdiff.witnesses.tape.arrays import OFFERED, lift, numpy, offer, record, unbroadcast

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])


def _swap(np, x):
    return np.swapaxes(x, -1, -2)


def matmul(a, b):
    """``a @ b``: 1-d operands are a row (left) or a column (right), as NumPy reads them."""
    np = numpy()
    (ad, an), (bd, bn) = lift(a), lift(b)
    if ad.ndim == 0 or bd.ndim == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    y = np.matmul(ad, bd)
    left, right = (ad[None, :] if ad.ndim == 1 else ad), (bd[:, None] if bd.ndim == 1 else bd)

    def cotangent(g):
        g = np.asarray(g)
        if ad.ndim == 1 and bd.ndim == 1:
            return g.reshape(1, 1)
        if ad.ndim == 1:
            return np.expand_dims(g, -2)
        return np.expand_dims(g, -1) if bd.ndim == 1 else g
    edges = ()
    if an is not None:
        edges += (an, lambda g: unbroadcast(cotangent(g) @ _swap(np, right),
                                            left.shape).reshape(ad.shape))
    if bn is not None:
        edges += (bn, lambda g: unbroadcast(_swap(np, left) @ cotangent(g),
                                            right.shape).reshape(bd.shape))
    return record(y, edges)


def dot(a, b):
    """``numpy.dot``: a product with a scalar, else ``matmul`` (up to 2-d operands)."""
    ad, bd = lift(a)[0], lift(b)[0]
    if ad.ndim == 0 or bd.ndim == 0:
        return OFFERED["multiply"](a, b)
    if ad.ndim > 2 or bd.ndim > 2:
        raise TypeError("numpy.dot of arrays with more than 2 dimensions is not on the "
                        "tape: use np.matmul, np.tensordot or np.einsum")
    return matmul(a, b)


def inner(a, b):
    ad, bd = lift(a)[0], lift(b)[0]
    if ad.ndim == 0 or bd.ndim == 0:
        return OFFERED["multiply"](a, b)
    letters = "abcdefghijklmnopqrstuvwxy"
    left, right = letters[:ad.ndim - 1], letters[ad.ndim - 1:ad.ndim + bd.ndim - 2]
    return einsum(f"{left}z,{right}z->{left}{right}", a, b)


def outer(a, b):
    ravel = OFFERED["ravel"]
    return einsum("i,j->ij", ravel(a), ravel(b))


def _parse(subscripts, operands):
    """``([inputs], output)`` of an einsum subscript string, each ``...`` named by letters
    of its own (the broadcast axes, counted from the right) and the output written out."""
    text = subscripts.replace(" ", "")
    inputs, arrow, output = text.partition("->")
    inputs = inputs.split(",")
    if len(inputs) != len(operands):
        raise ValueError(f"einsum: {len(inputs)} subscripts for {len(operands)} operands")
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in text]
    widths = [x.ndim - len(s) + 3 if "..." in s else 0
              for s, x in zip(inputs, operands)]
    batch = "".join(spare[:max(widths)])
    inputs = [s.replace("...", batch[len(batch) - w:] if w else "") for s, w in zip(inputs, widths)]
    if arrow:
        return inputs, output.replace("...", batch)
    letters = "".join(inputs)
    return inputs, batch + "".join(sorted(c for c in set(letters) if letters.count(c) == 1
                                          and c not in batch))


def einsum(subscripts, *operands, **kwargs):
    """``numpy.einsum`` with a subscript string; keyword arguments are NumPy's."""
    np = numpy()
    if not isinstance(subscripts, str):
        raise TypeError("numpy.einsum on the tape takes its subscripts as a string")
    lifted = [lift(x) for x in operands]
    datas = [d for d, _ in lifted]
    inputs, output = _parse(subscripts, datas)
    y = np.einsum(f"{','.join(inputs)}->{output}", *datas, **kwargs)
    edges = ()
    for i, (data, node) in enumerate(lifted):
        if node is not None:
            edges += (node, _einsum_vjp(np, inputs, output, datas, i))
    return record(y, edges)


def _einsum_vjp(np, inputs, output, datas, i):
    """The VJP of operand ``i``: the einsum of ``g`` and the others onto its distinct
    subscripts, spread along its indices that appear nowhere else (summed away in the
    forward); where an index repeats in the operand (``"ii"``), written into zeros at
    the entries whose repeated indices agree (the diagonal it reads), by fancy indexing."""
    others = [t for j, t in enumerate(inputs) if j != i]
    seen = set(output) | set("".join(others))
    distinct = "".join(dict.fromkeys(inputs[i]))
    kept = "".join(c for c in distinct if c in seen)
    sizes = dict(zip(inputs[i], datas[i].shape))

    def vjp(g):
        rest = [d for j, d in enumerate(datas) if j != i]
        part = np.einsum(f"{','.join([output] + others)}->{kept}", g, *rest)
        widened = tuple(a for a, c in enumerate(kept) if sizes[c] == 1 and part.shape[a] != 1)
        part = np.sum(part, axis=widened, keepdims=True) if widened else part  # broadcast
        shape = [part.shape[kept.index(c)] if c in kept else 1 for c in distinct]
        order = [kept.index(c) for c in distinct if c in kept]
        part = np.transpose(part, order) if order else part
        full = np.broadcast_to(part.reshape(shape), [sizes[c] for c in distinct])
        if distinct == inputs[i]:
            return full
        grid = np.indices(full.shape)
        out = np.zeros(datas[i].shape, dtype=np.result_type(full.dtype, datas[i].dtype))
        out[tuple(grid[distinct.index(c)] for c in inputs[i])] = full
        return out
    return vjp


def transpose(a, axes=None):
    np = numpy()
    data, node = lift(a)
    y = np.transpose(data, axes)
    if node is None:
        return y
    back = np.argsort(axes) if axes is not None else None
    return record(y, (node, lambda g: np.transpose(g, back)))


def swapaxes(a, axis1, axis2):
    np = numpy()
    data, node = lift(a)
    y = np.swapaxes(data, axis1, axis2)
    return y if node is None else record(y, (node, lambda g: np.swapaxes(g, axis1, axis2)))


def diagonal(a, offset=0, axis1=0, axis2=1):
    """``numpy.diagonal``: ``g`` written back on the diagonal taken."""
    np = numpy()
    data, node = lift(a)
    y = np.diagonal(data, offset, axis1, axis2)
    if node is None:
        return y.copy()

    def vjp(g):
        out = np.zeros(data.shape)
        view = np.diagonal(out, offset, axis1, axis2)
        view.flags.writeable = True
        view[...] = g
        return out
    return record(y.copy(), (node, vjp))


def diag(v, k=0):
    """``numpy.diag``: a 1-d array to the matrix with it on a diagonal, or a matrix's
    diagonal."""
    np = numpy()
    data, node = lift(v)
    if data.ndim == 2:
        return diagonal(v, k)
    if data.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    y = np.diag(data, k)
    return y if node is None else record(y, (node, lambda g: np.diagonal(g, k).copy()))


def solve(A, b):
    np = numpy()
    (ad, an), (bd, bn) = lift(A), lift(b)
    if ad.ndim != 2:
        raise TypeError("numpy.linalg.solve on the tape takes a 2-d A (no batch)")
    x = np.linalg.solve(ad, bd)
    column = bd.ndim == 1
    edges = ()

    def db(g):
        return np.linalg.solve(ad.T, g)
    if bn is not None:
        edges += (bn, db)
    if an is not None:
        edges += (an, lambda g: -(np.outer(db(g), x) if column else db(g) @ x.T))
    return record(x, edges)


def inv(A):
    np = numpy()
    data, node = lift(A)
    y = np.linalg.inv(data)
    if node is None:
        return y
    return record(y, (node, lambda g: -(_swap(np, y) @ g @ _swap(np, y))))


def det(A):
    np = numpy()
    data, node = lift(A)
    y = np.linalg.det(data)
    if node is None:
        return y

    def vjp(g):
        scale = np.asarray(g * y)[..., None, None]
        return scale * _swap(np, np.linalg.inv(data))
    return record(y, (node, vjp))


def slogdet(A):
    """``numpy.linalg.slogdet``: the sign is constant, ``logabsdet`` has VJP g inv(A).T."""
    np = numpy()
    data, node = lift(A)
    sign, logdet = np.linalg.slogdet(data)
    if node is None:
        return SlogdetResult(sign, logdet)

    def vjp(g):
        return np.asarray(g)[..., None, None] * _swap(np, np.linalg.inv(data))
    return SlogdetResult(sign, record(logdet, (node, vjp)))


def cholesky(A, upper=False):
    """``numpy.linalg.cholesky`` of a 2-d symmetric positive-definite matrix (the lower
    factor).  NumPy reads the lower triangle only: the symmetric VJP ``G`` is folded onto
    it, each entry below the diagonal standing for itself and its mirror (``2 G_ij``),
    the diagonal as it is, nothing above."""
    np = numpy()
    data, node = lift(A)
    if data.ndim != 2 or upper:
        raise TypeError("numpy.linalg.cholesky on the tape takes a 2-d A, lower factor")
    L = np.linalg.cholesky(data)
    if node is None:
        return L

    def vjp(g):
        phi = np.tril(L.T @ g)
        phi[np.diag_indices_from(phi)] *= 0.5
        left = np.linalg.solve(L.T, phi)             # L^-T Phi
        S = np.linalg.solve(L.T, left.T).T           # L^-T Phi L^-1
        G = 0.5 * (S + S.T)
        return np.tril(2.0 * G) - np.diag(np.diag(G))
    return record(L, (node, vjp))


offer(matmul=matmul, dot=dot, transpose=transpose, swapaxes=swapaxes, diagonal=diagonal)
