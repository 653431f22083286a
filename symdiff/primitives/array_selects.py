"""``numpy.select`` of conditions and choices written out, one record per count
(``FAMILIES``: ``select_4`` for two conditions and two choices; ``array_shapes``
registers them with its own).

Expects argument types of ``symdiff.core.types``: the conditions masks, the choices and
the default numbers or float arrays, all broadcasting together.  Guarantees a type rule
(the broadcast of them all) and VJP builders giving each choice ``g`` where its condition
is the first true one, and the default where none is, as NumPy picks (the sum back over
broadcast axes is ``Unbroadcast``'s); forward mode selects the tangents alike:

    y = np.select([c0, c1], [a, b], d)   da = np.where(c0, g, 0.0)
                                         db = np.where(c0, 0.0, np.where(c1, g, 0.0))
                                         dd = np.where(c0, 0.0, np.where(c1, 0.0, g))
"""

from dataclasses import dataclass

from symdiff.core import types as t
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.tangents import linear


def _selected(count):
    def rule(args, consts):
        kinds = list(args)
        if len(kinds) != count + 1 or None in kinds:
            return None
        conditions, values = kinds[:count // 2], kinds[count // 2:]
        if not all(k == t.BOOL or isinstance(k, t.Array) and k.dtype == "bool"
                   for k in conditions):
            return None
        floats = [k for k in values if isinstance(k, t.Array) and k.dtype.startswith("float")]
        found = t.broadcast(kinds, dtype=t.broadcast(floats).dtype if floats else "float64")
        return found
    return rule


@dataclass(frozen=True)
class _Chosen:
    """The adjoint of the ``index``th choice (``index`` the number of conditions: the
    default): ``g`` where every condition before it is false and its own is true."""

    index: int
    conditions: int

    def __call__(self, g, args, out, names):
        found = g if self.index == self.conditions else _text(
            "numpy.where(c, g, 0.0)", names, c=args[self.index], g=g)
        for c in reversed(args[:min(self.index, self.conditions)]):
            found = _text("numpy.where(c, 0.0, v)", names, c=c, v=found)
        return found


def _select(count):
    n = count // 2
    conditions = tuple(f"c{i}" for i in range(n))
    choices = tuple(f"a{i}" for i in range(n))
    params = conditions + choices + ("default",)

    def vjp(args, out):
        return (None,) * n + tuple(_Chosen(i, n) for i in range(n + 1))
    return _array(f"select_{count}", f"numpy.select([{', '.join(conditions)}], "
                  f"[{', '.join(choices)}], default)", params, _selected(count), vjp,
                  defaults=(0.0,), broadcasting=True,
                  jvp=linear(*range(n, 2 * n + 1), joint=True))


FAMILIES = {"select": _select}
WRITTEN = {"select": (0, "lists")}  # the conditions and the choices, two lists written out
HINTS = {"select": "it takes a list of conditions and a list of as many choices written "
                   "out ([c0, c1], [a, b]) and a default"}
