"""The types of the values a statement computes without a primitive: IR expressions.

Expects an IR expression (``symdiff.core.expr``) of a lowered ``Program`` and a function
giving a name's type.  Guarantees ``expression_type``: comparisons and ``not`` give
``Bool``, ``len`` an ``Int``, an entry of a table a number, an operator or a call of a
primitive its record's type rule's result; None for what it cannot type (never an error
here: ``check_program`` reports a variable left without a type).  Also ``name_type`` (a
variable's or a global's type) and ``keeps_numbers`` (a rule that gives ints of ints and
floats of floats), which ``analysis.types`` reads.

    expression_type(Compare(...), ...)                 bool
    expression_type(BinOp("/", Name("n"), Const(2)))   float
"""

import math

from symdiff.core.types import is_table, table_values
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives import registry
from symdiff.primitives.type_rules import like, reads_arguments

# calls in expressions of what is no primitive: the builtins and math functions symdiff
# reads as values, never differentiates (``analysis.value_types`` reads them too)
BUILTIN_VALUES = {"len": t.INT, "bool": t.BOOL, "str": t.STR, "isinstance": t.BOOL,
                  "callable": t.BOOL, "hasattr": t.BOOL}
MATH_VALUES = {"isqrt": t.INT, "gcd": t.INT, "lcm": t.INT}
# a string's methods symdiff calls where the code calls them, never differentiated
STRING_METHODS = {**dict.fromkeys(("lower", "upper", "casefold", "strip", "lstrip", "rstrip",
                                   "title", "capitalize", "swapcase", "replace",
                                   "removeprefix", "removesuffix", "zfill"), t.STR),
                  **dict.fromkeys(("startswith", "endswith", "isdigit", "isalpha", "isalnum",
                                   "isspace", "islower", "isupper"), t.BOOL),
                  **dict.fromkeys(("find", "rfind"), t.INT)}
_NOT_PRIMITIVES = {**BUILTIN_VALUES, **MATH_VALUES}


def keeps_numbers(rule, by=None):
    """Whether ``rule`` gives integers of integers and floats of floats (``+``, ``abs``,
    ``max``; not ``/``, ``floor``, nor anything numpy computes); False for no rule."""
    return rule is not None and all(rule.typed((kind,) * rule.arity, by=by).result == kind
                                    for kind in (t.INT, t.FLOAT))


def name_type(program, types, name):
    """The type of ``name`` in ``program``: a variable's (in ``types``), a global's value's,
    or None (a module, a function, or a name not typed yet)."""
    if name in types:
        return types[name]
    if name in program.namespace:
        value = program.namespace[name]
        if is_table(value):  # known now: its entries' kind too
            values = table_values(value)
            return t.Table(t.INT if values and all(isinstance(v, int) for v in values)
                           else t.FLOAT)
        if value is None or isinstance(value, (bool, int, float, str)):
            return t.of_value(value)
    return None


def _builtin_rule(name):
    op = registry.names("builtin").get(name)
    return None if op is None else registry.rule_of(op)


def keeps_ints(expr):
    """Whether ``expr`` is an integer when the names it reads are (no ``/``, no calls but
    ``min``, ``max`` and ``abs``)."""
    for node in ex.walk(expr):
        if isinstance(node, ex.BinOp) and node.op == "/":
            return False
        if isinstance(node, ex.Call) and not (isinstance(node.func, ex.Name) and keeps_numbers(
                _builtin_rule(node.func.id))):
            return False
        if isinstance(node, (ex.Compare, ex.Subscript, ex.Attribute)):
            return False
    return True


def expression_type(expr, name_type):
    """The type of the IR expression ``expr``; ``name_type(name)`` gives a name's."""
    if isinstance(expr, ex.Const):
        return t.of_value(expr.value)
    if isinstance(expr, ex.Name):
        return name_type(expr.id)
    if isinstance(expr, ex.Compare):  # of arrays: an array of booleans
        kinds = [expression_type(p, name_type) for p in (expr.left, *expr.comparators)]
        return t.broadcast(kinds, dtype="bool") or t.BOOL
    if isinstance(expr, ex.FString):
        return t.STR
    if isinstance(expr, ex.UnaryOp):
        if expr.op == "not":
            return t.BOOL
        return _operator_type(expr, (expr.operand,), name_type)
    if isinstance(expr, ex.BoolOp) or isinstance(expr, ex.IfExp):
        parts = expr.values if isinstance(expr, ex.BoolOp) else (expr.body, expr.orelse)
        found = None
        for part in parts:
            found = t.join(found, expression_type(part, name_type))
        return found
    if isinstance(expr, ex.BinOp):
        return _operator_type(expr, (expr.left, expr.right), name_type)
    if isinstance(expr, ex.Attribute) and expr.attr in ("shape", "ndim", "size") and (
            isinstance(expression_type(expr.value, name_type), t.Array)):
        return t.Table(t.INT) if expr.attr == "shape" else t.INT  # (a tuple of ints)
    if isinstance(expr, ex.Subscript):
        container = expression_type(expr.value, name_type)
        if isinstance(container, t.Table):  # a slice of one (a range's): a table
            return container if isinstance(expr.index, ex.Slice) else container.elem
        return None
    if isinstance(expr, ex.Attribute) and isinstance(expr.value, ex.Name):
        value = getattr(math, expr.attr, None) if expr.value.id == "math" else None
        if isinstance(value, float):
            return t.FLOAT
    if isinstance(expr, ex.Call):
        return _call_type(expr, name_type)
    return None  # unknown: ``check_program`` reports a variable left without a type


def primitive_type(op, args, consts=(), by=None, certain=False):
    """The type rule's result of the primitive ``op`` for arguments of types ``args``
    (``consts``: the constants among them), called by the names of ``by``.  With
    ``certain``, the type every value has (the sweeps' facts), None where the rule would
    read an argument that is no number (or ``op`` has no record); without, the type of a
    variable (an argument not typed yet left out)."""
    if not certain:
        return registry.typed(op, args, consts, by).result
    try:
        record = registry.rule_of(op)
    except KeyError:
        return None
    if not all(t.is_number(a) for a in args) and (by == "numpy" or reads_arguments(
            record, by)):
        return None  # (``math.sin(x)`` is a float whatever ``x`` is, or it raises)
    return record.typed(args, consts, by, certain=True).result


def _operator_type(expr, operands, name_type):
    """An operator's value: the type rule of the record its forward is (``/`` is ``div``'s)."""
    args = [expression_type(a, name_type) for a in operands]
    op = registry.operator_ops(len(operands)).get(expr.op)
    if op is None:  # ``~``: an int's
        return like(args)
    consts = [a.value if isinstance(a, ex.Const) else None for a in operands]
    return primitive_type(op, args, consts)


def _call_type(expr, name_type):
    """A builtin's call by its name, a module's (``math.floor``) by its attribute."""
    func = expr.func
    name = func.id if isinstance(func, ex.Name) else getattr(func, "attr", None)
    if name in _NOT_PRIMITIVES:
        return _NOT_PRIMITIVES[name]
    if isinstance(func, ex.Name) and name == "range":  # a range: a table of ints
        return t.Table(t.INT)
    if isinstance(func, ex.Name) and name in ("list", "tuple", "sorted") and (
            len(expr.args) == 1):
        table = expression_type(expr.args[0], name_type)  # (a range's positions, sorted)
        return table if isinstance(table, t.Table) else None
    if isinstance(func, ex.Attribute) and name in STRING_METHODS and (
            expression_type(func.value, name_type) == t.STR):
        return STRING_METHODS[name]
    op = registry.names("builtin" if isinstance(func, ex.Name) else "math").get(name)
    if name == "get" and isinstance(func, ex.Attribute):  # ``kwargs.get("k", default)``
        table = expression_type(func.value, name_type)
        if isinstance(table, t.Table):
            default = expr.args[1] if len(expr.args) > 1 else ex.Const(None)
            return t.join(table.elem, expression_type(default, name_type))
    if op is None:
        return None  # untyped: check_program, which the tests run, reports it
    op = registry.variant(op, len(expr.args))
    family = None if isinstance(func, ex.Name) else "math"
    args = [expression_type(a, name_type) for a in expr.args]
    consts = [a.value if isinstance(a, ex.Const) else None for a in expr.args]
    return primitive_type(op, args, consts, family)
