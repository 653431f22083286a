"""Folds for the sympy witness: ``functools.reduce(f, xs[, initial])`` as Python runs it.

Expects the interpreter (its ``apply`` calls a lambda, a def or a primitive on sympy
values; ``pick`` decides ``min``/``max`` at the point).  Guarantees ``fold``: the left
fold, one call of ``f`` per element after the first (or after ``initial``), and
``reduce``'s own ``TypeError`` for an empty sequence with no initial value.

    fold(interpreter, operator.mul, [x, y, z], (), node)  ->  x*y*z
"""

from symdiff.witnesses.symbolic.primitives import _primitive_name


def fold(interpreter, fn, items, initial, node):
    """``functools.reduce(fn, items, *initial)`` on sympy values."""
    if not initial and not items:
        raise TypeError("reduce() of empty iterable with no initial value")
    total, rest = (initial[0], items) if initial else (items[0], items[1:])
    for item in rest:
        if _primitive_name(fn) in ("min", "max"):
            total = interpreter.pick(_primitive_name(fn), (total, item), node)
        else:
            total = interpreter.apply(fn, total, node, item)
    return total
