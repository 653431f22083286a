"""Array builders: texts over the arguments, elementwise partials on arrays, and the one
rule that sums a contribution back over the axes NumPy broadcast.

Expects IR expressions (``core.expr``) of a statement's operands, its output and the
incoming adjoint ``g``.  Guarantees the builders the array records are made of:

- ``Text``: a builder written as a text over the record's parameters, ``g`` and ``out``
  (``"numpy.outer(g, y)"``, ``numpy`` standing for the name generated code calls NumPy by);
- ``Elementwise``: a scalar record's builder computing on arrays, its conditional
  partials as ``numpy.where``, tests of constants decided first (``elementwise``);
- ``Unbroadcast``: a contribution summed back to the shape of an operand NumPy broadcast,
  over the axes the types say it was broadcast along, never tested at run time, and cast
  back to the operand's float dtype where NumPy promoted it (float32 met float64).

    Unbroadcast(Text("g", ("x", "y")), array[float64, 1, ()], array[float64, 2, ()])
        (g, ...)   ->   numpy.sum(g, axis=0)
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.derivatives import times, unit
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


def numpy_name(names):
    """The IR name generated code calls numpy by."""
    found = names(NUMPY) if names is not None else None
    return found if found is not None else ex.Name(NUMPY)


def call(names, function, *args, **keywords):
    return ex.Call(ex.Attribute(numpy_name(names), function), tuple(args),
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
        return _cast_back(self.summed(g, args, out, names), self.kind, self.result, names)

    def summed(self, g, args, out, names):
        term = self.builder(g, args, out, names)
        leading, units = t.broadcast_axes(self.kind, self.result)
        if not (leading or units):
            return term
        base, sign = unit(term)  # ``g * 1.0`` summed is ``np.sum(g)``, ``g * -1`` minus it
        term = base if sign is not None else term
        if not isinstance(self.kind, t.Array):
            term = call(names, "sum", term)
        else:
            if units:
                term = call(names, "sum", term, axis=_axes(units), keepdims=ex.Const(True))
            if leading:
                term = call(names, "sum", term, axis=_axes(tuple(range(leading))))
        return term if sign is None else times(term, ex.Const(1.0) if sign == 1 else
                                               ex.UnaryOp("-", ex.Const(1.0)))


def _cast_back(term, kind, result, names):
    """``term`` of the dtype of the operand ``kind`` where NumPy promoted it to the
    result's (a float32 array met a float64 one): an adjoint has its primal's type, as
    a cast's (``array_casts``) has."""
    if not (isinstance(kind, t.Array) and isinstance(result, t.Array)) or (
            kind.dtype == result.dtype or not kind.dtype.startswith("float")) or (
            _casts(term)):
        return term
    dtype = ex.Attribute(numpy_name(names), kind.dtype)
    return ex.Call(ex.Attribute(term, "astype"), (dtype,), ())


def _casts(term):
    """Whether ``term`` is a cast already (``g.astype(x.dtype)``, a cast's own rule)."""
    return type(term) is ex.Call and type(term.func) is ex.Attribute and (
        term.func.attr == "astype")


@dataclass(frozen=True)
class CastBack:
    """The contribution of ``builder`` cast back to the float dtype of an operand of
    type ``kind`` where the result, of type ``result``, has another (``_cast_back``)."""

    builder: object
    kind: object
    result: object

    def __call__(self, g, args, out, names):
        return _cast_back(self.builder(g, args, out, names), self.kind, self.result, names)


@dataclass(frozen=True)
class Elementwise:
    """A scalar builder computing on arrays: its conditional partials (``a if c else
    b``) as ``numpy.where(c, a, b)``, ``and``/``or`` as ``numpy.logical_and``/``_or``,
    ``abs`` as ``numpy.abs``; tests whose operands are constants decided first."""

    builder: object
    of_array: bool = False  # the result is an array, and so its adjoint ``g``
    arrays: tuple = None  # the positions of the operands that are arrays, where known

    def __call__(self, g, args, out, names):
        arrays = None
        if self.arrays is not None:
            held = [args[i] for i in self.arrays] + ([g, out] if self.of_array else [])
            arrays = set().union(*(ex.names(a) for a in held if a is not None))
        built = elementwise(self.builder(g, args, out, names), names, arrays)
        if self.of_array:
            built = _masked(built, names)
        if self.of_array and isinstance(built, ex.BinOp) and built.op == "*" and (
                built.left == g and isinstance(built.right, ex.Call) and is_numpy_function(
                    built.right.func, "divide", names) and built.right.args[0] == ex.Const(1.0)):
            return ex.BinOp("/", g, built.right.args[1])  # an array's ``/`` is numpy's
        return built


def _masked(expr, names):
    """A product's factor ``numpy.where(c, 1.0, 0.0)`` as the mask ``c`` itself (and
    ``numpy.where(c, 0.0, 1.0)`` as ``numpy.logical_not(c)``): the same numbers times an
    array of floats (``g * False`` is ``g * 0.0``, a nan of ``inf`` and a signed zero
    alike), in the array's dtype, where the selection of two float64 constants made a
    float32 gradient float64 (``np.maximum``, ``np.clip``: a ReLU)."""
    if not (isinstance(expr, ex.BinOp) and expr.op == "*"):
        return expr
    left, right = _masked(expr.left, names), _masked(expr.right, names)
    return ex.BinOp("*", _mask(left, names) or left, _mask(right, names) or right)


def _mask(expr, names):
    if not (isinstance(expr, ex.Call) and is_numpy_function(expr.func, "where", names)
            and len(expr.args) == 3 and not expr.keywords):
        return None
    test, yes, no = expr.args
    if yes == ex.Const(1.0) and no == ex.Const(0.0):
        return test
    if yes == ex.Const(0.0) and no == ex.Const(1.0):
        return call(names, "logical_not", test)
    return None


def elementwise(expr, names, arrays=None):
    """``expr`` (an IR expression over numbers) as NumPy computes it on arrays; a
    conditional reading none of the names ``arrays`` holds (where given) stays Python's
    (``numpy.where`` of numbers alone is a float64 array: a float32 gradient met it)."""
    if isinstance(expr, ex.IfExp):
        test = _decided(expr.test)
        if test is not None:
            return elementwise(expr.body if test else expr.orelse, names, arrays)
        if arrays is not None and not set(ex.names(expr)) & arrays:
            return expr
        return call(names, "where", *(elementwise(e, names, arrays)
                                      for e in (expr.test, expr.body, expr.orelse)))
    if isinstance(expr, ex.BoolOp):
        values = [v for v in expr.values if _decided(v) is None]
        decided = [_decided(v) for v in expr.values if _decided(v) is not None]
        if (expr.op == "or" and any(decided)) or (expr.op == "and" and decided and not all(
                decided)):
            return ex.Const(expr.op == "or")
        if not values:
            return ex.Const(expr.op == "and")
        result = elementwise(values[0], names, arrays)
        for value in values[1:]:
            result = call(names, f"logical_{expr.op}", result, elementwise(value, names, arrays))
        return result
    if isinstance(expr, ex.Call) and expr.func == ex.Name("abs"):
        return call(names, "abs", *(elementwise(a, names, arrays) for a in expr.args))
    if isinstance(expr, ex.Call) and is_numpy_function(expr.func, "power", names) and len(
            expr.args) == 2 and constant_value(expr.args[1]) == 1:
        return elementwise(expr.args[0], names, arrays)  # ``x ** 1``
    if isinstance(expr, ex.Call):
        return ex.Call(elementwise(expr.func, names, arrays), tuple(
            elementwise(a, names, arrays) for a in expr.args), tuple(
            (k, elementwise(v, names, arrays)) for k, v in expr.keywords))
    if isinstance(expr, ex.BinOp):
        folded = constant_value(expr)
        if folded is not None:
            return ex.Const(folded)
        return ex.BinOp(expr.op, elementwise(expr.left, names, arrays),
                        elementwise(expr.right, names, arrays))
    if isinstance(expr, ex.UnaryOp):
        return ex.UnaryOp(expr.op, elementwise(expr.operand, names, arrays))
    if isinstance(expr, ex.Compare):  # ``a <= b <= c``: each pair, and both
        sides = (elementwise(expr.left, names, arrays),) + tuple(
            elementwise(c, names, arrays) for c in expr.comparators)
        pairs = [ex.Compare(sides[i], (op,), (sides[i + 1],)) for i, op in enumerate(expr.ops)]
        result = pairs[0]
        for pair in pairs[1:]:
            result = call(names, "logical_and", result, pair)
        return result
    return expr


def is_numpy_function(func, name, names):
    return isinstance(func, ex.Attribute) and func.attr == name and func.value == numpy_name(names)


_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def _decided(test):
    """The truth of ``test`` where it compares constants only (``2 >= 1``), else None."""
    if isinstance(test, ex.Const) and isinstance(test.value, (bool, int, float)):
        return bool(test.value)
    if isinstance(test, ex.Compare) and len(test.ops) == 1 and test.ops[0] in _COMPARE:
        left, right = constant_value(test.left), constant_value(test.comparators[0])
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


def constant_value(expr):
    """The number ``expr`` computes from constants alone (``2 - 1``), or None."""
    if isinstance(expr, ex.Const) and isinstance(expr.value, (int, float)) and not (
            isinstance(expr.value, bool)):
        return expr.value
    if isinstance(expr, ex.UnaryOp) and expr.op == "-":
        inner = constant_value(expr.operand)
        return None if inner is None else -inner
    if isinstance(expr, ex.BinOp) and expr.op in ("+", "-", "*"):
        left, right = constant_value(expr.left), constant_value(expr.right)
        if left is not None and right is not None:
            return {"+": left + right, "-": left - right, "*": left * right}[expr.op]
    return None
