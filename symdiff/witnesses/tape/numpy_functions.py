"""The tape versions of numpy's elementwise functions with no ``math`` twin, on scalars,
and the activations ``relu`` and ``sigmoid``.

Expects Values or plain numbers.  Guarantees each function's value and its local
derivative, stated here (``PARTIALS`` notes those numpy's own spellings reuse).  The
selections (``fmax``, ``fmin``, ``clip``) pass the gradient to the argument they return;
the piecewise-constant ``sign``, ``rint`` and ``heaviside`` return plain floats (derivative 0).

    square(Value(3.0))            value 9.0, derivative 6.0
    clip(Value(5.0), 0.0, 1.0)    value 1.0, no derivative (the bound was returned)
    relu(Value(0.0))              value 0.0, derivative 0 (as PyTorch)
"""

import math

from symdiff.witnesses.tape.value import Value, _binary, _data, _offer, _partials, _unary

__all__ = ["relu", "sigmoid", "square", "sinc", "reciprocal", "sign", "rint", "heaviside",
           "fmax", "fmin", "clip", "logaddexp", "logaddexp2"]


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


def heaviside(x, h):
    """The step: 0 below 0, 1 above, ``h`` at 0 (nan for nan), a plain float: derivative
    0 in both."""
    x, h = _data(x), _data(h)
    return 1.0 if x > 0 else 0.0 if x < 0 else float(h) if x == 0 else x


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


_offer(relu=relu, sigmoid=sigmoid)  # a Value's methods
