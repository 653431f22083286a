"""``numpy.interp(x, xp, fp)`` as a record: the piecewise-linear curve through the knots
``(xp, fp)`` read at ``x``, ``fp[0]`` left of the knots and ``fp[-1]`` right of them.

Expects argument types of ``symdiff.core.types``: ``x`` an array of any number of axes,
``xp`` an increasing vector and ``fp`` a vector of its size, all of floats.  Guarantees
``RECORDS`` with the record's type rule (float64 of ``x``'s shape, as NumPy gives it)
and its VJP and JVP builders.  With ``j`` the segment of each ``x`` (``xp[j] < x <=
xp[j + 1]``, the first or the last one outside the knots), ``t`` the place along it
(0 to 1, held there outside) and ``s`` its slope (0 outside the knots, where the curve
is flat), the value is ``fp[j] (1 - t) + fp[j + 1] t``, linear in ``fp``:

    j = np.searchsorted(xp[1:-1], x)      (the segment: the inner knots below x)
    y = np.interp(x, xp, fp)   dx = g * s
                               dfp = np.bincount(j, weights=g * (1 - t), minlength=fp.size)
                                     + (the same of g * t, one place up)
                               dxp = the same with the weights times -s
    dy (forward)               dx * s + np.interp(x, xp, dfp)
                               - s * ((1 - t) * dxp[j] + t * dxp[j + 1])

(each ``np.bincount`` of ``x``'s places and weights raveled where ``x`` has more than one
axis; ``s`` read as ``(np.diff(fp) / np.diff(xp))[j]`` and ``xp[j + 1]`` as
``xp[1:][j]``, as integer arithmetic on arrays is typed float).  At a knot itself the curve has a kink: ``x`` takes the slope of the segment on
its left.  A gradient is differentiated again (a Hessian) where ``x`` is a vector.
"""

from dataclasses import dataclass

from symdiff.core import types as t
from symdiff.primitives.array_reductions import _text
from symdiff.primitives.arrays import _array
from symdiff.primitives.broadcasting import _cast_back
from symdiff.primitives.record import table

_SEGMENT = "numpy.searchsorted(xp[1:-1], x)"  # the inner knots below each x
_ALONG = "numpy.clip((x - xp[j]) / numpy.diff(xp)[j], 0.0, 1.0)"
_SLOPE = "numpy.where((x > xp[0]) & (x <= xp[-1]), (numpy.diff(fp) / numpy.diff(xp))[j], 0.0)"
_SPREAD = ("numpy.bincount(j, weights=a, minlength=n) + numpy.concatenate((numpy.zeros(1), "
           "numpy.bincount(j, weights=b, minlength=n - 1)))")


def interpolated(args, consts):
    """``interp(x, xp, fp)``: float64 of ``x``'s shape; ``xp`` and ``fp`` vectors."""
    if len(args) != 3 or not all(isinstance(a, t.Array) and a.dtype.startswith("float")
                                 for a in args) or not (args[1].ndim == args[2].ndim == 1):
        return None
    return t.Array("float64", args[0].ndim, args[0].unit_axes)


def _parts(args, names):
    """The segment ``j``, the place ``t`` along it and the slope ``s`` of each ``x``."""
    x, xp, fp = args
    j = _text(_SEGMENT, names, x=x, xp=xp)
    return j, _text(_ALONG, names, x=x, xp=xp, j=j), _text(_SLOPE, names, x=x, xp=xp,
                                                          fp=fp, j=j)


def _flat(term, kind, names):
    return term if kind.ndim == 1 else _text("numpy.ravel(v)", names, v=term)


@dataclass(frozen=True)
class _Back:
    """The adjoint of ``x`` (``which`` 0), ``xp`` (1) or ``fp`` (2)."""

    which: int
    kinds: tuple
    result: object

    def __call__(self, g, args, out, names):
        j, along, slope = _parts(args, names)
        if self.which == 0:
            found = _text("g * s", names, g=g, s=slope)
        else:
            weight = g if self.which == 2 else _text("-(g * s)", names, g=g, s=slope)
            x = self.kinds[0]
            found = _text(_SPREAD, names, j=_flat(j, x, names), n=_text(
                "v.size", names, v=args[self.which]),
                a=_flat(_text("w * (1.0 - t)", names, w=weight, t=along), x, names),
                b=_flat(_text("w * t", names, w=weight, t=along), x, names))
        return _cast_back(found, self.kinds[self.which], self.result, names)


@dataclass(frozen=True)
class _Along:
    """The tangent of ``x`` (``which`` 0), ``xp`` (1) or ``fp`` (2)."""

    which: int

    def __call__(self, g, args, out, names):
        x, xp, fp = args
        if self.which == 2:
            return _text("numpy.interp(x, xp, dfp)", names, x=x, xp=xp, dfp=g)
        j, along, slope = _parts(args, names)
        if self.which == 0:
            return _text("dx * s", names, dx=g, s=slope)
        return _text("-(s * ((1.0 - t) * dxp[j] + t * dxp[1:][j]))", names, s=slope, t=along,
                     dxp=g, j=j)


def _vjp(args, out):
    return tuple(_Back(which, tuple(args), out) for which in range(3))


def _jvp(args, out):
    return tuple(_Along(which) for which in range(3))


RECORDS = table(
    _array("interp", "numpy.interp(x, xp, fp)", ("x", "xp", "fp"), interpolated, _vjp,
           numpy=("interp",), total=True, jvp=_jvp),
)
METHODS = {}
STATICS = {}
HINTS = {"interp": "it takes an array x of floats and two vectors of floats xp (increasing) "
                   "and fp of one size; left= right= and period= are not taken"}
