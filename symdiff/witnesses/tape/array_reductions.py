"""NumPy's reductions on ArrayValues: ``sum``, ``mean``, ``prod``, ``max``/``min``, ``var``,
``std``, ``linalg.norm``, ``cumsum``, ``trace`` and SciPy's ``logsumexp``, with ``axis``
and ``keepdims``; and SciPy's ``softmax`` and ``log_softmax`` along an axis.

Expects an ArrayValue (or data) and NumPy's keyword arguments.  Guarantees NumPy's value
and the VJP written here: the cotangent of the reduced array is spread back over the
axes reduced (``_spread``).  ``max`` and ``min`` share the gradient equally among the
elements that tie for the extreme (as JAX does); ``norm`` has gradient 0 at 0 (as ``abs``
at 0); ``prod`` is exact where elements are 0 (the product of the others, not y / x).

    sum(x, axis=0)        g spread over axis 0
    max(x)                g / k at each of the k maximal elements
    logsumexp(x, axis=1)  g * exp(x - y)
"""

import sys

from symdiff.witnesses.tape.arrays import lift, numpy, offer, record


def _axes(axis, ndim):
    """``axis`` as a sorted tuple of non-negative axes (all of them for None)."""
    if axis is None:
        return tuple(range(ndim))
    axis = axis if isinstance(axis, tuple) else (axis,)
    return tuple(sorted(a % ndim if ndim else 0 for a in axis))


def _spread(np, g, shape, axes, keepdims):
    """``g`` (the shape of the reduced result) broadcast back to ``shape``."""
    g = np.asarray(g)
    if not keepdims:
        g = np.expand_dims(g, axes) if axes else g
    return np.broadcast_to(g, shape)


def _reduction(name, forward, vjp_of, options=()):
    """A reduction: ``forward(np, data, axis, keepdims)`` is the value, ``vjp_of(np, data,
    y, axes, keepdims)`` the function from the cotangent to the array's VJP; ``options``
    names the further keywords it takes (``ddof``)."""
    def apply(a, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        _refuse_out(out)
        for key in kwargs:
            if key not in options:
                raise TypeError(f"numpy.{name} with {key}= is not on the tape")
        np = numpy()
        data, node = lift(a)
        axes = _axes(axis, data.ndim)
        y = forward(np, data, axis, keepdims, **kwargs)
        if dtype is not None:  # (the result in that dtype, as NumPy gives it)
            y = np.asarray(y, dtype=dtype)[()]
        if node is None:
            return y
        return record(y, (node, vjp_of(np, data, y, axes, keepdims, **kwargs)))
    return apply


def _refuse_out(out):
    if out is not None:
        raise TypeError("out= is not supported on the tape: assign the result instead")


def _count(shape, axes):
    n = 1
    for a in axes:
        n *= shape[a]
    return n


def _sum_vjp(np, data, y, axes, keepdims):
    return lambda g: _spread(np, g, data.shape, axes, keepdims)


def _mean_vjp(np, data, y, axes, keepdims):
    n = _count(data.shape, axes)
    return lambda g: _spread(np, g, data.shape, axes, keepdims) / n


def _extreme_vjp(np, data, y, axes, keepdims):
    """Ties share: each maximal element gets ``g / k``, ``k`` the number of them."""
    def vjp(g):
        top = _spread(np, y, data.shape, axes, keepdims)
        mask = (data == top).astype(float)
        count = np.sum(mask, axis=axes, keepdims=True)
        return mask / count * _spread(np, g, data.shape, axes, keepdims)
    return vjp


def _prod_vjp(np, data, y, axes, keepdims):
    """The product of the other elements, by products before and after each one."""
    def vjp(g):
        rest = [a for a in range(data.ndim) if a not in axes]
        moved = np.transpose(data, rest + list(axes))
        flat = moved.reshape(moved.shape[:len(rest)] + (-1,))
        ones = np.ones(flat.shape[:-1] + (1,))
        before = np.cumprod(np.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
        after = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], axis=-1), axis=-1)
        others = (before * after[..., ::-1]).reshape(moved.shape)
        others = np.transpose(others, np.argsort(rest + list(axes)))
        return others * _spread(np, g, data.shape, axes, keepdims)
    return vjp


def _var_vjp(np, data, y, axes, keepdims, ddof=0):
    n = _count(data.shape, axes) - ddof
    centred = data - np.mean(data, axis=axes, keepdims=True)
    return lambda g: _spread(np, g, data.shape, axes, keepdims) * (2.0 / n) * centred


def _std_vjp(np, data, y, axes, keepdims, ddof=0):
    n = _count(data.shape, axes) - ddof
    centred = data - np.mean(data, axis=axes, keepdims=True)

    def vjp(g):
        with np.errstate(all="ignore"):
            scale = _spread(np, g, data.shape, axes, keepdims) / (
                n * _spread(np, y, data.shape, axes, keepdims))
        return scale * centred
    return vjp


def _numpy(name):
    """NumPy's reduction ``name`` as a ``forward`` of ``_reduction``."""
    def forward(np, x, axis, keepdims, **options):
        return getattr(np, name)(x, axis=axis, keepdims=keepdims, **options)
    return forward


sum_ = _reduction("sum", _numpy("sum"), _sum_vjp)
mean = _reduction("mean", _numpy("mean"), _mean_vjp)
prod = _reduction("prod", _numpy("prod"), _prod_vjp)
max_ = _reduction("max", _numpy("max"), _extreme_vjp)
min_ = _reduction("min", _numpy("min"), _extreme_vjp)
var = _reduction("var", _numpy("var"), _var_vjp, ("ddof",))
std = _reduction("std", _numpy("std"), _std_vjp, ("ddof",))


def norm(x, ord=None, axis=None, keepdims=False):
    """``numpy.linalg.norm`` for the 2-norm of vectors (and Frobenius of matrices), the
    1-norm and the max-norm of vectors, and a matrix's nuclear and spectral norms."""
    np = numpy()
    data, node = lift(x)
    if ord in ("nuc", 2) and axis is None and data.ndim == 2:
        return _matrix_norm(np, data, node, ord, keepdims)
    vector = axis is not None and not isinstance(axis, tuple) or data.ndim == 1
    if not (ord is None or ord == "fro" and not vector or vector and ord in (1, 2, np.inf)):
        raise TypeError(f"numpy.linalg.norm with ord={ord!r} is not on the tape: the "
                        "tape has the 2-norm, 'fro', 'nuc', a matrix's 2, and the 1- and "
                        "max-norms of vectors")
    y = np.linalg.norm(data, ord=ord, axis=axis, keepdims=keepdims)
    if node is None:
        return y
    axes = _axes(axis, data.ndim)
    return record(y, (node, _norm_vjp(np, data, y, axes, keepdims, ord)))


def _matrix_norm(np, data, node, ord, keepdims):
    """A matrix's nuclear norm (the sum of its singular values: VJP ``g U Vh``) or
    spectral norm (the largest: VJP ``g u_1 v_1.T``)."""
    u, s, vh = np.linalg.svd(data, full_matrices=False)
    y = np.linalg.norm(data, ord=ord, keepdims=keepdims)
    if node is None:
        return y
    if ord == "nuc":
        return record(y, (node, lambda g: np.asarray(g).reshape(()) * (u @ vh)))
    return record(y, (node, lambda g: np.asarray(g).reshape(()) * np.outer(u[:, 0], vh[0])))


def _norm_vjp(np, data, y, axes, keepdims, ord):
    def vjp(g):
        spread_g = _spread(np, g, data.shape, axes, keepdims)
        if ord == 1:
            return spread_g * np.sign(data)
        if ord == np.inf:
            return _extreme_vjp(np, np.abs(data), y, axes, keepdims)(g) * np.sign(data)
        top = _spread(np, y, data.shape, axes, keepdims)
        return spread_g * np.where(top == 0, 0.0, data / np.where(top == 0, 1.0, top))
    return vjp


def cumsum(x, axis=None, dtype=None, out=None):
    """``numpy.cumsum``: the VJP is the reversed cumulative sum of ``g``."""
    _refuse_out(out)
    np = numpy()
    data, node = lift(x)
    flat = axis is None
    source = data.ravel() if flat else data
    axis = 0 if flat else axis
    y = np.cumsum(source, axis=axis)
    if node is None:
        return y

    def vjp(g):
        back = np.flip(np.cumsum(np.flip(g, axis), axis=axis), axis)
        return back.reshape(data.shape)
    return record(y, (node, vjp))


def cumprod(x, axis=None, dtype=None, out=None):
    """``numpy.cumprod``: ``dx[k] = sum over j >= k of g[j] * (x[0] ... x[j] without
    x[k])``, each product multiplied out (no division, so zeros are exact)."""
    _refuse_out(out)
    np = numpy()
    data, node = lift(x)
    flat = axis is None
    source, axis = (data.ravel(), 0) if flat else (data, axis % data.ndim)
    y = np.cumprod(source, axis=axis)
    if node is None:
        return y

    def vjp(g):
        lines, back = np.moveaxis(source, axis, -1), np.moveaxis(np.asarray(g), axis, -1)
        found = np.zeros(lines.shape)
        for k in range(lines.shape[-1]):
            others = lines.copy()
            others[..., k] = 1.0
            found[..., k] = np.sum((back * np.cumprod(others, axis=-1))[..., k:], axis=-1)
        return np.moveaxis(found, -1, axis).reshape(data.shape)
    return record(y, (node, vjp))


def trace(x, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """``numpy.trace``: ``g`` on the diagonal taken, 0 elsewhere."""
    _refuse_out(out)
    np = numpy()
    data, node = lift(x)
    y = np.trace(data, offset=offset, axis1=axis1, axis2=axis2)
    if node is None:
        return y
    a1, a2 = axis1 % data.ndim, axis2 % data.ndim

    def vjp(g):  # 1 where the place on axis2 is offset past the place on axis1
        rows = np.arange(data.shape[a1])[:, None]
        on = (np.arange(data.shape[a2])[None, :] - rows == offset).astype(data.dtype)
        return np.moveaxis(np.asarray(g)[..., None, None] * on, (-2, -1), (a1, a2))
    return record(y, (node, vjp))


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """``scipy.special.logsumexp`` (without ``b`` or ``return_sign``): the VJP is
    ``g * exp(a - y)``, the softmax."""
    special = sys.modules["scipy.special"]
    if b is not None or return_sign:
        raise TypeError("scipy.special.logsumexp with b= or return_sign= is not on the tape")
    np = numpy()
    data, node = lift(a)
    y = special.logsumexp(data, axis=axis, keepdims=keepdims)
    if node is None:
        return y
    axes = _axes(axis, data.ndim)

    def vjp(g):
        top = _spread(np, y, data.shape, axes, keepdims)
        with np.errstate(all="ignore"):
            return _spread(np, g, data.shape, axes, keepdims) * np.exp(data - top)
    return record(y, (node, vjp))



def softmax(x, axis=None):
    """``scipy.special.softmax``: the VJP is ``y * (g - sum(g * y))`` over the axis."""
    return _along_axis("softmax", x, axis, lambda np, g, data, y: y * (
        g - np.sum(g * y, axis=axis, keepdims=True)))


def log_softmax(x, axis=None):
    """``scipy.special.log_softmax``: the VJP is ``g - softmax(x) * sum(g)`` over the axis."""
    return _along_axis("log_softmax", x, axis, lambda np, g, data, y: g - sys.modules[
        "scipy.special"].softmax(data, axis=axis) * np.sum(g, axis=axis, keepdims=True))


def _along_axis(name, x, axis, vjp_of):
    """SciPy's ``name`` of ``x`` along ``axis`` (the shape kept), its VJP ``vjp_of(numpy,
    g, x's numbers, y)``."""
    np = numpy()
    data, node = lift(x)
    y = getattr(sys.modules["scipy.special"], name)(data, axis=axis)
    if node is None:
        return y
    return record(y, (node, lambda g: vjp_of(np, np.asarray(g), data, y)))


offer(sum=sum_, mean=mean, prod=prod, max=max_, min=min_, var=var, std=std, cumsum=cumsum,
      cumprod=cumprod, trace=trace)
