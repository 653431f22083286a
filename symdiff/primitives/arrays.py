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
from symdiff.primitives.derivatives import times, unit
from symdiff.primitives.record import primitive, table
from symdiff.primitives.texts import NUMPY, instantiate


@dataclass(frozen=True)
class Text:
    """A builder written as a text over the record's parameters, ``g`` (the incoming
    adjoint) and ``out``: ``"numpy.outer(g, y)"``."""

    text: str
    params: tuple

    def __call__(self, g, args, out, names):
        return instantiate(self.text, tuple(self.params) + ("g",), tuple(args) + (g,),
                           out, names)


def _numpy(names):
    """The IR name generated code calls numpy by."""
    found = names(NUMPY) if names is not None else None
    return found if found is not None else ex.Name(NUMPY)


def _call(names, function, *args, **keywords):
    return ex.Call(ex.Attribute(_numpy(names), function), tuple(args),
                   tuple((k, v) for k, v in keywords.items()))


def _axes(axes):
    return ex.Const(axes[0]) if len(axes) == 1 else ex.Tuple(tuple(ex.Const(a) for a in axes))


@dataclass(frozen=True)
class Unbroadcast:
    """The contribution of ``builder`` summed back to the shape of an operand of type
    ``kind`` that NumPy broadcast to ``result``: over the axes it put in front, then,
    keeping them, over the axes where the operand has size one."""

    builder: object
    kind: object
    result: object

    def __call__(self, g, args, out, names):
        term = self.builder(g, args, out, names)
        leading, units = t.broadcast_axes(self.kind, self.result)
        if not (leading or units):
            return term
        base, sign = unit(term)  # ``g * 1.0`` summed is ``np.sum(g)``, ``g * -1`` minus it
        term = base if sign is not None else term
        if not isinstance(self.kind, t.Array):
            term = _call(names, "sum", term)
        else:
            if units:
                term = _call(names, "sum", term, axis=_axes(units), keepdims=ex.Const(True))
            if leading:
                term = _call(names, "sum", term, axis=_axes(tuple(range(leading))))
        return term if sign is None else times(term, ex.Const(1.0) if sign == 1 else
                                               ex.UnaryOp("-", ex.Const(1.0)))


@dataclass(frozen=True)
class Elementwise:
    """A scalar builder computing on arrays: its conditional partials (``a if c else
    b``) as ``numpy.where(c, a, b)``, ``and``/``or`` as ``numpy.logical_and``/``_or``,
    ``abs`` as ``numpy.abs``; tests whose operands are constants decided first."""

    builder: object

    def __call__(self, g, args, out, names):
        return elementwise(self.builder(g, args, out, names), names)


def elementwise(expr, names):
    """``expr`` (an IR expression over numbers) as NumPy computes it on arrays."""
    if isinstance(expr, ex.IfExp):
        test = _decided(expr.test)
        if test is not None:
            return elementwise(expr.body if test else expr.orelse, names)
        return _call(names, "where", elementwise(expr.test, names),
                     elementwise(expr.body, names), elementwise(expr.orelse, names))
    if isinstance(expr, ex.BoolOp):
        values = [v for v in expr.values if _decided(v) is None]
        decided = [_decided(v) for v in expr.values if _decided(v) is not None]
        if (expr.op == "or" and any(decided)) or (expr.op == "and" and decided and not all(
                decided)):
            return ex.Const(expr.op == "or")
        if not values:
            return ex.Const(expr.op == "and")
        result = elementwise(values[0], names)
        for value in values[1:]:
            result = _call(names, f"logical_{expr.op}", result, elementwise(value, names))
        return result
    if isinstance(expr, ex.Call) and expr.func == ex.Name("abs"):
        return _call(names, "abs", *(elementwise(a, names) for a in expr.args))
    if isinstance(expr, ex.Call) and _is_numpy(expr.func, "power", names) and len(
            expr.args) == 2 and _constant(expr.args[1]) == 1:
        return elementwise(expr.args[0], names)  # ``x ** 1``
    if isinstance(expr, ex.Call):
        return ex.Call(elementwise(expr.func, names), tuple(
            elementwise(a, names) for a in expr.args), tuple(
            (k, elementwise(v, names)) for k, v in expr.keywords))
    if isinstance(expr, ex.BinOp):
        folded = _constant(expr)
        if folded is not None:
            return ex.Const(folded)
        return ex.BinOp(expr.op, elementwise(expr.left, names), elementwise(expr.right, names))
    if isinstance(expr, ex.UnaryOp):
        return ex.UnaryOp(expr.op, elementwise(expr.operand, names))
    if isinstance(expr, ex.Compare):
        return ex.Compare(elementwise(expr.left, names), expr.ops, tuple(
            elementwise(c, names) for c in expr.comparators))
    return expr


def _is_numpy(func, name, names):
    return isinstance(func, ex.Attribute) and func.attr == name and func.value == _numpy(names)


_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def _decided(test):
    """The truth of ``test`` where it compares constants only (``2 >= 1``), else None."""
    if isinstance(test, ex.Const) and isinstance(test.value, (bool, int, float)):
        return bool(test.value)
    if isinstance(test, ex.Compare) and len(test.ops) == 1 and test.ops[0] in _COMPARE:
        left, right = _constant(test.left), _constant(test.comparators[0])
        if left is not None and right is not None:
            return _COMPARE[test.ops[0]](left, right)
    if isinstance(test, ex.BoolOp):
        found = [_decided(v) for v in test.values]
        if test.op == "or" and any(f is True for f in found) or test.op == "and" and any(
                f is False for f in found):
            return test.op == "or"
        if None not in found:
            return test.op == "and"
    return None


def _constant(expr):
    if isinstance(expr, ex.Const) and isinstance(expr.value, (int, float)) and not (
            isinstance(expr.value, bool)):
        return expr.value
    if isinstance(expr, ex.UnaryOp) and expr.op == "-":
        inner = _constant(expr.operand)
        return None if inner is None else -inner
    if isinstance(expr, ex.BinOp) and expr.op in ("+", "-", "*"):
        left, right = _constant(expr.left), _constant(expr.right)
        if left is not None and right is not None:
            return {"+": left + right, "-": left - right, "*": left * right}[expr.op]
    return None


# --- the type rules ------------------------------------------------------------------------

def _dtype(*kinds):
    return t.broadcast(kinds).dtype


def _scalar(kind):
    """The type of one number of an array of type ``kind``: numpy's scalar."""
    return t.NUMPY_FLOAT


def reduced(args, consts):
    """``sum``/``mean`` of ``x`` over ``axis`` (a constant int or None), ``keepdims``."""
    x = args[0] if args else None
    if not isinstance(x, t.Array):
        return None
    axis = consts[1] if len(consts) > 1 else None
    keepdims = bool(consts[2]) if len(consts) > 2 else False
    if axis is None:
        return t.Array(x.dtype, x.ndim, tuple(range(x.ndim))) if keepdims else _scalar(x)
    axis = axis % x.ndim
    if keepdims:
        return t.Array(x.dtype, x.ndim, tuple(sorted(set(x.unit_axes) | {axis})))
    if x.ndim == 1:
        return _scalar(x)
    return t.Array(x.dtype, x.ndim - 1, tuple(a - (a > axis) for a in x.unit_axes
                                               if a != axis))


def product(args, consts):
    """``x @ y`` of arrays of one or two axes."""
    if len(args) != 2 or not all(isinstance(a, t.Array) and 1 <= a.ndim <= 2 for a in args):
        return None
    x, y = args
    dtype = _dtype(x, y)
    if x.ndim == 2 and y.ndim == 2:
        units = tuple(a for a, on in ((0, 0 in x.unit_axes), (1, 1 in y.unit_axes)) if on)
        return t.Array(dtype, 2, units)
    if x.ndim == 2:
        return t.Array(dtype, 1, (0,) if 0 in x.unit_axes else ())
    if y.ndim == 2:
        return t.Array(dtype, 1, (0,) if 1 in y.unit_axes else ())
    return t.NUMPY_FLOAT


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
            count = ex.Attribute(x, "size") if axis == ex.Const(None) else ex.Subscript(
                ex.Attribute(x, "shape"), axis)
        if axis == ex.Const(None) and not _true(keepdims):
            value = g if count is None else ex.BinOp("/", g, count)
            return _call(names, "full_like", x, value)
        if not _true(keepdims):
            g = _call(names, "expand_dims", g, axis)
        spread = ex.BinOp("*", g, _call(names, "ones_like", x))
        return spread if count is None else ex.BinOp("/", spread, count)


def _true(const):
    return isinstance(const, ex.Const) and bool(const.value)


def _product_vjp(args, out):
    x, y = args
    params = ("x", "y")
    if x.ndim == 2 and y.ndim == 2:
        texts = ("g @ y.T", "x.T @ g")
    elif x.ndim == 2:
        texts = ("numpy.outer(g, y)", "x.T @ g")
    elif y.ndim == 2:
        texts = ("y @ g", "numpy.outer(x, g)")
    else:
        texts = ("g * y", "g * x")
    return tuple(Text(text, params) for text in texts)


def _transpose_vjp(args, out):
    return (Text("g.T", ("x",)),)


def _where_vjp(args, out):
    params = ("c", "x", "y")
    return (None, Text("numpy.where(c, g, 0.0)", params), Text("numpy.where(c, 0.0, g)", params))


def _array(name, forward, params, result, vjp, defaults=(), ints=(), numpy=(), **facts):
    return replace(primitive(name, forward, (None,) * len(params), None, params=params,
                             defaults=defaults, ints=ints, numpy=numpy, bridge=forward,
                             **facts),
                   array_result=result, array_vjp=vjp)


RECORDS = table(
    _array("array_sum", "numpy.sum(x, axis=axis, keepdims=keepdims)", ("x", "axis", "keepdims"),
           reduced, _reduction_vjp(False), defaults=(None, False), ints=("axis", "keepdims"),
           numpy=("sum",)),
    _array("array_mean", "numpy.mean(x, axis=axis, keepdims=keepdims)",
           ("x", "axis", "keepdims"), reduced, _reduction_vjp(True), defaults=(None, False),
           ints=("axis", "keepdims"), numpy=("mean",)),
    _array("matmul", "x @ y", ("x", "y"), product, _product_vjp, numpy=("matmul",),
           operator="@"),
    _array("transpose", "x.T", ("x",), transposed, _transpose_vjp, numpy=("transpose",)),
    _array("where", "numpy.where(c, x, y)", ("c", "x", "y"), selected, _where_vjp,
           numpy=("where",), broadcasting=True),
)

METHODS = {"sum": "array_sum", "mean": "array_mean", "dot": "matmul",
           "transpose": "transpose"}  # ``x.sum(axis=0)``: the method's record
ATTRIBUTES = {"T": "transpose"}  # ``x.T``


def for_arrays(record, arg_types, out_type):
    """``record`` as it computes on operands of types ``arg_types`` giving ``out_type``
    (one of them an array): its VJP builders chosen for those types, each contribution
    summed back to its operand's shape where NumPy broadcast it."""
    if record.array_vjp is not None:
        builders = record.array_vjp(tuple(arg_types), out_type)
        broadcasting = record.broadcasting
    else:
        spelled = record.spelled("numpy")
        builders = tuple(None if b is None else Elementwise(b) for b in spelled.vjps)
        broadcasting = True
        record = spelled
    if broadcasting and isinstance(out_type, t.Array):
        builders = tuple(None if b is None or kind is None else Unbroadcast(b, kind, out_type)
                         for b, kind in zip(builders, arg_types))
    return replace(record, vjp=builders, jvp=(None,) * len(builders), overrides=())
