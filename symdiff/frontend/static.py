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
import copy
import importlib
import linecache
import operator
import os
from dataclasses import dataclass, field

from symdiff import markers
from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.frontend import static_rules
from symdiff.frontend.parse import READ_ONLY, lambda_name

STATIC_MODULES = ("math", "numpy", "symdiff")
SCIPY_MODULES = ("scipy", "scipy.special", "scipy.stats")  # SciPy's, as far as symdiff reads it
CONSTANT_NAMES = ("pi", "e", "tau", "inf", "nan")  # math.pi, np.pi, ... in constant arithmetic
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
           ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_MAX_INT_BITS = 100_000  # integer arithmetic with a larger result is left unevaluated


class NotConstant(Exception):
    """The expression is not something the static loader evaluates."""


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
    for name, lineno in _global_declarations(tree):  # any call may rebind these
        _unbind(module, name, lineno)
    return module


def _load_statement(module, stmt):
    call = static_rules.rule_calls(stmt, module.namespace)
    if call is not None:
        _read_rule(module, stmt, call)
        return
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        bound = _import(stmt)
    elif lambda_name(stmt):
        bound = _function(module, stmt, lambda_name(stmt))
        if bound is None:
            return
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        bound = _assignment(stmt, module.namespace)
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
    function, reason = _define(stmt, module, name)
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


# --- imports ------------------------------------------------------------------------------

def _import(stmt):
    """The names an import of math, numpy or symdiff binds; None for any other import."""
    if isinstance(stmt, ast.Import):
        bound = {}
        for alias in stmt.names:
            if not _is_static_module(alias.name):
                return None
            module = _import_module(alias.name)
            if module is None:
                return None
            if alias.asname:
                bound[alias.asname] = module
            else:
                top = alias.name.split(".")[0]
                bound[top] = _import_module(top)
        return bound
    if stmt.level or not stmt.module or not _is_static_module(stmt.module):
        return None
    source = _import_module(stmt.module)
    if source is None:
        return None
    bound = {}
    for alias in stmt.names:
        if alias.name == "*":
            public = getattr(source, "__all__", None)
            if public is None:
                public = [n for n in vars(source) if not n.startswith("_")]
            bound.update({n: getattr(source, n) for n in public if hasattr(source, n)})
        elif hasattr(source, alias.name):
            bound[alias.asname or alias.name] = getattr(source, alias.name)
        else:
            submodule = _import_module(f"{stmt.module}.{alias.name}")
            if submodule is None:
                return None
            bound[alias.asname or alias.name] = submodule
    return bound


def _is_static_module(name):
    return name.split(".")[0] in STATIC_MODULES or name in SCIPY_MODULES


def _import_module(name):
    try:
        return importlib.import_module(name)
    except ImportError:  # numpy may not be installed: its names stay unknown
        return None


# --- constants ----------------------------------------------------------------------------

def _assignment(stmt, namespace):
    """``{name: value}`` for an assignment of constants to plain names; None otherwise."""
    if stmt.value is None:  # a bare annotation `x: float` binds nothing
        return {}
    try:
        value = constant_value(stmt.value, namespace)
        if isinstance(stmt, ast.AugAssign):
            if not isinstance(stmt.target, ast.Name) or type(stmt.op) not in _BINARY:
                return None
            current = constant_value(stmt.target, namespace)
            return {stmt.target.id: _arithmetic(_BINARY[type(stmt.op)], current, value)}
        targets = [stmt.target] if isinstance(stmt, ast.AnnAssign) else stmt.targets
        bound = {}
        for target in targets:
            bound.update(_unpack(target, value))
        return bound
    except NotConstant:
        return None


def _unpack(target, value):
    if isinstance(target, ast.Name):
        return {target.id: value}
    if (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (tuple, list))
            and len(target.elts) == len(value)):
        bound = {}
        for element, item in zip(target.elts, value):
            bound.update(_unpack(element, item))
        return bound
    raise NotConstant


def constant_value(node, namespace):
    """The value of a literal, or of arithmetic on numbers and known numeric constants.

    Raises ``NotConstant`` for anything else.  Nothing is executed: the tree is walked.
    """
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Name):
        return _number(namespace.get(node.id))
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        base = namespace.get(node.value.id)
        if getattr(base, "__name__", None) in ("math", "numpy") and node.attr in CONSTANT_NAMES:
            return _number(getattr(base, node.attr, None))
        raise NotConstant
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left = constant_value(node.left, namespace)
        right = constant_value(node.right, namespace)
        return _arithmetic(_BINARY[type(node.op)], left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_number(constant_value(node.operand, namespace)))
    raise NotConstant


def _number(value):
    if isinstance(value, (int, float)):  # bool is an int
        return value
    raise NotConstant


def _arithmetic(op, left, right):
    left, right = _number(left), _number(right)
    if op is operator.pow and isinstance(left, int) and isinstance(right, int):
        if abs(right) * max(abs(left), 2).bit_length() > _MAX_INT_BITS:
            raise NotConstant  # too big to be worth computing
    try:
        result = op(left, right)
    except (ArithmeticError, ValueError):
        raise NotConstant from None
    if isinstance(result, int) and result.bit_length() > _MAX_INT_BITS:
        raise NotConstant  # so that every operand stays small enough to compute with
    return result


# --- functions ----------------------------------------------------------------------------

def _define(stmt, module, name):
    """Execute one ``def``, or one ``name = lambda ...``, alone; ``(function, None)`` or
    ``(None, why not)``."""
    if isinstance(stmt, ast.AsyncFunctionDef):
        return None, None  # refused when asked for: no module run would help
    node = copy.deepcopy(stmt)
    if isinstance(node, ast.Assign):
        arguments = node.value.args
    else:
        for decorator in node.decorator_list:
            if not _transparent(decorator, module.namespace):
                return None, (f"it is decorated with @{ast.unparse(decorator)}, which only "
                              "running the module applies (the function it makes may not "
                              "compute what the def does)")
        node.decorator_list = []
        node.returns = None
        if hasattr(node, "type_params"):
            node.type_params = []
        arguments = node.args
    for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
        arg.annotation = None
    for arg in (arguments.vararg, arguments.kwarg):
        if arg is not None:
            arg.annotation = None
    for default in arguments.defaults + [d for d in arguments.kw_defaults if d is not None]:
        try:
            constant_value(default, module.namespace)  # checked here, so exec computes no more
        except NotConstant:
            return None, (f"the default value `{ast.unparse(default)}` (line {default.lineno}) "
                          "is not a constant")
    try:
        code = compile(ast.Module([node], type_ignores=[]), module.path, "exec")
    except SyntaxError as exc:
        return None, f"it does not compile ({exc.msg})"
    scope = module.namespace
    before = scope.get(name, _MISSING)
    exec(code, scope)  # makes the function object: the body does not run
    function = scope[name]
    if before is _MISSING:
        del scope[name]
    else:
        scope[name] = before
    return function, None


_MISSING = object()
_CACHES = ("functools.lru_cache", "lru_cache", "functools.cache", "cache")


def _transparent(decorator, namespace):
    """Whether the function a decorator makes computes what the ``def`` does: a cache
    (``functools.lru_cache``, ``functools.cache``), symdiff's own (``@symdiff.grad``: the
    command differentiates the function itself, as with --import, and ``custom_grad``,
    whose rule is read)."""
    callee = decorator.func if isinstance(decorator, ast.Call) else decorator
    if ast.unparse(callee) in _CACHES:
        return True
    found = static_rules.resolve(callee, namespace)
    return (getattr(found, "__module__", None) or "").partition(".")[0] == "symdiff"


def _global_declarations(tree):
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found.extend((name, node.lineno) for name in node.names)
    return found


def bound_names(stmt):
    """Every module-level name ``stmt`` could bind, erring on the side of more.

    Function and class bodies are not entered: their names are their own.
    """
    found = []
    stack = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.append(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append(node.name)
            continue
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.extend((a.asname or a.name).split(".")[0] for a in node.names
                         if a.name != "*")
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.append(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            found.append(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            found.append(node.rest)
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return list(dict.fromkeys(found))
