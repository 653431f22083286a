"""Additions: a VJP's value for a container (``primitives.containers``) added into its
adjoint, at one place or at every place.

Expects the reverse mode's environment and a value of a container record's VJP: ``At``
(one place), ``Each`` (every place, reading the position, values computed once before
the places, a ``Running`` offset) or an expression.  Guarantees the sweeps statements
that add it:

    At((i,), g)                          dxs[i] += g
    Each(g[i])                           for i in range(len(xs)): dxs[i] += g[i]
    Each(g[:, start:end], Running(...))  xs_start = 0
                                         for i in range(len(xs)):
                                             xs_end = xs_start + xs[i].shape[1]
                                             dxs[i] += g[:, xs_start:xs_end]
                                             xs_start = xs_end
"""

from symdiff.ad.environment import length_of
from symdiff.core import expr as ex
from symdiff.core.rewrite import substitute
from symdiff.ir import sweeps as sw
from symdiff.primitives.containers import POSITION, At, Each


def added(env, adjoint, value, index=None, over=None):
    """``adjoint += value`` (``adjoint`` a name or a place) for a VJP's value
    (``primitives.containers``): at one place (an index computed is bound to
    ``index`` first), or at every place of the container ``over``, by a loop over
    ``index``."""
    if isinstance(value, At):
        bound, into = [], adjoint
        for step in value.path:
            if isinstance(step, ex.Call):
                bound.append(sw.Let(index, step))
                step = ex.Name(index)
            into = ex.Subscript(ex.Name(into) if isinstance(into, str) else into, step)
        return bound + [sw.AddTo(into, value.value)]
    if isinstance(value, Each):
        bound, names = [], {POSITION.id: ex.Name(index)}
        for placeholder, expr in value.shared:  # ``starts = np.cumsum(...)``, once
            name = env.names.fresh(f"{_base(over)}_{placeholder.id.lstrip(chr(0))}")
            bound.append(sw.Let(name, expr))
            names[placeholder.id] = ex.Name(name)
        before, after = _running(env, value.running, over, names, bound)
        share = substitute(value.value, names)
        into = ex.Name(adjoint) if isinstance(adjoint, str) else adjoint
        return bound + [sw.For(index, (length_of(env, over),), before + [
            sw.AddTo(ex.Subscript(into, ex.Name(index)), share)] + after)]
    return [sw.AddTo(adjoint, value)]


def _running(env, running, over, names, bound):
    """The statements of a ``Running`` offset in the loop over the places: its start
    bound before it (into ``bound``), its end at each place before the value is added,
    the next start after."""
    if running is None:
        return [], []
    start, end = (env.names.fresh(f"{_base(over)}_{part}") for part in ("start", "end"))
    bound.append(sw.Let(start, running.first))
    names[running.start.id], names[running.end.id] = ex.Name(start), ex.Name(end)
    return [sw.Let(end, ex.BinOp("+", ex.Name(start), substitute(running.step, names)))], [
        sw.Let(start, ex.Name(end))]


def _base(node):
    """The name a place is of (``xs`` for ``xs[i][0]``)."""
    while isinstance(node, ex.Subscript):
        node = node.value
    return node.id if isinstance(node, ex.Name) else "parts"
