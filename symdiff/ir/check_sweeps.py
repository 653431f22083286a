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
  loop's trip counter, or a place;
- **ids**: every statement has an id (``sid``), no two the same, none above
  ``function.last_id``;
- **types** (``function.types``, from ``analysis.sweep_types``): every parameter and
  every name a statement binds has an entry; a value stored in a name of a known type
  has a type that name may hold, by a rule of its own here (``value_type``: a float
  meeting a number is a float, a comparison a bool, ...), so a wrong inference is caught,
  not repeated; an adjoint of a number holds a float (in forward mode, where the
  caller passes the tangents, a number); a 0-d array of floats may hold a float (the
  seed ``1.0`` of a 0-d array's adjoint; NumPy gives a 0-d array's arithmetic back as
  its scalar).

Reads, binds and changes of a statement are ``ir.sweeps``' (``reads``, ``binds``).
"""

import ast
import builtins
from dataclasses import fields

from symdiff.errors import InternalError
from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw
from symdiff.core import types as t
from symdiff.primitives.registry import float_math

_BUILTINS = frozenset(dir(builtins))
_STATEMENTS = (sw.Let, sw.AddTo, sw.Do, sw.NewStack, sw.Push, sw.Pop, sw.If, sw.For, sw.While, sw.Try,
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
        self.adjoints = dict(generated.adjoints)
        self.math = program.math_name
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
        self.ids()
        if self.function.types is not None:
            self.types()
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

    def ids(self):
        seen = set()
        for stmt in _walk(self.function.body):
            sid = stmt.sid
            if type(sid) is not int or sid in seen or sid > self.function.last_id:
                self.fail(stmt, f"its id {sid!r} is missing, taken or past the last given")
            seen.add(sid)

    def types(self):
        types = self.function.types
        function = self.function
        for name in function.params:
            if name not in types:
                self.fail(None, f"the parameter {name} has no type")
        for stmt in _walk(function.body):
            for name in sw.binds(stmt):
                if name not in types:
                    self.fail(stmt, f"it binds {name}, which has no type")
            if isinstance(stmt, sw.Let) and isinstance(stmt.target, str) and not (
                    isinstance(types.get(stmt.target), t.Array) and stmt.value == sw.ZERO):
                # (an array's adjoint may start as the number zero, which broadcasts)
                self.holds(stmt, stmt.target, value_type(stmt.value, types, self.math))
        forward = any(a in function.params for a in self.adjoints.values())
        expected = t.NUMBER if forward else t.FLOAT  # tangents the caller passes: numbers
        for primal, adjoint in self.adjoints.items():
            kind, derivative = types.get(primal), types.get(adjoint)
            if kind in _NUMBERS and derivative is not None and not holds(expected, derivative) and (
                    forward or derivative != t.NUMPY_FLOAT):  # (numpy's float is a float)
                self.fail(None, f"the adjoint {adjoint} of the number {primal} holds a "
                                f"{derivative}, not a {expected}")

    def holds(self, stmt, name, value):
        declared = self.function.types.get(name)
        if declared is not None and value is not None and not holds(declared, value):
            self.fail(stmt, f"{name} is a {declared}, given a {value}")

    def block(self, block, defined):
        """The names defined on some path once ``block`` ran with ``defined`` defined."""
        defined = set(defined)
        for stmt in block:
            if isinstance(stmt, sw.If):
                self.reads(stmt, defined)
                defined = self.block(stmt.body, defined) | self.block(stmt.orelse, defined)
            elif isinstance(stmt, sw.Try):  # its body may stop part way
                self.reads(stmt, defined)
                defined = self.block(stmt.body, defined) | defined | set(_writes(stmt))
                defined = self.block(stmt.cleanup, defined)
            elif isinstance(stmt, (sw.For, sw.While)):
                inside = defined | {n for s in _walk([stmt]) for n in _writes(s)}
                self.reads(stmt, inside if isinstance(stmt, sw.While) else defined)
                defined = self.block(stmt.body, inside)
            else:
                self.reads(stmt, defined)
                defined.update(_writes(stmt))
        return defined

    def reads(self, stmt, defined):
        own = set(sw.binds(stmt)) if isinstance(stmt, sw.NewStack) else ()
        for name in _reads(stmt):
            if name in own:
                continue  # push, pop = stack.append, stack.pop
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
    return sw.evaluated(stmt)


def _reads(stmt):
    return sw.reads(stmt)


def _writes(stmt):
    return sw.binds(stmt)


# --- the check's own rule for the type of a value ----------------------------------------

_NUMBERS = t.NUMBERS


def holds(declared, value):
    """Whether a name of type ``declared`` may hold a value of type ``value``."""
    if declared == value or declared == t.NUMBER and value in _NUMBERS:
        return True
    if declared == t.INT and value == t.BOOL or declared == t.NUMPY_FLOAT and value == t.FLOAT:
        return True  # (a float that may be numpy's may be a float)
    if isinstance(declared, t.Array) and declared.ndim == 0 and declared.dtype.startswith(
            "float") and value in (t.FLOAT, t.NUMPY_FLOAT):
        return True  # a 0-d array may be a float, as NumPy gives its arithmetic back
    if isinstance(declared, t.List) and isinstance(value, t.List):
        return value.elem is None or declared.elem is not None and holds(
            declared.elem, value.elem)
    if isinstance(declared, t.Tuple) and isinstance(value, t.Tuple):
        return len(declared.elts) == len(value.elts) and all(
            holds(d, v) for d, v in zip(declared.elts, value.elts))
    return False


def value_type(expr, types, math_name):
    """The type of ``expr`` where it is certain by few rules (None where they do not
    tell): names as declared, constants, a float meeting a number, ``/`` of numbers, a
    comparison or ``not``, ``math``'s functions that give a float."""
    kind = type(expr)
    if kind is ex.Name:
        return types.get(expr.id)
    if kind is ex.Const:
        return t.of_value(expr.value) if expr.text is None and type(expr.value) in (
            bool, int, float, str) else None
    if kind is ex.UnaryOp:
        return t.BOOL if expr.op == "not" else None
    if kind is ex.Compare:
        return t.BOOL if all(op in ("is", "is not", "in", "not in") for op in expr.ops) or all(
            value_type(e, types, math_name) in _NUMBERS
            for e in (expr.left,) + expr.comparators) else None
    if kind is ex.BinOp:
        left = value_type(expr.left, types, math_name)
        right = value_type(expr.right, types, math_name)
        if left in _NUMBERS and right in _NUMBERS and (
                expr.op == "/" or expr.op in ("+", "-", "*") and t.FLOAT in (left, right)):
            return t.FLOAT
        return None
    if kind is ex.Call and type(expr.func) is ex.Attribute and type(
            expr.func.value) is ex.Name and expr.func.value.id == math_name:
        return t.FLOAT if float_math(expr.func.attr) else None
    return None


def _brief(stmt):
    text = repr(stmt)
    return text if len(text) <= 160 else text[:157] + "..."
