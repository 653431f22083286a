"""Forward mode and higher-order derivatives, built from the same pipeline.

- ``jvp(f)`` is the generated forward-mode function ``jvp_f(x, y, dx, dy)`` returning
  ``(value, directional derivative)``; ``f`` may return a tuple of numbers.
- ``jacobian(f)`` evaluates it once per input direction: rows are outputs.
- ``hessian(f)`` is forward over reverse: the forward mode of the generated
  ``grad_f`` (which stays inside the language symdiff reads, stacks and all),
  one direction per parameter.  ``hvp(f)`` is one such direction, given.

Each returns a ``travel.GeneratedFunction``, so it pickles (by reference to ``f``,
or as the generated text) and displays its generated code in a notebook.
"""

import functools

from .api import _unwrap, build
from .travel import wrap


def jvp(fn=None, *, wrt=None, optimize=True):
    """The forward-mode function of ``fn``: ``jvp_f(*args, *tangents) -> (value, tangent)``."""
    if fn is None:
        return functools.partial(jvp, wrt=wrt, optimize=optimize)
    gradient = build(_unwrap(fn), wrt, optimize=optimize, mode="forward")
    return wrap(gradient, "jvp", fn, {"wrt": wrt, "optimize": optimize}, fn=fn, adjoints=False)


def jacobian(fn=None, *, wrt=None):
    """``J(*args)``: the Jacobian as nested tuples, one row per output.

    A function returning one number gets one row: its gradient as a tuple.
    """
    if fn is None:
        return functools.partial(jacobian, wrt=wrt)
    gradient = build(_unwrap(fn), wrt, mode="forward")
    return wrap(gradient, "jacobian", fn, {"wrt": wrt}, fn=fn, evaluate=jacobian_rows,
                bound=(len(gradient.wrt_names),), name=f"jacobian_{gradient.program.name}",
                adjoints=False)


def hessian(fn=None, *, wrt=None):
    """``H(*args)``: the matrix of second derivatives as nested tuples (forward over reverse)."""
    if fn is None:
        return functools.partial(hessian, wrt=wrt)
    forward, gradient = _gradient_forward(fn, wrt)
    return wrap(forward, "hessian", fn, {"wrt": wrt}, fn=fn, evaluate=hessian_rows,
                bound=(len(gradient.wrt_names),), name=f"hessian_{gradient.program.name}",
                drawn=gradient)


def hvp(fn=None, *, wrt=None):
    """``hvp_f(*args, *vector)``: the Hessian times ``vector``, without forming the Hessian."""
    if fn is None:
        return functools.partial(hvp, wrt=wrt)
    forward, gradient = _gradient_forward(fn, wrt)
    return wrap(forward, "hvp", fn, {"wrt": wrt}, fn=fn, evaluate=hvp_values,
                name=f"hvp_{gradient.program.name}", drawn=gradient)


def jacobian_rows(forward, count, *args, **kwargs):
    """The Jacobian from the forward-mode function, one input direction at a time
    (keyword arguments: what a ``**kwargs`` parameter gets)."""
    columns = []
    for i in range(count):
        direction = [0.0] * count
        direction[i] = 1.0
        _, tangent = forward(*args, *direction, **kwargs)
        columns.append(tangent if isinstance(tangent, tuple) else (tangent,))
    return tuple(tuple(float(column[j]) for column in columns) for j in range(len(columns[0])))


def hessian_rows(forward, count, *args, **kwargs):
    """The Hessian from the forward mode of the gradient, one direction per parameter."""
    columns = []
    for i in range(count):
        direction = [0.0] * count
        direction[i] = 1.0
        columns.append(forward(*args, *direction, **kwargs)[1])
    return tuple(tuple(float(column[j]) for column in columns) for j in range(count))


def hvp_values(forward, *args_and_vector, **kwargs):
    """The Hessian times a vector: one direction of the gradient's forward mode."""
    return tuple(float(v) for v in forward(*args_and_vector, **kwargs)[1])


def _gradient_forward(fn, wrt):
    """The forward mode of ``fn``'s generated gradient (a tuple, whatever ``wrt`` says),
    and the gradient."""
    gradient = build(_unwrap(fn), wrt)
    names = tuple(gradient.wrt_names)
    as_tuple = build(_unwrap(fn), names)  # the gradient as a tuple, even of one
    forward = build(as_tuple.function, names, mode="forward")
    return forward, gradient
