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
- **types** (``check_types``): every variable has a type, and each statement agrees
  with its record's type rule and the types stored on the program (``program.types``),
  checked by code apart from the inference that stored them, so the check catches the
  inference's bugs: an ``Assign``'s target holds what its rule gives for its operands, a
  ``Compute``'s its expression's type, loop variables are integers, a ``BreakIf`` tests a
  bool.

Tests run it after every pass (``SYMDIFF_CHECK_IR=1``, set by ``tests/conftest.py``,
makes ``pipeline`` call it).
"""

import ast
import builtins
from dataclasses import fields

from symdiff.errors import InternalError
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir.check_types import TypeChecker
from symdiff.ir.printer import statement_text

_BUILTINS = frozenset(dir(builtins))
_EXPRESSIONS = {ir.Compute: ("expr",), ir.While: ("test",), ir.BreakIf: ("test",),
                ir.Check: ("value", "message", "cause")}


def check_program(program, stage):
    """Raise ``InternalError`` naming ``stage`` when ``program`` breaks an invariant."""
    _Checker(program, stage).run()


class _Checker:
    def __init__(self, program, stage):
        self.program, self.stage = program, stage
        self.globals = set(program.namespace) | {program.math_name} | _BUILTINS
        self.params = set(program.params) | ({program.kwargs} if program.kwargs else set())
        assigned = set(ir.assigned_names(program.body)) | self.params
        self.unbound = {n for s in ir.walk(program.body) for n in ir.reads(s)
                        if n not in assigned and n not in self.globals}
        self.types = TypeChecker(program, self.unbound, self.fail)

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
            self.types.check(stmt)
        self.types.exact(self.params)
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
        if isinstance(stmt, ir.Check) and stmt.kind not in ("raise", "assert", "report"):
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
            elif isinstance(stmt, ir.Try):
                self.breaks(stmt.body, False)
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
            elif isinstance(stmt, ir.Try):  # its body may stop part way; it sets caught
                self.reads(stmt, defined)
                defined = self.block(stmt.body, defined) | {stmt.caught} | (
                    {stmt.error} if stmt.error else set())
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
