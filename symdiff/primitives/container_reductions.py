"""Reductions of containers as records: ``t = sum(xs)``, ``sum(xs, start)``,
``math.fsum(xs)``, ``math.prod(xs)``, ``min(xs)``, ``max(xs)``, and the means and
spreads of ``statistics`` (``statistics.mean``, ``variance``, ``pvariance``, ``stdev``,
``pstdev``, ``geometric_mean``, ``harmonic_mean``: the value the library's exact sums
give, the derivative of the formula), with the container's VJP element by element (an
``Each``) and its JVP from the tangent of the container.

Expects the helpers of ``containers`` (records, ``Each``, the names generated code calls
builtins and ``math`` by).  Guarantees ``reduction(op)``, the record of ``Reduce.op``.

    t = sum(xs)      ->  dxs[i] += dt for each i;  tangent: sum(dxs)
    m = max(xs)      ->  dxs[the first position of the largest] += dm
    v = statistics.variance(xs)  ->  dxs[i] += dv * 2 * (xs[i] - mean) / (n - 1)
"""

from symdiff.core import expr as ex
from symdiff.core import types as t
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


# --- ``statistics``: means and spreads of the numbers of a list ----------------------------
# (n the length, m the mean, x the element at the position; a spread of equal numbers,
# 0, gets 0 as the derivative of its square root, as ``hypot`` at the origin)

_MEAN = ex.Name("\0mean")  # the mean, computed once before the elements are visited


def _count(args, names):
    return ex.Call(_named(names, "len"), (args[0],))


def _mean_of(args, names):
    return ex.BinOp("/", ex.Call(_math(names, "fsum"), (args[0],)), _count(args, names))


def _divisor(sample, args, names):
    """``n - 1`` for a sample's spread, ``n`` for a population's."""
    n = _count(args, names)
    return ex.BinOp("-", n, ex.Const(1)) if sample else n


def _element(args):
    return ex.Subscript(args[0], POSITION)


def _over(args, tangent, names, term):
    """``math.fsum`` of ``term(tangent[k], xs[k])`` over the positions ``k``."""
    at = ex.Name(free_name(args + (tangent,), "k"))
    terms = ex.ListComp(term(ex.Subscript(tangent, at), ex.Subscript(args[0], at)), at.id,
                        _positions(args[0], names))
    return ex.Call(_math(names, "fsum"), (terms,))


def _mean_vjp(g, args, out, names):
    return Each(ex.BinOp("/", g, _count(args, names)))


def _mean_jvp(tangent, args, out, names):
    return ex.BinOp("/", ex.Call(_math(names, "fsum"), (tangent,)), _count(args, names))


def _moved(args, tangent, names):
    """``sum(t x) - m sum(t)``: the change of the sum of squared deviations, halved."""
    fsum = _math(names, "fsum")
    return ex.BinOp("-", _over(args, tangent, names, lambda d, x: ex.BinOp("*", d, x)),
                    ex.BinOp("*", _mean_of(args, names), ex.Call(fsum, (tangent,))))


def _variance_vjp(sample):
    def vjp(g, args, out, names):
        deviation = ex.BinOp("-", _element(args), _MEAN)
        share = ex.BinOp("*", ex.BinOp("*", ex.Const(2.0), g), deviation)
        return Each(ex.BinOp("/", share, _divisor(sample, args, names)),
                    ((_MEAN, _mean_of(args, names)),))
    return vjp


def _variance_jvp(sample):
    def jvp(tangent, args, out, names):
        return ex.BinOp("/", ex.BinOp("*", ex.Const(2.0), _moved(args, tangent, names)),
                        _divisor(sample, args, names))
    return jvp


def _spread_vjp(sample):
    def vjp(g, args, out, names):
        deviation = ex.BinOp("-", _element(args), _MEAN)
        share = ex.BinOp("/", ex.BinOp("*", g, deviation), ex.BinOp(
            "*", _divisor(sample, args, names), out))
        return Each(ex.IfExp(out, share, ex.Const(0.0)), ((_MEAN, _mean_of(args, names)),))
    return vjp


def _spread_jvp(sample):
    def jvp(tangent, args, out, names):
        change = ex.BinOp("/", _moved(args, tangent, names), ex.BinOp(
            "*", _divisor(sample, args, names), out))
        return ex.IfExp(out, change, ex.Const(0.0))
    return jvp


def _geometric_vjp(g, args, out, names):
    """``G / (n x)`` at each element."""
    return Each(ex.BinOp("/", ex.BinOp("*", g, out), ex.BinOp(
        "*", _count(args, names), _element(args))))


def _geometric_jvp(tangent, args, out, names):
    return ex.BinOp("/", ex.BinOp("*", out, _over(
        args, tangent, names, lambda d, x: ex.BinOp("/", d, x))), _count(args, names))


def _harmonic_vjp(g, args, out, names):
    """``H**2 / (n x**2)`` at each element (0 at an element 0, where the library's
    mean is 0)."""
    x = _element(args)
    ratio = ex.BinOp("/", out, x)
    share = ex.BinOp("/", ex.BinOp("*", ex.BinOp("*", g, ratio), ratio), _count(args, names))
    return Each(ex.IfExp(x, share, ex.Const(0.0)))


def _harmonic_jvp(tangent, args, out, names):
    def term(d, x):
        ratio = ex.BinOp("/", out, x)
        return ex.IfExp(x, ex.BinOp("*", ex.BinOp("*", d, ratio), ratio), ex.Const(0.0))
    return ex.BinOp("/", _over(args, tangent, names, term), _count(args, names))


def _float(kind, path):
    return t.FLOAT


_LIBRARY = (
    Operation("statistics.mean", ("container",), _float, (_mean_vjp,), (_mean_jvp,)),
    Operation("statistics.variance", ("container",), _float, (_variance_vjp(True),),
              (_variance_jvp(True),)),
    Operation("statistics.pvariance", ("container",), _float, (_variance_vjp(False),),
              (_variance_jvp(False),)),
    Operation("statistics.stdev", ("container",), _float, (_spread_vjp(True),),
              (_spread_jvp(True),)),
    Operation("statistics.pstdev", ("container",), _float, (_spread_vjp(False),),
              (_spread_jvp(False),)),
    Operation("statistics.geometric_mean", ("container",), _float, (_geometric_vjp,),
              (_geometric_jvp,)),
    Operation("statistics.harmonic_mean", ("container",), _float, (_harmonic_vjp,),
              (_harmonic_jvp,)),
)

_REDUCTIONS = (
    Operation("sum", ("container", "start"), _number, (_sum_vjp, _start_vjp),
              (_sum_jvp, _start_jvp)),
    Operation("fsum", ("container",), _number, (_sum_vjp,), (_fsum_jvp,)),
    Operation("prod", ("container", "start"), _number, (_prod_vjp, _prod_start_vjp),
              (_prod_jvp, _prod_start_jvp)),
    Operation("min", ("container",), _reduced, (_chosen_vjp("min"),), (_chosen_jvp("min"),)),
    Operation("max", ("container",), _reduced, (_chosen_vjp("max"),), (_chosen_jvp("max"),)),
)

RECORDS = {record.name: record for record in _REDUCTIONS + _LIBRARY}


def reduction(op):
    """The record of the reduction ``op`` (``Reduce.op``)."""
    return RECORDS[op]
