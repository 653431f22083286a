"""``np.partition`` (a record of ``array_moves``) through ``symdiff.grad``, ``symdiff.jvp``,
``symdiff.hvp`` and ``symdiff.hessian``, with a ``kth`` of one place or several, along an
axis or of the flattened array.

NumPy leaves the order of the elements on either side of ``kth`` open, and
``np.argpartition`` may choose another than ``np.partition`` did, so the gradient matches
each place of the result to the element of its rank: the test below that they differ
keeps that reason in view.  Each gradient is checked against central differences along
random directions, against the tape's (which puts ``g`` back by ``np.put_along_axis`` at
the places of each rank), and each JVP against the same differences.
"""


import numpy as np
import pytest

import symdiff

try:
    import record_checks as checks
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import record_checks as checks


def weighted_partition(x):
    return np.sum(np.partition(x, 1) ** 2 * np.arange(x.shape[-1]))


def partition_along_the_first_axis(x):
    return np.sum(np.sin(np.partition(x, 2, axis=0)) * np.arange(x.shape[0])[:, None])


def partition_flat(x):
    return np.sum(np.partition(x, (0, 3), axis=None) ** 3 * np.arange(x.size))


def smallest_three(x):
    return np.sum(np.partition(x, 2)[..., :3] ** 2)


def _separated(rng, shape):
    """Values 0.1 apart or more: no step of the differences crosses a tie, where the
    partition's arrangement may change."""
    size = int(np.prod(shape))
    values = (np.arange(size) - size / 2) * 0.1 + rng.uniform(0, 0.02, size)
    return rng.permutation(values).reshape(shape)


def _cases(rng):
    cases = []
    for shape in ((7,), (3, 5), (4, 6), (2, 3, 8), (1, 4)):
        cases += [(weighted_partition, (_separated(rng, shape),)),
                  (partition_flat, (_separated(rng, shape),)),
                  (smallest_three, (_separated(rng, shape),))]
    cases += [(partition_along_the_first_axis, (_separated(rng, shape),))
              for shape in ((5, 3), (3, 4), (4, 1))]
    cases += [(weighted_partition, (_separated(rng, (300,)),))]  # (NumPy's introselect)
    return cases


_CASES = _cases(np.random.default_rng(20261210))

(test_vjp_against_finite_differences, test_gradient_agrees_with_the_tape,
 test_jvp_against_finite_differences) = checks.record_tests(_CASES)


@pytest.mark.parametrize("f", [weighted_partition, partition_along_the_first_axis])
def test_hessian_times_v_against_differences_of_the_gradient(f):
    args = next(a for g, a in _CASES if g is f)
    checks.hessian_along_a_direction(f, args, 0, np.random.default_rng(3))


def test_hvp_is_the_hessian_times_v():
    rng = np.random.default_rng(4)
    x, v = _separated(rng, (3, 5)), rng.normal(size=(3, 5))
    expected = np.tensordot(symdiff.hessian(weighted_partition)(x), v, axes=2)
    np.testing.assert_allclose(symdiff.hvp(weighted_partition)(x, v), expected, rtol=1e-9,
                               atol=1e-10)


def test_argpartition_may_order_the_elements_otherwise():
    """Why the places are matched by rank and not read from ``np.argpartition``."""
    rng = np.random.default_rng(5)
    differ = 0
    for _ in range(10):
        x = rng.normal(size=300)
        differ += not np.array_equal(np.partition(x, 100), x[np.argpartition(x, 100)])
    assert differ > 0


def test_generated_code_is_plain_numpy():
    gradient = symdiff.grad(weighted_partition)
    gradient(_separated(np.random.default_rng(6), (3, 5)))
    text = gradient.source
    assert "np.argsort(partition_result, axis=-1, kind='stable')" in "".join(
        text.replace("\n", " ").split("  "))
    assert "argpartition" not in text and "symdiff" not in text


# --- forms refused, located --------------------------------------------------------------

def partition_in_place(x):
    y = x.copy()
    y.partition(1)
    return np.sum(y)


def partition_by_a_kth_read_as_the_code_runs(x):
    k = x.shape[0] // 2
    return np.sum(np.partition(x, k) * x)


def partition_by_a_kth_from_the_end(x):
    return np.sum(np.partition(x, -1) * x)


_REFUSED = [(partition_in_place, (np.ones(4),), "partition"),
            (partition_by_a_kth_read_as_the_code_runs, (np.ones(4),), "kth"),
            (partition_by_a_kth_from_the_end, (np.ones(4),), "kth")]


test_unsupported_forms_are_located_errors_with_a_hint = checks.refusal_test(_REFUSED)


def test_check_compares_with_the_tape_and_differences():
    rng = np.random.default_rng(7)
    for f in (weighted_partition, partition_flat):
        report = symdiff.check(f, (_separated(rng, (2, 4)),))
        assert report.ok, str(report)
