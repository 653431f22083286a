"""SciPy's ``softmax`` and ``log_softmax`` over an axis (or the whole array).

Expects argument types of ``symdiff.core.types`` and the operands of a statement as IR
expressions (``axis`` a constant).  Guarantees ``RECORDS``, one array record each (see
``arrays._array``), computing as the user's code calls SciPy, with its type rule (the
operand's type: both keep the shape) and its VJP and JVP builders, written with the
result ``s`` the forward sweep already holds:

    s = softmax(x, axis=1)       dx = s * (g - np.sum(g * s, axis=1, keepdims=True))
    l = log_softmax(x, axis=1)   dx = g - np.exp(l) * np.sum(g, axis=1, keepdims=True)

softmax's Jacobian, ``diag(s) - s s^T``, is symmetric, so its JVP is its VJP of the
tangent; log_softmax's is ``I - 1 s^T``: ``dl = dx - np.sum(np.exp(l) * dx, axis=1,
keepdims=True)``.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.record import table
from symdiff.primitives.texts import instantiate


def _axis_of(args):
    return (tuple(args) + (ex.Const(None),))[1]


def _summed(value, axis, names):
    """``numpy.sum(value, axis=axis, keepdims=True)``; over every axis for ``None``."""
    over = isinstance(axis, ex.Const) and axis.value is None
    text = "numpy.sum(v, keepdims=True)" if over else "numpy.sum(v, axis=axis, keepdims=True)"
    return instantiate(text, ("v", "axis"), (value, axis), None, names)


def _text(text, names, **bound):
    return instantiate(text, tuple(bound), tuple(bound.values()), None, names)


@dataclass(frozen=True)
class _SoftmaxBack:
    """softmax: ``s * (g - sum(g * s))`` over the axis (its JVP too: the Jacobian is
    symmetric)."""

    def __call__(self, g, args, out, names):
        total = _summed(_text("g * s", names, g=g, s=out), _axis_of(args), names)
        return _text("s * (g - total)", names, s=out, g=g, total=total)


@dataclass(frozen=True)
class _LogSoftmaxBack:
    """log_softmax's VJP: ``g - exp(l) * sum(g)`` over the axis."""

    def __call__(self, g, args, out, names):
        total = _summed(g, _axis_of(args), names)
        return _text("g - numpy.exp(l) * total", names, g=g, l=out, total=total)


@dataclass(frozen=True)
class _LogSoftmaxTangent:
    """log_softmax's JVP: ``dx - sum(exp(l) * dx)`` over the axis."""

    def __call__(self, g, args, out, names):
        total = _summed(_text("numpy.exp(l) * g", names, l=out, g=g), _axis_of(args), names)
        return _text("g - total", names, g=g, total=total)


def kept(args, consts):
    """The operand's type, for an array of floats (SciPy keeps float32)."""
    x = args[0] if args else None
    return x if isinstance(x, t.Array) and x.dtype in ("float64", "float32") else None


def _first(builder):
    def builders(args, out):
        return (builder, None)
    return builders


RECORDS = table(
    _array("softmax", "softmax(x, axis=axis)", ("x", "axis"), kept, _first(_SoftmaxBack()),
           defaults=(None,), ints=("axis",), scipy=("softmax",), by_position=2,
           jvp=_first(_SoftmaxBack())),
    _array("log_softmax", "log_softmax(x, axis=axis)", ("x", "axis"), kept,
           _first(_LogSoftmaxBack()), defaults=(None,), ints=("axis",),
           scipy=("log_softmax",), by_position=2, jvp=_first(_LogSoftmaxTangent())),
)

METHODS = {}
STATICS = {op: {"axis": "axes"} for op in ("softmax", "log_softmax")}
HINTS = {op: "it takes an array of floats and a constant axis"
         for op in ("softmax", "log_softmax")}
