"""Shared terms: a computation a rule's contribution reads twice is bound to a name once.

Expects the contributions a statement's VJP builders gave (``core.expr`` expressions) and
a function making fresh names.  Guarantees ``bind_shared(terms, fresh)``: the
contributions with each call or comparison they compute more than once (the same
expression, twice or more within one contribution or across them) read from a name, and
the ``Let``s binding those names, to run first, in the order they are needed: the same
numbers (each is computed once instead of twice, which raises what the first evaluation
raised), one operation fewer per repetition.  Only a call or a comparison is bound (a
name, a constant, an attribute or an index costs what reading a name costs), and not a
call read by index, which may give several values (``np.linalg.eigh(K)[1]``).

    dx = dm * (x == m) / np.sum(x == m, axis=1, keepdims=True, dtype=x.dtype)
                    ->
    mask_m = x == m
    dx = dm * mask_m / np.sum(mask_m, axis=1, keepdims=True, dtype=x.dtype)
"""

from dataclasses import fields, is_dataclass

from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw

__all__ = ["bind_shared"]

_BOUND = (ex.Call, ex.Compare)


def bind_shared(terms, fresh, base):
    """``(lets, terms)``: see the module (``fresh(stem)``: a name not taken; ``base``: what
    the names are made from, the statement's target)."""
    lets = []
    while True:
        shared = _first_shared(terms + [let.value for let in lets])
        if shared is None:
            return lets, terms
        name = fresh(_name(shared, base))
        reads = set(ex.names(shared))
        after = max((i + 1 for i, let in enumerate(lets) if let.target in reads), default=0)
        lets = [sw.Let(let.target, _replaced(let.value, shared, ex.Name(name)))
                for let in lets]
        if any(name in ex.names(let.value) for let in lets[:after]):
            return lets, terms  # (read before what it reads is bound: never, as bound here)
        lets.insert(after, sw.Let(name, shared))
        terms = [_replaced(term, shared, ex.Name(name)) for term in terms]


def _first_shared(terms):
    """The outermost call or comparison met twice or more among ``terms``, the first
    in evaluation order; None when there is none."""
    counts, order, indexed = {}, [], set()
    for term in terms:
        for node in ex.walk(term):
            if isinstance(node, ex.Subscript) and isinstance(node.value, ex.Call):
                indexed.add(id(node.value))  # (one of several values, ``eigh(K)[1]``)
            if isinstance(node, _BOUND) and id(node) not in indexed:
                try:
                    counts[node] = counts.get(node, 0) + 1
                except TypeError:  # (a constant no dict can hold: not shared)
                    continue
                if counts[node] == 1:
                    order.append(node)
    repeated = [node for node in order if counts[node] > 1]
    outermost = [node for node in repeated if not any(
        node is not other and any(inner == node for inner in ex.walk(other))
        for other in repeated)]
    return outermost[0] if outermost else None


def _name(node, base):
    """``mask_<base>`` for a comparison; for a call, its function's name and what it
    takes first where that is a name (``sum_w`` for ``np.sum(w)``), else ``base``."""
    if isinstance(node, ex.Compare):
        return f"mask_{base}"
    func = node.func
    stem = func.attr if isinstance(func, ex.Attribute) else getattr(func, "id", "value")
    first = node.args[0] if node.args else None
    return f"{stem}_{first.id if isinstance(first, ex.Name) else base}"


def _replaced(node, old, new):
    """``node`` with each expression equal to ``old`` replaced by ``new``."""
    if node == old:
        return new
    if isinstance(node, tuple):
        return tuple(_replaced(item, old, new) for item in node)
    if not is_dataclass(node) or isinstance(node, (ex.Name, ex.Const)):
        return node
    changed = {f.name: _replaced(getattr(node, f.name), old, new) for f in fields(node)}
    if all(changed[k] is getattr(node, k) for k in changed):
        return node
    return type(node)(**changed)
