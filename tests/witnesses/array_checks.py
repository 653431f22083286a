"""Checking the tape's array VJPs against central finite differences along random
directions (autograd's ``check_vjp``): for a function ``f``, a cotangent ``g`` of its
result's shape and a direction ``v_i`` per differentiated argument,

    sum_i <vjp_i(g), v_i>   ==   <g, (f(x + eps v) - f(x - eps v)) / (2 eps)>

The left side is the tape's (the unchanged ``f`` run on ``ArrayValue``s, walked back from
``g``); the right side is NumPy's own ``f`` on plain arrays.  Nothing here states a
derivative.
"""

import numpy as np

from symdiff import tape
from symdiff.witnesses.tape.arrays import ArrayValue
from symdiff.witnesses.tape.running import on_values
from symdiff.witnesses.tape.value import Value

EPS = 1e-6


def _leaf(x):
    return Value(float(x)) if np.ndim(x) == 0 and not isinstance(x, np.ndarray) else (
        ArrayValue(np.array(x, dtype=float)))


def tape_vjp(f, args, wrt, g):
    """The tape's VJP of ``f`` at ``args`` for the cotangent ``g``: one per index of
    ``wrt``, each of its argument's shape."""
    leaves = {i: _leaf(args[i]) for i in wrt}
    out = on_values(f)(*[leaves.get(i, a) for i, a in enumerate(args)])
    if isinstance(out, Value):
        out.backward()
        scale = float(g)
    else:
        assert isinstance(out, ArrayValue), f"the tape gave a {type(out).__name__}"
        out.backward(g)
        scale = 1.0
    return [scale * np.broadcast_to(leaves[i].grad, np.shape(args[i])) for i in wrt]


def numeric_jvp(f, args, wrt, directions):
    """``(f(x + eps v) - f(x - eps v)) / (2 eps)`` by NumPy alone."""
    def shifted(sign):
        moved = list(args)
        for i, v in zip(wrt, directions):
            moved[i] = args[i] + sign * EPS * v
        return np.asarray(f(*moved), dtype=float)
    return (shifted(1.0) - shifted(-1.0)) / (2.0 * EPS)


def check_vjp(f, args, wrt=(0,), seed=0, rtol=1e-6, atol=1e-7):
    """Assert the tape's VJP of ``f`` agrees with finite differences, for random ``g`` and
    directions from a seeded generator.  Returns the tape's VJPs."""
    rng = np.random.default_rng(seed)
    out = np.asarray(f(*args), dtype=float)
    g = rng.normal(size=out.shape)
    directions = [rng.normal(size=np.shape(args[i])) for i in wrt]
    vjps = tape_vjp(f, args, wrt, g)
    for vjp, i in zip(vjps, wrt):
        assert np.shape(vjp) == np.shape(args[i])
    by_tape = sum(float(np.sum(vjp * v)) for vjp, v in zip(vjps, directions))
    by_numbers = float(np.sum(g * numeric_jvp(f, args, wrt, directions)))
    assert np.isclose(by_tape, by_numbers, rtol=rtol, atol=atol), (by_tape, by_numbers)
    return vjps


def check_grad(f, args, wrt, seed=0, rtol=1e-6, atol=1e-7):
    """Assert ``symdiff.tape.grad(f, wrt)`` (the public entry) agrees with finite
    differences along random directions.  Returns the gradients."""
    rng = np.random.default_rng(seed)
    grads = tape.grad(f, wrt=tuple(wrt))(*args)
    directions = [rng.normal(size=np.shape(args[i])) for i in wrt]
    for grad, i in zip(grads, wrt):
        assert np.shape(grad) == np.shape(args[i])
    by_tape = sum(float(np.sum(np.asarray(gr) * v)) for gr, v in zip(grads, directions))
    by_numbers = float(numeric_jvp(f, args, wrt, directions))
    assert np.isclose(by_tape, by_numbers, rtol=rtol, atol=atol), (by_tape, by_numbers)
    return grads
