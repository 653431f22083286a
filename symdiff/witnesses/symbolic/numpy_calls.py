"""NumPy's functions and an array's methods in the sympy witness.

Expects the array values of ``arrays`` (it extends ``arrays.ArrayReader``).  Guarantees
``NumpyCalls.array_call(func, args, kwargs, node)``: the value of a call the user's code
makes of a NumPy (or ``scipy.special``) function or of an array's method, or
``NotImplemented`` for any other call; a NumPy function the witness does not read on
arrays is refused with an ``UnknownFunctionError`` naming it.  By kind:

- elementwise: a function the scalar witness knows (``np.exp``, ``np.maximum``,
  ``np.clip``) applied to each element, NumPy broadcasting the arguments; ``maximum``,
  ``minimum`` and ``clip`` pick, per element, what NumPy returns at the point;
- rearrangements and sums (``sum``, ``mean``, ``prod``, ``cumsum``, ``diff``, ``trace``,
  ``dot``, ``@``, ``einsum``, ``reshape``, ``transpose``, ``concatenate``, ``stack``,
  ``diag``, ``where``, ...): NumPy's own, on arrays of sympy values;
- ``max``/``min`` with ``axis`` and ``keepdims``: the entry largest (smallest) at the point,
  or the mean of the entries tied there, so the gradient is shared among them; ``var``,
  ``std``, ``linalg.norm``, ``logsumexp``, ``softmax`` and ``log_softmax`` by their
  formulas;
- ``linalg.solve``, ``inv``, ``det``, ``slogdet``, ``cholesky`` by sympy's matrices (``det``
  its expression, ``cholesky`` the recurrence on the lower triangle; ``decompositions``'s);
- a call on data only (``np.arange(n)``, ``np.eye(n)``, ``np.zeros(3)``): NumPy's, its floats
  made sympy numbers;
- ``autograd.numpy`` (and ``autograd.scipy``) read as the NumPy (SciPy) function each of
  its functions wraps, so code written for autograd is read unchanged.

    np.max(x) at x = (1.0, 2.0, 2.0)   ──►  x_1/2 + x_2/2
    np.linalg.det(A) of a 2x2 A        ──►  A_0_0*A_1_1 - A_0_1*A_1_0
"""

import sys

import sympy

from symdiff.errors import SymdiffError, UnknownFunctionError
import symdiff.witnesses.symbolic.scipy_calls as scipy_calls
from symdiff.witnesses.symbolic.arrays import (ArrayReader, _elementwise, _Method, is_array,
                                               is_symbolic, lifted, numpy, operand, plain)
from symdiff.witnesses.symbolic.arrays import options as _options
from symdiff.witnesses.symbolic.functions import RealAbs
from symdiff.witnesses.symbolic.autograd_names import unwrapped
from symdiff.witnesses.symbolic.decompositions import DECOMPOSITIONS
from symdiff.witnesses.symbolic.more_numpy import NUMPY_OWN, CALLS, accumulated, clipped
from symdiff.witnesses.symbolic.primitives import _PRIMITIVES, _primitive_name

_NUMPY_OWN = (  # NumPy's own code runs on arrays of sympy values: sums and rearrangements
    "sum", "prod", "cumsum", "cumprod", "diff", "trace", "mean", "dot", "matmul", "inner", "outer",
    "einsum", "tensordot", "kron", "concatenate", "stack", "hstack", "vstack", "column_stack",
    "transpose", "reshape", "ravel", "expand_dims", "squeeze", "diag", "diagonal", "flip", "fliplr",
    "flipud", "rot90", "roll", "tile", "repeat", "swapaxes", "moveaxis", "broadcast_to", "triu",
    "tril", "atleast_1d", "atleast_2d", "copy", "pad", "average")
_METHODS = ("sum", "mean", "prod", "max", "min", "var", "std", "cumsum", "cumprod", "argmax",
            "argmin", "argsort", "sort", "dot", "trace", "diagonal", "clip", "transpose",
            "reshape", "ravel", "squeeze", "swapaxes", "repeat", "any", "all", "nonzero")
_FLOAT_TYPES = ("float64", "float32", "double", "single", "float16")


class NumpyCalls(ArrayReader):
    """The calls of NumPy functions and array methods (see the module)."""

    def array_call(self, func, args, kwargs, node):
        if "numpy" not in sys.modules:  # code that never imported NumPy calls none of it
            return NotImplemented
        if isinstance(func, _Method):
            return self.array_method(func.base, func.name, args, kwargs, node)
        if func is len and len(args) == 1 and is_array(args[0]):
            if args[0].ndim == 0:
                raise TypeError("len() of unsized object")
            return sympy.Integer(len(args[0]))
        wrapper, func = unwrapped(func)
        own = self.numpy_table().get(_key(func))
        if own is not None:
            return own(self, func, args, kwargs, node)
        name = _primitive_name(func)
        if name is not None and (wrapper or any(is_array(a) for a in args)):
            return self.elementwise(name, args, kwargs, node)
        if not _of_numpy(func) or name is not None:
            return NotImplemented
        if is_symbolic(args) or is_symbolic(list(kwargs.values())):
            raise self.fail(UnknownFunctionError, node, f"{_named(func)} has no symbolic "
                            "form for arrays in the sympy witness", hint="check this "
                            "function with the tape and finite differences")
        return lifted(func(*plain(args), **{k: plain(v) for k, v in kwargs.items()}))

    def numpy_table(self):
        """{function: how the witness computes it}, for the modules the code imported."""
        if getattr(self, "_numpy_table", None) is None:
            np, table = numpy(), {}
            for name in _NUMPY_OWN + NUMPY_OWN:
                table[_key(getattr(np, name, None))] = _numpy_own
            for name, own in _OWN.items():
                module, _, attr = name.rpartition(".")
                found = getattr(getattr(np, module) if module else np, attr, None)
                table[_key(found)] = own
            special = sys.modules.get("scipy.special")
            if special is not None:
                for name, own in scipy_calls.SPECIAL.items():
                    table[_key(getattr(special, name))] = own
            table.pop(_key(None), None)
            self._numpy_table = table
        return self._numpy_table

    def elementwise(self, name, args, kwargs, node):
        """A scalar function of the witness applied to each element."""
        if name == "clip":
            return clipped(self, args, kwargs, node)
        if kwargs:
            raise self.unsupported(node, f"keyword arguments to np.{name} on arrays")
        builder = _PRIMITIVES[name]
        if builder is None:
            def builder(*xs):
                return self.pick(name[-3:], xs, node)
        return _elementwise(builder, *(operand(a) for a in args))

    def array_method(self, base, name, args, kwargs, node):
        """``base.name(*args, **kwargs)`` for an array ``base``; ``ufunc.outer(a, b)``
        as the ufunc of ``a`` given ``b``'s axes behind its own, and ``b``;
        ``ufunc.accumulate(x)`` (``more_numpy.accumulated``)."""
        np = numpy()
        if name == "outer" and not is_array(base) and len(args) == 2 and not kwargs:
            a = operand(np.asarray(args[0], dtype=object))
            return self.array_call(base, [a.reshape(a.shape + (1,) * np.ndim(args[1])),
                                          args[1]], {}, node)
        if name == "accumulate" and not is_array(base) and len(args) in (1, 2):
            return accumulated(self, base, args[0], {**dict(zip(("axis",), args[1:])),
                                                     **kwargs}, node)
        if name in ("reshape", "transpose") and len(args) > 1:  # x.reshape(-1, 2)
            args = [tuple(args)]
        if name == "copy" and not args:
            return base.copy()
        if name == "flatten" and not args:
            return base.copy().reshape(-1)
        if name == "astype" and len(args) == 1:
            dtype = np.dtype(plain(args[0]))
            if base.dtype == object and dtype.kind != "f":
                raise self.unsupported(node, f"an array of floats made {dtype}")
            return base.copy() if base.dtype == object else lifted(base.astype(dtype))
        if name == "item" and not args:
            if base.size != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
            return lifted(base.flat[0])
        if name == "tolist" and not args:
            return lifted(base.tolist())
        if name not in _METHODS:
            raise self.unsupported(node, f"the array method .{name}()")
        return self.array_call(getattr(np, name), [base, *args], kwargs, node)

    def extreme(self, x, axis, keepdims, which, node):
        """``np.max`` (``which`` is max) or ``np.min`` at the point: per position of the
        result, the entry chosen, or the mean of those tied."""
        np = numpy()
        axes = tuple(range(x.ndim)) if axis is None else tuple(
            a % x.ndim for a in (axis if isinstance(axis, tuple) else (axis,)))
        if x.size == 0:
            raise ValueError("zero-size array to reduction operation which has no identity")
        values = self.numbers_of(x, node)
        kept = [a for a in range(x.ndim) if a not in axes]
        order = kept + list(axes)
        rows = np.transpose(x, order).reshape(tuple(x.shape[a] for a in kept) + (-1,))
        numbers = np.transpose(values, order).reshape(rows.shape)
        found = np.empty(rows.shape[:-1], dtype=object)
        for index in np.ndindex(found.shape):
            best = which(numbers[index])
            tied = [e for e, v in zip(rows[index], numbers[index]) if v == best]
            found[index] = sympy.Add(*tied) / len(tied)
        if keepdims:
            found = found.reshape(tuple(1 if a in axes else n for a, n in enumerate(x.shape)))
        return found if found.ndim else found[()]

    def matrix(self, value, node, what):
        """A square sympy ``Matrix`` of a 2-D array (a stack of them is refused)."""
        if not is_array(value) or value.ndim != 2 or value.shape[0] != value.shape[1]:
            raise self.fail(SymdiffError, node, f"{what} of {getattr(value, 'shape', '()')}: "
                            "the sympy witness takes one square matrix",
                            hint="check batched linear algebra with the tape")
        return sympy.Matrix(operand(value).tolist())


def _key(func):
    """A table key: the function itself where hashable (a ufunc, a function, a type)."""
    try:
        hash(func)
    except TypeError:
        return None
    return func


def _of_numpy(func):
    module = getattr(func, "__module__", None) or ""
    return module == "numpy" or module.startswith("numpy.") or type(func).__name__ == "ufunc"


def _named(func):  # (``np.linalg.eigh``: by its submodule)
    return f"np{'.linalg' * ('linalg' in str(getattr(func, '__module__', '')))}.{func.__name__}"


def _argument(value):
    """An argument handed to NumPy's own code: arrays (in lists too) of sympy values,
    parameters (an axis, a shape, a subscript string) as Python's."""
    if is_array(value) or is_symbolic(value):
        return operand(value)
    if isinstance(value, (tuple, list)) and any(is_array(item) for item in value):
        return type(value)(_argument(item) for item in value)
    return plain(value)


def _numpy_own(reader, func, args, kwargs, node):
    if not is_symbolic(args) and not is_symbolic(list(kwargs.values())):
        return lifted(func(*plain(args), **{k: plain(v) for k, v in kwargs.items()}))
    return lifted(func(*(_argument(a) for a in args),
                       **{k: _argument(v) for k, v in kwargs.items() if not _float_dtype(k, v)}))


def _float_dtype(key, value):
    """``dtype=`` a float dtype: sympy's values are exact, so the witness leaves it out."""
    numpy_ = numpy()
    try:
        return key == "dtype" and numpy_.issubdtype(numpy_.dtype(plain(value)), numpy_.floating)
    except TypeError:
        return False


def _max(reader, func, args, kwargs, node):
    return _extreme(reader, args, kwargs, node, max)


def _min(reader, func, args, kwargs, node):
    return _extreme(reader, args, kwargs, node, min)


def _extreme(reader, args, kwargs, node, which):
    options = _options(args, kwargs, ("axis", "out", "keepdims"))
    if options["out"] is not None:
        raise reader.unsupported(node, "out= in the sympy witness")
    x = operand(numpy().asarray(args[0], dtype=object) if not is_array(args[0]) else args[0])
    return reader.extreme(x, options["axis"], bool(options["keepdims"]), which, node)


def _argextreme(reader, func, args, kwargs, node):
    values = reader.numbers_of(operand(args[0]), node)
    return lifted(func(values, *plain(args[1:]), **plain(kwargs)))


def _sort(reader, func, args, kwargs, node):
    """``np.sort`` at the point: the entries by their values there, ties as they stand."""
    given = dict(zip(("axis", "kind", "order"), args[1:]), **kwargs)
    np, x, axis = numpy(), operand(args[0]), plain(given.get("axis", -1))  # (last by default)
    x, axis = (x.reshape(-1), 0) if axis is None else (x, axis)
    order = np.argsort(reader.numbers_of(x, node), axis=axis, kind="stable")
    return lifted(np.take_along_axis(x, order, axis))


def _take(reader, func, args, kwargs, node):  # the indices are data: NumPy's ints
    x, indices, *rest = args
    return lifted(func(operand(x), plain(indices).astype(int), *plain(rest), **plain(kwargs)))


def _vdot(reader, func, args, kwargs, node):  # of reals: the flattened products, summed
    return sympy.Add(*(x * y for x, y in zip(*(operand(a).reshape(-1) for a in args))))


def _variance(reader, args, kwargs, node):
    options = _options(args, kwargs, ("axis", "dtype", "out", "ddof", "keepdims"))
    np, x = numpy(), operand(args[0])
    axis, keepdims = options["axis"], bool(options["keepdims"])
    deviation = x - np.mean(x, axis=axis, keepdims=True)
    total = np.sum(deviation * deviation, axis=axis, keepdims=keepdims)
    count = x.size // max(1, np.sum(x, axis=axis, keepdims=True).size)
    return lifted(total / (count - (options["ddof"] or 0)))


def _var(reader, func, args, kwargs, node):
    return _variance(reader, args, kwargs, node)


def _std(reader, func, args, kwargs, node):
    found = _variance(reader, args, kwargs, node)
    return _elementwise(sympy.sqrt, found) if is_array(found) else sympy.sqrt(found)


def _norm(reader, func, args, kwargs, node):
    options = _options(args, kwargs, ("ord", "axis", "keepdims"))
    x = operand(args[0])
    if options["ord"] not in (None, "fro") and not (options["ord"] == 2 and x.ndim == 1):
        raise reader.unsupported(node, f"np.linalg.norm with ord={options['ord']!r}")
    total = numpy().sum(x * x, axis=options["axis"], keepdims=bool(options["keepdims"]))
    return _elementwise(sympy.sqrt, total) if is_array(total) else sympy.sqrt(total)


def _where(reader, func, args, kwargs, node):
    np = numpy()
    if len(args) != 3 or kwargs:
        return lifted(np.where(*(reader.numbers_of(operand(a), node) for a in args)))
    condition = args[0]
    if is_array(condition) and condition.dtype == object:
        condition = reader.numbers_of(condition, node, "condition") != 0
    elif not is_array(condition):
        condition = reader.truthy(condition, node)
    return lifted(np.where(condition, operand(args[1]), operand(args[2])))


def _array(reader, func, args, kwargs, node):
    """``np.array`` / ``np.asarray``: floats (or values of the inputs) as an object
    array; whole numbers and booleans only, given no float dtype, as NumPy's."""
    np = numpy()
    dtype = plain(kwargs.get("dtype", args[1] if len(args) > 1 else None))
    if func is np.asarray and is_array(args[0]) and (dtype is None or (
            args[0].dtype == object and np.dtype(dtype).kind == "f")):
        return args[0]
    found = np.array(_argument(args[0]), dtype=object)
    integral = all(isinstance(e, sympy.Integer) or isinstance(e, int) for e in found.flat)
    if dtype is None and integral and found.size:
        return np.array(plain(found.tolist()))
    if dtype is not None and np.dtype(dtype).kind != "f":
        if is_symbolic(found):
            raise reader.unsupported(node, f"an array of {np.dtype(dtype)} from floats")
        return np.array(plain(found.tolist()), dtype=dtype)
    return lifted(found)


def _float(reader, func, args, kwargs, node):
    """``np.float32(x)``, ``np.float64(x)``: the value (the witness computes exactly)."""
    if len(args) != 1 or kwargs:
        raise reader.unsupported(node, f"{_named(func)} of {len(args)} arguments")
    return args[0].copy() if is_array(args[0]) else operand(args[0])


def _like(fill):
    def like(reader, func, args, kwargs, node):
        x = args[0]
        value = fill if fill is not None else args[1]
        if not is_symbolic(x) and not is_symbolic(value):
            return lifted(func(*plain(args), **plain(kwargs)))
        if kwargs or len(args) > (1 if fill is not None else 2):
            raise reader.unsupported(node, f"{_named(func)} with a dtype or shape")
        return lifted(numpy().full(numpy().shape(x), operand(value), dtype=object))
    return like


def _full(reader, func, args, kwargs, node):
    if not is_symbolic(args):
        return lifted(func(*plain(args), **plain(kwargs)))
    return lifted(numpy().full(plain(args[0]), operand(args[1]), dtype=object))


def _solve(reader, func, args, kwargs, node):
    a = reader.matrix(args[0], node, "np.linalg.solve")
    b = operand(args[1])
    if not is_array(b) or b.ndim not in (1, 2):
        raise reader.unsupported(node, "np.linalg.solve of a stack of right-hand sides")
    found = a.LUsolve(sympy.Matrix(b.tolist()))
    return lifted(numpy().array(found.tolist(), dtype=object).reshape(b.shape))


def _inv(reader, func, args, kwargs, node):
    found = reader.matrix(args[0], node, "np.linalg.inv").inv(method="ADJ")
    return lifted(numpy().array(found.tolist(), dtype=object))


def _det(reader, func, args, kwargs, node):
    return reader.matrix(args[0], node, "np.linalg.det").det(method="berkowitz")


def _slogdet(reader, func, args, kwargs, node):
    det = _det(reader, func, args, kwargs, node)
    number = reader.number(det, node, "determinant")
    sign = sympy.Integer(1 if number > 0 else -1 if number < 0 else 0)
    return sign, sympy.log(RealAbs(det))


def _cholesky(reader, func, args, kwargs, node):
    """``L`` with ``L @ L.T == A``, from ``A``'s lower triangle, row by row."""
    a = reader.matrix(args[0], node, "np.linalg.cholesky")
    n = a.shape[0]
    low = sympy.zeros(n, n)
    for i in range(n):
        for j in range(i + 1):
            rest = a[i, j] - sum((low[i, k] * low[j, k] for k in range(j)), sympy.S.Zero)
            if i == j:
                if reader.number(rest, node, "pivot") <= 0:
                    raise numpy().linalg.LinAlgError("Matrix is not positive definite")
                low[i, j] = sympy.sqrt(rest)
            else:
                low[i, j] = rest / low[j, j]
    return lifted(numpy().array(low.tolist(), dtype=object))


_OWN = {
    "max": _max, "amax": _max, "min": _min, "amin": _min, "argmax": _argextreme,
    "argmin": _argextreme, "argsort": _argextreme, "ptp": lambda *c: _max(*c) - _min(*c),
    "sort": _sort, "take": _take, "take_along_axis": _take, "vdot": _vdot, "var": _var,
    "std": _std, "where": _where, "array": _array, "asarray": _array, "zeros_like": _like(0),
    "ones_like": _like(1), "full_like": _like(None), "full": _full, "linalg.norm": _norm,
    "linalg.solve": _solve, "linalg.inv": _inv, "linalg.det": _det, "linalg.slogdet": _slogdet,
    "linalg.cholesky": _cholesky, **{name: _float for name in _FLOAT_TYPES}, **DECOMPOSITIONS,
    **CALLS}
