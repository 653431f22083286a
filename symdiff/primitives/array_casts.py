"""Casts to a float dtype: ``np.float32(x)`` and ``np.float64(x)`` of a number or an
array, records whose derivative is one.

Expects argument types of ``symdiff.core.types``.  Guarantees ``RECORDS``, one array
record per dtype, each spelled by NumPy's name of its type: of an array of floats,
integers or booleans the array of that dtype (its axes as they are); of a number,
NumPy's scalar.  The adjoint is ``g`` itself, cast back to the operand's dtype where
that differs (a float64 array's gradient stays float64); a number's is ``g``.

    y = x * np.float32(2.0)       (a constant: no adjoint)
    y = np.float32(X)             dX = g.astype(X.dtype)        (X of float64)

``x.astype(np.float32)`` (``"float32"``, ``float`` for float64: ``lower.casts`` reads
the dtype) is the record ``astype_float32`` of arrays, a copy (``np.float64(x)`` of a
float64 array is ``x`` itself; ``astype`` never is), with the same adjoint;
``x.astype(y.dtype)`` is ``astype_like``, of ``y``'s dtype, ``y`` never differentiated (a
gradient's own cast back, read again by forward mode over it).
"""

from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.tangents import linear
from symdiff.primitives.broadcasting import Text
from symdiff.primitives.record import table


def _cast_to(dtype):
    def rule(args, consts):
        x = args[0] if args else None
        if isinstance(x, t.Array):
            return t.Array(dtype, x.ndim, x.unit_axes)
        return t.NUMPY_FLOAT if t.is_number(x) else None
    return rule


def _cast_back(dtype):
    def vjp(args, out):
        x = args[0]
        if isinstance(x, t.Array) and x.dtype != dtype:
            return (Text(_back_to(x), ("x",)),)
        return (Text("g", ("x",)),)
    return vjp


def _back_to(x):
    """``g`` in ``x``'s dtype: of a 0-d array, an array of it (``g`` may be a number,
    the seed ``1.0`` of a gradient whose result is the cast)."""
    return "numpy.asarray(g, dtype=x.dtype)" if x.ndim == 0 else "g.astype(x.dtype)"


def _cast(dtype):
    return _array(dtype, f"numpy.{dtype}(x)", ("x",), _cast_to(dtype), _cast_back(dtype),
                  numpy=(dtype,), total=True, cheap=True, jvp=linear())


def _array_cast_to(dtype):
    def rule(args, consts):
        x = args[0] if args else None
        return t.Array(dtype, x.ndim, x.unit_axes) if isinstance(x, t.Array) else None
    return rule


def _astype(dtype):
    return _array(f"astype_{dtype}", f"x.astype(numpy.{dtype})", ("x",), _array_cast_to(dtype),
                  _cast_back(dtype), total=True, jvp=linear())


def _as_like(args, consts):
    """``x.astype(like.dtype)``: ``x``'s axes, ``like``'s dtype (a float one)."""
    x, like = (tuple(args) + (None, None))[:2]
    if not (isinstance(x, t.Array) and isinstance(like, t.Array)) or not (
            like.dtype.startswith("float")):
        return None
    return t.Array(like.dtype, x.ndim, x.unit_axes)


def _like_back(args, out):
    x, like = args
    return (Text("g" if x.dtype == like.dtype else _back_to(x), ("x", "like")), None)


RECORDS = table(_cast("float32"), _cast("float64"), _astype("float32"), _astype("float64"),
                _array("astype_like", "x.astype(like.dtype)", ("x", "like"), _as_like,
                       _like_back, total=True, jvp=linear()))

METHODS = {}
STATICS = {}
HINTS = {name: "it takes a number or an array of numbers" for name in RECORDS}
