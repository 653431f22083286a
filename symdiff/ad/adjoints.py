"""Adjoints: how contributions reach an adjoint, and where each adjoint starts.

Used by ``differentiate``.  Every contribution of the chain rule is an ``AddTo``
(``d += g * partial``, written the way a person would: ``d += g`` for a partial of
one, ``d -= g`` for minus one).  ``initialize_adjoints`` then makes the first
contribution to reach each adjoint its definition (``d = e``), and zeroes before a
loop or branch the adjoints it accumulates into, so no adjoint is read unset.
"""

import ast

from symdiff.ad.writer import expression
from symdiff.ir import sweeps as sw
from symdiff.ir.syntax import is_minus_one, is_one, load, times
from symdiff.ir.to_python import python_names


def merge_terms(terms):
    """One term per argument name: ``x * x`` gives ``dx += g * (x + x)``, not two updates."""
    merged = {}
    for name, partial in terms:
        merged[name] = partial if name not in merged else ast.BinOp(merged[name], ast.Add(),
                                                                     partial)
    return list(merged.items())


def accumulate(target, g, partial):
    """``target += g * partial`` (``partial`` a Python expression tree), as an ``AddTo``."""
    if is_one(partial):
        return sw.AddTo(target, expression(load(g)))
    if is_minus_one(partial):
        return sw.AddTo(target, expression(load(g)), negate=True)
    return sw.AddTo(target, expression(times(load(g), partial)))


def initialize_adjoints(reverse, adjoints, local=frozenset()):
    """Turn each adjoint's first top-level ``AddTo`` into a ``Let``; zero those a loop or
    branch needs first (not the ``local`` ones, which each iteration sets itself).

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
        elif isinstance(stmt, (sw.If, sw.For, sw.While)):
            # in the order the Python statement lists its names, which the text follows
            used = [n for n in python_names(stmt) if n in adjoints and n not in local]
            for name in dict.fromkeys(used):
                if name not in ready:
                    out.append(sw.Let(name, sw.ZERO))
                    ready.add(name)
        out.append(stmt)
    reverse[:] = out
    return ready
