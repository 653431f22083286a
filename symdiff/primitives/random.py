"""Random draws as records: data with no derivative, whose calls change a generator's state.

Expects argument types of ``symdiff.core.types``.  Guarantees ``RECORDS``: one record per
draw and per way its ``size`` is written, made from ``DRAWS`` (a NumPy ``Generator``'s
methods, called on a parameter given one or on ``np.random.default_rng(seed)``) and
``LEGACY`` (``np.random``'s functions of the global state), and ``default_rng``.  A draw's
``size`` is left out (one number: ``draw_normal_0``), written out as ints (``size=(n,
3)``: ``draw_normal_2``, its sizes ``Int`` operands) or another array's shape
(``size=x.shape``: ``draw_normal_as``).  Every record has no derivative (its VJP and
JVP builders are None) and is ``effectful``: it is never dropped, merged with another,
recomputed or moved (``registry.effectful``; the optimizer's ``effects`` calls none of
them pure), so a gradient makes the draws the function makes, in its order, once each.

    z = rng.normal(0.0, 1.0, size=(n, 3))    ->  draw_normal_2(rng, 0.0, 1.0, n, 3)
    u = np.random.rand(n)                    ->  legacy_rand_1(n)
    e = rng.standard_normal(x.shape)         ->  draw_standard_normal_as(rng, x)
"""

from symdiff.core import types as t
from symdiff.core.records import GENERATOR
from symdiff.primitives.arrays import _array
from symdiff.primitives.record import table

SIZES = 4  # the most sizes a draw's ``size`` may write out
# method -> (its parameters before ``size`` with their defaults (``...``: none), the dtype
# it draws).  A parameter with a default is taken as a constant (see ``lower.draws``).
DRAWS = {
    "normal": ((("loc", 0.0), ("scale", 1.0)), "float64"),
    "standard_normal": ((), "float64"),
    "random": ((), "float64"),
    "uniform": ((("low", 0.0), ("high", 1.0)), "float64"),
    "exponential": ((("scale", 1.0),), "float64"),
    "integers": ((("low", ...), ("high", None)), "int64"),
    "choice": ((("a", ...),), "int64"),
}
# np.random's functions of the global state, as ``DRAWS``
LEGACY = {
    "normal": ((("loc", 0.0), ("scale", 1.0)), "float64"),
    "standard_normal": ((), "float64"),
    "random": ((), "float64"),
    "uniform": ((("low", 0.0), ("high", 1.0)), "float64"),
    "exponential": ((("scale", 1.0),), "float64"),
    "randint": ((("low", ...), ("high", None)), "int64"),
}
SPREAD = ("rand", "randn")  # np.random's functions taking their sizes one by one
HINTS = {
    "choice": "it takes an int or an array of ints (draw indices and read a float array at "
              "them: a[rng.choice(len(a), size)])",
    "permutation": "it takes an int or an array of ints (permute a float array by indices: "
                   "x[rng.permutation(len(x))])",
}


def _no_derivative(args, out):
    return (None,) * len(args)


def _is_size(kind):
    return kind is None or kind in (t.INT, t.BOOL, t.NUMBER)


def _of(dtype, count):
    """The type rule of a draw of ``count`` sizes in ``dtype``, its sizes the operands from
    ``start`` on; a draw of no size is one number."""
    def rule(args, consts, start):
        if not all(_is_size(k) for k in args[start:]) or not _drawn_from(dtype, args):
            return None
        if count == 0:
            return t.INT if dtype == "int64" else t.FLOAT
        units = tuple(a for a, c in enumerate(tuple(consts)[start:]) if c == 1 and type(c) is int)
        return t.Array(dtype, count, units)
    return rule


def _drawn_from(dtype, args):
    """Whether ``choice``'s population (an int or an int array) is one it draws from."""
    return dtype != "int64" or len(args) < 2 or not isinstance(args[1], t.Array) or (
        args[1].dtype in ("int64", "int32", "bool") and args[1].ndim == 1)


def _as(dtype):
    def rule(args, consts):
        shape = args[-1] if args else None
        if not isinstance(shape, t.Array) or not _drawn_from(dtype, args):
            return None
        return t.Array(dtype, shape.ndim, shape.unit_axes)
    return rule


def _draw(prefix, call, name, before, dtype, count):
    """The record of ``call`` (``rng.normal``) with ``count`` sizes (None: an array's shape)."""
    params = (("rng",) if prefix == "draw" else ()) + tuple(p for p, _ in before)
    sizes = ("s",) if count is None else tuple(f"d{i}" for i in range(count))
    shape = "s.shape" if count is None else (
        f"({', '.join(sizes)}{',' * (count == 1)})" if count else "")
    forward = f"{call}({', '.join(params[1 if prefix == 'draw' else 0:] + (shape,) * bool(shape))})"
    if name in SPREAD:
        forward = f"{call}({', '.join(sizes)})"
    start = len(params)
    rule = _as(dtype) if count is None else (
        lambda args, consts, r=_of(dtype, count): r(args, consts, start))
    suffix = "as" if count is None else str(count)
    return _array(f"{prefix}_{name}_{suffix}", forward, params + sizes, rule, _no_derivative,
                  ints=sizes if count is not None else (), jvp=_no_derivative, effectful=True)


def _permutation(args, consts):
    x = args[1] if len(args) > 1 else None
    if _is_size(x):
        return t.Array("int64", 1, ())
    if isinstance(x, t.Array) and x.dtype in ("int64", "int32", "bool"):
        return x
    return None


def _default_rng(args, consts):
    seed = args[0] if args else None
    return GENERATOR if seed is None or t.is_number(seed) or seed == t.NONE else None


def _records():
    made = []
    for prefix, call, draws in (("draw", "rng", DRAWS), ("legacy", "numpy.random", LEGACY)):
        for name, (before, dtype) in draws.items():
            for count in (*range(SIZES + 1), None):
                made.append(_draw(prefix, f"{call}.{name}", name, before, dtype, count))
    for name in SPREAD:
        for count in range(SIZES + 1):
            made.append(_draw("legacy", f"numpy.random.{name}", name, (), "float64", count))
    made.append(_array("draw_permutation", "rng.permutation(x)", ("rng", "x"), _permutation,
                       _no_derivative, jvp=_no_derivative, effectful=True))
    made.append(_array("default_rng", "numpy.random.default_rng(seed)", ("seed",),
                       _default_rng, _no_derivative, jvp=_no_derivative, effectful=True))
    made.append(_array("legacy_seed", "numpy.random.seed(seed)", ("seed",),
                       lambda args, consts: t.NONE, _no_derivative, jvp=_no_derivative,
                       effectful=True))
    return made


RECORDS = table(*_records())
METHODS = {}
STATICS = {}


def draw_name(prefix, name, count):
    """The op of the draw ``name`` of ``prefix`` ("draw", "legacy") with ``count`` sizes
    (None: another array's shape)."""
    return f"{prefix}_{name}_{'as' if count is None else count}"


def effectful(op):
    """Whether ``op`` is a draw of this module (it changes a generator's state)."""
    return op in RECORDS

