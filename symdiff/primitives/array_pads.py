"""``np.pad`` with zeros: one record per count of ``(before, after)`` pairs written out.

Expects argument types of ``symdiff.core.types``; the widths ``Int`` operands (constants
or sizes read as the gradient runs: ``A.shape[0] - d.shape[0]``).  ``lower.array_calls``
spreads the call's pairs as operands: one pair pads every axis alike (``(1, 0)``, or
one number for both sides), ``count`` pairs the ``count`` axes one by one.  Guarantees
``FAMILIES["pad"](count)``: the record ``pad_<count>`` with its type rule (the operand's
dtype and axes; an axis stays of size one only where both its widths are constant 0)
and its VJP, the padded array's part where ``x`` sits, cut as a person cuts it:

    y = np.pad(x, (1, 0))              dx = g[1:]
    y = np.pad(X, ((0, 1), (0, 0)))    dX = g[:-1]
    y = np.pad(d, ((0, m), (0, n)))    dd = g[:g.shape[0] - m, :g.shape[1] - n]

Its JVP is the pad of the tangent (it is linear).  A mode other than the zeros it pads
with by default is not a keyword it takes (``bind_primitive`` refuses it, located).
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.arrays import _array
from symdiff.primitives.texts import instantiate
from symdiff.primitives.tangents import linear


def _zero(width):
    return isinstance(width, ex.Const) and width.value == 0 and type(width.value) is int


def _positive(width):
    return isinstance(width, ex.Const) and type(width.value) is int and width.value > 0


def _widths(count):
    return tuple(name for i in range(count) for name in (f"b{i}", f"a{i}"))


def padded(count):
    """The type rule of ``pad_<count>``: ``x``'s dtype and number of axes."""
    def rule(args, consts):
        x = args[0] if args else None
        widths = tuple(args[1:])
        if not isinstance(x, t.Array) or x.ndim == 0 or count > 1 and count != x.ndim or (
                not all(w in (t.INT, t.BOOL) for w in widths)):
            return None
        zero = [c == 0 and type(c) is int for c in consts[1:]]
        kept = tuple(a for a in x.unit_axes if all(
            zero[2 * (0 if count == 1 else a) + side] for side in (0, 1)))
        return t.Array(x.dtype, x.ndim, kept)
    return rule


@dataclass(frozen=True)
class _Cropped:
    """``g`` cut back to the part ``x`` fills: per axis, from its width before to the
    size less its width after (a zero width cuts nothing on its side)."""

    ndim: int
    count: int

    def __call__(self, g, args, out, names):
        parts = []
        for axis in range(self.ndim):
            pair = 0 if self.count == 1 else axis
            before, after = args[1 + 2 * pair], args[2 + 2 * pair]
            start = "" if _zero(before) else f"b{pair}"
            stop = "" if _zero(after) else str(-after.value) if _positive(after) else (
                f"g.shape[{axis}] - a{pair}")
            parts.append(f"{start}:{stop}")
        while parts and parts[-1] == ":":  # (``g[1:]``, not ``g[1:, :]``)
            parts.pop()
        if not parts:
            return g
        params = ("g",) + _widths(self.count)
        return instantiate(f"g[{', '.join(parts)}]", params, (g,) + tuple(args[1:]), None,
                           names)


def _pad(count):
    widths = _widths(count)
    pairs = [f"({widths[2 * i]}, {widths[2 * i + 1]})" for i in range(count)]
    forward = (f"numpy.pad(x, {pairs[0]})" if count == 1 else
               f"numpy.pad(x, ({', '.join(pairs)}))")

    def vjp(args, out):
        return (_Cropped(args[0].ndim, count),) + (None,) * len(widths)
    return _array(f"pad_{count}", forward, ("x",) + widths, padded(count), vjp, ints=widths,
                  jvp=linear())


FAMILIES = {"pad": _pad}
WRITTEN = {"pad": (1, "pairs")}  # the widths, pairs written out (or one for every axis)
