"""The records of ``array_more``: ``median``, ``quantile``, ``percentile``, ``nansum``,
``nanmean``, ``nanmax``, ``nanmin``, ``cross``, ``convolve``, ``correlate`` and
``append``, and the parts of ``array_splits`` (``split``, ``array_split``, ``hsplit``,
``vsplit``), ``dstack`` (``array_joins``), ``select`` (``array_selects``), ``real``, ``imag``, ``conj``, ``ascontiguousarray``,
``round``/``around``, ``fix``, ``nan_to_num``, ``atleast_3d``, ``trace`` with an offset,
``average`` with ``keepdims``, ``linspace`` and
``asarray`` of an int, through ``symdiff.grad``, ``symdiff.jvp`` and ``symdiff.hessian`` on small
functions using them.

Each gradient is checked as autograd's ``check_vjp`` does: for random directions ``v``
(seeded), ``<grad, v>`` against a central difference of the function itself, run by
NumPy, at random points of several shapes; each JVP against the same difference along
random tangents; each Hessian, times ``v``, against a central difference of the
gradient; each gradient against the tape's (``symdiff.tape.grad``, whose versions of
these functions are built from its other ones).  Random points have no ties, so the
quantiles are differentiable there.  A form the records do not take is a located
``SymdiffError``.
"""

import inspect

import numpy as np
import pytest

import symdiff

try:
    import array_oracles as oracles
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles
    from tests import record_checks as checks


# --- the functions (each uses the records under test) ------------------------------------

def median_whole(x):
    return np.median(x) * np.sum(x ** 2)


def median_by_rows(x):
    return np.sum(np.tanh(np.median(x, axis=1)))


def median_kept(x):
    return np.sum(x / (1.0 + np.median(x, axis=0, keepdims=True) ** 2))


def quantiles(x):
    return np.quantile(x, 0.3) + np.sum(np.quantile(x, 0.9, axis=0) ** 2)


def percentiles(x):
    return np.sum(np.sin(np.percentile(x, 75, axis=-1))) + np.percentile(x, 10.0)


def nan_sums(x):
    y = np.where(x > 1.05, np.nan, x)
    return np.nansum(y ** 2) + np.nanmean(y) + np.sum(np.nanmean(y, axis=-1) ** 2)


def nan_extremes(x):
    y = np.where(x < -1.25, np.nan, x)
    return np.nanmax(y) * np.sum(np.nanmin(y, axis=-1)) + np.sum(np.nanmax(x, axis=0))


def crossed(a, b):
    return np.sum(np.cross(a, b) ** 2) + np.sum(np.cross(a, np.tanh(b)))


def convolved(a, v):
    return (np.sum(np.convolve(a, v) ** 2) + np.sum(np.tanh(np.convolve(a, v, mode="same")))
            + np.sum(np.convolve(a, v, "valid") ** 3))


def correlated(a, v):
    return (np.sum(np.correlate(a, v, mode="full") ** 2) + np.sum(np.sin(np.correlate(
        a, v, mode="same"))) + np.sum(np.correlate(a, v) ** 3))


def appended(a, b):
    return np.sum(np.append(a, b) ** 3) + np.sum(np.tanh(np.append(a, b * 2.0)))


def appended_along(a, b):
    return np.sum(np.append(a, b, axis=1) ** 2 * np.arange(a.shape[1] + b.shape[1]))


def appended_number(a, s):
    return np.sum(np.append(a, s) ** 3)


def split_halves(x):
    a, b = np.split(x, 2, axis=-1)
    return np.sum(a * np.tanh(b)) + np.sum(np.split(x, 2)[0] ** 2) if x.shape[0] % 2 == 0 else (
        np.sum(a * np.tanh(b)))


def split_unevenly(v):
    first, second, third = np.array_split(v, 3)
    return np.sum(first ** 2) * np.sum(third) + np.sum(np.sin(np.array_split(v, 3)[1]))


def split_by_sides(x):
    left, right = np.hsplit(x, 2)
    top = np.vsplit(x, 2)[0]
    return np.sum(left * right ** 2) + np.sum(np.exp(top))


def spaced(x):
    return np.sum(np.linspace(x[0], x[1], 5) ** 2 * np.arange(5.0)) + np.sum(
        np.linspace(0.0, x[-1], 4) * x[0])


def scaled_by_int_arrays(x):
    n = len(x)
    return np.sum(x * np.asarray(2)) + np.sum(x ** 2 / np.asarray(n)) + np.sum(
        np.asarray(0.5) * x)


def depth_stacked(x, y):
    return np.sum(np.dstack([x, y ** 2]) ** 2 * np.arange(2.0)) + np.sum(np.tanh(
        np.dstack([x[0], 2.0 * x[-1], y[0] ** 3])) * np.arange(3.0))


def depth_concatenated(a):
    return np.sum(np.dstack([a, a[:, :, :1] * 2.0]) ** 2)


def averages_kept(x, w):
    return np.sum(x / (1.0 + np.average(x, axis=0, keepdims=True) ** 2)) + np.sum(
        np.average(x, axis=0, weights=w, keepdims=True) * x) + np.sum(
        np.average(x, keepdims=True) * x) + np.sum(np.average(x, 0, w) ** 2)


def averaged_with_and_without_weights(x, w):
    return np.sum(np.average(x) * x) + np.sum(np.average(x, axis=0, weights=w) ** 2)


def averages_kept_whole(x, v):
    return np.sum(np.average(x, weights=v, keepdims=True) * x) + np.sum(np.tanh(
        np.average(x, axis=1, weights=v, keepdims=True)))


def selected(v):
    return np.sum(np.select([v > 0.5, v < -0.5], [v ** 2, np.sin(v)], 0.1 * v))


def selected_broadcast(x, b):
    return np.sum(np.select([x > 0.0], [x * b], default=-1.0) ** 2) + np.sum(
        np.select((x < 0.3, x > 1.0), (b, 2.0), x))


def real_parts_and_deeper(x):
    y = np.where(x > 1.05, np.nan, x)
    return np.sum(np.nan_to_num(y) ** 2) + np.sum(np.real(x) * x) + np.sum(
        np.atleast_3d(x) ** 3) + np.sum(np.imag(x) + x)


def conjugated_and_rounded(x):
    """Of float arrays: ``conj`` and ``ascontiguousarray`` are the array itself, the
    roundings are steps (derivative 0 where they do not jump)."""
    return np.sum(np.conj(x) * np.conjugate(x) * np.ascontiguousarray(x.T).T) + np.sum(
        x * np.round(x) + np.around(x, 1) * x + np.fix(x) * x)


def traced_off_the_diagonal(x):
    return np.trace(x, offset=1) * np.trace(x) + np.trace(x, -1) ** 2


def _separated(rng, shape):
    """Values at least 0.1 apart, in a random order: the finite differences' steps never
    cross a tie, where the quantiles and extremes have their kinks."""
    size = int(np.prod(shape))
    values = (np.arange(size) - size / 2) * 0.9 / max(size / 4, 1.0) + rng.uniform(0, 0.05, size)
    return rng.permutation(values).reshape(shape)


def _cases(rng):
    """(function, arguments) of every case, the arguments drawn from ``rng``."""
    def normal(size):
        return _separated(rng, size)
    cases = []
    for shape in ((3, 4), (4, 3), (2, 5), (1, 4)):
        x = normal(size=shape)
        cases += [(median_whole, (x,)), (median_by_rows, (x,)), (median_kept, (x,)),
                  (quantiles, (x,)), (percentiles, (x,)), (nan_sums, (x,)),
                  (nan_extremes, (x,)),
                  (appended, (x, normal(size=(2, 2)))),
                  (appended_along, (x, normal(size=(shape[0], 2))))]
    cases += [(median_whole, (normal(size=7),)), (median_whole, (normal(size=(2, 3, 2)),)),
              (quantiles, (normal(size=6),)),
              (crossed, (normal(size=3), normal(size=3))),
              (crossed, (normal(size=(4, 3)), normal(size=(4, 3)))),
              (crossed, (normal(size=3), normal(size=(2, 3)))),
              (appended_number, (normal(size=4), float(rng.normal())))]
    cases += [(split_halves, (normal(size=(4, 6)),)), (split_halves, (normal(size=(3, 2)),)),
              (split_halves, (normal(size=8),)), (split_unevenly, (normal(size=7),)),
              (split_unevenly, (normal(size=3),)), (split_unevenly, (normal(size=(5, 2)),)),
              (split_by_sides, (normal(size=(4, 2)),)), (split_by_sides, (normal(size=(2, 6)),)),
              (spaced, (normal(size=3),)), (spaced, (normal(size=2),)),
              (scaled_by_int_arrays, (normal(size=4),)),
              (scaled_by_int_arrays, (normal(size=(2, 3)),)),
              (depth_stacked, (normal(size=(3, 2)), normal(size=(3, 2)))),
              (depth_stacked, (normal(size=(1, 4)), normal(size=(1, 4)))),
              (depth_concatenated, (normal(size=(2, 3, 2)),))]
    cases += [(traced_off_the_diagonal, (normal(size=(3, 4)),)),
              (traced_off_the_diagonal, (normal(size=(4, 2)),))]
    cases += [(real_parts_and_deeper, (normal(size=5),)),
              (real_parts_and_deeper, (normal(size=(3, 4)),)),
              (real_parts_and_deeper, (normal(size=(2, 3, 2)),))]
    cases += [(selected, (normal(size=7),)), (selected, (normal(size=(2, 3)),)),
              (selected_broadcast, (normal(size=(3, 4)), normal(size=4))),
              (selected_broadcast, (normal(size=(2, 1)), normal(size=3)))]
    for shape in ((3, 4), (1, 4), (4, 1)):
        cases += [(averages_kept, (normal(size=shape), _separated(rng, shape[0]) + 3.0)),
                  (averages_kept_whole, (normal(size=shape), _separated(rng, shape) + 3.0)),
                  (averaged_with_and_without_weights, (normal(size=shape),
                                                       _separated(rng, shape[0]) + 3.0))]
    for n, m in ((6, 3), (3, 6), (5, 4), (4, 5), (5, 5), (2, 6), (6, 1)):
        cases += [(convolved, (normal(size=n), normal(size=m))),
                  (correlated, (normal(size=n), normal(size=m)))]
    steps = np.random.default_rng(20261204)  # points 0.02 past a tenth: off every jump
    cases += [(conjugated_and_rounded, (np.round(steps.normal(size=shape), 1) + 0.02,))
              for shape in (5, (3, 4))]
    return cases


_CASES = _cases(np.random.default_rng(20261205))


(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


_SECOND = [(median_by_rows, 0), (quantiles, 0), (nan_sums, 0), (crossed, 0), (crossed, 1),
           (convolved, 0), (correlated, 1), (appended, 1), (appended_along, 0),
           (split_halves, 0), (split_unevenly, 0), (averages_kept, 1),
           (averages_kept_whole, 1)]


@pytest.mark.parametrize("case", range(len(_SECOND)))
def test_hessian_times_v_against_differences_of_the_gradient(case):
    f, at = _SECOND[case]
    args = next(a for g, a in _CASES if g is f)
    checks.hessian_along_a_direction(f, args, at, np.random.default_rng(case))


_FLOAT32 = [(median_by_rows, ((3, 4),)), (quantiles, ((3, 4),)), (percentiles, ((2, 5),)),
            (nan_sums, ((3, 4),)), (nan_extremes, ((3, 4),)), (crossed, ((4, 3), (4, 3))),
            (convolved, ((6,), (3,))), (correlated, ((3,), (5,))),
            (appended, ((3, 4), (2, 2))), (appended_along, ((3, 4), (3, 2))),
            (split_halves, ((4, 6),)), (split_unevenly, ((7,),)), (split_by_sides, ((4, 2),))]


@pytest.mark.parametrize("case", range(len(_FLOAT32)))
def test_float32_gradients_are_float32(case):
    f, shapes = _FLOAT32[case]
    rng = np.random.default_rng(30 + case)
    args = tuple(_separated(rng, s).astype(np.float32) for s in shapes)
    params = list(inspect.signature(f).parameters)
    found = checks.as_tuple(symdiff.grad(f, wrt=checks.one_or_all(tuple(params)))(*args), params)
    wide = checks.as_tuple(symdiff.grad(f, wrt=checks.one_or_all(tuple(params)))(
        *(a.astype(np.float64) for a in args)), params)
    for mine, theirs in zip(found, wide):
        assert mine.dtype == np.float32
        np.testing.assert_allclose(mine, theirs, rtol=2e-3, atol=2e-3)


def _text(f, *args, wrt=None):
    gradient = symdiff.grad(f, wrt=wrt)
    gradient(*args)
    return gradient.source


def test_generated_code_is_plain_numpy():
    rng = np.random.default_rng(8)
    x = _separated(rng, (3, 4))
    text = _text(median_by_rows, x)
    assert "np.maximum(1.0 - np.abs(np.argsort(np.argsort(x," in text and "symdiff" not in text
    text = _text(crossed, x[0, :3], x[1, :3], wrt=("a", "b"))
    assert "np.cross(b, " in text and "np.cross(" in text
    text = _text(convolved, x[0], x[1, :3], wrt=("a", "v"))
    assert "np.correlate(" in text and "mode='valid'" in text and "np.pad(" in text
    text = _text(nan_sums, x)
    assert "np.isnan(" in text


def test_a_new_size_reuses_the_build():
    rng = np.random.default_rng(9)
    g = symdiff.grad(convolved, wrt=("a", "v"))
    g(rng.normal(size=6), rng.normal(size=3))
    first = g.source
    da, dv = g(rng.normal(size=4), rng.normal(size=7))
    assert da.shape == (4,) and dv.shape == (7,) and g.source == first


# --- forms refused, located --------------------------------------------------------------

def quantile_of_a_q_read_as_the_code_runs(x):
    q = x.ndim / 4.0
    return np.quantile(x, q)


def median_over_two_axes(x):
    return np.sum(np.median(x, axis=(0, 1)))


def quantile_beyond_one(x):
    return np.quantile(x, 1.5)


def quantiles_of_a_list(x):
    return np.sum(np.quantile(x, [0.25, 0.75]))


def percentile_by_method(x):
    return np.percentile(x, 50, method="nearest")


def convolution_of_an_unknown_mode(a, v):
    return np.sum(np.convolve(a, v, mode="circular"))


def convolution_of_matrices(a, v):
    return np.sum(np.convolve(a, v))


def appended_along_by_a_number(a):
    return np.sum(np.append(a, 1.0, axis=0))


def selected_of_lists_by_name(x):
    conditions = [x > 0.0]
    return np.sum(np.select(conditions, [x]))


def split_held_whole(x):
    parts = np.split(x, 2)
    return np.sum(parts[0])


def split_into_parts_read_as_the_code_runs(x):
    k = x.ndim + 1
    a, b = np.split(x, k)
    return np.sum(a * b)


def split_unpacked_into_too_few(x):
    a, b = np.split(x, 3)
    return np.sum(a * b)


def split_by_indices(x):
    a, b = np.split(x, [2])
    return np.sum(a) * np.sum(b)


_REFUSED = [
    (quantile_of_a_q_read_as_the_code_runs, (np.ones(3),), "q"),
    (quantile_beyond_one, (np.ones(3),), "q"),
    (median_over_two_axes, (np.ones((2, 3, 2)),), "median"),
    (quantiles_of_a_list, (np.ones(3),), "q"),
    (percentile_by_method, (np.ones(3),), "method"),
    (convolution_of_an_unknown_mode, (np.ones(3), np.ones(2)), "mode"),
    (convolution_of_matrices, (np.ones((2, 3)), np.ones((2, 2))), "convolve"),
    (appended_along_by_a_number, (np.ones(3),), "append"),
    (selected_of_lists_by_name, (np.ones(3),), "select"),
    (split_held_whole, (np.ones(4),), "split"),
    (split_into_parts_read_as_the_code_runs, (np.ones(4),), "sections"),
    (split_unpacked_into_too_few, (np.ones(6),), "split"),
    (split_by_indices, (np.ones(6),), "split"),
]


test_unsupported_forms_are_located_errors_with_a_hint = checks.refusal_test(_REFUSED, wrt=0)


def test_check_compares_with_the_tape_sympy_and_differences():
    """``symdiff.check`` at small shapes: every column (the tape, sympy element by element,
    central differences) agrees with the generated gradient; sympy has no NaN-skipping
    reductions, so ``nan_sums`` is checked by the other two."""
    rng = np.random.default_rng(10)
    x = _separated(rng, (2, 3))
    for f, args in ((median_by_rows, (x,)), (median_whole, (x,)), (quantiles, (x,)),
                    (percentiles, (x,)), (quantiles_by_method, (x,)), (nan_sums, (x,)),
                    (crossed, (x[0], x[1])), (convolved, (x[0], x[1, :2])),
                    (correlated, (x[0, :2], x[1])), (appended, (x, x[0])),
                    (split_unevenly, (x[0],)), (split_by_sides, (_separated(rng, (2, 4)),)),
                    (depth_stacked, (x, x ** 2)), (selected_broadcast, (x, x[0]))):
        report = symdiff.check(f, args)
        assert report.ok, str(report)
        assert ("sympy: took the point" in str(report)) == (f is not nan_sums), str(report)


def quantiles_by_method(x):
    return np.sum(np.quantile(x, 0.4, axis=0, method="lower") ** 2) + np.percentile(
        x, 30, method="higher") * np.sum(x)


def test_quantiles_lower_and_higher_against_the_tape_and_differences():
    rng = np.random.default_rng(11)
    for shape in ((3, 4), (5, 2)):
        x = _separated(rng, shape)
        got = symdiff.grad(quantiles_by_method)(x)
        np.testing.assert_allclose(got, symdiff.tape.grad(quantiles_by_method)(x), rtol=1e-10)
        oracles.assert_along_directions(quantiles_by_method, (x,), ["x"], ("x",), (got,), rng,
                                        checks.scale(quantiles_by_method, (x,)))


def test_quantiles_at_ties_follow_the_stable_sort_as_the_tape_does():
    """At tied elements a quantile's gradient goes by the places NumPy's stable sort gives
    them (the first of the tied in the array takes the lower place), as ``np.sort``'s."""
    x = np.array([[2.0, 1.0, 2.0], [0.5, 0.5, 0.5]])
    for f in (median_whole, median_by_rows, quantiles, percentiles, quantiles_by_method):
        np.testing.assert_allclose(symdiff.grad(f)(x), symdiff.tape.grad(f)(x), rtol=1e-12)
    np.testing.assert_array_equal(symdiff.grad(lambda v: np.median(v))(x[0]), [1.0, 0.0, 0.0])
