"""Arrays in forward mode: the tangent of a statement that computes with NumPy arrays.

Used by ``ad.forward``.  Expects an ``Assign`` whose operands or result are arrays (or an
array record's), with its record as ``Program.rule_of`` gives it (``primitives.arrays.
for_arrays``: one JVP builder per argument), and the active arguments' tangents.
Guarantees statements binding the target's tangent, which has the target's shape:

- the sum of the builders' terms, one call where the record is linear in several
  arguments at once (``np.concatenate([da, db])``, ``np.where(c, dx, dy)``:
  ``tangents.together``), broadcast to the result's shape where every term is of a
  broadcast operand (``tangents.Spread``: ``np.broadcast_to(da, y.shape)``);
- ``np.zeros_like(y)`` where no term reaches an array ``y``;
- a Python float made of a 0-d array (``float(s)``) has a float tangent, ``float(ds)``;
- for ``y = x`` written at ``index`` with ``v`` (``x[i] = v``): a new array, ``dx``
  copied (or zeros of ``x``) with ``dv`` (or zero) at the index, as the forward copies.

    y = x + b        (x: 2 axes, b: 1, both active)     dy = dx + db
    y = x + b        (b alone active)                   dy = np.broadcast_to(db, y.shape)
    y = x.copy(); y[:, 0] = v                           dy = dx.copy(); dy[:, 0] = dv
"""

from symdiff.ad.arrays import add_at, zeros_like
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.primitives.derivatives import unit
from symdiff.primitives.indexing import Scattered, Zeroed
from symdiff.primitives.tangents import Spread, together


def is_array(env, name):
    return isinstance(env.program.types.get(name), t.Array)


def zero_tangent(env, name):
    """The tangent of ``name`` where nothing moves it: zeros of its shape for an array."""
    return zeros_like(env, name) if is_array(env, name) else sw.ZERO


def array_tangent(env, stmt, target, terms, args, names):
    """The statements binding ``target``, the tangent of ``stmt``'s result, from
    ``terms``: ``(builder, tangent)`` of each active argument with a builder."""
    out = ex.Name(stmt.target)
    if not terms:
        return [sw.Let(target, zero_tangent(env, stmt.target))]
    built = [builder(g, args, out, names) for builder, g in terms]
    if any(isinstance(b, (Zeroed, Scattered)) for b in built):
        return _written_tangent(env, target, args[0], built)
    joint = together([b for b, _ in terms], [g for _, g in terms], args, out, names)
    total = joint if joint is not None else _sum(built)
    if is_array(env, stmt.target) and all(isinstance(b, Spread) for b, _ in terms):
        numpy = ex.Name(env.program.numpy_name)
        total = ex.Call(ex.Attribute(numpy, "broadcast_to"),
                        (total, ex.Attribute(out, "shape")))
    if _number_of_a_zero_d_array(env, stmt, terms):
        total = ex.Call(ex.Name(env.names.builtin("float")), (total,))
    return [sw.Let(target, total)]


def _number_of_a_zero_d_array(env, stmt, terms):
    """Whether ``stmt`` makes a Python float of a 0-d array (``float(s)``): its tangent
    is a float too, as its value is, not the 0-d array the builders' terms give."""
    kinds = [env.program.types.get(a.name) for a in stmt.args if isinstance(a, ir.Var)]
    return env.program.types.get(stmt.target) == t.FLOAT and terms and any(
        isinstance(k, t.Array) and k.ndim == 0 for k in kinds)


def _sum(built):
    total = None
    for term in built:
        term, sign = unit(term)
        if total is None:
            total = ex.UnaryOp("-", term) if sign == -1 else term
        else:
            total = ex.BinOp("-" if sign == -1 else "+", total, term)
    return total


def _written_tangent(env, target, x, built):
    """``dy = dx.copy(); dy[index] = dv`` for ``y = x`` written at ``index`` with ``v``
    (zeros of ``x`` where ``x`` has no tangent, zero where ``v`` has none);
    ``dy = dx.copy(); np.add.at(dy, index, dv)`` for ``y = numpy.add.at(x, index, v)``,
    whose ``dx`` passes whole."""
    kept = next((b for b in built if isinstance(b, Zeroed)), None)
    put = next((b for b in built if isinstance(b, Scattered)), None)
    whole = next((b for b in built if not isinstance(b, (Zeroed, Scattered))), None)
    if kept is not None or whole is not None:
        start = ex.Call(ex.Attribute(kept.value if kept is not None else whole, "copy"))
    else:
        start = ex.Call(ex.Attribute(ex.Name(env.program.numpy_name), "zeros_like"), (x,))
    if put is not None and put.repeats:
        return [sw.Let(target, start), add_at(env, target, put.index, put.value)]
    index = (kept or put).index
    return [sw.Let(target, start),
            sw.Let(ex.Subscript(ex.Name(target), index), put.value if put else sw.ZERO)]
