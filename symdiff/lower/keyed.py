"""Keyed: ``max(it, key=...)`` and ``min(it, key=...)`` written as the loop Python runs.

Expects one statement of a fenced function and desugar's ``Hygiene`` scope.  Guarantees
``keyed_extrema(stmt, scope)``: None when the statement calls no ``max``/``min`` of the
builtins with a ``key``; else the statements that find each such value, before the
statement, and the statement reading a fresh name in the call's place.  The loop keeps
the first item whose key is largest (smallest), as Python's ``max`` (``min``) does on
ties, and raises ``ValueError`` on an empty iterable as it does; the item found is the
value (an element of a list of numbers carries its derivative to that element).  The
key is a one-parameter lambda (its parameter renamed to the loop's fresh variable) or a
function called by name (``key=abs``).

    k = max(range(n), key=lambda j: xs[j])      best_key = None
                                                for j_1 in range(n):
                                                    key_value = xs[j_1]
                                                    if best_key is None or key_value > best_key:
                                                        best_key = key_value
                                                        best = j_1
                                                if best_key is None:
                                                    raise ValueError(...)
                                                k = best

A keyed call where Python might not evaluate it (a branch of ``and``/``or`` or of a
conditional expression, a comprehension, a ``while`` test) is a located error, so the
loop never runs where the call would not.
"""

import ast
import builtins
import copy

from symdiff.lower.hygiene import located
from symdiff.lower.hygiene import name as name_node

_FIELDS = {ast.Assign: "value", ast.Expr: "value", ast.Return: "value", ast.If: "test",
           ast.For: "iter", ast.AugAssign: "value", ast.AnnAssign: "value"}
_CONDITIONAL = (ast.BoolOp, ast.IfExp, ast.Lambda, ast.ListComp, ast.GeneratorExp,
                ast.SetComp, ast.DictComp)


def is_keyed(node, scope):
    """Whether ``node`` is ``max(...)`` or ``min(...)`` of the builtins with a ``key``."""
    return (isinstance(node, ast.Call) and any(k.arg == "key" for k in node.keywords)
            and scope.meaning(node.func) in (builtins.max, builtins.min))


def keyed_extrema(stmt, scope):
    """``(statements before, the statement)`` with each keyed call found (see the
    module), or None when ``stmt`` makes none."""
    field = _FIELDS.get(type(stmt))
    value = getattr(stmt, field, None) if field else None
    own = [stmt.test] if isinstance(stmt, (ast.If, ast.While)) else [stmt.iter] if (
        isinstance(stmt, ast.For)) else [stmt]  # not the blocks: each is desugared itself
    calls = [n for part in own for n in ast.walk(part) if is_keyed(n, scope)]
    if not calls:
        return None
    reachable = {id(n) for n in _unconditional(value)} if value is not None else set()
    for call in calls:
        if id(call) not in reachable:
            raise scope.error(call, f"{call.func.id}(..., key=...) here is not supported: "
                              "Python may not evaluate it", "compute it on a line of its own "
                              "first: `best = max(items, key=...)`")
    before = []
    new = copy.copy(stmt)
    setattr(new, field, _Replace(scope, before).visit(copy.deepcopy(value)))
    return before, new


def _unconditional(node):
    """The nodes of ``node`` Python always evaluates when it evaluates ``node``."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.BoolOp):
            stack.append(node.values[0])
        elif isinstance(node, ast.IfExp):
            stack.append(node.test)
        elif not isinstance(node, _CONDITIONAL):
            stack.extend(ast.iter_child_nodes(node))


class _Replace(ast.NodeTransformer):
    """Each keyed call, innermost first, found by a loop written into ``before``."""

    def __init__(self, scope, before):
        self.scope, self.before = scope, before

    def visit_Call(self, node):
        self.generic_visit(node)
        if not is_keyed(node, self.scope):
            return node
        keywords = {k.arg: k.value for k in node.keywords}
        if len(node.args) != 1 or set(keywords) != {"key"} or isinstance(
                node.args[0], ast.Starred):
            raise self.scope.error(node, f"this call of {node.func.id}() with a key is not "
                                   "supported", f"call {node.func.id}(items, key=...)")
        found = self.scope.fresh("best")
        self.before.extend(_search(node, node.args[0], keywords["key"], found, self.scope))
        return name_node(found, node)


def _search(call, items, key, found, scope):
    """The statements that leave in ``found`` the item of ``items`` with the largest
    (``max``) or smallest (``min``) key, the first on a tie: the item itself of a
    ``range``, else the element of the sequence at the position found (read after the
    loop, so a container element is that element, not the loop's last)."""
    best_key, item, value = (scope.fresh(base) for base in ("best_key", "item", "key_value"))
    op = ast.Gt() if call.func.id == "max" else ast.Lt()

    def load(name):
        return name_node(name, call)

    def store(name):
        return name_node(name, call, store=True)
    over_range = isinstance(items, ast.Call) and scope.meaning(items.func) is builtins.range
    statements = [ast.Assign([store(best_key)], ast.Constant(None))]
    if over_range:
        target, chosen, loop_over = store(item), item, items
    else:
        if not isinstance(items, ast.Name):
            held = scope.fresh("items")
            statements.append(ast.Assign([store(held)], items))
            items = load(held)
        position = scope.fresh("position")
        target = ast.Tuple([store(position), store(item)], ast.Store())
        chosen, loop_over = scope.fresh("best_position"), ast.Call(
            ast.Name("enumerate", ast.Load()), [copy.deepcopy(items)], [])
    is_none = ast.Compare(load(best_key), [ast.Is()], [ast.Constant(None)])
    better = ast.BoolOp(ast.Or(), [is_none, ast.Compare(load(value), [op], [load(best_key)])])
    keep = ast.Assign([store(found if over_range else chosen)],
                      load(item if over_range else position))
    body = [ast.Assign([store(value)], _key_of(key, item, call, scope)),
            ast.If(better, [ast.Assign([store(best_key)], load(value)), keep], [])]
    empty = ast.Raise(ast.Call(ast.Name("ValueError", ast.Load()), [ast.Constant(
        f"{call.func.id}() iterable argument is empty")], []), None)
    statements += [ast.For(target, loop_over, body, []),
                   ast.If(copy.deepcopy(is_none), [empty], [])]
    if not over_range:
        statements.append(ast.Assign([store(found)], ast.Subscript(
            copy.deepcopy(items), load(chosen), ast.Load())))
    return [located(s, call) for s in statements]


def _key_of(key, item, call, scope):
    """The key of the loop's ``item``: the lambda's body with its parameter renamed, or
    the key function called (``key=xs.__getitem__``, as generated gradients write the
    position of a list's largest number: ``xs[item]``)."""
    if isinstance(key, ast.Attribute) and key.attr == "__getitem__":
        return ast.copy_location(ast.Subscript(copy.deepcopy(key.value), name_node(
            item, call), ast.Load()), key)
    if not isinstance(key, ast.Lambda):
        return ast.Call(key, [name_node(item, call)], [])
    spec = key.args
    params = spec.posonlyargs + spec.args
    if len(params) != 1 or spec.defaults or spec.vararg or spec.kwarg or spec.kwonlyargs:
        raise scope.error(key, "a key takes one parameter", "write key=lambda v: ...")
    return _Rename(params[0].arg, item).visit(copy.deepcopy(key.body))


class _Rename(ast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        return ast.copy_location(ast.Name(self.new, node.ctx), node) if (
            node.id == self.old) else node
