"""Tape bridge: each operation of a lowered program, as the tape engine computes it.

Expects an operation name of the lowered IR (``"mul"``, ``"sin"``, ``"hypot_3"``, the op of
a function with a ``symdiff.defgrad`` rule) and its ``Program``.  Guarantees a callable on
tape ``Value``s and numbers: the tape's own operation (its derivatives are the tape's,
never the registry's), or the user's function run on the tape by its rule, or by its
own code (``own_code``, so that a wrong rule shows).  An operation the tape has no
counterpart for is symdiff's bug: ``InternalError``.  The interpreter and the divergence
locator read the program through the registry's bridges.
"""

import ast
import math

from symdiff import tape
from symdiff.errors import InternalError
from symdiff.ir import nodes as ir
from symdiff.primitives.reductions import function, in_library
from symdiff.primitives.registry import rule_of

_BRIDGES = {}  # op -> its record's bridge, compiled once


def tape_op(program, op, own_code=False):
    """The tape's operation ``op``: its record's ``bridge``, an expression on Values; for
    a function with a user rule, by that rule, or by the function's own code
    (``own_code``, for the locator's local partials)."""
    if op in program.custom_functions:
        return tape.on_values(program.custom_functions[op][0], own_rule=not own_code)
    found = _BRIDGES.get(op)
    if found is None:
        found = _BRIDGES[op] = _compiled(op)
    return found


def _compiled(op):
    try:
        record = rule_of(op)
    except KeyError:
        raise InternalError("check", f"the tape engine has no operation for {op!r}") from None
    if record.bridge is None:
        raise InternalError("check", f"the tape engine has no operation for {op!r}")
    for node in ast.walk(ast.parse(record.bridge, mode="eval")):  # what it reads of the tape
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                node.value.id == "tape") and getattr(tape, node.attr, None) is None:
            raise InternalError("check", f"the tape engine has no operation for {op!r} "
                                f"(tape.{node.attr})")
    return eval(f"lambda {', '.join(record.params)}: {record.bridge}",
                {"tape": tape, "math": math, "Value": tape.Value})


def tape_reduction(op):
    """The function of a whole list a ``Reduce`` of ``op`` computes, on Values: the tape's
    own ``fsum``, ``prod`` and ``statistics`` functions; Python's ``sum``, ``min`` and
    ``max``, which add and compare Values by their operators."""
    if in_library(op):
        return tape.STATISTICS[op.partition(".")[2]]
    return getattr(tape, op, None) or function(op)


def operand(value, env):
    """The value of an IR operand (a ``Var`` read from ``env``, or a constant)."""
    if isinstance(value, ir.Var):
        return env[value.name]
    return value.value


def raw(value):
    """The number a tape ``Value`` holds; anything else as it is."""
    return value.data if isinstance(value, tape.Value) else value
