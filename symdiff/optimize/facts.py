"""Facts the optimizer's passes rely on, read from the sweeps' types and the registry.

Expects IR expressions (``core.expr``) of a function typed by ``analysis.sweep_types``,
and the ``Context`` of the optimizer's run.  Guarantees answers that are certain, never
guesses from the shape of an expression:

- ``cannot_raise(e, context)``: evaluating ``e`` raises nothing.  Names, numbers written
  out, ``math.pi``; ``+ - *`` of two numbers unless an int may meet a float (an int of
  2**1024 or more converted to a float raises ``OverflowError``: a float with a float, an
  int with an int, a bool or an int written out with anything numeric is safe; a
  ``number`` with a float or a ``number`` is not); ``/`` of a number that is no int by a
  nonzero number written out; ``-``, ``+`` of a number; comparisons of numbers (or of
  strings); the calls the registry calls ``total`` of arguments that are floats, bools or
  ints written out (a big int is no float either); an operation on float arrays whose
  shapes ``optimize.arrays`` proves compatible (``array_step``).  A name of no known type may hold
  anything, so an operation on it may raise.  With ``overflow_only``, an
  ``OverflowError`` of an int too large for a float counts as nothing: the question
  ``prune`` asks of a value nothing needs (``DESIGN.md``, Semantics: an
  ``OverflowError`` of a value only ``f``'s result needs is not re-raised); with
  ``any_overflow`` too, so does a float too large (``a ** 2``: a power of a number by a
  positive number written out raises nothing else): the question ``fuse`` asks of two
  statements it would swap, whose first exception is then an ``OverflowError`` either
  way;
- ``is_float(e, context)``: ``e`` certainly evaluates to a float (``sweep_types``);
- ``is_int(e, context)``: ``e`` certainly evaluates to an int (or a bool);
- ``known_number(e)``: the number a constant stands for, else None.
"""

import math

from symdiff.core import expr as ex
from symdiff.analysis.value_types import UNKNOWN, value_type_from
from symdiff.ir import sweeps as sw
from symdiff.core import types as t
from symdiff.optimize.array_steps import array_step
from symdiff.optimize.arrays import lengths
from symdiff.primitives.registry import names, rule_of, total, total_math

_ORDERED = frozenset(("<", "<=", ">", ">="))
_EQUAL = frozenset(("==", "!="))
FLOATS = (t.FLOAT, t.NUMPY_FLOAT)  # a float, and one that may be numpy's (a float too)
# Each type of these classes is one of ``t.NUMBERS`` (``FLOATS``: of ``Float``) and each
# of those is of one of them: membership read from the class, not by comparing types.
_NUMBER_CLASSES = frozenset(type(k) for k in t.NUMBERS)
_FLOAT_OR_NUMBER = frozenset((t.Float, t.Number))
_INT_OR_NUMBER = frozenset((t.Int, t.Number))
_INT_OR_BOOL = frozenset((t.Int, t.Bool))
_BIG = 2 ** 1000  # ints written out below this meet a float without overflowing


def dotted(const):
    """The parts of a constant written as a dotted name (``math.pi``), else None."""
    return None if const.text is None else const.text.split(".")


def type_of(expr, context):
    """The type ``expr`` certainly has (None: not known); kept for the run, as are its
    operands' (``analysis.value_types``)."""
    if type(expr) is ex.Name:  # the name's type: nothing to remember
        kind = context.types.get(expr.id)
        return None if kind is UNKNOWN else kind
    table = context.table("type")
    hit = table.get(id(expr))
    if hit is not None and hit[0] is expr:
        return hit[1]
    kind = value_type_from(expr, lambda e: type_of(e, context), context.types, context.module)
    table[id(expr)] = (expr, kind)
    return kind


def is_float(expr, context):
    """Whether ``expr`` certainly evaluates to a float (so ``1.0 * expr`` is ``expr``)."""
    return type(type_of(expr, context)) is t.Float


def is_int(expr, context):
    """Whether ``expr`` certainly evaluates to an int (a bool is one)."""
    return type(type_of(expr, context)) in _INT_OR_BOOL


def cannot_raise(expr, context, overflow_only=False, math_name=..., any_overflow=False):
    """Whether evaluating ``expr`` certainly raises nothing (with ``overflow_only``:
    nothing but the ``OverflowError`` of an int too large for a float; with
    ``any_overflow``, nothing but an ``OverflowError``).  ``math_name``: the name
    ``math`` calls are judged under (None: every one may raise)."""
    math_name = context.math_name if math_name is ... else math_name
    overflow_only = overflow_only or any_overflow
    table = context.table(("quiet", overflow_only, any_overflow, math_name))
    hit = table.get(id(expr))
    if hit is not None and hit[0] is expr:
        return hit[1]
    quiet = _Judge(context, overflow_only, math_name, any_overflow).quiet(expr)
    table[id(expr)] = (expr, quiet)  # the entry keeps ``expr``: no other takes its id
    return quiet


class _Judge:
    def __init__(self, context, overflow_only, math_name, any_overflow=False):
        self.context, self.overflow_only, self.math_name = context, overflow_only, math_name
        self.any_overflow = any_overflow

    def type(self, expr):
        return type_of(expr, self.context)

    def quiet(self, expr):
        """Each operator judged where it stands, with its operands' types."""
        stack = [expr]
        while stack:
            sub = stack.pop()
            judge = _JUDGES.get(type(sub))
            inner = False if judge is None else judge(self, sub)
            if inner is False:  # an operation on arrays, judged by their shapes
                inner = array_step(sub, self.context, self)
            if inner is False:
                return False
            stack.extend(inner)
        return True

    def const(self, sub):
        parts = dotted(sub)
        if parts is not None and len(parts) > 1 and not (
                len(parts) == 2 and parts[0] == self.math_name and total_math(parts[1])):
            return False
        return ()

    def may_meet(self, a, b):
        """Whether the values of ``a`` and ``b`` may be an int (not written out) and a
        float: converting the int may overflow."""
        return not self.overflow_only and (self.big_int(a) and self.float(b) or (
            self.big_int(b) and self.float(a)))

    def big_int(self, expr):
        if type(self.type(expr)) not in _INT_OR_NUMBER:
            return False
        if type(expr) is ex.Name:
            return expr.id not in small_ints(self.context)
        value = known_number(expr)
        return value is None or abs(value) >= _BIG

    def float(self, expr):
        return type(self.type(expr)) in _FLOAT_OR_NUMBER

    def numeric(self, *exprs):
        for e in exprs:
            if type(type_of(e, self.context)) not in _NUMBER_CLASSES:
                return False
        return True

    def binop(self, sub):
        left, right = sub.left, sub.right
        if sub.op in ("+", "-", "*"):
            ok = self.numeric(left, right) and not self.may_meet(left, right)
        elif sub.op == "/":  # x / 4.0 raises nothing when x is no int that may be big
            ok = _nonzero(right) and self.numeric(left) and (
                self.overflow_only or not self.big_int(left))
        elif sub.op == "**" and self.any_overflow:  # (-8.0) ** 0.5: complex, no error
            power = known_number(right)
            ok = self.numeric(left) and type(power) in (int, float) and power > 0 and (
                math.isfinite(power))
        else:
            ok = False
        return (right, left) if ok else False

    def unaryop(self, sub):
        if sub.op in ("-", "+"):
            return (sub.operand,) if self.numeric(sub.operand) else False
        if sub.op == "not":
            return (sub.operand,) if self.truth_quiet(sub.operand) else False
        return False

    def truth_quiet(self, expr):
        """Whether asking ``bool(expr)`` raises nothing (an array's truth may)."""
        kind = self.type(expr)
        return kind is not None and not isinstance(kind, t.Array)

    def compare(self, sub):
        operands = (sub.left,) + sub.comparators
        kinds = [self.type(o) for o in operands]
        if all(op in _EQUAL for op in sub.ops):
            ok = None not in kinds and not any(isinstance(k, t.Array) for k in kinds)
        elif all(op in _ORDERED or op in _EQUAL for op in sub.ops):
            ok = all(type(k) in _NUMBER_CLASSES for k in kinds) or all(
                k == t.STR for k in kinds)
        else:
            ok = False
        return tuple(reversed(operands)) if ok else False

    def boolop(self, sub):
        if not all(self.truth_quiet(v) for v in sub.values):
            return False
        return tuple(reversed(sub.values))

    def ifexp(self, sub):
        return (sub.orelse, sub.body, sub.test) if self.truth_quiet(sub.test) else False

    def call(self, sub):
        if not self.total_call(sub):
            return False
        return tuple(reversed(sub.args)) + (sub.func,)

    def total_call(self, call):
        """``abs(a)`` of a number, ``math.tanh(a)`` of a float: defined on every one."""
        func = call.func
        if call.keywords:
            return False
        if type(func) is ex.Name:
            op = names("builtin").get(func.id)
            return (op is not None and total(op) and len(call.args) == rule_of(op).arity
                    and self.numeric(*call.args))
        return (type(func) is ex.Attribute and type(func.value) is ex.Name
                and func.value.id == self.math_name and total_math(func.attr)
                and all(self.converts(a) for a in call.args))

    def converts(self, arg):
        """Whether ``math`` takes ``arg`` as a float without overflowing."""
        return self.numeric(arg) and (self.overflow_only or not self.big_int(arg))

    def attribute(self, sub):
        ok = type(sub.value) is ex.Name and sub.value.id == self.math_name and (
            total_math(sub.attr))
        return () if ok else False

    def display(self, sub):  # a list or tuple written out raises nothing itself
        return tuple(reversed(sub.elts))


_JUDGES = {ex.Name: lambda judge, sub: (), ex.Const: _Judge.const, ex.BinOp: _Judge.binop,
           ex.UnaryOp: _Judge.unaryop, ex.Compare: _Judge.compare, ex.BoolOp: _Judge.boolop,
           ex.IfExp: _Judge.ifexp, ex.Call: _Judge.call, ex.Attribute: _Judge.attribute,
           ex.List: _Judge.display, ex.Tuple: _Judge.display}


def small_ints(context):
    """The names that only ever hold ints far below 2**1000 (``_BIG``): each of whose
    bindings is a loop over a ``range`` from 0 (or a small int written out) — counting
    up, or, in the reverse sweep, back down a range the forward sweep ran through — or
    an int written out, or adding one to it (such a name counts statements run); an
    array's length (``optimize.arrays.lengths``); and the small ints the module binds
    (``COUNT = 3``)."""
    found = context.tables.get("small ints")
    if found is None:
        found = _small_ints(context.function) | set(lengths(context)) | {
            name for name, value in context.constants.items() if abs(value) < _BIG}
        found = context.tables["small ints"] = frozenset(found)
    return found


def _small_ints(function):
    bindings = {}
    reverse = False
    for stmt in sw.walk(function.body):
        if isinstance(stmt, sw.Comment) and stmt.heading:
            reverse = True
        for name in sw.binds(stmt):
            bindings.setdefault(name, []).append(_counts_up(stmt, name, reverse))
    return {name for name, small in bindings.items() if all(small)}


def _small(expr):
    value = known_number(expr)
    return type(value) is int and abs(value) < _BIG


def _counts_up(stmt, name, in_reverse):
    kind = type(stmt)
    if kind is sw.For:
        starts_small = stmt.over is None and (len(stmt.bounds) == 1 or (
            len(stmt.bounds) in (2, 3) and _small(stmt.bounds[0])))
        return starts_small and (not stmt.reverse or in_reverse)
    if kind is sw.Let or kind is sw.AddTo:
        return _small(stmt.value)
    return False


def _nonzero(expr):
    """A number literal other than zero (and finite: ``x / inf`` is fine too, but rare)."""
    if type(expr) is ex.UnaryOp and expr.op in ("-", "+"):
        expr = expr.operand
    return (type(expr) is ex.Const and expr.text is None and type(expr.value) in (int, float)
            and expr.value != 0 and math.isfinite(expr.value))


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
