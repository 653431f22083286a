"""Capacity: how many values a save list of the numba target ever holds, when that is
known as the function starts.

Expects an ``ir.sweeps.Function`` with its ``types`` and, for each save stack's push, a
function naming the list a pushed name goes to (``numba_target``).  Guarantees
``capacities(function, list_of)``: ``{list name: expression}`` for each list whose pushes
all lie in straight code, in branches, or in ``for`` loops over ``range`` bounds made of
constants, number parameters the function never rebinds and the lengths of parameters
(``len(xs)``, ``x.shape[0]``) it never changes; the expression (of those
parameters) is at least the number of values pushed in any run: a branch counts as the
sum of its arms, a loop as its trip count times its body, a ``break`` only shortens it.
A list pushed in a ``while`` loop, or in a loop whose bounds are computed in the
function, is not in the result: it stays a list that grows.

    for i in range(n):               floats: 2 * max(n, 0)
        push(t); push(u)
    for j in range(3):               ints: 3
        if c: push(k)
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw


def capacities(function, list_of):
    """``{list name: capacity expression}`` of the lists whose pushes can be counted."""
    fixed = _fixed_names(function)
    counts, unknown = {}, set()
    _count(function.body, (), counts, unknown, fixed, list_of)
    return {name: _expression(terms) for name, terms in counts.items() if name not in unknown}


def _fixed_names(function):
    """name -> the expression of parameters it holds all along: each parameter holding a
    number (an ``Int``, or a ``Number``: what the caller passes; ``range`` takes only an
    int) that no statement rebinds, and each name bound once, at the top of the
    function, to such an expression or to the ``len`` (or an axis's length, ``x.shape[0]``)
    of a parameter nothing changes."""
    binds = [n for s in sw.walk(function.body) for n in sw.binds(s)]
    changed = {n for s in sw.walk(function.body) for n in sw.changes(s)}
    types = function.types or {}
    fixed = {p: ex.Name(p) for p in function.params
             if p not in binds and isinstance(types.get(p), (t.Int, t.Number))}
    unchanged = {p for p in function.params if p not in binds and p not in changed}
    for stmt in function.body:
        if type(stmt) is sw.Let and type(stmt.target) is str and binds.count(stmt.target) == 1:
            value = _resolved(stmt.value, fixed, unchanged)
            if value is not None:
                fixed[stmt.target] = value
    return fixed


def _count(block, trips, counts, unknown, fixed, list_of):
    """Add each push of ``block``, run ``trips`` (a tuple of trip expressions) times."""
    for stmt in block:
        kind = type(stmt)
        if kind is sw.Push:
            name = list_of(stmt)
            if name is not None:
                terms = counts.setdefault(name, {})
                terms[trips] = terms.get(trips, 0) + 1
        elif kind is sw.If:
            _count(stmt.body, trips, counts, unknown, fixed, list_of)
            _count(stmt.orelse, trips, counts, unknown, fixed, list_of)
        elif kind is sw.Try:  # a body that may stop part way pushes at most this much
            _count(stmt.body, trips, counts, unknown, fixed, list_of)
            _count(stmt.cleanup, trips, counts, unknown, fixed, list_of)
        elif kind is sw.For:
            count = _trips(stmt, fixed)
            if count is None:
                unknown.update(_pushed(stmt.body, list_of))
            else:
                _count(stmt.body, trips + (count,), counts, unknown, fixed, list_of)
        elif kind is sw.While:
            unknown.update(_pushed(stmt.body, list_of))


def _pushed(block, list_of):
    return {list_of(s) for s in sw.walk(block) if type(s) is sw.Push} - {None}


def _trips(loop, fixed):
    """How many times ``loop`` runs, as an expression of constants and parameters (a
    number when the bounds are constants), or None."""
    bounds = tuple(_resolved(b, fixed) for b in loop.bounds)
    if loop.over is not None or None in bounds:
        return None
    if all(type(b) is ex.Const for b in bounds):
        return len(range(*(b.value for b in bounds)))
    if len(bounds) == 1 and type(bounds[0]) in (ex.Call, ex.Subscript):  # a length: never
        # negative (``len(xs)``, ``x.shape[0]``)
        return bounds[0]
    if len(bounds) == 1:
        return ex.Call(ex.Name("max"), (bounds[0], ex.Const(0)))
    return ex.Call(ex.Name("len"), (ex.Call(ex.Name("range"), bounds),))


def _resolved(bound, fixed, unchanged=()):
    """``bound`` written with the parameters the ``fixed`` names stand for (the ``len`` of
    an ``unchanged`` parameter kept), or None when it reads anything else."""
    kind = type(bound)
    if kind is ex.Const:
        return bound if type(bound.value) is int else None
    if kind is ex.Name:
        return fixed.get(bound.id)
    if kind is ex.BinOp and bound.op in ("+", "-", "*"):
        left, right = _resolved(bound.left, fixed, unchanged), _resolved(bound.right, fixed,
                                                                         unchanged)
        return None if left is None or right is None else ex.BinOp(bound.op, left, right)
    if kind is ex.UnaryOp and bound.op == "-":
        operand = _resolved(bound.operand, fixed, unchanged)
        return None if operand is None else ex.UnaryOp("-", operand)
    if kind is ex.Call and bound.func == ex.Name("len") and len(bound.args) == 1 and (
            not bound.keywords) and bound.args[0] in [ex.Name(p) for p in unchanged]:
        return bound
    if kind is ex.Subscript and type(bound.value) is ex.Attribute and (
            bound.value.attr == "shape") and bound.value.value in [
                ex.Name(p) for p in unchanged] and type(bound.index) is ex.Const:
        return bound  # the length of an axis of an array parameter: ``x.shape[0]``
    return None


def _expression(terms):
    """The sum of ``coefficient * trips...`` over ``terms`` (constant trips multiplied in),
    in the order the terms were first met."""
    constant, written = 0, []
    for trips, coefficient in terms.items():
        factors = [c for c in trips if not isinstance(c, int)]
        for c in trips:
            if isinstance(c, int):
                coefficient *= c
        if not factors:
            constant += coefficient
            continue
        product = factors[0]
        for factor in factors[1:]:
            product = ex.BinOp("*", product, factor)
        written.append(product if coefficient == 1 else ex.BinOp("*", ex.Const(coefficient),
                                                                 product))
    if constant or not written:
        written.append(ex.Const(constant))
    total = written[0]
    for term in written[1:]:
        total = ex.BinOp("+", total, term)
    return total


__all__ = ["capacities"]
