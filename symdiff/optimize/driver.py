"""Optimize: exact rewrites of the generated function, run to a fixed point.

Expects the ``Generated`` from ``differentiate``.  Guarantees the same results,
bit for bit, for every input — nan, inf and -0.0 included — and the same
exceptions: a pass never drops a statement that could raise, and never uses an
algebraic shortcut that is wrong for some float (``0 * x`` stays, ``x + 0.0``
stays because ``-0.0 + 0.0`` is ``0.0``).  Each pass returns whether it changed
anything; the passes repeat until none does, at most ``MAX_ROUNDS`` times (the
round ends as soon as every pass has seen the same tree and left it alone: a pass is a
function of the tree, so running it again would change nothing).
Numbers are taken to be what a float can hold: an int of 2**1024 or more meeting a
float raises ``OverflowError``, and a statement dropped as dead no longer does.

    dadd = 1.0                                 dx = math.cos(x)
    dz = dadd                  ──optimize──►   dx += y
    dx = dadd * math.cos(x)
    dx += dz * y
"""

import ast
import copy
import itertools

from symdiff.backend.syntax import clone
from symdiff.optimize.copies import propagate_copies, propagate_local_copies
from symdiff.optimize.fold import fold_constants, is_float
from symdiff.optimize.fuse import fuse_single_uses
from symdiff.optimize.prune import (
    assigned_values,
    drop_dead_statements,
    drop_empty_statements,
    drop_orphan_comments,
    largest_consistent,
)
from symdiff.optimize.reuse import merge_accumulations, reuse_values
from symdiff.primitives.effects import Calls

MAX_ROUNDS = 12


def optimize_function(generated):
    """A copy of ``generated`` with its function rewritten by every pass."""
    result = copy.copy(generated)
    function = clone(generated.function)
    floats = _float_names(function, generated)
    calls = Calls.of(generated)
    unchanged = 0  # passes run in a row that changed nothing
    for run in itertools.islice(itertools.cycle(PASSES), MAX_ROUNDS * len(PASSES)):
        if run(function, generated.math_name, floats, calls):
            unchanged = 0
        else:
            unchanged += 1
            if unchanged == len(PASSES):  # each saw this very tree and left it
                break
    result.function = function
    return result


def _float_names(function, generated):
    """Names that certainly hold floats: adjoints, and names every assignment of which
    gives a float when those names do (the largest such set, found by elimination).

    ``name = pop()`` gives what ``push(name)`` saved: the generated stack only ever
    returns a name's own value to it.
    """
    math_name = generated.math_name
    pops = {t.id for stmt in function.body if isinstance(stmt, ast.Assign)
            and isinstance(stmt.targets[0], ast.Tuple) and isinstance(stmt.value, ast.Tuple)
            for t, v in zip(stmt.targets[0].elts, stmt.value.elts)
            if isinstance(t, ast.Name) and isinstance(v, ast.Attribute) and v.attr == "pop"}
    values = assigned_values(function)
    names = list(values) + [a for a in generated.adjoints.values() if a not in values]
    helpers = frozenset(getattr(generated, "helpers", {}).values())
    found = largest_consistent(names, values, lambda value, floats: _is_popped(
        value, pops) or is_float(value, math_name, floats), given=helpers)
    return frozenset(found) | helpers  # a helper generated code defines returns a float


def _is_popped(node, pops):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in pops and not node.args)


# Every pass, in the order each round runs them.
PASSES = (fold_constants, propagate_copies, propagate_local_copies, reuse_values,
          fuse_single_uses, merge_accumulations, drop_dead_statements, drop_empty_statements,
          drop_orphan_comments)
