"""Array reductions beyond ``sum`` and ``mean``: ``max``/``min``, ``ptp``, ``prod``, ``var``,
``std``, the 2-norm (and a matrix's ``"fro"``, ``"nuc"`` and ``2`` norms), ``logsumexp``,
``cumsum`` and ``diff`` (``trace``: ``array_diagonals``).

Expects argument types of ``symdiff.core.types`` and the operands of a statement as IR
expressions (a reduction's ``axis`` and ``keepdims`` are constants: ``statics`` says
which values lowering accepts).  Guarantees ``RECORDS``, one array record each (see
``arrays._array``), with its type rule and its VJP builders, which write the NumPy a
person writes, the reduced axis put back where ``keepdims`` did not keep it:

    m = np.max(x, axis=1)        dx = np.expand_dims(g, 1) * (x == np.expand_dims(m, 1))
                                      / np.sum(x == np.expand_dims(m, 1), axis=1,
                                               keepdims=True, dtype=x.dtype)
    s = np.linalg.norm(x)        dx = g * x / np.where(s == 0.0, 1.0, s)
    s = np.linalg.norm(A, "nuc")  dA = g * (U @ Vh)     (U, _, Vh: A's reduced SVD)
    c = np.cumsum(x)  (1-d)      dx = np.cumsum(g[::-1])[::-1]

Conventions where the derivative is not defined: ``max``/``min`` share the gradient
equally among tied elements (as JAX does); the norm's gradient at the origin is 0 (a
subgradient, as PyTorch gives); ``std``'s at a constant slice is nan (0/0, as JAX).
``prod``'s gradient is the product of the other factors, exact where factors are zero.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.arrays import (_array, _each_axis, or_a_number,
                                       or_a_number_given_back, reduced)
from symdiff.primitives.broadcasting import constant_value as _constant
from symdiff.primitives.record import table
from symdiff.primitives.tangents import Contracted, linear
from symdiff.primitives.texts import instantiate


def _text(text, names, **bound):
    """The IR expression of ``text`` with each name of ``bound`` replaced by its IR
    expression (``numpy`` by the name generated code calls numpy by)."""
    return instantiate(text, tuple(bound), tuple(bound.values()), None, names)


def _none(const):
    return isinstance(const, ex.Const) and const.value is None


def _true(const):
    return isinstance(const, ex.Const) and bool(const.value)


def _back(value, axis, keepdims, names):
    """``value`` (a reduction's result or adjoint) with the axis it took out put back,
    so it broadcasts against the operand: as it is for ``keepdims`` or a reduction to
    one number."""
    if _true(keepdims) or _none(axis):
        return value
    return _text("numpy.expand_dims(v, axis)", names, v=value, axis=axis)


def _reduction_args(args):
    x, axis, keepdims = (tuple(args) + (ex.Const(None), ex.Const(False)))[:3]
    return x, axis, keepdims


@dataclass(frozen=True)
class _Extreme:
    """``max``/``min``: ``g`` shared equally among the elements equal to the result."""

    def __call__(self, g, args, out, names):
        x, axis, keepdims = _reduction_args(args)
        kept = {} if _none(axis) else {"axis": axis}
        mask = _text("x == m", names, x=x, m=_back(out, axis, keepdims, names))
        count = _text("numpy.sum(mask, dtype=x.dtype)" if not kept else
                      "numpy.sum(mask, axis=axis, keepdims=True, dtype=x.dtype)", names,
                      mask=mask, x=x, **kept)
        return _text("g * mask / count", names, g=_back(g, axis, keepdims, names),
                     mask=mask, count=count)


@dataclass(frozen=True)
class _Range:
    """``ptp``, the largest minus the smallest: ``max``'s adjoint minus ``min``'s, ties
    sharing as theirs do (each computed again: ``out`` is the range, neither extreme)."""

    def __call__(self, g, args, out, names):
        x, axis, keepdims = _reduction_args(args)
        kept = "" if _none(axis) else ", axis=axis"
        extremes = [_text(f"numpy.{which}(x{kept}, keepdims=keepdims)", names, x=x, axis=axis,
                          keepdims=keepdims) for which in ("max", "min")]
        high, low = (_Extreme()(g, args, m, names) for m in extremes)
        return ex.BinOp("-", high, low)


@dataclass(frozen=True)
class _Product:
    """``prod``: each factor's partial is the product over the others, exact where
    factors are zero: ``p / x`` for a nonzero factor where none is zero (``p`` the
    product of the nonzero ones), ``p`` for the one zero factor, 0 where two are."""

    def __call__(self, g, args, out, names):
        x, axis, keepdims = _reduction_args(args)
        kept = {} if _none(axis) else {"axis": axis}
        over = ", axis=axis" if kept else ""
        nonzero = _text("numpy.where(x != 0, x, 1.0)", names, x=x)
        p = _text(f"numpy.prod(nonzero{over}, keepdims=True)", names, nonzero=nonzero, **kept)
        zeros = _text(f"numpy.sum(x == 0{over}, keepdims=True)", names, x=x, **kept)
        return _text("g * numpy.where(x != 0, numpy.where(zeros == 0, p / nonzero, 0.0), "
                     "numpy.where(zeros == 1, p, 0.0))", names,
                     g=_back(g, axis, keepdims, names), x=x, p=p, zeros=zeros,
                     nonzero=nonzero)


def _count(x, axis, names):
    """The number of elements a reduction of ``x`` over ``axis`` takes each result from:
    ``x.size``, ``x.shape[1]``, ``x.shape[0] * x.shape[2]`` for ``axis=(0, 2)``."""
    if _none(axis):
        return _text("x.size", names, x=x)
    count = None
    for a in _each_axis(axis):
        size = _text("x.shape[a]", names, x=x, a=a)
        count = size if count is None else ex.BinOp("*", count, size)
    return count


def _centered(x, axis, names):
    if _none(axis):
        return _text("x - numpy.mean(x)", names, x=x)
    return _text("x - numpy.mean(x, axis=axis, keepdims=True)", names, x=x, axis=axis)


@dataclass(frozen=True)
class _Moment:
    """``var`` (``std``): ``g * 2 (x - mean) / (n - ddof)`` (over ``2 std``)."""

    root: bool

    def __call__(self, g, args, out, names):
        x, axis, ddof, keepdims = (tuple(args) + (ex.Const(None), ex.Const(0),
                                                  ex.Const(False)))[:4]
        n = _count(x, axis, names)
        if isinstance(ddof, ex.Const) and ddof.value == 0:
            dof = n
        else:
            dof = _text("n - ddof", names, n=n, ddof=ddof)
        g = _back(g, axis, keepdims, names)
        if self.root:
            return _text("g * c / (dof * s)", names, g=g, c=_centered(x, axis, names),
                         dof=dof, s=_back(out, axis, keepdims, names))
        return _text("g * (2.0 * c) / dof", names, g=g, c=_centered(x, axis, names), dof=dof)


@dataclass(frozen=True)
class _Norm:
    """The 2-norm (Frobenius for a matrix): ``g * x / out``, and 0 at the origin (where
    ``x`` is 0 too); a matrix's nuclear norm (``ord="nuc"``): ``g * U @ Vh``; its
    spectral norm (``ord=2``): ``g`` times the outer product of the top singular vectors
    (of the reduced SVD; distinct top singular values)."""

    ndim: int = 1

    def __call__(self, g, args, out, names):
        x, order, axis, keepdims = (tuple(args) + (ex.Const(None),) * 3
                                    + (ex.Const(False),))[:4]
        order = order.value if isinstance(order, ex.Const) else None
        if self.ndim == 2 and order in ("nuc", 2):
            svd = "numpy.linalg.svd(x, full_matrices=False)"
            return _text(f"g * ({svd}[0] @ {svd}[2])" if order == "nuc" else
                         f"g * numpy.outer({svd}[0][:, 0], {svd}[2][0])", names, g=g, x=x)
        s = _back(out, axis, keepdims, names)
        return _text("g * x / numpy.where(s == 0.0, 1.0, s)", names,
                     g=_back(g, axis, keepdims, names), x=x, s=s)


@dataclass(frozen=True)
class _Softmax:
    """``logsumexp``: ``g`` times the softmax of ``x`` over the axis, ``exp(x - out)``."""

    def __call__(self, g, args, out, names):
        x, axis, _, keepdims = (tuple(args) + (ex.Const(None), ex.Const(None),
                                               ex.Const(False)))[:4]
        return _text("g * numpy.exp(x - out)", names, g=_back(g, axis, keepdims, names),
                     x=x, out=_back(out, axis, keepdims, names))


@dataclass(frozen=True)
class _ReversedCumsum:
    """``cumsum``: each element's adjoint is the sum of ``g`` from its place on, a
    cumulative sum of ``g`` reversed; over the flattened array for ``axis=None``."""

    ndim: int

    def __call__(self, g, args, out, names):
        x, axis = (tuple(args) + (ex.Const(None),))[:2]
        if _none(axis) or self.ndim == 1:
            summed = _text("numpy.cumsum(g[::-1])[::-1]", names, g=g)
            return summed if self.ndim == 1 else _text("v.reshape(x.shape)", names, v=summed,
                                                       x=x)
        return _text("numpy.flip(numpy.cumsum(numpy.flip(g, axis), axis), axis)", names,
                     g=g, axis=axis)


@dataclass(frozen=True)
class _Difference:
    """``diff`` (``n=1``): ``dx[k] = g[k-1] - g[k]``, ``g`` padded with a zero at
    either end along the axis (``numpy.pad`` keeps the dtype)."""

    ndim: int

    def __call__(self, g, args, out, names):
        at = _constant(args[2] if len(args) > 2 else ex.Const(-1)) % self.ndim

        def widths(before, after):
            pads = [ex.Tuple((ex.Const(0), ex.Const(0)))] * self.ndim
            pads[at] = ex.Tuple((ex.Const(before), ex.Const(after)))
            return pads[0] if self.ndim == 1 else ex.Tuple(tuple(pads))
        return _text("numpy.pad(g, a) - numpy.pad(g, b)", names, g=g, a=widths(1, 0),
                     b=widths(0, 1))


# --- the type rules ------------------------------------------------------------------------

def _array_of(args, ndim=None):
    x = args[0] if args else None
    if not isinstance(x, t.Array) or (ndim is not None and x.ndim not in ndim):
        return None
    return x


def moment(args, consts):
    """``var``/``std`` (``x, axis, ddof, keepdims``): as a reduction."""
    consts = tuple(consts) + (None,) * 4
    return reduced(args[:1], (None, consts[1], consts[3]))


def norm(args, consts):
    """``numpy.linalg.norm`` (``x, ord, axis, keepdims``) of the 2-norm (Frobenius for a
    matrix); with ``ord``, of a whole vector (``2``) or matrix (``"fro"``, ``"nuc"``, ``2``)."""
    consts = tuple(consts) + (None,) * 4
    order = consts[1]
    if order is None:
        return reduced(args[:1], (None, consts[2], consts[3]))
    x = _array_of(args, (1, 2))
    if x is None or consts[2] is not None or consts[3] or (x.ndim == 1 and order != 2):
        return None
    return t.NUMPY_FLOAT


def softmax_reduced(args, consts):
    """``logsumexp`` (``x, axis, b, keepdims``)."""
    consts = tuple(consts) + (None,) * 4
    return reduced(args[:1], (None, consts[1], consts[3]))


def accumulated(args, consts):
    """``cumsum``: ``x``'s type along an axis, one axis for ``axis=None``."""
    x = _array_of(args)
    if x is None:
        return None
    if len(consts) > 1 and consts[1] is not None:
        return x
    return t.Array(x.dtype, 1, x.unit_axes if x.ndim == 1 else ())


def differenced(args, consts):
    """``diff`` along a constant axis: the axis no longer known to have size one."""
    x = _array_of(args)
    axis = consts[2] if len(consts) > 2 else -1
    if x is None or not isinstance(axis, int):
        return None
    at = axis % x.ndim
    return t.Array(x.dtype, x.ndim, tuple(a for a in x.unit_axes if a != at))


# --- the VJP builders, by the arguments' types ------------------------------------------

def _first(builder, count):
    def vjp(args, out):
        return (builder,) + (None,) * (count - 1)
    return vjp


def _by_ndim(make, count):
    def vjp(args, out):
        return (make(args[0].ndim),) + (None,) * (count - 1)
    return vjp


_REDUCTION = ("x", "axis", "keepdims")
_KEEP = dict(defaults=(None, False), ints=("axis", "keepdims"))


def _reduction(name, function, builder, names, whole=True):
    """A reduction record; ``whole``: it gives a number back as it came (``np.max(a)``
    of a float ``a`` is ``a``; ``np.ptp(a)`` is not, so it takes arrays only)."""
    vjp, jvp = _first(builder, 3), _first(Contracted(builder, 1, 2), 3)
    if whole:
        vjp, jvp = or_a_number_given_back(vjp), or_a_number_given_back(jvp)
    return _array(f"array_{name}", f"numpy.{function}(x, axis=axis, keepdims=keepdims)",
                  _REDUCTION, or_a_number(reduced) if whole else reduced, vjp, numpy=names,
                  jvp=jvp, **_KEEP)


RECORDS = table(
    _reduction("max", "max", _Extreme(), ("max", "amax")),
    _reduction("min", "min", _Extreme(), ("min", "amin")),
    _reduction("prod", "prod", _Product(), ("prod",)),
    _reduction("ptp", "ptp", _Range(), ("ptp",), whole=False),
    _array("array_var", "numpy.var(x, axis=axis, ddof=ddof, keepdims=keepdims)",
           ("x", "axis", "ddof", "keepdims"), moment, _first(_Moment(False), 4),
           defaults=(None, 0, False), ints=("axis", "ddof", "keepdims"), numpy=("var",),
           jvp=_first(Contracted(_Moment(False), 1, 3), 4)),
    _array("array_std", "numpy.std(x, axis=axis, ddof=ddof, keepdims=keepdims)",
           ("x", "axis", "ddof", "keepdims"), moment, _first(_Moment(True), 4),
           defaults=(None, 0, False), ints=("axis", "ddof", "keepdims"), numpy=("std",),
           jvp=_first(Contracted(_Moment(True), 1, 3), 4)),
    _array("norm", "numpy.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)",
           ("x", "ord", "axis", "keepdims"), norm, _by_ndim(_Norm, 4),
           defaults=(None, None, False), ints=("ord", "axis", "keepdims"),
           numpy=("linalg.norm",), jvp=_by_ndim(lambda ndim: Contracted(_Norm(ndim), 2, 3), 4)),
    _array("logsumexp", "logsumexp(x, axis, b, keepdims)", ("x", "axis", "b", "keepdims"),
           softmax_reduced, _first(_Softmax(), 4), defaults=(None, None, False),
           ints=("axis", "b", "keepdims"), scipy=("logsumexp",), by_position=4,
           jvp=_first(Contracted(_Softmax(), 1, 3), 4)),
    _array("cumsum", "numpy.cumsum(x, axis=axis)", ("x", "axis"), accumulated,
           _by_ndim(_ReversedCumsum, 2), defaults=(None,), ints=("axis",), numpy=("cumsum",),
           jvp=linear()),
    _array("diff", "numpy.diff(x, n=n, axis=axis)", ("x", "n", "axis"), differenced,
           _by_ndim(_Difference, 3), defaults=(1, -1), ints=("n", "axis"), numpy=("diff",),
           jvp=linear()),
)

METHODS = {"max": "array_max", "min": "array_min", "prod": "array_prod", "var": "array_var",
           "std": "array_std", "cumsum": "cumsum"}

# The constants lowering requires of a call: param -> (accepts(value), what it takes).
STATICS = {  # (``axes``: an int, a tuple of ints or None; ``sum`` and ``mean`` are ``arrays``')
    **{op: {"axis": "axes", "keepdims": "bool"} for op in (
        "array_sum", "array_mean", "array_max", "array_min", "array_prod", "array_ptp")},
    "array_var": {"axis": "axes", "keepdims": "bool", "ddof": "int"},
    "array_std": {"axis": "axes", "keepdims": "bool", "ddof": "int"},
    "norm": {"ord": "order", "axis": "axes", "keepdims": "bool"},
    "logsumexp": {"axis": "axes", "b": "none", "keepdims": "bool"},
    "cumsum": {"axis": "axis"},
    "diff": {"n": "one", "axis": "int"},
}

HINTS = {"array_max": "it takes an array of floats, or a float whole",
         "array_min": "it takes an array of floats, or a float whole",
         "array_ptp": "it takes an array of floats",
         "diff": "it takes an array and a constant axis"}
