"""Statements: a desugared block, one statement after another.

Expects a ``Frame`` and a block ``desugar`` left (no augmented or annotated assignment,
no statement after one that always leaves the block).  ``block`` lowers each statement
into the frame's block: an assignment through ``expressions``, ``raise``/``assert``
through ``checks``, a list's ``append`` and ``pop`` as ``Push`` and ``Pop``, a nested ``def`` recorded to be
inlined where it is called, a loop through ``loops``; ``return``, ``break`` and
``continue`` set flags (``control`` guards what follows).  Outside loops and branches
each assignment writes a fresh version of its name.

    a, b = b, a            ──►    a_old = a          (in a loop: a is overwritten first)
                                  a = b
                                  b = a_old
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import (arrays, attempts, changes, containers, control, draws, expressions,
                           function_values,
                           inline, loops, names, ranges)
from symdiff.lower.checks import check_statement, report_statement
from symdiff.lower.scope import Nested

_MAY_EXIT = (ast.If, ast.For, ast.While, ast.Try, ast.Return, ast.Break, ast.Continue,
             ast.Raise)


def block(frame, stmts):
    """Lower ``stmts``, a block ``desugar`` left with no statement after one that always
    leaves it; after one that may leave it, the rest runs guarded by the exit flags."""
    last = len(stmts) - 1
    for i, stmt in enumerate(stmts):
        with frame.followed_by(i < last):
            statement(frame, stmt)
        if frame.unit.raised:  # (`if len(p) != 2: raise ...` of a tuple of 3)
            return
        if not isinstance(stmt, _MAY_EXIT) or i == last:
            continue
        flags = control.exit_flags(frame, stmt)
        if flags:
            control.guarded(frame, flags, stmts[i + 1:], stmt)  # (copied once: it returns)
            return


def statement(frame, node):
    frame.set_origin(node)
    lower = _STATEMENTS.get(type(node))
    if lower is None:
        raise frame.error(UnsupportedSyntaxError, node,
                          f"{type(node).__name__} statement is not supported")
    lower(frame, node)


def stmt_Pass(frame, node):
    pass


def stmt_FunctionDef(frame, node):
    frame.functions[node.name] = Nested(node, frame)


def stmt_Raise(frame, node):
    """``raise`` and ``assert``: run in the forward sweep where the function runs them.
    A ``raise`` that always runs (outside branches, loops and ``try``) ends the lowering:
    nothing after it runs."""
    frame.emit(check_statement(frame, node))
    if isinstance(node, ast.Raise) and not frame.compound and not frame.attempts:
        frame.unit.raised = True


def stmt_Import(frame, node):
    """An import in the body binds its names as a module-level one would (``parse``)."""


def stmt_Expr(frame, node):
    if isinstance(node.value, ast.Constant):  # a docstring
        return
    report = report_statement(frame, node)  # ``print(...)``: run where the function runs it
    if report is not None:
        frame.emit(report)
        return
    func = node.value.func
    if draws.is_draw(frame, node.value):  # ``np.random.seed(0)``, a draw left unread
        hint = "seeded" if func.attr == "seed" else "unread_draw"
        draws.draw(frame, node.value, frame.namer.fresh(hint))
        return
    if isinstance(func, ast.Name) and names.meaning_of(frame, func.id, func).kind in (
            "function", "nested"):  # `validate(p, t)`: its checks run here
        helper = names.meaning_of(frame, func.id, func).value
        frame.call_user(helper, node.value, None, discard=True)
        return
    if arrays.add_at(frame, node.value):  # ``np.add.at(x, index, v)``
        return
    method = changes.list_method(frame, func)
    if method is not None and method[1] == "append" and len(node.value.args) == 1 and (
            not node.value.keywords):
        changes.append(frame, method[0], node.value.args[0])
        return
    if method is not None and method[1] == "pop":  # the element taken off is dropped
        changes.pop(frame, method[0], node.value, None)
        return
    if changes.insert(frame, node.value):
        return
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and (
            containers.container_of(frame, func.value) is not None):
        raise frame.error(UnsupportedSyntaxError, node, f"{func.value.id}.{func.attr}() is not "
                          "supported", "change a list by append, pop and element "
                          "assignment: xs.append(v), xs.pop(), xs[i] = v")
    if isinstance(func, ast.Attribute) and ranges.held_range(frame, func.value) is not None:
        raise frame.error(UnsupportedSyntaxError, node, f"{func.value.id} holds positions "
                          "made by range, read-only here", "read it as it is (index it, "
                          "len, loop over it) and the positions to add apart: for i in "
                          "(0, 2): ...")
    raise frame.error(UnsupportedSyntaxError, node, "an expression statement is not "
                      "supported: its value is discarded",
                      "assign the value to a name or remove the line")


def list_statement(frame, node):
    """``s = []`` (a list, filled by ``append``) or ``push, pop = s.append, s.pop``; True
    when ``node`` was one."""
    target, value = node.targets[0], node.value
    if len(node.targets) == 1 and isinstance(target, ast.Name) and isinstance(
            value, ast.List) and not value.elts:
        name = frame.target_name(target.id)
        frame.mapping[target.id] = changes.empty_list(frame, name)
        return True
    return changes.bind_methods(frame, node)


def stmt_Assign(frame, node):
    if list_statement(frame, node):
        return
    if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        assign(frame, node.targets[0].id, node.value, fresh=id(node) in frame.rebinds)
        return
    if len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
        if not (arrays.assign_element(frame, node.targets[0], node.value)
                or changes.assign_element(frame, node.targets[0], node.value)):
            raise frame.error(UnsupportedSyntaxError, node.targets[0], "an element is "
                              "assigned of something that is not a list", "assign elements "
                              "of a list built here or passed in: xs[i] = v")
        return
    if isinstance(node.targets[0], ast.Tuple) or len(node.targets) > 1:
        frame.hint = "value"
        first = protect(frame, node.targets, unpack_value(frame, node.targets[0], node.value))
        for target in node.targets:
            bind(frame, target, first)
        return


def protect(frame, targets, operands):
    """Copy aside each value an earlier name of the assignment overwrites first.

    ``a, b = b, a`` needs the old ``a`` kept; ``x0, x1 = x1, x2`` needs nothing.
    """
    written = []  # the names the assignments write, in order
    for target in targets:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name):
                current = frame.mapping.get(sub.id)
                if frame.compound and isinstance(current, ir.Var):
                    written.append(current.name)

    def walk(operand, position):
        if isinstance(operand, tuple):
            parts = []
            for part in operand:
                done, position = walk(part, position)
                parts.append(done)
            return tuple(parts), position
        if isinstance(operand, ir.Var) and operand.name in written[:position]:
            snapshot = frame.namer.fresh(f"{operand.name}_old")
            frame.emit(ir.Assign(snapshot, "copy", (operand,), frame.origin))
            operand = ir.Var(snapshot)
        return operand, position + 1

    return walk(operands, 0)[0]


def stmt_Return(frame, node):
    if node.value is None and frame.checks_only:
        if frame.compound:
            set_returned(frame)
        for loop in frame.loops:
            loop.may_return = True
        return
    if node.value is None:
        raise frame.error(UnsupportedSyntaxError, node, "return without a value",
                          "return the number to differentiate")
    if inline.returns_tuple(frame, node.value):
        inline.tuple_result(frame, node.value)
    else:
        frame.hint = frame.result_name()
        result = frame.value(node.value, frame.result_name())
        if containers.is_container_operand(frame, result) and (
                frame.top and not frame.unit.any_result or frame.compound):
            raise changes.returned(frame, node.value)
    if frame.compound:
        set_returned(frame)
    for loop in frame.loops:  # every enclosing loop must stop, not just the innermost
        loop.may_return = True


def set_returned(frame):
    """``returned = True``, written where something reads it: the ``BreakIf`` of an
    enclosing loop, the guard after an enclosing statement that more statements follow,
    or a guard or loop already written.  (Any read written later is one of the first
    two: the statement that holds it comes after one that holds this ``return``.)"""
    flag = frame.returned_flag()
    if frame.loops or frame.followed or flag in frame.flag_reads:
        frame.emit(frame.flag_set(flag, True))


def stmt_Break(frame, node):
    frame.emit(frame.flag_set(frame.loops[-1].stop, True))


def stmt_Continue(frame, node):
    frame.emit(frame.flag_set(frame.loops[-1].skip, True))


def stmt_If(frame, node):
    frame.hint = "cond"
    test = expressions.condition(frame, node.test)
    if isinstance(test, ir.Const):  # decided now: `if DEBUG:`
        frame.block(node.body if test.value else node.orelse)
        return
    control.enter_compound(frame, node)
    origin = frame.origin
    with frame.nested():
        body = frame.sub_block(node.body)
        orelse = frame.sub_block(node.orelse)
    frame.emit(ir.If(test.name, body, orelse, origin))


def assign(frame, name, value_node, fresh=False):
    """``name = value_node``; with ``fresh``, into a new variable (``afresh``: a loop
    body binding the name again that nothing after reads the old value of)."""
    frame.hint = name
    if isinstance(value_node, ast.Constant) and isinstance(value_node.value, str) and (
            not frame.compound):  # a dict's key, named: read as the constant it is
        frame.mapping[name] = ir.Const(value_node.value)
        return
    held = function_values.held_element(frame, value_node)
    if held is not None:  # ``act = acts[i]``: the function the container holds, by alias
        frame.mapping[name] = held
        return
    target = frame.namer.fresh(name) if fresh else frame.target_name(name)
    operand = frame.value(value_node, target)
    aliased = operand != ir.Var(target) and containers.is_container_operand(frame, operand)
    if aliased:
        operand = changes.bind(frame, name, operand)
    frame.mapping[name] = operand if aliased else ir.Var(target)


def unpack_value(frame, target, value_node):
    """Evaluate the right side of a tuple assignment into operands (a nested tuple)."""
    if isinstance(value_node, ast.Tuple):
        if isinstance(target, ast.Tuple) and len(target.elts) != len(value_node.elts):
            raise frame.error(UnsupportedSyntaxError, value_node,
                              f"{len(value_node.elts)} values assigned to "
                              f"{len(target.elts)} names", "match the counts")
        subtargets = target.elts if isinstance(target, ast.Tuple) else [None] * len(
            value_node.elts)
        return tuple(unpack_value(frame, t, v) for t, v in zip(subtargets, value_node.elts))
    if isinstance(target, ast.Tuple):
        values = inline.unpacked_call(frame, value_node, len(target.elts), [
            e.id if isinstance(e, ast.Name) else None for e in target.elts])
        if values is not None:
            return values
        raise frame.error(UnsupportedSyntaxError, value_node,
                          "unpacking a value that is not a tuple written out is not supported",
                          "write the values out: `a, b = x, y`, or call a def function "
                          "that returns them: `return x, y`")
    return frame.value(value_node)


def bind(frame, target, operand):
    if isinstance(target, ast.Name) and containers.is_container_operand(frame, operand):
        frame.mapping[target.id] = changes.bind(frame, target.id, operand)  # an alias
        return
    if isinstance(target, ast.Name):
        name = frame.target_name(target.id)
        frame.emit(ir.Assign(name, "copy", (_flat(operand, frame, target),), frame.origin))
        frame.mapping[target.id] = ir.Var(name)
        return
    if not isinstance(operand, tuple) or len(operand) != len(target.elts):
        raise frame.error(UnsupportedSyntaxError, target, "these names cannot be unpacked "
                          "from the value", "write the values out: `a, b = x, y`")
    for sub_target, sub_operand in zip(target.elts, operand):
        bind(frame, sub_target, sub_operand)


_STATEMENTS = {ast.Pass: stmt_Pass, ast.FunctionDef: stmt_FunctionDef, ast.Raise: stmt_Raise,
               ast.Assert: stmt_Raise, ast.Import: stmt_Import, ast.ImportFrom: stmt_Import,
               ast.Expr: stmt_Expr, ast.Assign: stmt_Assign, ast.Return: stmt_Return,
               ast.Break: stmt_Break, ast.Continue: stmt_Continue, ast.If: stmt_If,
               ast.For: loops.stmt_For, ast.While: loops.stmt_While, ast.Try: attempts.stmt_Try}


def _flat(operand, frame, node):
    if isinstance(operand, tuple):
        raise frame.error(UnsupportedSyntaxError, node, "a tuple cannot be assigned to one name",
                          "unpack it into several names")
    return operand
