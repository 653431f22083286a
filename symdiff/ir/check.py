"""``check_program``: the invariants every pass over the IR keeps, verified.

Expects a ``Program`` that a pass produced (``lower``, ``hoist``...) and the name of
that pass.  Returns nothing when the program is well formed; otherwise raises
``InternalError`` naming the pass, the statement (as the IR printer writes it) and
what is wrong.  It checks

- **structure**: every statement has an id (``sid``), unique in the program; no Python
  syntax tree anywhere, only IR expressions; a ``BreakIf`` only as the last statement
  of a loop body; every ``Assign`` applies a known primitive (or a user function with
  its own rule) to as many operands as its rule takes;
- **definitions**: every name a statement reads is a parameter, a global the program
  reads, or assigned before it on a path to it: earlier in its block or a block holding
  it, in a branch before it, or anywhere in a loop it is in (the previous iteration's
  value).  Not "on every path": a user's code may read a name its branches assign only
  where a correlated test holds (``if c: y = ...`` then ``if c: use(y)``), as gradients
  read the forward sweep's values, and that is correct Python.  A local the user's code
  reads and never assigns stays as read: it raises when run, as it does in Python;
- **types**: every variable has a type, and each statement agrees with its rule: an
  ``Assign``'s operands are numbers and its target holds its primitive's result type
  (``analysis.types.result_type``; a float given where a rule takes an integer is the
  user's ``TypeError`` when it runs, not a broken IR), a ``Compute``'s target its
  expression's type, loop bounds and loop variables are integers, a ``Pop`` takes a
  number off a list, a ``BreakIf`` tests a bool.

Tests run it after every pass (``SYMDIFF_CHECK_IR=1``, set by ``tests/conftest.py``,
makes ``pipeline`` call it).
"""

import ast
import builtins
from dataclasses import fields

from symdiff.analysis.types import (
    element_type,
    expression_type,
    name_type,
    result_type,
    returned_names,
)
from symdiff.errors import InternalError
from symdiff.ir import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import types as t
from symdiff.ir.printer import statement_text
from symdiff.ir.types import element

_BUILTINS = frozenset(dir(builtins))
_EXPRESSIONS = {ir.Compute: ("expr",), ir.While: ("test",), ir.BreakIf: ("test",),
                ir.Check: ("value", "message", "cause")}
_ANY = frozenset(("copy", "stop_gradient"))  # take a value of any type, as it is


def check_program(program, stage):
    """Raise ``InternalError`` naming ``stage`` when ``program`` breaks an invariant."""
    _Checker(program, stage).run()


class _Checker:
    def __init__(self, program, stage):
        self.program, self.stage = program, stage
        self.globals = set(program.namespace) | {program.math_name} | _BUILTINS
        self.returned = returned_names(program)
        self.params = set(program.params) | ({program.kwargs} if program.kwargs else set())
        assigned = set(ir.assigned_names(program.body)) | self.params
        self.unbound = {n for s in ir.walk(program.body) for n in ir.reads(s)
                        if n not in assigned and n not in self.globals}

    def fail(self, stmt, message):
        where = "" if stmt is None else (
            f" at `{statement_text(stmt, self.program)}` (line {stmt.origin.lineno})")
        raise InternalError(self.stage, f"the IR is not well formed{where}: {message}")

    def run(self):
        seen = {}
        for stmt in ir.walk(self.program.body):
            if stmt.sid is None or stmt.sid in seen:
                self.fail(stmt, "a statement without an id" if stmt.sid is None
                          else f"the id {stmt.sid} is given twice")
            seen[stmt.sid] = stmt
            self.structure(stmt)
            self.typed(stmt)
        self.breaks(self.program.body, loop=False)
        self.block(self.program.body, set(self.params))
        for result in self.program.result if isinstance(self.program.result, tuple) else (
                self.program.result,):
            if isinstance(result, ir.Var) and result.name not in self.program.types:
                self.fail(None, f"the result {result.name} has no type")

    # --- structure ----------------------------------------------------------------------

    def structure(self, stmt):
        for field in fields(stmt):
            value = getattr(stmt, field.name)
            if isinstance(value, ast.AST) or (isinstance(value, (list, tuple)) and any(
                    isinstance(v, ast.AST) for v in value)):
                self.fail(stmt, f"a Python syntax tree in its field {field.name}")
        for name in _EXPRESSIONS.get(type(stmt), ()):
            value = getattr(stmt, name)
            if value is None and name in ("message", "cause"):
                continue
            try:
                names = ex.names(value)
            except InternalError:
                self.fail(stmt, f"its {name} is not an IR expression")
            unknown = [n for n in names if n not in stmt.reads and n not in self.globals]
            if unknown:
                self.fail(stmt, f"its {name} reads {', '.join(unknown)}, not among its reads")
        if isinstance(stmt, ir.Check) and stmt.kind not in ("raise", "assert"):
            self.fail(stmt, f"a check of kind {stmt.kind!r}")
        if isinstance(stmt, ir.Assign):
            try:
                rule = self.program.rule(stmt.op)
            except KeyError:
                self.fail(stmt, f"{stmt.op} is no primitive")
            if len(stmt.args) != len(rule.partials):
                self.fail(stmt, f"{stmt.op} takes {len(rule.partials)} operands, "
                                f"not {len(stmt.args)}")

    def breaks(self, block, loop):
        for index, stmt in enumerate(block):
            if isinstance(stmt, ir.BreakIf) and not (loop and index == len(block) - 1):
                self.fail(stmt, "a BreakIf that is not the last statement of a loop body")
            if isinstance(stmt, ir.If):
                self.breaks(stmt.body, False)
                self.breaks(stmt.orelse, False)
            elif isinstance(stmt, ir.For):
                self.breaks(stmt.body, True)
            elif isinstance(stmt, ir.While):
                self.breaks(stmt.pre, False)
                self.breaks(stmt.body, True)

    # --- definitions ------------------------------------------------------------------

    def block(self, block, defined):
        """The names defined on some path once ``block`` ran with ``defined`` defined."""
        defined = set(defined)
        for stmt in block:
            if isinstance(stmt, ir.If):
                self.reads(stmt, defined)
                defined = self.block(stmt.body, defined) | self.block(stmt.orelse, defined)
            elif isinstance(stmt, ir.For):
                self.reads(stmt, defined)
                defined = self.block(stmt.body, defined | set(ir.assigned_names([stmt])))
            elif isinstance(stmt, ir.While):
                defined = defined | set(ir.assigned_names([stmt]))
                defined = self.block(stmt.pre, defined)
                self.reads(stmt, defined)
                defined = self.block(stmt.body, defined)
            else:
                self.reads(stmt, defined)
                if isinstance(stmt, (ir.Assign, ir.Compute, ir.Pop, ir.Build, ir.Item,
                                     ir.Reduce, ir.Share, ir.Take, ir.Join)):
                    defined.add(stmt.target)
        return defined

    def reads(self, stmt, defined):
        for name in ir.reads(stmt):
            if name not in defined and name not in self.globals and name not in self.unbound:
                self.fail(stmt, f"it reads {name}, assigned on no path to it")

    # --- types ----------------------------------------------------------------------

    def name_type(self, name):
        return name_type(self.program, self.program.types, name)

    def type_of(self, stmt, name):
        found = self.name_type(name)
        if found is None and name not in self.program.namespace and name not in self.unbound:
            self.fail(stmt, f"{name} has no type")
        return found

    def operand(self, stmt, operand):
        if isinstance(operand, ir.Var):
            return self.type_of(stmt, operand.name)
        return t.of_value(operand.value)

    def typed(self, stmt):
        if isinstance(stmt, ir.Assign):
            args = [self.operand(stmt, a) for a in stmt.args]
            if stmt.op not in _ANY:
                for arg, kind in zip(stmt.args, args):
                    if kind is not None and not _numeric(kind):
                        self.fail(stmt, f"an operand of {stmt.op} is a {kind}")
            self.holds(stmt, stmt.target, result_type(stmt, args))
        elif isinstance(stmt, ir.Compute):
            self.holds(stmt, stmt.target, expression_type(stmt.expr, self.name_type))
        elif isinstance(stmt, ir.For) and stmt.over is not None:
            over = self.type_of(stmt, stmt.over.container)
            for index in stmt.over.path:
                over = element(over, index.value if isinstance(index, ir.Const) else None)
            if not isinstance(over, t.Dict) or stmt.bounds:
                self.fail(stmt, f"a loop over the keys of a {over}")
            self.holds(stmt, stmt.target, t.STR)
        elif isinstance(stmt, ir.For):
            for bound in stmt.bounds:
                if not t.accepts(t.INT, self.operand(stmt, bound)):
                    self.fail(stmt, "a loop bound that is not an integer")
            self.holds(stmt, stmt.target, t.INT)
        elif isinstance(stmt, (ir.Build, ir.Item, ir.SetItem, ir.Reduce, ir.Push,
                               ir.Share, ir.Take, ir.Join)) and (
                self.container(stmt) is not None):
            self.container_typed(stmt)
        elif isinstance(stmt, ir.Pop):
            kind = self.type_of(stmt, stmt.stack)
            if not isinstance(kind, t.List) or not t.is_number(kind.elem):
                self.fail(stmt, f"{stmt.stack} is a {kind}, not a list of numbers")
            elif (stmt.stack, stmt.target) not in self.returned:
                self.holds(stmt, stmt.target, element_type(self.program, stmt))
            if stmt.index is not None and not t.accepts(t.INT, self.operand(stmt, stmt.index)):
                self.fail(stmt, "a pop at a position that is not an integer")
        elif isinstance(stmt, ir.Push):
            self.fail(stmt, f"{stmt.stack}, appended to, is not a container")
        elif isinstance(stmt, ir.BreakIf):
            if expression_type(stmt.test, self.name_type) != t.BOOL:
                self.fail(stmt, "a BreakIf that does not test a bool")

    def container(self, stmt):
        return self.program.containers.get(_container_name(stmt))

    def container_typed(self, stmt):
        """A container statement: its container typed as one, its numbers numbers, its
        indices ints (or a dict's keys)."""
        kind = self.container(stmt)
        if self.name_type(_container_name(stmt)) != kind:
            self.fail(stmt, f"the container is typed {kind} by lowering, but not by inference")
        numbers = {ir.Build: "items", ir.SetItem: "value", ir.Reduce: "start", ir.Push: "value"}
        values = getattr(stmt, numbers.get(type(stmt), ""), ())
        if isinstance(stmt, (ir.Push, ir.SetItem)) and isinstance(values, ir.Var) and (
                values.name in self.program.containers):  # a row into a list of rows
            values = ()
        if isinstance(stmt, ir.Join):
            values = tuple(item for part in stmt.parts if isinstance(part, ir.Literal)
                           for _, item in ir.literal_leaves(part.items))
            for part in stmt.parts:
                if isinstance(part, ir.Ref) and part.container not in self.program.containers:
                    self.fail(stmt, f"a part, {part.container}, is no container")
        if isinstance(stmt, ir.Build):
            values = tuple(item for _, item in ir.literal_leaves(stmt.items, stmt.keys)
                           if not (isinstance(item, ir.Var)
                                   and item.name in self.program.containers))
        for value in values if isinstance(values, tuple) else (values,):
            if value is not None and not _numeric(self.operand(stmt, value)):
                self.fail(stmt, f"a container holds a {self.operand(stmt, value)}")
        for index in getattr(stmt, "path", ()):
            found = self.operand(stmt, index)
            if found not in (t.INT, t.BOOL, t.STR):
                self.fail(stmt, f"an index that is a {found}")
        if isinstance(stmt, ir.Item):
            self.holds(stmt, stmt.target, element_type(self.program, stmt))
        elif isinstance(stmt, ir.Reduce):
            self.holds(stmt, stmt.target, t.FLOAT)

    def holds(self, stmt, name, kind):
        held = self.type_of(stmt, name)
        if kind is not None and not t.accepts(held, kind):
            self.fail(stmt, f"{name} is a {held} but is given a {kind}")


def _container_name(stmt):
    """The container a container statement makes or changes (a ``Push``'s list)."""
    if isinstance(stmt, (ir.Build, ir.Share, ir.Take, ir.Join)):
        return stmt.target
    return getattr(stmt, "container", getattr(stmt, "stack", None))


def _numeric(kind):
    return t.is_number(kind) or isinstance(kind, t.Table) or (
        isinstance(kind, t.Optional) and t.is_number(kind.of))

