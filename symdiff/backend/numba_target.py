"""The numba target: what ``to_python`` writes differently for code ``numba.njit`` compiles.

Expects an ``ir.sweeps.Function`` with its ``types`` (``analysis.sweep_types``) and the
user's file name (for the errors).  Guarantees ``plan_stacks(function, origin)``: for each
save stack (``NewStack``), one list per kind of value saved on it, since a list numba
compiles holds values of one type (``floats``, ``ints``, ``flags`` for bools,
``numbers`` for a parameter's number that may be an int or a float, ``saved``,
``saved_1``... one for each other type), named apart from every name of the function;
``tuples_written_out(function)``: ``tuple(xs)`` of a list of known length as
``(xs[0], xs[1])``; and ``reversed_range(bounds)``: the arguments of the ``range`` that runs ``range(*bounds)``
backwards (numba compiles no ``reversed``).  Splitting one stack into several keeps every
value where it was: a value is popped into the name it was pushed from (``ad.taping``
saves a name just before it is overwritten), and a name has one type, so a push and its
pop meet on the same list in the same order.  What cannot be split so (a value popped
into a name no push saved, an element of a container saved on its own, a value of no
known type) is refused with an ``UnsupportedSyntaxError`` at the user's line.

    stack = []                             floats = []
    push, pop = stack.append, stack.pop    flags = []
    push(t)                          ─►    floats.append(t)
    push(cond)                             flags.append(cond)
    for i in reversed(range(n)):           for i in range(n - 1, -1, -1):
"""

import importlib
import linecache
import math
import re
import sys
from dataclasses import dataclass, field

from symdiff.backend.numba_arrays import fresh as _fresh
from symdiff.backend.numba_arrays import names_of
from symdiff.backend.numba_capacity import capacities
from symdiff.backend.numba_precision import narrow_names, numbers_cast
from symdiff.backend.numba_spellings import spelled_for_numba
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import sweeps as sw
from symdiff.optimize import walk

_LINE = re.compile(r"line (\d+):")  # a comment tying a block to the user's line


@dataclass
class StackPlan:
    """``lists``: a save stack's push or pop name -> {kind of value: list name};
    ``made``: a stack's name -> its lists, in the order they are first used."""

    lists: dict = field(default_factory=dict)
    made: dict = field(default_factory=dict)
    # a list preallocated as an array -> (its capacity, its dtype or None for floats,
    # the name of the count of values it holds); ``numpy``: the name numpy is read by
    arrays: dict = field(default_factory=dict)
    numpy: str = None
    categories: dict = field(default_factory=dict)  # a list's name -> what it holds

    def list_for(self, stack, kind):
        return self.lists[stack][_category(kind)]


_DTYPES = {"floats": None, "numbers": None, "ints": "int64", "flags": "bool_"}
_BUILTINS = ("len", "max", "range")  # what a capacity calls


def plan_stacks(function, origin=None, namespace=None, numpy=None, narrow=None):
    """The lists each save stack of ``function`` is split into (``StackPlan``), with the
    arrays among them (``namespace``: the module's names, where numpy may be bound;
    ``numpy``: the name it is read by, when the text reads it already; ``narrow``: the
    names holding numbers of a narrow dtype, which an array saving only them is of)."""
    types = function.types or {}
    stacks = [s for s in sw.walk(function.body) if type(s) is sw.NewStack]
    taken = names_of(function)
    plan = StackPlan()
    for stack in stacks:
        plan.lists[stack.push] = plan.lists[stack.pop] = {}
        plan.made[stack.stack] = []
    line = None
    pushed = {}  # a push's name -> the names pushed with it
    dtypes = {}  # a list -> the narrow dtypes of the names it saves (None: a float's)
    for stmt in sw.walk(function.body):
        if type(stmt) is sw.Comment:
            line = user_line(stmt.text, line)
        elif type(stmt) is sw.Push and not stmt.method and stmt.stack in plan.lists:
            if type(stmt.value) is not ex.Name:
                raise refusal("an element of a container saved on its own", origin, line)
            pushed.setdefault(stmt.stack, set()).add(stmt.value.id)
            _add_list(plan, stacks, stmt.stack, types.get(stmt.value.id), taken, origin, line)
            saved = plan.list_for(stmt.stack, types.get(stmt.value.id))
            dtypes.setdefault(saved, set()).add((narrow or {}).get(stmt.value.id))
        else:
            _check_other(stmt, plan, origin, line)
    _check_pops(function.body, stacks, pushed, origin)
    _preallocate(plan, function, types, taken, namespace or {}, numpy, dtypes)
    return plan


def written_for_numba(function, builtins, namespace, adjoints=None, math_name="math",
                      scalars=None):
    """``(function, numpy, narrow)``: ``function`` (a copy) with its tuples of lists
    written out, the expressions numba lacks spelled as it compiles them
    (``numba_spellings``) and NumPy's weak Python numbers given the dtype they compute in
    (``numba_precision``; a parameter of ``scalars`` in its NumPy dtype); ``numpy``: the
    name the copy reads numpy by, or None when it does not; ``narrow``: the names of the
    copy holding numbers of a narrow dtype, and that dtype (``plan_stacks`` takes it)."""
    numpy = numpy_name(function, namespace)
    written = tuples_written_out(function, builtins, adjoints)
    written, reads_numpy = spelled_for_numba(
        written, {b: alias for alias, b in builtins.items()}, namespace, numpy, math_name)
    maths = {math_name} | {n for n, v in namespace.items() if v is math}
    written, casts = numbers_cast(written, numpy, maths, scalars)
    narrow = narrow_names(written, numpy, maths, scalars)
    return written, numpy if reads_numpy or casts else None, narrow


def numpy_name(function, namespace):
    """The name numpy is read by in the module (``np``, or a fresh one when the user's
    code takes it for something else)."""
    numpy = sys.modules.get("numpy") or importlib.import_module("numpy")
    bound = next((n for n, v in namespace.items() if v is numpy), None)
    return bound or _fresh("np", names_of(function) | set(namespace))


def _preallocate(plan, function, types, taken, namespace, numpy_bound=None, narrow=None):
    """The lists of numbers whose pushes can be counted become arrays of that capacity
    (``numba_capacity``), each with the count of the values it holds; a list of floats
    (or numbers) of one narrow dtype (``narrow``: a list -> the dtypes of what it saves)
    of that."""
    own = set(function.params) | {n for s in sw.walk(function.body) for n in sw.binds(s)}
    if any(n in namespace or n in own for n in _BUILTINS):
        return  # a capacity calls them: the user's names would shadow them

    def list_of(push):
        lists = plan.lists.get(push.stack) if not push.method else None
        name = lists and lists.get(_category(types.get(push.value.id)))
        return name if plan.categories.get(name) in _DTYPES else None

    found = capacities(function, list_of)
    if not found:
        return
    numpy = sys.modules.get("numpy") or importlib.import_module("numpy")
    plan.numpy = numpy_bound or next((n for n, v in namespace.items() if v is numpy), None)
    if plan.numpy is None:
        plan.numpy = _fresh("np", taken | set(namespace))
    taken.add(plan.numpy)
    for name, capacity in found.items():
        top = _fresh(f"{name}_top", taken)
        taken.add(top)
        dtype = _DTYPES[plan.categories[name]]
        saved = (narrow or {}).get(name, {None})
        if plan.categories[name] in ("floats", "numbers") and len(saved) == 1 and (
                None not in saved):
            dtype = next(iter(saved))  # (a float32 saved as it is, never widened)
        plan.arrays[name] = (capacity, dtype, top)


def tuples_written_out(function, builtins=None, adjoints=None):
    """``function`` (a copy) with each ``tuple(xs)`` of a list of known length written as
    ``(xs[0], xs[1], ...)``: numba builds no tuple from a list.  The length is read from
    the type of ``xs``: a name's (an adjoint's is its primal's, ``adjoints`` naming
    them), an element's of a container (``tuple(dm[0])``), or a comprehension's
    variable's (``[tuple(item) for item in dxs]``)."""
    names = {"tuple"} | {alias for alias, b in (builtins or {}).items() if b == "tuple"}
    types = dict(function.types or {})
    for primal, adjoint in (adjoints or {}).items():
        if types.get(adjoint) is None and primal in types:
            types[adjoint] = types[primal]

    def written_out(node, scope=types):
        if type(node) is ex.ListComp:
            inner = dict(scope)
            inner[node.target] = _element_kind(kind_of(node.iter, scope), None)
            return ex.ListComp(walk.transform(node.elt, lambda e: written_out(e, inner)),
                               node.target, node.iter)
        if type(node) is not ex.Call or node.func not in [ex.Name(n) for n in names] or (
                len(node.args) != 1 or node.keywords):
            return node
        length = _length(kind_of(node.args[0], scope))
        if length is None:
            return node
        return ex.Tuple(tuple(ex.Subscript(node.args[0], ex.Const(i)) for i in range(length)))

    copy = walk.clone_function(function)
    walk.rewrite_all(copy.body, lambda e: walk.transform(e, written_out))
    return copy


def kind_of(node, types):
    """The type of a name, or of an element of one read at a constant index, or None."""
    if type(node) is ex.Name:
        return types.get(node.id)
    if type(node) is ex.Subscript and type(node.index) is ex.Const:
        return _element_kind(kind_of(node.value, types), node.index.value)
    return None


def _length(kind):
    if isinstance(kind, t.List):
        return kind.length
    return len(kind.elts) if isinstance(kind, t.Tuple) else None


def _element_kind(kind, index):
    if isinstance(kind, t.List):
        return kind.elem
    if isinstance(kind, t.Tuple) and type(index) is int and -len(kind.elts) <= index < len(
            kind.elts):
        return kind.elts[index]
    return None


def _check_other(stmt, plan, origin, line):
    """A save stack's push or pop called anywhere but in a ``Push`` or ``Pop`` of its own."""
    for expr in sw.evaluated(stmt):
        if any(type(n) is ex.Name and n.id in plan.lists for n in ex.walk(expr)):
            raise refusal("a value taken off the save stack inside an expression", origin,
                          line)


def _check_pops(body, stacks, pushed, origin):
    """Each pop takes a value into a name that was pushed on the same stack (the list
    it pops from is then its name's, found by its type)."""
    pops = {s.pop: s.push for s in stacks}
    line = None
    for stmt in sw.walk(body):
        if type(stmt) is sw.Comment:
            line = user_line(stmt.text, line)
        elif type(stmt) is sw.Pop and not stmt.method and stmt.stack in pops:
            push = pops[stmt.stack]
            if stmt.target is None or stmt.target not in pushed.get(push, ()):
                raise refusal("a saved value restored into another name", origin, line)


def _add_list(plan, stacks, push, kind, taken, origin, line):
    if kind is None:
        raise refusal("a value of a type symdiff does not know saved for the reverse sweep",
                      origin, line)
    lists = plan.lists[push]
    category = _category(kind)
    if category in lists:
        return
    stack = next(s.stack for s in stacks if s.push == push)
    base = category if isinstance(category, str) else "saved"
    name = _fresh(base, taken)
    taken.add(name)
    lists[category] = name
    plan.categories[name] = category
    plan.made[stack].append(name)


def _category(kind):
    """The list a value of type ``kind`` is saved on: numbers by their kind, any other
    type on a list of its own."""
    if kind == t.BOOL:
        return "flags"
    if isinstance(kind, t.Int):
        return "ints"
    if isinstance(kind, t.Float):
        return "floats"
    if isinstance(kind, t.Number):
        return "numbers"
    return kind


def reversed_range(bounds):
    """The arguments of the ``range`` running ``range(*bounds)`` from its last value to its
    first: ``(n,)`` -> ``(n - 1, -1, -1)``, ``(a, b)`` -> ``(b - 1, a - 1, -1)``, and with a
    step ``s`` other than 1, ``(a + (len(range(a, b, s)) - 1) * s, a - s, -s)``."""
    minus_one = ex.UnaryOp("-", ex.Const(1))
    if len(bounds) == 1:
        return (_minus_one(bounds[0]), minus_one, minus_one)
    start, stop = bounds[0], bounds[1]
    step = bounds[2] if len(bounds) == 3 else ex.Const(1)
    if _is_int(step, 1):
        return (_minus_one(stop), _minus_one(start), minus_one)
    count = ex.Call(ex.Name("len"), (ex.Call(ex.Name("range"), tuple(bounds)),))
    last = ex.BinOp("+", start, ex.BinOp("*", ex.BinOp("-", count, ex.Const(1)), step))
    return (last, ex.BinOp("-", start, step), sw.negated(step))


def _minus_one(bound):
    if type(bound) is ex.Const and type(bound.value) is int and bound.text is None:
        value = bound.value - 1
        return ex.Const(value) if value >= 0 else ex.UnaryOp("-", ex.Const(-value))
    return ex.BinOp("-", bound, ex.Const(1))


def _is_int(bound, value):
    return type(bound) is ex.Const and type(bound.value) is int and bound.value == value


def user_line(text, before):
    """The user's line a comment ``line K: ...`` names, or ``before`` for another one."""
    found = _LINE.match(text)
    return int(found.group(1)) if found else before


def refusal(what, origin, line, hint=None):
    """The ``UnsupportedSyntaxError`` saying numba's target cannot take ``what`` (at the
    user's ``line`` of ``origin``, when known)."""
    return located_error(f"{what} is not compiled with jit='numba'", origin, line,
                         hint or "use the gradient without jit (its Python text runs "
                         "anywhere)")


def located_error(message, origin, line, hint):
    """An ``UnsupportedSyntaxError`` at ``line`` of the user's file ``origin`` (unlocated
    when the line is not known), the caret at the line's first character."""
    source = linecache.getline(origin, line) if origin and line else ""
    col = len(source) - len(source.lstrip()) if source else None
    return UnsupportedSyntaxError(message, filename=origin if line else None, lineno=line,
                                  col_offset=col, source_line=source or None, hint=hint)


__all__ = ["StackPlan", "located_error", "numpy_name", "plan_stacks", "refusal",
           "reversed_range", "tuples_written_out", "user_line", "written_for_numba"]
