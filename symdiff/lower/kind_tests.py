"""Kind tests: ``isinstance``, ``hasattr`` and ``callable`` of a value, decided from its
kind when the gradient is built.

Expects a ``Frame`` and the call ``node`` of the builtin ``isinstance``, ``hasattr`` or
``callable``.  Guarantees the operand of its value: a constant where the kind of the
value decides it (the kinds the gradient is generated for say what a parameter holds:
a list of numbers, a dict, a number, a string), so only the branch taken is lowered, as
a function that dispatches on scalars and sequences needs; a number is an int or a float
at run time, so ``isinstance(x, float)`` of a number is tested where the gradient runs
(with no derivative), while ``isinstance(x, (int, float))`` is True now.  Anything it
cannot decide or test (a class it does not know, an attribute of a number) is a located
``UnsupportedSyntaxError``.

    def norm(x):                           x: float      ->  isinstance(...) is True
        if isinstance(x, (int, float)):    x: list[float] -> isinstance(...) is False
            return abs(x)
        return math.sqrt(sum(v * v for v in x))
"""

import ast
import builtins
import collections.abc
import numbers
import types

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.core import types as t
from symdiff.core.records import is_record
from symdiff.lower import containers, names
from symdiff.lower.operands import operand_ast, reads_of

TESTS = (builtins.isinstance, builtins.hasattr, builtins.callable)

# the classes a value of each kind may be an instance of when the gradient runs
_NUMBER = (int, float)  # an int or a float: one kind, ``frontend.kinds``
_BY_TYPE = {t.List: (list,), t.Tuple: (tuple,), t.Dict: (dict,)}
_RUNTIME = (int, float, bool, str, list, tuple, dict)  # tested where the gradient runs


def kind_test(frame, callee, node, target):
    """The operand of the kind test ``node`` (see the module); None when ``callee`` is
    none of ``TESTS``."""
    if callee.kind != "other" or not any(callee.value is test for test in TESTS):
        return None
    test = callee.value
    arity = 1 if test is builtins.callable else 2
    if len(node.args) != arity or node.keywords:
        raise frame.error(UnsupportedSyntaxError, node, f"{test.__name__}() takes {arity} "
                          "arguments", "pass them by position")
    possible = _possible_classes(frame, node.args[0])
    if test is builtins.callable:
        return _is_called(frame, node, possible)
    if test is builtins.hasattr:
        return _has_attribute(frame, node, possible)
    classes = _classes(frame, node.args[1])
    if all(issubclass(c, classes) for c in possible):
        return ir.Const(True)
    if not any(issubclass(c, classes) or issubclass(k, c) for c in possible for k in classes):
        return ir.Const(False)
    if not all(k in _RUNTIME for k in classes):
        raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} cannot be told "
                          "when the gradient is built", "test with int, float, bool, str, "
                          "list, tuple or dict")
    operand = frame.value(node.args[0])
    call = ast.Call(ast.Name("isinstance", ast.Load()), [operand_ast(operand), ast.Tuple(
        [ast.Name(k.__name__, ast.Load()) for k in classes], ast.Load())], [])
    name = target or frame.namer.fresh("is_instance")
    return ir.Var(frame.compute(name, call, reads_of(operand)))


def _possible_classes(frame, node):
    """The classes the value of ``node`` may have when the gradient runs."""
    found = containers.container_of(frame, node)
    if found is not None:
        kind = containers.kind_of_operand(frame, ir.Ref(*found) if found[1] else ir.Var(
            found[0]))
        if is_record(kind):  # an object read by its fields: an instance of its class
            return (kind.cls,)
        return _BY_TYPE.get(type(kind), (object,))
    if isinstance(node, ast.Constant):
        return (type(node.value),)
    if isinstance(node, ast.Lambda):
        return (types.FunctionType,)
    if isinstance(node, ast.Name):
        if names.scope_of(frame, node.id) is not None and names.meaning_of(
                frame, node.id, node).kind != "local":
            return (types.FunctionType,)  # a nested def, or a function passed as a value
        operand = frame.mapping.get(node.id) if names.scope_of(frame, node.id) else None
        if isinstance(operand, ir.Const):
            return _NUMBER if isinstance(operand.value, (int, float)) and not isinstance(
                operand.value, bool) else (type(operand.value),)
        if operand is None and names.scope_of(frame, node.id) is None:
            meant = names.meaning_of(frame, node.id, node)
            if meant.kind in ("constant", "other"):
                return (type(meant.value),)
        if isinstance(operand, ir.Var) and names.is_string_value(frame, node):
            return (str,)
        if node.id in frame.tables:
            raise frame.error(UnsupportedSyntaxError, node, f"{node.id} is a table of data "
                              "here, and what it is cannot be told when the gradient is built",
                              "test the value in the function that is differentiated")
        if isinstance(operand, ir.Var) and operand.name in frame.unit.params and (
                node.id in frame.reading.tables) and not frame.unit.specialized:
            return _NUMBER + (list, tuple)  # a table of data or a number: told as it runs
    return _NUMBER


def _classes(frame, node):
    """The classes the second argument of ``isinstance`` names."""
    parts = node.elts if isinstance(node, ast.Tuple) else [node]
    found = []
    for part in parts:
        value = _class_of(frame, part)
        if not isinstance(value, type):
            raise frame.error(UnsupportedSyntaxError, part, f"{ast.unparse(part)} is not a "
                              "class symdiff tests values against", "test against int, "
                              "float, bool, str, list, tuple, dict or numbers.Number")
        found.append(value)
    return tuple(found)


def _class_of(frame, node):
    if isinstance(node, ast.Name) and names.scope_of(frame, node.id) is None:
        meant = names.meaning_of(frame, node.id, node)
        if meant.kind == "primitive":  # ``float``, ``int``, ``abs``: read as calls
            return getattr(builtins, node.id, None)
        return meant.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        module = {"numbers": numbers, "abc": collections.abc}.get(node.value.id)
        if module is not None and names.scope_of(frame, node.value.id) is None:
            return getattr(module, node.attr, None)
    return None


def _is_called(frame, node, possible):
    """``callable(f)``: whether an instance of every class ``f`` may have is callable
    (a function passed as a value, an object whose class defines ``__call__``), or of
    none (a number, a string, None, a container)."""
    operand = frame.mapping.get(node.args[0].id) if isinstance(node.args[0], ast.Name) else None
    if isinstance(operand, ir.Var) and operand.name in frame.unit.params and (
            not frame.unit.specialized):
        raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} is told from "
                          "the argument a call passes", "call the gradient, or give "
                          "example arguments: symdiff.source(f, *args)")
    called = {any("__call__" in vars(k) for k in c.__mro__) for c in possible}
    if len(called) != 1:
        raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} cannot be told "
                          "when the gradient is built", "test the value with isinstance, or "
                          "with `is None`")
    return ir.Const(called.pop())


def _has_attribute(frame, node, possible):
    """``hasattr(x, "__len__")``: whether every class ``x`` may have has the attribute,
    or none (a string constant names it)."""
    attribute = node.args[1]
    if not (isinstance(attribute, ast.Constant) and isinstance(attribute.value, str)):
        raise frame.error(UnsupportedSyntaxError, attribute, "hasattr() of an attribute "
                          "named by a string written out is read", 'write hasattr(x, "__len__")')
    has = {hasattr(c, attribute.value) for c in possible}
    if len(has) != 1:
        raise frame.error(UnsupportedSyntaxError, node, f"{ast.unparse(node)} cannot be told "
                          "when the gradient is built", "test the value with isinstance")
    return ir.Const(has.pop())
