"""Tangent builders of the array records: how an argument's tangent moves the result.

Expects IR expressions (``core.expr``) of a statement's operands, its output and the
incoming tangent ``g`` of one argument.  Guarantees the JVP builders the array records
are made of (``builder(g, args, out, names) -> core.expr``, as ``derivatives`` states
them; ``None``: the argument moves nothing):

- ``Linear``: the record's own forward with the argument replaced by its tangent, for an
  operation linear in that argument (``numpy.sum(dx, axis=0)``, ``dx @ y``, ``dx[:, 0]``,
  ``dx.reshape(n, -1)``); ``joint`` where the operation is linear in several arguments at
  once (``numpy.concatenate([dx, dy])``, ``numpy.where(c, dx, dy)``): ``together`` writes
  one call with every active tangent and zeros for the others, never a sum of calls.
  A record states them before it exists as ``linear(positions)`` (``LinearIn``);
- ``Contracted``: the tangent of a reduction whose adjoint is the incoming one times an
  elementwise partial (``max``, ``prod``, ``var``, ``norm``, ``logsumexp``): the partial
  times the tangent, summed over the reduced axes, so forward and reverse mode read one
  statement of the derivative;
- ``Spread``: a builder whose tangent may have fewer elements than the result (its
  operand was broadcast, and nothing it reads has the result's shape): forward mode
  broadcasts a sum of only such tangents to the result's shape, as a tangent has its
  primal's shape (``full`` decides it from the types and what the builder reads).

    Linear("numpy.sum(x, axis=axis, keepdims=keepdims)", ("x", "axis", "keepdims"), 0,
           defaults=(None, False))(dx, (X, Const(0), Const(False)), s, None)
                                      ->  numpy.sum(dx, axis=0)
    Contracted(max's adjoint, 1, 2)   ->  numpy.sum(dx * (x == m) / numpy.sum(...), axis=1)
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.broadcasting import call
from symdiff.primitives.derivatives import is_one, reads
from symdiff.primitives.texts import instantiate


@dataclass(frozen=True)
class Linear:
    """``forward`` (over ``params``) with the argument at ``index`` replaced by ``g``;
    with ``zeros``, the ``(position, is an array)`` of the other arguments the operation
    is jointly linear in, each replaced by a zero of its own kind (``joint``)."""

    forward: str
    params: tuple
    index: int
    zeros: tuple = ()
    defaults: tuple = ()

    @property
    def joint(self):
        return bool(self.zeros)

    def __call__(self, g, args, out, names):
        return self.together({self.index: g}, args, out, names)

    def together(self, tangents, args, out, names):
        """The forward with each argument of ``tangents`` (``{position: tangent}``)
        replaced by it, and the other jointly linear arguments by zeros."""
        args = list(args)
        for position, array in self.zeros:
            if position not in tangents:
                args[position] = call(names, "zeros_like", args[position]) if array else (
                    ex.Const(0.0))
        for position, tangent in tangents.items():
            args[position] = tangent
        built = instantiate(self.forward, self.params, tuple(args), out, names)
        return _defaults_left_out(built, self.params, self.defaults, args)


def _defaults_left_out(built, params, defaults, args):
    """``built`` without the keywords whose argument is the parameter's default, as the
    forward statement writes the call (``numpy.sum(dx)``, not ``axis=None``)."""
    if not defaults or not isinstance(built, ex.Call) or not built.keywords:
        return built
    tail = dict(zip(params[len(params) - len(defaults):], defaults))
    given = dict(zip(params, args))
    dropped = {name for name, default in tail.items()
               if isinstance(given.get(name), ex.Const) and type(given[name].value) is type(
                   default) and given[name].value == default}
    return ex.Call(built.func, built.args, tuple((k, v) for k, v in built.keywords
                                                 if k not in dropped))


@dataclass(frozen=True)
class LinearIn:
    """A record's JVP builders, stated before the record exists: linear in each argument
    at ``positions`` (in all of them at once, ``joint``); the other arguments (sizes,
    axes, a condition) move nothing.  ``of(record)`` gives them by the arguments'
    types."""

    positions: tuple
    joint: bool = False

    def of(self, record):
        return _LinearJvp(record.forward, record.params, record.defaults, self)


@dataclass(frozen=True)
class _LinearJvp:
    forward: str
    params: tuple
    defaults: tuple
    linear: LinearIn

    def __call__(self, args, out):
        builders = [None] * len(self.params)
        positions = [p for p in self.linear.positions if p < len(args)]
        for position in positions:
            zeros = tuple((p, isinstance(args[p], t.Array)) for p in positions
                          if p != position) if self.linear.joint else ()
            builders[position] = Linear(self.forward, self.params, position, zeros,
                                        self.defaults)
        return tuple(builders)


def linear(*positions, joint=False):
    """``LinearIn`` the arguments at ``positions`` (the first, when none is given)."""
    return LinearIn(positions or (0,), joint)


def together(builders, tangents, args, out, names):
    """One expression for the tangents of the jointly linear arguments ``builders``
    (``Linear``s of one record, ``joint``) with ``tangents`` in step; None when they are
    not such builders (forward mode then adds their terms)."""
    builders = [b.builder if isinstance(b, Spread) else b for b in builders]
    first = builders[0] if builders else None
    if len(builders) < 2 or not all(isinstance(b, Linear) and b.joint and (
            b.forward == first.forward) for b in builders):
        return None
    return first.together({b.index: g for b, g in zip(builders, tangents)}, args, out, names)


@dataclass(frozen=True)
class Contracted:
    """The tangent of a reduction whose VJP ``adjoint`` is the incoming adjoint (put
    back on the reduced axes) times an elementwise partial: ``numpy.sum(g * partial,
    axis=axis, keepdims=keepdims)``; ``axis_at``, ``keepdims_at`` the positions of those
    arguments."""

    adjoint: object
    axis_at: int
    keepdims_at: int

    def __call__(self, g, args, out, names):
        axis, keepdims = (tuple(args)[i] if i < len(args) else None
                          for i in (self.axis_at, self.keepdims_at))
        reduced = axis is not None and not (isinstance(axis, ex.Const) and axis.value is None)
        if reduced and not (isinstance(keepdims, ex.Const) and keepdims.value):
            # the adjoint read as of ``keepdims``: the result with its axis put back
            args = tuple(ex.Const(True) if i == self.keepdims_at else a
                         for i, a in enumerate(args))
            out = call(names, "expand_dims", out, axis)
        partial = _without_one(self.adjoint(ex.Const(1.0), args, out, names))
        keywords = {}
        if reduced:
            keywords["axis"] = axis
        if keepdims is not None and not (isinstance(keepdims, ex.Const)
                                         and not keepdims.value):
            keywords["keepdims"] = keepdims
        return call(names, "sum", ex.BinOp("*", g, partial), **keywords)


def _without_one(expr):
    """``expr`` without the leading factor one (``1.0 * m / c`` is ``m / c``)."""
    if isinstance(expr, ex.BinOp) and expr.op == "*" and is_one(expr.left):
        return expr.right
    if isinstance(expr, ex.BinOp) and expr.op in ("*", "/"):
        return ex.BinOp(expr.op, _without_one(expr.left), expr.right)
    return expr


@dataclass(frozen=True)
class Spread:
    """``builder``, whose tangent may have fewer elements than the result: forward mode
    broadcasts a sum of only such tangents to the result's shape."""

    builder: object

    def __call__(self, g, args, out, names):
        return self.builder(g, args, out, names)


def full(builder, position, arg_types, out_type):
    """Whether the tangent ``builder`` gives for the argument at ``position`` has the
    result's shape: the argument is not broadcast, or the builder reads the result or
    an argument that is not (an elementwise partial has the shape of what it reads)."""
    if not isinstance(out_type, t.Array):
        return True

    def whole(kind):
        return isinstance(kind, t.Array) and t.broadcast_axes(kind, out_type) == (0, ())
    if whole(arg_types[position]):
        return True
    positions, reads_out = reads(builder, len(arg_types))
    return reads_out or any(whole(arg_types[p]) for p in positions)


def spread_where_broadcast(builders, arg_types, out_type):
    """``builders`` with each one whose tangent may not have the result's shape marked
    ``Spread``."""
    return tuple(b if b is None or full(b, i, arg_types, out_type) else Spread(b)
                 for i, b in enumerate(builders))
