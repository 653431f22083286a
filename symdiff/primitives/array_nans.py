"""The NaN-skipping ``numpy.nanprod``, ``numpy.nancumsum`` and ``numpy.nancumprod`` as
records, each made of the record of the function it skips NaN in (``prod``, ``cumsum``,
``cumprod``): NumPy reads a NaN there as the identity of the operation (1 for a product,
0 for a sum), so each is that function of ``x`` with its NaNs filled so, and its
derivative is zero at a NaN element.

Expects the records of ``array_reductions`` and ``array_cumulative`` (their type rules
and builders, by the arguments' types).  Guarantees ``RECORDS``: for each, the type rule
of the function it skips NaN in (of arrays), its VJP builder that function's, of the
filled ``x``, made zero where ``x`` is NaN, and its JVP builder that function's, of the
filled ``x`` and of the tangent made zero there (where an elementwise tangent is NaN too):

    p = np.nanprod(x, axis=0)   dx = np.where(np.isnan(x), 0.0, <prod's adjoint of
                                              np.where(np.isnan(x), 1.0, x)>)
    c = np.nancumsum(x)         dx = np.where(np.isnan(x), 0.0, np.cumsum(g[::-1])[::-1])
"""

from dataclasses import dataclass

from symdiff.primitives import array_cumulative, array_reductions
from symdiff.primitives.array_reductions import _text, accumulated
from symdiff.primitives.arrays import _array, reduced
from symdiff.primitives.record import table


def _filled(x, fill, names):
    return _text(f"numpy.where(numpy.isnan(x), {fill}, x)", names, x=x)


@dataclass(frozen=True)
class _SkippingNan:
    """``builder`` (of the function skipped in) of ``x`` with its NaNs filled by ``fill``,
    the adjoint made zero where ``x`` is NaN (``tangent``: the tangent made zero there
    first)."""

    builder: object
    fill: float
    tangent: bool

    def __call__(self, g, args, out, names):
        x = args[0]
        if self.tangent:
            g = _text("numpy.where(numpy.isnan(x), 0.0, dx)", names, x=x, dx=g)
        filled = (_filled(x, self.fill, names),) + tuple(args[1:])
        found = self.builder(g, filled, out, names)
        if self.tangent:
            return found
        return _text("numpy.where(numpy.isnan(x), 0.0, v)", names, x=x, v=found)


def _skipping(builders, fill, tangent):
    """The builders of the NaN-skipping record, of ``builders`` (``(args, out) -> tuple``)."""
    def chosen(args, out):
        first, *rest = builders(args, out)
        return (None if first is None else _SkippingNan(first, fill, tangent), *rest)
    return chosen


def _skipping_record(name, record, fill, result):
    forward = record.forward.replace(f"numpy.{record.numpy[0]}(", f"numpy.{name}(")
    return _array(name, forward, record.params, result,
                  _skipping(record.array_vjp, fill, False), defaults=record.defaults,
                  ints=record.ints, numpy=(name,), total=record.total,
                  jvp=_skipping(record.array_jvp, fill, True))


RECORDS = table(
    _skipping_record("nanprod", array_reductions.RECORDS["array_prod"], 1.0, reduced),
    _skipping_record("nancumsum", array_reductions.RECORDS["cumsum"], 0.0, accumulated),
    _skipping_record("nancumprod", array_cumulative.RECORDS["cumprod"], 1.0, accumulated),
)
METHODS = {}
STATICS = {"nanprod": {"axis": "axes", "keepdims": "bool"}, "nancumsum": {"axis": "axis"},
           "nancumprod": {"axis": "axis"}}
HINTS = {"nanprod": "it takes an array of floats, a constant axis (an int, a tuple of ints "
                    "or None) and keepdims",
         **{name: "it takes an array of floats and a constant axis or None"
            for name in ("nancumsum", "nancumprod")}}
