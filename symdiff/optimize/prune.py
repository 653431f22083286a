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
import math

from symdiff.ad.reverse import SECTION
from symdiff.backend.syntax import Comment, comment_text, walk
from symdiff.primitives.registry import names, rule_of, total, total_math


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


def drop_dead_statements(function, math_name, floats=frozenset(), calls=None):
    """Drop assignments whose value nothing needs, when computing them cannot raise.

    A name is needed when a statement that must stay reads it: a call, a test, a
    loop's range, the return, an assignment that may raise, or an assignment to
    another needed name.  So a loop's running sum that only the function's value
    used (``s = s + t`` inside the loop) goes, though it reads itself.  So does an
    assignment every read of which first meets another assignment of the name in
    its own block (the reverse sweep recomputing a value the forward one computed).
    """
    statements = [stmt for block in blocks(function) for stmt in block]
    reads = {id(stmt): _own_reads(stmt) for stmt in statements}
    removable = {}  # id of a statement that goes unless its target is needed -> target
    for stmt in statements:
        target = assigned_name(stmt) if isinstance(stmt, (ast.Assign, ast.AugAssign)) else None
        if target is not None and cannot_raise(stmt.value, math_name):
            removable[id(stmt)] = target
    needed = set()
    pending = {}  # name -> the names the removable statements assigning it read
    for stmt in statements:
        if id(stmt) in removable:
            pending.setdefault(removable[id(stmt)], []).extend(reads[id(stmt)])
        else:
            needed.update(reads[id(stmt)])
    work = list(needed)
    while work:
        for name in pending.pop(work.pop(), ()):
            if name not in needed:
                needed.add(name)
                work.append(name)
    uncovered, read_defs = _reaching_reads(function, reads)
    changed = False
    for block in blocks(function):
        keep = [s for s in block if id(s) not in removable or (
            removable[id(s)] in needed and (removable[id(s)] in uncovered or id(s) in read_defs))]
        if len(keep) != len(block):
            block[:] = keep
            changed = True
    return changed


def _reaching_reads(function, reads):
    """Names read before an assignment in the same block (``uncovered``: any assignment
    may reach such a read), and the assignments that reach the other reads.  ``reads``:
    each statement's own reads, by id."""
    uncovered, read_defs = set(), set()
    for block in blocks(function):
        last = {}  # name -> the latest plain assignment to it so far in this block
        for stmt in block:
            for name in reads[id(stmt)]:
                if name in last:
                    read_defs.add(id(last[name]))
                else:
                    uncovered.add(name)
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    for node in walk(target):
                        if isinstance(node, ast.Name):
                            last[node.id] = stmt
            elif isinstance(stmt, ast.AugAssign):
                last[stmt.target.id] = stmt
            elif isinstance(stmt, (ast.If, ast.For, ast.While)):
                for node in walk(stmt):  # what a branch or loop may assign
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                        last.pop(node.id, None)
                if isinstance(stmt, ast.While):  # its test runs after each iteration too
                    uncovered.update(reads[id(stmt)])
    return uncovered, read_defs


def _own_reads(stmt):
    """The names ``stmt`` reads itself, not in the statements nested in it."""
    parts = []
    for field, value in ast.iter_fields(stmt):
        if field in ("body", "orelse"):
            continue
        parts.extend(value if isinstance(value, list) else [value])
    if isinstance(stmt, ast.AugAssign):
        parts.append(ast.Name(stmt.target.id, ast.Load()))
    return [n.id for p in parts if isinstance(p, ast.AST) for n in walk(p)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def drop_empty_statements(function, math_name, floats=frozenset(), calls=None):
    """Drop branches and loops left with nothing to do (a loop whose variable is read
    after it does something); refill bodies left empty."""
    read = ints = None  # the names read anywhere, and those holding ints: once needed
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
                elif isinstance(stmt, ast.For) and _is_counting(
                        stmt.iter, ints := ints if ints is not None else _int_names(function)
                ) and not any(
                        isinstance(n, ast.Name) and n.id in (read := read or _loads(function))
                        for n in walk(stmt.target)):
                    changed = True
                    continue
                else:
                    stmt.body = [ast.Pass()]
            keep.append(stmt)
        if len(keep) != len(block):
            block[:] = keep
    return changed


def _loads(function):
    return {n.id for n in walk(function) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)}


def _is_counting(node, ints):
    """``range(...)`` or ``reversed(range(...))`` over ints: iterating it cannot raise."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "reversed" and len(node.args) == 1:
            return _is_counting(node.args[0], ints)
        return node.func.id == "range" and all(_is_int(a, ints) for a in node.args)
    return False


def _int_names(function):
    """Names that certainly hold ints: ``int(...)``, counters, loop variables over ``range``."""
    values = assigned_values(function)
    return largest_consistent(values, values, _is_int)


def assigned_values(function):
    """Each name's assigned values (``d += e`` counts as ``d + e``, a loop variable over a
    range as ``0``); None for a name bound some other way (a parameter, a tuple target,
    another loop's variable)."""
    values = {arg.arg: None for arg in function.args.args}

    def add(name, value):
        if values.get(name, []) is not None:
            values[name] = values.get(name, []) + [value]

    for node in walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in (n.id for n in walk(target) if isinstance(n, ast.Name)):
                    if isinstance(target, ast.Name):
                        add(name, node.value)
                    else:
                        values[name] = None
        elif isinstance(node, ast.AugAssign):
            add(node.target.id, ast.BinOp(ast.Name(node.target.id, ast.Load()), node.op,
                                          node.value))
        elif isinstance(node, ast.For):
            counting = isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Call) and (
                isinstance(node.iter.func, ast.Name) and node.iter.func.id in ("range",
                                                                               "reversed"))
            if counting:
                add(node.target.id, ast.Constant(0))
            else:
                for sub in walk(node.target):
                    if isinstance(sub, ast.Name):
                        values[sub.id] = None
    return values


def largest_consistent(names, values, holds):
    """The largest set S of ``names`` such that ``holds(value, S)`` for every value assigned
    to a name of S (names with no known values drop out)."""
    found = {n for n in names if values.get(n, ()) is not None}
    shrank = True
    while shrank:
        shrank = False
        for name in sorted(found):
            if not all(holds(v, found) for v in values.get(name, ())):
                found.discard(name)
                shrank = True
    return found


def _is_int(node, ints):
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.Name):
        return node.id in ints
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in ("int", "len")
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.USub, ast.UAdd)) and _is_int(node.operand, ints)
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)) and (
            _is_int(node.left, ints) and _is_int(node.right, ints))
    return False


def assigned_name(stmt):
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, ast.AugAssign):
        return stmt.target.id
    return None


def cannot_raise(node, math_name=None):
    """Names, numbers, bools and + - * of them, division by a nonzero number, comparisons,
    ``abs`` (and, given the name ``math`` goes by, its functions ``registry.total_math``): nothing
    there raises on floats."""
    for sub in walk(node):
        if isinstance(sub, (ast.Name, ast.Constant, ast.Load, ast.UnaryOp, ast.USub, ast.UAdd,
                            ast.Not, ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq,
                            ast.NotEq, ast.BoolOp, ast.And, ast.Or, ast.Add, ast.Sub,
                            ast.Mult, ast.IfExp)):
            continue
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Add, ast.Sub, ast.Mult)):
            continue
        if isinstance(sub, ast.Div):
            continue  # the operator: its BinOp is judged on the line below
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Div) and _nonzero(sub.right):
            continue  # x / 4.0 raises nothing
        if isinstance(sub, ast.Call) and _is_total(sub, math_name):
            continue
        if (isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
                and sub.value.id == math_name and total_math(sub.attr)):
            continue
        return False
    return True


def _nonzero(node):
    """A number literal other than zero (and finite: ``x / inf`` is fine too, but rare)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return (isinstance(node, ast.Constant) and type(node.value) in (int, float)
            and node.value != 0 and math.isfinite(node.value))


def _is_total(call, math_name):
    """``abs(a)`` or ``math.tanh(a)``-like: a call defined on every float argument."""
    func = call.func
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    if isinstance(func, ast.Name):
        op = names("builtin").get(func.id)
        return op is not None and total(op) and len(call.args) == rule_of(op).arity
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == math_name and total_math(func.attr))


def drop_orphan_comments(function, math_name, floats=frozenset(), calls=None):
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
    return isinstance(stmt, Comment) and (or_heading or not comment_text(stmt).startswith(SECTION))
