"""Calls: a call in the user's code, to a primitive, a list's ``pop``, a function with
its own rule, or a helper (inlined through ``Frame.call_user``); builtins called on a
container are ``container_calls``', the names a primitive is spelled by ``spellings``'.

Expects a ``Frame``.  ``call`` resolves the callee; ``primitive_call`` binds the
user's arguments to a primitive of ``rules`` and emits one ``Assign`` of it, spelled as
the user called it, its arguments evaluated in the order Python evaluates them:

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
import functools

from symdiff.core import types as t
from symdiff.errors import InternalError, UnknownFunctionError, UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import (array_calls, arrays, changes, container_calls, containers, draws,
                           dtypes, function_values, list_joins, methods, names, objects,
                           operands, ranges, records, tables, takes)
from symdiff.lower.bounds import bounded
from symdiff.lower.spellings import scipy_spelling, spelled
from symdiff.lower.statics import check_statics, constant_axes, constant_contraction
from symdiff.lower.kind_tests import kind_test
from symdiff.primitives.reductions import JOINS, SIDED, library_op
from symdiff.primitives.stacked import AS_STACK
from symdiff.primitives.registry import (
    VARIADIC,
    none_hint,
    array_pairs,
    array_statics,
    chains,
    pairs,
    rule_of,
    variant,
    written_out,
)
from symdiff.primitives.array_splits import splits
from symdiff.primitives.texts import template


def call(frame, node, target):
    method = changes.list_method(frame, node.func)
    if method is not None:
        if method[1] != "pop":
            raise frame.error(UnsupportedSyntaxError, node, "a list's append returns nothing",
                              "call it as a statement")
        return changes.pop(frame, method[0], node, target)
    made = records.maker(frame, node)
    if made is not None:  # ``Params(w=a, b=b)``, ``type(p)(w=..., b=...)``
        written, record, maker = records.build(frame, node, made, functools.partial(
            methods.constant_field, frame))
        return containers.literal(frame, written, target, record, maker)
    called = objects.called_object(frame, node)  # ``model(x)``: its ``__call__``
    if called is None:  # ``layer(x)`` of a record passed: its class's ``__call__``
        called = methods.called_record(frame, node)
    if called is not None:
        return frame.call_user(*called, target)
    node = function_values.held_function(frame, node) or node  # ``acts["out"](z)``
    if isinstance(node.func, ast.Name):
        callee = names.meaning_of(frame, node.func.id, node.func)
        shown = node.func.id
    elif isinstance(node.func, ast.Attribute) and names.is_kwargs(frame, node.func.value):
        if node.func.attr != "get" or node.keywords or len(node.args) not in (1, 2):
            raise frame.error(UnsupportedSyntaxError, node, "this use of keyword arguments "
                              "is not supported", 'read them as kwargs["k"] or '
                              'kwargs.get("k", default)')
        default = node.args[1] if len(node.args) == 2 else ast.Constant(None)
        return tables.kwargs_entry(frame, node, node.args[0], default, target)
    elif draws.is_draw(frame, node):  # ``rng.normal(size=n)``, ``np.random.rand(n)``
        return draws.draw(frame, node, target)
    elif isinstance(node.func, ast.Attribute) and names.is_string_method(frame, node):
        return names.string_method(frame, node, target)
    elif isinstance(node.func, ast.Attribute) and objects.method_call(frame, node) is not None:
        function, call_node = objects.method_call(frame, node)  # ``system.energy(v)``
        return frame.call_user(function, call_node, target)
    elif isinstance(node.func, ast.Attribute) and methods.method_of(frame, node) is not None:
        function, call_node = methods.method_of(frame, node)  # ``self.h(x)``: ``h(self, x)``
        return frame.call_user(function, call_node, target)
    elif isinstance(node.func, ast.Attribute):
        method = container_calls.method_copy(frame, node, target)
        if method is None:
            method = container_calls.dict_get(frame, node, target)
        if method is None:
            method = arrays.method_call(frame, node, target, bind_primitive)
        if method is not None:
            return method
        callee, shown = names.module_member(frame, node.func), ast.unparse(node.func)
    else:
        raise frame.error(UnsupportedSyntaxError, node, "this kind of call is not supported",
                          "call a math function or one of your def functions by name")
    if callee.kind == "function" and library_op(callee.value) is not None:
        return container_calls.library_call(frame, library_op(callee.value), node, shown,
                                            target)
    if callee.kind in ("function", "nested"):
        return frame.call_user(callee.value, node, target)
    special = names.special_float(frame, callee, node)
    if special is not None:
        return special
    tested = kind_test(frame, callee, node, target)
    if tested is not None:
        return tested
    if callee.kind == "custom":
        return call_custom(frame, callee.value, node, target)
    if callee.value is len and len(node.args) == 1 and not node.keywords:
        measured = containers.length(frame, node.args[0], target)
        if measured is None:
            measured = arrays.length(frame, node.args[0], target)
        return measured if measured is not None else tables.table_length(frame, node.args[0],
                                                                         target)
    if callee.kind == "range":
        return ranges.range_value(frame, node, target)
    positions = ranges.copied_range(frame, node, target)
    if positions is not None:
        return positions
    reduced = container_calls.reduction_call(frame, callee, node, target)
    if reduced is not None:
        return reduced
    copied = container_calls.copy_call(frame, callee, node, target)
    if copied is not None:
        return copied
    if callee.kind not in ("primitive", "stop_gradient"):
        refused = names.refused_math(frame, node, shown, obj=callee.value)
        if refused is not None:
            raise refused
        starred = [a for a in node.args if isinstance(a, ast.Starred)]
        if callee.kind == "local" and starred:  # (spread only into a function of yours)
            raise frame.error(UnsupportedSyntaxError, starred[0], "a starred expression is "
                              "not supported here", "name each value")
        if callee.kind == "local":  # ``f(x)`` of a parameter given no function of the user's
            raise frame.error(UnknownFunctionError, node, f"{shown} is called, and holds no "
                              "function of yours here", "pass a def or a lambda of yours "
                              "(`lambda v: math.sin(v)` for a function of math)")
        if callee.value is functools.partial:
            raise frame.error(UnknownFunctionError, node, f"{shown} here binds a value the "
                              "function assigns again, or a function not of yours",
                              "write the lambda it stands for (`lambda x: rhs(x, k=k)`), "
                              "binding names the function does not assign again")
        if callee.value is functools.reduce:  # left as written by ``folds``
            raise frame.error(UnsupportedSyntaxError, node, f"this call of {shown} is not "
                              "read as a fold", "call reduce(f, xs) or reduce(f, xs, "
                              "initial), f a lambda of two parameters or a function, in "
                              "a statement that surely runs it (not in a lambda, a "
                              "comprehension or a branch of x if c else y)")
        raise frame.error(UnknownFunctionError, node,
                          f"{shown} is not a function symdiff can differentiate",
                          "use math functions, abs/min/max/pow, or your own def functions")
    return primitive_call(frame, callee.value if callee.kind == "primitive" else
                                 "stop_gradient", node, shown, target)


def call_custom(frame, fn, node, target):
    """A user function with its own rule: called as it is, differentiated by the rule."""
    op = frame.unit.custom_op(fn)
    parsed_arity = len(frame.unit.program_rules[op].partials)
    if node.keywords or len(node.args) != parsed_arity:
        raise frame.error(UnsupportedSyntaxError, node,
                          f"{fn.__name__} has its own derivative rule: call it with its "
                          f"{parsed_arity} arguments by position", "pass every argument")
    args = [frame.value(arg) for arg in node.args]
    return operands.emit_op(frame, op, args, target)


def primitive_call(frame, op, node, shown, target):
    """Emit the call ``node`` of primitive ``op``; its result operand."""
    if op in pairs() or op in array_pairs():
        if splits(op):  # ``np.split``: its parts, as many as asked
            raise frame.error(UnsupportedSyntaxError, node, f"{shown} returns a list of "
                              "arrays here", f"unpack it (`a, b = {shown}(x, 2)`) or read "
                              f"one part by a constant index (`{shown}(x, 2)[0]`)")
        count = len((pairs().get(op) or array_pairs().get(op)))
        raise frame.error(UnsupportedSyntaxError, node,
                          f"{shown} returns {count} values, not one",
                          f"unpack it: `{', '.join(_UNPACKED[:count])} = {shown}(...)`, "
                          f"or read one by index: `{shown}(...)[0]`")
    cast = dtypes.constant_dtype(frame, op, node)  # ``dtype=np.float32``: a cast
    if cast is not None:
        return frame.value(cast, target)
    if op == "take" and frame.unit.array_code:  # ``np.take(x, idx, axis=1)`` is ``x[:, idx]``
        return frame.value(takes.as_index(frame, node, shown), target)
    if op in VARIADIC and not (op == "hypot" and len(node.args) == 2 and not node.keywords):
        return variadic_call(frame, op, node, shown, target)
    if op in JOINS or op in AS_STACK or op in SIDED:  # ``np.stack(xs)`` of a list by name
        joined = list_joins.joined_list(frame, op, node, target)
        if joined is not None:
            return joined
    op, node = array_calls.written_out(frame, op, node, shown) or (op, node)  # reshape_2
    op, node = bounded(op, node)  # ``np.clip(x, a_max=hi)`` is ``np.minimum(x, hi)``
    node, like = dtypes.dtype_keyword(frame, op, node, shown)  # ``dtype=x.dtype``
    if op == "round" and [k.arg for k in node.keywords] == ["ndigits"] and len(node.args) == 1:
        node = ast.Call(node.func, node.args + [node.keywords[0].value], [])  # by position
    if not node.keywords or _variant_takes(op, node):
        op = variant(op, len(node.args))  # math.perm(n) is n!, math.log(x, b) is logb
    if chains(op) and len(node.args) >= 2 and not node.keywords:
        args = [frame.value(arg) for arg in node.args]
        result = args[0]
        for i, arg in enumerate(args[1:]):
            last = i == len(args) - 2
            result = operands.emit_op(frame, op, (result, arg), target if last else None,
                                      **spelled(frame, node.func))
        return result
    args = bind_primitive(frame, rule_of(op), node, shown)
    op, args = dtypes.with_dtype(frame, op, args, like, node, shown)
    spelling_of = {} if op == "stop_gradient" else spelled(frame, node.func)
    if rule_of(op).array_vjp is not None:  # written with its keywords: ``axis=0``
        if not frame.unit.array_code and not _takes_numbers(rule_of(op), args):
            raise frame.error(UnknownFunctionError, node, f"{shown} of numbers is not "
                              "something symdiff differentiates", f"it differentiates "
                              f"{shown} of NumPy arrays: pass arrays of floats")
        # SciPy's (``logsumexp``) is called as the user's code calls it; NumPy's by its text
        spelling_of["call"] = scipy_spelling(frame, node.func) if rule_of(op).scipy else None
    return operands.emit_op(frame, op, args, target, **spelling_of)


def _variant_takes(op, node):
    """Whether the variant of ``op`` that ``node``'s count of positional arguments picks
    takes each of its keywords (``np.eye(n, m, k=1)``: ``eye_2``'s ``k``)."""
    picked = variant(op, len(node.args))
    return picked != op and all(k.arg in rule_of(picked).params for k in node.keywords)


def _takes_numbers(rule, args):
    """Whether the array operation ``rule`` makes an array of numbers (``np.array([a,
    b])``, ``np.zeros(3)``): its type rule gives a value where its operands are numbers."""
    kinds = tuple(t.of_value(a.value) if isinstance(a, ir.Const) else t.FLOAT for a in args)
    consts = tuple(a.value if isinstance(a, ir.Const) else None for a in args)
    try:
        return rule.array_result(kinds, consts) is not None
    except (TypeError, ValueError, InternalError):  # (a constant a rule cannot read)
        return False


def bind_primitive(frame, rule, node, shown):
    """The operands of ``node``'s arguments in the rule's parameter order, evaluated in
    source order, the parameters left out given their defaults."""
    params = rule.params[:len(rule.partials)]
    forward = template(rule.forward)
    keyword_only = {k.arg for k in forward.keywords} if isinstance(forward, ast.Call) else set()
    positional = [p for p in params if p not in keyword_only]
    if rule.array_result is not None:  # NumPy's: an axis may come by position too
        positional = list(params[:rule.by_position or len(params) - len(rule.defaults) + 1])
    required = len(params) - len(rule.defaults)
    if len(node.args) > len(positional):
        count = len(positional)
        raise frame.error(UnsupportedSyntaxError, node,
                          f"{shown} takes {count} argument{'s' * (count != 1)} by position "
                          f"here, not {len(node.args)}",
                          "pass numbers by position" if not keyword_only else
                          f"pass {', '.join(sorted(keyword_only))} by keyword")
    named = dict(zip(positional, node.args))
    for keyword in node.keywords:  # a function with defaults takes its parameters by name
        by_name = rule.defaults or rule.array_result is not None  # ``expand_dims(x, axis=1)``
        if not by_name or keyword.arg not in params or keyword.arg in named:
            raise frame.error(UnsupportedSyntaxError, keyword,
                              f"{shown} takes no keyword argument {keyword.arg!r} here",
                              "pass numbers by position" if not by_name else
                              f"its parameters are {', '.join(params)}")
        named[keyword.arg] = keyword.value
    missing = [p for p in params[:required] if p not in named]
    if missing:
        raise frame.error(UnsupportedSyntaxError, node,
                          f"{shown} takes {required} argument{'s' * (required != 1)} here, "
                          f"not {len([p for p in params[:required] if p in named])}",
                          "pass numbers by position")
    written = list(node.args) + [k.value for k in node.keywords]
    _refuse_none_operands(frame, rule, named, shown)
    strings = {id(named[p]) for p, kind in array_statics(rule.name).items()
               if kind in ("str", "kind", "order", "mode", "method", "indexing", "qr_mode")
               and p in named}  # ``einsum("ij->i", a)``
    axes = {id(named[p]): (constant_contraction if kind == "contraction" else constant_axes)(
        named[p]) for p, kind in array_statics(rule.name).items() if kind in (
        "axes", "counts", "contraction") and p in named}  # ``axis=(0, 2)``, ``axes=([1], [0])``
    values = {id(arg): ir.Const(arg.value) if id(arg) in strings and isinstance(
        arg, ast.Constant) and isinstance(arg.value, str) else ir.Const(axes[id(arg)]) if (
        axes.get(id(arg)) is not None) else frame.value(arg) for arg in written}  # in order
    defaults = dict(zip(params[required:], rule.defaults))
    args = [values[id(named[p])] if p in named else ir.Const(defaults[p]) for p in params]
    check_statics(frame, rule.name, rule, args, node, shown)
    return args


def _refuse_none_operands(frame, rule, named, shown):
    """A ``None`` written where a number record takes a number (``np.clip(x, lo, None)``):
    NumPy reads it as no bound, the record's partials would compare with it."""
    statics = array_statics(rule.name)
    for param, arg in named.items():
        if isinstance(arg, ast.Constant) and arg.value is None and param not in statics and (
                rule.array_result is None):
            raise frame.error(UnsupportedSyntaxError, arg,
                              f"{shown} takes a number as {param} here, not None",
                              none_hint(rule.name))


_UNPACKED = ("first", "second", "third", "fourth")


def pair_call(frame, callee, node, count):
    """``m, e = math.frexp(x)``, ``f, i = math.modf(x)``, ``u, s, vh =
    numpy.linalg.svd(a, full_matrices=False)``: one primitive per part, of the arguments
    evaluated once; None when ``callee`` returns no pair (or triple)."""
    halves = pairs().get(callee.value) or array_pairs().get(callee.value)
    if halves is None:
        return None
    shown = ast.unparse(node.func)
    args = bind_primitive(frame, rule_of(halves[0]), node, shown)
    if splits(callee.value):  # ``a, b, c = np.split(x, 3)``: as many parts as its sections
        halves = halves[:parts_of(frame, args, len(halves), node, shown)]
    if count != len(halves):
        raise frame.error(UnsupportedSyntaxError, node, f"{shown} returns {len(halves)} "
                          f"values, not {count}", f"unpack it into {len(halves)} names")
    return tuple(operands.emit_op(frame, half, args, None) for half in halves)


def parts_of(frame, args, most, node, shown):
    """How many parts a split of ``args`` (its sections a constant int, at most
    ``most``) gives."""
    sections = args[1].value if isinstance(args[1], ir.Const) else None
    if type(sections) is not int or not 0 < sections <= most:
        raise frame.error(UnsupportedSyntaxError, node, f"{shown} into {sections!r} parts "
                          "is not supported", f"split into a constant number of parts, "
                          f"at most {most}")
    return sections


def variadic_call(frame, name, node, shown, target):
    """``hypot`` of several numbers, ``fsum``/``prod`` of a list written out,
    ``dist``/``sumprod`` of two points written out: one primitive per count."""
    if node.keywords:
        raise frame.error(UnsupportedSyntaxError, node.keywords[0],
                          f"keyword arguments to {shown} are not supported",
                          "multiply by the start value instead" if name == "prod" else
                          "pass numbers by position")
    count = written_out(name)
    if not count:
        elements = list(node.args)
    else:
        if name == "sumprod" and len(node.args) == 2 and not any(
                isinstance(arg, (ast.List, ast.Tuple)) for arg in node.args):
            raise frame.error(UnsupportedSyntaxError, node, f"{shown} of two lists held in "
                              "names is not read yet", "write math.fsum(x * w for x, w in "
                              "zip(xs, ws)); for statistics.fmean(xs, weights), which calls "
                              "it on Python 3.12 and later, write math.fsum(x * w for x, w in "
                              "zip(xs, weights)) / math.fsum(weights)")
        if len(node.args) != count or not all(
                isinstance(arg, (ast.List, ast.Tuple)) for arg in node.args):
            what = "a list" if count == 1 else "two points"
            raise frame.error(UnsupportedSyntaxError, node,
                              f"{shown} takes {what} of numbers written out here",
                              f"write them out: {shown}([a, b, c])" if count == 1 else
                              f"write them out: {shown}((x0, y0), (x1, y1))")
        if count == 2 and len(node.args[0].elts) != len(node.args[1].elts):
            raise frame.error(UnsupportedSyntaxError, node,
                              f"{shown} of points of {len(node.args[0].elts)} and "
                              f"{len(node.args[1].elts)} coordinates",
                              "give both points the same number of coordinates")
        elements = [e for arg in node.args for e in arg.elts]
    if not elements:
        raise frame.error(UnsupportedSyntaxError, node, f"{shown} of no numbers",
                          "write the value itself")
    args = [frame.value(element) for element in elements]
    return operands.emit_op(frame, f"{name}_{len(args)}", args, target)
