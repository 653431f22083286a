"""SciPy's array functions the sympy witness reads by their formulas: ``logsumexp``,
``softmax`` and ``log_softmax`` along an axis, and the Hurwitz ``zeta(s, x)`` (a Python
function in SciPy, not a ufunc), element by element (``scipy.special``'s, as the user's
code imports them).

Expects a reader (``numpy_calls``' ``ArrayReader``) and the call's arguments, arrays of
sympy values; guarantees ``SPECIAL``, ``{name: how the witness computes it}``.
"""

import sympy

from symdiff.witnesses.symbolic.arrays import _elementwise, is_array, numpy, operand
from symdiff.witnesses.symbolic.arrays import options as _options


def _logsumexp(reader, func, args, kwargs, node):
    options = _options(args, kwargs, ("axis", "b", "keepdims", "return_sign"))
    if options["b"] is not None or options["return_sign"]:
        raise reader.unsupported(node, "logsumexp with b= or return_sign=")
    total = numpy().sum(_elementwise(sympy.exp, operand(args[0])), axis=options["axis"],
                        keepdims=bool(options["keepdims"]))
    return _elementwise(sympy.log, total) if is_array(total) else sympy.log(total)


def _exponentials(args, kwargs):
    """``exp(x)`` of the operand and its sum along the axis (kept), for softmax."""
    axis = _options(args, kwargs, ("axis",))["axis"]
    exps = _elementwise(sympy.exp, operand(args[0]))
    return exps, numpy().sum(exps, axis=axis, keepdims=True)


def _softmax(reader, func, args, kwargs, node):
    exps, total = _exponentials(args, kwargs)
    return exps / total


def _log_softmax(reader, func, args, kwargs, node):
    _, total = _exponentials(args, kwargs)
    return operand(args[0]) - _elementwise(sympy.log, total)


def _zeta(reader, func, args, kwargs, node):
    if kwargs or len(args) != 2:
        raise reader.unsupported(node, "zeta other than zeta(s, x) by position")
    s, x = (operand(a) for a in args)
    if not (is_array(s) or is_array(x)):
        return sympy.zeta(s, x)
    return numpy().frompyfunc(sympy.zeta, 2, 1)(s, x)


SPECIAL = {"logsumexp": _logsumexp, "softmax": _softmax, "log_softmax": _log_softmax,
           "zeta": _zeta}
