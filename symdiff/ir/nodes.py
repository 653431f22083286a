"""The normalized program: small plain data classes passed between the passes.

Operands are names or constants; every differentiable statement applies one
primitive of the registry to operands.  Control flow stays structured
(``If``, ``For``, ``While``, ``Try``) and, after ``normalize``, no ``return``, ``break``
or ``continue`` is left inside a block: they become flags and guards, and a loop
is only ever left through a ``BreakIf`` as the last statement of its body.

Every statement has an id, ``sid``, unique within its ``Program``: given once the
program is lowered (``number_statements``) and kept by every pass that keeps the
statement (``dataclasses.replace`` keeps it), so analyses key their facts by it.

Expressions a statement holds (``Compute.expr``, a loop's test, a check's parts) are
IR expressions (``symdiff.core.expr``), never Python syntax trees.
"""

import ast
from dataclasses import dataclass, field

from symdiff.core import expr as ex
from symdiff.ir.container_nodes import Build, Item, Join, Literal, Reduce, Ref, SetItem, Share, Take
from symdiff.ir.operands import Const, Origin, Var
from symdiff.core.types import is_array, is_numpy, of_value
from symdiff.primitives.arrays import for_arrays
from symdiff.primitives.registry import arithmetic, rule_of

__all__ = ["Assign", "Build", "BreakIf", "Check", "Compute", "Const", "For", "If", "Item",
           "Join", "Literal", "Origin", "Pop", "Program", "Push", "Reduce", "Ref", "SetItem",
           "Share", "Take", "Try", "Var", "While", "assigned_names", "children", "computed_by",
           "literal_leaves",
           "number_statements", "operand_names", "reads", "walk"]


@dataclass
class Assign:
    """``target = op(*args)`` for a primitive ``op`` of the registry."""

    target: str
    op: str
    args: tuple
    origin: Origin
    call: str = None  # the function as the user's code calls it (``np.tanh``), if not math's
    family: str = None  # whose names the user called it by: "math", "numpy", None (Python's)
    module: str = None  # for numpy's, the name generated code calls numpy by
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class Compute:
    """``target = expr``: a value with no derivative (a test, a bound, a flag)."""

    target: str
    expr: object  # an IR expression
    origin: Origin
    reads: tuple = ()  # the local names ``expr`` reads
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class If:
    test: str  # a local name holding the decision
    body: list
    orelse: list
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class For:
    """``for target in range(*bounds)``; the bounds are evaluated once, on entry.

    With ``reverse``, ``for target in reversed(range(*bounds))``.  With ``over`` (a
    ``Ref`` to a dict, bounds empty), ``for target in container[path]``: the loop runs
    over the dict's keys, in their order (``sort``: sorted; ``reverse``: the other way).
    """

    target: str
    bounds: tuple
    body: list
    origin: Origin
    reverse: bool = False
    sid: int = None  # the statement's id, unique within its Program
    over: object = None  # a ``Ref`` to the dict whose keys the loop runs over
    sort: bool = False  # over the keys sorted: ``for target in sorted(container)``


@dataclass
class Push:
    """``stack.append(value)``: a list used as a stack (generated gradients use them)."""

    stack: str
    value: object
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class Pop:
    """``target = stack.pop()``, or ``stack.pop(index)``."""

    stack: str
    target: str
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program
    index: object = None  # the position taken out, an int operand; None for the last


@dataclass
class While:
    """``while test``; ``pre`` computes what ``test`` reads, before every check."""

    pre: list
    test: object  # an IR expression
    reads: tuple
    body: list
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class BreakIf:
    """``if test: break`` — only ever the last statement of a loop body."""

    test: object  # an IR expression
    reads: tuple
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class Check:
    """An input check, run where the function runs it and never differentiated:
    ``raise value from cause`` or ``assert value, message``, its parts IR expressions
    whose names are the generated ones (``raise ValueError(f"p = {p_1} must be
    positive")``); or a report, the call ``value`` (``print(f"loss {loss_1}")``)."""

    kind: str  # "raise", "assert", or "report" (a call that prints, logs or warns)
    value: object  # the exception raised, the condition asserted, or the report's call
    message: object  # an assert's message, or None
    cause: object  # a raise's ``from`` cause, or None
    reads: tuple
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program

    def to_ast(self):
        """The Python statement of the check (a fresh tree, locations left unset)."""
        if self.kind == "report":
            return ast.Expr(value=ex.to_ast(self.value))
        extra = self.cause if self.kind == "raise" else self.message
        extra = None if extra is None else ex.to_ast(extra)
        if self.kind == "raise":
            return ast.Raise(exc=ex.to_ast(self.value), cause=extra)
        return ast.Assert(test=ex.to_ast(self.value), msg=extra)


@dataclass
class Try:
    """``try: body`` with the classes of its ``except`` clauses: ``body`` runs until it
    ends or raises.  An exception the clauses match (in their order, as Python matches
    them) sets ``caught`` to the number of the clause that matched it (from 1; 0 when
    the body ran to its end) and, where the program reads it, ``error`` to the
    exception; any other leaves the function.  The handlers run after it, in branches
    on ``caught``."""

    body: list
    catches: tuple  # per clause, the IR expression of its class or classes (None: bare)
    caught: str  # an Int: the clause that caught an exception, 0 for none
    error: object  # the name the exception is kept in, or None when nothing reads it
    origin: Origin
    reads: tuple = ()  # the local names the clauses' class expressions read
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class Program:
    """A normalized function: parameters, body, and the name holding its result."""

    name: str
    params: list
    body: list
    result: object  # Var or Const
    origin: Origin
    namespace: dict = field(default_factory=dict)  # global name -> object the code reads
    math_name: str = "math"
    reserved: set = field(default_factory=set)
    defaults: tuple = ()  # the user's default values of the last positional parameters
    kwonly: tuple = ()  # the keyword-only parameters: the last of ``params``
    kw_defaults: dict = field(default_factory=dict)  # keyword-only parameter -> its default
    named_defaults: dict = field(default_factory=dict)  # parameter -> the expression its
    # function default is written as (``act=np.tanh``, ``act=relu``: a name of the module)
    reads: list = field(default_factory=list)  # (globals dict, name, object) looked up
    custom: dict = field(default_factory=dict)  # op -> Rule for functions with their own rule
    custom_functions: dict = field(default_factory=dict)  # op -> (function, partials)
    tables: dict = field(default_factory=dict)  # parameter read as a table -> error if in wrt
    optional: tuple = ()  # parameters whose default is None (never differentiated by default)
    kwargs: str = None  # the name of the ``**kwargs`` parameter, read with constant keys
    vararg: str = None  # the name of the ``*args`` parameter: the last positional one, a tuple
    types: dict = field(default_factory=dict)  # variable -> its type (``symdiff.core.types``)
    containers: dict = field(default_factory=dict)  # name -> the container type it holds
    arrays: dict = field(default_factory=dict)  # parameter -> the array type it is passed
    numpy_name: str = None  # the name generated code calls numpy by, where it may need it
    scalars: dict = field(default_factory=dict)  # number parameter -> the NumPy dtype it
    # is passed in, where narrower than a float (``core.records.Scalar``: a compiled target's)

    @property
    def positional(self):
        """The parameters a call may pass by position: all but the keyword-only ones."""
        return self.params[:len(self.params) - len(self.kwonly)]

    def default_values(self):
        """``{parameter: the default the generated function keeps}``."""
        positional = self.positional
        found = dict(zip(positional[len(positional) - len(self.defaults):], self.defaults))
        found.update(self.kw_defaults)
        return found

    def rule(self, op):
        """The derivative rule of ``op``: the table's, or a user function's own."""
        return self.custom[op] if op in self.custom else rule_of(op)

    def computed_by(self, stmt):
        """The family of names that computes the ``Assign`` ``stmt``: the one the user
        called it by ("math", "numpy"), else numpy's for an operator that meets a NumPy
        scalar, read off its operands' types (Python's ``/`` on ``np.float64`` gives inf
        where on floats it raises, so its partials are numpy's too), else None."""
        return computed_by(stmt, self.types)

    def rule_of(self, stmt):
        """The rule of the ``Assign`` ``stmt`` as the family that computes it computes it
        (``computed_by``, ``Rule.spelled``); spelled once per (op, family) and program."""
        arrays = self.array_types(stmt)
        key = (stmt.op, self.computed_by(stmt), arrays)
        spelled = self.__dict__.setdefault("_spelled", {})  # (not a field: ``replace`` drops it)
        if key not in spelled:
            rule = self.rule(stmt.op)
            spelled[key] = rule.spelled(key[1]) if arrays is None else for_arrays(
                rule, arrays[0], arrays[1])
        return spelled[key]

    def array_types(self, stmt):
        """``(operand types, result type)`` of the ``Assign`` ``stmt`` where one of them
        is an array, or it is an array operation; None for numbers."""
        args = tuple(self.types.get(a.name) if isinstance(a, Var) else of_value(a.value)
                     for a in stmt.args)
        out = self.types.get(stmt.target)
        if is_array(out) or any(is_array(a) for a in args) or (
                self.rule(stmt.op).array_vjp is not None):
            return args, out
        return None


def computed_by(stmt, types):
    """``Program.computed_by`` with the variables' types ``types``."""
    if stmt.family is not None:
        return stmt.family
    if arithmetic(stmt.op) and any(isinstance(a, Var) and is_numpy(types.get(a.name))
                                   for a in stmt.args):
        return "numpy"
    return None


def children(stmt):
    """The blocks nested directly in ``stmt``, in source order."""
    if isinstance(stmt, If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, While):
        return [stmt.pre, stmt.body]
    if isinstance(stmt, (For, Try)):
        return [stmt.body]
    return []


def walk(block):
    """Every statement of ``block``, nested ones included, in source order."""
    stack = [iter(block)]
    while stack:
        for stmt in stack[-1]:
            yield stmt
            nested = children(stmt)
            if nested:
                stack.extend(iter(b) for b in reversed(nested))
                break
        else:
            stack.pop()


def assigned_names(block):
    """Names written anywhere in ``block``: targets and loop variables."""
    names = []
    for stmt in walk(block):
        if isinstance(stmt, (Assign, Compute, Pop, For, Build, Item, Reduce, Share, Take,
                             Join)):
            names.append(stmt.target)
        elif isinstance(stmt, Try):
            names += [stmt.caught] + ([stmt.error] if stmt.error else [])
    return list(dict.fromkeys(names))


def reads(stmt):
    """The names ``stmt`` itself reads (not those of the statements nested in it)."""
    if isinstance(stmt, Assign):
        return [a.name for a in stmt.args if isinstance(a, Var)]
    if isinstance(stmt, (Compute, While, BreakIf, Check, Try)):
        return list(stmt.reads)
    if isinstance(stmt, If):
        return [stmt.test]
    if isinstance(stmt, For):
        over = [] if stmt.over is None else [stmt.over.container] + operand_names(
            stmt.over.path)
        return over + [b.name for b in stmt.bounds if isinstance(b, Var)]
    if isinstance(stmt, Push):
        return [stmt.stack] + ([stmt.value.name] if isinstance(stmt.value, Var) else [])
    if isinstance(stmt, Pop):
        return [stmt.stack] + operand_names((stmt.index,))
    if isinstance(stmt, Build):
        return operand_names(stmt.items + (stmt.repeat,))
    if isinstance(stmt, (Item, Share)):
        return [stmt.container] + operand_names(stmt.path)
    if isinstance(stmt, Take):
        return [stmt.container] + operand_names(stmt.path + stmt.bounds) + (
            [stmt.keys] if stmt.keys else [])
    if isinstance(stmt, SetItem):
        return [stmt.container] + operand_names(stmt.path + (stmt.value,))
    if isinstance(stmt, Reduce):
        return [stmt.container] + operand_names(stmt.path + (stmt.start,))
    if isinstance(stmt, Join):
        names = []
        for part in stmt.parts:
            names += [part.container] + operand_names(part.path) if isinstance(
                part, Ref) else operand_names(part.items)
        return names
    return []


def operand_names(operands):
    """The names among ``operands`` (None and constants skipped, literals read through),
    in order."""
    names = []
    for o in operands:
        if isinstance(o, Var):
            names.append(o.name)
        elif isinstance(o, Literal):
            names += operand_names(o.items)
    return names


def literal_leaves(items, keys=(), path=()):
    """``(path, operand)`` of every number a ``Build``'s items hold, nested ones too."""
    for position, item in enumerate(items):
        step = path + (keys[position] if keys else position,)
        if isinstance(item, Literal):
            yield from literal_leaves(item.items, item.keys, step)
        else:
            yield step, item


def number_statements(program):
    """``program`` with an id given to each of its statements that has none, after the
    largest already given (lowering gives them in source order, from 0)."""
    statements = list(walk(program.body))
    given = max((s.sid for s in statements if s.sid is not None), default=-1) + 1
    for stmt in statements:
        if stmt.sid is None:
            stmt.sid, given = given, given + 1
    return program
