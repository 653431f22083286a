"""Operands and the one statement most rules emit: ``target = op(*args)``.

Expects a ``Frame`` (the body being lowered) for its names, its current origin and its
hint.  ``emit_op`` writes one ``ir.Assign`` of a primitive, spelled once as the user
called it (``family``, ``call``, ``module``), into the frame's block and returns the
operand holding its value; the helpers here turn operands into the small syntax trees
a ``Compute`` holds and back.

    emit_op(frame, "mul", (Var("x"), Const(2.0)), None)   ->  mul_z = x * 2.0
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.primitives.registry import rule_of
from symdiff.primitives.texts import uses_output

IN_PLACE_OPS = ("add", "sub")  # ops whose result may overwrite one of their own inputs


def emit_op(frame, op, args, target, family=None, call=None, module=None):
    """Emit ``target = op(*args)`` (a fresh name when ``target`` is None, or when an
    op that cannot write in place reads it); the operand of the result."""
    if any(isinstance(a, ir.Ref) or (isinstance(a, ir.Var) and a.name in frame.unit.containers)
           for a in args):
        raise frame.error(UnsupportedSyntaxError, frame.statement_node,
                          "a container stands where a number is needed",
                          "read one of its numbers (xs[i]), or reduce it: sum(xs)")
    if target is None or (ir.Var(target) in args and op not in IN_PLACE_OPS):
        named = op.removesuffix("_like")  # (``dtype=x.dtype``: the op's own name)
        base, _, count = named.rpartition("_")
        target = frame.namer.fresh(f"{base if count.isdigit() else named}_{frame.hint}")
    frame.emit(ir.Assign(target, op, tuple(args), frame.origin, call=call, family=family,
                         module=module))
    note_output_read(frame, op, target)
    return ir.Var(target)


def note_output_read(frame, op, target):
    """A rule that reads its own output (``exp``, ``tanh``) reads the target in the
    reverse sweep: a later branch or loop must not overwrite it in place."""
    rule = frame.unit.program_rules.get(op) or rule_of(op)
    if not frame.compound and rule is not None and uses_output(rule):
        frame.unit.read.add(target)


def operand_ast(operand):
    """The expression an operand stands for: its name, its text (``math.pi``) or value."""
    if isinstance(operand, ir.Var):
        return ast.Name(operand.name, ast.Load())
    if operand.text:
        return ast.parse(operand.text, mode="eval").body
    return ast.Constant(operand.value)


def reads_of(*operands):
    """The names among ``operands``."""
    return tuple(o.name for o in operands if isinstance(o, ir.Var))


def any_of(flags):
    """``a or b or ...`` of flag names."""
    names = [ast.Name(flag, ast.Load()) for flag in flags]
    return names[0] if len(names) == 1 else ast.BoolOp(ast.Or(), names)
