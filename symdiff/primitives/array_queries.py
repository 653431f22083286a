"""Questions asked of an array, whose answers are data: ``argmax``, ``argmin``,
``argsort``, ``count_nonzero``, ``any``, ``all`` and ``allclose``.

Expects argument types of ``symdiff.core.types``; an axis a constant (``STATICS``).
Guarantees ``RECORDS``, one array record each, functions and methods alike: integers
(positions, counts) or booleans, numbers where the whole array is asked and arrays of
the other axes where one axis is, never differentiated (their VJPs and JVPs are zero:
a position moves by no small change of the values).  What they pick is read as data:

    i = np.argmax(x)            x[i]'s adjoint is g at position i (an indexed read)
    order = np.argsort(x)       x[order]: a gather, its adjoint a scatter
    if (x > 0).any(): ...       a branch condition, not differentiated
"""

from symdiff.core import types as t
from symdiff.primitives.arrays import _array, _axes_of
from symdiff.primitives.record import table


def _over(dtype, number):
    """The rule of a question over ``axis``: ``number`` of the whole array, an array of
    ``dtype`` of the other axes for an axis (``keepdims`` keeps it, of size one)."""
    def rule(args, consts):
        x = args[0] if args else None
        consts = tuple(consts) + (None, None, None)
        axis, keepdims = consts[1], bool(consts[2])
        if not isinstance(x, t.Array):
            return None
        if axis is None:
            return t.Array(dtype, x.ndim, tuple(range(x.ndim))) if keepdims else number
        axes = _axes_of(axis, x.ndim)
        if axes is None:
            return None
        if keepdims:
            return t.Array(dtype, x.ndim, tuple(sorted(set(x.unit_axes) | set(axes))))
        kept = [a for a in range(x.ndim) if a not in axes]
        if not kept:
            return number
        return t.Array(dtype, len(kept), tuple(kept.index(a) for a in x.unit_axes if a in kept))
    return rule


def sorted_order(args, consts):
    """``numpy.argsort(x, axis)``: positions of ``x``'s shape, one axis for ``None``."""
    x = args[0] if args else None
    axis = (tuple(consts) + (-1, -1))[1]
    if not isinstance(x, t.Array) or (axis is not None and _axes_of(axis, x.ndim) is None):
        return None
    if axis is None:
        return t.Array("int64", 1, (0,) if x.ndim == 0 else ())
    return t.Array("int64", x.ndim, x.unit_axes)


def close(args, consts):
    return t.BOOL if len(args) >= 2 and all(
        isinstance(a, t.Array) or t.is_number(a) for a in args[:2]) else None


def _no_derivative(args, out):
    return (None,) * len(args)


_DATA = dict(jvp=_no_derivative)


def _question(name, dtype, number, keepdims=True):
    params = ("x", "axis", "keepdims") if keepdims else ("x", "axis")
    forward = (f"numpy.{name}(x, axis=axis, keepdims=keepdims)" if keepdims
               else f"numpy.{name}(x, axis=axis)")
    return _array(name, forward, params, _over(dtype, number), _no_derivative,
                  defaults=(None, False)[:len(params) - 1], ints=params[1:], numpy=(name,),
                  **_DATA)


RECORDS = table(
    _question("argmax", "int64", t.INT),
    _question("argmin", "int64", t.INT),
    _question("count_nonzero", "int64", t.INT),
    _question("any", "bool", t.BOOL),
    _question("all", "bool", t.BOOL),
    _array("argsort", "numpy.argsort(x, axis=axis, kind=kind)", ("x", "axis", "kind"),
           sorted_order, _no_derivative, defaults=(-1, None), ints=("axis", "kind"),
           numpy=("argsort",), **_DATA),
    _array("allclose", "numpy.allclose(a, b, rtol=rtol, atol=atol)", ("a", "b", "rtol", "atol"),
           close, _no_derivative, defaults=(1e-05, 1e-08), numpy=("allclose",), **_DATA),
)

METHODS = {name: name for name in ("argmax", "argmin", "any", "all", "argsort")}
STATICS = {**{name: {"axis": "axes", "keepdims": "bool"}
              for name in ("count_nonzero", "any", "all")},
           "argmax": {"axis": "axis", "keepdims": "bool"},
           "argmin": {"axis": "axis", "keepdims": "bool"}, "argsort": {"axis": "axis", "kind": "kind"}}
HINTS = {name: "it takes an array and a constant axis" for name in RECORDS}
HINTS["allclose"] = "it takes two arrays or numbers"
