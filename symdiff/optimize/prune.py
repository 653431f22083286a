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
from symdiff.backend.syntax import Comment, comment_text, name_nodes, statements
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
                    for node in name_nodes(target):
                        last[node.id] = stmt
            elif isinstance(stmt, ast.AugAssign):
                last[stmt.target.id] = stmt
            elif isinstance(stmt, (ast.If, ast.For, ast.While)):
                for node in name_nodes(stmt):  # what a branch or loop may assign
                    if isinstance(node.ctx, ast.Store):
                        last.pop(node.id, None)
                if isinstance(stmt, ast.While):  # its test runs after each iteration too
                    uncovered.update(reads[id(stmt)])
    return uncovered, read_defs


def _own_reads(stmt):
    """The names ``stmt`` reads itself, not in the statements nested in it."""
    if isinstance(stmt, _SIMPLE):  # nothing nested: every name in it
        found = [n.id for n in name_nodes(stmt) if isinstance(n.ctx, ast.Load)]
    else:
        found = [n.id for field in stmt._fields if field not in ("body", "orelse")
                 for value in _items(getattr(stmt, field, None))
                 if isinstance(value, ast.AST) for n in name_nodes(value)
                 if isinstance(n.ctx, ast.Load)]
    if isinstance(stmt, ast.AugAssign):
        found.append(stmt.target.id)
    return found


_SIMPLE = (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)


def _items(value):
    return value if isinstance(value, list) else [value]


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
                        n.id in (read := read or _loads(function))
                        for n in name_nodes(stmt.target)):
                    changed = True
                    continue
                else:
                    stmt.body = [ast.Pass()]
            keep.append(stmt)
        if len(keep) != len(block):
            block[:] = keep
    return changed


def _loads(function):
    return {n.id for n in name_nodes(function) if isinstance(n.ctx, ast.Load)}


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

    for node in statements(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in (n.id for n in name_nodes(target)):
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
                for sub in name_nodes(node.target):
                    values[sub.id] = None
    return values


def largest_consistent(names, values, holds, given=frozenset()):
    """The largest set S of ``names`` such that ``holds(value, S | given)`` for every value
    assigned to a name of S (names with no known values drop out).

    ``holds`` must depend only on which of the names the value reads are in the set, and
    only positively (a name more never makes it fail), as ``_is_int`` does: then the
    largest set is unique, and a name is looked at again only when a name its values read
    has dropped out (linear in the size of the values, not quadratic).
    """
    found = {n for n in names if values.get(n, ()) is not None}
    seen = set(given) | found
    readers = {}  # name -> the names of ``found`` with a value that reads it
    for name in found:
        for value in values.get(name, ()):
            for node in name_nodes(value):
                if node.id in found:
                    readers.setdefault(node.id, set()).add(name)
    work = sorted(found, reverse=True)  # popped in sorted order
    queued = set(work)
    while work:
        name = work.pop()
        queued.discard(name)
        if name in found and not all(holds(v, seen) for v in values.get(name, ())):
            found.discard(name)
            if name not in given:
                seen.discard(name)
            for reader in sorted(readers.get(name, ()), reverse=True):
                if reader in found and reader not in queued:
                    work.append(reader)
                    queued.add(reader)
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
    there raises on floats.  (Each operator is judged where it stands, with its operands.)"""
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        sub = pop()
        if isinstance(sub, ast.Name):
            if not _reads(sub):
                return False
        elif isinstance(sub, ast.Constant):
            continue
        elif isinstance(sub, ast.BinOp):
            op = sub.op
            if not (isinstance(op, (ast.Add, ast.Sub, ast.Mult))
                    or isinstance(op, ast.Div) and _nonzero(sub.right)):
                return False  # x / 4.0 raises nothing
            push(sub.right)
            push(sub.left)
        elif isinstance(sub, ast.Call):
            if not _is_total(sub, math_name):
                return False
            stack.extend(reversed(sub.args))
            push(sub.func)
        elif isinstance(sub, ast.Attribute):
            if not (isinstance(sub.value, ast.Name) and sub.value.id == math_name
                    and total_math(sub.attr) and _reads(sub)):
                return False
            push(sub.value)
        elif isinstance(sub, ast.UnaryOp):
            if not isinstance(sub.op, (ast.USub, ast.UAdd, ast.Not)):
                return False
            push(sub.operand)
        elif isinstance(sub, ast.Compare):
            if not all(isinstance(op, _QUIET_COMPARISONS) for op in sub.ops):
                return False
            stack.extend(reversed(sub.comparators))
            push(sub.left)
        elif isinstance(sub, ast.BoolOp):
            if not isinstance(sub.op, (ast.And, ast.Or)):
                return False
            stack.extend(reversed(sub.values))
        elif isinstance(sub, ast.IfExp):
            push(sub.orelse)
            push(sub.body)
            push(sub.test)
        elif not isinstance(sub, _QUIET_LEAVES):
            return False
    return True


_QUIET_COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)
_QUIET_LEAVES = (ast.Load, ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or, ast.Add, ast.Sub,
                 ast.Mult, ast.Div) + _QUIET_COMPARISONS


def _reads(node):
    """A name or attribute read (not assigned or deleted)."""
    ctx = getattr(node, "ctx", None)
    return ctx is None or isinstance(ctx, ast.Load)


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
