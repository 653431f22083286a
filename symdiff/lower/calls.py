"""Calls of the table's primitives in ``normalize``: the user's arguments bound to a rule.

Mixed into ``Frame`` (through ``ExpressionRules``).  ``primitive_call`` takes a call
whose callee resolved to a primitive of ``rules`` and emits one ``Assign`` of that
primitive, its arguments evaluated in the order Python evaluates them:

    math.isclose(a, b, rel_tol=1e-6)       ->  isclose(a, b, 1e-06, 0.0)     (defaults filled)
    norm.cdf(x, scale=s)                   ->  norm_cdf(x, 0.0, s)           (called as norm.cdf)
    math.fsum([a, b, c])                   ->  fsum_3(a, b, c)
    math.hypot(x, y, z)                    ->  hypot_3(x, y, z)
    math.dist((x0, y0), (x1, y1))          ->  dist_4(x0, y0, x1, y1)

Guarantees a located ``SymdiffError`` for a call no rule takes: the wrong number of
arguments, a keyword the function has no parameter for, a list that is not written out,
or a ``math`` function symdiff refuses (with the reason: ``math.gcd`` works on integers).
"""

import ast
import math

from symdiff.errors import UnknownFunctionError, UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.primitives.registry import (
    VARIADIC,
    chains,
    pairs,
    refused,
    refused_names,
    rule_of,
    variant,
    written_out,
)
from symdiff.primitives.texts import template


class PrimitiveCalls:
    def primitive_call(self, op, node, shown, target):
        """Emit the call ``node`` of primitive ``op``; its result operand."""
        if op in pairs():
            raise self.error(UnsupportedSyntaxError, node,
                             f"{shown} returns a pair, not a number",
                             f"unpack it: `first, second = {shown}(...)`")
        if op in VARIADIC and not (op == "hypot" and len(node.args) == 2 and not node.keywords):
            return self.variadic_call(op, node, shown, target)
        if not node.keywords:
            op = variant(op, len(node.args))  # math.perm(n) is n!, math.log(x, b) is logb
        if chains(op) and len(node.args) >= 2 and not node.keywords:
            args = [self.value(arg) for arg in node.args]
            result = args[0]
            for i, arg in enumerate(args[1:]):
                last = i == len(args) - 2
                result = self.emit_op(op, (result, arg), target if last else None)
                self.spell(self.out[-1], node.func)
            return result
        args = self.bind_primitive(rule_of(op), node, shown)
        result = self.emit_op(op, args, target)
        if op != "stop_gradient":
            self.spell(self.out[-1], node.func)
        return result

    def bind_primitive(self, rule, node, shown):
        """The operands of ``node``'s arguments in the rule's parameter order, evaluated in
        source order, the parameters left out given their defaults."""
        params = rule.params[:len(rule.partials)]
        forward = template(rule.forward)
        keyword_only = {k.arg for k in forward.keywords} if isinstance(forward, ast.Call) else set()
        positional = [p for p in params if p not in keyword_only]
        required = len(params) - len(rule.defaults)
        if len(node.args) > len(positional):
            count = len(positional)
            raise self.error(UnsupportedSyntaxError, node,
                             f"{shown} takes {count} argument{'s' * (count != 1)} by position "
                             f"here, not {len(node.args)}",
                             "pass numbers by position" if not keyword_only else
                             f"pass {', '.join(sorted(keyword_only))} by keyword")
        named = dict(zip(positional, node.args))
        for keyword in node.keywords:  # a function with defaults takes its parameters by name
            if not rule.defaults or keyword.arg not in params or keyword.arg in named:
                raise self.error(UnsupportedSyntaxError, keyword,
                                 f"{shown} takes no keyword argument {keyword.arg!r} here",
                                 "pass numbers by position" if not rule.defaults else
                                 f"its parameters are {', '.join(params)}")
            named[keyword.arg] = keyword.value
        missing = [p for p in params[:required] if p not in named]
        if missing:
            raise self.error(UnsupportedSyntaxError, node,
                             f"{shown} takes {required} argument{'s' * (required != 1)} here, "
                             f"not {len([p for p in params[:required] if p in named])}",
                             "pass numbers by position")
        written = list(node.args) + [k.value for k in node.keywords]
        values = {id(arg): self.value(arg) for arg in written}  # in source order
        defaults = dict(zip(params[required:], rule.defaults))
        return [values[id(named[p])] if p in named else ir.Const(defaults[p]) for p in params]

    def pair_call(self, callee, node, count):
        """``m, e = math.frexp(x)``, ``f, i = math.modf(x)``: one primitive per half, of the
        argument evaluated once; None when ``callee`` returns no pair."""
        halves = pairs().get(callee.value)
        if halves is None:
            return None
        shown = ast.unparse(node.func)
        if count != 2:
            raise self.error(UnsupportedSyntaxError, node, f"{shown} returns 2 values, "
                             f"not {count}", "unpack it into two names")
        args = self.bind_primitive(rule_of(halves[0]), node, shown)
        return tuple(self.emit_op(half, args, None) for half in halves)

    def variadic_call(self, name, node, shown, target):
        """``hypot`` of several numbers, ``fsum``/``prod`` of a list written out,
        ``dist``/``sumprod`` of two points written out: one primitive per count."""
        if node.keywords:
            raise self.error(UnsupportedSyntaxError, node.keywords[0],
                             f"keyword arguments to {shown} are not supported",
                             "multiply by the start value instead" if name == "prod" else
                             "pass numbers by position")
        count = written_out(name)
        if not count:
            elements = list(node.args)
        else:
            if len(node.args) != count or not all(
                    isinstance(arg, (ast.List, ast.Tuple)) for arg in node.args):
                what = "a list" if count == 1 else "two points"
                raise self.error(UnsupportedSyntaxError, node,
                                 f"{shown} takes {what} of numbers written out here",
                                 f"write them out: {shown}([a, b, c])" if count == 1 else
                                 f"write them out: {shown}((x0, y0), (x1, y1))")
            if count == 2 and len(node.args[0].elts) != len(node.args[1].elts):
                raise self.error(UnsupportedSyntaxError, node,
                                 f"{shown} of points of {len(node.args[0].elts)} and "
                                 f"{len(node.args[1].elts)} coordinates",
                                 "give both points the same number of coordinates")
            elements = [e for arg in node.args for e in arg.elts]
        if not elements:
            raise self.error(UnsupportedSyntaxError, node, f"{shown} of no numbers",
                             "write the value itself")
        args = [self.value(element) for element in elements]
        return self.emit_op(f"{name}_{len(args)}", args, target)

    def refused_math(self, node, shown, obj=None, attr=None):
        """The error for a ``math`` function symdiff does not take, with its reason; None
        when ``obj`` (or ``math.<attr>``) is not one."""
        if attr is None:
            attr = next((n for n in refused_names() if getattr(math, n, None) is obj), None)
        reason = refused(attr)
        if reason is None:
            return None
        if shown != f"math.{attr}":
            shown = f"{shown} (math.{attr})"
        return self.error(UnknownFunctionError, node,
                          f"{shown} is not supported: {reason[0]}", reason[1])
