"""Copies back: a copy that assigns a name the value it already holds goes, and a second
copy of a name is made of the first, so copy propagation can drop it.

    for i in ...:                            for i in ...:
        dadd_s = ds        ──echoes──►           dadd_s = ds
        dx[i] -= ds * g                          dx[i] -= ds * g
        ds = dadd_s                              dd = dadd_s * 200.0
        dd = dadd_s * 200.0

    dmul_x = dx                              dmul_x = dx
    dcos_x = dx            ──echoes──►       dcos_x = dmul_x
    dx = dcos_x * s                          dx = dcos_x * s

Expects the sweeps IR and its ``Context``.  Within one block, after ``a = b`` and while
no statement of the block (or nested in one) writes ``a`` or ``b``, ``a`` and ``b`` are
the same object: ``b = a`` then rebinds ``b`` to what it is bound to (it goes), and
``c = b`` binds ``c`` to what ``a`` is bound to (it reads ``a`` instead, when nothing
else in the function writes ``a``; ``copies.propagate_local_copies`` then replaces
``c`` by ``a`` where it may).  Guarantees the same results and exceptions: a copy of a
name raises nothing and computes nothing.
"""

from symdiff.core import expr as ex
from symdiff.optimize.analyses import write_counts
from symdiff.optimize.walk import blocks, plain_target, statements, writes

__all__ = ["drop_copies_back"]


def drop_copies_back(function, context):
    """Rewrite the copies of every block of ``function``; whether one was."""
    sites = context.analysis(write_counts, function)
    changed = False
    for block in blocks(function):
        changed |= _block(block, sites)
    return changed


def _block(block, sites):
    """The copies of one block (statements nested in it are other blocks)."""
    copied = {}  # a name assigned by a copy in this block -> the name it copies
    copies_of = {}  # the other way: a copied name -> its copies, in the order made
    changed = False
    i = 0
    while i < len(block):
        stmt = block[i]
        name = plain_target(stmt)
        source = stmt.value.id if name is not None and type(stmt.value) is ex.Name else None
        if source is not None and copied.get(source) == name:
            del block[i]  # ``b = a`` right after ``a = b``: b is a already
            changed = True
            continue
        if source is not None and source != name:
            first = next((c for c in copies_of.get(source, ()) if sites.get(c) == 1), None)
            if first is not None and first != name:
                stmt.value = ex.Name(first)
                source, changed = first, True
        for written in {n for s in statements([stmt]) for n in writes(s)}:
            _forget(written, copied, copies_of)
        if source is not None and source != name:
            copied[name] = source
            copies_of.setdefault(source, {})[name] = None
        i += 1
    return changed


def _forget(name, copied, copies_of):
    """Drop every copy ``name`` takes part in: it was written."""
    source = copied.pop(name, None)
    if source is not None:
        del copies_of[source][name]
    for copy in copies_of.pop(name, ()):
        del copied[copy]
