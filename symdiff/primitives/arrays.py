"""Array primitives: NumPy's reductions, products and selections as records, and the
records of numbers applied to arrays elementwise.

Expects argument types of ``symdiff.core.types`` (``Array`` among them).  Guarantees
``RECORDS``, one ``Primitive`` per array operation (``array_sum``, ``array_mean``,
``matmul``, ``transpose``, ``where``), each with its type rule (``array_result``: the
result type from the arguments' types and constants) and its VJP builders chosen by the
arguments' types (``array_vjp``); and ``for_arrays(record, arg_types, out_type)``: the
record as it computes on arrays of those types, with one VJP builder per argument:

- an elementwise record (``sin``, ``*``, ``max``) keeps its partials, computed by numpy
  (``numpy_text``), a conditional partial as ``numpy.where``;
- every broadcasting record's contribution to an operand NumPy broadcast (fewer axes
  than the result, or an axis of size one where the result's is not known to be) is
  summed back to the operand's shape: the one place where unbroadcasting lives
  (``Unbroadcast``), chosen from the types, never tested at run time.

    x: array[float64, 2, ()], b: array[float64, 1, ()], y = x + b
    for_arrays(add, ...).vjps[1](g, ...)      ->  numpy.sum(g, axis=0)
    for_arrays(matmul, (array 2-d, array 1-d), ...).vjps[0](g, (X, w), ...)
                                              ->  numpy.outer(g, w)
"""

from dataclasses import dataclass, replace

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.broadcasting import (
    CastBack,
    Elementwise,
    Text,
    Unbroadcast,
    call,
    constant_value,
)
from symdiff.primitives.record import primitive, table
from symdiff.primitives.tangents import LinearIn, linear, spread_where_broadcast


# --- the type rules ------------------------------------------------------------------------

def _dtype(*kinds):
    return t.broadcast(kinds).dtype


def reduced(args, consts):
    """``sum``/``mean`` of ``x`` over ``axis`` (a constant int or None), ``keepdims``."""
    x = args[0] if args else None
    if not isinstance(x, t.Array):
        return None
    axis = consts[1] if len(consts) > 1 else None
    keepdims = bool(consts[2]) if len(consts) > 2 else False
    if axis is None:
        return t.Array(x.dtype, x.ndim, tuple(range(x.ndim))) if keepdims else t.NUMPY_FLOAT
    axes = _axes_of(axis, x.ndim)
    if axes is None:
        return None
    if keepdims:
        return t.Array(x.dtype, x.ndim, tuple(sorted(set(x.unit_axes) | set(axes))))
    if len(axes) == x.ndim:
        return t.NUMPY_FLOAT  # (numpy's scalar)
    kept = [a for a in range(x.ndim) if a not in axes]
    return t.Array(x.dtype, len(kept), tuple(kept.index(a) for a in x.unit_axes if a in kept))


def or_a_number(rule):
    """The type rule ``rule`` of a reduction (``x, axis, keepdims``), taking a float whole
    too, as NumPy does (``np.sum(a @ b)`` of two vectors): with no axis and no kept
    axes, NumPy gives it back as its own scalar."""
    def typed(args, consts):
        whole = (len(consts) < 2 or consts[1] is None) and not (len(consts) > 2 and consts[2])
        if args and isinstance(args[0], t.Float) and whole:
            return t.NUMPY_FLOAT
        return rule(args, consts)
    return typed


def or_a_number_given_back(builders):
    """The VJP or JVP builders ``builders`` (``(args, out) -> tuple``) of such a reduction,
    with a float's own adjoint or tangent given back as it came."""
    def chosen(args, out):
        if args and not isinstance(args[0], t.Array):
            return (Text("g", ("x", "axis", "keepdims")[:len(args)]),) + (None,) * (
                len(args) - 1)
        return builders(args, out)
    return chosen


def _axes_of(axis, ndim):
    """The axes ``axis`` (an int or a tuple of ints) names of an array of ``ndim`` axes,
    each counted from the front; None where one is out of range or named twice."""
    axes = axis if isinstance(axis, tuple) else (axis,)
    if not all(-ndim <= a < ndim for a in axes):
        return None
    found = tuple(sorted({a % ndim for a in axes}))
    return found if len(found) == len(axes) else None


def product(args, consts):
    """``x @ y`` of arrays of one or two axes, or of a stack of matrices (``x`` or ``y``
    of three axes or more: see ``stacked``)."""
    if len(args) != 2 or not all(isinstance(a, t.Array) and a.ndim >= 1 for a in args):
        return None
    x, y = args
    if x.ndim > 2 or y.ndim > 2:
        return stacked(x, y)
    dtype = _dtype(x, y)
    if x.ndim == 2 and y.ndim == 2:
        units = tuple(a for a, on in ((0, 0 in x.unit_axes), (1, 1 in y.unit_axes)) if on)
        return t.Array(dtype, 2, units)
    if x.ndim == 2:
        return t.Array(dtype, 1, (0,) if 0 in x.unit_axes else ())
    if y.ndim == 2:
        return t.Array(dtype, 1, (0,) if 1 in y.unit_axes else ())
    return t.NUMPY_FLOAT


def stacked(x, y):
    """``x @ y`` where one is a stack of matrices, the last two axes of each the matrices
    (a vector is one row or one column): the stack's axes in front, then ``x``'s rows
    and ``y``'s columns.  Two stacks of as many axes, whose stack axes known to have size
    one agree (NumPy would broadcast them otherwise): the sum back is not written."""
    if x.ndim > 2 and y.ndim > 2 and (x.ndim != y.ndim or [
            a for a in x.unit_axes if a < x.ndim - 2] != [a for a in y.unit_axes if a < y.ndim - 2]):
        return None
    stack = x if x.ndim > 2 else y
    lead = stack.ndim - 2
    units = [a for a in stack.unit_axes if a < lead]
    if x.ndim >= 2 and x.ndim - 2 in x.unit_axes:
        units.append(lead)
    if y.ndim >= 2 and y.ndim - 1 in y.unit_axes:
        units.append(lead + (x.ndim >= 2))
    return t.Array(_dtype(x, y), lead + (x.ndim >= 2) + (y.ndim >= 2), tuple(units))


def transposed(args, consts):
    x = args[0] if args else None
    if not isinstance(x, t.Array):
        return None
    return t.Array(x.dtype, x.ndim, tuple(sorted(x.ndim - 1 - a for a in x.unit_axes)))


def selected(args, consts):
    """``numpy.where(c, x, y)``: the broadcast of the three, of the operands' float dtype."""
    if len(args) != 3 or None in args:
        return None
    floats = [a for a in args[1:] if isinstance(a, t.Array)]
    found = t.broadcast(args, dtype=_dtype(*floats) if floats else "float64")
    return found if found is not None else t.NUMPY_FLOAT


def masked(args, consts):
    """``numpy.logical_and(a, b)``, ``logical_or``, ``logical_xor``, ``logical_not``: a
    mask of the broadcast of the operands (a NumPy bool of numbers)."""
    if not args or None in args:
        return None
    found = t.broadcast(args, dtype="bool")
    return found if found is not None else t.BOOL


def _no_derivative(args, out):
    return (None,) * len(args)


# --- the VJP builders, by the arguments' types ------------------------------------------

def _reduction_vjp(mean):
    def vjp(args, out):
        x = args[0]
        return (_Spread(x, mean), None, None)
    return vjp


@dataclass(frozen=True)
class _Spread:
    """The adjoint of ``sum``/``mean`` of ``x``: ``g`` given back to every element it
    summed (divided by their count for a mean), with the axis it took out put back."""

    kind: object
    mean: bool

    def __call__(self, g, args, out, names):
        x, axis, keepdims = (tuple(args) + (ex.Const(None), ex.Const(False)))[:3]
        count = None
        if self.mean:
            count = ex.Attribute(x, "size") if axis == ex.Const(None) else _shape_product(
                x, axis)
        if axis == ex.Const(None) and not _true(keepdims):
            value = g if count is None else ex.BinOp("/", g, count)
            return call(names, "full_like", x, value)
        if not _true(keepdims):
            g = _with_axes_back(g, axis, self.kind, names)
        spread = ex.BinOp("*", g, call(names, "ones_like", x))
        return spread if count is None else ex.BinOp("/", spread, count)


def _with_axes_back(g, axis, kind, names):
    """``g`` with the reduced axes put back, of size one: ``g[:, None]`` where the axes
    are constants of an array of known ndim and some axis stays (``g`` is an array), else
    ``numpy.expand_dims(g, axis)``."""
    if isinstance(axis, ex.Const) and isinstance(axis.value, tuple):
        axes = axis.value
    else:
        axes = tuple(constant_value(a) for a in (
            axis.elts if isinstance(axis, ex.Tuple) else (axis,)))
    ndim = getattr(kind, "ndim", None)
    if ndim is None or not all(type(a) is int and -ndim <= a < ndim for a in axes):
        return call(names, "expand_dims", g, axis)
    kept = {a % ndim for a in axes}
    if len(kept) == ndim:  # a result of no axes: its adjoint may be a Python number
        return call(names, "expand_dims", g, axis)
    return ex.Subscript(g, ex.Tuple(tuple(ex.Const(None) if i in kept else ex.Slice()
                                          for i in range(ndim))))


def _shape_product(x, axis):
    """``x.shape[1]``, or ``x.shape[0] * x.shape[2]`` for ``axis=(0, 2)``."""
    count = None
    for a in _each_axis(axis):
        size = ex.Subscript(ex.Attribute(x, "shape"), a)
        count = size if count is None else ex.BinOp("*", count, size)
    return count


def _each_axis(axis):
    """The IR expressions of the axes ``axis`` names: itself, or each of a tuple's."""
    if isinstance(axis, ex.Const) and isinstance(axis.value, tuple):
        return tuple(ex.Const(a) for a in axis.value)
    return (axis,)


def _true(const):
    return isinstance(const, ex.Const) and bool(const.value)


_STACKED = {  # (x is the stack, how many axes the other has) -> x's and y's adjoints
    (True, 1): ("numpy.expand_dims(g, -1) * y", "x.reshape(-1, x.shape[-1]).T @ g.ravel()"),
    (True, 2): ("g @ y.T", "x.reshape(-1, x.shape[-1]).T @ g.reshape(-1, g.shape[-1])"),
    (True, 3): ("g @ numpy.swapaxes(y, -1, -2)", "numpy.swapaxes(x, -1, -2) @ g"),
    (False, 1): ("numpy.sum(y * numpy.expand_dims(g, -2), axis={lead_and_last})",
                 "numpy.expand_dims(x, -1) * numpy.expand_dims(g, -2)"),
    (False, 2): ("numpy.sum(g @ numpy.swapaxes(y, -1, -2), axis={lead})", "x.T @ g"),
}


def _stacked_vjp(x, y):
    """The adjoints of a product with a stack of matrices: by the stack's matrices, the
    other operand's summed over the stack's axes (in front of its last two)."""
    stack = x if x.ndim > 2 else y
    key = (True, min(y.ndim, 3)) if x.ndim > 2 else (False, x.ndim)
    lead = tuple(range(stack.ndim - 2))
    axes = {"lead": lead[0] if len(lead) == 1 else lead, "lead_and_last": lead + (-1,)}
    return tuple(Text(text.format(**axes), ("x", "y")) for text in _STACKED[key])


def _product_vjp(args, out):
    x, y = args
    params = ("x", "y")
    if x.ndim > 2 or y.ndim > 2:
        return _stacked_vjp(x, y)
    if x.ndim == 2 and y.ndim == 2:
        texts = ("g @ y.T", "x.T @ g")
    elif x.ndim == 2:
        texts = ("numpy.outer(g, y)", "x.T @ g")
    elif y.ndim == 2:
        texts = ("y @ g", "numpy.outer(x, g)")
    elif x.ndim == 1 and y.ndim == 1:
        texts = ("g * y", "g * x")
    else:  # (the type rule gives no value: refused where it is called, located)
        return (None, None)
    return tuple(Text(text, params) for text in texts)


def _transpose_vjp(args, out):
    return (Text("g.T", ("x",)),)


def _where_vjp(args, out):
    params = ("c", "x", "y")
    return (None, Text("numpy.where(c, g, 0.0)", params), Text("numpy.where(c, 0.0, g)", params))


def _array(name, forward, params, result, vjp, defaults=(), ints=(), numpy=(), jvp=None,
           **facts):
    """An array record; ``jvp``: its JVP builders by the arguments' types, or a function
    of the record giving them (``tangents.linear``)."""
    made = replace(primitive(name, forward, (None,) * len(params), None, params=params,
                             defaults=defaults, ints=ints, numpy=numpy, bridge=forward,
                             **facts),
                   array_result=result, array_vjp=vjp)
    return replace(made, array_jvp=jvp.of(made) if isinstance(jvp, LinearIn) else jvp)


RECORDS = table(
    *(_array(f"logical_{name}", f"numpy.logical_{name}({', '.join(params)})", params, masked,
             _no_derivative, numpy=(f"logical_{name}",), total=True, jvp=_no_derivative)
      for name, params in (("and", ("x", "y")), ("or", ("x", "y")), ("xor", ("x", "y")),
                           ("not", ("x",)))),
    _array("array_sum", "numpy.sum(x, axis=axis, keepdims=keepdims)", ("x", "axis", "keepdims"),
           or_a_number(reduced), or_a_number_given_back(_reduction_vjp(False)),
           defaults=(None, False), ints=("axis", "keepdims"), numpy=("sum",), total=True,
           jvp=linear()),
    _array("array_mean", "numpy.mean(x, axis=axis, keepdims=keepdims)",
           ("x", "axis", "keepdims"), or_a_number(reduced),
           or_a_number_given_back(_reduction_vjp(True)), defaults=(None, False),
           ints=("axis", "keepdims"), numpy=("mean",), total=True, jvp=linear()),
    _array("matmul", "x @ y", ("x", "y"), product, _product_vjp, numpy=("matmul",),
           operator="@", jvp=linear(0, 1)),
    _array("transpose", "x.T", ("x",), transposed, _transpose_vjp, numpy=("transpose",),
           total=True, jvp=linear()),
    _array("where", "numpy.where(c, x, y)", ("c", "x", "y"), selected, _where_vjp,
           numpy=("where",), broadcasting=True, jvp=linear(1, 2, joint=True)),
    _array("array_copy", "x.copy()", ("x",), lambda args, consts: args[0] if args and (
        isinstance(args[0], t.Array)) else None, lambda args, out: (Text("g", ("x",)),),
           numpy=("copy",), total=True, jvp=linear()),
)

METHODS = {"sum": "array_sum", "mean": "array_mean", "dot": "matmul",
           "transpose": "transpose", "copy": "array_copy",  # ``x.sum(axis=0)``: its record
           "clip": "clip"}  # (an elementwise record of numbers: ``x.clip(lo, hi)``)
ATTRIBUTES = {"T": "transpose"}  # ``x.T``
HINTS = {  # what a refused call of one of these takes (``registry.array_hint``)
    "matmul": "it multiplies arrays of one or two axes, or a stack of matrices by a "
              "matrix, a vector or a stack of as many axes",
    "where": "it takes a condition and two values, numbers or arrays that broadcast",
    "array_sum": "it reduces an array or takes a number whole (with no axis)",
    "array_mean": "it reduces an array or takes a number whole (with no axis)",
}


def for_arrays(record, arg_types, out_type):
    """``record`` as it computes on operands of types ``arg_types`` giving ``out_type``
    (one of them an array): its VJP builders chosen for those types, each contribution
    summed back to its operand's shape where NumPy broadcast it."""
    if record.array_vjp is not None:
        builders = record.array_vjp(tuple(arg_types), out_type)
        tangents = (record.array_jvp(tuple(arg_types), out_type) if record.array_jvp
                    is not None else (None,) * len(builders))
        broadcasting = record.broadcasting
    else:
        spelled = record.spelled("arrays")
        arrays = tuple(i for i, kind in enumerate(arg_types) if isinstance(kind, t.Array))
        builders = tuple(None if b is None else Elementwise(
            b, isinstance(out_type, t.Array), arrays) for b in spelled.vjps)
        tangents = tuple(None if b is None else Elementwise(
            b, isinstance(out_type, t.Array), arrays) for b in spelled.jvps)
        broadcasting = True
        record = spelled
    if broadcasting and isinstance(out_type, t.Array):
        builders = tuple(None if b is None or kind is None else Unbroadcast(b, kind, out_type)
                         for b, kind in zip(builders, arg_types))
        tangents = spread_where_broadcast(tangents, arg_types, out_type)
    elif isinstance(out_type, t.Array):
        builders = tuple(None if b is None or kind is None else CastBack(b, kind, out_type)
                         for b, kind in zip(builders, arg_types))
    return replace(record, vjp=builders, jvp=tangents, overrides=())
