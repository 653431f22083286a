"""Fence: refuse, with the user's location and a hint, what symdiff cannot differentiate.

Expects the ``ast.FunctionDef`` from ``parse``.  Guarantees that every node below
it is of a class in ``ACCEPTED``; any other node raises ``UnsupportedSyntaxError``
at that node.  This is an allow-list: every class of Python's ``ast`` module is
named once, in ``ACCEPTED`` or in ``REFUSED`` (a test checks that), so new syntax
is refused until someone decides otherwise.

    def f(x):                         UnsupportedSyntaxError:
        with open(p):   ──fence──►    model.py:2:4: a with statement is not supported
            ...                       — move it outside the function you differentiate
"""

import ast
import builtins
import types

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.exits import code_nodes, contains
from symdiff.frontend.index import NodeIndex
from symdiff.frontend.parse import lambda_name

ACCEPTED = {
    # structure
    "Starred",  # as one target of an unpacking only (``first, *rest = xs``): checked
    "FunctionDef", "arguments", "arg", "Return", "Assign", "AugAssign", "AnnAssign", "Expr",
    "Pass",
    "If", "For", "While", "Break", "Continue", "IfExp",
    "NamedExpr",  # `name := value`: desugared to an assignment of its own (`lower.walrus`)
    # try/except/else/finally (``lower.attempts``: the path taken is recorded like a branch)
    "Try", "ExceptHandler",
    # input checks (run, never differentiated) and imports (bound like module-level ones)
    "Raise", "Assert", "JoinedStr", "FormattedValue", "Import", "ImportFrom", "alias",
    # expressions
    "BinOp", "UnaryOp", "BoolOp", "Compare", "Call", "Name", "Constant", "Attribute",
    "Tuple", "keyword", "List", "Dict", "Subscript", "Slice",
    # list and dict comprehensions and generator expressions (``desugar`` writes them as
    # loops)
    "ListComp", "GeneratorExp", "DictComp", "comprehension",
    # contexts and operators
    "Load", "Store", "Add", "Sub", "Mult", "Div", "Pow", "FloorDiv", "Mod", "USub", "UAdd",
    "Not", "And", "Or", "Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot",
    "MatMult",  # of arrays (lowering refuses it where the function has none)
    "BitAnd", "BitOr", "Invert",  # of masks (lowering refuses them where the function has none)
}

_LOOPS = ("loops are limited to `for ... in range(...)`, `for c in TABLE` (a tuple or list "
          "of numbers; also `reversed(TABLE)`, `enumerate(TABLE)` and `zip(A, B)`) and `while`")
_TABLES = (ast.Name, ast.Attribute, ast.Tuple, ast.List)  # what may hold a table of numbers
REFUSED = {
    "Module": ("a module", "differentiate one function"),
    "Expression": ("an expression", "differentiate one function"),
    "Interactive": ("interactive input", "differentiate one function"),
    "FunctionType": ("a function type comment", "remove it"),
    "AsyncFunctionDef": ("an async function", "write a plain def function"),
    "ClassDef": ("a class definition", "define classes outside the function"),
    "Delete": ("a del statement", "assign a new value instead"),
    "AsyncFor": ("an async for loop", _LOOPS),
    "AsyncWith": ("an async with statement", "move it outside the function"),
    "With": ("a with statement", "move it outside the function you differentiate"),
    "TryStar": ("a try statement with except* (exception groups)",
                "catch the exception with a plain except clause"),
    "Global": ("a global statement", "pass the value as a parameter and return results"),
    "Nonlocal": ("a nonlocal statement", "pass the value as a parameter and return results"),
    "Match": ("a match statement", "use if/elif/else"),
    "Lambda": ("a lambda", "define a def function at module level and call it"),
    "Set": ("a set", "use separate variables"),
    "SetComp": ("a set comprehension", "build a list: [e for x in xs]"),
    "Await": ("await (a coroutine)", "write a plain def function that returns a number"),
    "Yield": ("yield, which makes the function a generator,",
              "differentiate a function that returns one number (a loop can add up the "
              "values it would yield)"),
    "YieldFrom": ("yield from, which makes the function a generator,",
                  "differentiate a function that returns one number"),
    "withitem": ("a with statement", "move it outside the function"),
    "match_case": ("a match statement", "use if/elif/else"),
    "MatchValue": ("a match pattern", "use if/elif/else"),
    "MatchSingleton": ("a match pattern", "use if/elif/else"),
    "MatchSequence": ("a match pattern", "use if/elif/else"),
    "MatchMapping": ("a match pattern", "use if/elif/else"),
    "MatchClass": ("a match pattern", "use if/elif/else"),
    "MatchStar": ("a match pattern", "use if/elif/else"),
    "MatchAs": ("a match pattern", "use if/elif/else"),
    "MatchOr": ("a match pattern", "use if/elif/else"),
    "TypeIgnore": ("a type: ignore comment", "remove it"),
    "LShift": ("the << operator", "bit operations are not differentiable"),
    "RShift": ("the >> operator", "bit operations are not differentiable"),
    "BitXor": ("the ^ operator", "for a power write **"),
    "In": ("an `in` test", "compare numbers with ==, <, >"),
    "NotIn": ("a `not in` test", "compare numbers with ==, <, >"),
    "Del": ("a del statement", "assign a new value instead"),
    "TypeAlias": ("a type alias", "define it outside the function"),
    "TypeVar": ("a type parameter", "write a plain function"),
    "ParamSpec": ("a type parameter", "write a plain function"),
    "TypeVarTuple": ("a type parameter", "write a plain function"),
    # abstract bases and pre-3.9 leftovers, never produced by ast.parse on 3.10+
    "AST": ("this construct", ""), "mod": ("this construct", ""), "stmt": ("this construct", ""),
    "expr": ("this construct", ""), "expr_context": ("this construct", ""),
    "boolop": ("this construct", ""), "operator": ("this construct", ""),
    "unaryop": ("this construct", ""), "cmpop": ("this construct", ""),
    "excepthandler": ("this construct", ""), "type_ignore": ("this construct", ""),
    "pattern": ("this construct", ""), "type_param": ("this construct", ""),
    "slice": ("a slice", "pass the elements as separate parameters"),
    "AugLoad": ("this construct", ""), "AugStore": ("this construct", ""),
    "Param": ("this construct", ""), "Suite": ("this construct", ""),
    "Index": ("indexing", "pass the elements as separate parameters"),
    "ExtSlice": ("a slice", "pass the elements as separate parameters"),
    "Num": ("this construct", ""), "Str": ("this construct", ""),
    "Bytes": ("this construct", ""), "NameConstant": ("this construct", ""),
    "Ellipsis": ("this construct", ""),
}


def fence(parsed, tree=None):
    """Raise ``UnsupportedSyntaxError`` at the first construct outside the language."""
    tree = tree if tree is not None else parsed.tree
    index = parsed.index if tree is parsed.tree else NodeIndex(tree)
    _check_signature(parsed, tree, kwargs=True)
    nested = _check_nested(parsed, tree) | _key_lambdas(index) | _argument_lambdas(
        parsed, index) | _default_lambdas(parsed, tree)
    spread = _spread_arguments(parsed, index)
    checked = {}  # node class -> whether ``_check_accepted`` has a rule for it
    for node, where in code_nodes(tree):
        name = type(node).__name__
        if id(node) in spread:  # read by ``lower.star_arguments``
            continue
        if isinstance(node, (ast.FunctionDef, ast.Lambda)) and node is not tree:
            if id(node) not in nested:
                what = ("a lambda here" if isinstance(node, ast.Lambda)
                        else "a function defined inside a branch or a loop")
                raise parsed.error(UnsupportedSyntaxError, node, f"{what} is not supported",
                                   "define functions at the top of a function's body "
                                   "(`def g(t): ...` or `g = lambda t: ...`), or at module level")
            continue
        if name in ACCEPTED:
            kind = node.__class__
            if kind not in checked:
                checked[kind] = issubclass(kind, _CHECKED)
            if checked[kind]:
                _check_accepted(parsed, node)
            continue
        what, hint = REFUSED.get(name, ("this construct", "rewrite it with the supported subset"))
        raise parsed.error(UnsupportedSyntaxError, where, f"{what} is not supported",
                           hint or None)
    return tree


def fence_handler(parsed, handler):
    """``fence`` for the body of the ``except`` clause ``handler``, which the lowering
    asks for only where the clause can run (a ``try`` body that raises nothing leaves
    its handlers unread: ``statistics.fmean``'s for the iterators it does not take)."""
    guard = ast.If(test=ast.Constant(True), body=handler.body, orelse=[])  # (not at the top)
    fence(parsed, ast.FunctionDef(parsed.tree.name, parsed.tree.args, [guard], [], None,
                                  lineno=handler.lineno, col_offset=handler.col_offset))


def _check_nested(parsed, tree):
    """The ids of the nested functions the language takes, each checked: a ``def`` or a
    ``name = lambda ...`` standing in a function body itself (not in a branch or a loop),
    with no decorators, numbers as defaults, bound once and only ever called.  Returns
    the ids of the accepted ``FunctionDef`` and ``Lambda`` nodes."""
    accepted, names = set(), {}
    bodies = [tree]
    while bodies:
        for stmt in bodies.pop().body:
            if isinstance(stmt, ast.FunctionDef):
                function, name = stmt, stmt.name
                if stmt.decorator_list:
                    raise parsed.error(UnsupportedSyntaxError, stmt.decorator_list[0],
                                       "a decorator on a nested function is not supported",
                                       "call the function as it is")
                bodies.append(stmt)
            elif lambda_name(stmt):
                function, name = stmt.value, lambda_name(stmt)
            else:
                continue
            if name in names:
                raise parsed.error(UnsupportedSyntaxError, stmt,
                                   f"the function {name} is defined twice",
                                   "give each nested function its own name")
            _check_signature(parsed, function)
            for default in function.args.defaults:
                if not _is_number(default):
                    raise parsed.error(UnsupportedSyntaxError, default,
                                       "a nested function's default must be a number",
                                       "pass the value as an argument")
            accepted.add(id(function))
            names[name] = stmt
    if names:
        _check_nested_uses(parsed, tree, names)
    return accepted


def _key_lambdas(index):
    """The ids of the lambdas given as the ``key`` of a call of ``max``, ``min`` or
    ``sorted`` (``max(range(n), key=lambda k: xs[k])``: desugar writes the loop it
    stands for)."""
    return {id(k.value) for node in index.of(ast.Call) if isinstance(node.func, ast.Name)
            and node.func.id in ("max", "min", "sorted")
            for k in node.keywords if k.arg == "key" and isinstance(k.value, ast.Lambda)}


def _spread_arguments(parsed, index):
    """The ids of the ``*p`` arguments of calls of the user's functions (``f(t, x,
    *p)``) and of ``zip`` (``zip(*pairs)``, a transpose): ``lower.star_arguments``
    writes them out; another builtin's (``max(*xs)``) are refused here, as before."""
    found = set()
    for node in index.of(ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            meant = parsed.closure.get(func.id, parsed.globals.get(func.id, getattr(
                builtins, func.id, None)))
            if meant is not None and not isinstance(meant, types.FunctionType) and (
                    meant is not zip):
                continue
        found.update(id(a) for a in node.args if isinstance(a, ast.Starred))
    return found


def _argument_lambdas(parsed, index):
    """The ids of the lambdas given as an argument of a call by name (``euler(lambda x:
    -k * x, x0, dt, n)``, ``ode.euler(...)``: a function passed to a helper, which
    ``lower.function_values`` inlines where the helper calls it), each with a signature
    the language takes."""
    found = set()
    for node in index.breadth_first(ast.Call):  # (the first refused is the first ast.walk meets)
        if isinstance(node.func, (ast.Name, ast.Attribute)):
            for arg in node.args + [k.value for k in node.keywords if k.arg != "key"]:
                if isinstance(arg, ast.Lambda):
                    _check_signature(parsed, arg)
                    found.add(id(arg))
    return found


def _default_lambdas(parsed, tree):
    """The ids of the lambdas given as defaults of ``tree``'s own parameters (``def f(W,
    X, act=lambda z: np.maximum(z, 0))``: the function the default holds is passed as any
    function, its kind part of the signature), each with a signature the language takes."""
    spec = getattr(tree, "args", None)
    defaults = spec.defaults + [d for d in spec.kw_defaults if d is not None] if (
        isinstance(spec, ast.arguments)) else []
    found = set()
    for default in defaults:
        if isinstance(default, ast.Lambda):
            _check_signature(parsed, default)
            found.add(id(default))
    return found


def _check_nested_uses(parsed, tree, names):
    """Each nested function of ``names`` (name -> its defining statement) is only ever
    called, never bound again, and is no parameter's name."""
    callees = set()  # a call is walked before its function's name (and its arguments:
    for node in ast.walk(tree):  # a function passed to a helper, ``lower.function_values``)
        if isinstance(node, ast.Call):
            callees.add(id(node.func))
            callees.update(id(a) for a in node.args + [k.value for k in node.keywords])
        elif isinstance(node, ast.Name) and node.id in names:
            if isinstance(node.ctx, ast.Store) and node is not getattr(
                    names[node.id], "targets", [None])[0]:
                raise parsed.error(UnsupportedSyntaxError, node,
                                   f"{node.id} names a nested function and is assigned again",
                                   "give the value its own name")
            if isinstance(node.ctx, ast.Load) and id(node) not in callees:
                raise parsed.error(UnsupportedSyntaxError, node,
                                   f"the nested function {node.id} is used as a value",
                                   "call it, or pass it to a function of yours")
    for arg in tree.args.posonlyargs + tree.args.args:
        if arg.arg in names:
            raise parsed.error(UnsupportedSyntaxError, names[arg.arg],
                               f"{arg.arg} is a parameter and a nested function",
                               "give the function its own name")


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None


def _is_number(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float, bool)


def _check_signature(parsed, tree, kwargs=False):
    """Positional parameters with defaults; keyword-only parameters and ``**kwargs`` too
    where ``kwargs`` allows it (a function defined with ``def`` at module level: the
    differentiated function reads ``**kwargs`` with constant keys)."""
    args = tree.args
    for extra, what in ((None, "*args"), (None if kwargs else args.kwarg, "**kwargs")):
        if extra is not None:  # (``*args`` of a helper: ``lower.star_arguments`` binds it)
            raise parsed.error(UnsupportedSyntaxError, extra, f"{what} parameters are not supported",
                               "name each parameter")
    if args.kwonlyargs and not kwargs:
        raise parsed.error(UnsupportedSyntaxError, args.kwonlyargs[0],
                           "keyword-only parameters are not supported",
                           "make them ordinary parameters")


_CHECKED = (ast.Starred, ast.For, ast.While, ast.Assign, ast.AugAssign, ast.AnnAssign,
            ast.Attribute, ast.Constant, ast.Expr, ast.Compare, ast.ImportFrom, ast.Raise,
            ast.Subscript)  # the accepted nodes ``_check_accepted`` looks into further


def _check_accepted(parsed, node):
    if isinstance(node, ast.Starred) and not isinstance(node.ctx, ast.Store):
        raise parsed.error(UnsupportedSyntaxError, node, "a starred expression is not "
                           "supported", "name each value")
    if isinstance(node, ast.For):
        if _is_range(node.iter) and not isinstance(node.target, ast.Name):
            raise parsed.error(UnsupportedSyntaxError, node.target,
                               "a for loop must assign one plain name", "write `for i in range(n):`")
        _check_target(parsed, node.target)  # what it loops over, desugar reads or refuses
        _check_loop_else(parsed, node)
    elif isinstance(node, ast.While):
        _check_loop_else(parsed, node)
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            _check_target(parsed, target)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        if not isinstance(node.target, ast.Name):
            _check_target(parsed, node.target)
    elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
        raise parsed.error(UnsupportedSyntaxError, node, "assigning to an attribute is not supported",
                           "assign to a local variable")
    elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, bool)):
        if node.value is not None and node.value is not Ellipsis and not isinstance(
                node.value, str):  # (``...`` indexes arrays: elsewhere lowering refuses it)
            raise parsed.error(UnsupportedSyntaxError, node,
                               f"a {type(node.value).__name__} constant is not supported",
                               "use int or float numbers")
    elif isinstance(node, ast.Expr) and not isinstance(
            node.value, (ast.Constant, ast.Call, ast.Yield, ast.YieldFrom, ast.Await)):
        raise parsed.error(UnsupportedSyntaxError, node,
                           "an expression statement is not supported: its value is discarded",
                           "assign the value to a name or remove the line")
    elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot))
                                               for op in node.ops):
        sides = [node.left] + node.comparators
        if len(node.ops) > 1 or not any(_is_none(side) for side in sides):
            raise parsed.error(UnsupportedSyntaxError, node,
                               "an `is` comparison is only supported with None",
                               "write `x is None`, or compare numbers with == or !=")
    elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
        raise parsed.error(UnsupportedSyntaxError, node, "`import *` is not supported",
                           "import the names you use")
    elif isinstance(node, ast.Subscript) and not isinstance(node.value, _TABLES + (
            ast.Subscript, ast.Call, ast.Dict, ast.BinOp, ast.UnaryOp)):  # ``(a * b)[1:]``
        raise parsed.error(UnsupportedSyntaxError, node, "indexing this is not supported",
                           "index a tuple or list of numbers defined at module level")


def _check_loop_else(parsed, loop):
    """A loop's ``else:`` may not ``break`` or ``continue`` the loop around it."""
    for stmt in loop.orelse:
        if contains([stmt], ast.Break, ast.Continue, into_loops=False):
            raise parsed.error(UnsupportedSyntaxError, stmt,
                               "break or continue in a loop's else clause is not supported",
                               "set a flag there and test it after the loop")


def _is_range(node):
    """``range(...)`` or ``reversed(range(...))``, as spelled."""
    if _is_name_call(node, 1) and node.func.id == "reversed":
        node = node.args[0]
    return _is_name_call(node, 3) and node.func.id == "range"


def _is_name_call(node, most):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords
            and 1 <= len(node.args) <= most)


def _check_target(parsed, target):
    if isinstance(target, ast.Name):
        return
    if isinstance(target, ast.Tuple):
        starred = [e for e in target.elts if isinstance(e, ast.Starred)]
        for element in target.elts:  # one starred name, ``first, *rest = xs``: a slice
            _check_target(parsed, element.value if (
                isinstance(element, ast.Starred) and len(starred) == 1) else element)
        return
    if isinstance(target, ast.Subscript) and isinstance(target.value, (ast.Name, ast.Subscript)):
        return  # an element of a list: lowering reads what it is
    what = {"Attribute": "an attribute", "Subscript": "an element", "Starred": "a starred name",
            "List": "a list of names"}.get(type(target).__name__, "this target")
    hint = ("an object's fields are read as data, never changed by the function "
            "differentiated: keep the new value in a local name and return it, and set the "
            "field outside" if isinstance(target, ast.Attribute) else
            "assign to a plain local name")
    raise parsed.error(UnsupportedSyntaxError, target, f"assigning to {what} is not supported",
                       hint)
