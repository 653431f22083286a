"""Derivative builders: how a primitive's argument gets its share of the chain rule, as IR.

Expects a record's partial texts (``record.Primitive.partials``).  Guarantees, per
argument, a VJP builder and a JVP builder (``record.Primitive.vjps``/``jvps``), each
a function ``builder(g, args, out, names) -> core.expr`` of the incoming adjoint (or
tangent) ``g``, the statement's operands ``args`` and output ``out`` (IR expressions),
and ``names``, which gives the IR expression of any other name a rule reads (the
module ``math`` is called by, a builtin's alias, a helper's name; ``None``: as
written).  ``None`` in place of a builder means zero, as autograd's ``defvjp``.  The
builders of an elementwise primitive are derived from its partials (``Scaled``: the
partial times ``g``, parsed once); ``merged`` adds the builders of two arguments that
are one variable (``x * x``: one contribution, ``g * (x + x)``).

    >>> from symdiff.core.expr import Name
    >>> Scaled(("math.cos(x)",), ("x",))(Name("g"), (Name("a"),), Name("y"), None)
    BinOp(op='*', left=Name(id='g'), right=Call(func=Attribute(value=Name(id='math'), attr='cos'), args=(Name(id='a'),), keywords=()))

A product by a partial of one or minus one stays a product here (``g * 1.0``):
``unit`` tells the passes that write it so, to write ``d += g`` or ``d -= g``.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.primitives.texts import instantiate


def is_one(expr):
    """Whether ``expr`` is the constant one (an int or a float, not ``True``)."""
    return (isinstance(expr, ex.Const) and expr.value == 1
            and not isinstance(expr.value, bool))


def is_minus_one(expr):
    return isinstance(expr, ex.UnaryOp) and expr.op == "-" and is_one(expr.operand)


def times(left, right):
    """``left * right``; ``left / b`` for ``right = 1.0 / b`` (one division, not two
    operations, and rounded once)."""
    if (isinstance(right, ex.BinOp) and right.op == "/" and is_one(right.left)
            and isinstance(right.left.value, float)):
        return ex.BinOp("/", left, right.right)
    return ex.BinOp("*", left, right)


def unit(expr):
    """``(g, 1)`` for ``g * 1``, ``(g, -1)`` for ``g * -1``, else ``(expr, None)``."""
    if isinstance(expr, ex.BinOp) and expr.op == "*":
        if is_one(expr.right):
            return expr.left, 1
        if is_minus_one(expr.right):
            return expr.left, -1
    return expr, None


@dataclass(frozen=True)
class Scaled:
    """The builder of an elementwise argument: ``g`` times its partial (the sum of
    ``partials``, when several arguments are one variable).  Both its VJP and its JVP."""

    partials: tuple  # texts over ``params`` and ``out``
    params: tuple

    def partial(self, args, out, names):
        """The partial (the sum of them) for these operands, as IR."""
        total = None
        for text in self.partials:
            term = instantiate(text, self.params, args, out, names)
            total = term if total is None else ex.BinOp("+", total, term)
        return total

    def __call__(self, g, args, out, names):
        return times(g, self.partial(args, out, names))


@dataclass(frozen=True)
class Summed:
    """The builder adding the contributions of ``builders`` (arguments that are one
    variable), for builders that are not all ``Scaled``."""

    builders: tuple

    def __call__(self, g, args, out, names):
        total = None
        for builder in self.builders:
            term = builder(g, args, out, names)
            total = term if total is None else ex.BinOp("+", total, term)
        return total


def merged(first, second):
    """One builder giving what ``first`` and ``second`` give together."""
    if isinstance(first, Scaled) and isinstance(second, Scaled) and (
            first.params == second.params):
        return Scaled(first.partials + second.partials, first.params)
    return Summed(_parts(first) + _parts(second))


def _parts(builder):
    return builder.builders if isinstance(builder, Summed) else (builder,)


def from_partials(partials, params):
    """The builders of an elementwise primitive, one per argument (None where the
    partial is None)."""
    return tuple(None if p is None else Scaled((p,), tuple(params)) for p in partials)


def reads(builder, arity):
    """Which inputs ``builder`` reads: ``(positions of the arguments, whether the
    output)``, found by building it on placeholders."""
    args = tuple(ex.Name(f"\0arg{i}") for i in range(arity))
    built = builder(ex.Name("\0g"), args, ex.Name("\0out"), None)
    parts = built.expressions() if hasattr(built, "expressions") else (built,)
    found = {n for part in parts for n in ex.names(part)}
    return [i for i, a in enumerate(args) if a.id in found], "\0out" in found
