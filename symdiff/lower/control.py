"""Control: what runs after a statement that may leave its block, and the copies a
top-level branch or loop needs first.

Expects a ``Frame``.  After a statement that may ``return``, ``break`` or ``continue``,
the rest of its block runs under ``if go_on:``, where ``go_on`` is none of the flags
those exits set; before a branch or loop of the straight-line code, a variable it
updates that earlier code still reads is copied, so the reverse sweep reads the value
the earlier code saw.

    for i in range(n):                  for i in range(n):
        if x > 1.0:                         cond = x > 1.0
            if x > 2.0:                     if cond:
                break           ──►             cond_1 = x > 2.0
            x = x - 1.0                         if cond_1: stop = True
        x = x * 2.0                             else: x = x - 1.0
                                            go_on = not stop
                                            if go_on: x = x * 2.0
                                            if stop: break
"""

import ast

from symdiff.frontend.exits import assigned_user_names, direct_exits
from symdiff.ir import nodes as ir
from symdiff.lower.operands import any_of


def exit_flags(frame, stmt):
    """The flags that tell, after ``stmt``, that the rest of the block must not run."""
    kinds = direct_exits(stmt)
    loop = frame.loops[-1] if frame.loops else None
    flags = []
    if "return" in kinds:
        flags.append(frame.returned_flag())
    if loop is not None and "break" in kinds:
        flags.append(loop.stop)
    if loop is not None and "continue" in kinds:
        flags.append(loop.skip)
    return flags


def guarded(frame, flags, rest, stmt):
    frame.set_origin(stmt)
    frame.flag_reads.update(flags)
    test = ast.UnaryOp(ast.Not(), any_of(flags))
    go_on = frame.compute(frame.namer.fresh("go_on"), test, tuple(flags))
    enter_compound(frame, ast.Module(body=rest, type_ignores=[]))  # the rest is a branch now
    with frame.nested():
        body = frame.sub_block(rest)
    frame.emit(ir.If(go_on, body, [], frame.origin))


def enter_compound(frame, node):
    """Before a top-level branch or loop: copy variables it updates that earlier code
    reads; before any branch or loop, a helper's flag parameter it assigns.

    The reverse sweep reads straight-line values directly, so a loop must not
    overwrite a value an earlier straight-line statement still needs.  (A read
    inside an earlier branch or loop is saved by ``differentiate`` instead: the
    variable may be unassigned here, and copying it would raise.)
    """
    for name in assigned_user_names(node):
        current = frame.mapping.get(name)
        if is_flag(current):  # a helper's flag parameter (``inline``), assigned in the
            fresh = frame.namer.fresh(name)  # branch: one variable on every path, in a
            frame.emit(ir.Assign(fresh, "copy", (current,), frame.origin))  # loop too
            frame.mapping[name] = ir.Var(fresh)
        elif not frame.compound and isinstance(current, ir.Var) and (
                current.name in frame.unit.read) and (
                current.name not in frame.unit.containers):  # a container's reverse reads
            # no element of it: the sweeps save a container a loop builds anew themselves
            fresh = frame.namer.fresh(name)
            frame.emit(ir.Assign(fresh, "copy", (current,), frame.origin))
            frame.mapping[name] = ir.Var(fresh)


def is_flag(operand):
    """Whether ``operand`` is a flag, the constant ``None`` or a string: a helper's
    parameter given one is bound as the constant it is (``inline``), so a test of it
    (``if weights is None:``) is decided when the gradient is built, even where the
    helper assigns the parameter again (``enter_compound`` gives it a variable before a
    branch or a loop that does)."""
    return isinstance(operand, ir.Const) and (operand.value is None or isinstance(
        operand.value, str))
