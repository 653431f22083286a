"""Folds: ``functools.reduce(f, xs[, initial])`` as the left fold loop it stands for.

Expects a function's tree and desugar's ``Hygiene`` scope.  Guarantees ``folds(tree,
scope)``: the tree (a copy, where anything changes) with each call of
``functools.reduce`` that a statement surely evaluates (not inside a lambda, a
comprehension, a branch of ``x if c else y``, an operand of ``and``/``or`` after the
first, a ``while`` test) computed by statements written just before that statement,
and read there as the name they assign.  A lambda folded is its body over the fold's
names; any other function is called (``operator.add``, a ``def`` of the user's, a
function passed in), and ``maps`` writes a function of ``operator`` as its operation:

    y = reduce(lambda a, b: a * b + 1.0, xs, 0.5)  ->  a = 0.5
                                                       for b in xs:
                                                           a = a * b + 1.0
                                                       y = a
    return reduce(operator.add, xs)  ->  if len(xs) == 0:
                                             raise TypeError('reduce() of empty ...')
                                         total = xs[0]
                                         for x_index in range(1, len(xs)):
                                             x = xs[x_index]
                                             total = operator.add(total, x)
                                         return total

Without an initial value the first element starts the fold, and an empty sequence
raises the ``TypeError`` ``reduce`` raises.  A ``reduce`` given keywords, a starred
argument, a lambda with other than two plain parameters (or a scope of its own inside
it), or standing where it is not surely evaluated, is left as written, and ``lower``
refuses it where it stands.
"""

import ast
import copy
import functools

from symdiff.ir.syntax import walk
from symdiff.lower.hygiene import located

_SCOPES = (ast.Lambda, ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)
_EMPTY = "reduce() of empty iterable with no initial value"  # (Python's own message)


def folds(tree, scope):
    """``tree`` with its folds written out (see the module); ``tree`` itself when it has
    none."""
    if not any(_folded(node, scope) for node in walk(tree)):
        return tree
    return _Folds(scope).visit(copy.deepcopy(tree))


def _folded(node, scope):
    """``(function, sequence, initial or None)`` of a call of ``functools.reduce`` this
    module writes out, or None."""
    if not (isinstance(node, ast.Call) and 2 <= len(node.args) <= 3 and not node.keywords
            and scope.meaning(node.func) is functools.reduce):
        return None
    if any(isinstance(a, ast.Starred) for a in node.args):
        return None
    if any(scope.meaning(ast.Name(n, ast.Load())) is not meant for n, meant in (
            ("len", len), ("range", range), ("TypeError", TypeError))):
        return None  # (the user's own names)
    function = node.args[0]
    if isinstance(function, ast.Lambda) and not (_plain(function.args) and not any(
            isinstance(n, _SCOPES) for n in walk(function.body))):
        return None
    return function, node.args[1], node.args[2] if len(node.args) == 3 else None


def _plain(spec):
    return (not spec.posonlyargs and len(spec.args) == 2 and not spec.defaults
            and spec.vararg is None and not spec.kwonlyargs and spec.kwarg is None)


class _Folds(ast.NodeTransformer):
    """Each block's statements, with the folds each one surely evaluates written before
    it (``_Eager`` finds them)."""

    def __init__(self, scope):
        self.scope = scope

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, field, [s for stmt in block for s in self._statement(stmt)])
        for handler in getattr(node, "handlers", ()):
            self.generic_visit(handler)
        return node

    def _statement(self, stmt):
        eager = _Eager(self.scope)
        for field in _HEADERS.get(type(stmt), ()):
            value = getattr(stmt, field)
            if value is not None:
                setattr(stmt, field, eager.visit(value))
        if not isinstance(stmt, ast.ClassDef):
            self.generic_visit(stmt)
        return eager.before + [stmt]


# the fields of a statement that it evaluates once, before any of its blocks run
_HEADERS = {ast.Assign: ("value",), ast.AugAssign: ("value",), ast.AnnAssign: ("value",),
            ast.Return: ("value",), ast.Expr: ("value",), ast.If: ("test",),
            ast.For: ("iter",), ast.Assert: ("test",)}


class _Eager(ast.NodeTransformer):
    """An expression with its surely evaluated folds read as names; ``before`` holds the
    statements that compute them, inner folds first."""

    def __init__(self, scope):
        self.scope, self.before = scope, []

    def visit_Lambda(self, node):
        return node  # (evaluated only when called)

    visit_ListComp = visit_GeneratorExp = visit_SetComp = visit_DictComp = visit_Lambda

    def visit_IfExp(self, node):
        node.test = self.visit(node.test)
        return node

    def visit_BoolOp(self, node):
        node.values[0] = self.visit(node.values[0])
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        folded = _folded(node, self.scope)
        if folded is None:
            return node
        function, sequence, initial = folded
        total, element = self._names(function, sequence)
        step = _Renamed({a.arg: n for a, n in zip(function.args.args, (total, element))}
                        ).visit(copy.deepcopy(function.body)) if isinstance(
            function, ast.Lambda) else ast.Call(function, [_load(total), _load(element)], [])
        if initial is None:  # the first element starts it: a loop over the positions after
            sequence = self._named(sequence, node)
            index = self.scope.fresh(f"{element}_index")
            positions = ast.Call(ast.Name("range", ast.Load()), [ast.Constant(1), ast.Call(
                ast.Name("len", ast.Load()), [copy.deepcopy(sequence)], [])], [])
            body = [ast.Assign([_store(element)], _at(sequence, _load(index))),
                    ast.Assign([_store(total)], step)]
            self.before += [located(_empty_check(sequence), node), located(ast.Assign(
                [_store(total)], _at(sequence, ast.Constant(0))), node), located(ast.For(
                    _store(index), positions, body, []), node)]
        else:
            self.before += [located(ast.Assign([_store(total)], initial), node), located(
                ast.For(_store(element), sequence, [ast.Assign([_store(total)], step)], []),
                node)]
        return located(_load(total), node)

    def _names(self, function, sequence):
        """Fresh names for the running value and one element: a lambda's own, or
        ``total`` and ``x`` for ``xs``."""
        if isinstance(function, ast.Lambda):
            return tuple(self.scope.fresh(a.arg) for a in function.args.args)
        element = sequence.id[:-1] if isinstance(sequence, ast.Name) and len(
            sequence.id) > 1 and sequence.id.endswith("s") else "item"
        return self.scope.fresh("total"), self.scope.fresh(element)

    def _named(self, sequence, node):
        """``sequence`` itself when it is a name, else a fresh name assigned it (it is
        read three times)."""
        if isinstance(sequence, ast.Name):
            return sequence
        name = self.scope.fresh("values")
        self.before.append(located(ast.Assign([_store(name)], sequence), node))
        return _load(name)


def _empty_check(sequence):
    length = ast.Call(ast.Name("len", ast.Load()), [copy.deepcopy(sequence)], [])
    return ast.If(ast.Compare(length, [ast.Eq()], [ast.Constant(0)]), [ast.Raise(ast.Call(
        ast.Name("TypeError", ast.Load()), [ast.Constant(_EMPTY)], []), None)], [])


def _at(sequence, index):
    return ast.Subscript(copy.deepcopy(sequence), index, ast.Load())


def _load(name):
    return ast.Name(name, ast.Load())


def _store(name):
    return ast.Name(name, ast.Store())


class _Renamed(ast.NodeTransformer):
    """A lambda's body with its parameters read under the fold's names."""

    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        return ast.Name(self.names.get(node.id, node.id), node.ctx)
