"""The IR evaluator: runs a ``Program`` statement by statement.

Expects a ``Program`` (lowered, hoisted, any pass's; specialized to container kinds or
not) and ``ops(stmt)``, the function that computes an ``Assign``'s primitive on its
operands' values: the caller's choice, so the same evaluator runs the program on floats
(``math`` and Python's operators, or ``on_records(program)``: each primitive as its
registry record computes it), on the tape's ``Value``s (``check``'s divergence locator)
or on anything else with the operations the program uses.  The evaluator itself imports
no witness.

Guarantees Python's semantics for everything else: an ``if`` takes its branch on the
truth of its test, ``for`` runs over ``range`` of its bounds (``index(value)`` turns a
bound into a Python int; the identity by default), a ``while`` runs its ``pre`` before
every test, a ``BreakIf`` leaves the innermost loop, a ``Try`` stops its body where an
exception its clauses match is raised and records the clause, stacks are Python lists, a check
raises (or asserts, unless Python runs with ``-O``) as the user's statement does, the
container statements (``ir.container_nodes``: builds, element reads and writes, slices
and copies, joins, shares, reductions, loops over a dict's keys) make and read lists,
tuples and dicts as Python's own syntax does, and
an IR expression is computed as Python computes the expression it stands for, names
looked up in the program's variables, then its globals (its namespace, with ``math``
under the name generated code reads it by), then the builtins.

    >>> import math, operator
    >>> from symdiff.core import types
    >>> from symdiff.frontend.parse import parse_function
    >>> from symdiff.pipeline import lower
    >>> def f(x, n):
    ...     s = 0.0
    ...     for i in range(n):
    ...         s = s + math.sin(x * i)
    ...     return s
    >>> floats = {"add": operator.add, "mul": operator.mul, "copy": lambda v: v}
    >>> run(lower(parse_function(f)), (0.5, 3), lambda stmt: floats.get(stmt.op)
    ...     or getattr(math, stmt.op)) == f(0.5, 3)
    True
    >>> def g(xs):
    ...     return sum(xs[1:]) + max(xs) * xs[0]
    >>> program = lower(parse_function(g), kinds={"xs": types.List(types.FLOAT, None)})
    >>> run(program, ([1.5, 2.0, -0.5],), on_records(program)) == g([1.5, 2.0, -0.5])
    True
"""

import builtins
import math
import operator

from symdiff.errors import InternalError
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir.printer import statement_text
from symdiff.primitives.reductions import function
from symdiff.primitives.special import HELPERS
from symdiff.primitives.texts import NUMPY, names_read

BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow,
          "@": operator.matmul, "<<": operator.lshift, ">>": operator.rshift,
          "|": operator.or_, "^": operator.xor, "&": operator.and_}
UNARY = {"-": operator.neg, "+": operator.pos, "not": operator.not_, "~": operator.invert}
COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge, "is": operator.is_, "is not": operator.is_not,
           "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}
_CONVERSIONS = {ord("r"): repr, ord("s"): str, ord("a"): ascii}


def run(program, args, ops, *, env=None, observe=None, index=None, reductions=function):
    """The result of ``program`` on the parameters' values ``args``, in order (the last
    ones may be left out for their defaults) and ``env`` (more bindings, the ``**kwargs`` dict).
    ``observe(stmt, out, args)``, if given, is called after every ``Assign`` with its
    output and operands' values; ``reductions(op)`` gives the function a ``Reduce`` of
    ``op`` computes (Python's and math's, ``primitives.reductions``, by default)."""
    defaults = program.default_values()
    bindings = dict(zip(program.params, args))
    bindings.update((p, defaults[p]) for p in program.params[len(args):] if p in defaults)
    bindings.update(env or {})
    evaluator = Evaluator(program, ops, env=bindings, observe=observe, index=index,
                          reductions=reductions)
    evaluator.block(program.body)
    return evaluator.result()


def on_records(program):
    """``ops`` for ``run`` that compute each primitive as generated code computes it, from
    its record: the user's own call where the statement keeps one (``np.tanh``,
    ``special.expit``, ``norm.cdf``), a function with its own rule (``defgrad``) by its own
    code, and otherwise the record's ``forward`` text as the family the user called it by
    spells it (``math.pow(x, y)`` for ``math.pow``, ``x ** y`` for ``**``).  Each is made
    once per run of ``on_records``."""
    made = {}

    def ops(stmt):
        key = (stmt.op, stmt.call, stmt.family, stmt.module)
        if key not in made:
            made[key] = _forward(program, stmt)
        return made[key]
    return ops


def _forward(program, stmt):
    if stmt.op in program.custom_functions:
        return program.custom_functions[stmt.op][0]
    params = ", ".join(program.rule(stmt.op).params)
    text = f"{stmt.call}({params})" if stmt.call else program.rule_of(stmt).forward
    scope = dict(program.namespace, math=math)
    if program.rule(stmt.op).writes:  # ``x[i] = v``: a new array, written
        exec(f"def write({params}):\n    y = x.copy()\n    y[{text[2:-1]}] = v\n"
             "    return y", scope)
        return scope["write"]
    if stmt.module in program.namespace:  # numpy, as the user's code names it
        scope[NUMPY] = program.namespace[stmt.module]
    for name in names_read(text) & set(HELPERS):  # what generated code defines itself
        exec(HELPERS[name], scope)
    return eval(f"lambda {params}: {text}", scope)


class Evaluator:
    """The state of one run: ``env``, the variables (the dict given, changed in place);
    ``block`` runs statements."""

    def __init__(self, program, ops, *, env=None, observe=None, index=None,
                 reductions=function):
        self.program, self.ops, self.observe = program, ops, observe
        self.reductions = reductions
        self.index = index or (lambda value: value)
        self.env = {} if env is None else env
        self.variables = set(program.params) | set(ir.assigned_names(program.body))
        self.globals = dict(program.namespace, **{program.math_name: math})

    def result(self):
        result = self.program.result
        if isinstance(result, tuple):
            return tuple(self.operand(r) for r in result)
        return self.operand(result)

    def operand(self, operand):
        if isinstance(operand, ir.Var):
            return self.lookup(operand.name)
        return operand.value

    def lookup(self, name):
        for scope in (self.env, self.globals):
            if name in scope:
                return scope[name]
        if name in self.variables:  # a loop that never ran, as Python says it
            raise UnboundLocalError(f"cannot access local variable {name!r} where it is "
                                    "not associated with a value")
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise InternalError("evaluate", f"{name} is read but holds no value")

    def block(self, block):
        """Run ``block``; True when a ``BreakIf`` in it left the loop."""
        for stmt in block:
            if self.statement(stmt):
                return True
        return False

    def statement(self, stmt):
        env = self.env
        if isinstance(stmt, ir.Assign):
            args = [self.operand(a) for a in stmt.args]
            out = env[stmt.target] = self.ops(stmt)(*args)
            if self.observe is not None:
                self.observe(stmt, out, args)
        elif isinstance(stmt, ir.Compute):
            env[stmt.target] = self.expression(stmt.expr)
        elif isinstance(stmt, ir.If):
            self.block(stmt.body if self.lookup(stmt.test) else stmt.orelse)
        elif isinstance(stmt, ir.For) and stmt.over is not None:  # a dict's keys
            keys = self.lookup(stmt.over.container)
            for index in stmt.over.path:
                keys = _element(keys, self.operand(index))
            keys = sorted(keys) if stmt.sort else list(keys)
            for value in reversed(keys) if stmt.reverse else keys:
                env[stmt.target] = value
                if self.block(stmt.body):
                    break
        elif isinstance(stmt, ir.For):
            steps = range(*[self.index(self.operand(b)) for b in stmt.bounds])
            for value in reversed(steps) if stmt.reverse else steps:
                env[stmt.target] = value
                if self.block(stmt.body):
                    break
        elif isinstance(stmt, ir.While):
            while True:
                self.block(stmt.pre)
                if not self.expression(stmt.test) or self.block(stmt.body):
                    break
        elif isinstance(stmt, ir.Try):
            self.attempt(stmt)
        elif isinstance(stmt, ir.BreakIf):
            return bool(self.expression(stmt.test))
        elif isinstance(stmt, ir.Push):
            self.lookup(stmt.stack).append(self.operand(stmt.value))
        elif isinstance(stmt, ir.Pop):
            env[stmt.target] = self.lookup(stmt.stack).pop(*(
                () if stmt.index is None else (self.operand(stmt.index),)))
        elif isinstance(stmt, ir.Check):
            self.check(stmt)
        elif isinstance(stmt, (ir.Build, ir.Item, ir.SetItem, ir.Reduce, ir.Share, ir.Take,
                               ir.Join)):
            self.container(stmt)
        else:
            raise InternalError("evaluate", f"no way to run {statement_text(stmt)}")
        return False

    def attempt(self, stmt):
        """Run a ``Try``'s body; an exception one of its clauses matches (the first, as
        Python matches them) sets ``caught`` to the clause's number and ``error`` to it."""
        classes = [self.expression(c) for c in stmt.catches]
        self.env[stmt.caught] = 0
        try:
            self.block(stmt.body)
        except InternalError:
            raise  # the evaluator's own failure is no exception of the program's
        except BaseException as exc:
            number = next((k for k, c in enumerate(classes, 1) if isinstance(exc, c)), None)
            if number is None:
                raise
            self.env[stmt.caught] = number
            if stmt.error:
                self.env[stmt.error] = exc

    def container(self, stmt):
        env = self.env
        if isinstance(stmt, ir.Build):
            if stmt.repeat is not None:
                env[stmt.target] = [self.operand(stmt.items[0])] * self.index(
                    self.operand(stmt.repeat))
            else:
                env[stmt.target] = self.literal(ir.Literal(stmt.kind, stmt.items, stmt.keys))
            if stmt.maker is not None:  # a record: its class, built of its fields by name
                kind = self.program.containers[stmt.target]
                env[stmt.target] = kind.cls(**env[stmt.target], **dict(kind.constants))
            return
        if isinstance(stmt, ir.Join):
            joined = [] if stmt.kind == "list" else ()
            for part in stmt.parts:
                if isinstance(part, ir.Literal):
                    joined = joined + self.literal(part)
                    continue
                value = self.lookup(part.container)
                for index in part.path:
                    value = _element(value, self.operand(index))
                joined = joined + value
            env[stmt.target] = joined
            return
        if isinstance(stmt, ir.Reduce):
            values = self.lookup(stmt.container)
            for index in stmt.path:
                values = _element(values, self.operand(index))
            start = None if stmt.start is None else self.operand(stmt.start)
            reduce = self.reductions(stmt.op)
            if stmt.axis is not None:  # ``np.stack(xs, axis=1)``
                env[stmt.target] = reduce(list(values), axis=stmt.axis)
            elif start is None:
                env[stmt.target] = reduce(values)
            else:
                env[stmt.target] = reduce(values, start) if stmt.op == "sum" else reduce(
                    values, start=start)
            return
        value = self.lookup(stmt.container)
        path = [self.operand(i) for i in stmt.path]
        if isinstance(stmt, ir.Take):
            for index in path:
                value = _element(value, index)
            keys = None if stmt.keys is None else self.lookup(stmt.keys)
            calls = {"list": list, "tuple": tuple, None: lambda v: v,
                     "sorted": lambda v: sorted(v, reverse=stmt.descending) if keys is None
                     else [v[i] for i in sorted(range(len(v)), key=keys.__getitem__,
                                                reverse=stmt.descending)]}
            env[stmt.target] = calls[stmt.copy](value[slice(*[
                None if b is None else self.operand(b) for b in stmt.bounds])])
            return
        for index in path[:-1] if isinstance(stmt, ir.SetItem) else path:
            value = _element(value, index)
        if isinstance(stmt, ir.SetItem):
            value[path[-1]] = self.operand(stmt.value)
        else:
            env[stmt.target] = value

    def literal(self, literal):
        items = [self.literal(i) if isinstance(i, ir.Literal) else self.operand(i)
                 for i in literal.items]
        if literal.kind == "dict":
            return dict(zip(literal.keys, items))
        return (list if literal.kind == "list" else tuple)(items)

    def check(self, stmt):
        value = self.expression(stmt.value)  # (a report: its call, made)
        if stmt.kind == "report":
            return
        if stmt.kind == "raise":
            cause = None if stmt.cause is None else self.expression(stmt.cause)
            raise value from cause
        if __debug__ and not value:  # dropped under -O, as Python drops the assert
            if stmt.message is None:
                raise AssertionError
            raise AssertionError(self.expression(stmt.message))

    def expression(self, expr):
        """The value of the IR expression ``expr``, as Python computes it."""
        kind = type(expr)
        if kind is ex.Name:
            return self.lookup(expr.id)
        if kind is ex.Const:
            return expr.value
        if kind is ex.Attribute:
            return getattr(self.expression(expr.value), expr.attr)
        if kind is ex.BinOp:
            return BINARY[expr.op](self.expression(expr.left), self.expression(expr.right))
        if kind is ex.UnaryOp:
            return UNARY[expr.op](self.expression(expr.operand))
        if kind is ex.BoolOp:
            for value in expr.values:  # the first deciding operand, as ``and``/``or`` give
                result = self.expression(value)
                if bool(result) == (expr.op == "or"):
                    return result
            return result
        if kind is ex.Compare:
            left = self.expression(expr.left)
            for op, comparator in zip(expr.ops, expr.comparators):
                right = self.expression(comparator)
                result = COMPARE[op](left, right)
                if len(expr.ops) == 1:  # (an array's comparison: a mask, never tested)
                    return result
                if not result:
                    return result
                left = right
            return result
        if kind is ex.Call:
            return self.expression(expr.func)(*[self.expression(a) for a in expr.args],
                                              **{k: self.expression(v) for k, v in expr.keywords})
        if kind is ex.Subscript:
            return _element(self.expression(expr.value), self.expression(expr.index))
        if kind is ex.Slice:
            return slice(*(None if p is None else self.expression(p)
                           for p in (expr.lower, expr.upper, expr.step)))
        if kind is ex.IfExp:
            chosen = expr.body if self.expression(expr.test) else expr.orelse
            return self.expression(chosen)
        if kind is ex.Tuple:
            return tuple(self.expression(e) for e in expr.elts)
        if kind is ex.List:
            return [self.expression(e) for e in expr.elts]
        if kind is ex.FString:
            return "".join(p if isinstance(p, str) else self.formatted(p) for p in expr.parts)
        raise InternalError("evaluate", f"no way to compute {expr!r}")

    def formatted(self, part):
        value = self.expression(part.value)
        if part.conversion != -1:
            value = _CONVERSIONS[part.conversion](value)
        spec = "" if part.spec is None else self.expression(part.spec)
        return format(value, spec)


def _element(value, index):
    """``value[index]``, or a record's field ``index`` (``p["w"]`` of the IR is ``p.w``
    of a namedtuple, a dataclass or an instance: ``core.records``)."""
    if isinstance(index, str) and not isinstance(value, dict):
        return getattr(value, index)
    return value[index]
