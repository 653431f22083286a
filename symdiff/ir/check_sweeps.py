"""``check_sweeps``: the invariants of the generated function as IR, verified.

Expects the ``Program`` a gradient was built from, the ``Generated`` that
``differentiate`` (or ``forward``) wrote, or ``optimize`` rewrote, and the name of that
stage.  Returns nothing when the sweeps are well formed; otherwise raises
``InternalError`` naming the stage, the statement and what is wrong.  It checks

- **structure**: only ``ir.sweeps`` statements, holding only ``core.expr`` expressions
  (no Python syntax tree); a target is a name or a place (an ``core.expr.Subscript`` of a
  name);
- **definitions**: every name a statement reads is a parameter, a global the module
  binds (the program's namespace, ``math``, a builtin or its alias, a helper, ``record``)
  or assigned before it on some path to it (as ``check_program`` reads it: earlier in
  its block or a block holding it, in a branch before it, anywhere in a loop it is in);
  a name the user's code reads and never assigns stays as read.  A place's container
  is defined before it is written;
- **accumulations**: each ``AddTo`` adds to an adjoint (a tangent, in forward mode), a
  loop's trip counter, or a place.
"""

import ast
import builtins
from dataclasses import fields

from symdiff.errors import InternalError
from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw

_BUILTINS = frozenset(dir(builtins))
_STATEMENTS = (sw.Let, sw.AddTo, sw.Do, sw.NewStack, sw.Push, sw.Pop, sw.If, sw.For, sw.While,
               sw.Break, sw.Pass, sw.Check, sw.Comment, sw.Raise, sw.Return)


def check_sweeps(program, generated, stage):
    """Raise ``InternalError`` naming ``stage`` when ``generated.function`` is not well
    formed IR."""
    _Checker(program, generated, stage).run()


class _Checker:
    def __init__(self, program, generated, stage):
        self.stage = stage
        self.function = function = generated.function
        if not isinstance(function, sw.Function):
            self.fail(None, f"the function is a {type(function).__name__}, not sweeps IR")
        self.globals = (set(program.namespace) | {program.math_name} | _BUILTINS
                        | set(generated.builtins) | set(generated.helpers.values())
                        | ({generated.record_name} if generated.record_name else set()))
        self.accumulated = set(generated.adjoints.values()) | set(
            getattr(generated, "counters", ()))
        assigned = set(function.params) | ({function.kwarg} if function.kwarg else set())
        for stmt in _walk(function.body):
            assigned.update(_writes(stmt))
        self.unbound = {n for s in _walk(function.body) for n in _reads(s)
                        if n not in assigned and n not in self.globals}

    def fail(self, stmt, message):
        where = "" if stmt is None else f" at {type(stmt).__name__} {_brief(stmt)}"
        raise InternalError(self.stage, f"the sweeps are not well formed{where}: {message}")

    def run(self):
        for stmt in _walk(self.function.body):
            self.structure(stmt)
        params = set(self.function.params) | (
            {self.function.kwarg} if self.function.kwarg else set())
        self.block(self.function.body, params)

    def structure(self, stmt):
        if not isinstance(stmt, _STATEMENTS):
            self.fail(stmt, "not a statement of the sweeps")
        for field in fields(stmt):
            value = getattr(stmt, field.name)
            if isinstance(value, ast.AST) or (isinstance(value, (list, tuple)) and any(
                    isinstance(v, ast.AST) for v in value)):
                self.fail(stmt, f"a Python syntax tree in its field {field.name}")
        for expr in _expressions(stmt):
            try:
                ex.names(expr)
            except InternalError:
                self.fail(stmt, f"{expr!r} is not an IR expression")
        if isinstance(stmt, (sw.Let, sw.AddTo)):
            target = stmt.target
            if sw.is_place(target) and not (isinstance(target, ex.Subscript)
                                            and _is_place_of_name(target)):
                self.fail(stmt, f"the target {target!r} is neither a name nor a place")
            if isinstance(stmt, sw.AddTo) and not sw.is_place(target) and (
                    target not in self.accumulated):
                self.fail(stmt, f"it adds to {target}, neither an adjoint, a trip counter "
                                "nor a place")

    def block(self, block, defined):
        """The names defined on some path once ``block`` ran with ``defined`` defined."""
        defined = set(defined)
        for stmt in block:
            if isinstance(stmt, sw.If):
                self.reads(stmt, defined)
                defined = self.block(stmt.body, defined) | self.block(stmt.orelse, defined)
            elif isinstance(stmt, (sw.For, sw.While)):
                inside = defined | {n for s in _walk([stmt]) for n in _writes(s)}
                self.reads(stmt, inside if isinstance(stmt, sw.While) else defined)
                defined = self.block(stmt.body, inside)
            else:
                self.reads(stmt, defined)
                defined.update(_writes(stmt))
        return defined

    def reads(self, stmt, defined):
        for name in _reads(stmt):
            if name not in defined and name not in self.globals and name not in self.unbound:
                self.fail(stmt, f"it reads {name}, assigned on no path to it")
        if isinstance(stmt, (sw.Let, sw.AddTo)) and sw.is_place(stmt.target):
            container = sw.target_name(stmt.target)
            if container not in defined and container not in self.globals:
                self.fail(stmt, f"it writes an element of {container}, not defined before")


def _is_place_of_name(target):
    while isinstance(target, ex.Subscript):
        target = target.value
    return isinstance(target, ex.Name)


def _walk(block):
    for stmt in block:
        yield stmt
        for inner in sw.blocks(stmt):
            yield from _walk(inner)


def _expressions(stmt):
    found = list(sw.expressions(stmt))
    if isinstance(stmt, (sw.Let, sw.AddTo)) and sw.is_place(stmt.target):
        found.append(stmt.target)
    if isinstance(stmt, sw.Check):
        check = stmt.check
        found += [e for e in (check.value, check.message, check.cause) if e is not None]
    return found


def _reads(stmt):
    names = [n for e in _expressions(stmt) for n in ex.names(e)]
    if isinstance(stmt, sw.AddTo) and not sw.is_place(stmt.target):
        names.append(stmt.target)
    elif isinstance(stmt, (sw.Push, sw.Pop)):
        names.append(stmt.stack)
    return names


def _writes(stmt):
    if isinstance(stmt, (sw.Let, sw.AddTo)):
        return [] if sw.is_place(stmt.target) else [stmt.target]
    if isinstance(stmt, sw.For):
        return [stmt.target]
    if isinstance(stmt, sw.NewStack):
        return [stmt.stack, stmt.push, stmt.pop]
    if isinstance(stmt, sw.Pop):
        return [] if stmt.target is None else [stmt.target]
    return []


def _brief(stmt):
    text = repr(stmt)
    return text if len(text) <= 160 else text[:157] + "..."
