"""Arrays: what the user's code does with a NumPy array besides calling NumPy's
functions, one operation per statement.

Expects a ``Frame`` of a function generated for the kinds of its arguments, some of
them arrays (``Unit.arrays``).  Guarantees, for an expression that reads an array
through an attribute or a method, its operand (None where ``node`` is not one, so the
caller goes on as before):

- ``x.T`` is the record ``transpose`` of ``x`` (``attribute``);
- ``x.shape``, ``x.shape[k]``, ``x.ndim``, ``x.size`` and ``len(x)`` are integers read
  when the gradient runs (``Compute``), never differentiated (``attribute``,
  ``subscript``, ``length``);
- ``x.sum(axis=0)``, ``x.mean()``, ``x.dot(y)``, ``x.transpose()`` are the records of
  ``numpy.sum``, ``numpy.mean``, ``numpy.dot``, ``numpy.transpose`` with ``x`` first
  (``method_call``).

    y = X.T @ w            ->   transpose_y = X.T
                                y = transpose_y @ w
    n = X.shape[0]         ->   n = X.shape[0]            (an int, read as it runs)
"""

import ast

import sys

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import operands
from symdiff.lower.array_calls import written_out
from symdiff.lower.names import meaning_of, scope_of
from symdiff.lower.operands import reads_of
from symdiff.primitives.registry import array_names, rule_of

MEASURES = ("shape", "ndim", "size")  # an array's measures: integers, read as it runs


def _on_module(frame, node):
    """Whether the attribute chain ``node`` starts at a module (``np.linalg``)."""
    root = node
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    return scope_of(frame, root.id) is None and meaning_of(frame, root.id, root).kind == (
        "module")


def attribute(frame, node, target):
    """``x.T``, or an array's measure (``x.shape``, ``x.ndim``, ``x.size``); None for
    an attribute of a module."""
    if not frame.unit.arrays or _on_module(frame, node):
        return None
    op = array_names()["attributes"].get(node.attr)
    if op is not None:
        return operands.emit_op(frame, op, (frame.value(node.value),), target)
    if node.attr in MEASURES:
        return _measured(frame, node.value, lambda o: ast.Attribute(o, node.attr, ast.Load()),
                         target, node.attr)
    return None


def subscript(frame, node, target):
    """``x.shape[k]``: one axis's size, an integer read as the gradient runs."""
    value = node.value
    if not (frame.unit.arrays and isinstance(value, ast.Attribute) and value.attr == "shape"
            and not _on_module(frame, value)):
        return None
    if not (isinstance(node.slice, ast.Constant) and type(node.slice.value) is int or (
            isinstance(node.slice, ast.UnaryOp) and isinstance(node.slice.operand,
                                                                ast.Constant))):
        raise frame.error(UnsupportedSyntaxError, node, "an array's shape is read by a "
                          "constant axis here", "write x.shape[0], x.shape[-1], ...")
    return _measured(frame, value.value, lambda o: ast.Subscript(
        ast.Attribute(o, "shape", ast.Load()), node.slice, ast.Load()), target, "size")


def length(frame, node, target):
    """``len(x)`` of an array parameter or of a local value: its first axis's size, read
    as the gradient runs; None for anything else (a table of the module)."""
    if not frame.unit.arrays or not isinstance(node, ast.Name) or (
            node.id not in frame.unit.arrays and scope_of(frame, node.id) is None):
        return None
    return _measured(frame, node, lambda o: ast.Call(ast.Name("len", ast.Load()), [o], []),
                     target, "length")


def method_call(frame, node, target, bind):
    """``x.sum(axis=0)`` and the other array methods: the record of the NumPy function
    of the same name, ``x`` its first argument (``bind(frame, rule, call, shown)``: the
    operands of a call of a record); None for a call of a module's function."""
    func = node.func
    if not frame.unit.arrays or _on_module(frame, func):
        return None
    op = array_names()["methods"].get(func.attr)
    if op is None:
        return None
    call = ast.Call(ast.Attribute(ast.Name("numpy", ast.Load()), func.attr, ast.Load()),
                    [func.value] + list(node.args), node.keywords)
    ast.copy_location(call, node)
    op, call = written_out(frame, op, call, f"the method {func.attr}") or (op, call)
    rule = rule_of(op)
    args = bind(frame, rule, call, f"the method {func.attr}")
    module = frame.unit.global_name("np", sys.modules["numpy"])
    return operands.emit_op(frame, op, args, target, family="numpy", module=module)


def _measured(frame, array, make, target, hint):
    """The integer ``make(array)`` computes (an ``ast`` expression of the array's
    operand), read when the gradient runs."""
    operand = frame.value(array)
    name = target or frame.namer.fresh(f"{getattr(operand, 'name', 'array')}_{hint}")
    return ir.Var(frame.compute(name, make(operands.operand_ast(operand)),
                                reads_of(operand)))
