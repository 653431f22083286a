"""Adjoints: how contributions reach an adjoint, and where each adjoint starts.

Used by ``differentiate``.  Every contribution of the chain rule is an ``AddTo``
(``d += g * partial``, written the way a person would: ``d += g`` for a partial of
one, ``d -= g`` for minus one).  ``initialize_adjoints`` then makes the first
contribution to reach each adjoint its definition (``d = e``), and zeroes before a
loop or branch the adjoints it accumulates into, so no adjoint is read unset.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core.rewrite import breadth_first_names
from symdiff.ir import sweeps as sw
from symdiff.primitives.derivatives import unit


def accumulate(target, term):
    """``target += term`` (a builder's contribution, an IR expression), as an ``AddTo``:
    ``target += g`` for ``g * 1``, ``target -= g`` for ``g * -1``."""
    value, sign = unit(term)
    return sw.AddTo(target, value, negate=sign == -1)


def initialize_adjoints(reverse, adjoints, local=frozenset(), zeros=None):
    """Turn each adjoint's first top-level ``AddTo`` into a ``Let``; zero those a loop or
    branch needs first (not the ``local`` ones, which each iteration sets itself), with
    ``zeros.get(name)`` where it gives one (an array's zeros of its primal's shape), else
    ``0.0``.

    Walks the top level of the reverse sweep in execution order; returns the set
    of adjoints that hold a value at the end.
    """
    ready = set()
    out = []
    for stmt in reverse:
        if isinstance(stmt, sw.AddTo) and stmt.target in adjoints:
            name = stmt.target
            if name not in ready:
                stmt = sw.Let(name, sw.negated(stmt.value) if stmt.negate else stmt.value)
                ready.add(name)
        elif isinstance(stmt, sw.Let) or (isinstance(stmt, sw.Pop) and stmt.target):
            ready.add(stmt.target)
        elif isinstance(stmt, (sw.If, sw.For, sw.While, sw.Try)):
            # in the order the Python statement lists its names, which the text follows
            used = [n for n in python_names(stmt) if n in adjoints and n not in local]
            for name in dict.fromkeys(used):
                if name not in ready:
                    out.append(sw.Let(name, (zeros or {}).get(name, sw.ZERO)))
                    ready.add(name)
        out.append(stmt)
    reverse[:] = out
    return ready


def python_names(stmt):
    """The names in the Python statement ``stmt`` stands for (``backend.to_python``), in
    the order ``ast.walk`` meets them there: breadth first, each statement's parts in
    its fields' order.  (Stacks, comments and checks hold no adjoint: left out.)"""
    return breadth_first_names(_forms(stmt), _parts)


def _parts(node):
    return node.parts if isinstance(node, _Statement) else None


@dataclass(frozen=True)
class _Statement:
    """A Python statement, by the nodes directly inside it in its fields' order."""

    parts: tuple


def _forms(stmt):
    """The Python statements ``stmt`` is written as."""
    kind = stmt.__class__
    if kind in (sw.Let, sw.AddTo):
        target = ex.Name(stmt.target) if isinstance(stmt.target, str) else stmt.target
        return [_Statement((target, stmt.value))]
    if kind in (sw.Do, sw.Return, sw.Raise):
        return [_Statement((stmt.value,))]
    if kind is sw.Push:
        return [_Statement((ex.Call(_stack_call(stmt, "append"), (stmt.value,)),))]
    if kind is sw.Pop:
        made = ex.Call(_stack_call(stmt, "pop"))
        return [_Statement((made,) if stmt.target is None else (ex.Name(stmt.target), made))]
    if kind is sw.If:
        return [_Statement((stmt.test,) + _block(stmt.body) + _block(stmt.orelse))]
    if kind is sw.For:
        return [_Statement((ex.Name(stmt.target), _steps(stmt)) + _block(stmt.body))]
    if kind is sw.While:
        return [_Statement((stmt.test,) + _block(stmt.body))]
    if kind is sw.Try:
        return [_Statement(tuple(stmt.catches) + _block(stmt.body) + _block(stmt.cleanup))]
    return [_Statement(())]


def _block(block):
    return tuple(form for stmt in block for form in _forms(stmt))


def _stack_call(stmt, method):
    return ex.Attribute(ex.Name(stmt.stack), method) if stmt.method else ex.Name(stmt.stack)


def _steps(stmt):
    """What a ``for`` runs over, as ``to_python`` writes it (builtins by their own names:
    no adjoint is one)."""
    steps = stmt.over if stmt.over is not None else ex.Call(ex.Name("range"), stmt.bounds)
    return ex.Call(ex.Name("reversed"), (steps,)) if stmt.reverse else steps
