"""The tape engine: reverse-mode differentiation at run time, an independent witness.

A ``Value`` wraps a float and records, as it is computed, the operands it came from and
the local derivative with respect to each.  ``.backward()`` walks that record in reverse
and fills in ``.grad`` on every node.  The local derivatives are written out by hand in this
module and nowhere else: the engine shares no rule with symdiff's generator, so a wrong rule
there shows up as a disagreement here.

    >>> x = Value(2.0)
    >>> y = x * x + sin(x)
    >>> y.backward()
    >>> x.grad                      # 2 * x + cos(x)
    3.583853163452858

``grad(fn)`` runs the user's *unchanged* function on ``Value``s: it calls a copy of ``fn``
whose globals and closure cells map ``math``, ``numpy`` and the functions imported from
them, however named, to the tape versions below.  The functions and modules of the user's
own code that ``fn`` reaches are copied the same way; the stdlib, installed libraries and
symdiff run as they are, and the user's modules are never modified.  A ``math`` function
with no derivative here raises ``SymdiffError`` when handed a ``Value``.  numpy's functions
on scalars keep numpy's semantics (``np.log(0.0)`` is ``-inf``, not an error; see
``symdiff.tape_numpy``), math's keep math's.  A function given its own rule with
``symdiff.defgrad`` runs by that rule, as generated code calls it.  A cache
(``functools.lru_cache``) gives way to the function inside, ``functools.partial`` and
``functools.wraps``-style decorators are run through; any other wrapper of a user
function is refused when it meets a Value.

Nothing detaches a Value in silence: ``float(v)`` (what every ``math`` function does to
its argument, so ``math.tanh(v)`` outside ``grad``) raises ``TypeError`` naming the way
out (``v.tanh()``, ``symdiff.tape.tanh(v)``, or ``symdiff.tape.grad``); ``int``,
``round``, ``math.floor`` and the like, whose derivative is 0, work on the number.  An int
too large for a float stays an exact int, so the computation on it is Python's.

Conventions at awkward points (those of JAX and PyTorch):

- ``abs``/``fabs`` have derivative 0 at 0; ``floor``, ``ceil``, ``round`` and ``//`` have
  derivative 0 (``floor``/``ceil`` return plain ints, as ``math`` does), as do numpy's
  ``sign``, ``rint`` and ``trunc``.
- ``max``/``min``, numpy's ``fmax``/``fmin`` and ``clip`` pass the gradient to the
  argument they return (``clip``: to ``x`` on the bounds themselves).
- ``x % y``: 1 with respect to ``x``, ``-(x // y)`` with respect to ``y``;
  ``fmod(x, y)``: 1 and ``-trunc(x / y)``.
- Where a local derivative divides a nonzero number by zero (``sqrt`` at 0, ``asin`` at 1,
  ``x ** 0.5`` at 0) it is ``inf``, signed like the numerator; ``0 / 0`` gives ``nan``
  (``atan2`` at the origin).  ``hypot`` at the origin has partials 0, like ``abs``.
- ``x ** y``: with respect to ``x``, ``y * x ** (y - 1)``, and 0 when ``y == 0``; with
  respect to ``y``, ``x ** y * log(x)``, 0 when ``x == 0`` and ``nan`` when ``x < 0``.
- Where the forward computation fails, the same exception as ``math`` (or plain Python
  arithmetic) is raised; a negative base to a fractional power raises ``ValueError``.
- ``lgamma`` and ``gamma`` differentiate through digamma (``tapemath``, the tape's own);
  ``factorial``, ``comb``, ``perm``, ``ulp`` and the tests ``isnan``... run on the numbers
  (no derivative); ``nextafter`` has derivative 1 in ``x``; ``remainder(x, y)``: 1 and
  ``-n`` with ``n`` the rounded quotient.
- SciPy's ``special`` functions and ``stats.norm``'s methods, when the user's code calls
  them, are computed by SciPy, with the derivatives written here; a ``scale <= 0`` gives
  ``nan`` (SciPy's value) and derivative ``nan``.
"""

import builtins
import dis
import functools
import inspect
import math
import numbers
import operator
import sys
import sysconfig
import types

from symdiff import markers, tapemath
from symdiff.errors import SymdiffError

__all__ = [
    "Value", "grad", "value_and_grad",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt",
    "pow", "hypot", "fabs", "erf", "erfc", "floor", "ceil", "fmod", "copysign",
    "degrees", "radians", "cbrt", "exp2", "lgamma", "gamma", "ldexp", "remainder", "nextafter",
    "fsum", "dist", "sumprod", "fma", "frexp", "modf",
    "relu", "sigmoid", "square", "sinc", "reciprocal", "sign", "rint", "fmax", "fmin", "clip",
    "logaddexp", "logaddexp2",
    "expit", "logit", "gammaln", "digamma", "xlogy", "xlog1py", "ndtr", "log_ndtr", "ndtri", "norm",
]


def _operand(x):
    """True when ``x`` can meet a Value in an operator: a Value or a real number."""
    return isinstance(x, (Value, int, float)) or isinstance(x, numbers.Real)


def _data(x):
    return x.data if isinstance(x, Value) else x


def _unary(x, forward, derivative):
    """``forward(x)``, recording ``derivative(x, y)`` when ``x`` is a Value."""
    if not isinstance(x, Value):
        return forward(x)
    y = forward(x.data)
    if type(x.data) is float:
        return Value(y, (x, derivative(x.data, y)))
    return Value(y, (x, _local(derivative, x.data, y)))


def _local(partials, *args):
    """``partials(*args)`` (one local derivative or a tuple) where an argument may be an int
    too large for a float.  Python computes it exactly where it can; where that overflows,
    the big int is taken as ±inf, as float arithmetic rounds an overflow.  A local
    derivative too large for a float is ±inf."""
    try:
        result = partials(*args)
    except OverflowError:
        if not any(type(a) is int for a in args):
            raise
        result = partials(*map(_saturated, args))
    return tuple(map(_saturated, result)) if type(result) is tuple else _saturated(result)


def _saturated(x):
    """``x`` as a float, ±inf for an int too large for one."""
    if type(x) is not int:
        return x
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def _number(x):
    """What a Value holds: a float, or an int too large for a float, kept exact so that the
    computation on it follows Python's arithmetic (``math.log(10 ** 400)`` is 921.03...)."""
    if isinstance(x, Value):
        return x.data
    try:
        return float(x)
    except OverflowError:
        if isinstance(x, numbers.Integral):
            return int(x)
        raise


def _binary(a, b, forward, partials):
    """``forward(a, b)``, recording the ``partials(a, b, y)`` of the Value operands.

    ``partials=None`` records no edges: the result is piecewise constant.
    """
    a_value, b_value = isinstance(a, Value), isinstance(b, Value)
    ad, bd = a.data if a_value else a, b.data if b_value else b
    y = forward(ad, bd)
    if not (a_value or b_value):
        return y
    if partials is None:
        return Value(y)
    if type(ad) is float and type(bd) is float:
        da, db = partials(ad, bd, y)
    else:
        da, db = _local(partials, ad, bd, y)
    return Value(y, (a, da, b, db) if a_value and b_value else (a, da) if a_value else (b, db))


def _operator(forward, partials):
    """The methods for ``v <op> other`` and ``other <op> v``."""
    def left(self, other):
        return _binary(self, other, forward, partials) if _operand(other) else NotImplemented

    def right(self, other):
        return _binary(other, self, forward, partials) if _operand(other) else NotImplemented
    return left, right


def _comparison(compare):
    """A comparison of the numbers, returning a plain bool."""
    def method(self, other):
        return compare(self.data, _data(other)) if _operand(other) else NotImplemented
    return method


def _div(a, b):
    """``a / b`` for a local derivative: ``inf`` signed like ``a`` when ``b == 0``."""
    if b:
        return a / b
    return math.copysign(math.inf, a) if a else math.nan


def _sign(x):
    return 1.0 if x > 0 else -1.0 if x < 0 else 0.0


def _real_power(x, p):
    """``x ** p``, refusing the complex results Python gives negative bases."""
    y = x ** p
    if isinstance(y, complex):
        raise ValueError(f"math domain error: {x!r} ** {p!r} is not a real number")
    return y


def _power_partials(x, p, y):
    """Partials of ``y = x ** p``; see the module docstring for the conventions."""
    if p == 0:
        dx = 0.0
    else:
        try:
            dx = p * x ** (p - 1)
        except ZeroDivisionError:           # x == 0 and p < 1
            dx = math.copysign(math.inf, p)
        except OverflowError:
            dx = math.copysign(math.inf, -p if x < 0 and (p - 1) % 2 == 1 else p)
    return dx, (y * math.log(x) if x > 0 else 0.0 if x == 0 else math.nan)


PARTIALS = {}  # name -> its local derivatives: (x, y) -> dy/dx, or (a, b, y) -> (dy/da, dy/db)


def _partials(name, function):
    """Note ``function`` as the local derivatives of ``name`` (numpy's spellings reuse them)."""
    PARTIALS[name] = function
    return function


def _partials_of(name):
    """``_partials`` as a decorator."""
    return lambda function: _partials(name, function)


class Value:
    """A float that remembers how it was computed.

    ``_edges`` is a flat tuple ``(operand, local derivative, operand, ...)`` in argument
    order: operands are never kept in a set, so every walk over the graph is reproducible.
    """

    __slots__ = ("data", "grad", "_edges")

    def __init__(self, data, _edges=()):
        self.data = data if type(data) is float else _number(data)
        self.grad = 0.0
        self._edges = _edges

    def __repr__(self):
        return f"Value(data={self.data!r}, grad={self.grad!r})"

    def __format__(self, spec):
        """Formatted as its number, so a message the function builds (an f-string in a
        ``raise``) reads as it does on floats."""
        return format(self.data, spec)

    def detach(self):
        """The same number, cut off from the graph (what ``symdiff.stop_gradient`` uses)."""
        return Value(self.data)

    def backward(self):
        """Set ``.grad`` of every node this value depends on to d(self)/d(node).

        Those gradients are reset first, so calling ``backward()`` twice gives the same
        result twice (unlike micrograd or PyTorch, nothing accumulates).  The walk is
        Kahn's algorithm on explicit stacks: count each node's consumers, then release a
        node once every consumer has passed its gradient back.  No recursion, and the
        order depends on nothing but the recorded graph.
        """
        pending = {self: 0}     # node -> edges from consumers not yet processed
        stack = [self]
        while stack:
            edges = stack.pop()._edges
            for i in range(0, len(edges), 2):
                operand = edges[i]
                if operand in pending:
                    pending[operand] += 1
                else:
                    pending[operand] = 1
                    stack.append(operand)
        for node in pending:
            node.grad = 0.0
        self.grad = 1.0
        stack = [self]
        while stack:
            node = stack.pop()
            g, edges = node.grad, node._edges
            for i in range(0, len(edges), 2):
                operand = edges[i]
                operand.grad += g * edges[i + 1]
                pending[operand] -= 1
                if not pending[operand]:
                    stack.append(operand)

    # arithmetic: each line states the local partials with respect to (left, right)
    __add__, __radd__ = _operator(operator.add, _partials("add", lambda a, b, y: (1.0, 1.0)))
    __sub__, __rsub__ = _operator(operator.sub, _partials("sub", lambda a, b, y: (1.0, -1.0)))
    __mul__, __rmul__ = _operator(operator.mul, _partials("mul", lambda a, b, y: (b, a)))
    __truediv__, __rtruediv__ = _operator(operator.truediv, _partials(
        "div", lambda a, b, y: (1.0 / b, -y / b)))
    __mod__, __rmod__ = _operator(operator.mod, _partials("mod", lambda a, b, y: (1.0, -(a // b))))
    __floordiv__, __rfloordiv__ = _operator(operator.floordiv, None)
    __pow__, __rpow__ = _operator(_real_power, _power_partials)

    def __neg__(self):
        return Value(-self.data, (self, -1.0))

    def __pos__(self):
        return Value(self.data, (self, 1.0))

    def __abs__(self):
        return _unary(self, abs, lambda x, y: _sign(x))

    # comparisons and conversions act on the number, so `if x > 0:` and min/max work
    __lt__, __le__ = _comparison(operator.lt), _comparison(operator.le)
    __gt__, __ge__ = _comparison(operator.gt), _comparison(operator.ge)
    __eq__, __ne__ = _comparison(operator.eq), _comparison(operator.ne)
    __hash__ = object.__hash__      # by identity: two equal Values are still two nodes

    # the methods micrograd and PyTorch users reach for: `v.tanh()`, `v.relu()`, ...
    def relu(self):
        return relu(self)

    def sigmoid(self):
        return sigmoid(self)

    def tanh(self):
        return tanh(self)

    def exp(self):
        return exp(self)

    def log(self):
        return log(self)

    def sin(self):
        return sin(self)

    def cos(self):
        return cos(self)

    def sqrt(self):
        return sqrt(self)

    def abs(self):
        return abs(self)

    def __bool__(self):
        return bool(self.data)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """numpy's function of a Value (``np.tanh(v)``, ``np.float64(2) * v``): the tape's
        stand-in for it, with numpy's semantics, so the derivative is kept; one the tape
        has no derivative for raises, rather than computing on the bare number."""
        function = _stand_in(ufunc) if method == "__call__" and not kwargs else None
        if function is None:
            raise TypeError(f"numpy.{ufunc.__name__} ({method}) of a Value has no derivative "
                            "on the tape: use a function the tape knows (the numpy functions "
                            "of symdiff.tape_numpy), or v.data for the number")
        return function(*inputs)

    def __float__(self):
        raise TypeError(_DETACHING.format(what="converted to a float"))

    def __complex__(self):
        raise TypeError(_DETACHING.format(what="converted to a complex number"))

    def __index__(self):
        raise TypeError("a Value cannot be used as an index or a count (range, indexing): "
                        "its derivative would be lost; use int(v), whose derivative is 0")

    # the conversions to whole numbers have derivative 0, so they lose nothing
    def __int__(self):
        return int(self.data)

    def __trunc__(self):
        return math.trunc(self.data)

    def __floor__(self):
        return math.floor(self.data)

    def __ceil__(self):
        return math.ceil(self.data)

    def __round__(self, ndigits=None):
        return round(self.data, ndigits)


_DETACHING = ("a Value cannot be {what}: its derivative would be lost (a function of math "
              "does that to its argument). Use the method (v.tanh()), the tape's function "
              "(symdiff.tape.tanh(v)), or run your function through symdiff.tape.grad, "
              "which gives it math functions that keep the derivative; v.data is the number")


# The math functions: each takes Values or plain numbers (then it is just ``math``'s).

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _define(name, derivative):
    """The tape version of ``math.<name>``; ``derivative(x, y)`` is dy/dx at y = f(x)."""
    forward = getattr(math, name)
    _partials(name, derivative)

    def function(x):
        return _unary(x, forward, derivative)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``math.{name}`` on a Value or a number."
    return function


sin = _define("sin", lambda x, y: math.cos(x))
cos = _define("cos", lambda x, y: -math.sin(x))
tan = _define("tan", lambda x, y: 1.0 + y * y)
asin = _define("asin", lambda x, y: _div(1.0, math.sqrt((1.0 - x) * (1.0 + x))))
acos = _define("acos", lambda x, y: _div(-1.0, math.sqrt((1.0 - x) * (1.0 + x))))
atan = _define("atan", lambda x, y: 1.0 / (1.0 + x * x))
sinh = _define("sinh", lambda x, y: math.cosh(x))
cosh = _define("cosh", lambda x, y: math.sinh(x))
tanh = _define("tanh", lambda x, y: 1.0 - y * y)
asinh = _define("asinh", lambda x, y: 1.0 / math.sqrt(x * x + 1.0))
acosh = _define("acosh", lambda x, y: _div(1.0, math.sqrt((x - 1.0) * (x + 1.0))))
atanh = _define("atanh", lambda x, y: 1.0 / ((1.0 - x) * (1.0 + x)))
exp = _define("exp", lambda x, y: y)
expm1 = _define("expm1", lambda x, y: y + 1.0)
log1p = _define("log1p", lambda x, y: _div(1.0, 1.0 + x))
log2 = _define("log2", lambda x, y: _div(1.0, x * math.log(2.0)))
log10 = _define("log10", lambda x, y: _div(1.0, x * math.log(10.0)))
sqrt = _define("sqrt", lambda x, y: _div(0.5, y))
fabs = _define("fabs", lambda x, y: _sign(x))
erf = _define("erf", lambda x, y: _TWO_OVER_SQRT_PI * math.exp(-x * x))
erfc = _define("erfc", lambda x, y: -_TWO_OVER_SQRT_PI * math.exp(-x * x))


def floor(x):
    """``math.floor``: a plain int, so its derivative is 0."""
    return math.floor(_data(x))


def ceil(x):
    """``math.ceil``: a plain int, so its derivative is 0."""
    return math.ceil(_data(x))


def log(x, base=None):
    """``math.log(x)`` or ``math.log(x, base)``."""
    if base is None:
        return _unary(x, math.log, _log_derivative)
    return _binary(x, base, math.log, lambda x, b, y: (
        _div(1.0, x * math.log(b)), _div(-y, b * math.log(b))))


_log_derivative = _partials("log", lambda x, y: _div(1.0, x))


def atan2(y, x):
    """``math.atan2(y, x)``; both partials are nan at the origin."""
    return _binary(y, x, math.atan2, _atan2_partials)


@_partials_of("atan2")
def _atan2_partials(y, x, out):
    h = math.hypot(x, y)
    return (x / h / h, -y / h / h) if h else (math.nan, math.nan)


def fmod(x, y):
    """``math.fmod``: partials 1 and ``-trunc(x / y)``."""
    return _binary(x, y, math.fmod, _fmod_partials)


@_partials_of("fmod")
def _fmod_partials(x, y, out):
    q = x / y if y else math.nan  # fmod(x, 0) succeeds only for x = nan
    return 1.0, -(q if math.isinf(q) or math.isnan(q) else float(math.trunc(q)))


def copysign(x, y):
    """``math.copysign``: the magnitude of ``x`` with the sign of ``y``; ±1 in ``x``
    (1 when the two signs agree), 0 in ``y``."""
    return _binary(x, y, math.copysign, _copysign_partials)


@_partials_of("copysign")
def _copysign_partials(x, y, out):
    return (1.0 if (x >= 0) == (math.copysign(1.0, y) > 0) else -1.0), 0.0


degrees = _define("degrees", lambda x, y: 180.0 / math.pi)
radians = _define("radians", lambda x, y: math.pi / 180.0)


def cbrt(x):
    """The real cube root (``math.cbrt`` from Python 3.11); derivative ``inf`` at 0."""
    def forward(x):  # before 3.11: not always the nearest float, but close
        return math.copysign(abs(x) ** (1.0 / 3.0), x)
    return _unary(x, getattr(math, "cbrt", forward), _cbrt_derivative)


_cbrt_derivative = _partials("cbrt", lambda x, y: _div(1.0, 3.0 * y * y))


def exp2(x):
    """``2 ** x`` (``math.exp2`` from Python 3.11); derivative ``2 ** x * ln 2``."""
    return _unary(x, getattr(math, "exp2", lambda x: 2.0 ** x), _exp2_derivative)


_exp2_derivative = _partials("exp2", lambda x, y: y * math.log(2.0))


# numpy's elementwise functions with no math twin, on scalars

def square(x):
    return _unary(x, lambda x: x * x, _square_derivative)


_square_derivative = _partials("square", lambda x, y: 2.0 * x)


def sinc(x):
    """``sin(pi x) / (pi x)``, 1 at 0; derivative ``(cos(pi x) - sinc x) / x``, 0 at 0."""
    def forward(x):
        return math.sin(math.pi * x) / (math.pi * x) if x else 1.0
    return _unary(x, forward, _sinc_derivative)


_sinc_derivative = _partials("sinc", lambda x, y: (math.cos(math.pi * x) - y) / x if x else 0.0)


def reciprocal(x):
    return _unary(x, lambda x: 1.0 / x, _reciprocal_derivative)


_reciprocal_derivative = _partials("reciprocal", lambda x, y: -1.0 / (x * x))


def sign(x):
    """-1, 0 or 1 (nan for nan): a plain float, so its derivative is 0."""
    x = _data(x)
    return 1.0 if x > 0 else -1.0 if x < 0 else x


def rint(x):
    """The nearest integer, ties to even, as a float: derivative 0."""
    return float(round(_data(x)))


def fmax(a, b):
    """``max`` that prefers a number to a nan; the gradient goes to the value returned."""
    first = not _data(b) == _data(b) or _data(a) >= _data(b)
    return _pick(a if first else b)


def fmin(a, b):
    """``min`` that prefers a number to a nan; the gradient goes to the value returned."""
    first = not _data(b) == _data(b) or _data(a) <= _data(b)
    return _pick(a if first else b)


def clip(x, lo, hi):
    """``min(max(x, lo), hi)``: the gradient goes to the argument returned."""
    if _data(hi) < _data(lo):
        return _pick(hi)
    if _data(x) < _data(lo):
        return _pick(lo)
    return _pick(hi if _data(x) > _data(hi) else x)


def _pick(x):
    """A new node for an argument handed back as the result (or the plain number)."""
    return Value(x.data, (x, 1.0)) if isinstance(x, Value) else float(x)


def logaddexp(a, b):
    """``log(exp(a) + exp(b))`` without overflow; partials ``exp(a - out)``, ``exp(b - out)``."""
    def forward(a, b):
        big = max(a, b)
        return big + math.log1p(math.exp(-abs(a - b))) if big > -math.inf else big
    return _binary(a, b, forward, _logaddexp_partials)


_logaddexp_partials = _partials("logaddexp", lambda a, b, y: (math.exp(a - y), math.exp(b - y)))


def logaddexp2(a, b):
    """``log2(2 ** a + 2 ** b)``; partials ``2 ** (a - out)``, ``2 ** (b - out)``."""
    def forward(a, b):
        big = max(a, b)
        return big + math.log2(1.0 + 2.0 ** -abs(a - b)) if big > -math.inf else big
    return _binary(a, b, forward, _logaddexp2_partials)


_logaddexp2_partials = _partials("logaddexp2", lambda a, b, y: (2.0 ** (a - y), 2.0 ** (b - y)))


def relu(x):
    """``x`` where ``x > 0``, else ``0.0`` (nan stays nan); derivative 1 for ``x > 0`` and 0
    elsewhere, 0 at 0 included (as PyTorch)."""
    return _unary(x, lambda x: 0.0 if x <= 0 else x, lambda x, y: 1.0 if x > 0 else 0.0)


def sigmoid(x):
    """``1 / (1 + exp(-x))``, computed without overflow; derivative ``y * (1 - y)``."""
    def forward(x):
        if x >= 0:
            return 1.0 / (1.0 + math.exp(-x))
        z = math.exp(x)
        return z / (1.0 + z)
    return _unary(x, forward, lambda x, y: y * (1.0 - y))


def pow(x, y):
    """``math.pow``: ``x ** y`` with ``math``'s errors (``ValueError`` for ``0 ** -1``)."""
    return _binary(x, y, math.pow, _power_partials)


_partials("pow", _power_partials)


def hypot(*coordinates):
    """``math.hypot`` of any number of coordinates; partials 0 at the origin."""
    data = [_data(c) for c in coordinates]
    h = math.hypot(*data)
    edges = ()
    for c, d in zip(coordinates, data):
        if isinstance(c, Value):
            edges += (c, _hypot_partial(d, h))
    return Value(h, edges) if edges else h


_hypot_partial = _partials("hypot", lambda x, h: x / h if h else 0.0)  # by one coordinate


def _record(y, args, partials):
    """``y`` as a node with edges to the Values among ``args``; ``partials()`` gives the
    local derivatives, one per argument (called only when there is a Value)."""
    if not any(isinstance(a, Value) for a in args):
        return y
    edges = ()
    for a, d in zip(args, partials()):
        if isinstance(a, Value):
            edges += (a, d)
    return Value(y, edges)


# the gamma family, and math's other functions of numbers

lgamma = _define("lgamma", lambda x, y: tapemath.digamma(x))
gamma = _define("gamma", lambda x, y: y * tapemath.digamma(x))


def ldexp(x, i):
    """``x * 2 ** i``: derivative ``2 ** i`` in ``x``; ``i`` is an integer."""
    return _unary(x, lambda x: math.ldexp(x, i), lambda x, y: math.ldexp(1.0, i))


def remainder(x, y):
    """IEEE remainder ``x - n * y``, ``n`` the nearest integer to ``x / y``: partials 1, ``-n``."""
    def partials(x, y, r):
        n = (x - r) / y
        return 1.0, -(float(round(n)) if math.isfinite(n) else n)
    return _binary(x, y, math.remainder, partials)


def nextafter(x, y):
    """The float after ``x`` toward ``y``: ``x`` plus a step that is constant nearby."""
    return _binary(x, y, math.nextafter, lambda x, y, out: (1.0, 0.0))


def frexp(x):
    """``(m, e)`` with ``x = m * 2 ** e``: ``m`` has derivative ``2 ** -e`` (1 at 0), ``e``
    none."""
    m, e = math.frexp(_data(x))
    return (Value(m, (x, _div(m, _data(x)) if _data(x) else 1.0)) if isinstance(x, Value)
            else m), e


def modf(x):
    """``(x - trunc(x), trunc(x))``: derivatives 1 and 0."""
    fraction, whole = math.modf(_data(x))
    return (Value(fraction, (x, 1.0)) if isinstance(x, Value) else fraction), whole


def fsum(values):
    """``math.fsum`` of Values and numbers: every partial is 1."""
    values = list(values)
    return _record(math.fsum([_data(v) for v in values]), values, lambda: [1.0] * len(values))


def dist(p, q):
    """``math.dist(p, q)``: partials ``(p_i - q_i) / out`` and their negatives, 0 if p == q."""
    p, q = list(p), list(q)
    a, b = [_data(v) for v in p], [_data(v) for v in q]
    out = math.dist(a, b)
    return _record(out, p + q, lambda: [_div(u - v, out) if out else 0.0 for u, v in zip(a, b)]
                   + [_div(v - u, out) if out else 0.0 for u, v in zip(a, b)])


def sumprod(p, q):
    """``math.sumprod(p, q)`` (Python 3.12): partials ``q_i`` and ``p_i``."""
    p, q = list(p), list(q)
    a, b = [_data(v) for v in p], [_data(v) for v in q]
    return _record(math.fsum(u * v for u, v in zip(a, b)) if not hasattr(math, "sumprod")
                   else math.sumprod(a, b), p + q, lambda: b + a)


def fma(x, y, z):
    """``x * y + z`` rounded once (Python 3.13): partials ``y``, ``x``, 1."""
    args = (x, y, z)
    a, b, c = (_data(v) for v in args)
    return _record(math.fma(a, b, c), args, lambda: (b, a, 1.0))


# SciPy's functions, computed by SciPy (imported only when the user's code has)

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def _special(name):
    return getattr(sys.modules["scipy.special"], name)


def _scipy_unary(name, derivative):
    def function(x):
        return _unary(x, lambda v: _special(name)(v), derivative)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``scipy.special.{name}`` on a Value or a number."
    return function


def _log_or(x, zero):
    return math.log(x) if x > 0 else zero if x == 0 else math.nan


expit = _scipy_unary("expit", lambda x, y: y * (1.0 - y))
logit = _scipy_unary("logit", lambda x, y: 1.0 / (x - x * x) if 0.0 < x < 1.0 else math.nan)
gammaln = _scipy_unary("gammaln", lambda x, y: tapemath.digamma(x))
digamma = _scipy_unary("digamma", lambda x, y: tapemath.trigamma(x))
ndtr = _scipy_unary("ndtr", lambda x, y: _INV_SQRT_2PI * math.exp(-x * x / 2.0))
log_ndtr = _scipy_unary("log_ndtr", lambda x, y: _INV_SQRT_2PI * math.exp(-x * x / 2.0 - y))
ndtri = _scipy_unary("ndtri", lambda x, y: _exp_half_square(y) / _INV_SQRT_2PI)


def _exp_half_square(z):
    """``exp(z * z / 2)``, ``inf`` where it overflows."""
    return math.inf if abs(z) > 37.7 else math.exp(z * z / 2.0)


def xlogy(x, y):
    """``x * log(y)``, 0 where ``x == 0``: partials ``log(y)`` and ``x / y``."""
    def partials(x, y, out):
        return _log_or(y, -math.inf), (_div(x, y) if y else 0.0 if x == 0 else
                                       math.copysign(math.inf, x))
    return _binary(x, y, lambda a, b: _special("xlogy")(a, b), partials)


def xlog1py(x, y):
    """``x * log1p(y)``, 0 where ``x == 0``: partials ``log1p(y)`` and ``x / (1 + y)``."""
    def partials(x, y, out):
        return _log_or(1.0 + y, -math.inf) if y != -1.0 else -math.inf, (
            _div(x, 1.0 + y) if y != -1.0 else 0.0 if x == 0 else math.copysign(math.inf, x))
    return _binary(x, y, lambda a, b: _special("xlog1py")(a, b), partials)


class _Normal:
    """``scipy.stats.norm`` for copied code: its methods on Values, with ``loc`` and ``scale``
    by position or keyword; computed by SciPy."""

    @staticmethod
    def _call(method, x, loc, scale, partials):
        args = (x, loc, scale)
        norm = sys.modules["scipy.stats"].norm
        out = getattr(norm, method)(*[_data(a) for a in args])

        def local():
            a, m, s = (_data(v) for v in args)
            if not s > 0:
                return (math.nan,) * 3
            return partials((a - m) / s, s, out)
        return _record(out, args, local)

    def cdf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            d = _INV_SQRT_2PI * math.exp(-z * z / 2.0) / s
            return d, -d, -z * d
        return self._call("cdf", x, loc, scale, partials)

    def sf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            d = _INV_SQRT_2PI * math.exp(-z * z / 2.0) / s
            return -d, d, z * d
        return self._call("sf", x, loc, scale, partials)

    def pdf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            return -z * out / s, z * out / s, (z * z - 1.0) * out / s
        return self._call("pdf", x, loc, scale, partials)

    def logpdf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            return -z / s, z / s, (z * z - 1.0) / s
        return self._call("logpdf", x, loc, scale, partials)

    def logcdf(self, x, loc=0.0, scale=1.0):
        def partials(z, s, out):
            d = _INV_SQRT_2PI * math.exp(-z * z / 2.0 - out) / s
            return d, -d, -z * d
        return self._call("logcdf", x, loc, scale, partials)

    def ppf(self, q, loc=0.0, scale=1.0):
        def partials(z, s, out):
            z = (out - _data(loc)) / s
            return s * _exp_half_square(z) / _INV_SQRT_2PI, 1.0, z
        return self._call("ppf", q, loc, scale, partials)


norm = _Normal()
_SCIPY_SPECIAL = ("erf", "erfc", "expit", "logit", "gammaln", "digamma", "psi", "xlogy",
                  "xlog1py", "ndtr", "log_ndtr", "ndtri")


def _special_stand_in(name):
    if name in ("erf", "erfc"):  # math's derivative, scipy's value
        derivative = {"erf": 1.0, "erfc": -1.0}[name] * _TWO_OVER_SQRT_PI
        return _scipy_unary(name, lambda x, y: derivative * math.exp(-x * x))
    return globals()["digamma" if name == "psi" else name]


def _register_scipy():
    """The stand-ins for scipy.special, scipy.stats.norm and scipy itself, once imported."""
    special, stats = sys.modules.get("scipy.special"), sys.modules.get("scipy.stats")
    if special is not None and id(special) not in _STAND_INS:
        _register(special, {name: _special_stand_in(name) for name in _SCIPY_SPECIAL
                            if hasattr(special, name)})
    if stats is not None and id(stats) not in _STAND_INS:
        _register(stats, {"norm": norm})
    scipy = sys.modules.get("scipy")
    if scipy is not None and special is not None and id(scipy) not in _STAND_INS:
        namespaces = {"special": _STAND_INS[id(special)][1]}
        if stats is not None:
            namespaces["stats"] = _STAND_INS[id(stats)][1]
        _STAND_INS[id(scipy)] = (scipy, _Namespace(scipy, namespaces.get))


# Running the user's unchanged function on Values ------------------------------------------

_TAPE = {name: globals()[name] for name in __all__[3:] if hasattr(math, name)}
_MATH_PASS_THROUGH = ("trunc", "prod")  # Values pass through them (__trunc__, *)
_ON_NUMBERS = ("isnan", "isinf", "isfinite", "isclose", "factorial", "comb", "perm",
               "ulp")  # no derivative: they read the number, as math computes them
_STAND_INS = {}         # id(math, numpy or one of their functions) -> (it, tape stand-in)
_LIBRARY_DIRS = ("<frozen ",) + tuple(
    sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib"))


class _Namespace:
    """Stands in for a module in copied functions: ``lookup(name)``, else the module's own."""

    def __init__(self, module, lookup):
        self.__module, self.__lookup = module, lookup

    def __getattr__(self, name):
        found = self.__lookup(name)
        return found if found is not None else getattr(self.__module, name)


def _refusing(name, original):
    """``math.<name>``, raising instead of silently dropping a Value's gradient."""
    def refuse(*args):
        if any(isinstance(arg, Value) for arg in args):
            raise SymdiffError(f"math.{name} has no derivative on the tape",
                               hint="use a function the tape knows, or stop_gradient")
        return original(*args)
    return refuse


def on_numbers(function):
    """``function`` applied to the numbers of Values: for tests (``isnan``) and the like,
    whose result carries no derivative."""
    def read(*args, **kwargs):
        return function(*map(_data, args), **{k: _data(v) for k, v in kwargs.items()})
    read.__name__ = read.__qualname__ = getattr(function, "__name__", "function")
    return read


def _register(module, table):
    for name, stand_in in table.items():
        _STAND_INS[id(getattr(module, name))] = (getattr(module, name), stand_in)
    _STAND_INS[id(module)] = (module, _Namespace(module, table.get))


_register(math, {name: _TAPE.get(name) or (on_numbers(getattr(math, name)) if name in _ON_NUMBERS
                                           else _refusing(name, getattr(math, name)))
                 for name in dir(math) if callable(getattr(math, name))
                 and not name.startswith("_") and name not in _MATH_PASS_THROUGH})


def _float(x=0.0):
    """``float`` for copied code: a ``Value`` passes through with its derivative."""
    if isinstance(x, Value):
        if type(x.data) is not float:
            float(x.data)  # an int too large for a float: OverflowError, as float() gives
        return x
    return float(x)


def _stand_in(value):
    """The tape's stand-in for ``value`` (math, numpy or one of their functions), or None."""
    numpy = sys.modules.get("numpy")
    if numpy is not None and id(numpy) not in _STAND_INS:
        from symdiff.tape_numpy import numpy_stand_ins
        _register(numpy, numpy_stand_ins(numpy))
    _register_scipy()
    found = _STAND_INS.get(id(value))
    return found[1] if found is not None and found[0] is value else None


def _is_user(value):
    """A function or module of the user's: not from the stdlib, a library or symdiff (a
    generated gradient, and a helper it defines, is the user's: ``grad(grad(f))``)."""
    if isinstance(value, types.FunctionType):
        module, filename = value.__module__ or "", value.__code__.co_filename
    elif isinstance(value, types.ModuleType):
        module, filename = value.__name__, getattr(value, "__file__", None) or ""
    else:
        return False
    own = module.partition(".")[0] == "symdiff" and not module.startswith("symdiff.generated.")
    return (not own and module not in sys.builtin_module_names
            and not filename.startswith(_LIBRARY_DIRS)
            and "site-packages" not in filename and "dist-packages" not in filename)


def _translate(value, memo):
    """What copied code sees instead of ``value``: a tape stand-in, a copied user function
    (or the user's own rule for it, given with ``symdiff.defgrad``), the function inside a
    cache, a user module whose attributes are translated as they are read, or ``value``."""
    stand_in = _stand_in(value)
    if stand_in is not None:
        return stand_in
    if _has_rule(value):
        return _with_rule(value)
    if not _is_user(value):
        wrapped = _unwrapped(value)
        return value if wrapped is None else _wrapper(value, wrapped, memo)
    return _translate_inside(value, memo)


def _translate_inside(value, memo):
    """``value`` (a user function or module) with what it reads translated."""
    if isinstance(value, types.FunctionType):
        return _copy_function(value, memo)
    if id(value) not in memo:
        def lookup(name):
            return _translate(getattr(value, name), memo)
        memo[id(value)] = (value, _Namespace(value, lookup))
    return memo[id(value)][1]


def _has_rule(value):
    try:
        return value in markers.CUSTOM_RULES
    except TypeError:  # unhashable
        return False


def _with_rule(fn):
    """``fn`` on the tape by its user-given rule, as generated code calls it: the value from
    ``fn`` on the numbers, each partial from the rule at the numbers and that value."""
    partials = markers.CUSTOM_RULES[fn]

    def by_rule(*args, **kwargs):
        if kwargs or len(args) < len(partials):  # keywords and defaults, bound as fn binds them
            bound = inspect.signature(fn).bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        if not any(isinstance(a, Value) for a in args):
            return fn(*args)
        data = [_data(a) for a in args]
        out = fn(*data)
        edges = ()
        for arg, partial in zip(args, partials):
            if isinstance(arg, Value) and partial is not None:
                edges += (arg, partial(*data, out))
        return Value(out, edges)

    by_rule.__name__ = by_rule.__qualname__ = getattr(fn, "__name__", "by_rule")
    return by_rule


# Wrappers the tape can see through: they return what the function they wrap returns.
_CACHE_TYPES = (type(functools.lru_cache()(lambda: None)),)


def _unwrapped(value):
    """The function of the user's (or of math or numpy) that a wrapper from outside the
    user's code wraps, or None."""
    if isinstance(value, (types.ModuleType, type, numbers.Number, str, tuple, list, dict)):
        return None
    inner = value.func if isinstance(value, functools.partial) else _wrapped_by(value)
    while inner is not None and not (_is_user(inner) or _has_rule(inner)
                                     or _stand_in(inner) is not None):
        inner = _wrapped_by(inner)
    return inner


def _wrapped_by(value):
    try:
        return getattr(value, "__wrapped__", None)
    except Exception:  # an object whose attributes compute themselves
        return None


def _wrapper(value, wrapped, memo):
    """What copied code sees instead of a wrapper (from outside the user's code) of the user
    function ``wrapped``: a cache gives way to the function (it returns the same values),
    ``functools.partial`` wraps the translated function, a library's Python wrapper is
    copied like user code (the function it calls is then the translated one), and any other
    wrapper is refused when it meets a Value: the tape cannot see what it does."""
    if isinstance(value, _CACHE_TYPES):
        return _translate(value.__wrapped__, memo)
    if isinstance(value, functools.partial):
        return functools.partial(_translate(value.func, memo),
                                 *[_translate(a, memo) for a in value.args],
                                 **{k: _translate(v, memo) for k, v in value.keywords.items()})
    if isinstance(value, types.FunctionType):
        return _copy_function(value, memo)
    name = getattr(wrapped, "__qualname__", repr(wrapped))

    def refuse(*args, **kwargs):
        if any(isinstance(a, Value) for a in (*args, *kwargs.values())):
            raise SymdiffError(
                f"{name} is wrapped in a {type(value).__name__}, which the tape cannot see "
                "through: it would run the function without the tape's math",
                hint="call the function itself, or wrap it with a def decorator "
                     "(functools.wraps) or functools.lru_cache")
        return value(*args, **kwargs)
    return refuse


def _names(code):
    """The global names ``code`` and the code nested in it may read."""
    return list(code.co_names) + [name for const in code.co_consts
                                  if isinstance(const, types.CodeType) for name in _names(const)]


def _copy_function(fn, memo):
    """``fn`` over a copy of its globals (and cells) where math and numpy are the tape's.

    ``memo`` maps ids to (original, copy) for functions, modules and globals dicts, so one
    module's helpers share one copied dict and helpers calling each other terminate.
    """
    if id(fn) in memo:
        return memo[id(fn)][1]
    old_globals = fn.__globals__
    new_globals = memo.setdefault(id(old_globals), (old_globals, dict(old_globals)))[1]
    old_cells = fn.__closure__ or ()
    new_cells = tuple(types.CellType() if _to_translate(cell) else cell for cell in old_cells)
    if _imports(fn.__code__):  # read when the function is made: set first
        new_globals["__builtins__"] = _builtins_importing(memo)
    copy = types.FunctionType(fn.__code__, new_globals, fn.__name__, fn.__defaults__,
                              new_cells or None)
    copy.__kwdefaults__, copy.__qualname__ = fn.__kwdefaults__, fn.__qualname__
    memo[id(fn)] = (fn, copy)
    for name in _names(fn.__code__):
        if name in old_globals:
            new_globals[name] = _translate(old_globals[name], memo)
        elif name == "float":  # the builtin must keep a Value a Value, not drop its gradient
            new_globals[name] = _float
    for old, new in zip(old_cells, new_cells):
        if new is not old:
            new.cell_contents = _translate(old.cell_contents, memo)
    return copy


def _imports(code):
    """Whether ``code`` (or code nested in it) has an ``import`` statement."""
    return any(op.opname == "IMPORT_NAME" for op in dis.get_instructions(code)) or any(
        _imports(const) for const in code.co_consts if isinstance(const, types.CodeType))


def _builtins_importing(memo):
    """The builtins for copied code whose body imports: an import inside the function gives
    it what a module-level one would, math and numpy as the tape's."""
    def translated_import(name, globals=None, locals=None, fromlist=(), level=0):
        return _translate(builtins.__import__(name, globals, locals, fromlist, level), memo)
    return dict(vars(builtins), __import__=translated_import)


def _to_translate(cell):
    try:
        contents = cell.cell_contents
    except ValueError:      # not assigned yet
        return False
    return _stand_in(contents) is not None or _is_user(contents)


def _saturated_value(x):
    """The value returned as a float where it fits in one (a big int stays as it is)."""
    try:
        return float(x)
    except OverflowError:
        return x


def _resolve_wrt(label, signature, wrt):
    """The names of the parameters to differentiate by, and whether one float is wanted."""
    params = signature.parameters
    positional = [p.name for p in params.values() if p.kind <= p.POSITIONAL_OR_KEYWORD]
    if wrt is None:  # every positional parameter but the optional ones (default None)
        chosen = [n for n in positional if params[n].default is not None] or positional
        return chosen, len(chosen) == 1
    single = not isinstance(wrt, (tuple, list))
    names = []
    for item in [wrt] if single else wrt:
        if type(item) is int and -len(positional) <= item < len(positional):
            names.append(positional[item])
        elif isinstance(item, str) and item in params and params[item].kind not in (
                params[item].VAR_POSITIONAL, params[item].VAR_KEYWORD):
            names.append(item)
        else:
            raise SymdiffError(f"{label} has no parameter {item!r} to differentiate by",
                               hint=f"its positional parameters are {positional}")
    if not names:
        raise SymdiffError("wrt=(): nothing to differentiate by", hint="name a parameter")
    return names, single


def _differentiate(fn, wrt, with_value):
    label, signature = getattr(fn, "__name__", repr(fn)), inspect.signature(fn)
    names, single = _resolve_wrt(label, signature, wrt)

    def differentiated(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        inputs = {}
        for name in names:
            arg = bound.arguments[name]
            if not isinstance(arg, (Value, numbers.Real)):
                raise SymdiffError(f"cannot differentiate {label} by {name!r}: "
                                   f"it is a {type(arg).__name__}, not a number")
            inputs[name] = bound.arguments[name] = Value(arg)
        out = _translate(fn, {})(*bound.args, **bound.kwargs)
        if isinstance(out, Value):
            out.backward()
        elif not isinstance(out, numbers.Real):
            raise SymdiffError(f"{label} returned a {type(out).__name__}",
                               hint="the tape differentiates functions returning one number")
        grads = tuple(inputs[name].grad for name in names)
        result = grads[0] if single else grads
        return (_saturated_value(_data(out)), result) if with_value else result

    differentiated.__name__ = differentiated.__qualname__ = f"grad_{label}"
    return differentiated


def on_values(fn, own_rule=True):
    """A copy of the user function ``fn`` that computes on ``Value``s (see ``grad``);
    ``own_rule=False`` differentiates ``fn``'s own code even where ``symdiff.defgrad``
    gave it a rule (the rules of the functions it calls still hold)."""
    if not own_rule and isinstance(fn, types.FunctionType):
        return _copy_function(fn, {})
    return _translate(fn, {})


def grad(fn, wrt=None):
    """A function returning the gradient of ``fn`` at its arguments, by the tape.

    ``wrt=None`` means every positional parameter (one float when there is exactly one);
    a name or an index gives one float, a tuple or list of them a tuple in that order.
    Arguments may be ints.  A parameter ``fn`` does not use gets 0.0, and so does every
    parameter when ``fn`` returns a plain number.  ``fn`` itself runs unchanged.
    """
    return _differentiate(fn, wrt, with_value=False)


def value_and_grad(fn, wrt=None):
    """Like ``grad``, but the function returns ``(float(fn(...)), gradient)``."""
    return _differentiate(fn, wrt, with_value=True)
