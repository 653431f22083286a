"""The records of ``array_steps`` (``maximum.accumulate``, ``minimum.accumulate``,
``add.accumulate``, ``multiply.accumulate``, ``bincount`` with weights, the question
``searchsorted``), ``array_interp`` (``np.interp``, also against sympy) and the step ``np.heaviside`` through ``symdiff.grad``,
``symdiff.jvp`` and ``symdiff.hessian`` on small functions using them.

Each gradient is checked as autograd's ``check_vjp`` does: for random directions ``v``
(seeded), ``<grad, v>`` against a central difference of the function itself, run by
NumPy, at random points; each JVP against the same difference along random tangents;
each gradient against the tape's (whose running results are the tape's ufuncs applied
place by place), and, at small shapes, ``symdiff.check``'s columns (sympy element by
element).  Random points keep the running extremes away from ties (values at least 0.05
apart) and the steps' operands away from 0, so no difference crosses a kink; a tie
itself is checked against the convention (the gradient to the first).  A form the records do not take is a located
``SymdiffError``.
"""

import inspect

import numpy as np
import pytest

import symdiff
from symdiff.errors import SymdiffError

try:
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import record_checks as checks


# --- the functions (each uses the records under test) ------------------------------------

def drawdown(x):
    peak = np.maximum.accumulate(x)
    return np.sum((peak - x) ** 2) + np.max(peak - x)


def running_floor(x):
    return np.sum(np.minimum.accumulate(x) * np.sin(x)) + np.sum(np.minimum.accumulate(x * x))


def running_sums(x):
    return np.sum(np.add.accumulate(x) ** 2) + np.sum(np.tanh(np.multiply.accumulate(x)))


def running_sums_along_axes(X):
    return (np.sum(np.add.accumulate(X) ** 2) + np.sum(np.add.accumulate(X, axis=1) ** 3)
            + np.sum(np.multiply.accumulate(X, axis=-1) ** 2)
            + np.sum(np.multiply.accumulate(X, 0)))


def step_weighted(x, h):
    weights = np.heaviside(x, 0.5) + 2.0 * np.heaviside(-x, h)
    return np.sum(weights * x ** 2) + np.sum(np.heaviside(x - 0.09, x) * np.sin(x))


def step_of_a_number(x, s):
    return np.heaviside(s, 1.0) * s ** 3 + np.sum(np.heaviside(x, s) * x) * np.heaviside(
        s - 3.0, 0.0)


def weights_gathered(w, s):
    places = np.array([0, 3, 0, 1, 3])
    return np.sum(np.bincount(places, weights=w * s, minlength=6) ** 2) + np.sum(
        np.bincount(places, w) * np.arange(4))


def _apart(rng, size):
    """Values at least 0.05 apart, in a random order: no running extreme is tied."""
    values = (np.arange(size) - size / 2) * 0.11 + rng.uniform(0.0, 0.05, size)
    return rng.permutation(values)


def _cases(rng):
    """(function, arguments) of every case, the arguments drawn from ``rng``."""
    cases = []
    for n in (1, 2, 5, 9):
        cases += [(drawdown, (_apart(rng, n),)), (running_floor, (_apart(rng, n) + 0.7,)),
                  (running_sums, (rng.normal(size=n),))]
    for shape in ((4,), (2, 3)):
        x = _apart(rng, int(np.prod(shape))).reshape(shape) + 0.013
        cases += [(step_weighted, (x, float(rng.normal()))), (step_of_a_number, (x, 0.4))]
    cases += [(weights_gathered, (rng.normal(size=5), 0.7))]
    cases += [(running_sums_along_axes, (rng.normal(size=shape),))
              for shape in ((3, 4), (2, 1), (1, 3))]
    return cases


_CASES = _cases(np.random.default_rng(20261204))


(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


def running_max_summed(x):
    return np.sum(np.maximum.accumulate(x) * np.arange(x.size))


def running_min_summed(x):
    return np.sum(np.minimum.accumulate(x) * np.arange(x.size))


@pytest.mark.parametrize("f", [running_max_summed, running_min_summed])
def test_a_tie_sends_the_gradient_to_the_first(f):
    """Ties (a repeated record, a later equal element) go to the first place, as
    ``np.maximum`` gives a tie to its first operand: the same as the tape's loop."""
    x = np.array([1.0, 3.0, 3.0, 2.0, 3.0]) * (1.0 if f is running_max_summed else -1.0)
    got = symdiff.grad(f)(x)
    np.testing.assert_array_equal(got, symdiff.tape.grad(f)(x))
    assert got[2] == got[4] == 0.0 and got[1] == np.sum(np.arange(1, 5))


def squared_drawdown(x):
    return np.sum((np.maximum.accumulate(x) - x) ** 2)


@pytest.mark.parametrize("f", [drawdown, running_floor, running_sums, weights_gathered])
def test_hessian_times_v_against_differences_of_the_gradient(f):
    """The adjoints (``bincount`` of ``searchsorted`` places) are differentiated again."""
    args = next(a for g, a in _CASES if g is f and np.size(a[0]) > 4)
    checks.hessian_along_a_direction(f, args, 0, np.random.default_rng(7))


def test_the_step_has_no_derivative():
    """``heaviside``'s derivative is 0 in both operands, as ``np.sign``'s: ``h`` moves
    nothing away from 0, and ``x`` only the factors beside the step."""
    x = np.array([-0.7, 0.3, 1.1])
    dx, dh = symdiff.grad(step_weighted)(x, 0.9)
    assert dh == 0.0
    np.testing.assert_allclose(dx, symdiff.tape.grad(step_weighted)(x, 0.9)[0])


def test_sympy_agrees_at_small_shapes():
    rng = np.random.default_rng(9)
    for f, args in ((drawdown, (_apart(rng, 5),)), (running_floor, (_apart(rng, 4) + 0.7,)),
                    (running_sums, (rng.normal(size=4),)),
                    (running_sums_along_axes, (rng.normal(size=(2, 3)),)),
                    (step_weighted, (_apart(rng, 4) + 0.013, 0.3)),
                    (step_of_a_number, (_apart(rng, 3) + 0.013, 0.4)),
                    (weights_gathered, (rng.normal(size=5), 0.7))):
        report = symdiff.check(f, args)
        assert report.ok, str(report)
        assert "sympy: took the point" in str(report), str(report)


def test_float32_gradients_are_float32():
    rng = np.random.default_rng(32)
    x = _apart(rng, 6).astype(np.float32)
    for f in (squared_drawdown, running_floor, running_sums, step_weighted):
        got = symdiff.grad(f, wrt=0)(x, *((0.5,) if f is step_weighted else ()))
        assert got.dtype == np.float32
        wide = symdiff.grad(f, wrt=0)(x.astype(np.float64), *((0.5,) if f is step_weighted
                                                              else ()))
        np.testing.assert_allclose(got, wide, rtol=2e-3, atol=2e-3)


# --- forms refused, located --------------------------------------------------------------

def running_max_of_a_matrix(X):
    return np.sum(np.maximum.accumulate(X))


def running_max_along_an_axis(x):
    return np.sum(np.maximum.accumulate(x, axis=0))


def accumulated_without_an_axis(X):
    return np.sum(np.add.accumulate(X, axis=None))


def accumulate_of_a_ufunc_without_a_record(x):
    return np.sum(np.subtract.accumulate(x))


def step_of_a_list(x):
    return np.sum(np.heaviside([1.0, -1.0], 0.5) * x) + np.heaviside(x, "half")


_REFUSED = [
    (step_of_a_list, (np.ones(2),), "heaviside"),
    (running_max_of_a_matrix, (np.ones((2, 3)),), "accumulate"),
    (running_max_along_an_axis, (np.ones(3),), "axis"),
    (accumulated_without_an_axis, (np.ones((2, 3)),), "accumulate"),
    (accumulate_of_a_ufunc_without_a_record, (np.ones(3),), "accumulate"),
]


test_unsupported_forms_are_located_errors_with_a_hint = checks.refusal_test(_REFUSED, wrt=0)


# --- np.interp ---------------------------------------------------------------------------

def interpolated_curve(x, fp):
    xp = np.array([-1.0, -0.2, 0.5, 1.3, 2.0])
    return np.sum(np.interp(x, xp, fp) ** 2 * np.cos(x)) + np.sum(np.interp(x * 0.5, xp, fp))


def knots_given(x, xp, fp):
    return np.sum(np.tanh(np.interp(x, xp, fp)) * x) + np.sum(np.interp(x, xp, fp * fp) ** 2)


def _inside_knots(rng, shape, knots):
    """Points at least 0.02 from every knot (the curve's kinks), some outside them."""
    x = rng.uniform(knots[0] - 0.6, knots[-1] + 0.6, size=shape)
    near = np.abs(x[..., None] - knots).min(axis=-1) < 0.02
    return np.where(near, x + 0.05, x)


_KNOTS = np.array([-1.0, -0.2, 0.5, 1.3, 2.0])


def _interp_cases(rng):
    cases = []
    for shape in ((6,), (2, 3), (1,)):
        x = _inside_knots(rng, shape, np.concatenate([_KNOTS, _KNOTS * 0.5]))
        cases += [(interpolated_curve, (x, rng.normal(size=5)))]
        xp = np.sort(rng.uniform(-1.0, 2.0, size=4)) + np.arange(4) * 0.3
        cases += [(knots_given, (_inside_knots(rng, shape, xp), xp, rng.normal(size=4)))]
    return cases


_INTERP = _interp_cases(np.random.default_rng(2512))


@pytest.mark.parametrize("case", range(len(_INTERP)))
def test_interp_vjp_against_finite_differences(case):
    checks.vjp_along_directions(*_INTERP[case], np.random.default_rng(case))


@pytest.mark.parametrize("case", range(len(_INTERP)))
def test_interp_jvp_against_finite_differences(case):
    checks.jvp_along_a_direction(*_INTERP[case], np.random.default_rng(50 + case))


@pytest.mark.parametrize("case", range(len(_INTERP)))
def test_interp_agrees_with_the_tape(case):
    checks.same_as_the_tape(*_INTERP[case])


@pytest.mark.parametrize("case", range(len(_INTERP)))
def test_interp_agrees_with_sympy(case):
    report = symdiff.check(*_INTERP[case][:1], _INTERP[case][1])
    assert report.ok, str(report)
    assert "sympy: took the point" in str(report), str(report)


@pytest.mark.parametrize("case", [0, 1, 5])  # x a vector: a 2-d x is not read twice
def test_interp_hessian_times_v_against_differences_of_the_gradient(case):
    f, args = _INTERP[case]
    at = len(args) - 1  # fp, in which the curve is linear, and x through the weights
    for at in (0, len(args) - 1):
        hessian = symdiff.hessian(f, wrt=at)(*args)
        v = np.random.default_rng(case).normal(size=args[at].shape)
        gradient = symdiff.grad(f, wrt=at)
        h = 1e-4

        def moved(s):
            return gradient(*[a + s * v if i == at else a for i, a in enumerate(args)])
        expected = (moved(h) - moved(-h)) / (2 * h)
        found = np.tensordot(hessian, v, axes=v.ndim)
        np.testing.assert_allclose(found, expected, rtol=1e-5,
                                   atol=1e-6 * (1.0 + np.max(np.abs(expected))))


def interp_at_a_number(s, fp):
    return np.interp(s, np.array([0.0, 1.0]), fp)


def interp_with_bounds(x, fp):
    return np.sum(np.interp(x, np.array([0.0, 1.0]), fp, left=0.0))


def interp_of_a_matrix_of_knots(x, fp):
    return np.sum(np.interp(x, np.ones((2, 2)), fp))


@pytest.mark.parametrize("f, args, named", [
    (interp_at_a_number, (0.5, np.ones(2)), "interp"),
    (interp_with_bounds, (np.ones(3), np.ones(2)), "left"),
    (interp_of_a_matrix_of_knots, (np.ones(3), np.ones(2)), "interp"),
])
def test_interp_forms_refused_are_located(f, args, named):
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(f, wrt=1)(*args)
    error = caught.value
    assert error.lineno is not None and error.lineno > inspect.getsourcelines(f)[1]
    assert error.hint and named in str(error)
