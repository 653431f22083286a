"""Expressions: one operation per statement.

Expects a ``Frame``.  ``value(frame, node, target)`` emits the statements computing
``node`` and returns the operand holding its value; when ``target`` is given the last
operation writes it directly.  ``and``/``or``, chained comparisons and conditional
expressions become ``If`` statements so Python's evaluation order (and its
short-circuits) is kept; a test decided when the gradient is built (``DEBUG and ...``,
``MODE == "tanh"``) is decided now.

    z = math.sin(x * y) + 1      ->    mul_z = x * y
                                       sin_z = math.sin(mul_z)
                                       z = sin_z + 1
"""

import ast
import operator

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import (arrays, calls, changes, containers, halves, joins, methods, names,
                           objects, operands, ranges, tables)
from symdiff.lower.operands import operand_ast, reads_of
from symdiff.primitives.registry import operators

BINARY, UNARY = operators(2), operators(1)  # ast.Add -> "add", ast.USub -> "neg"
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
            ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Is: operator.is_, ast.IsNot: operator.is_not}
_MASKS = "bit operations are not differentiable: they combine masks of NumPy arrays"
ARRAY_OPERATORS = {  # the operators of arrays only, refused where a function has none
    ast.MatMult: ("@", "use *, or pass NumPy arrays"), ast.BitAnd: ("&", _MASKS),
    ast.BitOr: ("|", _MASKS), ast.Invert: ("~", _MASKS)}


def value(frame, node, target=None):
    ahead = frame.ahead.get(id(node))
    if ahead is not None:  # evaluated already, where a container was looked for
        if target is not None and ahead != ir.Var(target) and not (
                containers.is_container_operand(frame, ahead)):
            frame.emit(ir.Assign(target, "copy", (ahead,), frame.origin))
            return ir.Var(target)
        return ahead
    if target is not None and isinstance(node, (ast.BoolOp, ast.IfExp, ast.Compare)) and (
            reads_name(frame, node, target)):
        target_later, target = target, None  # `x = (c and a) or x`: x is read after a
        operand = value_inner(frame, node, None)
        frame.emit(ir.Assign(target_later, "copy", (operand,), frame.origin))
        return ir.Var(target_later)
    operand = value_inner(frame, node, target)
    if target is not None and operand != ir.Var(target) and not (
            containers.is_container_operand(frame, operand)):  # a container is aliased
        frame.emit(ir.Assign(target, "copy", (operand,), frame.origin))
        return ir.Var(target)
    return operand


def value_inner(frame, node, target):
    if isinstance(node, ast.JoinedStr):
        raise frame.error(UnsupportedSyntaxError, node, "an f-string is not a number",
                          "f-strings may stand in the messages of raise and assert")
    if isinstance(node, ast.Constant):
        if node.value is None or isinstance(node.value, (int, float)):  # bool is an int
            return ir.Const(node.value)
        raise frame.error(UnsupportedSyntaxError, node, f"the constant {node.value!r} is "
                          "not a number", "symdiff differentiates numbers")
    if isinstance(node, ast.Name):
        found = arrays.global_array(frame, node)
        return found if found is not None else names.name_operand(frame, node)
    if isinstance(node, ast.Attribute):
        found = methods.constant_field(frame, node)  # a record's flag, or its field
        if found is None:
            found = objects.field_value(frame, node)  # ``system.mass``: data
        if found is None:
            found = containers.read(frame, node, target)
        if found is None:
            found = arrays.attribute(frame, node, target)
        return found if found is not None else names.attribute_operand(frame, node)
    if isinstance(node, ast.BinOp):
        built = changes.repeated(frame, node, target)
        if built is None:
            built = joins.joined(frame, node, target)
        return built if built is not None else binary_chain(frame, node, target)
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            operand = value(frame, node.operand)
            if isinstance(operand, ir.Const):  # decided now: `not DEBUG`
                return ir.Const(not operand.value)
            test = ast.UnaryOp(ast.Not(), operand_ast(operand))
            return ir.Var(frame.compute(target or frame.namer.fresh("cond"), test,
                                        reads_of(operand)))
        if isinstance(node.operand, ast.Constant) and isinstance(node.op, ast.USub):
            return ir.Const(-node.operand.value)
        operand = value(frame, node.operand)
        if type(node.op) in ARRAY_OPERATORS and not frame.unit.arrays and _number(frame, operand):
            shown, hint = ARRAY_OPERATORS[type(node.op)]
            raise frame.error(UnsupportedSyntaxError, node, f"the {shown} operator is not "
                              "supported on numbers", hint)
        return operands.emit_op(frame, UNARY[type(node.op)], (operand,), target)
    if isinstance(node, ast.Call):
        return calls.call(frame, node, target)
    if isinstance(node, ast.Subscript):
        half = halves.pair_half(frame, node, target)  # ``np.linalg.slogdet(K)[1]``
        if half is not None:
            return half
        measured = ranges.range_slice(frame, node, target)  # ``range(n)[1:]``
        if measured is None:
            measured = arrays.subscript(frame, node, target)
        if measured is not None:
            return measured
        element = containers.read(frame, node, target)
        if element is None:
            element = arrays.element(frame, node, target)
        return element if element is not None else tables.table_element(frame, node, target)
    if isinstance(node, ast.IfExp):
        return if_expression(frame, node, target)
    if isinstance(node, ast.Compare):
        return compare(frame, node, target)
    if isinstance(node, ast.BoolOp):
        return bool_operation(frame, node, target)
    if isinstance(node, (ast.List, ast.Tuple, ast.Dict)) and _kept(frame, node):
        return containers.literal(frame, node, target)
    if isinstance(node, ast.List):
        raise frame.error(UnsupportedSyntaxError, node, "a list is not a number",
                          "assign the list to a name of its own: xs = [...]")
    if isinstance(node, ast.Tuple):
        raise names.tuple_not_a_number(frame, node)
    if isinstance(node, ast.Lambda):
        raise frame.error(UnsupportedSyntaxError, node, "a lambda stands where a number is "
                          "read", "pass it to a function of yours, which calls it")
    raise frame.error(UnsupportedSyntaxError, node,
                      f"{type(node).__name__} is not supported in an expression")


def _kept(frame, node):
    """Whether the literal ``node`` is a container the code keeps: the value of an
    assignment to one name, or what a helper returns."""
    where = frame.statement_node
    if isinstance(where, ast.Return) and where.value is node:
        if frame.top:  # the result itself: a container only where ``vjp`` takes one
            return frame.unit.any_result
        return isinstance(node, ast.List)  # a tuple: values unpacked
    return (isinstance(where, ast.Assign) and where.value is node and len(where.targets) == 1
            and isinstance(where.targets[0], ast.Name))


def reads_name(frame, node, name):
    """Whether evaluating ``node`` reads the generated name ``name``."""
    return any(isinstance(sub, ast.Name) and frame.mapping.get(sub.id) == ir.Var(name)
               for sub in ast.walk(node))


def binary_chain(frame, node, target):
    """``a + b - c * d ...``: the left spine walked in a loop, so a long sum of
    terms never runs into Python's recursion limit.  Evaluation order is Python's."""
    spine = []
    while isinstance(node, ast.BinOp):
        spine.append(node)
        node = node.left
    result = value(frame, node)
    for i, step in enumerate(reversed(spine)):
        right = value(frame, step.right)
        if type(step.op) in ARRAY_OPERATORS and not frame.unit.arrays and all(
                _number(frame, o) for o in (result, right)):
            shown, hint = ARRAY_OPERATORS[type(step.op)]
            raise frame.error(UnsupportedSyntaxError, step, f"the {shown} operator is not "
                              "supported on numbers", hint)
        last = i == len(spine) - 1
        result = operands.emit_op(frame, BINARY[type(step.op)], (result, right),
                                  target if last else None)
    return result


def _number(frame, operand):
    """Whether ``operand`` is known a number while lowering: a constant, or a parameter
    passed one (no array is passed, and it is no container)."""
    return isinstance(operand, ir.Const) or (
        operand.name in frame.unit.params and operand.name not in frame.unit.containers)


def condition(frame, node):
    """The decision of an ``if``/``while`` test: a ``Const`` or a fresh test name."""
    operand = value(frame, node)
    if isinstance(operand, ir.Const):
        return ir.Const(bool(operand.value))
    if (isinstance(node, (ast.Compare, ast.BoolOp)) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not))) and (
            operand not in frame.mapping.values()):
        return operand  # a fresh name, written only here
    return ir.Var(frame.compute(frame.namer.fresh("cond"), operand_ast(operand),
                                reads_of(operand)))


def compare(frame, node, target):
    left = names.comparand(frame, node.left)
    right = names.comparand(frame, node.comparators[0])
    first = ast.Compare(operand_ast(left), [node.ops[0]], [operand_ast(right)])
    if len(node.ops) == 1 and isinstance(left, ir.Const) and isinstance(right, ir.Const):
        return ir.Const(_COMPARE[type(node.ops[0])](left.value, right.value))  # `MODE == 2`
    if len(node.ops) == 1:
        name = frame.compute(target or frame.namer.fresh("cond"), first, reads_of(left, right))
        return ir.Var(name)
    result = target or frame.namer.fresh("cond")
    test = frame.compute(frame.namer.fresh("cond"), first, reads_of(left, right))
    frame.compute(result, ast.Name(test, ast.Load()), (test,))
    rest = ast.Compare(node.comparators[0], node.ops[1:], node.comparators[1:],
                       lineno=node.lineno, col_offset=node.col_offset)
    with frame.nested():
        body, _ = frame.capture(lambda: compare(frame, rest, result))
    frame.emit(ir.If(test, body, [], frame.origin))
    return ir.Var(result)


def bool_operation(frame, node, target):
    first = value(frame, node.values[0]) if len(node.values) > 1 else None
    if isinstance(first, ir.Const):  # `DEBUG and ...`: decided now, as Python would
        decided = bool(first.value) == isinstance(node.op, ast.Or)
        if decided or len(node.values) == 1:
            return value(frame, node.values[0], target)
        rest = node.values[1:]
        return value(frame, rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest), target)
    result = target or frame.namer.fresh("cond")
    if first is None:
        value(frame, node.values[0], result)
    else:
        frame.emit(ir.Assign(result, "copy", (first,), frame.origin))
    for operand in node.values[1:]:
        test = ast.Name(result, ast.Load())
        if isinstance(node.op, ast.Or):
            test = ast.UnaryOp(ast.Not(), test)
        name = frame.compute(frame.namer.fresh("cond"), test, (result,))
        with frame.nested():
            body, _ = frame.capture(lambda: value(frame, operand, result))
        frame.emit(ir.If(name, body, [], frame.origin))
    return ir.Var(result)


def if_expression(frame, node, target):
    test = condition(frame, node.test)
    if isinstance(test, ir.Const):
        return value(frame, node.body if test.value else node.orelse, target)
    result = target or frame.namer.fresh(frame.hint)
    with frame.nested():
        body, _ = frame.capture(lambda: value(frame, node.body, result))
        orelse, _ = frame.capture(lambda: value(frame, node.orelse, result))
    frame.emit(ir.If(test.name, body, orelse, frame.origin))
    return ir.Var(result)
