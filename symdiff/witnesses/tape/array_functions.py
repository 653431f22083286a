"""Which NumPy function an ArrayValue reaches: the tables of the tape's array functions,
NumPy's protocols (``__array_function__``, ``__array_ufunc__``) that lead to them, and
the refusal of the others.

Expects numpy imported by the user.  Guarantees ``array_function(func, args, kwargs)``
and ``array_ufunc(ufunc, method, inputs, kwargs)``: the tape's version of ``func`` (a
NumPy or ``numpy.linalg`` function) or of ``ufunc``, applied; a function the tape has no
derivative for raises ``SymdiffError`` naming it, located at the user's line, so no
gradient is silently wrong.  ``namespace_stand_ins(numpy)`` gives the user's code the
functions NumPy's protocols do not reach (``np.array`` of Values, a Value mixed with
arrays), ``deferring`` lets the scalar stand-ins hand arrays to these.  The functions
that only read numbers (``argmax``, ``shape``, ``allclose``...) run on the numbers.

    np.sum(x, axis=0)      -> array_reductions.sum_
    np.linalg.solve(A, b)  -> array_linalg.solve
    np.kron(x, y)          -> SymdiffError: numpy.kron has no derivative on the tape's
                              arrays
"""

import sys

from symdiff.errors import SymdiffError
from symdiff.witnesses.tape import array_arrangements as arrangements
from symdiff.witnesses.tape import array_decompositions as decompositions
from symdiff.witnesses.tape import array_linalg as linalg
from symdiff.witnesses.tape import array_more as more
from symdiff.witnesses.tape import array_reductions as reductions
from symdiff.witnesses.tape import array_shapes as shapes
from symdiff.witnesses.tape.array_steps import ACCUMULATED, accumulate, bincount, interp
from symdiff.witnesses.tape.array_ufuncs import ufunc_table
from symdiff.witnesses.tape.arrays import ArrayValue, is_ndarray, is_tape, lift, numpy, offer
from symdiff.witnesses.tape.value import Value, _offer

_DIFFERENTIABLE = {  # numpy's name -> the tape's function
    "sum": reductions.sum_, "mean": reductions.mean, "prod": reductions.prod,
    "max": reductions.max_, "amax": reductions.max_, "min": reductions.min_,
    "amin": reductions.min_, "var": reductions.var, "std": reductions.std,
    "cumsum": reductions.cumsum, "cumprod": reductions.cumprod, "trace": reductions.trace, "diff": shapes.diff,
    "dot": linalg.dot, "matmul": linalg.matmul, "inner": linalg.inner, "outer": linalg.outer,
    "einsum": linalg.einsum, "transpose": linalg.transpose, "swapaxes": linalg.swapaxes,
    "diag": linalg.diag, "diagonal": linalg.diagonal, "moveaxis": shapes.moveaxis,
    "reshape": shapes.reshape, "ravel": shapes.ravel, "expand_dims": shapes.expand_dims,
    "squeeze": shapes.squeeze, "broadcast_to": shapes.broadcast_to,
    "concatenate": shapes.concatenate, "stack": shapes.stack, "vstack": shapes.vstack,
    "column_stack": shapes.column_stack,
    "hstack": shapes.hstack, "where": shapes.where, "clip": shapes.clip, "take": shapes.take,
    "take_along_axis": shapes.take_along_axis,
    "copy": shapes.copy_, "array": shapes.array, "asarray": shapes.asarray,
    "flip": arrangements.flip, "flipud": arrangements.flipud, "fliplr": arrangements.fliplr,
    "rot90": arrangements.rot90, "roll": arrangements.roll, "sort": arrangements.sort,
    "partition": arrangements.partition,
    "tile": arrangements.tile, "repeat": arrangements.repeat, "pad": arrangements.pad,
    "triu": arrangements.triu, "tril": arrangements.tril, "average": arrangements.average,
    "atleast_1d": arrangements.atleast_1d, "atleast_2d": arrangements.atleast_2d,
    **{name: getattr(more, name) for name in (
        "median", "quantile", "percentile", "nansum", "nanmean", "nanmax", "nanmin", "nanprod",
        "nancumsum", "nancumprod", "cross",
        "convolve", "correlate", "append", "split", "array_split", "hsplit", "vsplit",
        "linspace", "dstack", "select", "real", "imag", "nan_to_num", "atleast_3d",
        "polyval", "polyder", "meshgrid")},
    **{name: more.real for name in ("conj", "conjugate", "ascontiguousarray")},  # of floats
    "bincount": bincount, "interp": interp, "tensordot": arrangements.tensordot, "vdot": arrangements.vdot, "ptp": arrangements.ptp, "sinc": arrangements.sinc,
}
_LINALG = {"norm": reductions.norm, "solve": linalg.solve, "inv": linalg.inv,
           "det": linalg.det, "slogdet": linalg.slogdet, "cholesky": linalg.cholesky,
           "matrix_power": arrangements.matrix_power, "eigh": decompositions.eigh,
           "eigvalsh": decompositions.eigvalsh, "qr": decompositions.qr,
           "svd": decompositions.svd, "pinv": decompositions.pinv,
           "lstsq": decompositions.lstsq, "svdvals": decompositions.svdvals}
_LIKE = ("zeros_like", "ones_like", "full_like", "empty_like")
_READING = ("shape", "ndim", "size", "argmax", "argmin", "argsort", "nonzero", "flatnonzero",
            "count_nonzero", "any", "all", "isclose", "allclose", "array_equal", "round",
            "around", "fix", "searchsorted", "isnan", "isfinite", "isinf", "sign", "floor", "ceil",
            "result_type", "iscomplexobj", "isrealobj")
_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min"}
_OUTER = ("add", "subtract", "multiply", "divide", "maximum", "minimum")


def _outer_operands(a, b):
    """``ufunc.outer(a, b)`` is ``ufunc(a', b)``, ``a'`` of ``b``'s axes of size one
    behind its own."""
    behind, data = numpy().ndim(lift(b)[0]), lift(a)[0]
    return (shapes.reshape(a, data.shape + (1,) * behind) if data.ndim else a), b


def _numbers(x):
    """``x`` with the numbers of its tape values, through lists, tuples and dicts."""
    if isinstance(x, (ArrayValue, Value)):
        return x.data
    if isinstance(x, (list, tuple)):
        return type(x)(_numbers(i) for i in x)
    if isinstance(x, dict):
        return {k: _numbers(v) for k, v in x.items()}
    return x


def _reading(function):
    def apply(*args, **kwargs):
        return function(*_numbers(args), **_numbers(kwargs))
    return apply


_TABLES = {}  # "functions" -> numpy's function -> the tape's (made once numpy is imported)


def functions(np):
    """NumPy's function object -> the tape's version, for those ArrayValues reach."""
    table = {getattr(np, name): f for name, f in _DIFFERENTIABLE.items() if hasattr(np, name)}
    table.update({getattr(np.linalg, name): f for name, f in _LINALG.items()
                  if hasattr(np.linalg, name)})  # (``svdvals``: NumPy 2)
    table.update({getattr(np, name): shapes.like(getattr(np, name)) for name in _LIKE})
    table.update({getattr(np, name): _reading(getattr(np, name))
                  for name in _READING if hasattr(np, name)})
    return table


def _table():
    if "functions" not in _TABLES:
        _TABLES["functions"] = functions(numpy())
    return _TABLES["functions"]


def array_function(func, args, kwargs):
    """``func(*args, **kwargs)`` on the tape (``__array_function__``)."""
    found = _table().get(func)
    if found is None:
        module = getattr(func, "__module__", None) or "numpy"
        _refuse(f"{module}.{func.__name__}")
    return found(*args, **kwargs)


def array_ufunc(ufunc, method, inputs, kwargs):
    """``ufunc`` called (or reduced) on the tape (``__array_ufunc__``)."""
    name = ufunc.__name__
    if method == "at" and name == "add" and isinstance(inputs[0], ArrayValue) and (
            len(inputs) == 3 and not kwargs):  # ``np.add.at(x, key, v)``: changes ``x``
        inputs[0]._node = shapes.add_at(*inputs)
        return None
    if method == "reduce" and name in _REDUCE and set(kwargs) <= {"axis", "keepdims"}:
        return _DIFFERENTIABLE[_REDUCE[name]](*inputs, **kwargs)
    if method == "outer" and name in _OUTER and len(inputs) == 2 and not kwargs:
        return ufunc_table()[name](*_outer_operands(*inputs))
    if method == "accumulate" and name in ACCUMULATED and len(inputs) == 1 and (
            set(kwargs) <= {"axis"}):
        return accumulate(name, *inputs, **kwargs)
    extra = {"matmul": linalg.matmul, "clip": shapes.clip}
    found = ufunc_table().get(name) or extra.get(name)
    if method != "__call__" or found is None or kwargs:
        _refuse(f"numpy.{name}" + ("" if method == "__call__" else f".{method}"),
                keywords=sorted(kwargs) if found is not None and method == "__call__" else ())
    return found(*inputs)


def _refuse(name, keywords=()):
    where = _user_frame()
    if keywords:
        message = f"{name} with {', '.join(k + '=' for k in keywords)} is not on the tape"
    else:
        message = f"{name} has no derivative on the tape's arrays"
    raise SymdiffError(message, hint="write it with the numpy functions the tape knows "
                                     "(symdiff.witnesses.tape.array_functions), or give "
                                     "your function its own rule with symdiff.defgrad",
                       filename=where[0], lineno=where[1])


def _user_frame():
    """(file, line) of the innermost caller outside symdiff and numpy, or (None, None)."""
    frame = sys._getframe(2)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.partition(".")[0] not in ("symdiff", "numpy", "scipy"):
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return None, None


def _array_like(x):
    if type(x) is float or type(x) is int:
        return False
    if isinstance(x, (list, tuple)):
        return any(_array_like(i) for i in x)
    return isinstance(x, ArrayValue) or is_ndarray(x) and x.ndim > 0


def deferring(stand_in, original):
    """The scalar ``stand_in``, handing ``original``'s call to NumPy (and so to the tape's
    arrays, through its protocols) when an array is among the arguments."""
    def apply(*args, **kwargs):
        if any(_array_like(a) for a in args) or any(_array_like(v) for v in kwargs.values()):
            return original(*args, **kwargs)
        return stand_in(*args, **kwargs)
    apply.__name__ = apply.__qualname__ = getattr(stand_in, "__name__", "stand_in")
    for method in _UFUNC_METHODS:  # np.add.reduce(x): the ufunc's, reaching the tape's
        if hasattr(original, method):
            setattr(apply, method, getattr(original, method))
    return apply


_UFUNC_METHODS = ("reduce", "accumulate", "outer", "at", "reduceat", "nin", "nout",
                  "identity")


def _on_tape(function, original):
    """``function`` when a tape value is an argument, or meets an array in a list (or a
    list of Values is made an array), else NumPy's own ``original`` (which takes a list
    of Values as an object array)."""
    def apply(*args, **kwargs):
        values = list(args) + list(kwargs.values())
        if any(isinstance(a, (ArrayValue, Value)) for a in values) or is_tape(values) and (
                any(_array_like(a) for a in values) or original.__name__ in ("array",
                                                                               "asarray")):
            return function(*args, **kwargs)
        return original(*args, **kwargs)
    apply.__name__ = apply.__qualname__ = original.__name__
    return apply


def namespace_stand_ins(np):
    """numpy's name -> the tape's function, for the user's code to see in numpy's place."""
    found = {name: _on_tape(f, getattr(np, name)) for name, f in _DIFFERENTIABLE.items()
             if hasattr(np, name)}
    return {**found, "r_": shapes.IndexJoin(np.r_, False), "c_": shapes.IndexJoin(np.c_, True)}


def special_stand_ins(special):
    """``scipy.special``'s array functions on the tape: ``logsumexp``, ``softmax`` and
    ``log_softmax``."""
    return {name: _on_tape(getattr(reductions, name), getattr(special, name))
            for name in ("logsumexp", "softmax", "log_softmax")}


def _reading_method(name):
    """``x.<name>(...)`` on the numbers: ``x.argmax()``, ``x.any()``..."""
    def apply(a, *args, **kwargs):
        return getattr(a.data, name)(*_numbers(args), **_numbers(kwargs))
    return apply


offer(array_function=array_function, array_ufunc=array_ufunc,
      **{name: _reading_method(name)
         for name in ("argmax", "argmin", "argsort", "any", "all", "nonzero")})
_offer(array_ufunc=array_ufunc)
