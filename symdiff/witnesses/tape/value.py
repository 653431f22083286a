"""Value: a float that records how it was computed, and the walk back over that record.

Expects floats, ints or other real numbers.  Guarantees ``Value``: its arithmetic and
comparisons, ``.backward()`` (sets ``.grad`` of every node the value depends on), the
conversions that keep or refuse the derivative, and the recording helpers the function
families build on (``_unary``, ``_binary``, ``PARTIALS``).  The local derivatives of the
operators are written out here and nowhere else in symdiff.

    >>> x = Value(3.0)
    >>> y = x * x - x / 2.0
    >>> y.backward()
    >>> x.grad                      # 2 * x - 1 / 2
    5.5

The named methods (``v.tanh()``...) call the tape's functions of those names, and
numpy's functions of a Value reach the tape's stand-ins for them.  Those modules build on
this one, which imports none of them: each notes in ``OFFERED`` what it gives Values
(``_offer``), and a method reads it there when called.
"""

import math
import numbers
import operator


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
OFFERED = {}  # name -> what a module built on this one gives Values (``_offer``): the
#               functions of the named methods (``v.tanh()``), and ``stand_in``, the
#               lookup of the tape's stand-in for a numpy function (``__array_ufunc__``)


def _offer(**functions):
    """Note ``functions`` in ``OFFERED``: the module defining them calls this once, so a
    Value reaches them without this module importing the ones built on it."""
    OFFERED.update(functions)


def _partials(name, function):
    """Note ``function`` as the local derivatives of ``name`` (numpy's spellings reuse them)."""
    PARTIALS[name] = function
    return function


def _partials_of(name):
    """``_partials`` as a decorator."""
    return lambda function: _partials(name, function)


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
        result twice (unlike micrograd or PyTorch, nothing accumulates).  See ``_walk``.
        """
        _walk(self, 1.0)

    # arithmetic: each line states the local partials with respect to (left, right)
    __add__, __radd__ = _operator(operator.add, _partials("add", lambda a, b, y: (1.0, 1.0)))
    __sub__, __rsub__ = _operator(operator.sub, _partials("sub", lambda a, b, y: (1.0, -1.0)))
    __mul__, __rmul__ = _operator(operator.mul, _partials("mul", lambda a, b, y: (b, a)))
    __truediv__, __rtruediv__ = _operator(operator.truediv, _partials(
        "div", lambda a, b, y: (1.0 / b, -y / b)))
    __mod__, __rmod__ = _operator(operator.mod, _partials("mod", lambda a, b, y: (1.0, -(a // b))))
    __floordiv__, __rfloordiv__ = _operator(operator.floordiv, None)
    __pow__, __rpow__ = _operator(_real_power, _power_partials)

    def __divmod__(self, other):  # ``divmod(a, b)``: Python's ``a // b, a % b``, as above
        return self // other, self % other

    def __rdivmod__(self, other):
        return other // self, other % self

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
        return OFFERED["relu"](self)

    def sigmoid(self):
        return OFFERED["sigmoid"](self)

    def tanh(self):
        return OFFERED["tanh"](self)

    def exp(self):
        return OFFERED["exp"](self)

    def log(self):
        return OFFERED["log"](self)

    def sin(self):
        return OFFERED["sin"](self)

    def cos(self):
        return OFFERED["cos"](self)

    def sqrt(self):
        return OFFERED["sqrt"](self)

    def abs(self):
        return abs(self)

    def __bool__(self):
        return bool(self.data)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """numpy's function of a Value (``np.tanh(v)``, ``np.float64(2) * v``): the tape's
        stand-in for it, with numpy's semantics, so the derivative is kept; one the tape
        has no derivative for raises, rather than computing on the bare number."""
        if any(getattr(x, "ndim", 0) or hasattr(x, "_tape_array") for x in inputs):  # arrays
            return OFFERED["array_ufunc"](ufunc, method, inputs, kwargs)
        function = OFFERED["stand_in"](ufunc) if method == "__call__" and not kwargs else None
        if function is None:
            raise TypeError(f"numpy.{ufunc.__name__} ({method}) of a Value has no derivative "
                            "on the tape: use a function the tape knows (the numpy functions "
                            "of symdiff.witnesses.tape.numpy_stand_ins), or v.data for the "
                            "number")
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


def _walk(root, seed):
    """Set ``.grad`` of every node ``root`` depends on, ``root``'s own to ``seed``.

    Kahn's algorithm on explicit stacks: count each node's consumers, then release a node
    once every consumer has passed its gradient back.  No recursion, and the order depends
    on nothing but the recorded graph.  A node is anything with ``grad`` and ``_edges``
    (a Value, or an array node of ``arrays``); a local derivative is a number, or an
    object whose ``g * local`` is the vector-Jacobian product (``arrays._Pullback``).  A
    gradient starts as ``0.0`` and each contribution is added to it, the first making a
    new object, so no two nodes share a gradient array.
    """
    pending = {root: 0}     # node -> edges from consumers not yet processed
    stack = [root]
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
    root.grad = seed
    stack = [root]
    while stack:
        node = stack.pop()
        g, edges = node.grad, node._edges
        for i in range(0, len(edges), 2):
            operand = edges[i]
            operand.grad += g * edges[i + 1]
            pending[operand] -= 1
            if not pending[operand]:
                stack.append(operand)


_DETACHING = ("a Value cannot be {what}: its derivative would be lost (a function of math "
              "does that to its argument). Use the method (v.tanh()), the tape's function "
              "(symdiff.tape.tanh(v)), or run your function through symdiff.tape.grad, "
              "which gives it math functions that keep the derivative; v.data is the number")


def on_numbers(function):
    """``function`` applied to the numbers of Values: for tests (``isnan``) and the like,
    whose result carries no derivative."""
    def read(*args, **kwargs):
        return function(*map(_data, args), **{k: _data(v) for k, v in kwargs.items()})
    read.__name__ = read.__qualname__ = getattr(function, "__name__", "function")
    return read
