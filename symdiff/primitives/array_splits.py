"""``np.split``, ``np.array_split``, ``np.hsplit`` and ``np.vsplit`` into a constant number
of parts, as records: one per part (``split_0``, ``split_1``...), each NumPy's own split
read at its place, so a part is exact and a split NumPy refuses raises as it does.

Expects argument types of ``symdiff.core.types``, the number of sections an int constant
and the axis a constant.  Guarantees ``RECORDS`` and ``PARTS`` (how many parts a split
may be unpacked into, or read from by a constant index: lowering's ``a, b =
np.split(x, 2)`` and ``np.split(x, 3)[1]``), each part's type rule, its VJP (``g`` put
back at the part's place along the axis, zeros around it) and its JVP (the tangent split
the same way):

    a, b = np.split(x, 2)       a = np.split(x, 2)[0]       b = np.split(x, 2)[1]
                                dx = np.pad(da, (0, x.shape[0] - da.shape[0]))
                                     + np.pad(db, (x.shape[0] // 2, ...))

``array_split`` gives the first ``n % k`` parts one element more, as NumPy does.
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import constant_value
from symdiff.primitives.record import table
from symdiff.primitives.tangents import linear

PARTS = 16  # the most parts a split is read into
_FIXED = {"hsplit": None, "vsplit": 0}  # their axis (hsplit: 1, or 0 of a vector)


def _axis_of(name, x, axis):
    if name == "hsplit":
        return 0 if x.ndim == 1 else 1
    return 0 if name == "vsplit" else axis


def _parted(name, index):
    def rule(args, consts):
        x = args[0] if args else None
        sections = consts[1] if len(consts) > 1 else None
        if not isinstance(x, t.Array) or x.ndim == 0 or type(sections) is not int or not (
                0 <= index < sections) or (name == "vsplit" and x.ndim < 2):
            return None
        axis = _axis_of(name, x, consts[2] if len(consts) > 2 else 0)
        if type(axis) is not int or not -x.ndim <= axis < x.ndim:
            return None
        at = axis % x.ndim
        units = tuple(u for u in x.unit_axes if u != at)
        return t.Array(x.dtype, x.ndim, units + ((at,) if at in x.unit_axes else ()))
    return rule


@dataclass(frozen=True)
class _PutBack:
    """A part's adjoint: ``g`` padded with zeros to ``x``'s shape, before it along the
    axis as many as the parts before hold (``uneven``: ``array_split``'s sizes)."""

    index: int
    ndim: int
    axis: int
    uneven: bool

    def __call__(self, g, args, out, names):
        x, sections = args[0], args[1]
        n = _text("x.shape[a]", names, x=x, a=ex.Const(self.axis))
        start = ex.Const(0)
        if self.index:
            start = _text("i * (n // k)", names, i=ex.Const(self.index), n=n, k=sections)
            if self.uneven:
                start = _text("s + min(i, n % k)", names, s=start, i=ex.Const(self.index),
                              n=n, k=sections)
        after = _text("n - s - g.shape[a]", names, n=n, s=start, g=g, a=ex.Const(self.axis))
        widths = [ex.Tuple((ex.Const(0), ex.Const(0)))] * self.ndim
        widths[self.axis] = ex.Tuple((start, after))
        return _text("numpy.pad(g, w)", names, g=g,
                     w=widths[0] if self.ndim == 1 else ex.Tuple(tuple(widths)))


def _part_vjp(name, index):
    def vjp(args, out):
        x = args[0]
        axis = _axis_of(name, x, None) if name in _FIXED else None
        return (_Along(name, index, x.ndim, axis), None) + (None,) * (name not in _FIXED)
    return vjp


@dataclass(frozen=True)
class _Along:
    """``_PutBack`` with the axis read from the call's constant (or the function's own)."""

    name: str
    index: int
    ndim: int
    axis: int = None

    def __call__(self, g, args, out, names):
        axis = self.axis if self.axis is not None else constant_value(args[2]) % self.ndim
        return _PutBack(self.index, self.ndim, axis, self.name == "array_split")(
            g, args, out, names)


def _part(name, index):
    fixed = name in _FIXED
    params = ("x", "sections") if fixed else ("x", "sections", "axis")
    forward = (f"numpy.{name}(x, sections)[{index}]" if fixed else
               f"numpy.{name}(x, sections, axis=axis)[{index}]")
    return _array(f"{name}_{index}", forward, params, _parted(name, index),
                  _part_vjp(name, index), defaults=() if fixed else (0,),
                  ints=params[1:], pair=(f"{name}_0", index), numpy=(name,) * (index == 0),
                  jvp=linear())


_NAMES = ("split", "array_split", "hsplit", "vsplit")
_SPLITS = frozenset(f"{name}_0" for name in _NAMES)  # the ops calls name


def splits(op):
    """Whether the array operation ``op`` returns as many parts as its call asks for
    (``np.split(x, 3)``), not a fixed number (``svd``'s three)."""
    return op in _SPLITS

RECORDS = table(*(_part(name, i) for name in _NAMES for i in range(PARTS)))
METHODS = {}
STATICS = {f"{name}_{i}": {"sections": "int", **({} if name in _FIXED else {"axis": "int"})}
           for name in _NAMES for i in range(PARTS)}
HINTS = {name: f"it takes an array and a constant number of sections (at most {PARTS}), "
               "unpacked (a, b = np.split(x, 2)) or read by a constant index "
               "(np.split(x, 3)[0])" for name in _NAMES}
