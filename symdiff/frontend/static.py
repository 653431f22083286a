"""Static: the functions of a Python file, without running the file.

Expects the path of a source file.  Guarantees a ``StaticModule`` whose
``namespace`` holds what can be known about the module's globals by reading it,
and nothing its top-level code would have to run to produce:

- ``import math``, ``import numpy as np``, ``from math import sin, cos as c`` and
  the like, for the modules ``math``, ``numpy``, ``symdiff``, ``scipy.special`` and
  ``scipy.stats`` only (these real modules are imported and their names bound);
- constants: a value ``ast.literal_eval`` accepts, or arithmetic on numbers and
  on constants already known, evaluated here by walking the tree (never ``eval``);
- every top-level ``def`` whose default values are such constants: that one
  statement alone is compiled and executed, without its decorators and
  annotations, so the function object has the file's real name and line numbers
  and its body never runs.  Only decorators that leave what the function computes
  alone are dropped so (caches, symdiff's own); a ``def`` with any other decorator is
  left out, since only running the module would say what the decorated function does.

The file's derivative rules (``symdiff.defgrad(f, ...)``, ``@symdiff.custom_grad(...)``)
are read too, when written with lambdas, ``None`` and names of functions
(``symdiff.frontend.static_rules``); a function whose rule cannot be read so is left out, with
``--import`` as the way to get it, and a rule for an unknown function is in
``unreadable_rules``.

Imports and constants are read by ``static_values``, functions made by ``static_define``.
Every other top-level statement is skipped.  A name it could bind is removed from
the namespace and remembered in ``skipped`` (name -> line), so a function reading
it fails to resolve instead of seeing a stale value; so is every name some function
declares ``global``.

    import math                 namespace: math -> <module math>, SCALE -> 0.25,
    SCALE = 1 / 4        ──►               f -> <function f>
    print("hello")              skipped:   {}   (print binds nothing and never runs)
    def f(x): ...
"""

import ast
import linecache
import os
from dataclasses import dataclass, field

from symdiff import markers
from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.frontend import static_rules
from symdiff.frontend.parse import READ_ONLY, lambda_name
from symdiff.frontend.static_define import bound_names, define, global_declarations
from symdiff.frontend.static_values import (
    STATIC_MODULES,
    NotConstant,
    assignment_bindings,
    constant_value,
    import_bindings,
)


@dataclass
class StaticModule:
    path: str
    tree: ast.Module
    namespace: dict  # the globals every function defined here shares
    defined: dict = field(default_factory=dict)  # def name -> function (the last def wins)
    left_out: dict = field(default_factory=dict)  # def name -> (line, why not defined or None)
    skipped: dict = field(default_factory=dict)  # name -> line of a statement not run
    rules: list = field(default_factory=list)  # lines of the derivative rules read
    unreadable_rules: list = field(default_factory=list)  # (line, why) for unknown functions

    def function(self, name):
        """The function ``name`` defined by the file's last top-level ``def`` of that name
    (or ``name = lambda ...``)."""
        if name in self.defined:
            return self.defined[name]
        if name in self.left_out:
            lineno, reason = self.left_out[name]
            if reason is None:
                raise UnsupportedSyntaxError(
                    f"{name} is an async function", filename=self.path, lineno=lineno,
                    col_offset=0, source_line=linecache.getline(self.path, lineno) or None,
                    hint="symdiff differentiates plain def functions")
            raise SymdiffError(f"{name} cannot be defined without running the module: {reason}",
                               filename=self.path, lineno=lineno, col_offset=0,
                               source_line=linecache.getline(self.path, lineno) or None,
                               hint="pass --import to import the module instead")
        names = self.function_names()
        hint = (f"its functions are {', '.join(names)}" if names
                else "it has no top-level def functions")
        raise SymdiffError(f"{self.path} has no top-level function named {name}", hint=hint)

    def function_names(self):
        """Names of the file's top-level functions (``def`` or ``f = lambda``), in source order."""
        return function_names(self.tree)


def function_names(tree):
    names = [n.name if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
             else lambda_name(n) for n in tree.body]
    return list(dict.fromkeys(name for name in names if name))


def read_tree(path):
    """The syntax tree of the file at ``path``; a syntax error becomes a ``SymdiffError``."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        return ast.parse(data, filename=path)
    except SyntaxError as exc:
        lineno = exc.lineno or 1
        line = exc.text or linecache.getline(path, lineno) or None
        col = max((exc.offset or 1) - 1, 0)
        message = exc.msg if exc.msg.startswith("invalid") else f"invalid syntax: {exc.msg}"
        raise SymdiffError(message, filename=path, lineno=lineno, col_offset=col,
                           source_line=line) from None
    except ValueError as exc:  # null bytes
        raise SymdiffError(f"{path} cannot be read as Python source ({exc})") from None


def load(path):
    """Read the file at ``path`` and build its ``StaticModule``; no top-level code runs."""
    tree = read_tree(path)
    linecache.checkcache(path)
    linecache.updatecache(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    module = StaticModule(path, tree, {"__name__": stem, "__file__": path,
                                       READ_ONLY: STATIC_MODULES + ("scipy",)})
    for stmt in tree.body:
        _load_statement(module, stmt)
    for name, lineno in global_declarations(tree):  # any call may rebind these
        _unbind(module, name, lineno)
    return module


def _load_statement(module, stmt):
    call = static_rules.rule_calls(stmt, module.namespace)
    if call is not None:
        _read_rule(module, stmt, call)
        return
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        bound = import_bindings(stmt)
    elif lambda_name(stmt):
        bound = _function(module, stmt, lambda_name(stmt))
        if bound is None:
            return
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        bound = assignment_bindings(stmt, module.namespace)
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        bound = _function(module, stmt, stmt.name)
        if bound is None:
            return
        _read_decorator_rules(module, stmt)
        if stmt.name not in module.defined:
            return
    elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return  # a docstring
    else:
        bound = None
    if bound is not None:
        for name, value in bound.items():
            module.namespace[name] = value
            module.skipped.pop(name, None)
        return
    if static_rules.mentions_rule([stmt]):
        _unreadable_rule(module, stmt, None, "it is not a defgrad call symdiff reads")
    if isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names):
        for name in [n for n in module.namespace if not n.startswith("__")]:
            _unbind(module, name, stmt.lineno)  # a star import may rebind anything
    for name in bound_names(stmt):
        _unbind(module, name, stmt.lineno)


def _function(module, stmt, name):
    """Define the function ``stmt`` binds to ``name``: ``{name: function}``, or None when
    it cannot be defined without running the module (then ``name`` is unbound)."""
    function, reason = define(stmt, module, name)
    if function is None:
        module.left_out[name] = (stmt.lineno, reason)
        module.defined.pop(name, None)
        _unbind(module, name, stmt.lineno)
        return None
    module.left_out.pop(name, None)
    module.defined[name] = function
    return {name: function}


def _read_rule(module, stmt, call):
    """Give the function ``defgrad(f, ...)`` names its rule, or refuse the function."""
    name = static_rules.rule_target(call)
    target = static_rules.resolve(call.args[0], module.namespace) if call.args else None
    if not callable(target):
        _unreadable_rule(module, stmt, name, "it is for a function known only by running")
        return
    try:
        if call.keywords:
            raise static_rules.Unreadable("it is given keyword arguments")
        static_rules.give(target, call.args[1:], module.namespace, module.path,
                          _constant_or_unreadable(module))
    except static_rules.Unreadable as exc:
        _unreadable_rule(module, stmt, name, exc.args[0])
        return
    module.rules.append(stmt.lineno)
    if isinstance(stmt, ast.Assign):  # g = defgrad(f, ...) binds g to f
        names = bound_names(stmt)
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            for bound in names:
                _unbind(module, bound, stmt.lineno)
            return
        module.namespace[names[0]] = target
        module.skipped.pop(names[0], None)
        if name in module.defined:
            module.defined[names[0]] = target


def _read_decorator_rules(module, stmt):
    """Rules given by ``@custom_grad(...)`` on the ``def`` just defined."""
    function = module.defined[stmt.name]
    try:
        for decorator in static_rules.decorator_rules(stmt, module.namespace):
            if decorator.keywords:
                raise static_rules.Unreadable("its custom_grad is given keyword arguments")
            static_rules.give(function, decorator.args, module.namespace, module.path,
                              _constant_or_unreadable(module))
            module.rules.append(decorator.lineno)
    except static_rules.Unreadable as exc:
        _unreadable_rule(module, stmt, stmt.name, exc.args[0])


def _constant_or_unreadable(module):
    def constant(node):
        try:
            constant_value(node, module.namespace)
        except NotConstant:
            raise static_rules.Unreadable(f"the default value `{ast.unparse(node)}` of a "
                                          "partial is not a constant") from None
    return constant


def _unreadable_rule(module, stmt, name, why):
    """A derivative rule that only running the module gives: its function is left out
    (a caller of it then fails to resolve it, with --import as the way out)."""
    reason = f"the derivative rule on line {stmt.lineno} cannot be read without running it ({why})"
    if name in module.left_out:  # refused already, for its own reason
        return
    if name not in module.defined:  # no function of the file to leave out: the whole file
        module.unreadable_rules.append((stmt.lineno, reason))
        return
    markers.CUSTOM_RULES.pop(module.defined.pop(name), None)
    module.left_out[name] = (stmt.lineno, reason)
    _unbind(module, name, stmt.lineno)


def _unbind(module, name, lineno):
    module.namespace.pop(name, None)
    module.skipped[name] = lineno
