"""Walking and rewriting the sweeps: the statements of ``ir.sweeps`` and the expressions
of ``core.expr`` they hold, as every pass of the optimizer reads and writes them.

Expects an ``ir.sweeps.Function``.  Guarantees one reading of what each statement reads
and writes, the same for every pass:

- ``writes(stmt)``: the names a statement (not those nested in it) assigns or changes
  (``ir.sweeps.binds`` and ``changes``: a place's container counts);
- ``reads(stmt, context)``: every name it reads, once per occurrence
  (``ir.sweeps.reads``; with a ``Context``, each expression's names are kept for the run);
- ``rewrite(stmt, change)``: ``change`` applied to each expression the statement holds
  (expressions are frozen: a pass builds new ones and puts them in place).

A comment is a ``Comment`` statement; the reverse sweep's heading is one that says it is
(``Comment.heading``).
"""

from dataclasses import replace

from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw


def blocks(function):
    """Every statement list of ``function``: its body, then the non-empty bodies nested in
    it (the last statement's first)."""
    stack = [function.body]
    while stack:
        block = stack.pop()
        yield block
        if _COMPOUND.isdisjoint(map(type, block)):
            continue  # most blocks: straight statements, looked over without a loop here
        for stmt in block:
            kind = type(stmt)
            if kind is sw.If:
                if stmt.body:
                    stack.append(stmt.body)
                if stmt.orelse:
                    stack.append(stmt.orelse)
            elif kind is sw.Try:
                stack.extend(b for b in (stmt.body, stmt.cleanup) if b)
            elif (kind is sw.For or kind is sw.While) and stmt.body:
                stack.append(stmt.body)


_COMPOUND = frozenset((sw.If, sw.For, sw.While, sw.Try))  # the statements holding blocks


def statements(block):
    """Every statement of ``block`` and those nested in it, depth first in source order."""
    if _COMPOUND.isdisjoint(map(type, block)):
        yield from block  # most blocks: straight statements, none nested
        return
    for stmt in block:
        yield stmt
        kind = type(stmt)
        if kind is sw.If:
            yield from statements(stmt.body)
            yield from statements(stmt.orelse)
        elif kind is sw.For or kind is sw.While:
            yield from statements(stmt.body)
        elif kind is sw.Try:
            yield from statements(stmt.body)
            yield from statements(stmt.cleanup)


def is_compound(stmt):
    """Whether ``stmt`` holds blocks of statements (a branch or a loop)."""
    kind = type(stmt)
    return kind is sw.If or kind is sw.For or kind is sw.While or kind is sw.Try


def every_statement(function):
    return statements(function.body)


expressions = sw.evaluated  # the expressions a statement holds, in Python's order


_CHILDREN = {
    ex.Name: None, ex.Const: None,
    ex.BinOp: lambda e: (e.left, e.right),
    ex.UnaryOp: lambda e: (e.operand,),
    ex.Attribute: lambda e: (e.value,),
    ex.Subscript: lambda e: (e.value, e.index),
    ex.Tuple: lambda e: e.elts, ex.List: lambda e: e.elts,
}


def children(expr):
    """``core.expr.children``, faster for the kinds most expressions are made of."""
    kind = type(expr)
    if kind in _CHILDREN:
        get = _CHILDREN[kind]
        return () if get is None else get(expr)
    return ex.children(expr)


def walk(expr):
    """``expr`` and every expression inside it, parents first, in evaluation order."""
    stack = [expr]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        yield node
        inner = children(node)
        if inner:
            push(reversed(inner))


def name_reads(expr, context=None):
    """Every name ``expr`` reads, once per occurrence, in evaluation order (a tuple; kept
    for the run of ``context``)."""
    if context is None:
        return sw.name_reads(expr)
    return context.remember("names", expr, sw.name_reads)


def reads(stmt, context=None):
    """Every name ``stmt`` reads itself (not nested statements), once per occurrence (a
    tuple, ``ir.sweeps.reads``; with a ``context``, an assignment's are kept while it
    holds the same value and target: expressions are frozen)."""
    if context is None:
        return sw.reads(stmt)
    kind = type(stmt)
    if kind is not sw.Let and kind is not sw.AddTo:
        return sw.reads(stmt, lambda e: context.remember("names", e, sw.name_reads))
    table = context.table("statement reads")
    hit = table.get(id(stmt))
    if hit is not None and hit[0] is stmt and hit[1] is stmt.value and hit[2] is stmt.target:
        return hit[3]
    found = sw.reads(stmt, lambda e: context.remember("names", e, sw.name_reads))
    table[id(stmt)] = (stmt, stmt.value, stmt.target, found)
    return found


def writes(stmt):
    """The names ``stmt`` itself assigns or changes (a place: its container)."""
    kind = type(stmt)
    if kind is sw.Let or kind is sw.AddTo:  # most statements: one name, bound or changed
        target = stmt.target
        return [target] if type(target) is str else [sw.target_name(target)]
    return sw.binds(stmt) + sw.changes(stmt)


def plain_target(stmt):
    """The name a ``Let`` assigns whole (None for a place or another statement)."""
    if isinstance(stmt, sw.Let) and isinstance(stmt.target, str):
        return stmt.target
    return None


def rewrite(stmt, change):
    """Put ``change(e)`` in place of each expression ``e`` that ``stmt`` holds itself."""
    kind = type(stmt)
    if kind is sw.Let or kind is sw.AddTo:  # most statements
        stmt.value = change(stmt.value)
        if type(stmt.target) is not str:  # a place
            stmt.target = change(stmt.target)
    elif isinstance(stmt, (sw.Do, sw.Push, sw.Raise, sw.Return)):
        stmt.value = change(stmt.value)
    elif isinstance(stmt, (sw.If, sw.While)):
        stmt.test = change(stmt.test)
    elif isinstance(stmt, sw.Try):
        stmt.catches = tuple(change(c) for c in stmt.catches)
    elif isinstance(stmt, sw.For):
        stmt.bounds = tuple(change(b) for b in stmt.bounds)
        if stmt.over is not None:
            stmt.over = change(stmt.over)
    elif isinstance(stmt, sw.Check):
        check = stmt.check
        stmt.check = replace(check, value=change(check.value),
                             message=None if check.message is None else change(check.message),
                             cause=None if check.cause is None else change(check.cause))


def rewrite_all(block, change):
    """``rewrite`` on every statement of ``block`` and those nested in it."""
    for stmt in statements(block):
        rewrite(stmt, change)


def transform_every(stmt, visit, kept):
    """``rewrite(stmt, lambda e: transform_kept(e, visit, kept))``, looking no further at
    an assignment whose value ``kept`` holds (most of them, once a pass has seen the
    function: such a value comes out of ``visit`` as it went in)."""
    kind = type(stmt)
    if kind is sw.Let or kind is sw.AddTo:
        value = stmt.value
        hit = kept.get(id(value))
        if hit is None or hit[0] is not value:
            stmt.value = transform_kept(value, visit, kept)
        if type(stmt.target) is not str:  # a place
            stmt.target = transform_kept(stmt.target, visit, kept)
    elif kind is not sw.Comment:
        rewrite(stmt, lambda e: transform_kept(e, visit, kept))


def with_children(expr, children):
    """``expr`` with its children (``ex.children``' order) replaced by ``children``."""
    kind = type(expr)
    if kind is ex.Attribute:
        return ex.Attribute(children[0], expr.attr)
    if kind is ex.BinOp:
        return ex.BinOp(expr.op, children[0], children[1])
    if kind is ex.UnaryOp:
        return ex.UnaryOp(expr.op, children[0])
    if kind is ex.BoolOp:
        return ex.BoolOp(expr.op, tuple(children))
    if kind is ex.Compare:
        return ex.Compare(children[0], expr.ops, tuple(children[1:]))
    if kind is ex.Call:
        args = len(expr.args)
        keywords = tuple((k, v) for (k, _), v in zip(expr.keywords, children[1 + args:]))
        return ex.Call(children[0], tuple(children[1:1 + args]), keywords)
    if kind is ex.Subscript:
        return ex.Subscript(children[0], children[1])
    if kind is ex.Slice:
        parts = iter(children)
        return ex.Slice(*(None if p is None else next(parts)
                          for p in (expr.lower, expr.upper, expr.step)))
    if kind is ex.IfExp:
        return ex.IfExp(*children)
    if kind is ex.Tuple:
        return ex.Tuple(tuple(children))
    if kind is ex.List:
        return ex.List(tuple(children))
    if kind is ex.Dict:  # keys and values, interleaved
        return ex.Dict(tuple(children[0::2]), tuple(children[1::2]))
    if kind is ex.FString:
        parts = iter(children)
        return ex.FString(tuple(p if isinstance(p, str) else next(parts) for p in expr.parts))
    if kind is ex.Formatted:
        return ex.Formatted(children[0], expr.conversion,
                            None if expr.spec is None else children[1])
    return expr


def transform(expr, visit):
    """``expr`` rebuilt bottom up: each node's children first, then ``visit(node)``."""
    inner = children(expr)
    if inner:
        new = [transform(c, visit) for c in inner]
        if any(a is not b for a, b in zip(new, inner)):
            expr = with_children(expr, new)
    return visit(expr)


def transform_kept(expr, visit, kept):
    """``transform(expr, visit)``, not walking again below an expression this ``visit``
    left as it was before: ``kept`` (expression id -> a tuple holding it) remembers each
    one with operands it left so.  ``visit`` must be a function of the node and the
    run's context alone (expressions are frozen), so such a subtree comes out of it as it
    went in; the caller keeps one ``kept`` per visit, for the run (``Context.table``)."""
    inner = children(expr)
    if not inner:
        return visit(expr)
    hit = kept.get(id(expr))
    if hit is not None and hit[0] is expr:
        return expr
    new = [transform_kept(c, visit, kept) for c in inner]
    node = expr
    for a, b in zip(new, inner):
        if a is not b:
            node = with_children(expr, new)
            break
    result = visit(node)
    if result is expr:
        kept[id(expr)] = (expr,)
    return result


def renamed(expr, replacements, context=None):
    """``expr`` with each name of ``replacements`` read replaced by its expression."""
    if not any(n in replacements for n in name_reads(expr, context)):
        return expr

    def visit(node):
        if type(node) is ex.Name and node.id in replacements:
            return replacements[node.id]
        return node
    return transform(expr, visit)


def count_operations(expr, context):
    """How many operations ``expr`` holds (kept for the run of ``context``)."""
    return context.remember("operations", expr,
                            lambda e: sum(isinstance(n, OPERATIONS) for n in walk(e)))


OPERATIONS = (ex.BinOp, ex.UnaryOp, ex.Call, ex.Compare, ex.IfExp, ex.BoolOp)


def is_comment(stmt, or_heading=False):
    """A comment on a source line (or, with ``or_heading``, the reverse sweep's heading
    too)."""
    return isinstance(stmt, sw.Comment) and (or_heading or not stmt.heading)


def clone_block(block):
    """A copy of the statements of ``block`` (expressions, being frozen, are shared)."""
    out = []
    for stmt in block:
        copied = object.__new__(type(stmt))  # as ``replace(stmt)``: each field of a
        copied.__dict__.update(stmt.__dict__)  # statement is set by ``__init__`` alone
        if isinstance(stmt, sw.If):
            copied.body, copied.orelse = clone_block(stmt.body), clone_block(stmt.orelse)
        elif isinstance(stmt, sw.Try):
            copied.body, copied.cleanup = clone_block(stmt.body), clone_block(stmt.cleanup)
        elif isinstance(stmt, (sw.For, sw.While, sw.Function)):
            copied.body = clone_block(stmt.body)
        out.append(copied)
    return out


def clone_function(function):
    types = None if function.types is None else dict(function.types)
    return replace(function, body=clone_block(function.body), types=types)
