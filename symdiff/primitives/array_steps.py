"""Running extremes and sums of NumPy's ufuncs as records: ``numpy.maximum.accumulate(x)``
and ``numpy.minimum.accumulate(x)`` of a vector (a running maximum, as in a drawdown),
and ``numpy.add.accumulate(x, axis)`` and ``numpy.multiply.accumulate(x, axis)``, which
are ``cumsum`` and ``cumprod`` along an axis (0 unless given).

Expects argument types of ``symdiff.core.types``: a vector of floats for the running
extremes; an array and a constant integer axis for the sums and products.  Guarantees
``RECORDS``, reached by the dotted names ``numpy.<ufunc>.accumulate``, with their type
rules and VJP and JVP builders.  A running maximum ``c`` is nondecreasing, so the place
``c[j]`` was first reached, the element it is, is where ``c`` first holds its value:
``numpy.searchsorted(c, c)``; each ``g[j]`` flows to that element (the earlier one on a
tie, as ``numpy.maximum`` gives it to its first operand):

    c = np.maximum.accumulate(x)   dx = np.bincount(np.searchsorted(c, c), weights=g,
                                                    minlength=x.size)
    c = np.minimum.accumulate(x)   dx = np.bincount(np.searchsorted(-c, -c), weights=g, ...)
    dc (forward)                   dx[np.searchsorted(c, c)]
    c = np.add.accumulate(x)       dx = np.cumsum(g[::-1])[::-1]   (cumsum's, along axis 0)

A float32 vector's adjoint is float32 (``bincount`` sums in float64).  ``numpy.bincount(i,
weights=w, minlength=n)`` of integer places ``i`` is a record too, linear in ``w`` (its
adjoint ``g[i]``), and ``numpy.searchsorted(a, v)`` (``a`` sorted) a question whose
answer is data, so the adjoints above are differentiated again (a Hessian).
"""

from dataclasses import dataclass

from symdiff.core import types as t
from symdiff.primitives import array_cumulative, array_reductions
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import _cast_back
from symdiff.primitives.record import table
from symdiff.primitives.tangents import linear

_FIRST = {"maximum": "numpy.searchsorted(c, c)", "minimum": "numpy.searchsorted(-c, -c)"}


def running(args, consts):
    """A running extreme of a vector of floats: its type."""
    if len(args) != 1 or not isinstance(args[0], t.Array) or args[0].ndim != 1 or (
            not args[0].dtype.startswith("float")):
        return None
    return args[0]


def along(args, consts):
    """``ufunc.accumulate(x, axis)``: ``x``'s type, the axis a constant integer."""
    axis = consts[1] if len(consts) > 1 else 0
    if not args or not isinstance(args[0], t.Array) or not isinstance(axis, int) or (
            isinstance(axis, bool) or not -args[0].ndim <= axis < args[0].ndim):
        return None
    return args[0]


@dataclass(frozen=True)
class _Reached:
    """The adjoint (``tangent=False``) or the tangent of a running extreme: each place
    takes the element its extreme was first reached at."""

    ufunc: str
    dtype: str
    tangent: bool

    def __call__(self, g, args, out, names):
        first = _text(_FIRST[self.ufunc], names, c=out)
        if self.tangent:
            return _text("dx[i]", names, dx=g, i=first)
        found = _text("numpy.bincount(i, weights=g, minlength=x.size)", names, i=first, g=g,
                      x=args[0])
        if self.dtype != "float64":
            found = _text(f"v.astype(numpy.{self.dtype})", names, v=found)
        return found


def _reached(ufunc, tangent):
    def build(args, out):
        return (_Reached(ufunc, args[0].dtype, tangent),)
    return build


def _running(ufunc, op):
    return _array(f"{op}_accumulate", f"numpy.{ufunc}.accumulate(x)", ("x",), running,
                  _reached(ufunc, False), numpy=(f"{ufunc}.accumulate",), total=True,
                  jvp=_reached(ufunc, True))


def counted(args, consts):
    """``bincount(i, weights=w, minlength=n)``: a float64 vector, ``i`` a vector of
    places and ``w`` a vector of floats.  (The places may be typed float: arithmetic on
    integer arrays, ``np.searchsorted(a, v) - 1``, is typed so; NumPy raises
    ``TypeError`` for places that are floats, as the function does.)"""
    if len(args) < 2 or not isinstance(args[0], t.Array) or args[0].ndim != 1 or (
            not args[0].dtype.startswith(("int", "uint", "float"))) or not isinstance(
            args[1], t.Array) or args[1].ndim != 1 or not args[1].dtype.startswith("float"):
        return None
    return t.Array("float64", 1, ())


def placed(args, consts):
    """``searchsorted(a, v)``: integer places of ``v``'s shape, ``a`` a vector."""
    if len(args) != 2 or not isinstance(args[0], t.Array) or args[0].ndim != 1:
        return None
    v = args[1]
    if isinstance(v, t.Array):
        return t.Array("int64", v.ndim, v.unit_axes)
    return t.INT if t.is_number(v) else None


@dataclass(frozen=True)
class _Gathered:
    """``bincount``'s adjoint of its weights: ``g`` read at each weight's place."""

    kinds: tuple
    result: object

    def __call__(self, g, args, out, names):
        return _cast_back(_text("g[i]", names, g=g, i=args[0]), self.kinds[1], self.result,
                          names)


def _like(ufunc, record, jvp):
    """``ufunc.accumulate(x, axis)`` as ``record`` (``cumsum``, ``cumprod``) computes it
    along that axis: its builders."""
    return _array(f"{ufunc}_accumulate", f"numpy.{ufunc}.accumulate(x, axis=axis)",
                  ("x", "axis"), along, record.array_vjp, defaults=(0,), ints=("axis",),
                  numpy=(f"{ufunc}.accumulate",), total=True, jvp=jvp)


RECORDS = table(
    _running("maximum", "max"), _running("minimum", "min"),
    _array("bincount", "numpy.bincount(x, weights=weights, minlength=minlength)",
           ("x", "weights", "minlength"), counted,
           lambda args, out: (None, _Gathered(tuple(args), out), None), defaults=(0,),
           ints=("minlength",), numpy=("bincount",), jvp=linear(1)),
    _array("searchsorted", "numpy.searchsorted(a, v)", ("a", "v"), placed,
           lambda args, out: (None, None), numpy=("searchsorted",),
           jvp=lambda args, out: (None, None)),
    _like("add", array_reductions.RECORDS["cumsum"], linear()),
    _like("multiply", array_cumulative.RECORDS["cumprod"],
          array_cumulative.RECORDS["cumprod"].array_jvp),
)
METHODS = {}
STATICS = {"add_accumulate": {"axis": "axis"}, "multiply_accumulate": {"axis": "axis"}}
HINTS = {**{f"{op}_accumulate": "it takes a vector of floats (an array of one axis); "
                                "along an axis of more, loop over the rows"
            for op in ("max", "min")},
         **{f"{ufunc}_accumulate": "it takes an array and a constant integer axis"
            for ufunc in ("add", "multiply")},
         "bincount": "it takes a vector of integers, weights= a vector of floats and "
                     "minlength= an integer",
         "searchsorted": "it takes a sorted vector and an array or a number (side='left')"}
