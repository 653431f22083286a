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
with no derivative here raises ``SymdiffError`` when handed a ``Value``; numpy's
functions on scalars behave like their ``math`` twins (errors rather than ``nan``).

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
"""

import builtins
import dis
import inspect
import math
import numbers
import operator
import sys
import sysconfig
import types

from .errors import SymdiffError

__all__ = [
    "Value", "grad", "value_and_grad",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt",
    "pow", "hypot", "fabs", "erf", "erfc", "floor", "ceil", "fmod", "copysign",
    "degrees", "radians", "cbrt", "exp2",
    "relu", "sigmoid", "square", "sinc", "reciprocal", "sign", "rint", "fmax", "fmin", "clip",
    "logaddexp", "logaddexp2",
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
    return Value(y, (x, derivative(x.data, y)))


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
    da, db = partials(ad, bd, y)
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


class Value:
    """A float that remembers how it was computed.

    ``_edges`` is a flat tuple ``(operand, local derivative, operand, ...)`` in argument
    order: operands are never kept in a set, so every walk over the graph is reproducible.
    """

    __slots__ = ("data", "grad", "_edges")
    __array_ufunc__ = None          # numpy hands `np.float64(2) * v` back to Value

    def __init__(self, data, _edges=()):
        self.data = float(data)
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
    __add__, __radd__ = _operator(operator.add, lambda a, b, y: (1.0, 1.0))
    __sub__, __rsub__ = _operator(operator.sub, lambda a, b, y: (1.0, -1.0))
    __mul__, __rmul__ = _operator(operator.mul, lambda a, b, y: (b, a))
    __truediv__, __rtruediv__ = _operator(operator.truediv, lambda a, b, y: (1.0 / b, -y / b))
    __mod__, __rmod__ = _operator(operator.mod, lambda a, b, y: (1.0, -(a // b)))
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

    def __float__(self):
        return self.data

    def __int__(self):
        return int(self.data)

    def __trunc__(self):
        return math.trunc(self.data)

    def __round__(self, ndigits=None):
        return round(self.data, ndigits)


# The math functions: each takes Values or plain numbers (then it is just ``math``'s).

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _define(name, derivative):
    """The tape version of ``math.<name>``; ``derivative(x, y)`` is dy/dx at y = f(x)."""
    forward = getattr(math, name)

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
        return _unary(x, math.log, lambda x, y: _div(1.0, x))
    return _binary(x, base, math.log, lambda x, b, y: (
        _div(1.0, x * math.log(b)), _div(-y, b * math.log(b))))


def atan2(y, x):
    """``math.atan2(y, x)``; both partials are nan at the origin."""
    def partials(y, x, out):
        h = math.hypot(x, y)
        return (x / h / h, -y / h / h) if h else (math.nan, math.nan)
    return _binary(y, x, math.atan2, partials)


def fmod(x, y):
    """``math.fmod``: partials 1 and ``-trunc(x / y)``."""
    def partials(x, y, out):
        q = x / y
        return 1.0, -(q if math.isinf(q) else float(math.trunc(q)))
    return _binary(x, y, math.fmod, partials)


def copysign(x, y):
    """``math.copysign``: the magnitude of ``x`` with the sign of ``y``; ±1 in ``x``
    (1 when the two signs agree), 0 in ``y``."""
    def partials(x, y, out):
        return (1.0 if (x >= 0) == (math.copysign(1.0, y) > 0) else -1.0), 0.0
    return _binary(x, y, math.copysign, partials)


degrees = _define("degrees", lambda x, y: 180.0 / math.pi)
radians = _define("radians", lambda x, y: math.pi / 180.0)


def cbrt(x):
    """The real cube root (``math.cbrt`` from Python 3.11); derivative ``inf`` at 0."""
    def forward(x):  # before 3.11: not always the nearest float, but close
        return math.copysign(abs(x) ** (1.0 / 3.0), x)
    return _unary(x, getattr(math, "cbrt", forward), lambda x, y: _div(1.0, 3.0 * y * y))


def exp2(x):
    """``2 ** x`` (``math.exp2`` from Python 3.11); derivative ``2 ** x * ln 2``."""
    return _unary(x, getattr(math, "exp2", lambda x: 2.0 ** x),
                  lambda x, y: y * math.log(2.0))


# numpy's elementwise functions with no math twin, on scalars

def square(x):
    return _unary(x, lambda x: x * x, lambda x, y: 2.0 * x)


def sinc(x):
    """``sin(pi x) / (pi x)``, 1 at 0; derivative ``(cos(pi x) - sinc x) / x``, 0 at 0."""
    def forward(x):
        return math.sin(math.pi * x) / (math.pi * x) if x else 1.0
    return _unary(x, forward, lambda x, y: (math.cos(math.pi * x) - y) / x if x else 0.0)


def reciprocal(x):
    return _unary(x, lambda x: 1.0 / x, lambda x, y: -1.0 / (x * x))


def sign(x):
    """-1, 0 or 1 (nan for nan): a plain float, so its derivative is 0."""
    x = _data(x)
    return 1.0 if x > 0 else -1.0 if x < 0 else x


def _numpy_trunc(x):
    """``numpy.trunc``: rounded toward zero, a plain float (``math.trunc`` gives an int)."""
    return float(math.trunc(_data(x)))


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
    return _binary(a, b, forward, lambda a, b, y: (math.exp(a - y), math.exp(b - y)))


def logaddexp2(a, b):
    """``log2(2 ** a + 2 ** b)``; partials ``2 ** (a - out)``, ``2 ** (b - out)``."""
    def forward(a, b):
        big = max(a, b)
        return big + math.log2(1.0 + 2.0 ** -abs(a - b)) if big > -math.inf else big
    return _binary(a, b, forward, lambda a, b, y: (2.0 ** (a - y), 2.0 ** (b - y)))


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


def hypot(*coordinates):
    """``math.hypot`` of any number of coordinates; partials 0 at the origin."""
    data = [_data(c) for c in coordinates]
    h = math.hypot(*data)
    edges = ()
    for c, d in zip(coordinates, data):
        if isinstance(c, Value):
            edges += (c, d / h if h else 0.0)
    return Value(h, edges) if edges else h


# Running the user's unchanged function on Values ------------------------------------------

_TAPE = {name: globals()[name] for name in __all__[3:] if hasattr(math, name)}
_NUMPY_NAMES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2",
                "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "power": "pow",
                "float_power": "pow", "abs": "fabs", "absolute": "fabs", "rad2deg": "degrees",
                "deg2rad": "radians", **{name: name for name in _TAPE}}
_NUMPY_ONLY = {  # on scalars: the operators, and this module's numpy-only functions
    "negative": operator.neg, "positive": operator.pos, "add": operator.add,
    "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv,
    "true_divide": operator.truediv, "remainder": operator.mod, "mod": operator.mod,
    "floor_divide": operator.floordiv, "sinc": sinc,
    "maximum": max, "minimum": min, "square": square, "reciprocal": reciprocal, "sign": sign,
    "rint": rint, "fmax": fmax, "fmin": fmin, "clip": clip, "logaddexp": logaddexp,
    "logaddexp2": logaddexp2, "cbrt": cbrt, "exp2": exp2, "trunc": _numpy_trunc}
_MATH_PASS_THROUGH = ("isnan", "isinf", "isfinite", "isclose", "trunc", "prod")
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


def _register(module, table):
    for name, stand_in in table.items():
        _STAND_INS[id(getattr(module, name))] = (getattr(module, name), stand_in)
    _STAND_INS[id(module)] = (module, _Namespace(module, table.get))


_register(math, {name: _TAPE.get(name) or _refusing(name, getattr(math, name))
                 for name in dir(math) if callable(getattr(math, name))
                 and not name.startswith("_") and name not in _MATH_PASS_THROUGH})


def _float(x=0.0):
    """``float`` for copied code: a ``Value`` passes through with its derivative."""
    return x if isinstance(x, Value) else float(x)


def _stand_in(value):
    """The tape's stand-in for ``value`` (math, numpy or one of their functions), or None."""
    numpy = sys.modules.get("numpy")
    if numpy is not None and id(numpy) not in _STAND_INS:
        table = {name: _TAPE[ours] for name, ours in _NUMPY_NAMES.items() if hasattr(numpy, name)}
        table.update(_NUMPY_ONLY)
        _register(numpy, table)
    found = _STAND_INS.get(id(value))
    return found[1] if found is not None and found[0] is value else None


def _is_user(value):
    """A function or module of the user's: not from the stdlib, a library or symdiff."""
    if isinstance(value, types.FunctionType):
        module, filename = value.__module__ or "", value.__code__.co_filename
    elif isinstance(value, types.ModuleType):
        module, filename = value.__name__, getattr(value, "__file__", None) or ""
    else:
        return False
    return (module.partition(".")[0] != "symdiff" and module not in sys.builtin_module_names
            and not filename.startswith(_LIBRARY_DIRS)
            and "site-packages" not in filename and "dist-packages" not in filename)


def _translate(value, memo):
    """What copied code sees instead of ``value``: a tape stand-in, a copied user function,
    a user module whose attributes are translated as they are read, or ``value`` itself."""
    stand_in = _stand_in(value)
    if stand_in is not None or not _is_user(value):
        return stand_in if stand_in is not None else value
    if isinstance(value, types.FunctionType):
        return _copy_function(value, memo)
    if id(value) not in memo:
        def lookup(name):
            return _translate(getattr(value, name), memo)
        memo[id(value)] = (value, _Namespace(value, lookup))
    return memo[id(value)][1]


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
        return (float(out), result) if with_value else result

    differentiated.__name__ = differentiated.__qualname__ = f"grad_{label}"
    return differentiated


def on_values(fn):
    """A copy of the user function ``fn`` that computes on ``Value``s (see ``grad``)."""
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
