"""Copy propagation: a name that only copies another (or a constant) is replaced by it
where every read sees the same value, in the whole function or inside one block.

    dz = dadd                  ──copies──►  dx += dadd * y
    dx += dz * y

A write to a place (``xs[k] = v``, ``dxs[i] += g``) is never a copy, and it changes its
container: a copy of the container is not propagated past it.
"""

from symdiff.core import expr as ex
from symdiff.optimize.analyses import assignment_counts, read_counts, write_counts
from symdiff.optimize.facts import known_number
from symdiff.optimize.walk import (
    blocks,
    is_compound,
    plain_target,
    reads,
    renamed,
    rewrite,
    rewrite_all,
    statements,
    writes,
)


def propagate_copies(function, context):
    """Replace a name assigned once from a name no later statement assigns (or a number).

    Top-level statements only, all found in one pass and substituted in a second.
    """
    counts = context.analysis(assignment_counts, function)
    last_write = {}  # name -> index of the last top-level statement assigning it
    for index, stmt in enumerate(function.body):
        for node in statements([stmt]) if is_compound(stmt) else (stmt,):
            for target in writes(node):
                last_write[target] = index
    replacements = {}
    keep = []
    for index, stmt in enumerate(function.body):
        name = plain_target(stmt)
        if name is not None:
            value = stmt.value
            if counts.get(name) == 1 and (
                    (isinstance(value, ex.Name) and last_write.get(value.id, -1) < index)
                    or known_number(value) is not None):
                if isinstance(value, ex.Name) and value.id in replacements:
                    value = replacements[value.id]
                replacements[name] = value
                continue
        keep.append(stmt)
    if not replacements:
        return False
    function.body[:] = keep
    rewrite_all(function.body, lambda e: renamed(e, replacements, context))
    return True


def propagate_local_copies(function, context):
    """Inside a block (a loop body, say): ``a = b`` where ``a`` is assigned nowhere else
    and read only further down the block, and ``b`` does not change before those reads."""
    sites = context.analysis(write_counts, function)
    readers = context.analysis(read_counts, function)
    changed = False
    for block in blocks(function):
        if block is function.body:
            continue
        i = 0
        while i < len(block):
            stmt = block[i]
            name = plain_target(stmt)
            value = getattr(stmt, "value", None)
            if (name is None or sites.get(name) != 1
                    or not (isinstance(value, ex.Name) or known_number(value) is not None)):
                i += 1
                continue
            rest = block[i + 1:]
            inner = list(statements(rest))
            seen = sum(1 for s in inner for n in reads(s, context) if n == name)
            last = max((j for j, s in enumerate(rest) if _mentions(s, name, context)),
                       default=-1)
            source = value.id if isinstance(value, ex.Name) else None
            if seen != readers.get(name, 0) or (source is not None and any(
                    source in writes(n) for n in statements(rest[:last + 1]))):
                i += 1
                continue
            for s in inner:
                rewrite(s, lambda e: renamed(e, {name: value}, context))
            del block[i]
            changed = True
    return changed


def _mentions(stmt, name, context):
    """Whether ``stmt`` or a statement nested in it reads or writes ``name``."""
    return any(name in reads(s, context) or name in writes(s) for s in statements([stmt]))
