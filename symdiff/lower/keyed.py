"""Keyed: ``max(it, key=...)`` and ``min(it, key=...)`` (or with a ``default``) written
as the loop Python runs, and ``sorted(it, key=...)`` with its keys computed first.

Expects one statement of a fenced function and desugar's ``Hygiene`` scope.  Guarantees
``keyed_extrema(stmt, scope)``: None when the statement calls no ``max``/``min`` of the
builtins with a ``key``; else the statements that find each such value, before the
statement, and the statement reading a fresh name in the call's place.  The loop keeps
the first item whose key is largest (smallest), as Python's ``max`` (``min``) does on
ties, and raises ``ValueError`` on an empty iterable as it does; the item found is the
value (an element of a list of numbers carries its derivative to that element).  The
key is a one-parameter lambda (its parameter renamed to the loop's fresh variable) or a
function called by name (``key=abs``).  With ``default=d``, an empty iterable gives
``d`` where Python's would (``d`` is evaluated after the iterable, as Python does).

``sorted(xs, key=k)`` is ``sort_keys``, a list of ``k(v)`` for each ``v`` of ``xs``
filled by a loop before the statement, and ``sorted(xs, __keys__=sort_keys)`` in the
call's place: ``lower`` sorts ``xs`` by those keys, stably as Python does (``KEYS``),
and the reverse sweep scatters through the same permutation.  The keys carry no
derivative to the result: the order is constant near every point where no two tie.

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
    """Whether ``node`` is ``max(...)`` or ``min(...)`` of the builtins with a ``key`` or
    a ``default``, or ``sorted(...)`` with a ``key``."""
    if not isinstance(node, ast.Call):
        return False
    given = {k.arg for k in node.keywords}
    meant = scope.meaning(node.func)
    if meant in (builtins.max, builtins.min):
        return bool(given & {"key", "default"})
    return meant is builtins.sorted and "key" in given and not _sorted_positions(node, scope)


def _sorted_positions(node, scope):
    """Whether ``node`` is ``sorted(range(...), key=xs.__getitem__)``: positions sorted
    by the elements at them, ints with no derivative, which ``lower.ranges`` reads as
    it is written."""
    key = next(k.value for k in node.keywords if k.arg == "key")
    return (len(node.args) == 1 and isinstance(node.args[0], ast.Call)
            and scope.meaning(node.args[0].func) is builtins.range
            and isinstance(key, ast.Attribute) and key.attr == "__getitem__"
            and isinstance(key.value, ast.Name))


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
        sorting = node.func.id == "sorted"
        allowed = {"key", "reverse"} if sorting else {"key", "default"}
        if len(node.args) != 1 or not set(keywords) <= allowed or isinstance(
                node.args[0], ast.Starred):
            raise self.scope.error(node, f"this call of {node.func.id}() with a key is not "
                                   "supported", f"call {node.func.id}(items, " + (
                                       "key=..., reverse=...)" if sorting else
                                       "key=..., default=...)"))
        if sorting:
            return _sorted_by_keys(node, node.args[0], keywords, self.scope, self.before)
        found = self.scope.fresh("best")
        self.before.extend(_search(node, node.args[0], keywords, found, self.scope))
        return name_node(found, node)


def _sorted_by_keys(call, items, keywords, scope, before):
    """``sorted(items, key=k)``: the keys computed first, one per item in a list of
    their own, and the call reading them (``sorted(items, __keys__=keys)``, which
    ``lower`` sorts as Python does, stably, by those keys)."""
    keys, item = scope.fresh("sort_keys"), scope.fresh("item")
    if not isinstance(items, ast.Name):
        held = scope.fresh("items")
        before.append(located(ast.Assign([name_node(held, call, store=True)], items), call))
        items = name_node(held, call)
    append = ast.Call(ast.Attribute(name_node(keys, call), "append", ast.Load()),
                      [_key_of(keywords["key"], item, call, scope)], [])
    before += [located(s, call) for s in (
        ast.Assign([name_node(keys, call, store=True)], ast.List([], ast.Load())),
        ast.For(name_node(item, call, store=True), copy.deepcopy(items),
                [ast.Expr(append)], []))]
    written = [ast.keyword(KEYS, name_node(keys, call))] + [
        ast.keyword("reverse", v) for k, v in keywords.items() if k == "reverse"]
    return located(ast.Call(call.func, [copy.deepcopy(items)], written), call)


KEYS = "__keys__"  # the keyword ``sorted`` is given its keys by, a list (see above)


def _search(call, items, keywords, found, scope):
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
    key = keywords.get("key")
    body = [ast.Assign([store(value)], load(item) if key is None else _key_of(
                key, item, call, scope)),
            ast.If(better, [ast.Assign([store(best_key)], load(value)), keep], [])]
    chosen_item = [] if over_range else [ast.Assign([store(found)], ast.Subscript(
        copy.deepcopy(items), load(chosen), ast.Load()))]
    if "default" in keywords:  # an empty iterable gives the default (evaluated after it)
        default = scope.fresh("default")
        statements.append(ast.Assign([store(default)], keywords["default"]))
        end = [ast.If(copy.deepcopy(is_none), [ast.Assign([store(found)], load(default))],
                      chosen_item)]
    else:
        end = [ast.If(copy.deepcopy(is_none), [ast.Raise(ast.Call(ast.Name(
            "ValueError", ast.Load()), [ast.Constant(
                f"{call.func.id}() iterable argument is empty")], []), None)], [])] + chosen_item
    statements += [ast.For(target, loop_over, body, [])] + end
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
