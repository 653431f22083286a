"""Maps: ``map(f, xs, ...)`` as the generator expression it stands for, and a call of a
function of ``operator`` as the operation it names.

Expects a function's tree and desugar's ``Hygiene`` scope.  Guarantees ``maps(tree,
scope)``: the tree (a copy, where anything changes) with each call of the builtin ``map``
with one or more iterables written as a generator expression over them, which the rest
of the pipeline reads as any (given to a reduction or ``list``), a ``for`` loop or a
comprehension's clause over one as a loop over its iterables that first computes the
element, and each call
of ``operator.add``, ``mul``, ``neg``... with its operands written out as the operator
itself.  A lambda mapped is its body over its own parameters; ``map`` stops at the
shortest iterable, as ``zip`` does:

    math.fsum(map(operator.mul, xs, ws))  ->  math.fsum(x * w for x, w in zip(xs, ws))
    sum(map(lambda v: v * v, xs))         ->  sum(v * v for v in xs)
    list(map(math.sin, xs))               ->  list(math.sin(x) for x in xs)
    for p in map(f, xs, ws): ...          ->  for x, w in zip(xs, ws): p = f(x, w); ...
    operator.truediv(a, b)                ->  a / b

Both evaluate what they are given when they are made, and call the function as the
result is read, as ``map`` does.  A ``map`` given keywords, a starred argument or a
lambda with defaults or a variable number of parameters is left as written, and
``lower`` refuses it where it stands.
"""

import ast
import copy
import operator
import types

from symdiff.ir.syntax import walk
from symdiff.lower.hygiene import located

_BINARY = {operator.add: ast.Add, operator.sub: ast.Sub, operator.mul: ast.Mult,
           operator.truediv: ast.Div, operator.floordiv: ast.FloorDiv, operator.mod: ast.Mod,
           operator.pow: ast.Pow, operator.matmul: ast.MatMult}
_UNARY = {operator.neg: ast.USub, operator.pos: ast.UAdd}
_SCOPES = (ast.Lambda, ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)


def maps(tree, scope):
    """``tree`` with its maps and calls of ``operator`` written out (see the module);
    ``tree`` itself when it has none."""
    if not any(_mapped(node, scope) or _operation(node, scope) or _held(node, scope)
               for node in walk(tree)):
        return tree
    return _Maps(scope).visit(copy.deepcopy(tree))


def _mapped(node, scope):
    """``(function, iterables)`` of a call of the builtin ``map`` this module writes out,
    or None."""
    if not (isinstance(node, ast.Call) and len(node.args) >= 2 and not node.keywords
            and scope.meaning(node.func) is map):
        return None
    if any(isinstance(a, ast.Starred) for a in node.args):
        return None
    function, iterables = node.args[0], node.args[1:]
    if len(iterables) > 1 and scope.meaning(ast.Name("zip", ast.Load())) is not zip:
        return None  # (``zip`` is the user's own)
    if isinstance(function, ast.Lambda) and not _plain(function.args, len(iterables)):
        return None
    return function, iterables


def _plain(spec, count):
    """Whether a lambda's parameters are ``count`` plain positional ones."""
    return (not spec.posonlyargs and len(spec.args) == count and not spec.defaults
            and spec.vararg is None and not spec.kwonlyargs and spec.kwarg is None)


def _operation(node, scope):
    """The ``ast`` operator class a call of a function of ``operator`` names, with its
    operands written out; None for any other call."""
    if not (isinstance(node, ast.Call) and not node.keywords and not any(
            isinstance(a, ast.Starred) for a in node.args)):
        return None
    return _operator_of(node.func, scope, len(node.args))


def _operator_of(func, scope, count):
    meant = scope.meaning(func) if isinstance(func, (ast.Name, ast.Attribute)) else None
    if not isinstance(meant, types.BuiltinFunctionType):  # (a global may be unhashable)
        return None
    return {2: _BINARY, 1: _UNARY}.get(count, {}).get(meant)


def _held(node, scope):
    """How many operands the function of ``operator`` that ``node`` (a name read, or
    ``operator.mul``) denotes takes, 2 or 1; None for any other node."""
    if not (isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load)):
        return None
    meant = scope.meaning(node)
    if not isinstance(meant, types.BuiltinFunctionType):
        return None
    return 2 if meant in _BINARY else 1 if meant in _UNARY else None


def _applied(function, operands, scope):
    """``function`` called with ``operands``, written as the operator it names when it
    is a function of ``operator``."""
    op = _operator_of(function, scope, len(operands))
    if op is not None and len(operands) == 2:
        return ast.BinOp(operands[0], op(), operands[1])
    if op is not None:
        return ast.UnaryOp(op(), operands[0])
    return ast.Call(function, list(operands), [])


class _Maps(ast.NodeTransformer):
    def __init__(self, scope):
        self.scope = scope

    def visit_For(self, node):
        opened = self._opened(node.iter)
        if opened is None:
            self.generic_visit(node)
            return node
        names, element, iterables = opened
        first = located(ast.Assign([node.target], element), node.iter)
        loop = ast.For(_target(names), _source(iterables), [first] + node.body, node.orelse)
        self.generic_visit(loop)
        return located(loop, node)

    def visit_ListComp(self, node):
        """A clause ``for v in map(f, xs)`` is ``for x in xs for v in (f(x),)``: each
        element computed as the clause runs, as ``map`` computes it."""
        clauses = []
        for clause in node.generators:
            opened = self._opened(clause.iter)
            if opened is None:
                clauses.append(clause)
                continue
            names, element, iterables = opened
            one = located(ast.Tuple([element], ast.Load()), clause.iter)
            clauses += [ast.comprehension(located(_target(names), clause.iter), located(
                _source(iterables), clause.iter), [], 0),
                        ast.comprehension(clause.target, one, clause.ifs, 0)]
        node.generators = clauses
        self.generic_visit(node)
        return node

    visit_GeneratorExp = visit_SetComp = visit_DictComp = visit_ListComp

    def _opened(self, iterable):
        """``(names, element, iterables)`` of a ``map`` looped over: fresh names for one
        element of each iterable, the element computed from them, and the iterables; None
        for anything else (or a lambda holding a scope of its own, whose names renaming
        could reach)."""
        mapped = _mapped(iterable, self.scope)
        if mapped is None or (isinstance(mapped[0], ast.Lambda) and any(
                isinstance(n, _SCOPES) for n in walk(mapped[0].body))):
            return None
        function, iterables = mapped
        names = [self.scope.fresh(_element_name(i)) for i in iterables]
        if isinstance(function, ast.Lambda):  # its body, over fresh names for its parameters
            return names, _Renamed(dict(zip((a.arg for a in function.args.args), names))
                                   ).visit(copy.deepcopy(function.body)), iterables
        return names, _applied(function, [ast.Name(n, ast.Load()) for n in names],
                               self.scope), iterables

    def visit_Call(self, node):
        kept = (node.args[0],) if _mapped(node, self.scope) else ()  # (map reads it)
        if _held(node.func, self.scope) is None:
            node.func = self.visit(node.func)
        node.args = [a if a in kept and _held(a, self.scope) else self.visit(a)
                     for a in node.args]
        node.keywords = [self.visit(k) for k in node.keywords]
        mapped = _mapped(node, self.scope)
        if mapped is not None:
            generator = located(self._generator(*mapped), node)
            generator.written_as = "map(...)"  # (what a refusal of it names)
            return generator
        if _operation(node, self.scope) is not None:
            return located(_applied(node.func, node.args, self.scope), node)
        return node

    def visit_Name(self, node):
        """A function of ``operator`` held as a value (``op = operator.mul``, passed to
        a helper, folded) is the lambda of its operation, ``lambda a, b: a * b``."""
        count = _held(node, self.scope)
        if count is None:
            return self.generic_visit(node)
        names = [self.scope.fresh(n) for n in "ab"[:count]]
        operands = [ast.Name(n, ast.Load()) for n in names]
        spec = ast.arguments([], [ast.arg(n) for n in names], None, [], [], None, [])
        return located(ast.Lambda(spec, _applied(node, operands, self.scope)), node)

    visit_Attribute = visit_Name

    def _generator(self, function, iterables):
        if isinstance(function, ast.Lambda):
            names, element = [a.arg for a in function.args.args], function.body
        else:
            names = [self.scope.fresh(_element_name(i)) for i in iterables]
            element = _applied(function, [ast.Name(n, ast.Load()) for n in names], self.scope)
        return ast.GeneratorExp(element, [ast.comprehension(
            _target(names), _source(iterables), [], 0)])


def _target(names):
    stored = [ast.Name(n, ast.Store()) for n in names]
    return stored[0] if len(stored) == 1 else ast.Tuple(stored, ast.Store())


def _source(iterables):
    return iterables[0] if len(iterables) == 1 else ast.Call(
        ast.Name("zip", ast.Load()), list(iterables), [])


class _Renamed(ast.NodeTransformer):
    """A lambda's body with its parameters read under the loop's names."""

    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        return ast.Name(self.names.get(node.id, node.id), node.ctx)


def _element_name(iterable):
    """``x`` for ``xs``, ``w`` for ``weights``: the name of one element of ``iterable``
    (``item`` for an expression)."""
    if isinstance(iterable, ast.Name) and len(iterable.id) > 1 and iterable.id.endswith("s"):
        return iterable.id[:-1]
    return "item"
