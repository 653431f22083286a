"""Held types: the type of a container the function writes out, from what it holds.

Lowering types a container written out (``ys = [a, b]``, ``{"w": w1, "b": b1}``) by its
syntax: the shape of its literal, and a number (``Float``) for every operand it holds,
since lowering does not know what an operand holds.  Type inference knows: once an
operand is an array, the element holding it is that array's type.  This module gives
the type of a ``Build`` from the types of its items, so the one inference decides what
a container's elements are, arrays included:

    xs = [a, b, a * b]          (a, b: array[float64, 1, ()])   -> list[array[float64, 1, ()]]
    d = {"w": W, "b": 0.5}      (W: array[float64, 2, ()])      -> dict['w': array.., 'b': float]
    pair = (np.sin(x), 2.0)                                     -> tuple[array.., float]

Expects the ``Build``, lowering's type of it and a function giving an operand's type
(None: not known yet).  Guarantees ``held_type`` returns None where no item is an array
(the numbers' types are the inference's own business, as before), and otherwise the
type with every array item's element its array type; ``unlike_items`` names a list
whose elements are not one kind (an array beside a number, arrays of unlike numbers of
axes or float-ness): a list has one element type, so it is refused where it is built,
unless it is only ever read and written at constant positions (``read_by_constants``,
the gradient of a list argument of unlike arrays read again): then it is a ``Row``,
typed element by element.
"""

from symdiff.core import types as t
from symdiff.core.records import Row
from symdiff.ir import nodes as ir
from symdiff.primitives.reductions import SIDED
from symdiff.primitives.stacked import joined_type, normalized_axis, sided_join


def held_type(stmt, kind, operand_type, held=None):
    """The type of the container ``stmt`` builds, with its array items' types (joined
    with ``held``, what its name held so far, where that holds arrays); None when none
    of its items is an array."""
    if stmt.repeat is not None:
        found = _repeated(stmt, kind, operand_type)
    else:
        found = _literal_type(ir.Literal(stmt.kind, stmt.items, stmt.keys), kind,
                              operand_type)
    if found is None or not holds_arrays(found):
        return None
    return t.join(held, found) if holds_arrays(held) else found


def _repeated(stmt, kind, operand_type):
    """``[a] * n``: a list of ``n`` of the one item's type."""
    item = operand_type(stmt.items[0]) if len(stmt.items) == 1 else None
    if isinstance(item, t.Array) and isinstance(kind, t.List):
        return t.List(item, kind.length)
    return None


def _literal_type(literal, kind, operand_type):
    """The type of ``literal`` (lowering's ``kind``), items' arrays put in; None where an
    item's type is not known yet."""
    types = []
    for position, item in enumerate(literal.items):
        inner = _element_kind(literal, kind, position)
        if isinstance(item, ir.Literal):
            found = _literal_type(item, inner, operand_type)
        else:
            found = operand_type(item)
            if t.is_number(found) and t.is_number(inner):
                found = t.join(inner, found)  # (a NumPy scalar held is one)
            elif not isinstance(found, t.Array):
                found = inner  # a container held by name: lowering's type
        if found is None:
            return None
        types.append(found)
    if literal.kind == "tuple":
        return t.Tuple(tuple(types))
    if literal.kind == "dict":
        return t.with_items(kind, tuple(zip(literal.keys, types)))
    elem = _one_element(types)
    return t.List(kind.elem if elem is None else elem, kind.length)


def _element_kind(literal, kind, position):
    if literal.kind == "dict":
        return t.element(kind, literal.keys[position])
    return t.element(kind, position if literal.kind == "tuple" else None)


def _one_element(types):
    """The one type of a list's elements (``types.element_join``: arrays of one type
    exactly, as the argument kinds have them); None when they are not all alike."""
    elem = types[0] if types else None
    for other in types[1:]:
        elem = t.element_join(elem, other)
        if elem is None:
            return None
    return elem


def unlike_items(stmt, operand_type):
    """The types of the items of the list ``stmt`` writes out (at its top level) when an
    array is among them and they do not join as one element type; else None."""
    if stmt.kind != "list" or stmt.repeat is not None:
        return None
    types = [operand_type(i) if not isinstance(i, ir.Literal) else None for i in stmt.items]
    if not any(isinstance(k, t.Array) for k in types) or None in types:
        return None
    return None if _one_element(types) is not None else types


def read_by_constants(program, name):
    """Whether every statement on the list ``name`` reads or writes it at constant
    positions (``xs[0]``, ``xs[1] = v``, ``tuple(xs)``): a list of unlike elements is
    then typed element by element, a ``Row``, as a list argument of unlike arrays is."""
    for stmt in ir.walk(program.body):
        if isinstance(stmt, (ir.Push, ir.Pop)) and stmt.stack == name or isinstance(
                stmt, ir.Join) and any(getattr(p, "container", None) == name
                                       for p in stmt.parts):
            return False
        if getattr(stmt, "container", None) != name:
            continue
        if isinstance(stmt, ir.Take) and (stmt.copy not in ("list", "tuple") or any(
                b is not None for b in stmt.bounds)) or isinstance(stmt, ir.Reduce) or (
                not all(isinstance(i, ir.Const) for i in stmt.path)):
            return False
    return not any(isinstance(stmt, ir.For) and stmt.over is not None and
                   stmt.over.container == name for stmt in ir.walk(program.body))


def unlike_row(program, stmt, operand_type, held=None):
    """The ``Row`` of a list ``stmt`` writes out of unlike arrays (and numbers), each
    element its item's type joined with ``held``'s (the row its name holds so far, with
    what is stored in it: ``dblocks[0] += g`` of a slice whose unit axis is not known);
    None where it is not read by constants only, or an item is not known yet or is a
    container."""
    types = [operand_type(i) if not isinstance(i, ir.Literal) else None for i in stmt.items]
    if any(not (isinstance(k, t.Array) or t.is_number(k)) for k in types) or (
            not read_by_constants(program, stmt.target)):
        return None
    row = Row(tuple(types))
    return t.join(held, row) if isinstance(held, Row) and len(held.elts) == len(types) else row


def appended_containers(kinds):
    """The one element type of a list the containers of types ``kinds`` (holding arrays)
    are appended to, where they are all known and alike (``types.element_join``; rows of
    unlike arrays stay rows): ``acc.append([np.zeros_like(W), np.zeros_like(b)])`` in a
    loop over layers makes ``acc`` a ``list[list[array[2], array[1]]]``; None otherwise.

    >>> row = Row((t.Array("float64", 2), t.Array("float64", 1)))
    >>> appended_containers([row, row]) == row
    True
    >>> appended_containers([row, t.Array("float64", 1)]) is None
    True
    """
    elem = kinds[0] if kinds else None
    for other in kinds[1:]:
        joined = t.element_join(elem, other) if t.is_container(other) else None
        if joined is None:
            return None
        elem = Row(joined.elts) if isinstance(elem, Row) and type(joined) is t.Tuple else joined
    return elem if t.is_container(elem) and holds_arrays(elem) else None


def copied_row(stmt, types):
    """The type of a whole copy of a ``Row`` (``tuple(xs)``: a tuple of its elements,
    ``list(xs)`` or ``ys = xs``: the row); None for any other copy."""
    source = types.get(getattr(stmt, "container", None))
    if not isinstance(source, Row) or stmt.path or isinstance(stmt, ir.Take) and (
            stmt.copy not in ("list", "tuple") or any(b is not None for b in stmt.bounds)):
        return None
    return t.Tuple(source.elts) if getattr(stmt, "copy", None) == "tuple" else source


def broadcast_join(a, b):
    """``join``, but a number and an array join as the array (the number broadcast)."""
    if isinstance(a, t.Array) and t.is_number(b):
        return a
    if isinstance(b, t.Array) and t.is_number(a):
        return b
    return t.join(a, b)


def holds_arrays(kind):
    if isinstance(kind, t.Array):
        return True
    if isinstance(kind, t.List):
        return holds_arrays(kind.elem)
    if isinstance(kind, t.Tuple):
        return any(holds_arrays(e) for e in kind.elts)
    if isinstance(kind, t.Dict):
        return any(holds_arrays(v) for _, v in kind.items)
    return False


def summed_arrays(stmt, elem, operand_type):
    """The type of a reduction ``stmt`` of a list of arrays of type ``elem``: ``sum``
    (from its start, 0 or a number or an array, broadcast against them) and ``prod``
    are arrays of the elements' broadcast type; None for the others (``min`` and ``max``
    of arrays raise in Python, ``math.fsum`` takes numbers only)."""
    if stmt.axis is not None:  # None where the elements are not arrays
        return joined_type(stmt.op, t.List(elem, None), stmt.axis)
    if stmt.op not in ("sum", "prod"):
        return None
    start = t.INT if stmt.start is None else operand_type(stmt.start)
    return t.broadcast((elem, start))


def held_arrays(kind, inferred):
    """A container's type for ``Program.containers``: the inferred one where it holds
    arrays (lowering wrote numbers there), else lowering's ``kind`` as it was."""
    return inferred if holds_arrays(inferred) and not holds_arrays(kind) else kind


def stored_array(kind, path, value):
    """The type of a container of type ``kind`` once the array of type ``value`` is
    stored at ``path`` (``types.stored``'s, for an array: constant indices or keys, None
    for one known when the code runs, so every element): the element there becomes the
    array where lowering wrote a number (a dict a loop fills, ``[0.0] * n`` given rows),
    joins it where it is an array of its number of axes, and stays as it is otherwise
    (``check_program`` reports what does not fit).

    >>> stored_array(t.Dict((("w", t.FLOAT), ("b", t.FLOAT))), (None,), t.Array("float64", 1))
    Dict(items=(('w', Array(dtype='float64', ndim=1, unit_axes=())), ('b', Array(dtype='float64', ndim=1, unit_axes=()))))
    """
    if not path:
        if t.is_number(kind):
            return value
        alike = isinstance(kind, t.Array) and kind.ndim == value.ndim and (
            kind.dtype.startswith("float") == value.dtype.startswith("float"))
        return t.join(kind, value) if alike else kind
    head, rest = path[0], path[1:]
    if isinstance(kind, t.List):
        return t.List(stored_array(kind.elem, rest, value), kind.length)
    if isinstance(kind, t.Tuple):
        return type(kind)(tuple(stored_array(e, rest, value) if head is None or (  # a Row too
            head % len(kind.elts) == i) else e for i, e in enumerate(kind.elts)))
    if isinstance(kind, t.Dict):
        return t.with_items(kind, tuple((k, stored_array(v, rest, value) if head is None or (
            head == k) else v) for k, v in kind.items))
    return kind


def normalize_join_axes(program):
    """Each join of a list of arrays (``np.stack(xs, axis=-1)``) given its axis counted
    from the front of its result, now that its arrays' number of axes is known (its
    record's builders index by it); ``np.vstack(xs)`` and the other ``SIDED`` joins
    become the ``stack`` or ``concatenate`` they are of such arrays."""
    for stmt in ir.walk(program.body):
        if isinstance(stmt, ir.Reduce) and stmt.axis is not None:
            kind = program.types.get(stmt.container)
            for index in stmt.path:
                kind = t.element(kind, index.value if isinstance(index, ir.Const) else None)
            elem = t.element(kind, None)
            joined = sided_join(stmt.op, elem) if stmt.op in SIDED else None
            if joined is not None:
                stmt.op, stmt.axis = joined
            elif isinstance(elem, t.Array) and stmt.axis < 0:
                stmt.axis = normalized_axis(stmt.op, elem.ndim, stmt.axis)
