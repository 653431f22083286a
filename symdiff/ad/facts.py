"""Container facts: what reverse mode needs to know of a program's containers, found once.

Expects a ``Program``, its ``DefUse`` and its active names.  Guarantees a frozen
``ContainerFacts`` computed before the sweeps are written, by plain functions of the
program (nothing is learnt while writing, and no pass sets it on another's object):

- ``readers``: container -> the statements that read it again in the reverse sweep (a
  reduction or a slice of an active container, a part of an active join: the reverse
  of the others reads nothing), names bound to one list sharing theirs;
- ``summed_only``: list -> the one sum whose adjoint is every element's;
- ``started``: the containers whose adjoint a sum starts (``dxs = [g] * len(xs)``: no
  zeros when the reverse starts);
- ``forwarded``: number -> ``(container, index expressions)`` for an element read whose
  adjoint is its container's adjoint's element itself.

    for x in xs: ...      forwarded {"x_1": ("xs", (Name("i"),))}
    s = sum(terms)        summed_only {"terms": <that Reduce>}, started ("terms",)
"""

from dataclasses import dataclass
from types import MappingProxyType

from symdiff.ad.control import regenerated
from symdiff.ad.taping import read_only
from symdiff.analysis.held_types import holds_arrays
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.core import types as t
from symdiff.primitives.containers import Each, reads_position
from symdiff.primitives.registry import operation_of


@dataclass(frozen=True)
class ContainerFacts:
    readers: MappingProxyType  # container -> tuple of statements
    summed_only: MappingProxyType  # list -> its one sum (a ``Reduce``)
    started: frozenset
    forwarded: MappingProxyType  # number -> (container, index expressions)


def container_facts(program, defuse, active):
    """The container facts of ``program`` (see the module's docstring)."""
    summed = {}
    for name in program.containers:
        if _holds_arrays(program, name):
            continue  # each element's adjoint an array of its own: never one shared
        found = _summed_only(program, defuse, name)
        if found is not None:
            summed[name] = found
    started = frozenset(s.container for s in defuse.statements if isinstance(s, ir.Reduce)
                        and s.target in active and s.container in active
                        and not _holds_arrays(program, s.container)
                        and _starts(program, defuse, s, summed))
    forwarded = {s.target: (s.container, tuple(index_of(i, s, defuse) for i in s.path))
                 for s in defuse.statements
                 if isinstance(s, ir.Item) and _forwards(program, defuse, active, s)}
    return ContainerFacts(MappingProxyType(_readers(defuse, active)), MappingProxyType(summed),
                          started, MappingProxyType(forwarded))


def _readers(defuse, active):
    readers = {}
    for s in defuse.statements:
        if isinstance(s, (ir.Reduce, ir.Take)) and s.container not in active or (
                isinstance(s, ir.Join) and s.target not in active):
            continue
        if isinstance(s, (ir.Reduce, ir.Take)):
            readers.setdefault(s.container, []).append(s)
        elif isinstance(s, ir.Join):  # it measures each part again in reverse
            for part in s.parts:
                if isinstance(part, ir.Ref):
                    readers.setdefault(part.container, []).append(s)
    shares = [(s.target, s.container) for s in defuse.statements if isinstance(s, ir.Share)]
    grown = True
    while grown:  # names bound to one object share its history
        grown = False
        for a, b in shares:
            joined = list({r.sid: r for r in readers.get(a, []) + readers.get(b, [])}.values())
            if len(joined) != len(readers.get(a, [])) or len(joined) != len(
                    readers.get(b, [])):
                readers[a] = readers[b] = joined
                grown = True
    return {name: tuple(found) for name, found in readers.items()}


def _holds_arrays(program, name):
    """Whether the container ``name`` holds arrays: ``dxs = [g] * len(xs)``, or ``g`` as
    every element's adjoint, would give them all one array, and an adjoint never
    aliases another (an in-place add into one would change all)."""
    return holds_arrays(program.containers.get(name))


def _starts(program, defuse, stmt, summed):
    """Whether the reduction ``stmt`` starts its container's adjoint."""
    if summed.get(stmt.container) is stmt:
        return True
    value = operation_of(stmt).vjp[0](ex.Name("g"), (ex.Name(stmt.container),),
                                      ex.Name(stmt.target), None)
    return isinstance(value, Each) and not reads_position(value) and (
        starts_adjoint(defuse, stmt))


def starts_adjoint(defuse, stmt):
    """Whether the sum ``stmt`` is the first reverse step to reach its container's
    adjoint: it stands outside every loop, in the branch its container is made in (a
    parameter: in none), and nothing reads or changes the container after it."""
    at = defuse.position(stmt)
    made = defuse.definitions(stmt.container)
    where = defuse.branches(made[0]) if len(made) == 1 else () if not made else None
    return not stmt.path and not defuse.loops(stmt) and (
        stmt.container not in defuse.results) and defuse.branches(stmt) == where and all(
        defuse.position(r) <= at for r in defuse.readers(stmt.container))


def _nested(kind):
    return isinstance(kind, (t.List, t.Tuple, t.Dict))


def _summed_only(program, du, name):
    """The sum whose adjoint is every element's of the list ``name``, or None: ``name``
    is made empty once, outside every loop, filled by appends of numbers only, and read
    by nothing else than one sum that starts its adjoint and defines its target once,
    outside every loop (each append's reverse then adds the sum's adjoint, and the list
    of adjoints, ``[g] * len(terms)`` popped one by one, is never made)."""
    made = du.definitions(name)
    if name in du.params or name in du.results or len(made) != 1 or du.loops(made[0]) or (
            not isinstance(made[0], ir.Build)) or made[0].items or (
            made[0].repeat is not None) or _nested(
                getattr(program.containers.get(name), "elem", None)):
        return None
    sums = [s for s in du.readers(name) if not (isinstance(s, ir.Push) and s.stack == name)]
    if len(sums) != 1:
        return None
    total = sums[0]
    if not (isinstance(total, ir.Reduce) and total.op in ("sum", "fsum") and (
            total.container == name) and starts_adjoint(du, total)) or len(
            du.definitions(total.target)) != 1:
        return None
    if any(isinstance(s.value, ir.Var) and s.value.name in program.containers
           for s in du.readers(name) if isinstance(s, ir.Push)):
        return None
    return total


def index_of(index, stmt, du):
    """An index as the reverse sweep can read it wherever: a constant, a loop's
    counter, or the one addition or subtraction of those that computed it
    (``x[i + 1]``); None for any other."""
    if isinstance(index, ir.Const):
        return ex.Const(index.value)
    loops = du.loops(stmt)
    counters = {loop.target for loop in loops  # a loop left by break runs back by count
                if isinstance(loop, ir.For) and regenerated(loop)}
    if index.name in counters:
        return ex.Name(index.name)
    sources = du.definitions(index.name)
    source = sources[0] if len(sources) == 1 else None
    if not (isinstance(source, ir.Assign) and source.op in ("add", "sub")
            and source.call is None and du.loops(source) == loops
            and all(isinstance(a, ir.Const) and type(a.value) is int
                    or isinstance(a, ir.Var) and a.name in counters for a in source.args)):
        return None
    left, right = (ex.Const(a.value) if isinstance(a, ir.Const) else ex.Name(a.name)
                   for a in source.args)
    return ex.BinOp("+" if source.op == "add" else "-", left, right)


def _forwards(program, du, active, stmt):
    if stmt.target not in active or stmt.container not in active or (
            stmt.target in du.results) or len(du.definitions(stmt.target)) != 1:
        return False
    if not read_only(program, du, stmt.container):
        return False
    if any(index_of(i, stmt, du) is None for i in stmt.path):
        return False
    inside = {loop.sid for loop in du.loops(stmt)}
    at = du.position(stmt)
    return all(du.position(r) > at and inside <= {s.sid for s in du.loops(r)}
               for r in du.readers(stmt.target))
