"""check on arrays with the sympy column: filled for small arrays (element rows and the
random directions), left out with a note past the size limit, and a wrong rule given with
``defgrad`` caught by it (sympy reads the function's code, the generated code and the
tape apply the rule).  Without points, an array function asks for points or
``example=``; with an example, random arrays of its shapes are drawn.
"""

import numpy as np
import pytest

import symdiff
from symdiff.witnesses.symbolic import MAX_ELEMENTS

RNG = np.random.default_rng(7)


def squashed(x):
    return np.tanh(x) * x


def squashed_dx_wrong(x, out):
    return np.tanh(x)  # the product rule's second term forgotten


def squashed_right(x):
    return np.tanh(x) * x


def squashed_right_dx(x, out):
    return np.tanh(x) + x * (1.0 - np.tanh(x) ** 2)


symdiff.defgrad(squashed, squashed_dx_wrong)
symdiff.defgrad(squashed_right, squashed_right_dx)


def loss(w, X):
    return np.sum(squashed(X @ w) ** 2)


def loss_right(w, X):
    return np.sum(squashed_right(X @ w) ** 2)


def layer(W, b, X):
    return np.sum(np.tanh(X @ W + b) ** 2)


def point(n=3, dtype=np.float64):
    return (RNG.standard_normal((2, 2)).astype(dtype), RNG.standard_normal(2).astype(dtype),
            RNG.standard_normal((n, 2)).astype(dtype))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_sympy_column_is_filled_for_small_arrays(dtype):
    report = symdiff.check(layer, point(dtype=dtype), wrt=("W", "b"))
    assert report.ok, str(report)
    assert report.rows and all(row.sympy is not None and row.sympy_status == "ok"
                               for row in report.rows)
    assert all("sympy" in row.witnesses for row in report.rows)
    tolerance = 1e-4 if dtype == np.float32 else 1e-8
    assert all(abs(row.sympy - row.generated) <= tolerance * (1 + abs(row.sympy))
               for row in report.rows)
    assert any(row.param == "W along v1" for row in report.rows)


def test_past_the_limit_sympy_is_left_out_with_a_note():
    big = point(n=MAX_ELEMENTS)
    report = symdiff.check(layer, big, wrt=("W", "b"))
    assert report.ok, str(report)
    assert all(row.sympy is None and "sympy" not in row.witnesses for row in report.rows)
    assert any(note.startswith("sympy not used") and str(MAX_ELEMENTS) in note
               for note in report.notes)


def test_a_wrong_rule_is_caught_by_the_sympy_column():
    w, X = RNG.standard_normal(2), RNG.standard_normal((3, 2))
    report = symdiff.check(loss, (w, X), wrt="w")
    assert not report.ok
    elements = [row for row in report.rows if row.param.startswith("w[")]
    assert elements and all("sympy differs" in row.status for row in elements), str(report)
    for row in report.rows:  # sympy reads the code: it agrees with finite differences
        assert abs(row.sympy - row.finite_difference) <= 1e-6 * (1 + abs(row.sympy))
    right = symdiff.check(loss_right, (w, X), wrt="w")
    assert right.ok and all(row.sympy is not None for row in right.rows), str(right)


def test_without_points_an_array_function_asks_for_an_example():
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.check(layer)
    assert caught.value.lineno is not None and "example=" in str(caught.value)


def test_with_an_example_random_arrays_of_its_shapes_are_drawn():
    example = point()
    report = symdiff.check(layer, example=example, wrt=("W", "b"), samples=2)
    assert report.ok, str(report)
    drawn = {id(row.point) for row in report.rows}
    assert len(drawn) == 2
    for row in report.rows:
        assert [np.shape(a) for a in row.point] == [np.shape(a) for a in example]
        assert not np.array_equal(row.point[0], example[0])
        assert np.array_equal(row.point[2], example[2])  # data kept
        assert row.sympy is not None
