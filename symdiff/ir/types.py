"""The types of the IR: what a variable holds, as plain frozen data.

Expects nothing; guarantees immutable, hashable, comparable values with a short
readable text (``str(t)``: ``float``, ``list[float, 3]``, ``array[float64, 2, (1,)]``)
and a ``join`` giving the type of a variable assigned values of two types.

Today a program holds numbers (``Float``, ``Int``, ``Bool``), strings (``Str``),
``None`` (``NoneType``, and ``Optional`` for a parameter that defaults to it), the
tables of numbers a function reads by index (``Table``: a tuple, list, dict or array known only when the
gradient runs).  The containers and arrays read next are defined here already, so
their passes extend one type system instead of adding another:

- ``Tuple(elts)``: a tuple of the given element types, in order;
- ``List(elem, length)``: a list of one element type, its length known or None (a
  list used as a stack, ``append`` and ``pop``, is one too);
- ``Dict(items)``: a dict with the given constant keys, ``((key, type), ...)``;
- ``Array(dtype, ndim, unit_axes)``: a NumPy array of a dtype (``"float64"``), a
  number of axes, and the axes known to have size one (what broadcasting depends on);
  the sizes of the other axes are not part of the type.
"""

from dataclasses import dataclass

from symdiff.errors import InternalError


class Type:
    """The base of every type."""

    __slots__ = ()


@dataclass(frozen=True)
class Float(Type):
    def __str__(self):
        return "float"


@dataclass(frozen=True)
class Int(Type):
    def __str__(self):
        return "int"


@dataclass(frozen=True)
class Bool(Type):
    def __str__(self):
        return "bool"


@dataclass(frozen=True)
class Str(Type):
    def __str__(self):
        return "str"


@dataclass(frozen=True)
class NoneType(Type):
    def __str__(self):
        return "None"


@dataclass(frozen=True)
class Optional(Type):
    """A value of type ``of``, or None (a parameter whose default is None)."""

    of: Type

    def __str__(self):
        return f"{self.of} | None"


@dataclass(frozen=True)
class Table(Type):
    """A container of numbers read by index or constant key, its kind (tuple, list, dict
    or array) and size known only when the gradient runs."""

    elem: Type = Float()

    def __str__(self):
        return f"table[{self.elem}]"


@dataclass(frozen=True)
class Tuple(Type):
    elts: tuple

    def __str__(self):
        return f"tuple[{', '.join(map(str, self.elts))}]"


@dataclass(frozen=True)
class List(Type):
    elem: Type
    length: int = None  # None: not known when the code is generated

    def __str__(self):
        length = "" if self.length is None else f", {self.length}"
        return f"list[{self.elem}{length}]"


@dataclass(frozen=True)
class Dict(Type):
    items: tuple  # ((key, type), ...), in the order of the keys

    def __str__(self):
        return "dict[" + ", ".join(f"{k!r}: {t}" for k, t in self.items) + "]"


@dataclass(frozen=True)
class Array(Type):
    dtype: str  # NumPy's name: "float64", "int64", "bool"
    ndim: int
    unit_axes: tuple = ()  # the axes known to have size one

    def __str__(self):
        return f"array[{self.dtype}, {self.ndim}, {self.unit_axes}]"


@dataclass(frozen=True)
class Number(Type):
    """A number whose type is not known when the code is generated: a bool, an int or a
    float (what a caller may pass where the program reads a float)."""

    def __str__(self):
        return "number"


FLOAT, INT, BOOL, STR, NONE = Float(), Int(), Bool(), Str(), NoneType()
NUMBER = Number()
NUMBERS = (BOOL, INT, FLOAT)  # each converts to the next: True + 1 is 2, 2 * 0.5 is 1.0


def is_number(t):
    return t in NUMBERS


def join(a, b):
    """The type of a variable that holds a value of type ``a`` or of type ``b``."""
    if a is None or a == b:
        return b
    if b is None:
        return a
    if is_number(a) and is_number(b):
        return max(a, b, key=NUMBERS.index)
    if a == NONE or b == NONE:
        other = b if a == NONE else a
        return other if isinstance(other, Optional) else Optional(other)
    if isinstance(a, Optional) or isinstance(b, Optional):
        return Optional(join(getattr(a, "of", a), getattr(b, "of", b)))
    raise InternalError("types", f"a variable holds both a {a} and a {b}")


def of_value(value):
    """The type of a constant (a number, string or None written in the code)."""
    if value is None:
        return NONE
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, str):
        return STR
    raise InternalError("types", f"no type for the constant {value!r}")


def accepts(expected, actual):
    """Whether a value of type ``actual`` may stand where ``expected`` is required (a
    bool where an int is, an int where a float is)."""
    return join(expected, actual) == expected if _joinable(expected, actual) else False


def _joinable(a, b):
    try:
        join(a, b)
    except InternalError:
        return False
    return True
