"""Activity analysis: which names carry derivatives worth computing.

A name is *varied* when it depends on a differentiated parameter and *useful*
when the result depends on it; only names that are both (*active*) get an
adjoint, and only partials from an active target to an active argument are
emitted.  The analysis is by name, over all statements (loops need nothing more),
iterated to a fixed point without recursion.

    def f(x, y):  z = x * 2; w = y + 1; return z      wrt x:  active = [x, z]
"""

from . import ir


def active_names(program, wrt):
    """The active names of ``program`` when differentiating with respect to ``wrt``."""
    assigns = [s for s in ir.walk(program.body) if isinstance(s, ir.Assign)]
    varied = set(wrt)
    changed = True
    while changed:
        changed = False
        for stmt in assigns:
            if stmt.target not in varied and any(
                    name in varied for name in differentiable_args(program, stmt)):
                varied.add(stmt.target)
                changed = True
    if not isinstance(program.result, ir.Var) or program.result.name not in varied:
        return set()
    useful = {program.result.name}
    changed = True
    while changed:
        changed = False
        for stmt in assigns:
            if stmt.target in useful:
                for name in differentiable_args(program, stmt):
                    if name in varied and name not in useful:
                        useful.add(name)
                        changed = True
    return varied & useful


def differentiable_args(program, stmt):
    """Names among ``stmt``'s arguments whose partial is not identically zero."""
    partials = program.rule(stmt.op).partials
    return [arg.name for arg, partial in zip(stmt.args, partials)
            if partial is not None and isinstance(arg, ir.Var)]
