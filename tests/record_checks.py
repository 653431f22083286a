"""Checks of an array record's derivatives on one call, shared by the records' tests
(``tests/primitives/test_array_contractions.py``, ``test_array_more.py``,
``test_array_polynomials.py``, ``test_array_steps.py``, ``test_array_grids.py``).

A case is a function and its arguments; the parameters differentiated are those given a
float or a float array.  ``vjp_along_directions``: the gradient's inner products with
random directions against directional differences; ``same_as_the_tape``: the gradient
against the tape's; ``jvp_along_a_direction``: the value and the tangent along a random
direction against the function and its directional difference;
``hessian_along_a_direction``: the Hessian by one argument, times a random direction,
against a central difference of the gradient.  ``record_tests`` makes the first three
the tests of a module's list of cases.
"""

import inspect

import numpy as np
import pytest

import symdiff
import symdiff.tape
from symdiff.errors import SymdiffError

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


def hessian_along_a_direction(f, args, at, rng, atol=None):
    """``H v`` of ``f`` by its argument ``at`` (of the Hessian's shape, the argument's
    twice) against a central difference of the gradient along ``v``; ``atol`` by default
    1e-6 of the difference's size."""
    name = list(inspect.signature(f).parameters)[at]
    hessian = symdiff.hessian(f, wrt=name)(*args)
    x = args[at]
    assert hessian.shape == np.shape(x) + np.shape(x)
    v = rng.normal(size=np.shape(x))
    gradient = symdiff.grad(f, wrt=name)

    def moved(t):
        return gradient(*[a + t * v if i == at else a for i, a in enumerate(args)])
    h = 1e-4
    expected = (moved(h) - moved(-h)) / (2 * h)
    atol = 1e-6 * (1.0 + np.max(np.abs(expected))) if atol is None else atol
    np.testing.assert_allclose(np.tensordot(hessian, v, axes=np.ndim(x)), expected,
                               rtol=1e-5, atol=atol)


def record_tests(cases, jvp_seed=1000):
    """The three tests of a module's ``cases``, numbered: VJP and JVP against finite
    differences (seeded by the case's number, the JVP's from ``jvp_seed``), and the
    gradient against the tape's.  Bind them to names starting with ``test_`` for pytest
    to collect them."""
    numbered = pytest.mark.parametrize("case", range(len(cases)))

    @numbered
    def test_vjp_against_finite_differences(case):
        vjp_along_directions(*cases[case], np.random.default_rng(case))

    @numbered
    def test_gradient_agrees_with_the_tape(case):
        same_as_the_tape(*cases[case])

    @numbered
    def test_jvp_against_finite_differences(case):
        jvp_along_a_direction(*cases[case], np.random.default_rng(jvp_seed + case))
    return (test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
            test_jvp_against_finite_differences)


def refusal_test(refused, wrt=None):
    """The test that each ``(function, arguments, word)`` of ``refused`` is refused by
    ``symdiff.grad`` (of ``wrt``) with a located ``SymdiffError`` inside the function,
    a hint, and ``word`` in its message; bind it to a name starting with ``test_``."""
    @pytest.mark.parametrize("case", range(len(refused)))
    def test_unsupported_forms_are_located_errors_with_a_hint(case):
        f, args, named = refused[case]
        with pytest.raises(SymdiffError) as caught:
            symdiff.grad(f, wrt=wrt)(*args)
        error = caught.value
        assert error.lineno is not None and error.lineno > inspect.getsourcelines(f)[1]
        assert error.hint and named in str(error)
    return test_unsupported_forms_are_located_errors_with_a_hint
