"""``numpy.trace`` and ``numpy.diagonal`` (and the methods ``x.trace``, ``x.diagonal``) as
records, with an offset and any two distinct axes of an array of two axes or more.

Expects argument types of ``symdiff.core.types``; ``offset``, ``axis1`` and ``axis2``
constant ints (``STATICS``).  Guarantees ``RECORDS``, one array record each (see
``arrays._array``), its type rule None where the axes are out of range or the same, and
VJP builders writing the NumPy a person writes: the trace's adjoint is ``g`` times the
identity (``k=offset``) put on the two axes it summed; the diagonal's, ``g`` written back
on the diagonal it read (of a matrix with no offset, ``numpy.diag(g)`` padded to the
matrix; else an einsum of ``g`` with the two identities that say where each element
came from).  Both are linear: the tangent is the same call of the tangent.

    t = np.trace(x)                  dx = g * np.eye(x.shape[0], x.shape[1], dtype=x.dtype)
    t = np.trace(x, 1, 1, 2)  (3-d)  dx = np.expand_dims(g, (1, 2))
                                          * np.eye(x.shape[1], x.shape[2], k=1, dtype=x.dtype)
    d = np.diagonal(x, 1)            dx = np.einsum("i,ij,ik->jk", g,
                                                    np.eye(g.shape[-1], x.shape[0], dtype=x.dtype),
                                                    np.eye(g.shape[-1], x.shape[1], k=1, dtype=x.dtype))
"""

import string
from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import constant_value
from symdiff.primitives.record import table
from symdiff.primitives.tangents import linear

_PARAMS = ("x", "offset", "axis1", "axis2")
_DEFAULTS = (0, 0, 1)


def _statics(consts):
    """``(offset, axis1, axis2)`` of a call's constants, NumPy's defaults where left out."""
    given = tuple(consts[1:4]) + _DEFAULTS[len(consts[1:4]):]
    return tuple(d if c is None else c for c, d in zip(given, _DEFAULTS))


def _planes(args, consts):
    """``(x's type, offset, axis1, axis2)``, the axes counted from the front, for an array
    of two axes or more and two distinct axes of it; None for any other."""
    x = args[0] if args else None
    if not isinstance(x, t.Array) or x.ndim < 2:
        return None
    offset, axis1, axis2 = _statics(consts)
    if not all(type(v) is int for v in (offset, axis1, axis2)) or not all(
            -x.ndim <= a < x.ndim for a in (axis1, axis2)) or axis1 % x.ndim == axis2 % x.ndim:
        return None
    return x, offset, axis1 % x.ndim, axis2 % x.ndim


def _rest_units(x, a1, a2):
    """The unit axes of ``x`` among those other than ``a1`` and ``a2``, counted among them."""
    rest = [a for a in range(x.ndim) if a not in (a1, a2)]
    return tuple(rest.index(a) for a in x.unit_axes if a in rest)


def traced(args, consts):
    """``numpy.trace``: a number of a matrix, else the array of the other axes."""
    found = _planes(args, consts)
    if found is None:
        return None
    x, _, a1, a2 = found
    if x.ndim == 2:
        return t.NUMPY_FLOAT
    return t.Array(x.dtype, x.ndim - 2, _rest_units(x, a1, a2))


def diagonal_taken(args, consts):
    """``numpy.diagonal``: the other axes, then the diagonal, of length one where ``x``'s
    axis is of size one on either side and there is no offset."""
    found = _planes(args, consts)
    if found is None:
        return None
    x, offset, a1, a2 = found
    units = _rest_units(x, a1, a2)
    if offset == 0 and (a1 in x.unit_axes or a2 in x.unit_axes):
        units += (x.ndim - 2,)
    return t.Array(x.dtype, x.ndim - 1, units)


def _axes_of(args, ndim):
    offset, axis1, axis2 = _statics([constant_value(a) for a in args])
    return offset, axis1 % ndim, axis2 % ndim


def _eye(x, rows, columns, k, names, transposed=False):
    """``numpy.eye(rows, columns, k=k, dtype=x.dtype)``, ``k`` an IR expression of a
    constant (left out where 0)."""
    shift = "" if constant_value(k) == 0 else ", k=k"
    text = f"numpy.eye(n, m{shift}, dtype=x.dtype)" + (".T" if transposed else "")
    return _text(text, names, n=rows, m=columns, k=k, x=x)


def _shape(x, axis, names):
    return _text("x.shape[a]", names, x=x, a=ex.Const(axis))


def _tuple(axes):
    return ex.Const(axes[0]) if len(axes) == 1 else ex.Tuple(tuple(ex.Const(a) for a in axes))


@dataclass(frozen=True)
class _TraceBack:
    """``trace``'s adjoint: ``g`` on the diagonal it summed (``k=offset``), the identity
    turned where ``axis1`` comes after ``axis2``, both put on the axes of ``x``."""

    ndim: int

    def __call__(self, g, args, out, names):
        x = args[0]
        offset, a1, a2 = _axes_of(args, self.ndim)
        k = args[1] if len(args) > 1 else ex.Const(offset)
        eye = _eye(x, _shape(x, a1, names), _shape(x, a2, names), k, names, a1 > a2)
        if self.ndim == 2:
            return _text("g * eye", names, g=g, eye=eye)
        rest = tuple(a for a in range(self.ndim) if a not in (a1, a2))
        if rest != tuple(range(self.ndim - 2)):  # (the identity on the last two broadcasts)
            eye = _text("numpy.expand_dims(eye, axes)", names, eye=eye, axes=_tuple(rest))
        g = _text("numpy.expand_dims(g, axes)", names, g=g,
                  axes=_tuple(tuple(sorted((a1, a2)))))
        return _text("g * eye", names, g=g, eye=eye)


_LETTERS = [c for c in string.ascii_lowercase + string.ascii_uppercase if c not in "ijk"]


@dataclass(frozen=True)
class _DiagonalBack:
    """``diagonal``'s adjoint: ``g[..., i]`` back at ``x[..., j, k]`` where ``j`` and ``k``
    are the places on ``axis1`` and ``axis2`` element ``i`` was read from: the einsum of
    ``g`` with ``eye(L, n1)`` and ``eye(L, n2, k=offset)`` (the shift on ``axis1``'s side
    for a negative offset), ``L`` the diagonal's length."""

    ndim: int

    def __call__(self, g, args, out, names):
        x = args[0]
        offset, a1, a2 = _axes_of(args, self.ndim)
        if self.ndim == 2 and (offset, a1, a2) == (0, 0, 1):
            return _text("numpy.pad(numpy.diag(g), ((0, x.shape[0] - g.shape[0]), "
                         "(0, x.shape[1] - g.shape[0])))", names, g=g, x=x)
        rest = [a for a in range(self.ndim) if a not in (a1, a2)]
        letters = {a: _LETTERS[n] for n, a in enumerate(rest)}
        letters.update({a1: "j", a2: "k"})
        mine = "".join(letters[a] for a in range(self.ndim))
        spec = "".join(letters[a] for a in rest) + "i,ij,ik->" + mine
        length = _text("g.shape[-1]", names, g=g)
        first = _eye(x, length, _shape(x, a1, names), ex.Const(max(-offset, 0)), names)
        second = _eye(x, length, _shape(x, a2, names), ex.Const(max(offset, 0)), names)
        return ex.Call(ex.Attribute(_text("numpy", names), "einsum"),
                       (ex.Const(spec), g, first, second), ())


def _builder(make):
    def vjp(args, out):
        return (make(args[0].ndim), None, None, None)
    return vjp


_STATIC = dict(defaults=_DEFAULTS, ints=("offset", "axis1", "axis2"), by_position=4)

RECORDS = table(
    _array("trace", "numpy.trace(x, offset=offset, axis1=axis1, axis2=axis2)", _PARAMS,
           traced, _builder(_TraceBack), numpy=("trace",), jvp=linear(), **_STATIC),
    _array("diagonal", "numpy.diagonal(x, offset=offset, axis1=axis1, axis2=axis2)",
           _PARAMS, diagonal_taken, _builder(_DiagonalBack), numpy=("diagonal",),
           total=True, jvp=linear(), **_STATIC),
)
METHODS = {"trace": "trace", "diagonal": "diagonal"}
STATICS = {name: {"offset": "int", "axis1": "int", "axis2": "int"} for name in RECORDS}
HINTS = {name: "it takes an array of two axes or more, a constant offset and two "
               "distinct constant axes of it" for name in RECORDS}
