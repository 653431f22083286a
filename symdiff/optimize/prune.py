"""Prune: the optimizer's passes that delete what is left with nothing to do.

Expects a generated function as IR (``optimize`` runs these with its other passes).
Guarantees the same results and the same exceptions: a statement goes only when
nothing reads what it computes and computing it cannot raise; a branch or loop
only when it is empty and its test or range cannot raise; a comment only when no
statement is left under it.  A write to a place (``xs[k] = v``) reads and partly
writes its container: it goes only when the container is not needed (and its value and
index cannot raise).  The sweeps write a place only at an index in range (one the
forward sweep read the element at, or the container was built to hold), so the write
itself raises nothing.

    mul = x * y           # nothing reads mul             (gone)
    if flag:                                              (gone)
        pass
    raise ValueError('...')                               (stays)
    w = params[0]         # after a raise: never runs     (gone)
"""

from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw
from symdiff.core import types as t
from symdiff.optimize.facts import cannot_raise, is_int
from symdiff.optimize.walk import blocks, is_comment, reads, statements, writes


def drop_dead_statements(function, context):
    """Drop assignments whose value nothing needs, when computing them cannot raise.

    A name is needed when a statement that must stay reads it: a call, a test, a
    loop's range, the return, an assignment that may raise, or an assignment to
    another needed name.  So a loop's running sum that only the function's value
    used (``s = s + t`` inside the loop) goes, though it reads itself.  So does an
    assignment every read of which first meets another assignment of the name in
    its own block (the reverse sweep recomputing a value the forward one computed).
    A write to a place stays while its container is needed.  A value nothing needs goes
    though an int too large for a float would make it raise ``OverflowError``
    (``facts.cannot_raise``'s ``overflow_only``); in a gradient that does not return
    the function's value, though computing it may raise any ``OverflowError`` (a float
    too large: ``d ** 2``; ``any_overflow``): such a gradient raises where ``f`` is not
    defined, not where only ``f``'s value overflows (``DESIGN.md``, Semantics).
    """
    every = [stmt for block in blocks(function) for stmt in block]
    own = {id(stmt): reads(stmt, context) for stmt in every}
    removable = {}  # id of a statement that goes unless its target is needed -> target
    places = set()  # ids of the removable writes to a place
    numbers = context.containers
    math_name = context.math_name
    in_range = in_range_reads(function)
    for stmt in every:
        if isinstance(stmt, (sw.Let, sw.AddTo)) and (id(stmt) in in_range or all(
                _only_overflows(e, context) or _sums_numbers(e, numbers, math_name)
                for e in _values(stmt))):
            removable[id(stmt)] = sw.target_name(stmt.target)
            if sw.is_place(stmt.target):
                places.add(id(stmt))
        elif isinstance(stmt, sw.Push) and stmt.method and stmt.stack in numbers and (
                _only_overflows(stmt.value, context)):  # an append: a write to the list
            removable[id(stmt)] = stmt.stack
            places.add(id(stmt))
    needed = set()
    pending = {}  # name -> the names the removable statements assigning it read
    for stmt in every:
        if id(stmt) in removable:
            pending.setdefault(removable[id(stmt)], []).extend(own[id(stmt)])
        else:
            needed.update(own[id(stmt)])
    work = list(needed)
    while work:
        for name in pending.pop(work.pop(), ()):
            if name not in needed:
                needed.add(name)
                work.append(name)
    uncovered, read_defs = _reaching_reads(function, own)
    changed = False
    for block in blocks(function):
        keep = [s for s in block if id(s) not in removable or (
            removable[id(s)] in needed and (id(s) in places or removable[id(s)] in uncovered
                                            or id(s) in read_defs))]
        if len(keep) != len(block):
            block[:] = keep
            changed = True
    return changed


def _only_overflows(expr, context):
    """Whether evaluating ``expr`` raises nothing but ``OverflowError`` (of any value when
    the function does not return its own value; else only of an int too large for a
    float, which a gradient, a float, overflows on anyway)."""
    if context.returns_value:
        return cannot_raise(expr, context, True)
    return cannot_raise(expr, context, any_overflow=True)


def in_range_reads(function):
    """Ids of the assignments ``x = xs[i]`` inside ``for i in range(len(xs))`` (or of a
    name assigned ``len(xs)`` once, or ``range(min(len(xs), len(ws)))``, of ``zip``) of a
    list bound once and never changed (no element
    written, nothing appended or popped), the loop assigning neither ``i`` nor ``xs``:
    the index is in range, and the read raises nothing."""
    if not any(type(stmt) is sw.For and stmt.over is None and len(stmt.bounds) == 1
               for stmt in statements(function.body)):
        return set()  # no loop over a range: no such read
    lengths, written = {}, set()  # name -> its whole values; lists changed or rebound
    for stmt in statements(function.body):
        if isinstance(stmt, (sw.Let, sw.AddTo)) and sw.is_place(stmt.target):
            written.add(sw.target_name(stmt.target))
        elif isinstance(stmt, (sw.Push, sw.Pop)):
            written.add(stmt.stack)
        elif isinstance(stmt, sw.Let):
            lengths.setdefault(stmt.target, []).append(stmt.value)
        elif writes(stmt):
            written.update(writes(stmt))
    written.update(n for n, values in lengths.items() if len(values) > 1)
    found = set()

    def measured(bound):
        """The lists ``bound`` is no longer than: ``xs`` of ``len(xs)``, ``xs`` and ``ws``
        of ``min(len(xs), len(ws))`` (a loop over ``zip``)."""
        if type(bound) is ex.Name and len(lengths.get(bound.id, ())) == 1:
            bound = lengths[bound.id][0]
        if type(bound) is ex.Call and type(bound.func) is ex.Name and bound.func.id == (
                "min") and len(bound.args) > 1 and not bound.keywords:
            each = [measured(arg) for arg in bound.args]
            return None if None in each else frozenset().union(*each)
        return frozenset((bound.args[0].id,)) if (
            type(bound) is ex.Call and type(bound.func) is ex.Name and bound.func.id == "len"
            and len(bound.args) == 1 and type(bound.args[0]) is ex.Name) else None

    def visit(block, counters):
        for stmt in block:
            if isinstance(stmt, sw.For) and stmt.over is None and len(stmt.bounds) == 1:
                listed = measured(stmt.bounds[0])
                inner = {k: v for k, v in counters.items() if k != stmt.target}
                inside = {n for s in statements(stmt.body) for n in writes(s)}
                if listed is not None and not listed & written and not (
                        (listed | {stmt.target}) & inside):
                    inner[stmt.target] = listed
                visit(stmt.body, inner)
            elif isinstance(stmt, (sw.If, sw.While, sw.For, sw.Try)):
                for nested in (stmt.body, getattr(stmt, "orelse", [])):
                    visit(nested, {k: v for k, v in counters.items()
                                   if k not in {n for s in statements(nested)
                                                for n in writes(s)}})
            elif isinstance(stmt, sw.Let) and isinstance(stmt.target, str):
                value = stmt.value
                if type(value) is ex.Subscript and type(value.value) is ex.Name and type(
                        value.index) is ex.Name and value.value.id in counters.get(
                        value.index.id, ()):
                    found.add(id(stmt))

    visit(function.body, {})
    return found


def _sums_numbers(expr, containers, math_name):
    """Whether ``expr`` is ``sum(xs)`` or ``math.fsum(xs)`` of a flat list or tuple of
    numbers (``containers``: the kinds of the function's containers), which raises
    nothing."""
    if type(expr) is not ex.Call or len(expr.args) != 1 or expr.keywords or (
            type(expr.args[0]) is not ex.Name):
        return False
    func = expr.func
    summing = type(func) is ex.Name and func.id == "sum" or (
        type(func) is ex.Attribute and func.attr == "fsum" and type(func.value) is ex.Name
        and func.value.id == math_name)
    kind = containers.get(expr.args[0].id)
    return summing and isinstance(kind, (t.List, t.Tuple)) and all(
        e in t.NUMBERS for e in ((kind.elem,) if isinstance(kind, t.List) else kind.elts))


def _values(stmt):
    """What a ``Let`` or ``AddTo`` evaluates: its value, and a place's indices."""
    if sw.is_place(stmt.target):
        return [stmt.value, stmt.target.index]
    return [stmt.value]


def _reaching_reads(function, own):
    """Names read before an assignment in the same block (``uncovered``: any assignment
    may reach such a read), and the assignments that reach the other reads.  ``own``:
    each statement's own reads, by id.  A write to a place defines nothing whole."""
    uncovered, read_defs = set(), set()
    for block in blocks(function):
        last = {}  # name -> the latest whole assignment to it so far in this block
        for stmt in block:
            for name in own[id(stmt)]:
                if name in last:
                    read_defs.add(id(last[name]))
                else:
                    uncovered.add(name)
            if isinstance(stmt, (sw.Let, sw.AddTo)):
                if not sw.is_place(stmt.target):
                    last[stmt.target] = stmt
            elif isinstance(stmt, (sw.NewStack, sw.Pop)):
                for name in writes(stmt):
                    last[name] = stmt
            elif isinstance(stmt, (sw.If, sw.For, sw.While, sw.Try)):
                for inner in statements([stmt]):  # what a branch or loop may assign
                    for name in writes(inner):
                        last.pop(name, None)
                if isinstance(stmt, sw.While):  # its test runs after each iteration too
                    uncovered.update(own[id(stmt)])
    return uncovered, read_defs


def drop_unreachable(function, context):
    """Drop the statements after one that always raises in their block (a ``raise``
    decided when the gradient was built: ``if len(params) != 2:`` of a tuple of 3):
    they never run."""
    changed = False
    for block in blocks(function):
        ends = [k for k, stmt in enumerate(block[:-1]) if _always_raises(stmt)]
        if ends:
            del block[ends[0] + 1:]
            changed = True
    return changed


def _always_raises(stmt):
    return isinstance(stmt, sw.Raise) or isinstance(stmt, sw.Check) and (
        stmt.check.kind == "raise")


def drop_empty_statements(function, context):
    """Drop branches and loops left with nothing to do (a loop whose variable is read
    after it does something); refill bodies left empty."""
    read = None  # the names read anywhere: once needed
    changed = False
    for block in blocks(function):
        keep = []
        for stmt in block:
            if isinstance(stmt, sw.Try):
                stmt.body = [s for s in stmt.body if not isinstance(s, sw.Pass)] or [sw.Pass()]
            elif isinstance(stmt, (sw.If, sw.For, sw.While)):
                stmt.body = [s for s in stmt.body if not isinstance(s, sw.Pass)]
                if isinstance(stmt, sw.If):
                    stmt.orelse = [s for s in stmt.orelse if not isinstance(s, sw.Pass)]
                if stmt.body or getattr(stmt, "orelse", None):
                    stmt.body = stmt.body or [sw.Pass()]
                elif isinstance(stmt, sw.If) and cannot_raise(stmt.test, context, True):
                    changed = True
                    continue
                elif isinstance(stmt, sw.For) and all(is_int(b, context)
                                                      for b in stmt.bounds) and stmt.target not in (
                        read := read if read is not None else _read_unbound(function)):
                    changed = True
                    continue
                else:
                    stmt.body = [sw.Pass()]
            keep.append(stmt)
        if len(keep) != len(block):
            block[:] = keep
    return changed


def _read_unbound(function):
    """The names read somewhere other than inside a ``for`` loop that binds them (where
    the loop's own assignment comes first, so an empty loop before, which would leave
    the name its last value, changes nothing such a read sees)."""
    found = set()

    def visit(block, bound):
        for stmt in block:
            if isinstance(stmt, sw.For):
                found.update(n for n in reads(stmt) if n not in bound)  # its bounds
                visit(stmt.body, bound | {stmt.target})
            elif isinstance(stmt, sw.If):
                found.update(n for n in reads(stmt) if n not in bound)
                visit(stmt.body, bound)
                visit(stmt.orelse, bound)
            elif isinstance(stmt, (sw.While, sw.Try)):
                found.update(n for n in reads(stmt) if n not in bound)
                visit(stmt.body, bound)
                visit(getattr(stmt, "cleanup", []), bound)
            else:
                found.update(n for n in reads(stmt) if n not in bound)

    visit(function.body, frozenset())
    return found


def drop_orphan_comments(function, context):
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
            block[:] = keep or [sw.Pass()]
    return changed
