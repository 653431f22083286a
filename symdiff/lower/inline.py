"""Function bodies and inlining: the differentiated function's body, and each call of
a helper written out where it is called.

Expects a ``Frame``.  ``run_function_body`` lowers a body and gives its result operand
(one, or for a helper whose call unpacks its values, a tuple); a ``return`` inside a
branch or loop writes the result name and sets ``returned``.  ``call_user`` binds a
helper's parameters to the caller's operands (a copy where the helper reassigns one),
and lowers its body in a new ``Frame`` with fresh names, into the caller's block.

    def sq(t):                          y = h(x)   ──►   t = x          (t reassigned)
        t = t * t                                        t_1 = t * t
        return t                                         y = t_1
"""

import ast

from symdiff.errors import RecursionCycleError, UnsupportedSyntaxError
from symdiff.frontend.exits import contains
from symdiff.frontend.resolve import classify, parameter_defaults
from symdiff.ir import nodes as ir
from symdiff.core.types import is_container, table_values
from symdiff.lower import calls, changes, containers, names, objects, tables
from symdiff.lower.control import is_flag
from symdiff.lower.function_values import passed_functions
from symdiff.lower.star_arguments import keywords_of, rest_of, spread
from symdiff.lower.transpose import unpacked_zip
from symdiff.lower.tables import Table


def run_function_body(frame, stmts, result_target=None):
    """Lower a function body into ``frame.out``; return (block, result operand).

    The body's ``returned`` flag, when something reads it, starts out False before it.
    """
    body, operand = frame.capture(lambda: _body(frame, stmts, result_target))
    if frame.returned in frame.flag_reads:
        frame.emit(frame.flag_set(frame.returned, False))
    frame.out.extend(body)
    return frame.out, operand


def _never_returns(frame):
    return frame.error(UnsupportedSyntaxError, frame.parsed.tree,
                       f"{frame.parsed.name} never returns a value",
                       "end it with `return <number>`")


def _body(frame, stmts, result_target):
    """Lower ``stmts`` into the current block; the result operand."""
    frame.result = result_target
    final = stmts[-1] if stmts else None
    if frame.checks_only:  # `validate(p, t)`: it runs its checks and gives nothing back
        frame.block(stmts)
        operand = None
    elif isinstance(final, ast.Return) and not contains(stmts[:-1], ast.Return):
        frame.block(stmts[:-1])
        if frame.unit.raised:  # the function always raises before it returns
            return ir.Const(0.0)
        frame.set_origin(final)
        if final.value is None:
            raise frame.error(UnsupportedSyntaxError, final, "return without a value",
                              "return the number to differentiate")
        if returns_tuple(frame, final.value):
            operand = tuple_result(frame, final.value)
        else:
            simple = isinstance(final.value, (ast.Name, ast.Constant))
            target = result_target if simple else (result_target or frame.result_name())
            frame.hint = target or "result"
            operand = frame.value(final.value, target)
            if frame.top and not frame.unit.any_result and containers.is_container_operand(
                    frame, operand):
                raise changes.returned(frame, final.value)
    else:
        returns = contains(stmts, ast.Return)
        if not returns and not isinstance(final, ast.Raise):
            raise _never_returns(frame)
        frame.block(stmts)
        if frame.unit.raised:  # it always raises (the gradient of one that does)
            return ir.Const(0.0)
        if not returns:
            raise _never_returns(frame)
        if frame.result_tuple is not None:
            operand = tuple(ir.Var(name) for name in frame.result_tuple)
        else:
            operand = ir.Var(frame.result_name())
    return operand


def returns_tuple(frame, node):
    """Whether this ``return`` gives several values: a helper whose call unpacks them,
    or (forward mode) the differentiated function returning a tuple written out."""
    if frame.unpacked is not None:
        if not isinstance(node, (ast.Tuple, ast.Call)):
            raise one_value_returned(frame, node)
        return True
    return frame.top and frame.unit.allow_tuple and isinstance(node, ast.Tuple)


def tuple_result(frame, node):
    """``return a, b``: each element into its own result name.

    In a helper whose call unpacks its values, ``return g(x)`` may hand on the values
    of another such helper.
    """
    if frame.result_tuple is None:
        base = "result" if frame.top else f"{frame.parsed.name}_result"
        count = frame.unpacked if frame.unpacked is not None else len(node.elts)
        frame.result_tuple = [frame.namer.fresh(f"{base}{i}") for i in range(count)]
    if isinstance(node, ast.Call):
        values = unpacked_call(frame, node, len(frame.result_tuple))
        if values is None:
            raise one_value_returned(frame, node)
        for value, name in zip(values, frame.result_tuple):
            frame.emit(ir.Assign(name, "copy", (value,), frame.origin))
        return tuple(ir.Var(name) for name in frame.result_tuple)
    if len(node.elts) != len(frame.result_tuple):
        message = (f"returns {len(node.elts)} values here but {len(frame.result_tuple)} "
                   "elsewhere" if frame.unpacked is None else
                   f"{frame.parsed.name} returns {len(node.elts)} values here, but its "
                   f"call unpacks {frame.unpacked}")
        raise frame.error(UnsupportedSyntaxError, node, message, "return the same number")
    made = []
    for element, name in zip(node.elts, frame.result_tuple):
        frame.hint = name
        if frame.top and isinstance(element, (ast.Dict, ast.List)):  # ``return {...},``: built
            frame.block([ast.copy_location(ast.Assign([ast.copy_location(ast.Name(
                name, ast.Store()), element)], element), element)])  # as ``name = {...}``
            operand = frame.mapping.pop(name)
        else:
            operand = frame.value(element, name)  # a container by name stays itself
        made.append(operand if isinstance(operand, ir.Var) and containers.is_container_operand(
            frame, operand) else ir.Var(name))
    return tuple(made)


def one_value_returned(frame, node):
    return frame.error(UnsupportedSyntaxError, node,
                       f"{frame.parsed.name} returns one value here, but its call unpacks "
                       f"{frame.unpacked}", "return the values written out: `return a, b`")


def unpacked_call(frame, node, count, targets=None):
    """``a, b = f(x)`` with ``f`` a user function (or a primitive returning a pair, or
    ``zip``): its ``count`` values as operands; None when ``node`` is not such a call.
    ``targets``: the names the values are unpacked into, where a value built takes one."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        method = objects.method_call(frame, node)  # ``a, b = system.split(x)``
        if method is not None:
            return frame.call_user(*method, None, unpacked=count)
        callee = names.module_member(frame, node.func)  # `m, e = math.frexp(x)`
        return calls.pair_call(frame, callee, node, count) if callee.kind == "primitive" else None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    callee = names.meaning_of(frame, node.func.id, node.func)
    if callee.kind == "other" and callee.value is zip:  # ``xs, ys = zip(*pairs)``
        return unpacked_zip(frame, node, count, targets)
    if callee.kind == "primitive":
        return calls.pair_call(frame, callee, node, count)
    if callee.kind not in ("function", "nested"):
        return None
    return frame.call_user(callee.value, node, None, unpacked=count)


def call_user(frame, fn, node, target, unpacked=None, discard=False):
    """Inline a call of user function ``fn``; its result's operand.  With ``discard`` (a
    call standing as a statement) a helper that returns nothing gives None."""
    if fn in frame.stack:
        chain = " -> ".join(f.__name__ for f in frame.stack + (fn,))
        raise frame.error(RecursionCycleError, node, f"recursive call: {chain}",
                          "rewrite the recursion as a loop")
    nested = getattr(fn, "definer", None) is not None
    parsed = fn.parsed if nested else frame.unit.parse_helper(fn, frame, node)
    helper = frame.helper(parsed, fn)
    node, passed = passed_functions(frame, fn, helper.reading, spread(frame, node))
    bound = bind_arguments(frame, fn, helper.reading, node)
    helper.functions.update(passed)  # its calls of such a parameter inline the function
    helper.unpacked = unpacked
    helper.checks_only = discard and not helper.reading.gives_value
    helper.definer = fn.definer if nested else None
    assigned = helper.reading.assigned
    for param, operand in bound.items():
        if isinstance(operand, Table):
            helper.tables[param] = (operand.name, operand.values)
        elif isinstance(operand, ir.Ref) or (
                isinstance(operand, ir.Var) and operand.name in frame.unit.containers):
            helper.mapping[param] = operand
        elif param in assigned and not is_flag(operand):
            copy = frame.namer.fresh(param)
            frame.emit(ir.Assign(copy, "copy", (operand,), frame.origin))
            helper.mapping[param] = ir.Var(copy)
        else:
            helper.mapping[param] = operand
    _, result = run_function_body(helper, parsed.tree.body, result_target=target)
    return result


def bind_arguments(frame, fn, reading, node):
    """The operand (or ``Table``) each of ``fn``'s parameters is bound to at the call
    ``node``, in the order of the parameters (``reading``: ``fn``'s tree's)."""
    params, tables = reading.params, reading.tables
    defaults = parameter_defaults(fn, reading.tree)
    rest = reading.tree.args.vararg
    if len(node.args) > reading.positional and rest is None:
        raise frame.error(UnsupportedSyntaxError, node,
                          f"{fn.__name__} takes {reading.positional} positional arguments, "
                          f"{len(node.args)} given", "check the call")
    bound = {p: argument(frame, a, p in tables) for p, a in zip(params, node.args)}
    options = reading.tree.args.kwarg
    for keyword in node.keywords:
        if options is not None and keyword.arg not in params:
            continue  # one of ``**options`` (``keywords_of``)
        if keyword.arg not in params or keyword.arg in bound:
            raise frame.error(UnsupportedSyntaxError, keyword,
                              f"unexpected keyword argument {keyword.arg!r} for {fn.__name__}",
                              "check the call")
        bound[keyword.arg] = argument(frame, keyword.value, keyword.arg in tables)
    for param in params:
        if param not in bound:
            kind = classify(defaults.get(param)).kind if param in defaults else None
            if kind == "table" and param in tables:
                value = defaults[param]
                bound[param] = Table(frame.unit.global_name(param, value), table_values(value))
                continue
            label = param in defaults and (defaults[param] is None
                                           or isinstance(defaults[param], str))
            if kind != "constant" and not label:  # a label or an optional argument
                raise frame.error(UnsupportedSyntaxError, node,
                                  f"{fn.__name__}() is missing a number for {param}",
                                  "pass every parameter")
            bound[param] = ir.Const(defaults[param])
    if rest is not None:  # ``*args``: the tuple of the arguments past the positional ones
        bound[rest.arg] = containers.literal(frame, rest_of(frame, node, reading),
                                             frame.namer.fresh(rest.arg))
        params = list(params) + [rest.arg]
    if options is not None:  # ``**options``: the dict of the keywords no parameter takes
        name = frame.namer.fresh(options.arg)
        bound[options.arg] = containers.literal(
            frame, keywords_of(frame, node, fn, params, options.arg), name)
        frame.unit.unfilled.discard(name)  # ``{}``: no keyword, and none to be filled in
        params = list(params) + [options.arg]
    return {p: bound[p] for p in params}


def argument(frame, node, as_table):
    """What a helper's parameter is bound to: a number's operand, or for a parameter
    the helper uses as a table, ``Table(name, values)``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return ir.Const(node.value)  # a label or a flag: `require(x, "pressure")`
    found = None if isinstance(node, ast.Subscript) else containers.container_of(
        frame, node, written=True)
    if isinstance(node, ast.Subscript) and containers.container_of(frame, node.value) is not None:
        return frame.value(node)  # an element: a number, or a container inside the container
    if found is not None and found[1] and not is_container(containers.kind_of_operand(
            frame, ir.Ref(*found))):
        return frame.value(node)  # a record's number or array (``h(p.w)``): its value
    if found is not None:  # the helper reads the caller's container, as Python passes it
        return ir.Ref(*found) if found[1] else ir.Var(found[0])
    return Table(*tables.table(frame, node)) if as_table else frame.value(node)

