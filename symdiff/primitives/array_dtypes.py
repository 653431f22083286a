"""The ``dtype=`` keyword of an array operation: the dtype another array has.

Expects the records of ``arrays``, ``array_reductions`` and ``array_shapes``.
Guarantees ``dtyped(record)``: the record of the call with ``dtype=like.dtype`` (its op
``<op>_like``), one more operand ``like`` whose dtype the result takes; its value is
never differentiated (no VJP or JVP for ``like``), the other arguments' builders are
the record's own; ``like`` stands after the parameters without a default
(``like_position``), so the defaults stay last.  The dtype is a static kind: it comes from ``like``'s type, known
when the gradient is built, so the result type is exact (a float32 count stays
float32), and the call is written as the user's code (or a gradient's) writes it.

    n = np.sum(x == m, axis=1, keepdims=True, dtype=x.dtype)
                      ->  array_sum_like(mask, x, 1, True)   (of x's dtype)
    I = np.eye(n, m, dtype=A.dtype)  ->  eye_2_like(n, m, A)
"""

from dataclasses import dataclass, replace

from symdiff.core import types as t
from symdiff.primitives import array_shapes, arrays
from symdiff.primitives.record import table
from symdiff.primitives.tangents import LinearIn, _LinearJvp

DTYPED = ("array_sum", "array_mean", "eye", "eye_2")  # the records that take ``dtype=``


def like_op(op):
    """The op of ``op`` called with ``dtype=like.dtype``; None where it takes none."""
    return f"{op}_like" if op in DTYPED else None


def like_position(record):
    """Where ``like`` stands among the operands of ``record``'s ``_like`` record: after
    the arguments without a default, so the defaults stay last."""
    return len(record.params) - len(record.defaults)


def _without(args, at):
    return tuple(args[:at]) + tuple(args[at + 1:])


def _retyped(rule, at):
    """``rule``'s result given ``like``'s dtype (the operand at ``at``, an array)."""
    def result(args, consts):
        like = args[at] if len(args) > at else None
        found = rule(_without(args, at), _without(consts, at))
        if not isinstance(like, t.Array) or found is None:
            return None
        if isinstance(found, t.Array):
            return replace(found, dtype=like.dtype)
        return found  # (a NumPy scalar: of like's dtype, as NumPy gives it)
    return result


def _with_like(builders, at):
    """Builders chosen by the operands' types, with none for ``like``."""
    def chosen(args, out):
        found = tuple(builders(_without(args, at), out))
        return found[:at] + (None,) + found[at:]
    return chosen


@dataclass(frozen=True)
class _Skipping:
    """A builder of the record, called with the operands but ``like``."""

    builder: object
    at: int

    def __call__(self, g, args, out, names):
        return self.builder(g, _without(args, self.at), out, names)


def dtyped(record):
    """The record of ``record``'s call with ``dtype=like.dtype``: its VJP builders the
    record's own, its JVP builders read from its forward where it is linear."""
    at = like_position(record)
    forward = f"{record.forward[:-1]}, dtype=like.dtype)"
    params = record.params[:at] + ("like",) + record.params[at:]
    vjp = _with_like(record.array_vjp, at)
    made = replace(record, name=f"{record.name}_like", forward=forward, params=params,
                   partials=record.partials + (None,), bridge=forward, numpy=(), variants=(),
                   array_result=_retyped(record.array_result, at),
                   array_vjp=lambda args, out: tuple(
                       b if b is None else _Skipping(b, at) for b in vjp(args, out)))
    jvp = record.array_jvp
    if isinstance(jvp, _LinearJvp):
        return replace(made, array_jvp=LinearIn(tuple(
            p + (p >= at) for p in jvp.linear.positions), jvp.linear.joint).of(made))
    tangents = _with_like(jvp, at)
    return replace(made, array_jvp=lambda args, out: tuple(
        b if b is None else _Skipping(b, at) for b in tangents(args, out)))


RECORDS = table(*(dtyped(arrays.RECORDS[op] if op in arrays.RECORDS else
                         array_shapes.RECORDS[op]) for op in DTYPED))

METHODS = {}
STATICS = {}
HINTS = {}
