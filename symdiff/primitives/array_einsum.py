"""``numpy.einsum`` of one to four operands with a constant subscript string as records:
the result written out or implicit, a letter twice in one operand reading its diagonal,
and ``...`` for the broadcast axes of operands whose numbers of axes the kinds know.

Expects argument types of ``symdiff.core.types``; the subscripts a constant string
(``STATICS``).  Guarantees ``RECORDS``, one array record per number of operands (see
``arrays._array``), its type rule None for a string it does not take, and per operand a
VJP builder: the einsum of ``g`` with the other operands into that operand's letters,
each ``...`` written as letters of its own (NumPy's broadcast axes, aligned from the
right), an axis of size one NumPy broadcast summed and put back.  It is linear in each
operand: the tangent is the same call with that operand's tangent.

    c = np.einsum("ij,jk->ik", a, b)        da = np.einsum("ik,jk->ij", g, b)
    c = np.einsum("...ij,...jk", a, b)      da = np.einsum("Aik,Ajk->Aij", g, b)   (3-d)
"""

import string
from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.record import table
from symdiff.primitives.tangents import linear


def _dtype(*kinds):
    return t.broadcast(kinds).dtype


def subscripts(text, count, ndims=None):
    """``(operands' letters, result's letters)`` of an einsum subscript string for
    ``count`` operands, the result written out or implicit (each letter seen once, in
    order); a ``...`` written as letters of its own for operands of ``ndims`` axes
    (``written_out``); None for what is not supported: an ellipsis of operands of
    unknown axes, a letter twice in the result, a result letter no operand has.  A
    letter twice in one operand reads its diagonal (``"ii"``, the trace)."""
    if not isinstance(text, str):
        return None
    text = text.replace(" ", "")
    if "." in text:
        text = written_out(text, ndims) if ndims is not None and len(ndims) == count else None
        if text is None:
            return None
    inputs, arrow, result = text.partition("->")
    parts = inputs.split(",")
    if len(parts) != count or not all(p.isalpha() or p == "" for p in parts + [result]):
        return None
    if not arrow:
        letters = "".join(parts)
        result = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    if len(set(result)) != len(result) or not set(result) <= set("".join(parts)):
        return None
    return tuple(parts), result


def written_out(text, ndims):
    """``text`` (no spaces) with each ``...`` written as letters no subscript uses, for
    operands of ``ndims`` axes: NumPy's broadcast axes, aligned from the right (an
    operand with fewer has the last of them), and the result written out (implicit:
    those letters, then the letters seen once, in order); None where an operand has
    more letters than axes, or the result has no ``...`` where the operands' have axes."""
    inputs, arrow, result = text.partition("->")
    parts = inputs.split(",")
    if len(parts) != len(ndims) or any(p.count("...") > 1 or p.replace("...", "").count(
            ".") for p in parts + [result]):
        return None
    counts = [n - len(p.replace("...", "")) if "..." in p else 0 for p, n in zip(parts, ndims)]
    if min(counts) < 0:
        return None
    free = [c for c in string.ascii_letters if c not in text]
    broadcast = "".join(free[:max(counts)])
    parts = [p.replace("...", broadcast[len(broadcast) - k:]) for p, k in zip(parts, counts)]
    if not arrow:
        letters = "".join(parts)
        result = broadcast + "".join(sorted(c for c in set(letters) if letters.count(
            c) == 1 and c not in broadcast))
    elif "..." in result:
        result = result.replace("...", broadcast)
    elif broadcast:
        return None
    return ",".join(parts) + "->" + result


def einsummed(args, consts):
    arrays = args[1:]
    if not all(isinstance(a, t.Array) for a in arrays):
        return None
    found = subscripts(consts[0] if consts else None, len(arrays), [a.ndim for a in arrays])
    if found is None:
        return None
    parts, result = found
    if any(len(p) != a.ndim for p, a in zip(parts, arrays)):
        return None
    if not result:
        return t.NUMPY_FLOAT
    sizes = {}  # letter -> whether every operand that has it has it of size one
    for part, kind in zip(parts, arrays):
        for axis, letter in enumerate(part):
            sizes[letter] = sizes.get(letter, True) and axis in kind.unit_axes
    units = tuple(a for a, letter in enumerate(result) if sizes[letter])
    return t.Array(_dtype(*arrays), len(result), units)


@dataclass(frozen=True)
class _EinsumAdjoint:
    """The adjoint of operand ``index`` (of the operands' ``kinds``): the einsum of ``g``
    with the other operands into its letters (with a ones array of its shape where a
    letter of it is summed in it alone, or has size one in every other operand, so the
    einsum puts that axis back at its size).  A letter it
    has twice (``"ii"``) is given a letter of its own the second time, and an identity
    matrix joins the two: the adjoint lives on the diagonal the operand's letters read.
    A letter on an axis of size one that NumPy broadcast against another operand's is
    summed in the einsum, and the axis put back (``numpy.expand_dims``)."""

    index: int
    kinds: tuple

    def __call__(self, g, args, out, names):
        spec, operands = args[0], list(args[1:])
        parts, result = subscripts(spec.value, len(operands), [k.ndim for k in self.kinds])
        letters = set(",".join(parts) + result)
        mine, eyes = _distinct(parts[self.index], letters, operands[self.index], names)
        others = [(p, o) for i, (p, o) in enumerate(zip(parts, operands)) if i != self.index]
        inputs = ([(result, g)] if result else []) + others + eyes  # a number ``g`` multiplies
        spread = _broadcast_axes(parts, self.kinds, self.index)
        into = "".join(c for a, c in enumerate(mine) if a not in spread)
        wide = set(result + "".join(p for p, _ in eyes)) | {
            c for i, (p, k) in enumerate(zip(parts, self.kinds)) if i != self.index
            for a, c in enumerate(p) if a not in k.unit_axes}  # (letters of a known size)
        if not set(into) <= set("".join(p for p, _ in inputs)) or not {
                c for a, c in enumerate(mine) if a not in self.kinds[self.index].unit_axes
        } <= wide:  # a letter no other operand has, or whose size none gives
            ones = _text("numpy.ones_like(x)", names, x=operands[self.index])
            inputs.append((mine, ones))
        if len(inputs) == 1 and inputs[0][0] == into:
            summed = inputs[0][1]  # ``"ij,ij"``: the other operand as it is
        else:
            text = ",".join(p for p, _ in inputs) + "->" + into
            func = ex.Attribute(_text("numpy", names), "einsum")
            summed = ex.Call(func, (ex.Const(text),) + tuple(o for _, o in inputs), ())
        if spread:
            summed = _text("numpy.expand_dims(v, axes)", names, v=summed, axes=ex.Const(
                spread[0]) if len(spread) == 1 else ex.Tuple(tuple(ex.Const(a) for a in spread)))
        return summed if result else _text("g * v", names, g=g, v=summed)


def _broadcast_axes(parts, kinds, index):
    """The axes of size one of operand ``index`` whose letter (its only one there) another
    operand has on an axis not known to have size one: those NumPy broadcast."""
    mine = parts[index]
    wide = {c for i, (p, k) in enumerate(zip(parts, kinds)) if i != index
            for a, c in enumerate(p) if a not in k.unit_axes}
    return tuple(a for a in kinds[index].unit_axes if mine.count(mine[a]) == 1 and (
        mine[a] in wide))


def _distinct(letters, taken, x, names):
    """``letters`` with each letter after its first time renamed to one no subscript
    uses, and the identity matrices (letters, expression) joining each to the first."""
    free = [c for c in "abcdefghijklmnopqrstuvwxyz" if c not in taken]
    renamed, eyes = "", []
    for axis, letter in enumerate(letters):
        if letter in renamed:
            new = free.pop(0)
            eye = _text("numpy.eye(x.shape[a], dtype=x.dtype)", names, x=x, a=ex.Const(axis))
            eyes.append((letter + new, eye))
            letter = new
        renamed += letter
    return renamed, eyes


def _einsum_vjp(count):
    def vjp(args, out):
        return (None,) + tuple(_EinsumAdjoint(i, tuple(args[1:])) for i in range(count))
    return vjp


_COUNTS = (1, 2, 3, 4)  # the numbers of operands einsum takes: a record each
_OPERANDS = ("x", "y", "z", "w")

RECORDS = table(
    _array("einsum", "numpy.einsum(subscripts, x)", ("subscripts", "x"), einsummed,
           _einsum_vjp(1), ints=("subscripts",), numpy=("einsum",),
           variants=tuple((count + 1, f"einsum_{count}") for count in _COUNTS[1:]),
           jvp=linear(1)),
    *(_array(f"einsum_{count}", f"numpy.einsum(subscripts, {', '.join(_OPERANDS[:count])})",
             ("subscripts",) + _OPERANDS[:count], einsummed, _einsum_vjp(count),
             ints=("subscripts",), jvp=linear(*range(1, count + 1)))
      for count in _COUNTS[1:]),
)
STATICS = {name: {"subscripts": "str"} for name in RECORDS}
HINTS = {name: "it takes a constant subscript string (with '...' where the operands' "
               "axes beyond their letters broadcast), each letter once in the result, and "
               "one to four arrays" for name in RECORDS}
