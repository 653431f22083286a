"""Facts the optimizer's passes rely on, read from the IR and the primitive registry.

Expects IR expressions (``core.expr``) and the sweeps' statements (``ir.sweeps``).
Guarantees answers that are certain, never guesses that happen to hold:

- ``cannot_raise(e)``: nothing in ``e`` raises on floats: names, numbers, + - * of them,
  division by a nonzero number, comparisons, and the calls the registry calls ``total``;
- ``is_float(e, floats)``: ``e`` evaluates to a float whenever the names ``floats`` do;
- ``float_names``, ``int_names``: the names every assignment of which gives a float (an
  int), the largest such set; a popped value is what its ``Push`` saved;
- ``known_number(e)``: the number a constant stands for, else None.

``math_name`` is the name the generated module calls ``math`` by.
"""

import math

from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw
from symdiff.optimize.walk import MEMOS, every_statement, remembered
from symdiff.primitives.registry import float_math, names, rule_of, total, total_math

_QUIET_COMPARISONS = frozenset(("<", "<=", ">", ">=", "==", "!="))
_DISPLAYS = (ex.List, ex.Tuple)


def dotted(const):
    """The parts of a constant written as a dotted name (``math.pi``), else None."""
    return None if const.text is None else const.text.split(".")


_QUIET = {}  # math_name -> the ``remembered`` table of ``cannot_raise``


def cannot_raise(expr, math_name=None):
    """Whether evaluating ``expr`` certainly raises nothing on floats (each operator is
    judged where it stands, with its operands)."""
    table = _QUIET.get(math_name)
    if table is None:
        table = _QUIET[math_name] = {}
        MEMOS.append(table)
    return remembered(table, expr, lambda e: _cannot_raise(e, math_name))


def _cannot_raise(expr, math_name):
    stack = [expr]
    pop, push = stack.pop, stack.append
    while stack:
        sub = pop()
        kind = type(sub)
        if kind is ex.Name:
            continue
        if kind is ex.Const:
            parts = dotted(sub)
            if parts is not None and len(parts) > 1 and not (
                    len(parts) == 2 and parts[0] == math_name and total_math(parts[1])):
                return False
        elif kind is ex.BinOp:
            if not (sub.op in ("+", "-", "*") or sub.op == "/" and _nonzero(sub.right)):
                return False  # x / 4.0 raises nothing
            if type(sub.left) in _DISPLAYS or type(sub.right) in _DISPLAYS:
                return False  # ``[a] * n``, ``[a] + b``: raise unless n is an int, b a list
            push(sub.right)
            push(sub.left)
        elif kind in _DISPLAYS:  # a list or tuple written out raises nothing itself
            stack.extend(reversed(sub.elts))
        elif kind is ex.Call:
            if not _is_total(sub, math_name):
                return False
            stack.extend(reversed(sub.args))
            push(sub.func)
        elif kind is ex.Attribute:
            if not (type(sub.value) is ex.Name and sub.value.id == math_name
                    and total_math(sub.attr)):
                return False
        elif kind is ex.UnaryOp:
            if sub.op not in ("-", "+", "not"):
                return False
            push(sub.operand)
        elif kind is ex.Compare:
            if not all(op in _QUIET_COMPARISONS for op in sub.ops):
                return False
            stack.extend(reversed(sub.comparators))
            push(sub.left)
        elif kind is ex.BoolOp:
            stack.extend(reversed(sub.values))
        elif kind is ex.IfExp:
            push(sub.orelse)
            push(sub.body)
            push(sub.test)
        else:
            return False
    return True


def _nonzero(expr):
    """A number literal other than zero (and finite: ``x / inf`` is fine too, but rare)."""
    if type(expr) is ex.UnaryOp and expr.op in ("-", "+"):
        expr = expr.operand
    return (type(expr) is ex.Const and expr.text is None and type(expr.value) in (int, float)
            and expr.value != 0 and math.isfinite(expr.value))


def _is_total(call, math_name):
    """``abs(a)`` or ``math.tanh(a)``-like: a call defined on every float argument."""
    func = call.func
    if call.keywords:
        return False
    if type(func) is ex.Name:
        op = names("builtin").get(func.id)
        return op is not None and total(op) and len(call.args) == rule_of(op).arity
    return (type(func) is ex.Attribute and type(func.value) is ex.Name
            and func.value.id == math_name and total_math(func.attr))


def known_number(expr):
    """The number (a bool too) a constant or a negated constant stands for, else None."""
    if type(expr) is ex.Const and expr.text is None and isinstance(expr.value, (int, float)):
        return expr.value
    if (type(expr) is ex.UnaryOp and expr.op == "-" and type(expr.operand) is ex.Const
            and expr.operand.text is None
            and isinstance(expr.operand.value, (int, float))
            and not isinstance(expr.operand.value, bool)):
        return -expr.operand.value
    return None


def is_float(expr, math_name, floats):
    """Whether ``expr`` certainly evaluates to a float (so ``1.0 * expr`` is ``expr``)."""
    kind = type(expr)
    if kind is ex.Const:
        parts = dotted(expr)
        if parts is not None:  # math.pi, math.inf, ...
            return len(parts) == 2 and parts[0] == math_name
        return isinstance(expr.value, float)
    if kind is ex.Name:
        return expr.id in floats
    if kind is ex.Attribute:
        return type(expr.value) is ex.Name and expr.value.id == math_name
    if kind is ex.Call:
        func = expr.func
        if type(func) is ex.Name:  # a helper generated code defines (``digamma``)
            return func.id in floats
        return (type(func) is ex.Attribute and type(func.value) is ex.Name
                and func.value.id == math_name and float_math(func.attr))
    if kind is ex.UnaryOp:  # not ``not``: that gives a bool
        return expr.op in ("-", "+") and is_float(expr.operand, math_name, floats)
    if kind is ex.BinOp:
        return expr.op == "/" or is_float(expr.left, math_name, floats) or (
            is_float(expr.right, math_name, floats))
    if kind is ex.IfExp:
        return is_float(expr.body, math_name, floats) and is_float(expr.orelse, math_name,
                                                                   floats)
    return False


def is_int(expr, ints):
    """Whether ``expr`` certainly evaluates to an int when the names ``ints`` do."""
    kind = type(expr)
    if kind is ex.Const:
        return expr.text is None and type(expr.value) is int
    if kind is ex.Name:
        return expr.id in ints
    if kind is ex.Call:
        return type(expr.func) is ex.Name and expr.func.id in ("int", "len")
    if kind is ex.UnaryOp:
        return expr.op in ("-", "+") and is_int(expr.operand, ints)
    if kind is ex.BinOp:
        return expr.op in ("+", "-", "*", "//", "%") and (
            is_int(expr.left, ints) and is_int(expr.right, ints))
    return False


POPPED = object()  # the value of ``t = pop()`` from a save stack: what ``push`` saved


def assigned_values(function):
    """Each name's assigned values (``d += e`` counts as ``d + e``, a loop variable as
    ``0``, a dict's key as ``""``, a value popped from a save stack as ``POPPED``); None
    for a name bound some other way (a parameter, a stack, a container written element
    by element)."""
    values = {param: None for param in function.params}

    def add(name, value):
        if values.get(name, []) is not None:
            values[name] = values.get(name, []) + [value]

    for stmt in every_statement(function):
        kind = type(stmt)
        if kind is sw.Let or kind is sw.AddTo:
            target = stmt.target
            if sw.is_place(target):
                values[sw.target_name(target)] = None
            elif kind is sw.Let:
                add(target, stmt.value)
            else:
                add(target, ex.BinOp("-" if stmt.negate else "+", ex.Name(target), stmt.value))
        elif kind is sw.For:  # a count, or a dict's key (a string)
            add(stmt.target, ex.Const(0) if stmt.over is None else ex.Const(""))
        elif kind is sw.NewStack:
            add(stmt.stack, ex.List(()))
            values[stmt.push] = values[stmt.pop] = None
        elif kind is sw.Pop and stmt.target is not None:
            add(stmt.target, ex.Call(ex.Attribute(ex.Name(stmt.stack), "pop"))
                if stmt.method else POPPED)
    return values


def largest_consistent(names_, values, holds, given=frozenset()):
    """The largest set S of ``names_`` such that ``holds(value, S | given)`` for every value
    assigned to a name of S (names with no known values drop out).

    ``holds`` must depend only on which of the names the value reads are in the set, and
    only positively (a name more never makes it fail), as ``is_int`` does: then the
    largest set is unique, and a name is looked at again only when a name its values read
    has dropped out (linear in the size of the values, not quadratic).
    """
    found = {n for n in names_ if values.get(n, ()) is not None}
    seen = set(given) | found
    readers = {}  # name -> the names of ``found`` with a value that reads it
    for name in found:
        for value in values.get(name, ()):
            if value is POPPED:
                continue
            for read in ex.names(value):
                if read in found:
                    readers.setdefault(read, set()).add(name)
    work = sorted(found, reverse=True)  # popped in sorted order
    queued = set(work)
    while work:
        name = work.pop()
        queued.discard(name)
        if name in found and not all(holds(v, seen) for v in values.get(name, ())):
            found.discard(name)
            if name not in given:
                seen.discard(name)
            for reader in sorted(readers.get(name, ()), reverse=True):
                if reader in found and reader not in queued:
                    work.append(reader)
                    queued.add(reader)
    return found


def int_names(function):
    """Names that certainly hold ints: ``int(...)``, counters, loop variables."""
    values = assigned_values(function)
    return largest_consistent(values, values, lambda v, ints: v is not POPPED and is_int(v, ints))


class Floats(frozenset):
    """The names that certainly hold floats, with ``containers``: the kinds of the
    function's containers (``core.types``; a number in them is an int or a float), and
    ``of_adjoints``: the adjoints of containers, which hold a float at every place."""

    containers = {}
    of_adjoints = frozenset()


def float_names(function, math_name, adjoints=(), helpers=frozenset()):
    """Names that certainly hold floats: adjoints, the helpers generated code defines (each
    returns a float), and names every assignment of which gives a float when those names
    do (the largest such set).  A value popped from a save stack is what ``push`` saved
    of the same name: it counts as a float, so the name's other values decide."""
    values = assigned_values(function)
    candidates = list(values) + [a for a in adjoints if a not in values]
    helpers = frozenset(helpers)
    found = largest_consistent(candidates, values, lambda value, floats: value is POPPED or (
        is_float(value, math_name, floats)), given=helpers)
    return Floats(frozenset(found) | helpers)
