"""ArrayValue: a NumPy array that records how it was computed, for the tape.

Expects numpy to have been imported by the user's code (this module imports nothing of
it: ``numpy()`` reads it from ``sys.modules``).  Guarantees ``ArrayValue``, a handle on a
node of the tape holding an ndarray of floats, with NumPy's operators, attributes and
methods, ``.backward(seed)`` and ``.grad``; and the recording helpers the array modules
build on (``lift``, ``record``, ``unbroadcast``, ``Pullback``).

A node's edges are ``(operand, Pullback(vjp))`` pairs in the flat tuple a scalar
``Value`` keeps: ``g * pullback`` is ``vjp(g)``, the vector-Jacobian product, so the one
walk of ``value._walk`` runs over scalar and array nodes alike.  An operation whose result
is 0-d returns a scalar ``Value`` (as NumPy returns a scalar), whose edges to arrays are
pullbacks too; one that depends on no Value returns plain NumPy data.

    >>> x = ArrayValue(np.array([1.0, 2.0]))
    >>> y = (x * x).sum()               # a Value: 5.0
    >>> y.backward()
    >>> x.grad                          # 2 x
    array([2., 4.])

The handle is what the user's code holds; ``x[i] = v`` and ``x += v`` give it a new node
(copy semantics), so the nodes already recorded keep the value they read.  The methods
beyond arithmetic and indexing call the functions other modules note in ``OFFERED``.
"""

import sys

from symdiff.witnesses.tape.value import Value, _walk

OFFERED = {}  # name -> a function on arrays, noted by the module defining it (``offer``)


def offer(**functions):
    OFFERED.update(functions)


def numpy():
    """The user's numpy (an ArrayValue exists only once it is imported)."""
    return sys.modules["numpy"]


def is_ndarray(x):
    module = sys.modules.get("numpy")
    return module is not None and isinstance(x, module.ndarray)


class Pullback:
    """A local derivative that is a function: ``g * Pullback(vjp)`` is ``vjp(g)``.
    ``__array_ufunc__ = None`` makes NumPy's ``g * p`` hand over to ``__rmul__``."""

    __slots__ = ("vjp",)
    __array_ufunc__ = None

    def __init__(self, vjp):
        self.vjp = vjp

    def __rmul__(self, g):
        return self.vjp(g)


class Node:
    """A node of the tape holding an array: ``data``, ``grad`` and ``_edges``."""

    __slots__ = ("data", "grad", "_edges")

    def __init__(self, data, edges=()):
        self.data, self.grad, self._edges = data, 0.0, edges


def lift(x):
    """``(data, node)`` of an operand: an ArrayValue's array and node, a Value's number and
    itself, or data (an array, a number, a list) as an array and None."""
    if isinstance(x, ArrayValue):
        return x._node.data, x._node
    if isinstance(x, Value):
        return numpy().float64(x.data), x
    if isinstance(x, (list, tuple)) and any(_holds_value(i) for i in x):
        return lift(OFFERED["array"](x))
    return numpy().asarray(x), None


def _holds_value(x):
    if isinstance(x, (list, tuple)):
        return any(_holds_value(i) for i in x)
    return isinstance(x, (Value, ArrayValue))


def is_tape(x):
    """Whether ``x`` is a Value or an ArrayValue, or a list or tuple holding one."""
    return _holds_value(x)


def record(y, edges):
    """The result of an operation: plain data without edges, else a Value when 0-d, else
    an ArrayValue.  ``edges`` pairs a node with its ``vjp`` (wrapped here)."""
    if not edges:
        return y
    wrapped = ()
    for i in range(0, len(edges), 2):
        vjp = edges[i + 1]
        if isinstance(edges[i], Value):  # a scalar's gradient stays a float
            vjp = _to_float(vjp)
        wrapped += (edges[i], Pullback(vjp))
    np = numpy()
    if np.ndim(y) == 0:
        return Value(float(y), wrapped)
    return ArrayValue(np.asarray(y), wrapped)


def _to_float(vjp):
    return lambda g: float(vjp(g))


def unbroadcast(g, shape):
    """``g`` summed back to ``shape``: over the leading axes broadcasting added, and over
    the axes of size one it stretched (keeping them); a float for ``shape == ()``."""
    np = numpy()
    g = np.asarray(g)
    if g.shape == tuple(shape):
        return g if shape else float(g)
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    if not shape:
        return float(g)
    return np.broadcast_to(g, shape) if g.shape != tuple(shape) else g


def _operator(name):
    def left(self, other):
        return OFFERED[name](self, other)

    def right(self, other):
        return OFFERED[name](other, self)
    return left, right


def _in_place(name):
    def method(self, other):
        self._node = node_of(OFFERED[name](self, other), self)
        return self
    return method


def node_of(result, like):
    """The node of ``result`` as an array node (a constant node for plain data)."""
    np = numpy()
    if isinstance(result, ArrayValue):
        return result._node
    if isinstance(result, Value):  # 0-d: kept an array of its shape
        return Node(np.asarray(result.data, like._node.data.dtype),
                    (result, Pullback(lambda g: float(np.sum(g)))))
    return Node(np.asarray(result))


def _comparison(ufunc):
    def method(self, other):
        return getattr(numpy(), ufunc)(self._node.data, lift(other)[0])
    return method


def _method(name):
    def method(self, *args, **kwargs):
        return OFFERED[name](self, *args, **kwargs)
    method.__name__ = name
    return method


class ArrayValue:
    """An ndarray on the tape: a handle on its current ``Node``."""

    __slots__ = ("_node",)
    _tape_array = True

    def __init__(self, data, _edges=()):
        self._node = Node(data, _edges)

    # attributes read the array
    data = property(lambda self: self._node.data)
    grad = property(lambda self: self._node.grad)
    shape = property(lambda self: self._node.data.shape)
    ndim = property(lambda self: self._node.data.ndim)
    size = property(lambda self: self._node.data.size)
    dtype = property(lambda self: self._node.data.dtype)
    T = property(lambda self: OFFERED["transpose"](self))
    mT = property(lambda self: OFFERED["swapaxes"](self, -1, -2))

    def __len__(self):
        return len(self._node.data)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self):
        return f"ArrayValue({self._node.data!r})"

    def backward(self, seed=None):
        """Set ``.grad`` of every node this array depends on, for the cotangent ``seed``
        (an array of this shape; ones by default)."""
        np = numpy()
        seed = np.ones(self.shape) if seed is None else np.array(seed, dtype=float)
        if seed.shape != self.shape:
            raise ValueError(f"the seed has shape {seed.shape}, the array {self.shape}")
        _walk(self._node, seed)

    # arithmetic, both sides, and the in-place forms (a new node for the same handle)
    __add__, __radd__ = _operator("add")
    __sub__, __rsub__ = _operator("subtract")
    __mul__, __rmul__ = _operator("multiply")
    __truediv__, __rtruediv__ = _operator("divide")
    __pow__, __rpow__ = _operator("power")
    __matmul__, __rmatmul__ = _operator("matmul")
    __mod__, __rmod__ = _operator("remainder")
    __floordiv__, __rfloordiv__ = _operator("floor_divide")
    __iadd__, __isub__ = _in_place("add"), _in_place("subtract")
    __imul__, __itruediv__ = _in_place("multiply"), _in_place("divide")
    __ipow__, __imatmul__ = _in_place("power"), _in_place("matmul")

    def __neg__(self):
        return OFFERED["negative"](self)

    def __pos__(self):
        return OFFERED["positive"](self)

    def __abs__(self):
        return OFFERED["absolute"](self)

    # comparisons give plain bool arrays
    __lt__, __le__ = _comparison("less"), _comparison("less_equal")
    __gt__, __ge__ = _comparison("greater"), _comparison("greater_equal")
    __eq__, __ne__ = _comparison("equal"), _comparison("not_equal")
    __hash__ = object.__hash__

    def __bool__(self):
        return bool(self._node.data)

    def __getitem__(self, key):
        return OFFERED["getitem"](self, key)

    def __setitem__(self, key, value):
        self._node = OFFERED["setitem"](self, key, value)

    # NumPy's protocols: its functions and ufuncs of an ArrayValue reach the tape's
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return OFFERED["array_ufunc"](ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return OFFERED["array_function"](func, args, kwargs)

    def __array__(self, dtype=None, copy=None):
        raise TypeError(_DETACHING.format(what="converted to a plain numpy array (np.asarray, "
                                               "or a write into a plain array)"))

    def __float__(self):
        raise TypeError(_DETACHING.format(what="converted to a float"))

    def __int__(self):
        return int(self._node.data)

    def __index__(self):
        raise TypeError("an ArrayValue cannot be used as an index or a count: its "
                        "derivative would be lost; use x.data for the numbers")

    def item(self, *args):
        return OFFERED["item"](self, *args)

    def tolist(self):
        return [self[i].tolist() if self.ndim > 1 else self[i] for i in range(len(self))]

    def astype(self, dtype, *args, **kwargs):
        return OFFERED["astype"](self, dtype)

    def copy(self, order="C"):
        return OFFERED["copy"](self)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        return OFFERED["transpose"](self, axes or None)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return OFFERED["reshape"](self, shape, order=order)

    sum, mean, prod, max, min = (_method(n) for n in ("sum", "mean", "prod", "max", "min"))
    var, std, cumsum, dot = (_method(n) for n in ("var", "std", "cumsum", "dot"))
    cumprod, repeat = _method("cumprod"), _method("repeat")
    ravel, flatten, squeeze = _method("ravel"), _method("ravel"), _method("squeeze")
    clip, trace, diagonal = _method("clip"), _method("trace"), _method("diagonal")
    swapaxes, argmax, argmin = _method("swapaxes"), _method("argmax"), _method("argmin")
    argsort, any, all, nonzero = (_method(n) for n in ("argsort", "any", "all", "nonzero"))


_DETACHING = ("an ArrayValue cannot be {what}: its derivative would be lost. Use numpy's "
              "functions on it (the tape follows them), or x.data for the numbers")
