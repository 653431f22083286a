"""Invariants: the values a loop computes alike on every iteration, which it need not save.

Used by ``differentiate`` (``ad.reverse``), before the sweeps are written, as an analysis
of the normalized ``Program`` and its ``DefUse``.  A value the loop overwrites is saved
for the reverse sweep (``ad.taping``), once per iteration.  A value the loop assigns
*alike* every time is not overwritten by anything else: when the reverse sweep of the
loop runs, the name still holds what each iteration gave it, so the reverse reads it as
it reads a parameter, and the forward sweep pushes nothing.  ``invariant_names`` finds,
for an outermost loop, the names that hold such a value:

* the name has one assignment in the whole function, inside the loop, and holds a
  number;
* that assignment is an operation of the registry (not a user's rule, which may do
  anything), a read of a number from a container, or a length of one;
* every operand is a constant, a number the loop never assigns, or one of these names;
  a container read is a parameter no statement changes (``taping.read_only``) while
  every container any statement changes is a list or dict of numbers the function
  built itself (so none of them is, or holds, the one read: no alias can change it; a
  name bound again to another container, ``x = h``, is never read so);
* the loop holds no ``try`` and no ``break``, and sits in no ``try``: an iteration
  always runs up to where its values are read.

    for _ in range(n):                     for _ in range(n):
        neg = -omega ** 2                      neg = -omega ** 2
        push(neg)              ──►             k = neg * x
        k = neg * x                            ...
        ...                                for _ in reversed(range(n)):
    for _ in reversed(range(n)):               dx += dk * neg
        neg = pop()
        dx += dk * neg

A constant (``div_x = h / 6.0`` folded) is such a value too.  In doubt, a name is not one.
"""

from symdiff.ad.taping import read_only
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import nodes as ir

_MUTATING = (ir.SetItem, ir.Push, ir.Pop)


def loop_invariants(program, defuse):
    """For each outermost loop of ``program``, by sid, the names ``invariant_names``
    gives: an analysis, found before the sweeps are written."""
    apart = _changed_containers_apart(program, defuse)
    inside_try = _loops_in_try(program.body, False, set())
    return {loop.sid: invariant_names(loop, program, defuse, apart)
            for loop in defuse.statements
            if isinstance(loop, (ir.For, ir.While)) and not defuse.loops(loop)
            and loop.sid not in inside_try}


def invariant_names(loop, program, defuse, apart):
    """The names ``loop`` assigns alike on every iteration (module docstring); ``apart``:
    whether the containers the function changes are all its own lists of numbers."""
    inside = list(ir.walk([loop]))
    if any(isinstance(s, (ir.Try, ir.BreakIf)) for s in inside):
        return frozenset()
    assigned = frozenset(ir.assigned_names([loop]))
    candidates = [s for s in inside if isinstance(s, (ir.Assign, ir.Compute, ir.Item))
                  and _once(s.target, program, defuse)]
    found = set()
    grew = True
    while grew:  # an invariant may read invariants assigned after it in the body
        grew = False
        for stmt in candidates:
            if stmt.target not in found and _alike(stmt, program, defuse, assigned,
                                                   found, apart):
                found.add(stmt.target)
                grew = True
    return frozenset(found)


def _once(name, program, defuse):
    """Whether ``name`` is a number assigned once in the function, and not a parameter."""
    return (name not in program.params and len(defuse.definitions(name)) == 1
            and program.types.get(name) in t.NUMBERS)


def _alike(stmt, program, defuse, assigned, found, apart):
    """Whether ``stmt`` computes the same value on every iteration."""
    def steady(name):  # a number the loop never changes, or an invariant
        return name in found or (name not in assigned and program.types.get(name) in t.NUMBERS)

    def unchanged(container):  # a parameter no statement changes (nor an alias of it)
        return apart and container in program.params and container not in assigned and (
            read_only(program, defuse, container))

    if isinstance(stmt, ir.Assign):
        return (stmt.call is None and stmt.op not in program.custom
                and all(_operand_steady(a, steady) for a in stmt.args))
    if isinstance(stmt, ir.Item):
        return unchanged(stmt.container) and all(_operand_steady(p, steady)
                                                 for p in stmt.path)
    return _measured(stmt.expr, steady, unchanged)


def _operand_steady(operand, steady):
    return isinstance(operand, ir.Const) or (isinstance(operand, ir.Var)
                                             and steady(operand.name))


def _measured(expr, steady, unchanged):
    """Whether ``expr`` computes a number from constants, steady numbers and reads of
    unchanged containers by arithmetic, comparisons and ``len``: ``c > 0.5``,
    ``len(params['w1'])``, ``table[i][2]`` (subscripts constants or steady names)."""
    if isinstance(expr, ex.Const):
        return True
    if isinstance(expr, ex.Name):
        return steady(expr.id)
    if isinstance(expr, (ex.BinOp, ex.Compare, ex.BoolOp, ex.UnaryOp)):
        parts = [getattr(expr, f) for f in ("left", "right", "operand") if hasattr(expr, f)]
        parts += list(getattr(expr, "values", ())) + list(getattr(expr, "comparators", ()))
        return bool(parts) and all(_measured(p, steady, unchanged) for p in parts)
    if isinstance(expr, ex.Call):
        return (isinstance(expr.func, ex.Name) and expr.func.id == "len" and not expr.keywords
                and len(expr.args) == 1 and _element(expr.args[0], steady, unchanged))
    return isinstance(expr, ex.Subscript) and _element(expr, steady, unchanged)


def _element(expr, steady, unchanged):
    """Whether ``expr`` is an unchanged container, or an element of one by steady
    subscripts."""
    if isinstance(expr, ex.Name):
        return unchanged(expr.id)
    if not isinstance(expr, ex.Subscript):
        return False
    index = expr.index
    return (isinstance(index, ex.Const) or isinstance(index, ex.Name) and steady(index.id)) \
        and _element(expr.value, steady, unchanged)


def _changed_containers_apart(program, defuse):
    """Whether every container a statement changes is bound only by building a list or
    dict of numbers (``hidden = []``): then it is no other container, and holds none."""
    for stmt in ir.walk(program.body):
        if not isinstance(stmt, _MUTATING):
            continue
        name = stmt.container if isinstance(stmt, ir.SetItem) else stmt.stack
        if name in program.params or not all(isinstance(s, ir.Build)
                                             for s in defuse.definitions(name)):
            return False
        kind = program.types.get(name)
        if not (isinstance(kind, t.List) and kind.elem in t.NUMBERS or isinstance(
                kind, t.Dict) and all(v in t.NUMBERS for _, v in kind.items)):
            return False
    return True


def _loops_in_try(block, in_try, found):
    """The sids of the loops inside a ``try`` body or clause."""
    for stmt in block:
        inner = in_try or isinstance(stmt, ir.Try)
        if in_try and isinstance(stmt, (ir.For, ir.While)):
            found.add(stmt.sid)
        for nested in ir.children(stmt):
            _loops_in_try(nested, inner, found)
    return found
