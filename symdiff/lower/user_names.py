"""The user's names for the values lowering computed under names of its own.

Lowering computes a value a tuple unpacks, or a helper returns, under a name of its own
and then copies it into the name the user's code gives it (``s, c = helper(x)``: the
helper's ``return`` is ``helper_result0, helper_result1``, then ``s = helper_result0``).
Copy propagation later keeps the first name, so the generated text would read
``helper_result0`` where the user wrote ``s``.  This pass computes such a value into the
user's name in the first place and drops the copy.

Expects a normalized ``Program``.  Guarantees the same program with each copy
``T = S`` dropped, and ``S``'s one definition writing ``T``, where that changes no value:
``S`` is an operation's target (``ir.Assign``) defined once and read only by the copy,
``T`` is written by the copy alone (a name a branch or a loop writes again keeps the copy
lowering made of its value before it),
both stand in one block, the operation does not read ``T`` (a statement never writes a
name it reads: ``p = p * x`` is ``mul_p = p * x; p = mul_p``), and nothing between them
reads or writes ``T``; neither is a parameter, a container or the result, and ``S`` is
no name of the user's function (``s = b`` of the user's ``b`` keeps both).

    helper_result0 = sin(x)                s = sin(x)
    helper_result1 = cos(x)        ->      c = cos(x)
    s = copy(helper_result0)
    c = copy(helper_result1)
"""

import ast
from collections import Counter
from dataclasses import replace

from symdiff.ir import nodes as ir


def name_by_the_user(program, tree):
    """``program`` with its values computed into the names the user gives them (``tree``:
    the function's own syntax tree, whose names are the user's and stay)."""
    written = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    defined, read = Counter(), Counter()
    for stmt in ir.walk(program.body):
        defined.update(_defines(stmt))
        read.update(ir.reads(stmt))
    if isinstance(program.result, ir.Var):
        read[program.result.name] += 1
    kept = set(program.params) | set(program.containers)
    return replace(program, body=_block(program.body, defined, read, (kept, kept | written)))


def _defines(stmt):
    if isinstance(stmt, ir.Try):
        return [stmt.caught] + ([stmt.error] if stmt.error else [])
    target = getattr(stmt, "target", None)
    return [target] if isinstance(target, str) else []


def _block(block, defined, read, kept):
    out = []
    for stmt in block:
        stmt = _nested(stmt, defined, read, kept)
        at = _renamed_at(out, stmt, defined, read, kept)
        if at is None:
            out.append(stmt)
        else:
            out[at] = replace(out[at], target=stmt.target)
    return out


def _nested(stmt, defined, read, kept):
    if isinstance(stmt, ir.If):
        return replace(stmt, body=_block(stmt.body, defined, read, kept),
                       orelse=_block(stmt.orelse, defined, read, kept))
    if isinstance(stmt, ir.While):
        return replace(stmt, pre=_block(stmt.pre, defined, read, kept),
                       body=_block(stmt.body, defined, read, kept))
    if isinstance(stmt, (ir.For, ir.Try)):
        return replace(stmt, body=_block(stmt.body, defined, read, kept))
    return stmt


def _renamed_at(out, stmt, defined, read, kept):
    """The position in ``out`` of the definition the copy ``stmt`` can be folded into,
    or None."""
    if not (isinstance(stmt, ir.Assign) and stmt.op == "copy" and len(stmt.args) == 1
            and isinstance(stmt.args[0], ir.Var)):
        return None
    source, target = stmt.args[0].name, stmt.target
    targets_kept, sources_kept = kept
    if source in sources_kept or target in targets_kept or defined[source] != 1 or read[source] != 1 or (
            defined[target] != 1):
        return None
    for at in range(len(out) - 1, -1, -1):
        earlier = out[at]
        if isinstance(earlier, ir.Assign) and earlier.target == source:
            return None if target in ir.reads(earlier) else at  # ``p = p * x`` stays two
        if _touches(earlier, target):
            return None
    return None


def _touches(stmt, name):
    """Whether ``stmt`` (or a statement nested in it) reads or writes ``name``."""
    return any(name in ir.reads(s) or name in _defines(s) for s in ir.walk([stmt]))
