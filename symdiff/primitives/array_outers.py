"""The ``outer`` method of NumPy's arithmetic ufuncs as records: ``numpy.add.outer(a,
b)``, ``subtract``, ``multiply``, ``divide``, ``maximum`` and ``minimum``.

Expects argument types of ``symdiff.core.types``: two arrays (or an array and a number)
of any number of axes.  Guarantees ``RECORDS``, one record per ufunc of ``OUTER`` (named
``<op>_outer``, reached by the dotted name ``numpy.<ufunc>.outer``), each stated from
the elementwise record of its ufunc (``scalar``): ``ufunc.outer(a, b)`` is ``ufunc(A,
b)`` with ``A`` ``a`` given ``b.ndim`` axes of size one behind its own, so every
derivative is the ufunc's own partial on ``(A, b)``, summed over the axes the operand
did not have (``b``'s behind for ``a``, ``a``'s in front for ``b``):

    y = np.subtract.outer(a, b)      da = np.sum(g, axis=1)     db = -np.sum(g, axis=0)
    y = np.multiply.outer(a, b)      da = np.sum(g * b, axis=1)
                                     db = np.sum(g * a[:, None], axis=0)
    dy (forward)                     da[:, None] * b + a[:, None] * db

Conventions are the ufunc's: ``maximum``/``minimum`` send the gradient to the operand
returned (``a`` on a tie, a NaN operand where one is), as ``np.maximum`` does.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives import scalar
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import Elementwise, _cast_back, call
from symdiff.primitives.derivatives import reads, times, unit
from symdiff.primitives.record import table
from symdiff.primitives.tangents import Spread

# NumPy's ufunc -> the elementwise record it computes (its partials are the outer's)
OUTER = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "div",
         "maximum": "max", "minimum": "min"}


def _ndim(kind):
    return kind.ndim if isinstance(kind, t.Array) else 0


def _widened(kind, behind):
    """The type of ``a`` given ``behind`` axes of size one behind its own."""
    if not isinstance(kind, t.Array):
        return kind
    return t.Array(kind.dtype, kind.ndim + behind,
                   tuple(kind.unit_axes) + tuple(range(kind.ndim, kind.ndim + behind)))


def outer_type(args, consts):
    """``ufunc.outer(a, b)``: ``a``'s axes, then ``b``'s (an array and a number: the
    array's), of the operands' float dtype."""
    if len(args) != 2 or not any(isinstance(a, t.Array) for a in args) or not all(
            isinstance(a, t.Array) or t.is_number(a) for a in args):
        return None
    return t.broadcast((_widened(args[0], _ndim(args[1])), args[1]))


def _wide(a, kinds, names):
    """``a`` with ``b.ndim`` axes of size one behind its own, as IR: ``a[:, None]``."""
    behind = _ndim(kinds[1])
    if not isinstance(kinds[0], t.Array) or not behind:
        return a
    return _text(f"a[{', '.join([':'] * kinds[0].ndim + ['None'] * behind)}]", names, a=a)


def _summed_out(kinds, which):
    """The axes of the result the operand ``which`` does not have: None for none, ``()``
    for all (a number's)."""
    if not isinstance(kinds[which], t.Array):
        return ()
    na, nb = _ndim(kinds[0]), _ndim(kinds[1])
    axes = tuple(range(na, na + nb)) if which == 0 else tuple(range(na))
    return axes or None


@dataclass(frozen=True)
class _Back:
    """The adjoint of operand ``which``: the ufunc's elementwise builder on ``(A, b)``,
    summed over the axes the operand did not have, in the operand's float dtype."""

    builder: object
    which: int
    kinds: tuple
    result: object

    def __call__(self, g, args, out, names):
        a, b = args
        term = self.builder(g, (_wide(a, self.kinds, names), b), out, names)
        axes = _summed_out(self.kinds, self.which)
        if axes is not None:
            base, sign = unit(term)  # ``g * -1.0`` summed is minus the sum of ``g``
            term = base if sign is not None else term
            term = call(names, "sum", term) if axes == () else call(
                names, "sum", term, axis=ex.Const(axes[0] if len(axes) == 1 else axes))
            if sign is not None:
                term = times(term, ex.Const(1.0) if sign == 1 else ex.UnaryOp(
                    "-", ex.Const(1.0)))
        return _cast_back(term, self.kinds[self.which], self.result, names)


@dataclass(frozen=True)
class _Along:
    """The tangent of operand ``which``: the ufunc's elementwise builder of the tangent
    (``a``'s given ``b``'s axes behind it) on ``(A, b)``."""

    builder: object
    which: int
    kinds: tuple

    def __call__(self, g, args, out, names):
        a, b = args
        if self.which == 0:
            g = _wide(g, self.kinds, names)
        return self.builder(g, (_wide(a, self.kinds, names), b), out, names)


def _builders(op, tangent):
    """The VJP (``tangent``: JVP) builders of ``op``'s outer, by the operands' types."""
    rule = scalar.RECORDS[op].spelled("arrays")

    def build(args, out):
        found = []
        for which, partial in enumerate(rule.jvps if tangent else rule.vjps):
            if partial is None or args[which] is None:
                found.append(None)
                continue
            elementwise = Elementwise(partial, True)
            if not tangent:
                found.append(_Back(elementwise, which, tuple(args), out))
                continue
            along = _Along(elementwise, which, tuple(args))
            positions, of_out = reads(along, 2)  # (it has the result's shape if it reads
            full = of_out or 1 - which in positions  # the other operand, or the result)
            found.append(along if full else Spread(along))
        return tuple(found)
    return build


def _outer(ufunc, op):
    return _array(f"{op}_outer", f"numpy.{ufunc}.outer(a, b)", ("a", "b"), outer_type,
                  _builders(op, False), numpy=(f"{ufunc}.outer",), jvp=_builders(op, True),
                  total=op != "div")


RECORDS = table(*(_outer(ufunc, op) for ufunc, op in OUTER.items()))
METHODS = {}
STATICS = {}
HINTS = {f"{op}_outer": "it takes two arrays (or an array and a number), of any number of "
                        "axes each" for op in OUTER.values()}
