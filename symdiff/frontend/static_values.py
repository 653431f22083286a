"""Static values: what a file's top-level imports and constants bind, found by reading.

Expects top-level statements of a file ``symdiff.frontend.static`` is loading, and the
namespace known so far.  Guarantees:

- ``import_bindings``: the names an import of ``math``, ``numpy``, ``symdiff``,
  ``scipy.special`` or ``scipy.stats`` binds (those real modules are imported), or None
  for an import of anything else, which only running the file would do;
- ``constant_value``: the value of a literal (``ast.literal_eval``), or of arithmetic on
  numbers and constants already known (``math.pi``, a module constant), computed by
  walking the tree, never by ``eval``; integers that would grow past 100,000 bits are
  left unevaluated.  Anything else raises ``NotConstant``;
- ``assignment_bindings``: ``{name: value}`` for an assignment (plain, annotated,
  augmented, unpacking) of such constants to names, or None.
"""

import ast
import importlib
import operator

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


def import_bindings(stmt):
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


def assignment_bindings(stmt, namespace):
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
