"""Bounds: a call giving a record's parameters by NumPy's keywords, or leaving a bound
out, as the call of the record it computes.

Expects a call (``ast.Call``) of a record's op whose record states ``keywords`` (NumPy's
names of its parameters), ``optional`` (the names by which one may be left out) or
``without`` (the record a call computes where a parameter is None or left out).
Guarantees the same call with those parameters by position, or the call of the other
record, spelled by NumPy's name of it on the same module:

    np.clip(x, a_min=lo, a_max=hi)     ->  np.clip(x, lo, hi)
    np.clip(x, None, hi)               ->  np.minimum(x, hi)
    np.clip(x, max=hi), x.clip(None, hi), x.clip(max=hi)
                                       ->  np.minimum(x, hi)

As NumPy reads them: a function's parameters by position or ``keywords`` (none left
out), or by ``optional`` names alone (those left out None); a method's by position or
``optional`` names (those left out None).  A call NumPy would not take (a keyword
no parameter has, ``np.clip(x, 0.1, max=0.3)``, more arguments than parameters, every
bound left out) is left for ``calls.bind_primitive`` to refuse, located at the keyword
it does not take (or at the call).
"""

import ast

from symdiff.primitives.registry import rule_of


def _none(node):
    return isinstance(node, ast.Constant) and node.value is None


def _refused_at(call, keyword):
    return ast.copy_location(ast.Call(call.func, call.args, [keyword]), call)


def bounded(op, call, method=False):
    """``(op, call)`` read as the module says (``method``: ``x.clip(...)``, ``x`` its
    first argument)."""
    rule = rule_of(op)
    if not (rule.keywords or rule.optional or rule.without):
        return op, call
    required, optional, params = dict(rule.keywords), dict(rule.optional), rule.params
    if len(call.args) > len(params):
        return op, call
    named = dict(zip(params, call.args))
    by_name = {k.arg for k in call.keywords}
    leaving = method or by_name & set(optional)  # parameters left out stand for None
    for keyword in call.keywords:
        param = optional.get(keyword.arg) or (None if method else required.get(keyword.arg))
        mixed = keyword.arg in optional and not method and (
            len(call.args) > 1 or by_name & set(required))
        if param is None or param in named or mixed:
            return op, _refused_at(call, keyword)
        named[param] = keyword.value
    if leaving:  # (a None left out is placed at the call)
        named = {p: named.get(p, ast.copy_location(ast.Constant(None), call)) for p in params}
    if any(p not in named for p in params):  # (NumPy: a parameter is missing)
        return op, call
    left_out = [p for p in params if _none(named[p])]
    instead = dict(rule.without).get(left_out[0]) if len(left_out) == 1 else None
    if left_out and (instead is None or not isinstance(call.func, ast.Attribute)):
        return op, ast.copy_location(ast.Call(call.func, [named[p] for p in params], []), call)
    func = call.func
    if instead is not None:
        func = ast.Attribute(call.func.value, rule_of(instead).numpy[0], ast.Load())
        op = instead
    made = ast.Call(func, [named[p] for p in params if p not in left_out], [])
    return op, ast.copy_location(made, call)
