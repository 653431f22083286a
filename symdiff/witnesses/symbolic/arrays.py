"""Arrays in the sympy witness: NumPy arrays of sympy values, read as NumPy reads them.

Expects the expressions of ``expressions.ExpressionReader`` (it extends them) and NumPy,
imported already by the user's code wherever an array is met.  Guarantees the array half
of the language, with NumPy's own semantics (broadcasting, views, indexing) because the
values are NumPy arrays: an array of floats is an array of dtype ``object`` holding one
sympy expression per element; integer and boolean arrays (indices, masks) are NumPy's
own, and a mask computed from the inputs is decided at the point:

- the operators elementwise (each element by the scalar rule of ``_OPERATORS``, NumPy
  broadcasting the operands) and ``@`` (NumPy's product of object arrays: sums of
  sympy products); operators between data (``&``, ``|``, ``~`` of masks) as NumPy's;
- comparisons: a boolean array, each element compared by its number at the point;
- indexing (integers, slices with steps, ``None``, ``...``, integer arrays and masks),
  writes ``x[i] = v`` and ``x[:, 0] += v`` into the array (so views see them, as in
  NumPy), in-place operators on an array name (``y *= 2.0`` changes ``y``'s elements);
- ``.T``, ``.shape``, ``.ndim``, ``.size``, ``.dtype`` (float64 for an array of sympy
  values), iteration over the first axis, ``len``, and
  the truth of a one-element array.

Calls of NumPy's functions and of an array's methods are ``numpy_calls``'s.  No
derivative is stated here: sympy differentiates what this builds.

    x = [x_0, x_1] (symbols), m = x > 0 at x = (1.0, -2.0)   ──►  m = [True, False]
    np.where(m, x, 0.0) ** 2                                 ──►  [x_0**2, 0]
"""

import ast
import operator
import sys

import sympy

from symdiff.errors import SymdiffError
from symdiff.witnesses.symbolic.expressions import ExpressionReader
from symdiff.witnesses.symbolic.primitives import _OPERATORS
from symdiff.witnesses.symbolic.values import _outside_value

_DATA_OPERATORS = {  # between integer and boolean arrays: NumPy's own
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
    ast.Invert: operator.invert, ast.Not: operator.not_, ast.MatMult: operator.matmul,
    **_OPERATORS,
}
_MEASURES = ("shape", "ndim", "size")


def numpy():
    """NumPy, which the user's code imported if it made an array."""
    return sys.modules["numpy"]


def is_array(value):
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.ndarray)


def is_symbolic(value):
    """Whether ``value`` holds sympy values (an object array, a sympy expression, or a
    container of them), rather than data NumPy computes with directly."""
    if is_array(value):
        return value.dtype == object
    if isinstance(value, (tuple, list)):
        return any(is_symbolic(item) for item in value)
    return isinstance(value, sympy.Basic) and not value.is_Number


def lifted(value):
    """A value NumPy returned, as the witness holds it: floats as sympy numbers, an
    object array's elements as sympy values (NumPy's zeros are Python ints)."""
    if is_array(value) and value.dtype == object:
        if all(isinstance(item, sympy.Basic) for item in value.flat):
            return value  # the witness's own array (a view stays a view)
        return _elementwise(_sympy_value, value)
    if isinstance(value, (tuple, list)):
        return type(value)(lifted(item) for item in value)
    if type(value).__name__ == "bool_":
        return sympy.Integer(bool(value))
    return _outside_value(value)


def operand(value):
    """An operand of arithmetic: an array of sympy values (data arrays' numbers too)."""
    if is_array(value):
        return value if value.dtype == object else _elementwise(_sympy_value, value)
    if isinstance(value, (tuple, list)):
        return type(value)(operand(item) for item in value)
    return _sympy_value(value)


def options(args, kwargs, names):
    """The positional-or-keyword parameters ``names`` after the first argument."""
    found = dict(zip(names, args[1:]), **kwargs)
    unknown = set(found) - set(names)
    if unknown:
        raise TypeError(f"unexpected keyword arguments {sorted(unknown)}")
    return {name: plain(found.get(name)) for name in names}


def plain(value):
    """A value handed to NumPy as a parameter (an axis, a shape, data): sympy numbers as
    Python's, containers of them likewise."""
    if isinstance(value, (tuple, list)):
        return type(value)(plain(item) for item in value)
    if isinstance(value, sympy.Integer):
        return int(value)
    if isinstance(value, sympy.Float):
        return float(value)
    return value


def _sympy_value(item):
    if isinstance(item, sympy.Basic):
        return item
    return _outside_value(bool(item) if type(item).__name__ in ("bool", "bool_") else item)


def _elementwise(function, *arrays):
    """``function`` of each element (NumPy broadcasting), an object array (0-d too)."""
    np = numpy()
    found = np.frompyfunc(function, len(arrays), 1)(*arrays)
    if not is_array(found):  # NumPy gives a bare element for 0-d arguments
        if any(is_array(a) and a.ndim == 0 for a in arrays):
            return np.array(found, dtype=object)
    return found


class _Method:
    """An array's method, read but not yet called: ``x.sum`` of ``x.sum(axis=0)``."""

    def __init__(self, base, name):
        self.base, self.name = base, name


class ArrayReader(ExpressionReader):
    """The array expressions and writes of the interpreted language (see the module)."""

    def numbers_of(self, array, node, what="value"):
        """The array's numbers at the point, as a float (or integer, boolean) array."""
        if array.dtype != object:
            return array
        values = _elementwise(lambda e: self.number(e, node, what), array)
        return values.astype(float)

    def _eval_Constant(self, node):
        return Ellipsis if node.value is Ellipsis else super()._eval_Constant(node)

    def operate(self, op, node, *operands):
        if not any(is_array(value) for value in operands):
            return super().operate(op, node, *operands)
        if not any(is_symbolic(value) for value in operands):  # masks, indices: data
            rule = _DATA_OPERATORS.get(type(op))
            if rule is None:
                raise self.unsupported(node, f"the operator in `{ast.unparse(node)}`")
            return lifted(rule(*(plain(value) for value in operands)))
        if isinstance(op, ast.MatMult):
            return lifted(numpy().matmul(*(operand(value) for value in operands)))
        rule = _OPERATORS.get(type(op))
        if rule is None:
            raise self.unsupported(node, f"the operator in `{ast.unparse(node)}` on arrays")
        for value in operands:  # a number with no value (a string flag) is refused
            if not is_array(value):
                self.expr(_sympy_value(value), node)
        return _elementwise(rule, *(operand(value) for value in operands))

    def comparand(self, side, node):
        value = self.eval(side)
        if is_array(value):
            return self.numbers_of(value, node, "condition")
        return value if isinstance(value, str) else self.number(value, node, "condition")

    def sequence_operation(self, op, left, right, node):
        if is_array(left) or is_array(right):  # NumPy's, even beside a list
            return NotImplemented
        return super().sequence_operation(op, left, right, node)

    def attribute(self, base, node):
        if node.attr in ("outer", "accumulate") and type(base).__name__ == "ufunc":  # ``np.add.outer``
            return _Method(base, node.attr)
        if not is_array(base):
            return super().attribute(base, node)
        if node.attr == "T":
            return base.T
        if node.attr == "shape":
            return tuple(sympy.Integer(n) for n in base.shape)
        if node.attr in _MEASURES:
            return sympy.Integer(getattr(base, node.attr))
        if node.attr == "dtype":  # the witness's arrays of sympy values stand for floats
            return numpy().dtype(float) if base.dtype == object else base.dtype
        return _Method(base, node.attr)  # called by numpy_calls, which knows the methods

    def subscript(self, base, node):
        if not is_array(base):
            return super().subscript(base, node)
        return lifted(base[self.array_index(node.slice)])

    def store_item(self, base, target, value):
        if not is_array(base):
            return super().store_item(base, target, value)
        if base.dtype != object and is_symbolic(value):
            raise self.fail(SymdiffError, target, "writing a value that depends on the "
                            f"inputs into the {base.dtype} array `{ast.unparse(target.value)}`",
                            hint="write it into an array of floats")
        base[self.array_index(target.slice)] = operand(value) if base.dtype == object else (
            plain(value))
        return None

    def array_index(self, node):
        """What NumPy indexes with for the subscript ``node``: whole numbers, slices,
        None, ``...``, integer arrays and masks, a tuple of them."""
        if isinstance(node, ast.Tuple):
            return tuple(self.array_index(elt) for elt in node.elts)
        if isinstance(node, ast.Slice):
            return slice(*(None if part is None else self.index(self.eval(part), part)
                           for part in (node.lower, node.upper, node.step)))
        value = self.eval(node)
        if value is None or value is Ellipsis:
            return value
        if is_array(value):
            if value.dtype == object:
                raise self.fail(SymdiffError, node, "an index computed from the inputs' "
                                "values", hint="index with integers or a mask")
            return value
        if isinstance(value, (tuple, list)):  # x[[0, 2]]: an integer array
            return numpy().array([self.index(item, node) for item in value], dtype=int)
        return self.index(value, node)

    def iterate(self, value, node):
        if not is_array(value):
            return super().iterate(value, node)
        if value.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return [lifted(row) for row in value]  # rows are views, as NumPy's

    def checked(self, value, node):
        if is_array(value):
            if value.dtype == object:
                super().checked(list(value.flat), node)
            return value
        if isinstance(value, (tuple, list, dict)):
            for item in value.values() if isinstance(value, dict) else value:
                self.checked(item, node)
            return value
        return super().checked(value, node)

    def expr(self, value, node):
        if is_array(value) and value.ndim == 0:  # a 0-d array as its number
            value = _sympy_value(value[()])
        return super().expr(value, node)

    def truthy(self, value, node):
        if is_array(value):
            if value.size != 1:
                raise ValueError("The truth value of an array with more than one element "
                                 "is ambiguous. Use a.any() or a.all()")
            return self.truthy(_sympy_value(value.flat[0]), node)
        return super().truthy(value, node)

    def update_in_place(self, left, value, node):
        """``left op= value`` for an array ``left``: its elements changed, as NumPy does."""
        if left.dtype != object and is_symbolic(value):
            raise self.fail(SymdiffError, node, f"an in-place operator writes a value that "
                            f"depends on the inputs into a {left.dtype} array",
                            hint="write `x = x + ...`, or start from an array of floats")
        left[...] = operand(value) if left.dtype == object else plain(value)
        return left
