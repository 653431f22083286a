"""Optimize: exact rewrites of the generated function, run to a fixed point.

Expects the ``Generated`` from ``differentiate``: its function the sweeps as IR
(``ir.sweeps`` statements holding ``core.expr`` expressions), typed and numbered
(``analysis.sweep_types``).  Every pass reads and writes that IR, in place, and takes
the run's ``Context`` (the types, the pure calls, the facts it remembers; made anew for
each call, so two builds share nothing); none reads Python syntax.  A statement a pass
makes gets the next id; no pass binds a name the function did not bind, so the types
stay as they are.  Guarantees the same results,
bit for bit, for every input — nan, inf and -0.0 included — and the same
exceptions: a pass never drops a statement that could raise, and never uses an
algebraic shortcut that is wrong for some float (``0 * x`` stays, ``x + 0.0``
stays because ``-0.0 + 0.0`` is ``0.0``).  Each pass returns whether it changed
anything; the passes repeat until none does, at most ``MAX_ROUNDS`` times (the
round ends as soon as every pass has seen the same tree and left it alone: a pass is a
function of the tree, so running it again would change nothing).  The analyses a pass
asks of the context (``analyses``: how often each name is assigned, read, written) are
kept for the next pass while none reports a change.
A number whose type is not known may be an int of 2**1024 or more, which meeting a
float raises ``OverflowError``: such a statement is not moved past another that may
raise; it is dropped as dead all the same (an ``OverflowError`` of a value nothing
needs is not re-raised: ``DESIGN.md``, Semantics).

    dadd = 1.0                                 dx = math.cos(x)
    dz = dadd                  ──optimize──►   dx += y
    dx = dadd * math.cos(x)
    dx += dz * y
"""

import copy
import itertools

from symdiff.ir import sweeps as sw
from symdiff.optimize.context import Context
from symdiff.optimize.doubles import double_sums
from symdiff.optimize.copies import propagate_copies, propagate_local_copies
from symdiff.optimize.echoes import drop_copies_back
from symdiff.optimize.floats import float_constants
from symdiff.optimize.fold import fold_constants
from symdiff.optimize.fuse import fuse_single_uses
from symdiff.optimize.invariants import hoist_invariants
from symdiff.optimize.kept_axes import drop_kept_axes
from symdiff.optimize.in_place import accumulate_in_place, write_copies_in_place
from symdiff.optimize.prune import (
    drop_dead_statements,
    drop_empty_statements,
    drop_orphan_comments,
    drop_unreachable,
)
from symdiff.optimize.reuse import merge_accumulations, reuse_values
from symdiff.optimize.saves import pack_saves
from symdiff.optimize.seeds import simplify_array_seeds
from symdiff.optimize.signs import fold_signs
from symdiff.optimize.walk import clone_function

__all__ = ["MAX_ROUNDS", "PASSES", "optimize_function"]

MAX_ROUNDS = 12


def optimize_function(generated, pack=True):
    """A copy of ``generated`` with its function rewritten by every pass (``pack``: and
    the saves of a loop's iteration pushed as one tuple, ``saves.pack_saves``)."""
    result = copy.copy(generated)
    function = clone_function(generated.function)
    context = Context.of(function, generated.math_name, generated)
    run_passes(function, context)
    if write_copies_in_place(function, context):  # the copies gone, their names may go
        run_passes(function, context)
    accumulate_in_place(function, context)  # last: no later pass may make names share
    if pack:  # after every pass: none reads a tuple of saves
        pack_saves(function, context.math_name)
    context.tables.clear()  # what the run remembered goes now, not when a collection finds it
    result.function = sw.number_statements(function)
    return result


def run_passes(function, context, passes=None):
    """Run ``passes`` (every pass) over ``function`` until none changes anything."""
    passes = PASSES if passes is None else passes
    unchanged = 0  # passes run in a row that changed nothing
    context.analyses = {}  # kept from one pass to the next until one changes the tree
    try:
        for run in itertools.islice(itertools.cycle(passes), MAX_ROUNDS * len(passes)):
            if run(function, context):
                unchanged = 0
                context.forget()
            else:
                unchanged += 1
                if unchanged == len(passes):  # each saw this very tree and left it
                    break
    finally:
        context.analyses = None
    return function


# Every pass, in the order each round runs them.
PASSES = (fold_constants, float_constants, fold_signs, double_sums, drop_kept_axes,
          drop_copies_back, propagate_copies, propagate_local_copies, hoist_invariants,
          reuse_values, simplify_array_seeds, fuse_single_uses, merge_accumulations,
          drop_unreachable, drop_dead_statements, drop_empty_statements,
          drop_orphan_comments)
