"""The types of the IR: what a variable holds, as plain frozen data.

Part of ``core``, below the registry and the IR: the registry's type rules give these
types and the IR stores them, so both read this module and it reads neither.

Expects nothing; guarantees immutable, hashable, comparable values with a short
readable text (``str(t)``: ``float``, ``list[float, 3]``, ``array[float64, 2, (1,)]``)
and a ``join`` giving the type of a variable assigned values of two types; the type of a
constant (``of_value``), whether a value is a table of numbers (``is_table``), and what a
container type's element is (``element``, ``length``).

Today a program holds numbers (``Float``, ``Int``, ``Bool``; a NumPy scalar is a
``Float`` computed by numpy, ``NUMPY_FLOAT``), strings (``Str``),
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

import dataclasses
import numbers
import sys
from dataclasses import dataclass

from symdiff.errors import InternalError


class Type:
    """The base of every type."""

    __slots__ = ()


@dataclass(frozen=True)
class Float(Type):
    """A float; with ``numpy``, a NumPy scalar (``np.float64``, a subclass of float whose
    operators give inf or nan where Python's raise, so what meets it computes as numpy)."""

    numpy: bool = False

    def __str__(self):
        return "np.float64" if self.numpy else "float"

    def __repr__(self):
        return "Float(numpy=True)" if self.numpy else "Float()"


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


def with_items(kind, items):
    """The dict type ``kind`` with ``items`` (a record type stays one of its class)."""
    return dataclasses.replace(kind, items=items)


def _alike(a, b):
    """Whether ``a`` and ``b`` are dicts, or records of one class and flags, of one key list."""
    return isinstance(a, Dict) and type(a) is type(b) and all(getattr(a, f, None) == getattr(
        b, f, None) for f in ("cls", "constants")) and list(dict(a.items)) == list(dict(b.items))


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
NUMPY_FLOAT = Float(numpy=True)
# each converts to the next: True + 1 is 2, 2 * 0.5 is 1.0, np.float64(2.0) * 0.5 is numpy's
# (a ``Number`` meeting an int may be an int; meeting a float it is a float)
NUMBERS = (BOOL, INT, NUMBER, FLOAT, NUMPY_FLOAT)


_NUMBER_CLASSES = frozenset(type(k) for k in NUMBERS)  # each of whose types is in NUMBERS


def is_number(t):
    return type(t) in _NUMBER_CLASSES  # ``t in NUMBERS``, read from the class


def is_numpy(t):
    """Whether a value of type ``t`` may be a NumPy scalar."""
    return t == NUMPY_FLOAT or (isinstance(t, Optional) and t.of == NUMPY_FLOAT)


def either(a, b):
    """The type of a value that is one of a value of type ``a`` and one of type ``b``, as
    it is (``max(a, b)``, a name assigned both): two numbers of unlike types are a
    ``Number`` (a bool is an int; a float and numpy's, a float that may be numpy's);
    anything else as ``join`` has it.

    >>> either(INT, FLOAT), either(BOOL, INT), join(INT, FLOAT)
    (Number(), Int(), Float())
    """
    if is_number(a) and is_number(b) and a != b and {a, b} not in ({BOOL, INT}, {
            FLOAT, NUMPY_FLOAT}):
        return NUMBER
    return join(a, b)


def join(a, b):
    """The type of a variable that holds a value of type ``a`` or of type ``b`` (None: no
    value known yet).  Containers of one shape join element by element, a list's length
    kept where both agree: ``join(list[int, 2], list[float, 3])`` is ``list[float]``."""
    if a is None or a == b:
        return b
    if b is None:
        return a
    if is_number(a) and is_number(b):
        return max(a, b, key=NUMBERS.index)
    if isinstance(a, List) and isinstance(b, List):
        return List(join(a.elem, b.elem), a.length if a.length == b.length else None)
    if isinstance(a, Tuple) and isinstance(b, Tuple) and len(a.elts) == len(b.elts):
        return (type(a) if type(a) is type(b) else Tuple)(tuple(join(x, y) for x, y in zip(a.elts, b.elts)))
    if _alike(a, b):
        return with_items(a, tuple((k, join(x, y)) for (k, x), (_, y) in zip(a.items, b.items)))
    if isinstance(a, Table) and isinstance(b, Table):
        return Table(join(a.elem, b.elem))
    if isinstance(a, Array) and isinstance(b, Array) and a.ndim == b.ndim and (
            a.dtype.startswith("float") == b.dtype.startswith("float")):
        # (a name a loop carries: an axis is of size one only where it always is)
        return Array(max(a.dtype, b.dtype, key=lambda d: (len(d), d)), a.ndim,
                     tuple(x for x in a.unit_axes if x in b.unit_axes))
    if a == NONE or b == NONE:
        other = b if a == NONE else a
        return other if isinstance(other, Optional) else Optional(other)
    if isinstance(a, Optional) or isinstance(b, Optional):
        return Optional(join(getattr(a, "of", a), getattr(b, "of", b)))
    raise InternalError("types", f"a variable holds both a {a} and a {b}")


def element_join(a, b):
    """One type for two elements of one list (what lowering and the argument kinds give a
    list's elements): numbers join (an int and a float are floats), containers of one
    shape join element by element, a list among them of unknown length; None when
    none fits (a list of unlike elements)."""
    if a == b:
        return a
    if is_number(a) and is_number(b):
        return join(a, b)
    if isinstance(a, List) and isinstance(b, List):
        elem = element_join(a.elem, b.elem)
        return None if elem is None else List(elem, None)
    if isinstance(a, Tuple) and isinstance(b, Tuple) and len(a.elts) == len(b.elts):
        elts = tuple(element_join(x, y) for x, y in zip(a.elts, b.elts))
        return None if None in elts else Tuple(elts)
    if _alike(a, b):
        values = [element_join(x, y) for (_, x), (_, y) in zip(a.items, b.items)]
        return None if None in values else with_items(a, tuple(
            (k, v) for (k, _), v in zip(a.items, values)))
    return None


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
    if type(value) is tuple and all(type(v) in (int, tuple) for v in value):  # ``axis=(0, 2)``
        return Tuple(tuple(of_value(v) for v in value))  # (``axes=((0, 1), (1, 0))``)
    raise InternalError("types", f"no type for the constant {value!r}")


def is_table(obj):
    """A tuple or list of real numbers, or a one-dimensional numpy array of them: a table
    a loop can run over and code can index."""
    numpy = sys.modules.get("numpy")  # imported by the user's code, never here
    if numpy is not None and isinstance(obj, numpy.ndarray):
        return obj.ndim == 1 and obj.dtype.kind in "biuf"
    return isinstance(obj, (tuple, list)) and all(
        isinstance(v, numbers.Real) and not isinstance(v, type) for v in obj)


def table_values(obj):
    """The numbers of a table as a tuple of Python ints and floats."""
    return tuple(obj.tolist()) if hasattr(obj, "tolist") else tuple(obj)


def array_type(value):
    """The type of a NumPy array of floats (``float64``, ``float32``), integers or
    booleans: its dtype, its number of axes and the axes of size one; None for anything
    else (a complex or object array, not an array)."""
    numpy = sys.modules.get("numpy")  # imported by the user's code, never here
    if numpy is None or not isinstance(value, numpy.ndarray) or value.dtype.kind not in (
            "biuf") or value.dtype.kind == "f" and value.dtype.itemsize not in (4, 8):
        return None
    return Array(value.dtype.name, value.ndim,
                 tuple(i for i, size in enumerate(value.shape) if size == 1))


def is_container(kind):
    return isinstance(kind, (Tuple, List, Dict))


def is_array(kind):
    return isinstance(kind, Array)


def broadcast(kinds, dtype=None):
    """NumPy's broadcast of operands ``kinds`` (arrays, numbers; None: not known yet): the
    most axes of any, of size one where every operand having it has it so; the widest float
    dtype, int32/int64 arrays' float64 (or ``dtype``).  None without an array.

    >>> broadcast((Array("float64", 2, (1,)), FLOAT))
    Array(dtype='float64', ndim=2, unit_axes=(1,))
    >>> broadcast((Array("float32", 2, (0,)), Array("int64", 1, (0,))))
    Array(dtype='float64', ndim=2, unit_axes=(0,))
    """
    arrays = [k for k in kinds if isinstance(k, Array)]
    if not arrays:
        return None
    ndim = max(a.ndim for a in arrays)
    unit = []
    for axis in range(ndim):  # counted from the front of the result
        present = [a for a in arrays if axis - (ndim - a.ndim) >= 0]
        if all(axis - (ndim - a.ndim) in a.unit_axes for a in present):
            unit.append(axis)
    if dtype is None:
        floats = [a.dtype if a.dtype[:5] == "float" else "float64" for a in arrays  # (int64:
                  if a.dtype[:5] == "float" or a.dtype[-2:] in ("32", "64")]  # float64)
        dtype = max(floats, key=lambda d: int(d[5:])) if floats else "float64"
    return Array(dtype, ndim, tuple(unit))


def broadcast_axes(kind, result):
    """How an operand of type ``kind`` was broadcast to the array type ``result``:
    ``(leading, units)``, the number of axes NumPy put in front of it and the axes (of
    the result) where it has size one and the result may not: what summing its
    adjoint back to its shape adds over.  ``(result.ndim, ())`` for a number."""
    if not isinstance(kind, Array):
        return result.ndim, ()
    leading = result.ndim - kind.ndim
    units = tuple(leading + a for a in kind.unit_axes if leading + a not in result.unit_axes)
    return leading, units


def element(kind, index):
    """The type of ``kind[index]`` for a constant ``index`` (an int or a key), or of any
    element for ``index`` None (an index or a key known when the gradient runs: the type
    every element has); None when the index cannot stand there."""
    if isinstance(kind, List):
        return kind.elem
    if isinstance(kind, Tuple):
        if index is None:  # (an empty tuple's: a float, read only where Python raises)
            elts = set(kind.elts)
            return kind.elts[0] if len(elts) == 1 else FLOAT if not elts else None
        if isinstance(index, int) and -len(kind.elts) <= index < len(kind.elts):
            return kind.elts[index]
        return None
    if isinstance(kind, Dict) and index is None:  # a key known when the gradient runs
        values = {v for _, v in kind.items}
        if values <= {INT, FLOAT} and len(values) == 2:
            return FLOAT
        return kind.items[0][1] if len(values) == 1 else None
    if isinstance(kind, Dict):
        return dict(kind.items).get(index)
    return None


def length(kind):
    """The number of elements of ``kind`` when it is part of the kind, else None."""
    if isinstance(kind, Tuple):
        return len(kind.elts)
    if isinstance(kind, Dict):
        return len(kind.items)
    return kind.length if isinstance(kind, List) else None


def stored(kind, path, value):
    """The type of a container of type ``kind`` once a number of type ``value`` is stored
    at ``path`` (constant indices or keys; None: one known when the code runs, so any
    element): the element there joined with ``value``.

    >>> stored(List(FLOAT, 2), (None,), NUMPY_FLOAT)
    List(elem=Float(numpy=True), length=2)
    """
    if not path:
        return join(kind, value) if is_number(kind) and is_number(value) else kind
    head, rest = path[0], path[1:]
    if isinstance(kind, List):
        return List(stored(kind.elem, rest, value), kind.length)
    if isinstance(kind, Tuple):
        return type(kind)(tuple(stored(e, rest, value) if head is None or head % len(kind.elts) == i
                           else e for i, e in enumerate(kind.elts)))
    if isinstance(kind, Dict):
        return with_items(kind, tuple((k, stored(v, rest, value) if head is None or head == k
                                       else v) for k, v in kind.items))
    return kind


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
