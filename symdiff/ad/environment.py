"""What every rule of reverse mode reads: the program, its analyses, and the build's names.

Expects a normalized ``Program``, the names differentiated by, and whether contributions
are recorded for ``check``.  Guarantees an ``Environment``: the program, its ``DefUse``,
its active names, its container facts (``ad.facts``), the statements that assign a name
already assigned on the path before them (``redefinitions``), where each container is
built (``built_sides``), what each outermost loop restores in place (``taping``), all
computed before the sweeps are written and never changed; and one ``Names``
(``ad.writer``), the only mutable part, owned by this build.  Each rule of ``ad`` is a
function of an environment, a statement and its ``Scope`` returning the statement's
forward and reverse statements, as autodidax's rules return equations:

    env = environment(program, ["x"])                  # ad.reverse
    forward, reverse = operation(env, stmt, Scope())   # y = sin(x): [y = sin(x)], [dx += ...]
"""

from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType

from symdiff.ad import writer
from symdiff.ad.writer import Names
from symdiff.errors import UnsupportedSyntaxError
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw

_DEFINING = (ir.Assign, ir.Compute, ir.Item, ir.Build, ir.Take, ir.Share, ir.Join,
             ir.Reduce, ir.Pop)


@dataclass(frozen=True)
class Environment:
    program: object  # the normalized ``Program``
    defuse: object  # the program's ``DefUse``
    wrt: tuple
    active: frozenset
    facts: object  # ``ad.facts.ContainerFacts``
    redefined: frozenset  # sids of statements assigning a name assigned before on the path
    built_sides: MappingProxyType  # container -> its branches, or the error reading it
    restored: MappingProxyType  # outermost loop's sid -> the names it restores in place
    names: Names  # mutable: the names this build generates
    record: str = None  # the name ``record`` is bound to, or None
    indexed: frozenset = frozenset()  # arrays read or written by index: adjoints are buffers
    # outermost loop's sid -> the names it assigns alike each iteration (``ad.invariants``)
    invariant: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))


def redefinitions(program):
    """The sids of the statements whose target a statement before them on the path the
    sweeps are written in (each block in order; a loop's body, then a ``while``'s test;
    an ``if``'s two branches apart) already assigns, or that assign a parameter."""
    defined, found = set(program.params), set()

    def walk(block):
        for stmt in block:
            if isinstance(stmt, ir.If):
                before = set(defined)
                walk(stmt.body)
                after_body = set(defined)
                defined.clear()
                defined.update(before)
                walk(stmt.orelse)
                defined.update(after_body)
            elif isinstance(stmt, (ir.For, ir.Try)):
                walk(stmt.body)
            elif isinstance(stmt, ir.While):
                walk(stmt.body)
                walk(stmt.pre)
            elif isinstance(stmt, _DEFINING):
                if stmt.target in defined:
                    found.add(stmt.sid)
                defined.add(stmt.target)
    walk(program.body)
    return frozenset(found)


def built_sides(program, defuse, active):
    """For each active container, the innermost branches (``DefUse.branches``) its
    definitions stand in, ``{None}`` when one stands in none; or the error to raise where
    it is asked for, when it is read outside the branch that builds it."""
    return {name: _built_in(defuse, name) for name in program.containers if name in active}


def _built_in(du, name):
    sides = set()
    for stmt in du.definitions(name):
        around = du.branches(stmt)
        if not around:
            return frozenset({None})
        sides.add(around[-1])
    for reader in du.readers(name):
        if sides and not sides & set(du.branches(reader)):
            origin = reader.origin
            return UnsupportedSyntaxError(
                "a container built in one branch of an if is read outside that branch",
                filename=origin.filename, lineno=origin.lineno,
                col_offset=origin.col_offset, source_line=origin.line,
                hint="build it before the if (the branches may then change it), or "
                     "read it only inside the branch")
    return frozenset(sides or {None})


def built_in(env, name):
    """Where the active container ``name`` is built (``built_sides``)."""
    sides = env.built_sides[name]
    if isinstance(sides, Exception):
        raise sides
    return sides


def overwrites(env, stmt, scope):
    """Whether ``stmt`` overwrites a value of its target the reverse sweep has seen."""
    return scope.in_loop or stmt.sid in env.redefined


def adjoint(env, name):
    """The adjoint of ``name``: a name of its own, or the element of its container's
    adjoint it is added into directly (``ad.facts``: ``forwarded``)."""
    return env.names.derivative(name, env.facts.forwarded)


def stack_names(env, name=None, kind=None):
    """The ``push`` and ``pop`` of the tape the value of ``name`` (or one of type
    ``kind``) is saved on."""
    return env.names.stack_names(kind if name is None else env.program.types.get(name))


def saving(env, name):
    """``push(name)``, on the tape of ``name``'s type; in a text read again
    (``Names.read_again``), a list of numbers pushed as a copy, ``push(list(name))``: the
    tape's list and ``name`` are read apart."""
    value = ex.Name(name)
    kind = env.program.containers.get(name)
    if env.names.read_again and isinstance(kind, t.List) and t.is_number(kind.elem):
        value = ex.Call(ex.Name(builtin(env, "list")), (value,))
    return sw.Push(stack_names(env, name)[0], value)


def restoring_from_tape(env, name):
    """``name = pop()``, from the tape of ``name``'s type."""
    return sw.Pop(name, stack_names(env, name)[1])


def builtin(env, name):
    return env.names.builtin(name)


def library_function(env, op):
    """``statistics.mean`` of a ``Reduce`` of ``LIBRARY``'s ``op``, as generated code
    names it (the module by the name lowering bound it to)."""
    module, _, name = op.partition(".")
    bound = next(n for n, v in env.program.namespace.items() if getattr(
        v, "__name__", None) == module and isinstance(v, ModuleType))
    return ex.Attribute(ex.Name(bound), name)


def names_for(env, stmt):
    return writer.names_for(env.program, env.names, stmt)


def forward_expression(env, stmt):
    return writer.forward_expression(env.program, env.names, stmt)


def flatten(env, chunks, within=None):
    return writer.flatten(env.program, chunks, within)


def length_of(env, value):
    """``len(value)``, as generated code calls ``len``."""
    return ex.Call(ex.Name(builtin(env, "len")), (value,))
