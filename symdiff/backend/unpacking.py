"""The parts of one call read one after another, written as the call unpacked.

A function returning several values is differentiated one record per value
(``primitives.registry.pairs``), so the generated text reads each part of the call on
its own line.  Where every part is read, in order, into names, one line after another,
the call is written once and unpacked, as the user's code wrote it:

    w = np.linalg.eigh(S)[0]                w, V = np.linalg.eigh(S)
    V = np.linalg.eigh(S)[1]        ->

Expects Python statements (``ast``) of one block.  Guarantees the same statements with
each such run of assignments replaced by one tuple assignment; any other run (a part
left out, another order, a call whose number of values is not its record's) as it was.
"""

import ast

from symdiff.primitives.registry import array_names, array_pairs, pairs
from symdiff.primitives.array_splits import splits


def unpacked(statements):
    """``statements`` with each run of a call's parts read in order written unpacked."""
    out, at = [], 0
    while at < len(statements):
        run = _run(statements, at)
        if run:
            targets = [s.targets[0] for s in statements[at:at + run]]
            tuple_target = ast.Tuple([ast.Name(t.id, ast.Store()) for t in targets],
                                     ast.Store())
            out.append(ast.Assign([tuple_target], statements[at].value.value, None))
            at += run
        else:
            out.append(statements[at])
            at += 1
    return out


def _run(statements, at):
    """The number of statements from ``at`` reading every part of one call in order,
    or 0."""
    first = _part(statements[at])
    if first is None or first[1] != 0:
        return 0
    call, _ = first
    count = _values(call.func)
    if count is None or at + count > len(statements):
        return 0
    dumped = ast.dump(call)
    for k in range(count):
        part = _part(statements[at + k])
        if part is None or part[1] != k or ast.dump(part[0]) != dumped:
            return 0
    names = [statements[at + k].targets[0].id for k in range(count)]
    reads = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
    if len(set(names)) != count or reads & set(names[:-1]):
        return 0  # (a part written into a name the call reads changes what follows)
    return count


def _part(stmt):
    """``(call, k)`` of ``name = call(...)[k]``, or None."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)):
        return None
    value = stmt.value
    if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Call)
            and isinstance(value.slice, ast.Constant) and type(value.slice.value) is int):
        return None
    return value.value, value.slice.value


def _values(func):
    """How many values the function ``func`` names returns, by its records; None for
    one that is not known to return a fixed number (a split's depends on its call)."""
    dotted = []
    while isinstance(func, ast.Attribute):
        dotted.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or not dotted:
        return None
    name = ".".join(reversed(dotted))  # ``linalg.eigh`` of ``np.linalg.eigh``
    op = array_names()["functions"].get(name, name)
    if splits(op):
        return None
    halves = pairs().get(op) or array_pairs().get(op)
    return len(halves) if halves else None
