"""Spellings: the expressions the generated text writes that numba does not compile, each
written as one that numba compiles and that gives the same value, bit for bit.

Expects an ``ir.sweeps.Function`` with its ``types``, the names the generated code calls
the builtins by (``builtins``: builtin -> alias, where the user's code shadows one), the
module's namespace and the names numpy and math are read by.  Guarantees ``spelled_for_numba(...)``:
a copy of the function in which each expression of ``SPELLINGS`` is written again (one
function per construct, from the expression alone), and an empty list whose element
type is known written as a list of that type (``[0.0] * 0``: numba types no ``[]``
that nothing is appended to before it is read), and a range bound to a name (to be
read by index, which numba's ranges are not) an ``np.arange``, with the set of modules the new text
reads (``"numpy"`` when a spelling calls it).  The values are the same as Python's:
positions are integers whichever way they are computed, a stable sort of positions is a
stable ``argsort``, ``math.log(x, b)`` is ``log(x) / log(b)`` in CPython too,
``fmod`` is exact, and ``math.prod`` multiplies in order from 1 as ``np.prod`` does
(but for an empty list: 1.0 where Python gives the int 1).  ``tables_as_tuples(namespace)``: each list of numbers the text reads
from the module, as the tuple numba takes as a constant (symdiff rebuilds the gradient
when a table it read changes, so the constant never goes stale).

    range(len(xs))[1:]                           np.arange(len(xs))[1:]
    sorted(range(len(xs)), key=xs.__getitem__)   np.argsort(np.array(xs), kind='mergesort')
    max(range(len(xs)), key=xs.__getitem__)  ─►  xs.index(max(xs))
    math.log(x, b)                               math.log(x) / math.log(b)
    math.prod(xs)                                np.prod(np.array(xs))
    terms = []                                   terms = [0.0] * 0
    positions = range(len(xs))                   positions = np.arange(len(xs))
"""

import math

from symdiff.backend.numba_arrays import ARRAY_SPELLINGS, names_of
from symdiff.backend.numba_statements import pads_filled, scattered_adds
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize import walk


class _Spelling:
    """What one spelling reads: the names of the builtins, math and numpy in the text."""

    def __init__(self, builtins, namespace, numpy, math_name="math", types=None):
        self.builtins = {builtins.get(b, b): b for b in ("range", "len", "sorted", "max",
                                                         "min")}
        self.types = types or {}  # the function's: the ndim of an array a name holds
        self.math = {math_name} | {n for n, v in namespace.items() if v is math}
        self.numpy, self.uses_numpy = numpy, False

    def builtin(self, node):
        """The builtin ``node`` names (``"range"``...), or None."""
        return self.builtins.get(node.id) if type(node) is ex.Name else None

    def builtin_name(self, builtin):
        """The name the text calls ``builtin`` by."""
        return next(alias for alias, b in self.builtins.items() if b == builtin)

    def math_function(self, node):
        """The function of ``math`` that ``node`` names (``"log"``...), or None."""
        if type(node) is ex.Attribute and type(node.value) is ex.Name and (
                node.value.id in self.math):
            return node.attr
        return None

    def np(self, attr, *args, keywords=()):
        self.uses_numpy = True
        return ex.Call(ex.Attribute(ex.Name(self.numpy), attr), args, keywords)


def _positions_of(node, names):
    """``xs`` where ``node`` is ``range(len(xs))`` (the positions of ``xs``), else None."""
    if type(node) is ex.Call and names.builtin(node.func) == "range" and len(
            node.args) == 1 and not node.keywords:
        length = node.args[0]
        if type(length) is ex.Call and names.builtin(length.func) == "len" and len(
                length.args) == 1 and not length.keywords:
            return length.args[0]
    return None


def _by_value(node, names):
    """``(builtin, xs, keywords left)`` where ``node`` is ``builtin(range(len(xs)),
    key=xs.__getitem__, ...)``: the positions of ``xs`` ordered or chosen by value."""
    if type(node) is not ex.Call or len(node.args) != 1:
        return None
    keywords = dict(node.keywords)
    source = _positions_of(node.args[0], names)
    if source is None or keywords.pop("key", None) != ex.Attribute(source, "__getitem__"):
        return None
    return names.builtin(node.func), source, keywords


def sliced_range(node, names):
    """``range(...)[a:b]`` -> ``np.arange(...)[a:b]``: numba slices no range."""
    if type(node) is ex.Subscript and type(node.index) is ex.Slice and type(
            node.value) is ex.Call and names.builtin(node.value.func) == "range":
        return ex.Subscript(names.np("arange", *node.value.args), node.index)
    return None


def sorted_positions(node, names):
    """The positions of ``xs`` in the order ``sorted`` puts its values (ties in place,
    as Python's sort is stable): a stable ``argsort`` (of the negated values for
    ``reverse=True``, which keeps ties in place too)."""
    found = _by_value(node, names)
    if found is None or found[0] != "sorted" or set(found[2]) - {"reverse"}:
        return None
    values = names.np("array", found[1])
    descending = found[2].get("reverse")
    if descending is not None and not (type(descending) is ex.Const and
                                       type(descending.value) is bool):
        return None
    if descending is not None and descending.value:
        values = ex.UnaryOp("-", values)
    return names.np("argsort", values, keywords=(("kind", ex.Const("mergesort")),))


def chosen_position(node, names):
    """``max(range(len(xs)), key=xs.__getitem__)`` -> ``xs.index(max(xs))``: the first
    position of the largest value either way (and of the smallest for ``min``)."""
    found = _by_value(node, names)
    if found is None or found[0] not in ("max", "min") or found[2]:
        return None
    chosen = ex.Call(node.func, (found[1],))
    return ex.Call(ex.Attribute(found[1], "index"), (chosen,))


def log_to_a_base(node, names):
    """``math.log(x, b)`` -> ``math.log(x) / math.log(b)``, as CPython computes it."""
    if type(node) is ex.Call and names.math_function(node.func) == "log" and len(
            node.args) == 2 and not node.keywords:
        return ex.BinOp("/", ex.Call(node.func, node.args[:1]),
                        ex.Call(node.func, node.args[1:]))
    return None


def remainder_of_division(node, names):
    """``math.fmod(x, y)`` -> ``np.fmod(x, y)``: both exact, so the same number."""
    if type(node) is ex.Call and names.math_function(node.func) == "fmod" and len(
            node.args) == 2 and not node.keywords:
        return names.np("fmod", *node.args)
    return None


def product(node, names):
    """``math.prod(xs)`` -> ``np.prod(np.array(xs))``: both multiply in order from 1
    (numba's ``np.prod`` is a loop; without ``fastmath`` nothing is reassociated)."""
    if type(node) is ex.Call and names.math_function(node.func) == "prod" and len(
            node.args) == 1 and not node.keywords:
        return names.np("prod", names.np("array", node.args[0]))
    return None


SPELLINGS = (sliced_range, sorted_positions, chosen_position, log_to_a_base,
             remainder_of_division, product) + ARRAY_SPELLINGS


def spelled_for_numba(function, builtins, namespace, numpy, math_name="math"):
    """``(function copied with SPELLINGS applied, whether the copy reads numpy)``
    (``math_name``: the name the generated text reads ``math`` by)."""
    names = _Spelling(builtins, namespace, numpy, math_name, function.types)

    def spelled(node):
        for spelling in SPELLINGS:
            written = spelling(node, names)
            if written is not None:
                return written
        return node

    copy = walk.clone_function(function)
    walk.rewrite_all(copy.body, lambda e: walk.transform(e, spelled))
    taken = names_of(copy) | set(namespace)
    scattered_adds(copy, names, taken)
    pads_filled(copy, names, taken)
    types = copy.types or {}
    for stmt in sw.walk(copy.body):
        if type(stmt) is sw.Let and type(stmt.target) is str and stmt.value == ex.List(()):
            stmt.value = empty_list(types.get(stmt.target), stmt.value)
        elif type(stmt) is sw.Let and type(stmt.value) is ex.Call and names.builtin(
                stmt.value.func) == "range":  # positions kept to be read by index
            stmt.value = names.np("arange", *stmt.value.args)
    return copy, names.uses_numpy


def empty_list(kind, given):
    """An empty list of ``kind``'s elements, written with one of them (``[0.0] * 0``),
    or ``given`` when the element type is not one numba types from a constant."""
    element = _zero(kind.elem) if isinstance(kind, t.List) else None
    if element is None:
        return given
    return ex.BinOp("*", ex.List((element,)), ex.Const(0))


def _zero(kind):
    if kind == t.BOOL:
        return ex.Const(False)
    if isinstance(kind, t.Int):
        return ex.Const(0)
    if isinstance(kind, (t.Float, t.Number)):  # (a list holding floats and ints: floats)
        return ex.Const(0.0)
    if isinstance(kind, t.List):
        inner = _zero(kind.elem)
        return None if inner is None else ex.BinOp("*", ex.List((inner,)), ex.Const(0))
    return None


def tables_as_tuples(namespace):
    """``namespace`` with each list (of lists) of numbers a tuple (of tuples)."""
    return {name: _as_tuple(value) if _numbers_table(value) else value
            for name, value in namespace.items()}


def _numbers_table(value):
    if type(value) is list:
        return all(_numbers_table(v) for v in value)
    return type(value) in (float, int)


def _as_tuple(value):
    return tuple(_as_tuple(v) for v in value) if type(value) is list else value


__all__ = ["SPELLINGS", "empty_list", "spelled_for_numba", "tables_as_tuples"]
