"""Optimize: exact rewrites of the generated function, run to a fixed point.

Expects the ``Generated`` from ``differentiate``: its function the sweeps as IR
(``ir.sweeps`` statements holding ``core.expr`` expressions).  Every pass reads and writes
that IR, in place; none reads Python syntax.  Guarantees the same results,
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

import copy
import itertools

from symdiff.optimize.copies import propagate_copies, propagate_local_copies
from symdiff.optimize.effects import Calls
from symdiff.optimize.facts import Floats, float_names
from symdiff.optimize.fold import fold_constants
from symdiff.optimize.fuse import fuse_single_uses
from symdiff.optimize.prune import (
    drop_dead_statements,
    drop_empty_statements,
    drop_orphan_comments,
)
from symdiff.optimize.reuse import merge_accumulations, reuse_values
from symdiff.optimize.walk import clone_function, forget

__all__ = ["Floats", "MAX_ROUNDS", "PASSES", "optimize_function"]

MAX_ROUNDS = 12


def optimize_function(generated):
    """A copy of ``generated`` with its function rewritten by every pass."""
    result = copy.copy(generated)
    function = clone_function(generated.function)
    floats = _float_names(function, generated)
    calls = Calls.of(generated)
    unchanged = 0  # passes run in a row that changed nothing
    try:
        for run in itertools.islice(itertools.cycle(PASSES), MAX_ROUNDS * len(PASSES)):
            if run(function, generated.math_name, floats, calls):
                unchanged = 0
            else:
                unchanged += 1
                if unchanged == len(PASSES):  # each saw this very tree and left it
                    break
    finally:
        forget()
    result.function = function
    return result


def _float_names(function, generated):
    """Names that certainly hold floats (``facts.float_names``): adjoints, the helpers
    generated code defines, and names every assignment of which gives a float."""
    floats = float_names(function, generated.math_name, generated.adjoints.values(),
                         getattr(generated, "helpers", {}).values())
    floats.containers = getattr(generated, "containers", {})  # for ``prune``
    floats.of_adjoints = frozenset(  # the adjoints of containers: floats at every place
        generated.adjoints[name] for name in floats.containers if name in generated.adjoints)
    return floats


# Every pass, in the order each round runs them.
PASSES = (fold_constants, propagate_copies, propagate_local_copies, reuse_values,
          fuse_single_uses, merge_accumulations, drop_dead_statements, drop_empty_statements,
          drop_orphan_comments)
