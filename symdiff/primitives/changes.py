"""The records of container changes (element assignment, ``append``, ``pop``), stated as
the other container operations' are (``primitives.containers``).

Expects nothing.  Guarantees a frozen ``containers.Operation`` per change
(``set_item_operation``, ``APPEND``, ``pop_operation``; ``registry.operation_of`` picks a
statement's), with one VJP and one JVP builder per operand, ``builder(g, args, out,
names)``, ``None`` where an operand has no derivative.  A change writes its container in
place, and so do its derivatives: the adjoint (the tangent) of the list is one list,
changed in step with it.  What a builder gives the list's own adjoint or tangent is
therefore an *effect* on it, said as data (``ad`` writes the statements):

- ``Put(path, value)``: its element at ``path`` set to ``value`` (None: zeros of the
  element's shape), the rest as it was;
- ``Insert(index, value)``: ``value`` put back where ``pop(index)`` took an element from
  (``index`` None: at the end; ``put_back_position`` says where, on the list it goes into);
- ``Taken(index)``: the element ``pop(index)`` takes out of it, taken out (None: the last):
  the value of the operand whose share it is, or dropped.

A builder for a number operand gives a value, as any record's.  In the reverse sweep the
shares are read before the list's effect runs; a share that is the very element the
effect takes out is that ``pop``'s value (``dv += dys.pop()``).  A builder for the list
whose effect is None leaves it as it is (an in-place change passes the rest of the adjoint
through).

    set_item.vjp   xs[i] = v      list: Put((i,), None)       v: g[i]
    set_item.jvp                  list: None                  v: Put((i,), dv)
    APPEND.vjp     ys.append(v)   list: Taken(None)           v: g[-1]
    APPEND.jvp                    list: None                  v: Insert(None, dv)
    pop.vjp        v = ys.pop(i)  list: Insert(i, g)          i: None
    pop.jvp                       list: Taken(i)              i: None

What stays ahead (``../shared/DESIGN.md``, "Writes"): the IR states these changes as
changes, not yet as functional updates (a new version of the list) turned back into
in-place writes where def-use proves no other name holds the list; these effects are the
in-place form such a pass would produce.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.primitives.containers import Operation, _built, _named, _reduced


@dataclass(frozen=True)
class Put:
    """A list's adjoint or tangent with its element at ``path`` set to ``value`` (None:
    zeros of the element's shape)."""

    path: tuple
    value: object


@dataclass(frozen=True)
class Insert:
    """``value`` put back into a list's adjoint or tangent where ``pop(index)`` took an
    element from (``index``: the pop's index expression, None for the last)."""

    index: object
    value: object


@dataclass(frozen=True)
class Taken:
    """The element ``pop(index)`` takes out of a list's adjoint or tangent (``index``
    None: the last), taken out."""

    index: object


# --- ``xs[i][j] = v`` ----------------------------------------------------------------------

def _placed(g, path):
    for index in path:
        g = ex.Subscript(g, index)
    return g


def _reset_vjp(g, args, out, names):
    return Put(tuple(args[2:]), None)  # the old element's adjoint is done: zero


def _placed_vjp(g, args, out, names):
    return _placed(g, args[2:])


def _placed_jvp(tangent, args, out, names):
    return Put(tuple(args[2:]), tangent)


def set_item_operation(depth):
    """The record of an element assignment ``depth`` indices deep: its operands the
    container, the value, then the indices (no derivative).  The value's share is the
    adjoint at its place, which then starts anew; the tangent there is the value's."""
    return Operation("set_item", ("container", "value") + tuple(
        f"index{i}" for i in range(depth)), _built, (_reset_vjp, _placed_vjp) + (
            None,) * depth, (None, _placed_jvp) + (None,) * depth)


# --- ``ys.append(v)`` ----------------------------------------------------------------------

def _dropped_vjp(g, args, out, names):
    return Taken(None)


def _last_vjp(g, args, out, names):
    return ex.Subscript(g, ex.UnaryOp("-", ex.Const(1)))


def _appended_jvp(tangent, args, out, names):
    return Insert(None, tangent)


APPEND = Operation("append", ("list", "value"), _built, (_dropped_vjp, _last_vjp),
                   (None, _appended_jvp))


# --- ``v = ys.pop()``, ``v = ys.pop(i)`` ---------------------------------------------------

def _put_back_vjp(g, args, out, names):
    return Insert(args[1] if len(args) > 1 else None, g)


def _taken_jvp(tangent, args, out, names):
    return Taken(args[1] if len(args) > 1 else None)


def pop_operation(indexed):
    """The record of ``ys.pop()`` (``indexed``: ``ys.pop(i)``, the index an operand with
    no derivative): the popped value's adjoint goes back where it was taken from, and
    the tangent list gives up the popped value's tangent."""
    params = ("list", "index") if indexed else ("list",)
    return Operation("pop", params, _reduced, (_put_back_vjp,) + (None,) * indexed,
                     (_taken_jvp,) + (None,) * indexed)


def put_back_position(index, into, names):
    """Where ``into.insert(position, v)`` puts back what ``into.pop(index)`` took (the
    list one element short): ``index`` for a constant at least 0; ``len(into) - k`` for a
    constant ``-(k + 1)`` (``len(into) - 1`` for ``pop(-2)``); else ``index if index >= 0
    else len(into) + 1 + index``."""
    length = ex.Call(_named(names, "len"), (into,))
    if isinstance(index, ex.Const) and index.value >= 0:
        return index
    if isinstance(index, ex.Const):
        return ex.BinOp("-", length, ex.Const(-index.value - 1))
    return ex.IfExp(ex.Compare(index, (">=",), (ex.Const(0),)), index,
                    ex.BinOp("+", ex.BinOp("+", length, ex.Const(1)), index))
