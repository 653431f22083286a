"""Type inference: the type of every variable of a lowered ``Program``.

Expects a ``Program`` from ``lower`` (or a pass that keeps its shape).  Guarantees
``infer_types(program)``: a dict from every name the program defines — parameters,
targets, loop variables, containers — to its ``symdiff.core.types`` type, in the order the
names are first defined; ``annotate`` stores it as ``program.types``.

- A parameter is a float, unless the code reads it as a table (``Table``), as an
  integer (a ``range`` bound, an integer argument of a primitive, an index), or it
  defaults to None (``Optional``), a string or a bool (the type of its default).
- An ``Assign`` gets its record's type rule's result (``result_type``, the one
  statement of the rule: ``Primitive.typed``) for its operands' types and the constants
  it is given: integer-valued primitives (``floor``, ``factorial``, ``round`` of one
  number) give ``Int``, the tests (``isnan``) ``Bool``, arithmetic the wider type of its
  operands, ``max``/``min`` the operands' own, everything else ``Float``.  Called by
  numpy's name, or by SciPy, a number is a NumPy scalar (``NUMPY_FLOAT``), and so is what
  an operator, ``abs``, ``max`` or a copy makes of one, through lists appended to and
  popped from too; ``Program.computed_by`` reads the operators numpy computes off these.
- A ``Compute`` gets the type of its expression (``expression_type``): comparisons and
  ``not`` give ``Bool``, ``len`` an ``Int``, an entry of a table a number, an operator
  its record's rule's type.
- A container gets the type lowering gave it (from the arguments' kinds and what the code
  builds), its elements joined with the numbers appended to it.
- An expression it cannot type leaves its variable without a type (never an error
  here: ``check_program``, which the tests run, reports it).
- ``name = xs.pop()`` gives ``name`` the type of the list's elements, unless ``name``
  itself is appended to that list (``returned_names``) and has a type from its other
  assignments.
- A name assigned in several places holds the join of its values' types (an ``Int``
  counter later given floats is a ``Float``), found by iterating to a fixed point.
- A name a number constant starts (``h = 0.0``) that its other assignments make an
  array (``h = h + x``) is that array: the constant is a zero (or any number) NumPy
  broadcasts, as an adjoint a loop starts anew is (``started_by_constants``).  A number
  the function computes and an array in one name are refused where they are checked.

    s = np.sin(x)        s: np.float64
    q = s / y            q: np.float64   (computed by numpy: its partials are numpy's)
    k = math.floor(q)    k: int
"""

from symdiff.analysis.array_aliases import refuse_aliased_writes
from symdiff.analysis.array_forms import alike_arrays, refuse_array_forms
from symdiff.analysis.held_types import (
    appended_containers, broadcast_join, copied_row, held_arrays, held_type, holds_arrays,
    normalize_join_axes, stored_array, summed_arrays, unlike_items, unlike_row)
from symdiff.analysis.expression_types import (
    expression_type,
    keeps_ints,
    keeps_numbers,
    name_type,
)
from symdiff.errors import InternalError
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.core import types as t


def result_type(program, stmt, arg_types):
    """The type of ``stmt.op(*args)`` for arguments of ``arg_types``: the type rule of
    the ``Assign`` ``stmt``'s record, with the constants it is given, as the names the
    user called it by compute it."""
    try:
        rule = program.rule(stmt.op)
    except KeyError:
        return t.FLOAT  # no primitive: ``check_program`` reports it
    consts = tuple(a.value if isinstance(a, ir.Const) else None for a in stmt.args)
    return rule.typed(arg_types, consts, stmt.family).result


def _rule(program, op):
    try:
        return program.rule(op)
    except KeyError:
        return None


class _Inference:
    def __init__(self, program):
        self.program = program
        self.types = {}
        self.ints = set()  # parameters read as integers
        self.returned = returned_names(program)
        self.pushes = {}  # list -> the statements appending to it
        for stmt in ir.walk(program.body):
            if isinstance(stmt, ir.Push):
                self.pushes.setdefault(stmt.stack, []).append(stmt)
        self.fallback = set()  # popped back, typed by their lists all the same
        self.deferred_starts = set()  # the ids of number constants starting an array
        self.join = t.join
        self.keys = {s.target for s in ir.walk(program.body)  # loops over a dict's keys
                     if isinstance(s, ir.For) and s.over is not None}
        for stmt in ir.walk(program.body):
            self.note_int_uses(stmt)
        self.spread_ints()
        for name in program.params:
            self.types[name] = self.parameter_type(name)
        for name, kind in program.arrays.items():  # the module's arrays read whole too
            self.types.setdefault(name, kind)
        if program.kwargs:
            self.types[program.kwargs] = t.Table()

    def parameter_type(self, name):
        program = self.program
        if name in program.containers:
            return program.containers[name]
        if name in program.arrays:
            return program.arrays[name]
        if name in program.tables:
            return t.Table()
        if name in program.optional:
            return t.Optional(t.INT if name in self.ints else t.FLOAT)
        if name in self.ints:
            return t.INT
        value = program.default_values().get(name)
        if isinstance(value, (str, bool)):
            return t.of_value(value)
        return t.FLOAT

    def note_int_uses(self, stmt):
        if isinstance(stmt, ir.For):
            self.ints.update(b.name for b in stmt.bounds if isinstance(b, ir.Var))
        elif isinstance(stmt, ir.Assign) and stmt.op in self.program.custom:
            return
        elif isinstance(stmt, ir.Assign):
            rule = self.program.rule(stmt.op)
            positions = [rule.params.index(p) for p in rule.ints if p in rule.params]
            self.ints.update(stmt.args[i].name for i in positions
                             if i < len(stmt.args) and isinstance(stmt.args[i], ir.Var))
        elif isinstance(stmt, ir.Compute):
            for node in ex.walk(stmt.expr):
                if isinstance(node, ex.Subscript) and isinstance(node.index, ex.Name):
                    self.ints.add(node.index.id)
        elif isinstance(stmt, (ir.Item, ir.SetItem, ir.Share, ir.Take)):  # indices: ints
            self.ints.update(i.name for i in stmt.path if isinstance(i, ir.Var)
                             and i.name not in self.keys)  # (a dict's keys: strings)
        elif isinstance(stmt, ir.Join):
            self.ints.update(i.name for part in stmt.parts if isinstance(part, ir.Ref)
                             for i in part.path if isinstance(i, ir.Var))
        elif isinstance(stmt, ir.Pop) and isinstance(stmt.index, ir.Var):
            self.ints.add(stmt.index.name)

    def spread_ints(self):
        """A name read as an integer computed from others by integer-keeping arithmetic
        (``range(n + 1)``) makes them integers too."""
        sources, keeps = {}, {}  # (op, family) -> whether its rule keeps numbers
        for stmt in ir.walk(self.program.body):
            if isinstance(stmt, ir.Assign) and stmt.op not in self.program.custom and (
                    self.keeps_numbers(stmt.op, stmt.family, keeps)):
                sources.setdefault(stmt.target, []).extend(
                    a.name for a in stmt.args if isinstance(a, ir.Var))
            elif isinstance(stmt, ir.Compute) and keeps_ints(stmt.expr):
                sources.setdefault(stmt.target, []).extend(stmt.reads)
        pending = list(self.ints)
        while pending:
            for name in sources.get(pending.pop(), ()):
                if name not in self.ints:
                    self.ints.add(name)
                    pending.append(name)

    def keeps_numbers(self, op, family, known):
        """``keeps_numbers`` of ``op``'s rule called by ``family``, found once per run
        for each (``known``: what is found so far)."""
        key = (op, family)
        if key not in known:
            known[key] = keeps_numbers(_rule(self.program, op), family)
        return known[key]

    def run(self):
        starts = started_by_constants(self.program)
        if starts:  # first with a number and an array joined as the array they broadcast to
            self.join = broadcast_join
            self.settle()
            self.join = t.join
            self.deferred_starts = {s.sid for s in starts
                                    if isinstance(self.types.get(s.target), t.Array)}
        self.settle()  # (the other names that both join refused, as before)
        self.fallback = {name for _, name in self.returned if name not in self.types}
        if self.fallback:  # a name only ever popped back (``a = t.pop(); t.append(a)``)
            self.settle()
        return self.types

    def settle(self):
        statements = list(ir.walk(self.program.body))
        for _ in range(len(statements) + 64):
            before = dict(self.types)
            for stmt in statements:
                self.statement(stmt)
            if self.types == before:
                return
        raise InternalError("types", "type inference did not settle")

    def define(self, name, kind):  # (arrays of unlike kinds: refused at ``self.at``)
        self.types[name] = self.join(alike_arrays(self.at, self.types.get(name), kind), kind)

    def statement(self, stmt):
        if stmt.sid in self.deferred_starts:
            return
        self.at = stmt
        if isinstance(stmt, ir.Assign):
            self.define(stmt.target, result_type(self.program, stmt,
                                                 [self.operand(a) for a in stmt.args]))
        elif isinstance(stmt, ir.Compute):
            self.define(stmt.target, expression_type(stmt.expr, self.name_type))
        elif isinstance(stmt, ir.For):
            self.define(stmt.target, t.INT if stmt.over is None else t.STR)
        elif isinstance(stmt, ir.Try):  # the number of the clause that caught
            self.define(stmt.caught, t.INT)
        elif isinstance(stmt, ir.Build):
            self.built(stmt)
        elif isinstance(stmt, (ir.Share, ir.Take, ir.Join)):
            self.copied(stmt)
        elif isinstance(stmt, ir.Item):
            self.define(stmt.target, element_type(self.program, stmt, self.types))
        elif isinstance(stmt, ir.SetItem):
            self.store(stmt.container, [_index(i) for i in stmt.path], stmt.value)
        elif isinstance(stmt, ir.Reduce):
            self.define(stmt.target, self.reduced(stmt))
        elif isinstance(stmt, ir.Push):
            self.pushed(stmt)
        elif isinstance(stmt, ir.Pop) and ((stmt.stack, stmt.target) not in self.returned
                                           or stmt.target in self.fallback):
            self.define(stmt.target, element_type(self.program, stmt, self.types))

    def built(self, stmt):
        """A container written out: lowering's type, each element joined with the number
        it is built of (a list of NumPy scalars holds NumPy scalars), or the array
        (``held_types``); an empty list arrays are appended to holds arrays."""
        held = self.types.get(stmt.target)
        if not stmt.items and holds_arrays(held):  # filled with arrays (appended, stored)
            return
        if unlike_items(stmt, self.operand) is not None:  # read at constant positions
            if (row := unlike_row(self.program, stmt, self.operand, held)) is not None:
                self.types[stmt.target] = row  # else no type: refused where it is built
            return
        with_arrays = held_type(stmt, self.program.containers[stmt.target], self.operand, held)
        if with_arrays is not None:
            self.types[stmt.target] = with_arrays
            return
        self.define(stmt.target, self.program.containers[stmt.target])
        for path, item in ir.literal_leaves(stmt.items, stmt.keys):
            if stmt.repeat is None:
                self.store(stmt.target, path, item)
            else:  # ``[a] * n``: every element
                self.store(stmt.target, (None,) * len(path), item)

    def copied(self, stmt):
        """A container bound again (``Share``), sliced or copied (``Take``) or joined
        (``Join``): lowering's type, its numbers joined with those of its sources (the
        same kind of number in every element: the sources' positions are not followed)."""
        if (row := copied_row(stmt, self.types)) is not None:  # ``tuple(xs)`` of a Row
            self.types[stmt.target] = row
            return
        self.define(stmt.target, self.program.containers[stmt.target])
        sources = [part for part in stmt.parts if isinstance(part, ir.Ref)] if isinstance(
            stmt, ir.Join) else [ir.Ref(stmt.container, stmt.path)]
        numbers = [self.number_in(part.container, part.path) for part in sources]
        if isinstance(stmt, ir.Join):
            numbers += [self.operand(item) for part in stmt.parts
                        if isinstance(part, ir.Literal)
                        for _, item in ir.literal_leaves(part.items)]
        for number in numbers:
            if t.is_number(number):
                kind = self.types[stmt.target]
                self.define(stmt.target, t.stored(kind, (None,) * _depth(kind), number))

    def number_in(self, name, path):
        """The kind of number every element of ``name[path]`` holds (None: not one)."""
        kind = self.types.get(name, self.program.containers.get(name))
        for index in path:
            kind = t.element(kind, _index(index))
        while kind is not None and not t.is_number(kind):
            kind = t.element(kind, None)
        return kind

    def store(self, name, path, value):
        kind = self.types.get(name, self.program.containers.get(name))
        found = self.operand(value)
        if kind is not None and t.is_number(found):
            self.define(name, t.stored(kind, tuple(path), found))
        elif kind is not None and isinstance(found, t.Array):  # ``d[k] = W`` fills a dict
            self.types[name] = stored_array(kind, tuple(path), found)

    def reduced(self, stmt):
        """Of NumPy scalars one, of other numbers (``fsum`` of any) a float, of arrays an array."""
        kind = self.types.get(stmt.container, self.program.containers.get(stmt.container))
        for index in stmt.path:
            kind = t.element(kind, _index(index))
        numbers = t.element(kind, None)
        if isinstance(numbers, t.Array) or stmt.axis is not None:  # of arrays; a join
            return summed_arrays(stmt, numbers, self.operand)
        return t.NUMPY_FLOAT if numbers == t.NUMPY_FLOAT and stmt.op != "fsum" else t.FLOAT

    def pushed(self, stmt):
        """A number appended to a list: the list's elements hold its type too (a NumPy
        scalar appended is one when popped); arrays (or containers of them): they are."""
        stack = self.types.get(stmt.stack, self.program.containers.get(stmt.stack))
        value = self.operand(stmt.value)
        if isinstance(stack, t.List) and t.is_number(value):
            self.define(stmt.stack, t.List(t.join(stack.elem, value), stack.length))
        elif isinstance(stack, t.List) and isinstance(value, t.Array) and (
                self.arrays_on(stmt.stack, value)):
            self.types[stmt.stack] = t.List(value if t.is_number(stack.elem) else t.join(
                stack.elem, value), stack.length)
        elif isinstance(stack, t.List) and t.is_container(value) and holds_arrays(value):
            elem = appended_containers([self.operand(s.value) for s in self.pushes[stmt.stack]])
            if elem is not None:  # (rows of layers: ``dlayers.append([dW, db])``)
                self.types[stmt.stack] = t.List(elem, stack.length)

    def arrays_on(self, stack, value):
        """Whether every value appended to ``stack`` is an array joining ``value`` (the
        saved arrays of a gradient): its elements are arrays then, not numbers."""
        for stmt in self.pushes.get(stack, ()):
            kind = self.operand(stmt.value)
            if not (kind is None or isinstance(kind, t.Array) and kind.ndim == value.ndim
                    and kind.dtype[:5] == value.dtype[:5]):
                return False
        return True

    def operand(self, operand):
        if isinstance(operand, ir.Var):
            return self.name_type(operand.name)
        return t.of_value(operand.value)  # ``math.pi``, ``STEPS`` (spelled by name) too

    def name_type(self, name):
        """The type of ``name``: a variable's as known so far, or a global's value's."""
        return name_type(self.program, self.types, name)


def _depth(kind):
    """How many indices reach a number in a container of type ``kind``."""
    depth = 0
    while kind is not None and not t.is_number(kind):
        kind, depth = t.element(kind, None), depth + 1
    return depth


def _index(operand):
    return operand.value if isinstance(operand, ir.Const) else None


def element_type(program, stmt, types):
    """The type of what an ``Item`` reads or a ``Pop`` takes off (a number; a row or a key off
    a tape): its container's element's as ``types`` (or lowering) holds it, else a float."""
    if isinstance(stmt, ir.Pop):
        kind = t.element(types.get(stmt.stack, program.containers.get(stmt.stack)), None)
        return kind if kind in _HELD or t.is_container(kind) or t.is_array(kind) else t.FLOAT
    kind = types.get(stmt.container, program.containers.get(stmt.container))
    for index in stmt.path:
        kind = t.element(kind, index.value if isinstance(index, ir.Const) else None)
    return kind if kind in _ELEMENTS or isinstance(kind, t.Array) else t.FLOAT


_ELEMENTS = (t.INT, t.FLOAT, t.NUMPY_FLOAT)  # the numbers a container holds (a bool: an int)
_HELD = _ELEMENTS + (t.STR,)  # what a tape holds besides containers and arrays (keys)


def returned_names(program):
    """(list, name) for each name appended to a list: popping that list into the same
    name gives the name its own value back (how generated code saves values, several
    kinds of number on one list), so the pop tells nothing new of its type."""
    return {(s.stack, s.value.name) for s in ir.walk(program.body)
            if isinstance(s, ir.Push) and isinstance(s.value, ir.Var)}


def started_by_constants(program):
    """The statements assigning a number constant (``h = 0.0``) to a name something else
    is assigned too: those whose other assignments make it an array start the array
    (the constant broadcast)."""
    constant, other = [], set()
    for stmt in ir.walk(program.body):
        target = getattr(stmt, "target", None)
        if number_constant(stmt):
            constant.append(stmt)
        elif isinstance(target, str):
            other.add(target)
    return [s for s in constant if s.target in other]


def number_constant(stmt):
    """Whether ``stmt`` assigns a number constant: ``h = 0.0``."""
    value = stmt.args[0] if isinstance(stmt, ir.Assign) and stmt.op == "copy" and len(
        stmt.args) == 1 else getattr(stmt, "expr", None) if isinstance(stmt, ir.Compute) else None
    return isinstance(value, (ir.Const, ex.Const)) and type(value.value) in (int, float)


def infer_types(program):
    """Every variable of ``program`` with its type (see the module's docstring)."""
    return _Inference(program).run()


def annotate(program):
    """``program`` with ``program.types`` set to ``infer_types(program)``; a container
    holding arrays given its inferred type in ``program.containers`` (``held_types``)."""
    program.types = infer_types(program)
    program.containers = {name: held_arrays(kind, program.types.get(name))
                          for name, kind in program.containers.items()}
    normalize_join_axes(program)
    refuse_array_forms(program)
    refuse_aliased_writes(program)
    return program
