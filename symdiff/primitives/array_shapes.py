"""Array shapes as records: ``reshape``, ``ravel``/``flatten``, ``expand_dims``,
``squeeze``, ``transpose`` with axes, the joins of ``array_joins`` (``concatenate``,
``stack``, ``numpy.array`` of values written out), and the arrays made from sizes alone
(``zeros``, ``ones``, ``full``, ``eye``, ``arange``, ``linspace``, ``*_like``),
``numpy.broadcast_to`` and ``numpy.flip``.

Expects argument types of ``symdiff.core.types``.  A call that writes its sizes or its
arrays out (``x.reshape(n, -1)``, ``np.zeros((n, 3))``, ``np.stack([a, b])``) is one
record per count, ``FAMILIES[head](count)`` (made by ``registry.rule_of`` from a name
such as ``reshape_2``; ``lower.array_calls`` spreads the call's tuple or list), its
sizes ``Int`` operands.  Guarantees ``RECORDS`` (the heads, of one size or array
each) and ``family``; a type that never claims an axis has size one unless a
constant 1 says so (``-1``, a size read at run time: not known), and VJPs written as
a person writes them:

    y = x.reshape(n, -1)               dx = g.reshape(x.shape)
    y = np.expand_dims(x, 1)           dx = np.squeeze(g, 1)
    y = np.squeeze(x)                  dx = g.reshape(x.shape)
    y = np.concatenate([a, b], axis=1) da = g[:, :a.shape[1]]
                                       db = g[:, a.shape[1]:a.shape[1] + b.shape[1]]
    y = np.stack([a, b])               da = g[0]     db = g[1]
    y = np.full((n,), v)               dv = np.sum(g)
    y = np.broadcast_to(b, (n, 3))     db = np.sum(g, axis=0)   (b of one axis)
    y = np.zeros(x.shape), z = x.reshape(w.shape)   (``zeros_as``, ``reshape_as``)
"""

from dataclasses import dataclass, replace

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives import array_joins, array_pads, array_selects
from symdiff.primitives.array_joins import _value
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import Text, Unbroadcast
from symdiff.primitives.record import table
from symdiff.primitives.tangents import Linear, linear

def _units_of_sizes(consts):
    """The axes a shape of constant sizes ``consts`` gives size one."""
    return tuple(a for a, size in enumerate(consts) if size == 1 and type(size) is int)


# --- reshape, ravel, expand_dims, squeeze, transpose --------------------------------------

@dataclass(frozen=True)
class _Unsqueeze:
    """``squeeze``'s adjoint: ``g`` with the axis put back, or, where every axis of size
    one went (no axis given), ``g`` in ``x``'s shape (a number ``g`` for a result of no
    axes: ``numpy.reshape``)."""

    number: bool = False

    def __call__(self, g, args, out, names):
        x, axis = args
        if isinstance(axis, ex.Const) and axis.value is None:
            text = "numpy.reshape(g, x.shape)" if self.number else "g.reshape(x.shape)"
            return _text(text, names, g=g, x=x)
        return _text("numpy.expand_dims(g, axis)", names, g=g, axis=axis)


def _to_shape(args, out):
    """``g.reshape(x.shape)`` (the sizes after ``x`` have no derivative)."""
    sizes = tuple(f"d{i}" for i in range(len(args) - 1))
    return (Text("g.reshape(x.shape)", ("x",) + sizes),) + (None,) * len(sizes)


def _sizes(kinds):
    """Whether operands of types ``kinds`` are sizes: integers (or not known yet), not
    a shape kept in a name (``s = x.shape``: a table)."""
    return all(k is None or k in (t.INT, t.BOOL, t.NUMBER) for k in kinds)


def reshaped(args, consts):
    x = args[0] if args else None
    if not isinstance(x, t.Array) or not _sizes(args[1:]):
        return None
    return t.Array(x.dtype, len(args) - 1, _units_of_sizes(tuple(consts)[1:]))


def _reshape(count):
    sizes = tuple(f"d{i}" for i in range(count))
    return _array(f"reshape_{count}", f"x.reshape({', '.join(sizes)})", ("x",) + sizes,
                  reshaped, _to_shape, ints=sizes, jvp=linear())


def raveled(args, consts):
    x = args[0] if args else None
    return t.Array(x.dtype, 1, ()) if isinstance(x, t.Array) else None


def expanded(args, consts):
    x = args[0] if args else None
    if not isinstance(x, t.Array):
        return None
    axis = consts[1] if len(consts) > 1 else None
    given = axis if type(axis) is tuple else (axis,)  # ``np.expand_dims(x, (0, 2))``
    ndim = x.ndim + len(given)
    if not all(type(a) is int and -ndim <= a < ndim for a in given):
        return None
    new = sorted({a % ndim for a in given})
    if len(new) != len(given):
        return None
    kept = [a for a in range(ndim) if a not in new]  # where x's axes go, in their order
    return t.Array(x.dtype, ndim, tuple(sorted(new + [kept[a] for a in x.unit_axes])))


def squeezed(args, consts):
    """``numpy.squeeze(x, axis)``: the axis taken out; with no axis, every axis the type
    knows has size one (the kinds of the arguments say which)."""
    x = args[0] if args else None
    if not isinstance(x, t.Array):
        return None
    if (tuple(consts) + (None, None))[1] is None:
        return t.Array(x.dtype, x.ndim - len(x.unit_axes), ())
    axis = consts[1]
    given = axis if type(axis) is tuple else (axis,)  # ``np.squeeze(g, (0, 2))``
    if not all(type(a) is int and -x.ndim <= a < x.ndim for a in given):
        return None
    gone = {a % x.ndim for a in given}
    if len(gone) != len(given):
        return None
    kept = [a for a in range(x.ndim) if a not in gone]
    return t.Array(x.dtype, len(kept), tuple(kept.index(a) for a in x.unit_axes if a in kept))


def transposed_by(args, consts):
    x = args[0] if args else None
    axes = tuple(consts[1:])
    if not isinstance(x, t.Array) or sorted(a % x.ndim if type(a) is int else None
                                            for a in axes) != list(range(x.ndim)):
        return None
    axes = tuple(a % x.ndim for a in axes)
    return t.Array(x.dtype, x.ndim, tuple(i for i, a in enumerate(axes) if a in x.unit_axes))


@dataclass(frozen=True)
class _Untranspose:
    """``numpy.transpose(g, inverse)``: the axes put back where they were."""

    def __call__(self, g, args, out, names):
        axes = [_value(a) % (len(args) - 1) for a in args[1:]]
        inverse = tuple(ex.Const(axes.index(i)) for i in range(len(axes)))
        return _text("numpy.transpose(g, axes)", names, g=g, axes=ex.Tuple(inverse))


def _transpose_axes(count):
    axes = tuple(f"a{i}" for i in range(count))
    return _array(f"transpose_axes_{count}", f"numpy.transpose(x, ({', '.join(axes)},))",
                  ("x",) + axes, transposed_by,
                  lambda args, out: (_Untranspose(),) + (None,) * count, ints=axes,
                  jvp=linear())


# --- broadcast_to -------------------------------------------------------------------------

def _broadcast_back(args, out):
    """``g`` summed back over the axes ``numpy.broadcast_to`` put in front and those
    where ``x`` has size one and the result may not (``Unbroadcast``)."""
    params = ("x",) + tuple(f"d{i}" for i in range(len(args) - 1))
    return (Unbroadcast(Text("g", params), args[0], out),) + (None,) * (len(args) - 1)


def broadcast(args, consts):
    """``numpy.broadcast_to(x, (d0, d1))``: ``x``'s dtype, an axis per size, of size one
    where a constant 1 says so; None where ``x`` has more axes than sizes."""
    x = args[0] if args else None
    count = len(args) - 1
    if not _sizes(args[1:]) or isinstance(x, t.Array) and x.ndim > count or not isinstance(
            x, (t.Array, t.Float)):
        return None
    return t.Array(x.dtype if isinstance(x, t.Array) else "float64", count,
                   _units_of_sizes(tuple(consts)[1:]))


def _broadcast_to(count):
    sizes = tuple(f"d{i}" for i in range(count))
    shape = ", ".join(sizes) + ("," if count == 1 else "")
    return _array(f"broadcast_to_{count}", f"numpy.broadcast_to(x, ({shape}))", ("x",) + sizes,
                  broadcast, _broadcast_back, ints=sizes, jvp=linear())


def broadcast_as(args, consts):
    """``numpy.broadcast_to(x, s.shape)``: ``x``'s dtype, ``s``'s axes."""
    x, s = (tuple(args) + (None, None))[:2]
    if not (isinstance(x, (t.Array, t.Float)) and isinstance(s, t.Array)) or isinstance(
            x, t.Array) and x.ndim > s.ndim:
        return None
    return t.Array(x.dtype if isinstance(x, t.Array) else "float64", s.ndim, s.unit_axes)


# --- arrays made from sizes ---------------------------------------------------------------

def _made(name, function, count, fill=False):
    sizes = tuple(f"d{i}" for i in range(count))
    shape = ", ".join(sizes) + ("," if count == 1 else "")
    params = sizes + (("v",) if fill else ())

    def rule(args, consts):
        if not _sizes(args[:count]):
            return None
        return t.Array("float64", count, _units_of_sizes(tuple(consts)[:count]))

    def vjp(args, out):
        return (None,) * count + ((Text("numpy.sum(g)", params),) if fill else ())
    forward = f"numpy.{function}(({shape}){', v' if fill else ''})"
    return _array(f"{name}_{count}", forward, params, rule, vjp, ints=sizes,
                  jvp=linear(count) if fill else _no_derivative)


def _shaped_as(name, function, fill=False):
    """``numpy.zeros(s.shape)``, ``numpy.full(s.shape, v)``: of the shape of the array
    ``s`` (its axes of size one too), never differentiated in ``s``."""
    params = ("s",) + (("v",) if fill else ())

    def rule(args, consts):
        s = args[0] if args else None
        return t.Array("float64", s.ndim, s.unit_axes) if isinstance(s, t.Array) else None

    def vjp(args, out):
        return (None,) + ((Text("numpy.sum(g)", params),) if fill else ())
    return _array(f"{name}_as", f"numpy.{function}(s.shape{', v' if fill else ''})", params,
                  rule, vjp, jvp=linear(1) if fill else _no_derivative)


def reshaped_as(args, consts):
    """``x.reshape(s.shape)``: ``x``'s dtype, ``s``'s axes."""
    x, s = (tuple(args) + (None, None))[:2]
    if not (isinstance(x, t.Array) and isinstance(s, t.Array)):
        return None
    return t.Array(x.dtype, s.ndim, s.unit_axes)


def _like(args, consts):
    x = args[0] if args else None
    return x if isinstance(x, t.Array) else None


def _as_array(args, consts):
    """``numpy.asarray(x)``: ``x`` itself for an array, an array of no axes for a float
    (a Python float, a NumPy scalar) or an int (of int64: data)."""
    x = args[0] if args else None
    if x == t.INT:
        return t.Array("int64", 0, ())
    return t.Array("float64", 0, ()) if isinstance(x, t.Float) else _like(args, consts)


def _as_array_back(args, out):
    """The adjoint of ``numpy.asarray(x)``: ``g`` as ``x`` was, a Python float for a
    Python float (``float(g)``), else ``g`` itself (an array's, a NumPy scalar's: NumPy
    gives a 0-d array's arithmetic back as its scalar)."""
    plain = args and isinstance(args[0], t.Float) and not args[0].numpy
    return (Text("float(g)" if plain else "g", ("x",)),)


def _eye(args, consts):
    """``numpy.eye(n)`` (``n, m, k``): an axis of size one where ``n`` (``m``) is 1."""
    rows = consts[0] if consts else None
    columns = consts[1] if len(consts) > 1 else rows
    return t.Array("float64", 2, tuple(a for a, size in ((0, rows), (1, columns))
                                       if type(size) is int and size == 1))


def _ranged(args, consts):
    dtype = "int64" if all(k in (t.INT, t.BOOL) for k in args) else "float64"
    return t.Array(dtype, 1, ())


def _spaced(args, consts):
    return t.Array("float64", 1, (0,) if len(consts) > 2 and consts[2] == 1 else ())


_FLIPPED_BACK = Linear("numpy.flip(x, axis=axis)", ("x", "axis"), 0, defaults=(None,))


def _no_derivative(args, out):
    return (None,) * len(args)


def _spaced_vjp(args, out):
    params = ("a", "b", "num")
    return (Text("numpy.sum(g * numpy.linspace(1.0, 0.0, num))", params),
            Text("numpy.sum(g * numpy.linspace(0.0, 1.0, num))", params), None)


FAMILIES = {  # head -> its record of ``count`` sizes or values
    "reshape": _reshape, "transpose_axes": _transpose_axes, **array_joins.FAMILIES,
    **array_pads.FAMILIES, **array_selects.FAMILIES,
    "zeros": lambda n: _made("zeros", "zeros", n),
    "ones": lambda n: _made("ones", "ones", n), "full": lambda n: _made("full", "full", n, True),
    "broadcast_to": _broadcast_to,
}
WRITTEN = {  # head -> (where its sizes or values stand in the call, how they are written)
    "reshape": (1, "rest"), "transpose_axes": (1, "rest"), **array_joins.WRITTEN,
    **array_pads.WRITTEN, **array_selects.WRITTEN,
    "zeros": (0, "shape"), "ones": (0, "shape"), "full": (0, "shape"),
    "broadcast_to": (1, "shape"),
}


def family(head, count):
    """The record of ``head`` (``reshape``) with ``count`` sizes or values."""
    return FAMILIES[head](count)


def _head(head, names):
    """The record a name reaches (``numpy.reshape``): the family's of one size or value,
    never emitted as it is (``lower.array_calls`` picks the count's)."""
    return replace(family(head, 1), name=head, numpy=names)


RECORDS = table(
    *(_head(head, (head,)) for head in ("reshape", "concatenate", "stack", "vstack",
                                        "hstack", "column_stack", "dstack", "array", "zeros",
                                        "ones", "full", "pad", "broadcast_to", "select")),
    _array("reshape_as", "x.reshape(s.shape)", ("x", "s"), reshaped_as,
           lambda args, out: (Text("g.reshape(x.shape)", ("x", "s")), None), jvp=linear()),
    _array("broadcast_to_as", "numpy.broadcast_to(x, s.shape)", ("x", "s"), broadcast_as,
           lambda args, out: (Unbroadcast(Text("g", ("x", "s")), args[0], out), None),
           jvp=linear()),
    _shaped_as("zeros", "zeros"), _shaped_as("ones", "ones"), _shaped_as("full", "full", True),
    _array("ravel", "numpy.ravel(x)", ("x",), raveled, _to_shape, numpy=("ravel",),
           jvp=linear()),
    _array("flatten", "x.flatten()", ("x",), raveled, _to_shape, jvp=linear()),
    _array("asarray", "numpy.asarray(x)", ("x",), _as_array, _as_array_back,
           numpy=("asarray",), jvp=linear()),
    _array("array_value", "numpy.array(x)", ("x",), _as_array, _as_array_back,
           jvp=linear()),  # ``np.array(x)`` of one value, not a list: a new array of it
    _array("expand_dims", "numpy.expand_dims(x, axis)", ("x", "axis"), expanded,
           lambda args, out: (Text("numpy.squeeze(g, axis)", ("x", "axis")), None),
           ints=("axis",), numpy=("expand_dims",), jvp=linear()),
    _array("squeeze", "numpy.squeeze(x, axis=axis)", ("x", "axis"), squeezed,
           lambda args, out: (_Unsqueeze(not isinstance(out, t.Array) or out.ndim == 0), None),
           defaults=(None,), ints=("axis",), numpy=("squeeze",), jvp=linear()),
    _array("flip", "numpy.flip(x, axis=axis)", ("x", "axis"), _like,
           lambda args, out: (_FLIPPED_BACK, None),  # a flip undoes itself
           defaults=(None,), ints=("axis",), numpy=("flip",), jvp=linear()),
    _array("zeros_like", "numpy.zeros_like(x)", ("x",), _like, _no_derivative,
           numpy=("zeros_like",), jvp=_no_derivative),
    _array("ones_like", "numpy.ones_like(x)", ("x",), _like, _no_derivative,
           numpy=("ones_like",), jvp=_no_derivative),
    _array("full_like", "numpy.full_like(x, v)", ("x", "v"), _like,
           lambda args, out: (None, Text("numpy.sum(g)", ("x", "v"))), numpy=("full_like",),
           jvp=linear(1)),
    _array("eye", "numpy.eye(n)", ("n",), _eye, _no_derivative, ints=("n",), numpy=("eye",),
           variants=((2, "eye_2"), (3, "eye_2")), jvp=_no_derivative),
    _array("eye_2", "numpy.eye(n, m, k=k)", ("n", "m", "k"), _eye, _no_derivative,
           defaults=(0,), ints=("n", "m", "k"), by_position=3,
           jvp=_no_derivative),
    _array("arange", "numpy.arange(a)", ("a",), _ranged, _no_derivative, numpy=("arange",),
           variants=((2, "arange_2"), (3, "arange_3")), jvp=_no_derivative),
    _array("arange_2", "numpy.arange(a, b)", ("a", "b"), _ranged, _no_derivative,
           jvp=_no_derivative),
    _array("arange_3", "numpy.arange(a, b, c)", ("a", "b", "c"), _ranged, _no_derivative,
           jvp=_no_derivative),
    _array("linspace", "numpy.linspace(a, b, num)", ("a", "b", "num"), _spaced, _spaced_vjp,
           defaults=(50,), ints=("num",), numpy=("linspace",), jvp=linear(0, 1, joint=True)),
)

METHODS = {"reshape": "reshape", "ravel": "ravel", "flatten": "flatten",
           "squeeze": "squeeze"}
STATICS = {"expand_dims": {"axis": "axes"}, "squeeze": {"axis": "axes"}, "flip": {"axis": "axis"},
           **{f"{head}": {"axis": "int"} for head in ("concatenate", "stack")}}
HINTS = {
    "expand_dims": "it takes an array and a constant axis or tuple of axes",
    "squeeze": "it takes an array and a constant axis, or none",
    "asarray": "it takes an array, or values written out: np.asarray([a, b])",
    "transpose_axes": "it takes a constant permutation of the array's axes",
    "reshape": "it takes an array and its new sizes (ints, -1 for one of them) written "
               "out, or another array's shape: x.reshape(y.shape)",
    **{head: "it takes its sizes (ints) written out, or an array's shape: "
             f"np.{head}(x.shape)" for head in ("zeros", "ones", "full")},
    **{head: "it takes arrays of one number of axes, written out: [a, b], and a constant "
             "axis" for head in ("concatenate", "stack", "vstack", "hstack", "column_stack",
                                 "dstack")},
    "broadcast_to": "it takes an array or a number and its new sizes (ints) written out, "
                    "as many as its axes or more, or another array's shape: "
                    "np.broadcast_to(x, y.shape)",
    "array": "it takes numbers, or arrays of one number of axes, written out: [a, b]",
}
