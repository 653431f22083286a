"""Prune: the optimizer's passes that delete what is left with nothing to do.

Expects a generated function (``optimize`` runs these with its other passes).
Guarantees the same results and the same exceptions: a statement goes only when
nothing reads what it computes and computing it cannot raise; a branch or loop
only when it is empty and its test or range cannot raise; a comment only when no
statement is left under it.

    mul = x * y           # nothing reads mul             (gone)
    if flag:                                              (gone)
        pass
"""

import ast

from .differentiate import SECTION
from .syntax import COMMENT


def blocks(function):
    """Every statement list of ``function``: its body, then the bodies nested in it."""
    stack = [function.body]
    while stack:
        block = stack.pop()
        yield block
        for stmt in block:
            for field in ("body", "orelse"):
                sub = getattr(stmt, field, None)
                if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                    stack.append(sub)


def drop_dead_statements(function, math_name, floats=frozenset()):
    """Drop assignments to names nothing reads, when computing them cannot raise."""
    read = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)}
    changed = False
    for block in blocks(function):
        keep = []
        for stmt in block:
            target = assigned_name(stmt)
            if target is not None and target not in read and cannot_raise(stmt.value):
                changed = True
                continue
            keep.append(stmt)
        block[:] = keep
    return changed


def drop_empty_statements(function, math_name, floats=frozenset()):
    """Drop branches and loops left with nothing to do; refill bodies left empty."""
    changed = False
    for block in blocks(function):
        keep = []
        for stmt in block:
            if isinstance(stmt, (ast.If, ast.For, ast.While)):
                stmt.body = [s for s in stmt.body if not isinstance(s, ast.Pass)]
                stmt.orelse = [s for s in stmt.orelse if not isinstance(s, ast.Pass)]
                if stmt.body or stmt.orelse:
                    stmt.body = stmt.body or [ast.Pass()]
                elif isinstance(stmt, ast.If) and cannot_raise(stmt.test):
                    changed = True
                    continue
                elif isinstance(stmt, ast.For) and _is_counting(stmt.iter):
                    changed = True
                    continue
                else:
                    stmt.body = [ast.Pass()]
            keep.append(stmt)
        if len(keep) != len(block):
            block[:] = keep
    return changed


def _is_counting(node):
    """``range(n)`` or ``reversed(range(...))`` over names: iterating it cannot raise."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "reversed" and len(node.args) == 1:
            return _is_counting(node.args[0]) or isinstance(node.args[0], ast.Name)
        return node.func.id == "range" and all(
            isinstance(a, (ast.Name, ast.Constant)) for a in node.args)
    return False


def assigned_name(stmt):
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, ast.AugAssign):
        return stmt.target.id
    return None


def cannot_raise(node):
    """Names, numbers, bools and + - * of them, comparisons: nothing there raises on floats."""
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Name, ast.Constant, ast.Load, ast.UnaryOp, ast.USub, ast.UAdd,
                            ast.Not, ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq,
                            ast.NotEq, ast.BoolOp, ast.And, ast.Or, ast.Add, ast.Sub,
                            ast.Mult, ast.IfExp)):
            continue
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Add, ast.Sub, ast.Mult)):
            continue
        return False
    return True


def drop_orphan_comments(function, math_name, floats=frozenset()):
    """A comment line with nothing under it (its statements were optimized away) goes."""
    changed = False
    for block in blocks(function):
        keep = []
        for i, stmt in enumerate(block):
            following = block[i + 1] if i + 1 < len(block) else None
            if is_comment(stmt) and (following is None or is_comment(following, True)):
                changed = True
                continue
            keep.append(stmt)
        if len(keep) != len(block):
            block[:] = keep or [ast.Pass()]
    return changed


def is_comment(stmt, or_heading=False):
    """A comment on a source line (or, with ``or_heading``, a section heading too)."""
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == COMMENT
            and (or_heading or not stmt.value.args[0].value.startswith(SECTION)))
