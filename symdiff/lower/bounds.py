"""Bounds: a call giving a record's parameters by NumPy's keywords, or leaving a bound
out, as the call of the record it computes.

Expects a call (``ast.Call``) of a record's op whose record states ``keywords`` (NumPy's
names of its parameters) or ``without`` (the record a call computes where a parameter is
None or left out).  Guarantees the same call with those parameters by position, or the
call of the other record, spelled by NumPy's name of it on the same module:

    np.clip(x, a_min=lo, a_max=hi)     ->  np.clip(x, lo, hi)
    np.clip(x, None, hi)               ->  np.minimum(x, hi)
    x.clip(min=lo)                     ->  numpy.maximum(x, lo)

A call it cannot read so (a keyword no parameter has, more arguments than parameters,
every bound left out) is left for ``calls.bind_primitive`` to refuse, located (at the
keyword no parameter has).
"""

import ast

from symdiff.primitives.registry import rule_of


def _none(node):
    return isinstance(node, ast.Constant) and node.value is None


def bounded(op, call):
    """``(op, call)`` read as the module says."""
    rule = rule_of(op)
    if not rule.keywords and not rule.without:
        return op, call
    aliases, params = dict(rule.keywords), rule.params
    named = dict(zip(params, call.args))
    if len(call.args) > len(params):
        return op, call
    for keyword in call.keywords:
        param = aliases.get(keyword.arg, keyword.arg)
        if param not in params or param in named:  # (refused at that keyword)
            return op, ast.copy_location(ast.Call(call.func, call.args, [keyword]), call)
        named[param] = keyword.value
    left_out = [p for p in params if p not in named or _none(named[p])]
    instead = dict(rule.without).get(left_out[0]) if len(left_out) == 1 else None
    if left_out and (instead is None or not isinstance(call.func, ast.Attribute)):
        return op, call
    func = call.func
    if instead is not None:
        func = ast.Attribute(call.func.value, rule_of(instead).numpy[0], ast.Load())
        op = instead
    made = ast.Call(func, [named[p] for p in params if p not in left_out], [])
    return op, ast.copy_location(made, call)
