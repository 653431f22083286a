"""The records ``average`` (``array_averages``), ``broadcast_to`` (``array_shapes``),
``tensordot`` (``array_tensordot``) and ``take_along_axis`` (``array_moves``), through
``symdiff.grad``, ``symdiff.jvp`` and ``symdiff.hessian`` on small functions using them.

Each gradient is checked as autograd's ``check_vjp`` does: for random directions ``v``
(seeded), ``<grad, v>`` against a central difference of the function itself, run by
NumPy, at random points of several shapes; each JVP against the same difference along
random tangents; each Hessian, times ``v``, against a central difference of the
gradient; each gradient against the tape's (``symdiff.tape.grad``, whose derivatives
are its own).  A form the records do not take is a located ``SymdiffError``.
"""


import numpy as np
import pytest

import symdiff

try:
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import record_checks as checks


# --- the functions (each uses the records under test) ------------------------------------

def mean_by_average(x):
    return np.average(x) * np.sum(x) + np.sum(np.average(x, axis=0) ** 2)


def weighted_rows(x, w):
    return np.sum(np.average(x, axis=0, weights=w) ** 2)


def weighted_columns(x, w):
    return np.sum(np.tanh(np.average(x, axis=-1, weights=w)))


def weighted_whole(x, w):
    return np.average(x, weights=w) ** 2 + np.sum(np.average(x, axis=1, weights=w) ** 3)


def averaged_axes(x):
    return np.sum(np.average(x, axis=(0, 2)) ** 2)


def broadcast_sizes(x):
    return np.sum(np.broadcast_to(x, (3, x.shape[0])) ** 2 * np.arange(3.0)[:, None])


def broadcast_shape_of(b, y):
    return np.sum(np.sin(np.broadcast_to(b, y.shape)) * y ** 2)


def broadcast_number(s, x):
    return np.sum(np.broadcast_to(s * 2.0, x.shape) * x)


def contracted_once(a, b):
    return np.sum(np.tanh(np.tensordot(a, b, axes=1)))


def contracted_pairs(a, b):
    return np.sum(np.tensordot(a, b, axes=([1], [0])) ** 2) + np.tensordot(a, a) * 0.5


def contracted_out_of_order(a, c):
    return np.sum(np.tensordot(a, c, axes=((0, 2), (2, 0))) ** 3)


def outer_by_tensordot(x, y):
    return np.sum(np.tensordot(x, y, axes=0) ** 2)


def sorted_rows(x):
    order = np.argsort(x, axis=1)
    return np.sum(np.take_along_axis(x, order, axis=1) * np.arange(x.shape[1]))


def gathered(x, idx):
    return np.sum(np.take_along_axis(x, idx, axis=0) ** 3) + np.sum(
        np.take_along_axis(x.T, idx.T, -1) ** 2)


def gathered_flat(v, idx):
    return np.sum(np.take_along_axis(v, idx, axis=None) ** 3)


def _positive(rng, *shape):
    return rng.uniform(0.5, 1.5, size=shape)


def _cases(rng):
    """(function, arguments) of every case, the arguments drawn from ``rng``."""
    normal = rng.normal
    cases = []
    for shape in ((3, 4), (1, 4), (4, 1), (2, 3)):
        x = normal(size=shape)
        cases += [(mean_by_average, (x,)),
                  (weighted_rows, (x, _positive(rng, shape[0]))),
                  (weighted_columns, (x, _positive(rng, shape[1]))),
                  (weighted_whole, (x, _positive(rng, *shape))),
                  (broadcast_shape_of, (normal(size=(shape[0], 1)), normal(size=shape))),
                  (contracted_once, (x, normal(size=(shape[1], 2)))),
                  (contracted_pairs, (x, normal(size=(shape[1], 3)))),
                  (sorted_rows, (x,)),
                  (gathered, (x, rng.integers(0, shape[0], size=(5, shape[1]))))]
    cases += [(mean_by_average, (normal(size=5),)),
              (weighted_rows, (normal(size=5), _positive(rng, 5))),
              (averaged_axes, (normal(size=(2, 3, 4)),)),
              (broadcast_sizes, (normal(size=4),)), (broadcast_sizes, (normal(size=1),)),
              (broadcast_number, (float(normal()), normal(size=(2, 3)))),
              (contracted_out_of_order, (normal(size=(2, 3, 4)), normal(size=(4, 5, 2)))),
              (outer_by_tensordot, (normal(size=3), normal(size=(2, 2)))),
              (gathered_flat, (normal(size=(3, 4)), rng.integers(0, 12, size=7))),
              (gathered_flat, (normal(size=6), rng.integers(0, 6, size=9)))]
    return cases


_CASES = _cases(np.random.default_rng(20261204))


(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


_SECOND = [(weighted_rows, 1), (weighted_whole, 1), (contracted_once, 0),
           (contracted_out_of_order, 1), (sorted_rows, 0), (gathered, 0),
           (broadcast_shape_of, 0), (mean_by_average, 0)]


@pytest.mark.parametrize("case", range(len(_SECOND)))
def test_hessian_times_v_against_differences_of_the_gradient(case):
    f, at = _SECOND[case]
    args = next(a for g, a in _CASES if g is f)
    checks.hessian_along_a_direction(f, args, at, np.random.default_rng(case))


def test_float32_gradients_are_float32():
    rng = np.random.default_rng(7)
    x, w = rng.normal(size=(3, 4)).astype(np.float32), _positive(rng, 3).astype(np.float32)
    dx, dw = symdiff.grad(weighted_rows, wrt=("x", "w"))(x, w)
    assert dx.dtype == np.float32 and dw.dtype == np.float32
    b = rng.normal(size=(3, 2)).astype(np.float32)
    da, db = symdiff.grad(contracted_once, wrt=("a", "b"))(x.T, b)
    assert da.dtype == np.float32 and db.dtype == np.float32
    assert symdiff.grad(sorted_rows)(x).dtype == np.float32
    assert symdiff.grad(broadcast_sizes)(x[0]).dtype == np.float32
    dx, dw = symdiff.grad(weighted_whole, wrt=("x", "w"))(x, _positive(rng, 3, 4))
    assert dx.dtype == np.float32 and dw.dtype == np.float64  # each in its own dtype


def _text(f, *args, wrt=None):
    gradient = symdiff.grad(f, wrt=wrt)
    gradient(*args)
    return gradient.source


def test_generated_code_is_plain_numpy():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(3, 4))
    text = _text(weighted_rows, x, _positive(rng, 3), wrt=("x", "w"))
    assert "np.expand_dims(w, 1)" in text and "w.sum()" in text
    text = _text(contracted_once, x, rng.normal(size=(4, 2)), wrt=("a", "b"))
    assert "np.tensordot(dtensordot_result, b, axes=(1, 1))" in text
    assert "np.transpose" not in text
    text = _text(sorted_rows, x)
    assert "np.add.at(dx, (np.arange(x.shape[0])[:, None], order)" in text
    text = _text(broadcast_sizes, rng.normal(size=4))
    assert "np.sum(" in text and "axis=0" in text and "symdiff" not in text


def test_a_new_size_reuses_the_build():
    rng = np.random.default_rng(9)
    g = symdiff.grad(weighted_rows, wrt=("x", "w"))
    g(rng.normal(size=(3, 4)), _positive(rng, 3))
    first = g.source
    dx, dw = g(rng.normal(size=(6, 2)), _positive(rng, 6))
    assert dx.shape == (6, 2) and dw.shape == (6,) and g.source == first


# --- forms refused, located --------------------------------------------------------------

def weights_of_one_axis_without_axis(x, w):
    return np.average(x, weights=w)


def axis_read_as_the_code_runs(x):
    k = x.ndim - 1
    return np.sum(np.average(x, axis=k))


def contraction_read_as_the_code_runs(a, b):
    k = a.ndim - 1
    return np.sum(np.tensordot(a, b, axes=k))


def contraction_of_unequal_pairs(a, b):
    return np.sum(np.tensordot(a, b, axes=([0, 1], [0])))


def broadcast_to_fewer_axes(x):
    return np.sum(np.broadcast_to(x, (4,)))


def broadcast_to_a_shape_by_name(x):
    shape = x.shape
    return np.sum(np.broadcast_to(x, shape))


def taken_along_float_indices(x, idx):
    return np.sum(np.take_along_axis(x, idx, axis=0))


def taken_along_indices_of_fewer_axes(x, idx):
    return np.sum(np.take_along_axis(x, idx, axis=1))


_REFUSED = [
    (weights_of_one_axis_without_axis, (np.ones((2, 3)), np.ones(3)), "average"),
    (axis_read_as_the_code_runs, (np.ones((2, 3)),), "axis"),
    (contraction_read_as_the_code_runs, (np.ones((2, 3)), np.ones((3, 2))), "axes"),
    (contraction_of_unequal_pairs, (np.ones((2, 3)), np.ones((2, 3))), "tensordot"),
    (broadcast_to_fewer_axes, (np.ones((2, 4)),), "broadcast_to"),
    (broadcast_to_a_shape_by_name, (np.ones(3),), "broadcast_to"),
    (taken_along_float_indices, (np.ones((2, 3)), np.ones((2, 3))), "take_along_axis"),
    (taken_along_indices_of_fewer_axes, (np.ones((2, 3)), np.zeros(3, dtype=int)),
     "take_along_axis"),
]


test_unsupported_forms_are_located_errors_with_a_hint = checks.refusal_test(_REFUSED, wrt=0)


def test_check_compares_with_the_tape_sympy_and_differences():
    """``symdiff.check`` at small shapes: every column (the tape, sympy element by element,
    central differences) agrees with the generated gradient."""
    rng = np.random.default_rng(10)
    x = rng.normal(size=(2, 3))
    for f, args in ((weighted_rows, (x, _positive(rng, 2))), (sorted_rows, (x,)),
                    (contracted_pairs, (x, rng.normal(size=(3, 2)))),
                    (broadcast_shape_of, (rng.normal(size=(2, 1)), x))):
        report = symdiff.check(f, args)
        assert report.ok, str(report)
        assert "sympy: took the point" in str(report), str(report)
