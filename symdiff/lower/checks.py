"""Checks: the ``raise`` and ``assert`` statements of the user's code, and its reports
(``print``, logging, ``warnings.warn``), as ``ir.Check``.

Expects a ``Frame`` (the function body being lowered) and a statement that passed
``fence``.  Guarantees an ``ir.Check`` holding the parts of the user's statement (as IR
expressions) as generated code runs them, where the function runs it, with every name
replaced by what it means at that point: a local by the generated name (or constant) holding its value, a module by the
name generated code imports it by, a module-level class, function or constant by the
name generated code binds it to; a builtin (``ValueError``, ``repr``) stays.  Nothing in
a check is differentiated: its values (f-string messages included) are read in the
forward sweep only.  A nested function cannot be called from a check (it is inlined,
never defined, in generated code).

    if pressure <= 0:                                    if cond:
        raise ValueError(f"{pressure} < 0")   ──►            raise ValueError(f"{pressure} < 0")
    pressure = pressure * 2                              pressure_1 = pressure * 2
    assert pressure < 10, f"{pressure}"                  assert pressure_1 < 10, f"{pressure_1}"
"""

import ast
import copy
import logging
import types
import warnings

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.resolve import lookup
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.lower import names
from symdiff.lower.operands import operand_ast


def check_statement(frame, node):
    """The ``ir.Check`` of a ``raise`` or ``assert`` statement ``node``."""
    if isinstance(node, ast.Raise):
        if node.exc is None and frame.handling:  # raises the exception being handled again
            error = frame.handling[-1]
            return ir.Check("raise", ex.Name(error), None, None, (error,), frame.origin)
        if node.exc is None:
            raise frame.error(UnsupportedSyntaxError, node, "a bare raise outside an except "
                              "clause is not supported",
                              "raise an exception: `raise ValueError(...)`")
        parts = [node.exc, node.cause]
    else:
        parts = [node.test, node.msg]
    rewrite = _Rewrite(frame)
    value, extra = (None if part is None else ex.from_ast(rewrite.visit(copy.deepcopy(part)))
                    for part in parts)
    reads = tuple(dict.fromkeys(rewrite.reads))
    if isinstance(node, ast.Raise):
        return ir.Check("raise", value, None, extra, reads, frame.origin)
    return ir.Check("assert", value, extra, None, reads, frame.origin)


def report_statement(frame, node):
    """The ``ir.Check`` of a report left as a statement (``print(...)``, a logger's
    ``log.info(...)``, ``warnings.warn(...)``: ``is_report``), called where the function
    calls it with the values it has there; None for any other expression statement."""
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and is_report(_callee(frame, node.value.func))):
        return None
    rewrite = _Rewrite(frame)
    value = ex.from_ast(rewrite.visit(copy.deepcopy(node.value)))
    return ir.Check("report", value, None, None, tuple(dict.fromkeys(rewrite.reads)),
                    frame.origin)


_LOG_LEVELS = frozenset(("debug", "info", "warning", "error", "critical", "exception", "log"))


def is_report(obj):
    """Whether calling ``obj`` only reports (prints, logs or warns) and returns nothing
    the function reads: ``print``, ``warnings.warn``, ``logging.info`` and the like, and
    those methods of a ``logging.Logger``."""
    if obj is print or obj is warnings.warn:
        return True
    if getattr(obj, "__name__", None) not in _LOG_LEVELS:
        return False
    owner = getattr(obj, "__self__", None)
    return isinstance(owner, (logging.Logger, logging.LoggerAdapter)) or (
        getattr(logging, obj.__name__, None) is obj)


def _callee(frame, func):
    """The object a callee written as a global name or a dotted path from one names
    (None for a local, or where it cannot be read without running the user's code)."""
    path = []
    while isinstance(func, ast.Attribute):
        path.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or names.scope_of(frame, func.id) is not None:
        return None
    try:
        found = lookup(func.id, frame.parsed.closure, frame.parsed.globals)
    except KeyError:
        return None
    for attr in reversed(path):  # a module's attribute, or a logger's method
        if not isinstance(found, (types.ModuleType, logging.Logger, logging.LoggerAdapter)):
            return None
        found = getattr(found, attr, None)
    return found


def class_expression(frame, node):
    """The IR expression of an ``except`` clause's class or tuple of classes (``node``;
    None, a bare ``except``, catches ``BaseException``), as generated code names them,
    and the local names it reads."""
    if node is None:
        return ex.Name("BaseException"), ()
    rewrite = _Rewrite(frame)
    value = ex.from_ast(rewrite.visit(copy.deepcopy(node)))
    return value, tuple(dict.fromkeys(rewrite.reads))


class _Rewrite(ast.NodeTransformer):
    """Names as generated code spells them; ``reads`` collects the generated names read."""

    def __init__(self, frame):
        self.frame = frame
        self.reads = []

    def visit_Name(self, node):
        frame, unit = self.frame, self.frame.unit
        if names.is_kwargs(frame, node):  # `f"options {kwargs}"`: the dict, as it is
            name = frame.mapping[node.id].name
            self.reads.append(name)
            return _located(ast.Name(name, ast.Load()), node)
        meaning = names.meaning_of(frame, node.id, node)
        if meaning.kind == "local":
            operand = names.name_operand(frame, node)
            if isinstance(operand, ir.Var):
                self.reads.append(operand.name)
            return _located(operand_ast(operand), node)
        if meaning.kind == "nested":
            raise frame.error(UnsupportedSyntaxError, node,
                              f"the nested function {node.id} is called in a check",
                              "define the function at module level to call it here")
        if meaning.kind == "constant":
            name = unit.global_name(node.id, meaning.value)
            return _located(ast.Name(name, ast.Load()), node)
        if meaning.value == "math":
            return _located(ast.Name(unit.math_name, ast.Load()), node)
        parsed = frame.parsed
        if node.id not in parsed.globals and node.id not in parsed.closure:
            return node  # a builtin: ValueError, repr, isinstance
        found = lookup(node.id, parsed.closure, parsed.globals)
        return _located(ast.Name(unit.global_name(node.id, found), ast.Load()), node)


    def visit_FormattedValue(self, node):
        node.value = self.visit(node.value)
        if node.format_spec is not None:  # stays an f-string (``:.3f``), its names rewritten
            self.generic_visit(node.format_spec)
        return node

    def visit_JoinedStr(self, node):
        """A string a helper was called with stands in its message as text: ``f"{what} must
        be positive"`` with ``what = "x"`` reads ``"x must be positive"``."""
        self.generic_visit(node)
        parts = []
        for part in node.values:
            if (isinstance(part, ast.FormattedValue) and part.conversion == -1
                    and part.format_spec is None and isinstance(part.value, ast.Constant)
                    and isinstance(part.value.value, str)):
                part = ast.Constant(part.value.value)
            if parts and isinstance(part, ast.Constant) and isinstance(parts[-1], ast.Constant):
                part = ast.Constant(parts.pop().value + part.value)
            parts.append(part)
        if all(isinstance(part, ast.Constant) for part in parts):
            return _located(ast.Constant("".join(part.value for part in parts)), node)
        node.values = parts
        return node


def _located(new, old):
    return ast.copy_location(new, old)
