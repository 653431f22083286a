"""Forward mode and higher-order derivatives, built from the same pipeline.

- ``jvp(f)`` is the generated forward-mode function ``jvp_f(x, y, dx, dy)`` returning
  ``(value, directional derivative)``; ``f`` may return a tuple of numbers.
- ``jacobian(f)`` evaluates it once per input direction: rows are outputs.
- ``hessian(f)`` is forward over reverse: the forward mode of the generated
  ``grad_f`` (which stays inside the language symdiff reads, stacks and all),
  one direction per parameter.  ``hvp(f)`` is one such direction, given.
"""

import functools

from .api import _unwrap, build


def jvp(fn=None, *, wrt=None, optimize=True):
    """The forward-mode function of ``fn``: ``jvp_f(*args, *tangents) -> (value, tangent)``."""
    if fn is None:
        return functools.partial(jvp, wrt=wrt, optimize=optimize)
    gradient = build(_unwrap(fn), wrt, optimize=optimize, mode="forward")
    function = gradient.function
    function.source, function.fn = gradient.source, fn
    return function


def jacobian(fn=None, *, wrt=None):
    """``J(*args)``: the Jacobian as nested tuples, one row per output.

    A function returning one number gets one row: its gradient as a tuple.
    """
    if fn is None:
        return functools.partial(jacobian, wrt=wrt)
    gradient = build(_unwrap(fn), wrt, mode="forward")
    forward, count = gradient.function, len(gradient.wrt_names)

    def evaluate(*args, **kwargs):  # keyword arguments: what a **kwargs parameter gets
        columns = []
        for i in range(count):
            direction = [0.0] * count
            direction[i] = 1.0
            _, tangent = forward(*args, *direction, **kwargs)
            columns.append(tangent if isinstance(tangent, tuple) else (tangent,))
        rows = tuple(tuple(float(column[j]) for column in columns)
                     for j in range(len(columns[0])))
        return rows

    evaluate.__name__ = f"jacobian_{gradient.program.name}"
    return evaluate


def hessian(fn=None, *, wrt=None):
    """``H(*args)``: the matrix of second derivatives as nested tuples (forward over reverse)."""
    if fn is None:
        return functools.partial(hessian, wrt=wrt)
    forward, count, name = _gradient_forward(fn, wrt)

    def evaluate(*args, **kwargs):
        columns = []
        for i in range(count):
            direction = [0.0] * count
            direction[i] = 1.0
            columns.append(forward(*args, *direction, **kwargs)[1])
        return tuple(tuple(float(column[j]) for column in columns) for j in range(count))

    evaluate.__name__ = f"hessian_{name}"
    return evaluate


def hvp(fn=None, *, wrt=None):
    """``hvp_f(*args, *vector)``: the Hessian times ``vector``, without forming the Hessian."""
    if fn is None:
        return functools.partial(hvp, wrt=wrt)
    forward, _, name = _gradient_forward(fn, wrt)

    def evaluate(*args_and_vector, **kwargs):
        return tuple(float(v) for v in forward(*args_and_vector, **kwargs)[1])

    evaluate.__name__ = f"hvp_{name}"
    return evaluate


def _gradient_forward(fn, wrt):
    """The forward mode of ``fn``'s generated gradient (a tuple, whatever ``wrt`` says)."""
    gradient = build(_unwrap(fn), wrt)
    names = tuple(gradient.wrt_names)
    as_tuple = build(_unwrap(fn), names)  # the gradient as a tuple, even of one
    forward = build(as_tuple.function, names, mode="forward")
    return forward.function, len(names), gradient.program.name
