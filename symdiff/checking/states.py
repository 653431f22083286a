"""States: every witness of ``check`` draws what the function draws from the same state.

Expects a function (the user's, the generated gradient, the tape's) and the checked
``Program``.  Guarantees ``from_one_state``: the function called, each time, on copies of
the random generators among its arguments (``copy.deepcopy``: the state the caller
passed, never one an earlier call advanced) and, where the program draws from
``np.random``'s functions, from the global state as it was when ``check`` began (set again
before each call, and at the end, as the caller left it).  So a finite difference compares
two values of ``f`` at the same draws, and the gradients are those of the draws ``f``
makes: never a comparison of different draws.

    check(f, (theta, np.random.default_rng(0)))    f(theta + h, copy of rng) - f(theta - h, copy of rng)
"""

import copy
import functools
import sys

from symdiff.ir import nodes as ir
from symdiff.primitives.random import effectful


def draws(program):
    """(whether the program draws, whether from ``np.random``'s global state)."""
    ops = [s.op for s in ir.walk(program.body) if isinstance(s, ir.Assign) and effectful(s.op)]
    return bool(ops), any(op.startswith("legacy_") for op in ops)


def from_one_state(fn, program):
    """``fn`` drawing from the state of the call (see the module); ``fn`` itself for a
    program that draws nothing."""
    drawn, legacy = draws(program)
    if not drawn:
        return fn
    numpy = sys.modules["numpy"]
    state = numpy.random.get_state() if legacy else None

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if state is not None:
            numpy.random.set_state(state)
        own = [copy.deepcopy(a) if isinstance(a, numpy.random.Generator) else a for a in args]
        try:
            return fn(*own, **kwargs)
        finally:
            if state is not None:
                numpy.random.set_state(state)
    return call


class NoSympy:
    """The sympy witness of a function that draws: sympy reads no draws, so it gives no
    column (``check`` says so once, in a note), never a comparison of other draws."""

    NOTE = "sympy not used: it does not take random draws (the function draws from a " \
           "generator or from np.random)"

    def __init__(self, names):
        self.nothing = (None,) * len(names)

    def at(self, point):
        return self.nothing, "not used"
