"""Copy propagation: a name that only copies another (or a constant) is replaced by it
where every read sees the same value, in the whole function or inside one block.

    dz = dadd                  ──copies──►  dx += dadd * y
    dx += dz * y
"""

import ast

from symdiff.backend.syntax import Transformer, clone, name_nodes, statements, walk
from symdiff.optimize.fold import known_number
from symdiff.optimize.prune import (
    assigned_name,
    blocks,
)


def propagate_copies(function, math_name, floats=frozenset(), calls=None):
    """Replace a name assigned once from a name no later statement assigns (or a number).

    Top-level statements only, all found in one pass and substituted in a second.
    """
    counts = assignment_counts(function)
    last_write = {}  # name -> index of the last top-level statement assigning it
    for index, stmt in enumerate(function.body):
        for node in statements(stmt):
            for target in _targets(node):
                last_write[target] = index
    replacements = {}
    keep = []
    for index, stmt in enumerate(function.body):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
            if counts.get(name) == 1 and (
                    (isinstance(value, ast.Name) and last_write.get(value.id, -1) < index)
                    or known_number(value) is not None):
                if isinstance(value, ast.Name) and value.id in replacements:
                    value = replacements[value.id]
                replacements[name] = value
                continue
        keep.append(stmt)
    if not replacements:
        return False
    function.body[:] = keep
    _Rename(replacements).visit(function)
    return True


def propagate_local_copies(function, math_name, floats=frozenset(), calls=None):
    """Inside a block (a loop body, say): ``a = b`` where ``a`` is assigned nowhere else
    and read only further down the block, and ``b`` does not change before those reads."""
    sites = {}
    for node in statements(function):
        for target in _targets(node):
            sites[target] = sites.get(target, 0) + 1
    readers = {}
    for node in name_nodes(function):
        if isinstance(node.ctx, ast.Load):
            readers[node.id] = readers.get(node.id, 0) + 1
    changed = False
    for block in blocks(function):
        i = 0
        while i < len(block):
            stmt = block[i]
            name = assigned_name(stmt) if isinstance(stmt, ast.Assign) else None
            value = getattr(stmt, "value", None)
            if (name is None or sites.get(name) != 1 or block is function.body
                    or not (isinstance(value, ast.Name) or known_number(value) is not None)):
                i += 1
                continue
            rest = block[i + 1:]
            seen = sum(1 for s in rest for n in name_nodes(s)
                       if n.id == name and isinstance(n.ctx, ast.Load))
            last = max((j for j, s in enumerate(rest) if reads_name(s, name)), default=-1)
            source = value.id if isinstance(value, ast.Name) else None
            if seen != readers.get(name, 0) or (source is not None and any(
                    source in _targets(n) for s in rest[:last + 1] for n in walk(s))):
                i += 1
                continue
            renamer = _Rename({name: value})
            block[i + 1:] = [renamer.visit(s) for s in rest]
            del block[i]
            changed = True
        # loop bodies are walked by _blocks as well
    return changed


def _targets(node):
    """Names a statement assigns directly."""
    if isinstance(node, ast.Assign):
        targets = node.targets
        if len(targets) == 1 and targets[0].__class__ is ast.Name:
            return [targets[0].id]
        return [n.id for t in targets for n in walk(t) if isinstance(n, ast.Name)]
    if isinstance(node, (ast.AugAssign, ast.For)):
        if node.target.__class__ is ast.Name:
            return [node.target.id]
        return [n.id for n in walk(node.target) if isinstance(n, ast.Name)]
    return []


class _Rename(Transformer):
    def __init__(self, replacements):
        self.replacements = replacements

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.replacements:
            return clone(self.replacements[node.id])
        return node


def assignment_counts(function):
    """How often each name is assigned: 1 for one plain assignment run once, else 2+."""
    counts = {a.arg: 1 for a in function.args.args}
    stack = [(stmt, False) for stmt in function.body]
    while stack:
        node, in_loop = stack.pop()
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.For)):
            targets = [node.target]
        repeated = in_loop or not isinstance(node, ast.Assign)
        for target in targets:
            for sub in name_nodes(target):
                counts[sub.id] = counts.get(sub.id, 0) + 1 + repeated
        inner = in_loop or isinstance(node, (ast.For, ast.While))
        for field in ("body", "orelse"):
            for child in getattr(node, field, None) or []:
                if isinstance(child, ast.stmt):
                    stack.append((child, inner))
    return counts


def reads_name(node, name):
    """Whether ``node`` reads the name ``name``."""
    return any(n.id == name for n in name_nodes(node))
