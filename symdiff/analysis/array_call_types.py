"""The type of a call of an array operation of NumPy in the sweeps (``np.sum(x)``,
``np.mean(A, axis=(0, 2))``): its record's type rule, for ``value_types``.

Expects an IR call (``core.expr``), a function giving its operands' types (``of``) and
the typing run's ``Module`` (whose ``rules`` hold each rule's result once) and names'
types; guarantees
``array_call_type``: the type the record's rule gives for the arguments bound to its
parameters as Python binds them (defaults for those left out), or None where an argument
or a static parameter (an axis) is not known, the call does not bind, the operation
gives several values, or the function holds a 0-d array (whose NumPy scalars the program
types as 0-d arrays).
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.registry import array_pairs, rule_of

_UNSEEN = object()


def _zero_d(kind):
    return isinstance(kind, t.Array) and kind.ndim == 0


def int_constant(expr):
    """An int written out (``-1`` too), else None."""
    if type(expr) is ex.UnaryOp and expr.op in ("-", "+"):
        value = int_constant(expr.operand)
        return None if value is None else (-value if expr.op == "-" else value)
    if type(expr) is ex.Const and expr.text is None and type(expr.value) is int:
        return expr.value
    return None


def array_call_type(expr, of, module, op, env):
    """An array operation's call (``np.sum(x, axis=0)``): its record's type rule, the
    arguments bound to its parameters as Python binds them (defaults for those left
    out); None where one is not known or the call does not bind."""
    if op in array_pairs():  # a call giving several values (``np.split``): read by part
        return None
    record = rule_of(op)
    params, defaults = record.params, record.defaults
    if len(expr.args) > len(params):
        return None
    given = dict(zip(params, expr.args))
    for name, value in expr.keywords:
        if name not in params or name in given:
            return None
        given[name] = value
    tail = dict(zip(params[len(params) - len(defaults):], defaults))
    args, consts = [], []
    for name in params:
        if name in given:
            const = _constant(given[name])
            if const is None and name in record.ints and not (
                    type(given[name]) is ex.Const and given[name].value is None):
                return None  # a static parameter (an axis) not written out
            kind = of(given[name])
            if kind is None and name not in record.ints:
                return None  # an operand of no known type
            args.append(kind)
            consts.append(const)
        elif name in tail:
            args.append(t.of_value(tail[name]) if type(tail[name]) in (
                bool, int, float) else None)
            consts.append(tail[name])
        else:
            return None
    if any(_zero_d(kind) for kind in env.values()):
        return None  # a function of 0-d arrays: its numbers as the program types them
    key = (op, tuple(args), tuple((type(c), c) for c in consts), "arrays")
    found = module.rules.get(key, _UNSEEN)
    if found is _UNSEEN:
        try:
            found = record.typed(args, consts, "numpy", certain=True).result
        except (TypeError, ValueError, IndexError):  # a rule reading what it cannot take
            found = None
        module.rules[key] = found
    return found


def _constant(expr):
    """The value of a constant written out (an int, a bool, None, a tuple of ints: an
    array operation's static parameter), else None."""
    if type(expr) is ex.Tuple:
        values = tuple(_constant(e) for e in expr.elts)
        return None if None in values else values
    if type(expr) is ex.Const and expr.text is None and (
            expr.value is None or type(expr.value) in (bool, int, float, str, tuple)):
        return expr.value
    return int_constant(expr)
