"""Array aliases: the located error for a write into an array whose memory another name
still holds and reads afterwards (a view, or the same array under another name).

Lowering reads ``y[i] = v`` as a new array (``setitem``), so the values saved for the
reverse sweep stay as they were; NumPy changes the array in place, and every view of it
(``head = y[:2]``, ``t = y.T``, ``z = y``) sees the change.  Where such a name is read
after the write, the two readings differ, and the gradient would be of another function:
this pass refuses it, at the write, naming the other name.

Expects a ``Program`` whose ``types`` the inference set.  Guarantees it returns nothing
where no name that shares an array's memory (as NumPy's basic indexing, ``transpose``,
``reshape``, ``ravel``, ``squeeze``, ``expand_dims``, plain assignment and an entry of a
container holding the array share it: ``q = {"w": W}`` then ``q["w"][0] = v``) is read
after a write into that array (later in the block, or anywhere in a loop around the write
when the name is bound outside it), and raises an ``UnsupportedSyntaxError`` at the
write otherwise.

    head = y[:2]
    y[0] = 5.0              ->  f.py:4:4: this write into y changes head (line 3), which
    return np.sum(head)         shares its memory, and head is read after it — ...
"""

from symdiff.core import types as t
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.primitives.indexing import index_record, write_record

# the registry's array operations whose result may be a view of their first operand (by
# the name of the record, or of the record's family: ``reshape_2`` is ``reshape``'s);
# ``copy`` is a plain assignment (``z = y``), ``np.copy`` is ``array_copy``
VIEW_OPS = frozenset(("copy", "transpose", "transpose_axes", "reshape", "reshape_as", "ravel",
                      "squeeze", "expand_dims", "asarray", "diag"))


def refuse_aliased_writes(program):
    flat = list(_flattened(program.body, ()))
    memory = {p: ("parameter", p) for p in program.params
              if isinstance(program.types.get(p), t.Array)}
    bound_at, entries = {}, {}
    for index, (stmt, context) in enumerate(flat):
        if isinstance(stmt, (ir.Build, ir.SetItem, ir.Push, ir.Item)):
            _held(program, stmt, memory, entries, bound_at)
        if not isinstance(stmt, ir.Assign):
            continue
        if write_record(stmt.op) is not None:
            _check_write(program, flat, index, memory, bound_at)
        if isinstance(program.types.get(stmt.target), t.Array):
            first = stmt.args[0] if stmt.args else None
            shared = isinstance(first, ir.Var) and first.name in memory and _may_view(
                program, stmt)
            memory[stmt.target] = memory[first.name] if shared else ("statement", stmt.sid)
            bound_at[stmt.target] = stmt.origin
        else:
            memory.pop(stmt.target, None)


def _held(program, stmt, memory, entries, bound_at):
    """Arrays into and out of containers: an array a ``Build``, ``SetItem`` or ``Push``
    puts in an entry (``entries``: (container, path of constants, None for an index
    known when it runs) -> memory) shares its memory with it, and so does an array an
    ``Item`` reads out of one (``q = {"w": W}``, ``e = q["w"]``: ``e`` is ``W``)."""
    if isinstance(stmt, ir.Item):
        if not isinstance(program.types.get(stmt.target), t.Array):
            memory.pop(stmt.target, None)
            return
        key = (stmt.container, _constants(stmt.path))
        any_entry = entries.get((stmt.container, (None,) * len(stmt.path)), ("entry",) + key)
        memory[stmt.target] = entries.setdefault(key, any_entry)
        bound_at[stmt.target] = stmt.origin
        return
    if isinstance(stmt, ir.Build):
        container, placed = stmt.target, list(ir.literal_leaves(stmt.items, stmt.keys))
    elif isinstance(stmt, ir.SetItem):
        container, placed = stmt.container, [(_constants(stmt.path), stmt.value)]
    else:
        container, placed = stmt.stack, [((None,), stmt.value)]
    for path, item in placed:
        if isinstance(item, ir.Var) and item.name in memory:
            entries[(container, tuple(path))] = memory[item.name]
        else:
            entries.pop((container, tuple(path)), None)


def _constants(path):
    return tuple(i.value if isinstance(i, ir.Const) else None for i in path)


def _may_view(program, stmt):
    """Whether ``stmt``'s result may share its first operand's memory."""
    head, _, count = stmt.op.rpartition("_")
    family = head if count.isdigit() else stmt.op
    if stmt.op in VIEW_OPS or family in VIEW_OPS and family != "copy" or (
            write_record(stmt.op) is not None):
        return True
    if index_record(stmt.op) is None:
        return False
    # basic indexing (ints, slices, None, ...) gives a view; an integer or boolean
    # array among the index, a copy
    return not any(isinstance(program.types.get(a.name), t.Array)
                   for a in stmt.args[1:] if isinstance(a, ir.Var))


def _check_write(program, flat, index, memory, bound_at):
    stmt, context = flat[index]
    loops = {id(s) for s, _ in flat if isinstance(s, (ir.For, ir.While))}
    written = stmt.args[0].name if isinstance(stmt.args[0], ir.Var) else None
    if written not in memory:
        return
    for name, held in list(memory.items()):
        if held != memory[written] or name in (written, stmt.target):
            continue
        if _read_after(flat, index, name) or _read_in_loop(flat, index, name, loops):
            origin, bound = stmt.origin, bound_at.get(name)
            where = f" (line {bound.lineno})" if bound is not None else ""
            raise UnsupportedSyntaxError(
                f"this write into {_shown(flat, written)} changes {_user(name)}{where}, which shares "
                f"its memory, and {_user(name)} is read after it: symdiff reads a write as "
                "a new array, NumPy changes every view of it",
                filename=origin.filename, lineno=origin.lineno,
                col_offset=origin.col_offset, source_line=origin.line,
                hint=f"copy it where it is taken ({_user(name)} = ....copy()), or take it "
                     "after the write")


def _read_after(flat, index, name):
    """Whether ``name`` is read after ``flat[index]``, before a binding of it that runs
    whenever the code after the write does."""
    context = flat[index][1]
    for stmt, inner in flat[index + 1:]:
        if name in ir.reads(stmt):
            return True
        if getattr(stmt, "target", None) == name and context[:len(inner)] == inner:
            return False  # (contexts are tuples of statement ids)
    return False


def _read_in_loop(flat, index, name, loops):
    """Whether a loop around ``flat[index]`` that does not bind ``name`` reads it (its
    next pass reads the value the write changed)."""
    context = flat[index][1]
    for loop in (c for c in context if c in loops):
        inside = [s for s, inner in flat if loop in inner]
        if any(getattr(s, "target", None) == name for s in inside):
            continue
        if any(name in ir.reads(s) for s in inside):
            return True
    return False


def _flattened(block, context):
    """``(statement, the ids of the compound statements around it)`` in source order."""
    for stmt in block:
        yield stmt, context
        for nested in ir.children(stmt):
            yield from _flattened(nested, context + (id(stmt),))


def _shown(flat, name):
    """The user's spelling of the array ``name`` holds: ``q["w"]`` where an ``Item``
    read it out of a container, else the user's name of it."""
    for stmt, _ in flat:
        if isinstance(stmt, ir.Item) and stmt.target == name:
            return _user(stmt.container) + "".join(
                f"[{i.value!r}]" if isinstance(i, ir.Const) else f"[{_user(i.name)}]"
                for i in stmt.path)
    return _user(name)


def _user(name):
    """The user's name of a lowered one (``y_1``, a version of ``y``, is ``y``)."""
    head, _, tail = name.rpartition("_")
    return head if tail.isdigit() and head else name
