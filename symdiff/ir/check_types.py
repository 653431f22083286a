"""The type half of ``check_program``: each statement against its record's type rule and the
types stored on the program, by code of its own.

Expects a ``Program`` whose ``types`` an inference stored, and a ``fail(stmt, message)``
that raises.  Guarantees a check that shares no code with the inference
(``symdiff.analysis.types``) but the records' type rules, the one statement of each rule
(``Primitive.typed``): a bug of the inference (a wrong type stored, a rule read wrong)
shows here as a statement whose target does not hold what its rule gives.

- every variable a statement reads or writes has a type (a global's is its value's);
- an ``Assign``'s operands are numbers or arrays (but for ``copy`` and ``stop_gradient``) and its
  target holds what its record's rule gives for its operands' stored types (a float given
  where a rule takes an integer is the user's ``TypeError`` when it runs, not a broken IR);
- a ``Compute``'s target holds its expression's type, each operator typed by its record
  (a number constant may start an array, which NumPy broadcasts it to);
- loop bounds and loop variables are integers, a loop over keys runs over a dict's;
- a container is typed as lowering made it, or as a refinement of it (a list of floats a
  NumPy scalar is appended to holds NumPy scalars); its numbers are numbers, its indices
  ints or keys; a read element, a popped number and an appended one have its element's type;
- a ``BreakIf`` tests a bool; a ``Try`` records the clause that caught in an int;
- a variable's stored type is exactly the join of what its statements give it (not
  wider: a float stored as a NumPy scalar would spell its operators numpy's).

    y = sin(x)   with  types {x: float, y: int}   ->  "y is a int but is given a float"
"""

import numbers

from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.core import types as t
from symdiff.primitives import registry

_ANY = frozenset(("copy", "stop_gradient"))  # take a value of any type, as it is
_VALUES = {"len": t.INT, "isqrt": t.INT, "gcd": t.INT, "lcm": t.INT, "bool": t.BOOL,
           "isinstance": t.BOOL, "callable": t.BOOL, "hasattr": t.BOOL}  # no primitives
_NUMBERS = {ir.Build: "items", ir.SetItem: "value", ir.Reduce: "start", ir.Push: "value"}


class TypeChecker:
    def __init__(self, program, unbound, fail):
        self.program, self.unbound, self.fail = program, unbound, fail
        self.types = program.types
        self.returned = {(s.stack, s.value.name) for s in ir.walk(program.body)
                         if isinstance(s, ir.Push) and isinstance(s.value, ir.Var)}
        self.given, self.unknown = {}, set()  # name -> (a statement, the join it is given)

    # --- the types of names and operands ---------------------------------------------

    def name_type(self, name):
        if name in self.types:
            return self.types[name]
        if name in self.program.namespace:
            return _global_type(self.program.namespace[name])
        return None

    def type_of(self, stmt, name):
        found = self.name_type(name)
        if found is None and name not in self.program.namespace and name not in self.unbound:
            self.fail(stmt, f"{name} has no type")
        return found

    def operand(self, stmt, operand):
        if isinstance(operand, ir.Var):
            return self.type_of(stmt, operand.name)
        return t.of_value(operand.value)

    def holds(self, stmt, name, kind):
        held = self.type_of(stmt, name)
        if kind is not None and not t.accepts(held, kind):
            self.fail(stmt, f"{name} is a {held} but is given a {kind}")
        if kind is None:
            self.unknown.add(name)
        elif name not in self.unknown:
            self.given[name] = (stmt, t.join(self.given.get(name, (None, None))[1], kind))

    def exact(self, params):
        """Each variable's stored type is no wider than what its statements give it: the
        join of their rules' results (a float stored where only ints are given would make
        a wrong spelling as surely as a narrower one), parameters apart."""
        for name, (stmt, kind) in self.given.items():
            if name not in params and name not in self.unknown and self.types[name] != kind:
                self.fail(stmt, f"{name} is a {self.types[name]}, but its statements give "
                                f"it a {kind}")

    # --- statements --------------------------------------------------------------------

    def check(self, stmt):
        if self.broadcast_start(stmt):
            return
        if isinstance(stmt, ir.Assign):
            self.assign(stmt)
        elif isinstance(stmt, ir.Compute):
            self.holds(stmt, stmt.target, self.expression(stmt.expr))
        elif isinstance(stmt, ir.For):
            self.loop(stmt)
        elif isinstance(stmt, ir.Try):
            self.holds(stmt, stmt.caught, t.INT)
        elif isinstance(stmt, (ir.Build, ir.Item, ir.SetItem, ir.Reduce, ir.Push,
                               ir.Share, ir.Take, ir.Join)) and (
                self.program.containers.get(_container_name(stmt)) is not None):
            self.container(stmt)
        elif isinstance(stmt, ir.Pop):
            self.pop(stmt)
        elif isinstance(stmt, ir.Push):
            self.fail(stmt, f"{stmt.stack}, appended to, is not a container")
        elif isinstance(stmt, ir.BreakIf) and self.expression(stmt.test) != t.BOOL:
            self.fail(stmt, "a BreakIf that does not test a bool")

    def broadcast_start(self, stmt):
        """Whether ``stmt`` starts an array with a number constant (``h = 0.0``), which
        NumPy broadcasts where the array's other assignments meet it."""
        value = stmt.args[0] if isinstance(stmt, ir.Assign) and stmt.op == "copy" and len(
            stmt.args) == 1 else getattr(stmt, "expr", None) if isinstance(
            stmt, ir.Compute) else None
        return isinstance(value, (ir.Const, ex.Const)) and type(value.value) in (
            int, float) and isinstance(self.type_of(stmt, stmt.target), t.Array)

    def assign(self, stmt):
        args = [self.operand(stmt, a) for a in stmt.args]
        if stmt.op not in _ANY and not _on_arrays(self.program.rule(stmt.op), args):
            for kind in args:
                if kind is not None and not _numeric(kind):
                    self.fail(stmt, f"an operand of {stmt.op} is a {kind}")
        consts = [a.value if isinstance(a, ir.Const) else None for a in stmt.args]
        given = self.program.rule(stmt.op).typed(args, consts, stmt.family).result
        if given is None and all(a is not None for a in args):
            self.fail(stmt, f"{stmt.op} gives no value for operands of types "
                            f"{', '.join(map(str, args))}")
        self.holds(stmt, stmt.target, given)

    def loop(self, stmt):
        if stmt.over is not None:
            over = self.type_of(stmt, stmt.over.container)
            for index in stmt.over.path:
                over = t.element(over, index.value if isinstance(index, ir.Const) else None)
            if not isinstance(over, t.Dict) or stmt.bounds:
                self.fail(stmt, f"a loop over the keys of a {over}")
            self.holds(stmt, stmt.target, t.STR)
            return
        for bound in stmt.bounds:
            if not t.accepts(t.INT, self.operand(stmt, bound)):
                self.fail(stmt, "a loop bound that is not an integer")
        self.holds(stmt, stmt.target, t.INT)

    def pop(self, stmt):
        kind = self.type_of(stmt, stmt.stack)
        if not isinstance(kind, t.List) or not (t.is_number(kind.elem) or isinstance(
                kind.elem, (t.Array, t.List, t.Tuple, t.Dict, t.Str))):
            self.fail(stmt, f"{stmt.stack} is a {kind}, not a list of numbers, arrays or "
                      "containers")
        elif (stmt.stack, stmt.target) not in self.returned:
            self.holds(stmt, stmt.target, kind.elem if isinstance(kind.elem, (
                t.Array, t.List, t.Tuple, t.Dict, t.Str)) else _number_read(kind.elem))
        if stmt.index is not None and not t.accepts(t.INT, self.operand(stmt, stmt.index)):
            self.fail(stmt, "a pop at a position that is not an integer")

    def container(self, stmt):
        """A container statement: its container typed as lowering made it (or refined), its
        numbers numbers, its indices ints or keys, a number read its element's type."""
        name = _container_name(stmt)
        made, kind = self.program.containers[name], self.name_type(name)
        if _of_arrays(kind, made):  # a list of saved arrays: its elements are arrays
            made = kind
        if kind is None or not t.accepts(kind, made) or type(kind) is not type(made):
            self.fail(stmt, f"the container is typed {made} by lowering, but {kind} here")
        for value in self.numbers(stmt):
            found = self.operand(stmt, value)
            if not _numeric(found) and not (found == t.STR and kind == t.List(t.STR, None)):
                self.fail(stmt, f"a container holds a {found}")
            if isinstance(stmt, ir.Push) and isinstance(kind, t.List) and not t.accepts(
                    kind.elem, found):
                self.fail(stmt, f"a {found} appended to a {kind}")
        for index in getattr(stmt, "path", ()):
            found = self.operand(stmt, index)
            if found not in (t.INT, t.BOOL, t.STR):
                self.fail(stmt, f"an index that is a {found}")
        for path, value in self.placed(stmt):
            found, there = self.operand(stmt, value), _at(kind, path)
            if t.is_number(there) and t.is_number(found) and not t.accepts(there, found):
                self.fail(stmt, f"a {found} stored where its {kind} holds a {there}")
        for number in self.copied(stmt):
            inner = _innermost(kind)
            if t.is_number(inner) and t.is_number(number) and not t.accepts(inner, number):
                self.fail(stmt, f"a {number} of its sources copied into a {kind}")
        if isinstance(stmt, ir.Item):
            self.holds(stmt, stmt.target, _number_read(_at(kind, stmt.path)))
        elif isinstance(stmt, ir.Reduce):
            self.holds(stmt, stmt.target, self.reduced(stmt, _at(kind, stmt.path)))

    def reduced(self, stmt, kind):
        """What a ``Reduce`` of a container of type ``kind`` gives: a join of a list of
        arrays its record's rule; a sum of arrays their broadcast with the start; of
        NumPy scalars one, of other numbers a float."""
        numbers = t.element(kind, None)
        if stmt.axis is not None:
            return registry.operation_of(stmt).result(kind, ())
        if isinstance(numbers, t.Array):
            start = t.INT if stmt.start is None else self.operand(stmt, stmt.start)
            return t.broadcast((numbers, start))
        return t.NUMPY_FLOAT if numbers == t.NUMPY_FLOAT and stmt.op != "fsum" else t.FLOAT

    def copied(self, stmt):
        """The kinds of number the sources of a ``Share``, ``Take`` or ``Join`` hold."""
        if isinstance(stmt, (ir.Share, ir.Take)):
            return [_innermost(_at(self.name_type(stmt.container), stmt.path))]
        if isinstance(stmt, ir.Join):
            return [_innermost(_at(self.name_type(part.container), part.path))
                    if isinstance(part, ir.Ref) else self.operand(stmt, item)
                    for part in stmt.parts
                    for item in ((None,) if isinstance(part, ir.Ref) else
                                 [i for _, i in ir.literal_leaves(part.items)])]
        return []

    def placed(self, stmt):
        """``(path, operand)`` of each number a ``Build`` or ``SetItem`` stores."""
        if isinstance(stmt, ir.SetItem):
            return [(stmt.path, stmt.value)]
        if isinstance(stmt, ir.Build):
            return [(path if stmt.repeat is None else (None,) * len(path), item)
                    for path, item in ir.literal_leaves(stmt.items, stmt.keys)]
        return []

    def numbers(self, stmt):
        """The operands ``stmt`` puts into its container as numbers (not rows)."""
        containers = self.program.containers
        if isinstance(stmt, ir.Join):
            for part in stmt.parts:
                if isinstance(part, ir.Ref) and part.container not in containers:
                    self.fail(stmt, f"a part, {part.container}, is no container")
            return [item for part in stmt.parts if isinstance(part, ir.Literal)
                    for _, item in ir.literal_leaves(part.items)]
        if isinstance(stmt, ir.Build):
            return [item for _, item in ir.literal_leaves(stmt.items, stmt.keys)
                    if not (isinstance(item, ir.Var) and item.name in containers)]
        value = getattr(stmt, _NUMBERS.get(type(stmt), ""), None)
        if value is None or isinstance(value, ir.Var) and value.name in containers:
            return []  # a row into a list of rows
        return [value]

    # --- expressions -----------------------------------------------------------------

    def expression(self, expr):
        """The type of the IR expression ``expr`` (None where this check cannot tell)."""
        if isinstance(expr, ex.Const):
            return t.of_value(expr.value)
        if isinstance(expr, ex.Name):
            return self.name_type(expr.id)
        if isinstance(expr, ex.Compare):  # of arrays, an array of booleans
            sides = [self.expression(e) for e in (expr.left,) + tuple(expr.comparators)]
            return t.broadcast(sides, dtype="bool") if any(
                isinstance(k, t.Array) for k in sides) else t.BOOL
        if isinstance(expr, ex.UnaryOp) and expr.op == "not":
            return t.BOOL
        if isinstance(expr, ex.FString):
            return t.STR
        if isinstance(expr, (ex.UnaryOp, ex.BinOp)):
            operands = (expr.operand,) if isinstance(expr, ex.UnaryOp) else (expr.left,
                                                                              expr.right)
            op = registry.operator_ops(len(operands)).get(expr.op, "pos")
            return self.by_rule(op, operands)
        if isinstance(expr, (ex.BoolOp, ex.IfExp)):
            parts = expr.values if isinstance(expr, ex.BoolOp) else (expr.body, expr.orelse)
            found = None
            for part in parts:
                found = t.join(found, self.expression(part))
            return found
        if isinstance(expr, ex.Attribute) and expr.attr in ("shape", "ndim", "size") and (
                isinstance(self.expression(expr.value), t.Array)):
            return t.Table(t.INT) if expr.attr == "shape" else t.INT
        if isinstance(expr, ex.Subscript):
            table = self.expression(expr.value)
            if not isinstance(table, t.Table):
                return None
            return table if isinstance(expr.index, ex.Slice) else table.elem
        if isinstance(expr, ex.Attribute) and isinstance(expr.value, ex.Name) and (
                expr.value.id == "math"):
            return t.FLOAT if expr.attr in ("pi", "e", "tau", "inf", "nan") else None
        if isinstance(expr, ex.Call):
            return self.call(expr)
        return None

    def by_rule(self, op, operands, by=None):
        args = [self.expression(a) for a in operands]
        consts = [a.value if isinstance(a, ex.Const) else None for a in operands]
        return registry.typed(op, args, consts, by).result

    def call(self, expr):
        func = expr.func
        name = func.id if isinstance(func, ex.Name) else getattr(func, "attr", None)
        if name in _VALUES:
            return _VALUES[name]
        if isinstance(func, ex.Name) and name == "range":  # a table of ints, read-only
            return t.Table(t.INT)
        if isinstance(func, ex.Name) and name in ("list", "tuple", "sorted") and (
            len(expr.args) == 1):
            table = self.expression(expr.args[0])  # a range's positions in another order
            return table if isinstance(table, t.Table) else None
        if name == "get" and isinstance(func, ex.Attribute):  # ``kwargs.get("k", default)``
            table = self.expression(func.value)
            if isinstance(table, t.Table):
                default = expr.args[1] if len(expr.args) > 1 else ex.Const(None)
                return t.join(table.elem, self.expression(default))
        family = "builtin" if isinstance(func, ex.Name) else "math"
        op = registry.names(family).get(name)
        if op is None:
            return None
        op = registry.variant(op, len(expr.args))
        return self.by_rule(op, expr.args, None if family == "builtin" else "math")


def _global_type(value):
    """The type of a global the program reads: a number's, a string's, None's, or a table's
    (a tuple, list or one-dimensional array of numbers)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return t.of_value(value)
    values = value.tolist() if hasattr(value, "tolist") else value
    if isinstance(values, (tuple, list)) and all(
            isinstance(v, numbers.Real) and not isinstance(v, type) for v in values):
        return t.Table(t.INT if values and all(isinstance(v, int) for v in values)
                       else t.FLOAT)
    return None


def _at(kind, path):
    """The type at ``path`` (operands, or constants) inside a container of type ``kind``."""
    for index in path:
        if isinstance(index, ir.Const):
            index = index.value
        kind = t.element(kind, None if isinstance(index, ir.Var) else index)
    return kind


def _innermost(kind):
    """The number every element of a container of type ``kind`` is (None: no one)."""
    while kind is not None and not t.is_number(kind):
        kind = t.element(kind, None)
    return kind


def _number_read(kind):
    """The number an element of type ``kind`` is read as (a bool an int, a ``Number`` as
    it is; anything this check cannot tell a float, as generated code reads it)."""
    return kind if kind in (t.INT, t.NUMBER, t.FLOAT, t.NUMPY_FLOAT) or isinstance(
        kind, t.Array) else t.FLOAT


def _of_arrays(kind, made):
    """Whether ``kind`` is a list of arrays where lowering made a list of numbers (an empty
    list the code appends arrays to, as a gradient saves them)."""
    return isinstance(kind, t.List) and isinstance(made, t.List) and isinstance(
        kind.elem, t.Array) and t.is_number(made.elem)


def _container_name(stmt):
    """The container a container statement makes or changes (a ``Push``'s list)."""
    if isinstance(stmt, (ir.Build, ir.Share, ir.Take, ir.Join)):
        return stmt.target
    return getattr(stmt, "container", getattr(stmt, "stack", None))


def _on_arrays(rule, args):
    """Whether a statement computes on arrays: its operands are checked by its record's
    type rule (an array operation's constants may be strings or None: ``axis=None``)."""
    return rule.array_result is not None or any(isinstance(a, t.Array) for a in args)


def _numeric(kind):
    return t.is_number(kind) or isinstance(kind, (t.Table, t.Array)) or (
        isinstance(kind, t.Optional) and t.is_number(kind.of))
