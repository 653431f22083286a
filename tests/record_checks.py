"""Checks of an array record's derivatives on one call, shared by the records' tests
(``tests/primitives/test_array_contractions.py``, ``test_array_more.py``).

A case is a function and its arguments; the parameters differentiated are those given a
float or a float array.  ``vjp_along_directions``: the gradient's inner products with
random directions against directional differences; ``same_as_the_tape``: the gradient
against the tape's; ``jvp_along_a_direction``: the value and the tangent along a random
direction against the function and its directional difference.
"""

import inspect

import numpy as np
import pytest

import symdiff
import symdiff.tape

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles


def float_parameters(f, args):
    """``(parameters, the differentiated ones)``: those given a float or a float array."""
    params = list(inspect.signature(f).parameters)
    return params, tuple(p for p, a in zip(params, args) if isinstance(a, float) or (
        isinstance(a, np.ndarray) and a.dtype.kind == "f"))


def as_tuple(found, wrt):
    return found if len(wrt) > 1 else (found,)


def one_or_all(wrt):
    """``wrt`` as ``symdiff.grad`` takes it: one name alone, several as a tuple."""
    return wrt if len(wrt) > 1 else wrt[0]


def scale(f, args):
    return 1.0 + abs(float(f(*args)))


def vjp_along_directions(f, args, rng):
    params, wrt = float_parameters(f, args)
    got = as_tuple(symdiff.grad(f, wrt=one_or_all(wrt))(*args), wrt)
    oracles.assert_along_directions(f, args, params, wrt, got, rng, scale(f, args))


def same_as_the_tape(f, args):
    _, wrt = float_parameters(f, args)
    got = as_tuple(symdiff.grad(f, wrt=one_or_all(wrt))(*args), wrt)
    tape = as_tuple(symdiff.tape.grad(f, wrt=one_or_all(wrt))(*args), wrt)
    for mine, theirs in zip(got, tape):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)


def jvp_along_a_direction(f, args, rng):
    params, wrt = float_parameters(f, args)
    tangents = [rng.normal(size=np.shape(args[params.index(p)])) for p in wrt]
    tangents = [float(v) if isinstance(args[params.index(p)], float) else v
                for p, v in zip(wrt, tangents)]
    value, tangent = symdiff.jvp(f, wrt=one_or_all(wrt))(*args, *tangents)
    assert float(value) == pytest.approx(float(f(*args)), rel=1e-12)
    expected = sum(oracles.directional(f, args, params.index(p), v) for p, v in zip(
        wrt, tangents))
    assert float(tangent) == pytest.approx(expected, rel=1e-6, abs=1e-7 * scale(f, args))
