"""``np.cumprod`` (and ``x.cumprod()``) as a record, exact where factors are zero.

Expects argument types of ``symdiff.core.types``; the axis a constant or None
(``STATICS``).  Guarantees ``RECORDS``: the record, its type ``cumsum``'s, its VJP and
JVP through the matrix of partials ``P[k, j] = prod(x[i] for i <= j if i != k)``
(zero for ``k > j``): the running products of ``x`` with its ``k``-th factor made one,
row by row, so no division by a factor is made (a zero factor gives its exact partial,
as ``prod``'s does).  For a vector:

    c = np.cumprod(x)      P = np.triu(np.cumprod(np.where(np.eye(x.size) > 0, 1.0, x),
                                                  axis=1))
                           dx = P @ g             (the tangent: dx @ P)

Along an axis of an array of more, the axis is moved last, the rows made along a new
axis before it, and moved back; ``axis=None`` is the vector of the flattened array.
The matrix holds ``n`` by ``n`` numbers per slice: a cumulative product is of a short
axis in the code it is written in (a survival curve, a discount, a stick-breaking).
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.primitives.array_reductions import _text, accumulated
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import constant_value
from symdiff.primitives.record import table

_ROWS = "numpy.triu(numpy.cumprod(numpy.where(numpy.eye({n}) > 0, 1.0, {x}), axis=-1))"
_ROW_OF_A_VECTOR = "numpy.triu(numpy.cumprod(numpy.where(numpy.eye(x.size) > 0, 1.0, v), axis=1))"
_BACK = "numpy.sum(P * numpy.expand_dims(g, -2), axis=-1)"  # sum over j of P[k, j] g[j]
_ON = "numpy.sum(P * numpy.expand_dims(g, -1), axis=-2)"  # sum over k of P[k, j] dx[k]


@dataclass(frozen=True)
class _Cumulative:
    """The adjoint (``tangent=False``) or the tangent of ``cumprod`` of an array of
    ``ndim`` axes."""

    ndim: int
    tangent: bool

    def __call__(self, g, args, out, names):
        x, axis = (tuple(args) + (ex.Const(None),))[:2]
        flat = isinstance(axis, ex.Const) and axis.value is None
        if flat or self.ndim == 1:
            return self._vector(g, x, names)
        at = constant_value(axis) % self.ndim
        last = at == self.ndim - 1
        moved = (lambda v: v) if last else (
            lambda v: _text(f"numpy.moveaxis(v, {at}, -1)", names, v=v))
        rows = _text(_ROWS.format(n="x.shape[a]", x="numpy.expand_dims(m, -2)"), names,
                     x=x, a=ex.Const(at), m=moved(x))
        found = _text(_ON if self.tangent else _BACK, names, P=rows, g=moved(g))
        return found if last else _text(f"numpy.moveaxis(v, -1, {at})", names, v=found)

    def _vector(self, g, x, names):
        line = x if self.ndim == 1 else _text("numpy.ravel(x)", names, x=x)
        rows = _text(_ROW_OF_A_VECTOR, names, x=x, v=line)
        if self.tangent:
            dx = g if self.ndim == 1 else _text("numpy.ravel(g)", names, g=g)
            return _text("dx @ P", names, dx=dx, P=rows)
        found = _text("P @ g", names, P=rows, g=g)
        return found if self.ndim == 1 else _text("v.reshape(x.shape)", names, v=found, x=x)


def _builders(tangent):
    def build(args, out):
        return (_Cumulative(args[0].ndim, tangent), None)
    return build


RECORDS = table(
    _array("cumprod", "numpy.cumprod(x, axis=axis)", ("x", "axis"), accumulated,
           _builders(False), defaults=(None,), ints=("axis",), numpy=("cumprod",),
           total=True, jvp=_builders(True)),
)
METHODS = {"cumprod": "cumprod"}
STATICS = {"cumprod": {"axis": "axis"}}
HINTS = {"cumprod": "it takes an array and a constant axis or None"}
