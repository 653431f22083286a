"""The differentiated function's ``*args`` under ``jvp``, ``jacobian``, ``hessian``,
``hvp`` and ``vjp`` (issue 27): the call is the function's own (its named parameters,
then each extra argument), ``*args`` is one parameter of the results, a tuple of the
call's length, as ``grad`` gives its gradient (``(dx, (da, db))``), and its tangent and
vector are tuples of that length, given after the arguments.  Checked against central
finite differences of the function (and of its gradient, for second order) at many
points, with 0, 1 and 3 extra arguments, and against ``grad``."""
import math
import random

import numpy as np
import pytest

import symdiff
from symdiff import grad


def scaled_sum(x, *args):
    return x * sum(args)


def mixed(*xs):
    return xs[0] * math.sin(xs[1]) + xs[0] * xs[1] * xs[1]


def loops_over_rest(x, *rest):
    s = x
    for r in rest:
        s = s * r + math.cos(r)
    return s * (len(rest) + 1)


def pair_of(x, *rest):
    return x * sum(rest), math.exp(x) * len(rest)


def weighs_arrays(w, *xs):
    return np.sum(w * xs[0]) * np.sum(np.sin(xs[1]))


# (function, the number of its named parameters, the numbers of extra arguments)
FUNCTIONS = [(scaled_sum, 1, (0, 1, 3)), (mixed, 0, (2, 3)), (loops_over_rest, 1, (0, 1, 3))]
CASES = [pytest.param(fn, named, count, id=f"{fn.__name__}-{count}")
         for fn, named, counts in FUNCTIONS for count in counts]
H = 1e-5


def _points(count, seed):
    rng = random.Random(f"{seed}:{count}")
    return [tuple(rng.uniform(-1.5, 1.5) for _ in range(count)) for _ in range(6)]


def _structured(flat, named):
    """One number per argument laid out as the entry points lay out ``*args``: one per
    named parameter, then the tuple of the extra ones (bare when there are no named ones)."""
    return tuple(flat) if not named else (*flat[:named], tuple(flat[named:]))


def _flat(value):
    if isinstance(value, tuple):
        return [n for v in value for n in _flat(v)]
    return [value]


def _moved(point, direction, t):
    return tuple(p + t * d for p, d in zip(point, direction))


def _derivative(fn, point, direction):
    """The derivative of ``fn`` at ``point`` along ``direction`` (central differences,
    a number or a flat list for a function giving several)."""
    up, down = fn(*_moved(point, direction, H)), fn(*_moved(point, direction, -H))
    if isinstance(up, tuple):
        return [(u - d) / (2 * H) for u, d in zip(_flat(up), _flat(down))]
    return (up - down) / (2 * H)


def _unit(count, i):
    return tuple(1.0 if j == i else 0.0 for j in range(count))


@pytest.mark.parametrize("fn, named, count", CASES)
def test_jvp_along_random_directions_agrees_with_finite_differences(fn, named, count):
    rng = random.Random(f"jvp:{fn.__name__}:{count}")
    forward = symdiff.jvp(fn)
    for point in _points(named + count, "jvp"):
        direction = tuple(rng.uniform(-1.0, 1.0) for _ in point)
        tangents = _structured(direction, named)
        value, tangent = forward(*point, *(tangents if named else (tangents,)))
        assert value == pytest.approx(fn(*point), rel=1e-14, abs=1e-14)
        assert tangent == pytest.approx(_derivative(fn, point, direction), rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("fn, named, count", CASES)
def test_jacobian_is_the_gradient_laid_out_by_parameter(fn, named, count):
    for point in _points(named + count, "jacobian"):
        got, gradient = symdiff.jacobian(fn)(*point), grad(fn)(*point)
        assert _shape(got) == _shape(gradient)
        assert _flat(got) == pytest.approx(_flat(gradient), rel=1e-13, abs=1e-14)
        want = [_derivative(fn, point, _unit(len(point), i)) for i in range(len(point))]
        assert _flat(got) == pytest.approx(want, rel=1e-6, abs=1e-8)


def _gradient_flat(fn, named):
    """``grad(fn)`` as one flat tuple of numbers (one per argument), for differencing."""
    differentiated = grad(fn)
    return lambda *point: tuple(_flat(differentiated(*point)))


@pytest.mark.parametrize("fn, named, count", CASES)
def test_hessian_agrees_with_finite_differences_of_the_gradient(fn, named, count):
    gradient = _gradient_flat(fn, named)
    for point in _points(named + count, "hessian"):
        got = symdiff.hessian(fn)(*point)
        size = len(point)
        columns = [_derivative(gradient, point, _unit(size, j)) for j in range(size)]
        want = _blocks([[columns[j][i] for j in range(size)] for i in range(size)], named)
        assert _shape(got) == _shape(want)
        assert _flat(got) == pytest.approx(_flat(want), rel=1e-5, abs=1e-7)


def _blocks(matrix, named):
    """The Hessian ``matrix`` (one row and column per argument) laid out by parameter:
    ``H[i][j]`` for the named ones and the tuple of ``*args``, whose blocks are tuples
    (of tuples, by itself); the block of ``*args`` by itself alone for none named."""
    size = len(matrix)
    groups = list(range(named)) + [tuple(range(named, size))]

    def block(row, column):
        if isinstance(row, tuple):
            return tuple(block(r, column) for r in row)
        if isinstance(column, tuple):
            return tuple(block(row, c) for c in column)
        return matrix[row][column]
    if not named:
        return block(groups[0], groups[0])
    return tuple(tuple(block(row, column) for column in groups) for row in groups)


def _shape(value):
    return tuple(_shape(v) for v in value) if isinstance(value, tuple) else None


@pytest.mark.parametrize("fn, named, count", CASES)
def test_hvp_is_the_derivative_of_the_gradient_along_the_vector(fn, named, count):
    rng = random.Random(f"hvp:{fn.__name__}:{count}")
    gradient = _gradient_flat(fn, named)
    for point in _points(named + count, "hvp"):
        vector = tuple(rng.uniform(-1.0, 1.0) for _ in point)
        vectors = _structured(vector, named)
        got = symdiff.hvp(fn)(*point, *(vectors if named else (vectors,)))
        assert _shape(got) == _shape(grad(fn)(*point))
        assert _flat(got) == pytest.approx(_derivative(gradient, point, vector), rel=1e-5,
                                           abs=1e-7)


@pytest.mark.parametrize("fn, named, count", CASES + [
    pytest.param(pair_of, 1, 2, id="pair_of-2"), pytest.param(pair_of, 1, 0, id="pair_of-0")])
def test_vjp_agrees_with_finite_differences_along_random_directions(fn, named, count):
    rng = random.Random(f"vjp:{fn.__name__}:{count}")
    product = symdiff.vjp(fn)
    for point in _points(named + count, "vjp"):
        value = fn(*point)
        cotangent = tuple(rng.uniform(-1, 1) for _ in value) if isinstance(
            value, tuple) else rng.uniform(-1, 1)
        got_value, gradient = product(*point, cotangent)
        assert got_value == pytest.approx(value, rel=1e-14, abs=1e-14)
        assert _shape(gradient) == _shape(_structured(point, named))
        direction = tuple(rng.uniform(-1.0, 1.0) for _ in point)
        along = _derivative(fn, point, direction)
        want = sum(c * a for c, a in zip(cotangent, along)) if isinstance(
            value, tuple) else cotangent * along
        inner = sum(g * d for g, d in zip(_flat(gradient), direction))
        assert inner == pytest.approx(want, rel=1e-6, abs=1e-8)


def test_vjp_of_one_number_is_value_and_grad():
    for point in _points(4, "value_and_grad"):
        value, gradient = symdiff.value_and_grad(loops_over_rest)(*point)
        assert symdiff.vjp(loops_over_rest)(*point, 1.0) == (value, gradient)


def test_the_generated_functions_take_the_tuple_before_the_tangents():
    forward = symdiff.jvp(scaled_sum)
    forward(1.0, 2.0, 3.0, 1.0, (0.0, 0.0))
    assert forward.source.startswith("def jvp_scaled_sum(x, args, dx, dargs):")
    product = symdiff.vjp(scaled_sum)
    product(1.0, 2.0, 3.0, 1.0)
    assert product.source.startswith("def vjp_scaled_sum(x, args, cotangent):")
    assert "def grad_scaled_sum(x, *args):" in symdiff.source(scaled_sum, 1.0, 2.0)


def test_a_tangent_of_another_length_than_the_extra_arguments_is_a_type_error():
    with pytest.raises(TypeError, match="tangent of args"):
        symdiff.jvp(scaled_sum)(1.0, 2.0, 3.0, 1.0, (1.0,))
    with pytest.raises(TypeError, match="cotangent"):
        symdiff.vjp(pair_of)(1.0, 2.0, 0.5)


def test_wrt_names_the_extra_arguments_alone():
    point = (0.7, -0.4, 1.3)
    assert symdiff.hessian(loops_over_rest, wrt="rest")(*point) == symdiff.hessian(
        loops_over_rest)(*point)[1][1]
    _, tangent = symdiff.jvp(loops_over_rest, wrt="rest")(*point, (1.0, 0.0))
    assert tangent == pytest.approx(grad(loops_over_rest)(*point)[1][0], rel=1e-12)
    _, gradient = symdiff.vjp(loops_over_rest, wrt="rest")(*point, 1.0)
    assert gradient == pytest.approx(grad(loops_over_rest, wrt="rest")(*point), rel=1e-12)


def test_extra_arguments_of_arrays_under_jvp_and_hvp():
    rng = np.random.default_rng(27)
    for _ in range(4):
        w, a, b = (rng.normal(size=3) for _ in range(3))
        dw, da, db = (rng.normal(size=3) for _ in range(3))
        value, tangent = symdiff.jvp(weighs_arrays)(w, a, b, dw, (da, db))
        assert value == pytest.approx(weighs_arrays(w, a, b), rel=1e-13)
        want = (weighs_arrays(w + H * dw, a + H * da, b + H * db)
                - weighs_arrays(w - H * dw, a - H * da, b - H * db)) / (2 * H)
        assert tangent == pytest.approx(want, rel=1e-6, abs=1e-8)
        product = symdiff.hvp(weighs_arrays)(w, a, b, dw, (da, db))
        differentiated = grad(weighs_arrays)
        up, down = (differentiated(w + s * dw, a + s * da, b + s * db) for s in (H, -H))
        assert np.allclose(product[0], (up[0] - down[0]) / (2 * H), rtol=1e-5, atol=1e-7)
        for got, hi, lo in zip(product[1], up[1], down[1]):
            assert np.allclose(got, (hi - lo) / (2 * H), rtol=1e-5, atol=1e-7)
