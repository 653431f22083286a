"""Precision: NumPy's weak Python numbers written as numba's typed ones.

Expects an ``ir.sweeps.Function`` with its ``types`` (arrays with their dtypes), the name
numpy is read by and the names ``math`` is read by.  Guarantees ``numbers_cast(...)``: a
copy in which each Python number (a constant, or a name holding a Python ``float``,
``int`` or ``bool``) that meets a ``float32`` (or ``float16``) array or NumPy scalar in an
operator, a ufunc or ``np.where`` is written as a number of that dtype, and each such
value passed to a function of ``math`` as a Python float; with whether the copy reads
numpy.  The values are NumPy's: NumPy 2 converts a Python number to the dtype of the
array it meets (its numbers are "weak", NEP 50) and then computes in that dtype, and
``math`` computes in double precision; numba types a Python number as a 64-bit one, so
without the cast ``1.0 - t * t`` of a ``float32`` ``t`` is computed, and returned, in
``float64``, and ``math.sin`` of a ``float32`` in single precision.

    dx = 1.0 - t * t                 dx = np.float32(1.0) - t * t
    s = s + 2 * x[i]          ─►     s = s + np.float32(2) * x[i]       (x: float32)
    u = math.sin(x[i])               u = math.sin(float(x[i]))

A name's dtype is found from the values it is given; a parameter holding a number is
taken as a Python number, or as the NumPy scalar it is passed where the gradient is built
for one (``Program.scalars``: ``np.float32(1.0) - t * t`` of a ``float32`` ``t``).  A value
whose dtype is not known here (a call this module does not follow, a name given values of
two dtypes) is left as written: the compiled gradient of a ``float32``
function then agrees with the Python one to ``float32``'s precision, not bit for bit.
"""

import sys

from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw
from symdiff.optimize import walk
from symdiff.primitives.result_dtypes import LIKE_FIRST, LIKE_FIRST_METHODS

WEAK = "weak"  # a Python number: it takes the dtype of the array it meets
UNSEEN = "unseen"  # a name none of whose values is found yet (``names_dtypes``)
_ROUNDS = 12  # how many times ``names_dtypes`` goes over the function, at most
NARROW = ("float32", "float16")  # what numba's 64-bit Python numbers would widen
_ARITHMETIC = ("+", "-", "*", "/", "//", "%", "**")
_LIKE_FIRST, _METHODS = LIKE_FIRST, LIKE_FIRST_METHODS  # (primitives.result_dtypes)


class _Dtypes:
    """The dtype each expression of the function computes in, where it is known: a
    parameter's from its type, a name's from every value it is given (the same dtype
    each time, or not known)."""

    def __init__(self, function, numpy, maths, scalars):
        self.numpy, self.maths, self.scalars = numpy, maths, scalars
        module = sys.modules.get("numpy")
        self.ufuncs = frozenset(n for n in dir(module) if isinstance(
            getattr(module, n), module.ufunc)) if module else frozenset()
        self.floats = frozenset(n for n in dir(module) if type(getattr(module, n)) is float) \
            if module else frozenset()
        self.uses_numpy = False
        self.names = names_dtypes(function, self)

    def of(self, node):
        """``WEAK``, a NumPy dtype's name, or None where it is not known."""
        kind = type(node)
        if kind is ex.Const:  # (``math.pi`` too)
            return WEAK if type(node.value) in (bool, int, float) else None
        if kind is ex.Name:
            return self.names.get(node.id)
        if kind is ex.BinOp and node.op in _ARITHMETIC + ("@",):
            return combined(self.of(node.left), self.of(node.right))
        if kind is ex.UnaryOp and node.op in ("-", "+"):
            return self.of(node.operand)
        if kind is ex.IfExp:  # (numba's is of one type: a Python number's side is cast)
            return _agreed([self.of(node.body), self.of(node.orelse)])
        if kind is ex.Subscript and type(node.value) is ex.Attribute and (
                node.value.attr == "shape"):
            return WEAK  # a length: a Python int
        if kind is ex.Attribute and node.attr in ("size", "ndim"):
            return WEAK
        if kind is ex.Subscript:  # an element (a NumPy scalar) or a part of an array
            found = self.of(node.value)
            return None if found == WEAK else found
        if kind is ex.Attribute and node.attr == "T":
            return self.of(node.value)
        if kind is ex.Attribute and type(node.value) is ex.Name and (
                node.value.id == self.numpy and node.attr in self.floats or (
                    node.value.id in self.maths)):
            return WEAK  # ``np.inf``, ``math.pi``: Python floats
        if kind is ex.Call:
            return self._call(node)
        return None

    def _call(self, node):
        func = self.numpy_function(node.func)
        given = [a for a in node.args + tuple(v for _, v in node.keywords)
                 if type(a) is ex.Attribute and a.attr == "dtype"]
        if func is not None and given:  # ``np.eye(n, dtype=A.dtype)``, ``np.zeros(s,
            found = self.of(given[0].value)  # A.dtype)``: A's
            return None if found == WEAK else found
        if func in NARROW + ("float64",):  # a number of that dtype (a cast of ours)
            return func
        if func in self.ufuncs or func in ("where", "dot", "outer", "matmul", "inner",
                                           "linalg.solve"):
            operands = node.args[1:] if func == "where" else node.args
            return combined(*(self.of(a) for a in operands)) if operands else None
        if func in _LIKE_FIRST and node.args and not dict(node.keywords).get("dtype"):
            found = self.of(node.args[0])
            return None if found == WEAK else found
        if self.math_function(node.func) is not None or (
                type(node.func) is ex.Name and node.func.id == "float"):
            return WEAK
        if type(node.func) is ex.Attribute and node.func.attr in _METHODS:
            return self.of(node.func.value)
        return None

    def numpy_function(self, func):
        """The name of the NumPy function ``func`` is (``linalg.norm`` for one of
        ``np.linalg``), or None."""
        if type(func) is not ex.Attribute:
            return None
        if type(func.value) is ex.Name and func.value.id == self.numpy:
            return func.attr
        inner = func.value
        if type(inner) is ex.Attribute and inner.attr == "linalg" and type(
                inner.value) is ex.Name and inner.value.id == self.numpy:
            return f"linalg.{func.attr}"
        return None

    def math_function(self, func):
        if type(func) is ex.Attribute and type(func.value) is ex.Name and (
                func.value.id in self.maths):
            return func.attr
        return None

    def cast(self, node, dtype):
        """``node`` (a Python number) as a NumPy number of ``dtype``."""
        self.uses_numpy = True
        return ex.Call(ex.Attribute(ex.Name(self.numpy), dtype), (node,), ())


def _of_type(kind):
    if isinstance(kind, t.Array):
        return kind.dtype
    if kind in (t.BOOL, t.INT, t.NUMBER, t.FLOAT):  # what a caller passes: Python numbers
        return WEAK
    return None


def names_dtypes(function, dtypes):
    """name -> the dtype of every value the function gives it (``WEAK``, a dtype, or
    None), its parameters' from their types; found again until no name changes (a loop
    feeds its values back), each name the function binds taken at first as given no
    value yet (``UNSEEN``), so that a sum a loop carries has the dtype of what it adds.
    Where that does not settle, no name but the parameters is known."""
    types = function.types or {}
    params = {p: dtypes.scalars.get(p) or _of_type(types.get(p)) for p in function.params}
    bound = dict.fromkeys(n for s in sw.walk(function.body) for n in sw.binds(s)
                          if n not in params)
    found = dtypes.names = {**params, **dict.fromkeys(bound, UNSEEN)}
    for _ in range(_ROUNDS):
        given = {}
        for stmt in sw.walk(function.body):
            for name, dtype in _given(stmt, dtypes):
                given.setdefault(name, []).append(dtype)
        new = {**found, **{n: _agreed(d) for n, d in given.items() if n not in params}}
        if new == found:
            return {n: None if d == UNSEEN else d for n, d in found.items()}
        found = dtypes.names = new
    return {**params, **bound}


def _given(stmt, dtypes):
    """``(name, dtype)`` of each name ``stmt`` binds."""
    kind = type(stmt)
    if kind is sw.Let and type(stmt.target) is str:
        return [(stmt.target, dtypes.of(stmt.value))]
    if kind is sw.AddTo and type(stmt.target) is str:
        return [(stmt.target, combined(dtypes.names.get(stmt.target), dtypes.of(stmt.value)))]
    if kind is sw.For:
        return [(stmt.target, WEAK if stmt.over is None else None)]
    if kind is sw.Pop:  # a value a push saved from the same name
        return []
    return [(name, None) for name in sw.binds(stmt)]


def _agreed(dtypes):
    """The dtype of a name given values of ``dtypes`` (those not found yet aside): theirs
    where they agree, the narrow one where the others are Python numbers (``s = 0.0``
    and ``s = s + x[i]`` of a float32 ``x``: NumPy's ``s`` is a float32 from the first
    sum on, and numba's is one throughout, its start cast, ``numbers_cast``); None
    otherwise."""
    known = sorted({d for d in dtypes if d != UNSEEN}, key=str)
    if not known:
        return UNSEEN
    if len(known) == 1:
        return known[0]
    return known[0] if len(known) == 2 and known[1] == WEAK and known[0] in NARROW else None


def combined(*dtypes):
    """The dtype NumPy computes in for operands of ``dtypes``: a Python number takes the
    other operand's; None when one is not known (``UNSEEN``: one not found yet, left
    aside)."""
    if None in dtypes:
        return None
    dtypes = [d for d in dtypes if d != UNSEEN]
    if not dtypes:
        return UNSEEN
    strong = [d for d in dtypes if d != WEAK]
    if not strong:
        return WEAK
    numpy = sys.modules["numpy"]
    return numpy.result_type(*strong).name


def numbers_cast(function, numpy, maths, scalars=None):
    """``(copy of function with NumPy's weak numbers cast, whether the copy reads
    numpy)``; ``maths``: the names ``math`` is read by; ``scalars``: parameter -> the
    NumPy dtype of the scalar it is passed (``Program.scalars``)."""
    dtypes = _Dtypes(function, numpy, frozenset(maths), scalars or {})

    def cast(node):
        return _cast_operands(node, dtypes)

    copy = walk.clone_function(function)
    walk.rewrite_all(copy.body, lambda e: walk.transform(e, cast))
    for stmt in sw.walk(copy.body):  # a narrow name's Python number: of its dtype
        if type(stmt) in (sw.Let, sw.AddTo) and type(stmt.target) is str:
            dtype = dtypes.names.get(stmt.target)
            if dtype in NARROW and dtypes.of(stmt.value) == WEAK:
                stmt.value = dtypes.cast(stmt.value, dtype)
    return copy, dtypes.uses_numpy


def narrow_names(function, numpy, maths, scalars=None):
    """name -> its dtype, for each name of ``function`` (as ``numbers_cast`` takes it, or
    its copy) that holds numbers of a narrow dtype: what a list saving them holds."""
    names = _Dtypes(function, numpy, frozenset(maths), scalars or {}).names
    return {name: dtype for name, dtype in names.items() if dtype in NARROW}


def _cast_operands(node, dtypes):
    """``node`` with its weak operands cast where it computes in a narrow dtype, and its
    narrow arguments made Python floats where it is a function of ``math``."""
    kind = type(node)
    if kind is ex.Call and dtypes.math_function(node.func) is not None:
        args = tuple(_as_float(a) if dtypes.of(a) in NARROW else a for a in node.args)
        return ex.Call(node.func, args, node.keywords) if args != node.args else node
    dtype = dtypes.of(node)
    if dtype not in NARROW:
        return node
    if kind is ex.BinOp:
        return ex.BinOp(node.op, _narrowed(node.left, dtype, dtypes),
                        _narrowed(node.right, dtype, dtypes))
    if kind is ex.IfExp:
        return ex.IfExp(node.test, _narrowed(node.body, dtype, dtypes),
                        _narrowed(node.orelse, dtype, dtypes))
    func = dtypes.numpy_function(node.func) if kind is ex.Call else None
    if func in dtypes.ufuncs or func == "where":  # (not the axis of a reduction)
        first = 1 if func == "where" else 0
        args = node.args[:first] + tuple(_narrowed(a, dtype, dtypes)
                                         for a in node.args[first:])
        return ex.Call(node.func, args, node.keywords)
    return node


def _narrowed(node, dtype, dtypes):
    return dtypes.cast(node, dtype) if dtypes.of(node) == WEAK else node


def _as_float(node):
    return ex.Call(ex.Name("float"), (node,), ())


__all__ = ["NARROW", "WEAK", "combined", "narrow_names", "numbers_cast"]
