"""Reductions of containers as records: ``t = sum(xs)``, ``sum(xs, start)``,
``math.fsum(xs)``, ``math.prod(xs)``, ``min(xs)``, ``max(xs)``, with the container's VJP
element by element (an ``Each``) and its JVP from the tangent of the container.

Expects the helpers of ``containers`` (records, ``Each``, the names generated code calls
builtins and ``math`` by).  Guarantees ``reduction(op)``, the record of ``Reduce.op``.

    t = sum(xs)      ->  dxs[i] += dt for each i;  tangent: sum(dxs)
    m = max(xs)      ->  dxs[the first position of the largest] += dm
"""

from symdiff.core import expr as ex
from symdiff.primitives.containers import (POSITION, At, Each, Operation, _math, _named,
                                           _number, _positions, _reduced, free_name)


# --- reductions: ``t = sum(xs)``, ``math.fsum``, ``math.prod``, ``min``, ``max`` -----------

def _sum_vjp(g, args, out, names):
    return Each(g)


def _start_vjp(g, args, out, names):
    return g


def _sum_jvp(tangent, args, out, names):
    return ex.Call(_named(names, "sum"), (tangent,))


def _fsum_jvp(tangent, args, out, names):
    return ex.Call(_math(names, "fsum"), (tangent,))


def _start_jvp(tangent, args, out, names):
    return tangent


def _prod_vjp(g, args, out, names):
    """The product of the others, exact where an element is 0 (times ``start``)."""
    container, prod = args[0], _math(names, "prod")
    before = ex.Call(prod, (ex.Subscript(container, ex.Slice(None, POSITION)),))
    after = ex.Call(prod, (ex.Subscript(container, ex.Slice(
        ex.BinOp("+", POSITION, ex.Const(1)), None)),))
    share = ex.BinOp("*", ex.BinOp("*", g, before), after)
    return Each(share if len(args) == 1 else ex.BinOp("*", share, args[1]))


def _prod_start_vjp(g, args, out, names):
    return ex.BinOp("*", g, ex.Call(_math(names, "prod"), (args[0],)))


def _prod_jvp(tangent, args, out, names):
    """Each element's tangent times the product of the others (times ``start``)."""
    container, prod = args[0], _math(names, "prod")
    at = ex.Name(free_name(args + (tangent,), "k"))
    others = ex.BinOp("*", ex.Call(prod, (ex.Subscript(container, ex.Slice(None, at)),)),
                      ex.Call(prod, (ex.Subscript(container, ex.Slice(
                          ex.BinOp("+", at, ex.Const(1)), None)),)))
    terms = ex.ListComp(ex.BinOp("*", ex.Subscript(tangent, at), others), at.id,
                        _positions(container, names))
    total = ex.Call(_named(names, "sum"), (terms,))
    return total if len(args) == 1 else ex.BinOp("*", total, args[1])


def _prod_start_jvp(tangent, args, out, names):
    return ex.BinOp("*", tangent, ex.Call(_math(names, "prod"), (args[0],)))


def _chosen(op, container, names):
    """The position ``min``/``max`` returns the element of (the first one, on a tie)."""
    return ex.Call(_named(names, op), (_positions(container, names),), (
        ("key", ex.Attribute(container, "__getitem__")),))


def _chosen_vjp(op):
    """``min``/``max``: the element returned gets it (the first one, on a tie)."""
    def vjp(g, args, out, names):
        return At((_chosen(op, args[0], names),), g)
    return vjp


def _chosen_jvp(op):
    """``min``/``max``: the tangent of the element returned."""
    def jvp(tangent, args, out, names):
        return ex.Subscript(tangent, _chosen(op, args[0], names))
    return jvp


_REDUCTIONS = (
    Operation("sum", ("container", "start"), _number, (_sum_vjp, _start_vjp),
              (_sum_jvp, _start_jvp)),
    Operation("fsum", ("container",), _number, (_sum_vjp,), (_fsum_jvp,)),
    Operation("prod", ("container", "start"), _number, (_prod_vjp, _prod_start_vjp),
              (_prod_jvp, _prod_start_jvp)),
    Operation("min", ("container",), _reduced, (_chosen_vjp("min"),), (_chosen_jvp("min"),)),
    Operation("max", ("container",), _reduced, (_chosen_vjp("max"),), (_chosen_jvp("max"),)),
)

RECORDS = {record.name: record for record in _REDUCTIONS}


def reduction(op):
    """The record of the reduction ``op`` (``Reduce.op``)."""
    return RECORDS[op]
