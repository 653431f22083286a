"""Desugar: a fenced function's syntax tree -> a smaller language with the same meaning.

Expects a ``ParsedFunction`` that passed ``fence``; returns a new one whose tree says
the same in fewer kinds of statement (the input is left as it was; the subtrees that
do not change are shared).  Guarantees, in the function and in the functions defined
inside it:

- ``x += v`` is ``x = x + v``; ``x: float = v`` is ``x = v``, and ``x: float`` alone,
  which binds nothing, is ``pass``;
- ``a, b = x, y`` of plain names and constants, and ``a = b = x``, are assignments one
  name at a time, where no value is a name assigned before it in the statement (``a, b =
  b, a`` needs the old ``a`` kept, which ``lower`` does);
- ``g = lambda t: e`` is ``def g(t): return e``;
- ``xs.extend(it)`` is ``for item in it: xs.append(item)``;
- an ``if`` one of whose branches always leaves the block (``return``, ``break``,
  ``continue``, ``raise``) takes the rest of the block into its other branch, so control
  never leaves a branch to run on after the ``if``; the statements after one that
  always leaves the block, which never run, are gone;
- container syntax is in the forms the containers core reads: a list comprehension,
  or a generator expression given to a reduction, is a fresh list filled by ``append``
  in loops written before the statement (``comprehensions``); a loop over a container
  is a loop over ``range(...)`` that reads its elements first, a loop over a dict a
  loop over its keys that reads its entries first (``dict_loops``; ``zip(*pairs)`` of a
  tuple parameter zips its elements, ``zip_spread``), and ``w, b = params`` is ``w =
  params[0]``, ``b = params[1]`` after a check of its length (``unpacking``).  Fresh
  names are taken from no identifier of the function (``hygiene``); each statement
  written carries the location of the user's code it stands for; ``dict(d)``, and ``d.copy()`` of a
  parameter given a dict, is the comprehension ``{k: v for k, v in d.items()}``; a
  ``functools.partial`` of a function of the user's is the lambda it stands for
  (``partials``); ``map(f, xs, ...)`` is the generator expression it stands for, and a
  call of ``operator.mul`` (and the others of ``operator``) the operation (``maps``);
  ``functools.reduce(f, xs, initial)`` is the loop of the left fold, written before the
  statement (``folds``).

What needs the meaning of a name other than a builtin's (a list's methods, a call to
inline, a table's values) or Python's order of evaluation (``and``, ``or``, chained
comparisons) stays for ``lower``.  A comprehension in a ``while`` test is refused (its
hint says to compute it before the loop and at the end of the body) rather than
recomputed, since a ``continue`` would skip a recomputation at the end.

    >>> import ast
    >>> tree = ast.parse('''
    ... def f(x, n):
    ...     x += 1.0
    ...     a, b = x, n
    ...     if b > 0:
    ...         return a
    ...     y: float = a * b
    ...     return y
    ... ''').body[0]
    >>> print(ast.unparse(desugar_function(tree)))
    def f(x, n):
        x = x + 1.0
        a = x
        b = n
        if b > 0:
            return a
        else:
            y = a * b
            return y
    >>> tree = ast.parse('''
    ... def loss(params, xs, ys):
    ...     w, b = params
    ...     return sum((w * x + b - y) ** 2 for x, y in zip(xs, ys))
    ... ''').body[0]
    >>> print(ast.unparse(desugar_function(tree)))
    def loss(params, xs, ys):
        if len(params) != 2:
            raise ValueError('wrong number of values to unpack (expected 2)')
        w = params[0]
        b = params[1]
        terms = []
        length = min(len(xs), len(ys))
        for x_index in range(length):
            x = xs[x_index]
            y = ys[x_index]
            terms.append((w * x + b - y) ** 2)
        return sum(terms)
"""

import ast
import copy
import dataclasses

from symdiff.core import types as t
from symdiff.frontend.exits import always_exits, contains
from symdiff.frontend.index import NodeIndex
from symdiff.frontend.parse import lambda_as_def
from symdiff.ir.syntax import walk
from symdiff.lower.comprehension_names import rename_targets
from symdiff.lower.comprehensions import hoist
from symdiff.lower.dict_loops import view_of
from symdiff.lower.hygiene import Hygiene
from symdiff.lower.hygiene import located
from symdiff.lower.hygiene import name as name_node
from symdiff.lower.iteration import index_loop
from symdiff.lower.unpacking import unpacked_assignment
from symdiff.lower.keyed import is_keyed, keyed_extrema
from symdiff.lower.folds import folds
from symdiff.lower.index_tricks import index_tricks
from symdiff.lower.maps import maps
from symdiff.lower.partials import partials
from symdiff.lower.walrus import holds_named, named_assignments

_EXITS = (ast.Return, ast.Break, ast.Continue)
_COMPREHENSIONS = (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)


def desugar(parsed, kinds=None):
    """The ``ParsedFunction`` ``parsed`` with its tree desugared (``kinds``: its container
    parameters' types, when the gradient is generated for them)."""
    return dataclasses.replace(parsed, tree=desugar_function(
        parsed.tree, parsed.globals, parsed.closure, parsed.error, kinds, parsed.index))


def desugar_function(tree, globals_=None, closure=None, error=None, kinds=None, index=None):
    """A ``def``'s tree, desugared: a new node, ``tree`` untouched.  ``globals_`` and
    ``closure`` say what the names it does not bind mean (builtins only, when not given);
    ``error(cls, node, message, hint)`` makes its located errors; ``kinds`` tells which
    parameters are dicts (a loop over one is a loop over its keys); ``index``: the tree's
    ``NodeIndex``, when at hand."""
    scope = Hygiene(tree, globals_, closure, error, index)
    scope.kinds = kinds or {}
    tree = maps(folds(partials(_dict_copies(index_tricks(tree, scope), scope), scope), scope),
                scope)
    nodes = scope.index.nodes if tree is scope.tree else list(walk(tree))
    scope.comprehensions = any(isinstance(node, _COMPREHENSIONS) or view_of(node) == "values"
                               for node in nodes)
    scope.keyed = any(is_keyed(node, scope) for node in nodes if type(node) is ast.Call)
    scope.named = any(type(node) is ast.NamedExpr for node in nodes)
    if scope.comprehensions:
        tree = rename_targets(tree, scope)
    return _function(tree, scope)


def _dict_copies(tree, scope):
    """``tree`` with each ``dict(d)`` of the builtin ``dict`` written as the comprehension
    ``{key: value for key, value in d.items()}``, a new dict of the same entries, which
    the containers core reads (``tree`` itself when there is none)."""
    indexed = scope.index if tree is scope.tree else NodeIndex(tree)
    stored = {n.id for n in indexed.of(ast.Name) if not isinstance(n.ctx, ast.Load)}
    dicts = {name for name, kind in scope.kinds.items() if type(kind) is t.Dict and (
        name not in stored)}  # a parameter given a dict, never bound to another value
    if not any(_dict_copy_of(node, scope, dicts) is not None for node in indexed.of(ast.Call)):
        return tree
    tree = copy.deepcopy(tree)
    return _DictCopies(scope, dicts).visit(tree)


def _dict_copy_of(node, scope, dicts):
    """The dict ``node`` copies: ``d`` of ``dict(d)`` (the builtin), or of ``d.copy()``
    where ``d`` is one of ``dicts`` (parameters the call passes a dict: their kinds,
    ``scope.kinds``); None for any other node."""
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    if len(node.args) == 1 and not isinstance(node.args[0], ast.Starred) and (
            scope.meaning(node.func) is dict):
        return node.args[0]
    func = node.func
    if not node.args and isinstance(func, ast.Attribute) and func.attr == "copy" and (
            isinstance(func.value, ast.Name)) and func.value.id in dicts:
        return func.value
    return None


class _DictCopies(ast.NodeTransformer):
    """Writes ``dict(d)`` out (``_dict_copies``), in a copy of the tree it is given."""

    def __init__(self, scope, dicts):
        self.scope, self.dicts = scope, dicts

    def visit_Call(self, node):
        self.generic_visit(node)
        copied = _dict_copy_of(node, self.scope, self.dicts)
        if copied is None:
            return node
        key, value = self.scope.fresh("key"), self.scope.fresh("value")
        items = ast.Call(ast.Attribute(copied, "items", ast.Load()), [], [])
        pair = ast.Tuple([name_node(key, node, store=True), name_node(value, node, store=True)],
                         ast.Store())
        loop = ast.comprehension(pair, items, [], 0)
        return located(ast.DictComp(name_node(key, node), name_node(value, node), [loop]),
                       node)


def _function(tree, scope):
    return _with_blocks(tree, body=_block(tree.body, scope))


def _block(stmts, scope):
    out = []
    for i, stmt in enumerate(stmts):
        more = i + 1 < len(stmts)  # (the rest is copied only where an ``if`` may take it)
        if isinstance(stmt, ast.If) and more and contains([stmt], *_EXITS):
            stmt, rest = _absorb(stmt, stmts[i + 1:])
            more = bool(rest)
        out.extend(_statement(stmt, scope))
        if always_exits([stmt]) or not more:
            break
    return out


def _absorb(stmt, rest):
    """``if`` ``stmt`` followed by ``rest``: when a branch always leaves the block, the
    rest runs only in the other branch, so it moves there; (the ``if``, what is left)."""
    if always_exits(stmt.body) and always_exits(stmt.orelse):
        return stmt, []  # the rest never runs
    if always_exits(stmt.body):
        return _with_blocks(stmt, orelse=stmt.orelse + rest), []
    if always_exits(stmt.orelse):
        return _with_blocks(stmt, body=stmt.body + rest), []
    return stmt, rest


def _read_again(target):
    """The value an augmented assignment's target holds, read: ``x`` for ``x += v``,
    ``xs[i]`` for ``xs[i] += v`` (Python reads the container and the index once; what
    lowering takes there has no effect, so reading them twice reads the same)."""
    load = copy.deepcopy(target)
    for node in ast.walk(load):
        if hasattr(node, "ctx"):
            node.ctx = ast.Load()
    return load


def _statement(stmt, scope):
    """The statements ``stmt`` desugars to."""
    if isinstance(stmt, ast.AugAssign):
        load = _read_again(stmt.target)
        stmt = _at(ast.Assign([stmt.target], _at(ast.BinOp(load, stmt.op, stmt.value), stmt)),
                   stmt)
    if isinstance(stmt, ast.AnnAssign):
        if stmt.value is None:
            return [_at(ast.Pass(), stmt)]
        stmt = _at(ast.Assign([stmt.target], stmt.value), stmt)
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Lambda):
        return [_function(lambda_as_def(stmt.value, stmt.targets[0].id), scope)]
    if isinstance(stmt, ast.FunctionDef):
        return [_function(stmt, scope)]
    if scope.named and holds_named(stmt):  # `name := value`: assigned on a line of its own first
        before, stmt = named_assignments(stmt, scope)
        if before:
            return [new for made in before for new in _statement(made, scope)] + (
                _statement(stmt, scope))
    extended = _extend_loop(stmt, scope)
    if extended is not None:
        return _statement(extended, scope)
    keyed = keyed_extrema(stmt, scope) if scope.keyed else None
    if keyed is not None:  # max(xs, key=...): found by a loop before the statement
        before, stmt = keyed
        return [new for made in before for new in _statement(made, scope)] + _statement(
            stmt, scope)
    before, stmt = hoist(stmt, scope) if scope.comprehensions else ([], stmt)
    out = [new for made in before for new in _statement(made, scope)]
    if stmt is None:  # a list comprehension filled its target in place
        return out
    if isinstance(stmt, ast.Assign):
        return out + (unpacked_assignment(stmt, scope) or _one_at_a_time(stmt) or [stmt])
    if isinstance(stmt, ast.For):
        *bound, stmt = index_loop(stmt, scope) or [stmt]
        out.extend(bound)
    if isinstance(stmt, (ast.If, ast.For, ast.While)):
        stmt = _with_blocks(stmt, body=_block(stmt.body, scope),
                            orelse=_block(stmt.orelse, scope))
    if isinstance(stmt, ast.Try):
        handlers = [_with_blocks(h, body=_block(h.body, scope)) for h in stmt.handlers]
        stmt = _with_blocks(stmt, body=_block(stmt.body, scope), handlers=handlers,
                            orelse=_block(stmt.orelse, scope),
                            finalbody=_block(stmt.finalbody, scope))
    return out + [stmt]


def _extend_loop(stmt, scope):
    """``xs.extend(it)`` as ``for item in it: xs.append(item)``, which changes the list
    in place as ``extend`` does; None for any other statement."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "extend" and isinstance(call.func.value, ast.Name)
            and len(call.args) == 1 and not call.keywords):
        return None
    item = scope.fresh("item")
    append = _at(ast.Attribute(copy.copy(call.func.value), "append", ast.Load()), call)
    body = [_at(ast.Expr(_at(ast.Call(append, [name_node(item, call)], []), call)), stmt)]
    return _at(ast.For(name_node(item, call, store=True), call.args[0], body, []), stmt)


def _one_at_a_time(stmt):
    """``a, b = x, y`` or ``a = b = x`` as one assignment per name, in order; None when
    the statement is one plain assignment, or unpacks something else, or a value is a
    name the statement assigns before it (or at it: ``a, b = a, c``)."""
    if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return None
    pairs = []
    for target in stmt.targets:
        found = _pairs(target, stmt.value)
        if found is None:
            return None
        pairs.extend(found)
    assigned = set()
    for name, value in pairs:
        assigned.add(name.id)
        if isinstance(value, ast.Name) and value.id in assigned:
            return None
    return [_at(ast.Assign([name], value), stmt) for name, value in pairs]


def _pairs(target, value):
    """``[(name, value)]`` of one target: a name, or a tuple of names given a tuple of as
    many names and constants; None otherwise."""
    if not isinstance(value, (ast.Name, ast.Constant, ast.Tuple)):
        return None
    if isinstance(target, ast.Name) and not isinstance(value, ast.Tuple):
        return [(target, value)]
    if not (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
            and len(target.elts) == len(value.elts)):
        return None
    if not all(isinstance(t, ast.Name) for t in target.elts) or not all(
            isinstance(v, (ast.Name, ast.Constant)) for v in value.elts):
        return None
    return list(zip(target.elts, value.elts))


def _with_blocks(stmt, **blocks):
    """A shallow copy of the compound statement ``stmt`` with new blocks."""
    new = copy.copy(stmt)
    for name, block in blocks.items():
        setattr(new, name, block)
    return new


def _at(new, old):
    return ast.copy_location(new, old)
