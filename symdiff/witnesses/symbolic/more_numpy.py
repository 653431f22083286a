"""More NumPy functions in the sympy witness: ``np.median``, ``np.quantile`` and
``np.percentile`` of one ``q``, by their own definition at the point, and those NumPy's own
code computes on arrays of sympy values (``NUMPY_OWN``: ``cross``, ``convolve``,
``polyval``...), and
``np.select`` of its conditions' truth at the point.

Expects an ``ArrayReader`` (its ``numbers_of``) and arrays of sympy values.  Guarantees
the entries ordered by their values at the point (ties as they stand), read at the
places below and above ``q (n - 1)`` and interpolated linearly (``method='linear'``,
NumPy's default), or the one place below (``lower``) or above (``higher``):

    np.median(x) at x = (3.0, 1.0, 2.0)       ──►  x_2
    np.quantile(x, 0.25) at x = (1.0, 2.0, 4.0)   ──►  x_0/2 + x_1/2
"""

import math

from symdiff.witnesses.symbolic.arrays import _elementwise, lifted, numpy, operand, plain

_PARAMS = ("q", "axis", "out", "overwrite_input", "method", "keepdims")


def _quantile_of(reader, x, q, axis, method, keepdims, node):
    np = numpy()
    axes = tuple(range(x.ndim)) if axis is None else tuple(
        a % x.ndim for a in (axis if isinstance(axis, tuple) else (axis,)))
    kept = [a for a in range(x.ndim) if a not in axes]
    rows = np.transpose(x, kept + list(axes)).reshape(tuple(x.shape[a] for a in kept) + (-1,))
    numbers = reader.numbers_of(rows, node)
    n = rows.shape[-1]
    place = q * (n - 1)
    below = math.floor(place)
    above, share = min(below + 1, n - 1), place - below
    if method != "linear":
        below = above = math.ceil(place) if method == "higher" else below
        share = 0.0
    found = np.empty(rows.shape[:-1], dtype=object)
    for index in np.ndindex(found.shape):
        ordered = rows[index][np.argsort(numbers[index], kind="stable")]
        found[index] = ordered[below] * (1 - share) + ordered[above] * share if share else (
            ordered[below])
    if keepdims:
        found = found.reshape(tuple(1 if a in axes else n for a, n in enumerate(x.shape)))
    return lifted(found if found.ndim else found[()])


def _quantile(scale):
    def compute(reader, func, args, kwargs, node):
        given = dict(zip(_PARAMS, args[1:]), **kwargs)
        if given.get("out") is not None or given.get("method", "linear") not in (
                "linear", "lower", "higher"):
            raise reader.unsupported(node, "a quantile other than linear, lower or higher")
        q = 0.5 if scale is None else float(plain(given["q"])) / scale
        x = operand(numpy().asarray(args[0], dtype=object))
        return _quantile_of(reader, x, q, plain(given.get("axis")), given.get(
            "method", "linear"), bool(plain(given.get("keepdims", False))), node)
    return compute


NUMPY_OWN = ("cross", "convolve", "correlate", "append", "split", "array_split", "hsplit",
             "vsplit", "dstack", "real", "atleast_3d", "polyval", "polyder", "conj",
             "conjugate", "ascontiguousarray", "meshgrid")
def _condition(reader, condition, node):
    """A condition's truth at the point: a boolean array (or a bool)."""
    if hasattr(condition, "dtype") and condition.dtype == object:
        return reader.numbers_of(condition, node, "condition") != 0
    return condition if hasattr(condition, "dtype") else reader.truthy(condition, node)


def _select(reader, func, args, kwargs, node):
    """``np.select``: NumPy's own, of the conditions' truth at the point."""
    given = dict(zip(("condlist", "choicelist", "default"), args), **kwargs)
    conditions = [_condition(reader, c, node) for c in given["condlist"]]
    choices = [operand(c) for c in given["choicelist"]]
    return lifted(numpy().select(conditions, choices, operand(given.get("default", 0))))


def _bincount(reader, func, args, kwargs, node):
    """``np.bincount(i, weights=w, minlength=n)``: the sum of the weights at each place."""
    given = {**dict(zip(("x", "weights", "minlength"), args)), **kwargs}
    places = [int(k) for k in plain(given["x"])]
    weights = given.get("weights")
    if weights is None:
        return lifted(numpy().bincount(places, minlength=given.get("minlength", 0)))
    weights = operand(numpy().asarray(weights, dtype=object))
    found = [0] * max([given.get("minlength", 0)] + [k + 1 for k in places])
    for k, w in zip(places, weights):
        found[k] = found[k] + w
    return numpy().array(found, dtype=object)


def _interp(reader, func, args, kwargs, node):
    """``np.interp(x, xp, fp)``: at each ``x``, the line through the knots on either side
    (the knots read at the point), the end value outside them."""
    if len(args) != 3 or kwargs:
        raise reader.unsupported(node, "np.interp with left=, right= or period=")
    np = numpy()
    x, xp, fp = (operand(np.asarray(a, dtype=object)) for a in args)
    at, knots = reader.numbers_of(x, node), reader.numbers_of(xp, node)
    found = np.empty(x.shape, dtype=object)
    for index in np.ndindex(x.shape):
        here = at[index]
        if here <= knots[0] or here > knots[-1]:
            found[index] = fp[0] if here <= knots[0] else fp[-1]
            continue
        j = int(np.searchsorted(knots, here)) - 1
        found[index] = fp[j] + (fp[j + 1] - fp[j]) * (x[index] - xp[j]) / (xp[j + 1] - xp[j])
    return lifted(found if found.ndim else found[()])


CALLS = {"median": _quantile(None), "quantile": _quantile(1.0),
             "percentile": _quantile(100.0), "select": _select, "bincount": _bincount,
             "interp": _interp}


def clipped(reader, args, kwargs, node):
    """``np.clip`` (``x.clip``) of its bounds by position or by NumPy's keywords (a None
    or missing one no bound): per element, the larger with the lower bound, then the
    smaller with the upper, as NumPy returns them at the point."""
    given = dict(zip(("a", "a_min", "a_max"), args))
    low = given.get("a_min", kwargs.get("a_min", kwargs.get("min")))
    high = given.get("a_max", kwargs.get("a_max", kwargs.get("max")))

    def clip(x, *bounds):
        if low is not None:
            x, bounds = reader.pick("max", (x, bounds[0]), node), bounds[1:]
        return x if high is None else reader.pick("min", (x, bounds[0]), node)
    return _elementwise(clip, *(operand(v) for v in (given["a"], low, high) if v is not None))


def accumulated(reader, ufunc, x, kwargs, node):
    """``ufunc.accumulate(x, axis=0)``: NumPy's own loop of ``add`` and ``multiply`` on
    sympy values; of ``maximum`` and ``minimum`` (a vector), each place the extreme of
    the one before and the next element, as the witness picks it at the point (the
    earlier on a tie)."""
    x = operand(numpy().asarray(x, dtype=object))
    name = ufunc.__name__
    if name in ("add", "multiply"):
        return ufunc.accumulate(x, **kwargs)
    if name not in ("maximum", "minimum") or kwargs or x.ndim != 1:
        raise reader.unsupported(node, f"np.{name}.accumulate of this form")
    found = [x[0]]
    for value in x[1:]:
        found.append(reader.pick(name[:3], (found[-1], value), node))
    return numpy().array(found, dtype=object)
