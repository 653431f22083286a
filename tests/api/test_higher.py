"""Forward mode and higher order: jvp, jacobian, hessian, hvp and grad of grad.

Against the first-order gradient (a jvp is a directional derivative), finite
differences (Jacobians), sympy's second derivatives along the branch taken at the
point (Hessians), and one another (grad of grad, hvp, symmetry).
"""

import importlib
import math
import random
import types

import pytest
import sympy

import symdiff
from symdiff.errors import SymdiffError
from symdiff.witnesses.symbolic import symbolic as symbolic_expression

try:
    from corpus import control, straight
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import control, straight

CASES = [(f"straight.{c.label}", c) for c in straight.CASES] + [
    (f"control.{c.label}", c) for c in control.CASES]

def cases(only=lambda case: True):
    return [pytest.param(case_id, case, id=case_id) for case_id, case in CASES if only(case)]


def points(case_id, case, count):
    """Seeded points inside the case's domain, away from its edges."""
    rng = random.Random(f"higher:{case_id}")
    return [tuple(lo + (hi - lo) * (0.02 + 0.96 * rng.random()) for lo, hi in case.domain)
            for _ in range(count)]


def close(a, b, rel, scale=1.0):
    return abs(a - b) <= rel * max(scale, abs(a), abs(b))


def hessian_of(case):
    """``symdiff.hessian`` of the case, built after those of the cases before it with the
    same code (closures of one factory), in corpus order: a Hessian cached for one of
    them and wrongly reused for another (a bug once) shows up however tests are selected.
    It gives a matrix; ``symdiff.hessian`` of a function of one parameter gives a float
    (one shape rule with ``grad``), checked here."""
    for _, other in CASES:
        if other is case:
            break
        if other.fn.__code__ is case.fn.__code__:
            symdiff.hessian(other.fn)(*points("warm-up", other, 1)[0])
    hessian = symdiff.hessian(case.fn)
    if len(case.params) > 1:
        return hessian

    def as_matrix(*point):
        value = hessian(*point)
        assert isinstance(value, float), value
        return ((value,),)
    return as_matrix


# --- jvp against grad ------------------------------------------------------------------

@pytest.mark.parametrize("case_id, case", cases())
def test_jvp_matches_grad(case_id, case):
    n = len(case.params)
    forward = symdiff.jvp(case.fn)
    gradient = symdiff.grad(case.fn, wrt=tuple(range(n)))
    rng = random.Random(f"direction:{case_id}")
    for point in points(case_id, case, 3):
        direction = tuple(rng.uniform(-1.0, 1.0) for _ in range(n))
        value, tangent = forward(*point, *direction)
        terms = [g * v for g, v in zip(gradient(*point), direction)]
        expected = math.fsum(terms)
        assert close(tangent, expected, 1e-9, math.fsum(abs(t) for t in terms)), (
            f"{case_id} at {point}, v = {direction}: jvp {tangent!r}, grad . v {expected!r}")
        assert value == pytest.approx(case.fn(*point), rel=1e-12, abs=1e-300)


# --- jacobian against finite differences ---------------------------------------------------

def polar(r, t):
    return r * math.cos(t), r * math.sin(t)


def rotations(r, t):
    x, y = r, 0.5
    for k in range(3):
        x, y = x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t)
    return x, y, x * y + math.exp(0.1 * r)


def rational(a, b):
    return a * b / (1.0 + b * b)


def listed(r, t):
    return [r * t, r + t, math.exp(r) * math.sin(t)]  # a list of outputs, as a tuple


def finite_difference_jacobian(fn, point, step=1e-6):
    columns = []
    for j in range(len(point)):
        h = step * max(1.0, abs(point[j]))
        up, down = list(point), list(point)
        up[j] += h
        down[j] -= h
        high, low = fn(*up), fn(*down)
        high, low = (high, low) if isinstance(high, (tuple, list)) else ((high,), (low,))
        columns.append([(a - b) / (2 * h) for a, b in zip(high, low)])
    return [[column[i] for column in columns] for i in range(len(columns[0]))]


@pytest.mark.parametrize("fn, outputs", [(polar, 2), (rotations, 3), (rational, 1),
                                         (listed, 3)],
                         ids=["polar", "rotations", "one output", "a list of outputs"])
def test_jacobian_against_finite_differences(fn, outputs):
    jacobian = symdiff.jacobian(fn)
    for point in [(1.3, 0.4), (0.7, -2.1), (2.2, 1.0)]:
        matrix = jacobian(*point)
        assert len(matrix) == outputs and all(len(row) == 2 for row in matrix)
        estimate = finite_difference_jacobian(fn, point)
        for row, fd_row in zip(matrix, estimate):
            assert row == pytest.approx(fd_row, rel=1e-6, abs=1e-8), (point, matrix, estimate)


def test_jacobian_of_one_output_is_the_gradient():
    point = (0.9, -1.4)
    (row,) = symdiff.jacobian(rational)(*point)
    assert row == pytest.approx(symdiff.grad(rational)(*point), rel=1e-13)


# --- hessian against sympy --------------------------------------------------------------

def sympy_hessian(fn, params, point):
    """sympy's second derivatives of the expression valid around ``point`` (None where
    sympy gives no finite real number)."""
    expr = symbolic_expression(fn, at=point)
    symbols = [sympy.Symbol(name, real=True) for name in params]
    at = dict(zip(symbols, (sympy.Float(v) for v in point)))
    matrix = [[None] * len(params) for _ in params]
    for i, first in enumerate(symbols):
        derivative = sympy.diff(expr, first)
        for j in range(i, len(symbols)):
            value = sympy.diff(derivative, symbols[j]).subs(at).evalf()
            number = float(value) if value.is_real and value.is_finite else None
            matrix[i][j] = matrix[j][i] = number
    return matrix


@pytest.mark.parametrize("case_id, case", cases(lambda c: c.symbolic))
def test_hessian_matches_sympy(case_id, case):
    point = points(case_id, case, 1)[0]
    try:
        expected = sympy_hessian(case.fn, case.params, point)
    except SymdiffError as exc:
        pytest.skip(f"sympy refuses: {exc}")
    matrix = hessian_of(case)(*point)
    scale = max([1.0] + [abs(v) for row in matrix for v in row])
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            if expected[i][j] is not None:
                assert close(value, expected[i][j], 1e-8, scale), (
                    f"{case_id} at {point}: H[{i}][{j}] = {value!r}, sympy {expected[i][j]!r}")


@pytest.mark.parametrize("case_id, case", cases())
def test_hessian_is_symmetric(case_id, case):
    hessian = hessian_of(case)
    for point in points(case_id, case, 2):
        matrix = hessian(*point)
        assert len(matrix) == len(case.params)
        scale = max([1.0] + [abs(v) for row in matrix for v in row])
        for i, row in enumerate(matrix):
            for j in range(i + 1, len(row)):
                assert abs(row[j] - matrix[j][i]) <= 1e-9 * scale, (case_id, point, matrix)


# --- mixed partials, grad of grad, hvp -----------------------------------------------------

def power(x, y):
    return x ** y


def test_mixed_partials_of_power_at_zero_exponent():
    matrix = symdiff.hessian(power)(23.0, 0.0)
    assert matrix[0][1] == pytest.approx(1 / 23, rel=1e-14)
    assert matrix[1][0] == pytest.approx(1 / 23, rel=1e-14)
    assert matrix[1][1] == pytest.approx(math.log(23.0) ** 2, rel=1e-14)
    assert matrix[0][0] == 0.0  # d/dx x ** 0 is 0 everywhere
    assert symdiff.grad(symdiff.grad(power, wrt="x"), wrt="y")(23.0, 0.0) == pytest.approx(
        1 / 23, rel=1e-14)
    assert symdiff.grad(symdiff.grad(power, wrt="y"), wrt="x")(23.0, 0.0) == pytest.approx(
        1 / 23, rel=1e-14)


def loop_carried(x, y):
    t = x
    for i in range(4):
        t = t * y + math.sin(t)
    return t


def while_loop(x, y):
    n = 0
    while n < 3:
        x = x * y + 1.0
        n += 1
    return x * x


def loop_with_branch(x, y):
    for i in range(3):
        if x > y:
            y = y * x
        else:
            y = y * y
    return y


def recurrent(w, b):
    h = 0.2
    for t in range(6):
        h = math.tanh(w * h + b)
    return h * h


def series(x, y):
    total = 0.0
    term = 1.0
    for k in range(1, 8):
        term = term * x / k
        total += term * y ** 2
    return total


LOOPS = [loop_carried, while_loop, loop_with_branch, recurrent, series]


def tape_hessian(fn, point, step=1e-5):
    gradient = symdiff.tape.grad(fn, wrt=tuple(range(len(point))))
    columns = []
    for j in range(len(point)):
        h = step * max(1.0, abs(point[j]))
        up, down = list(point), list(point)
        up[j] += h
        down[j] -= h
        columns.append([(a - b) / (2 * h) for a, b in zip(gradient(*up), gradient(*down))])
    return [[column[i] for column in columns] for i in range(len(point))]


@pytest.mark.parametrize("fn", LOOPS, ids=lambda fn: fn.__name__)
def test_grad_of_grad_of_loops_agrees_with_hessian(fn):
    point = (0.6, 0.8)
    matrix = symdiff.hessian(fn)(*point)
    estimate = tape_hessian(fn, point)
    for i, name in enumerate(("x", "y") if fn is not recurrent else ("w", "b")):
        for j, other in enumerate(("x", "y") if fn is not recurrent else ("w", "b")):
            second = symdiff.grad(symdiff.grad(fn, wrt=name), wrt=other)(*point)
            assert second == pytest.approx(matrix[j][i], rel=1e-9, abs=1e-12), (name, other)
            assert second == pytest.approx(estimate[j][i], rel=1e-5, abs=1e-7), (name, other)


def test_grad_of_grad_reads_the_stack_code():
    """The gradient of a loop saves values on a stack; differentiating it again gives a
    function with a stack of its own next to the one it differentiates."""
    first = symdiff.grad(loop_carried, wrt="x")
    assert "pop()" in first.source
    second = symdiff.grad(first, wrt="x")
    assert "def grad_grad_loop_carried(x, y):" in second.source
    assert "    stack = []" in second.source and "    stack_1 = []" in second.source


@pytest.mark.parametrize("fn", LOOPS + [rational, power], ids=lambda fn: fn.__name__)
def test_hvp_is_hessian_times_vector(fn):
    rng = random.Random(fn.__name__)
    for point in [(0.6, 0.8), (1.3, 0.4)]:
        vector = (rng.uniform(-1, 1), rng.uniform(-1, 1))
        matrix = symdiff.hessian(fn)(*point)
        product = symdiff.hvp(fn)(*point, *vector)
        expected = [math.fsum(h * v for h, v in zip(row, vector)) for row in matrix]
        assert product == pytest.approx(expected, rel=1e-10, abs=1e-12)


def make_wave(a):
    def wave(x):
        return a * x + math.sin(a * x)
    return wave


def test_second_derivatives_of_closures_of_one_factory():
    """Closures share their code object; each needs its own second derivative."""
    x = 0.4
    for a in (3.0, 2.0, 3.0):
        wave = make_wave(a)
        expected = -a * a * math.sin(a * x)
        assert symdiff.hessian(wave)(x) == pytest.approx(expected, rel=1e-12)
        assert symdiff.grad(symdiff.grad(wave))(x) == pytest.approx(expected, rel=1e-12)


# --- Newton's method ---------------------------------------------------------------------

def bowl(x, y):
    return (x - 1.0) ** 2 + 2.0 * (y + 0.5) ** 2 + math.exp(0.5 * (x + y)) + 0.5 * x * y


def test_newton_method_converges():
    gradient, hessian = symdiff.grad(bowl), symdiff.hessian(bowl)
    x, y = 3.0, -2.0
    for step in range(30):
        gx, gy = gradient(x, y)
        if math.hypot(gx, gy) < 1e-13:
            break
        (a, b), (c, d) = hessian(x, y)
        det = a * d - b * c
        x, y = x - (d * gx - b * gy) / det, y - (a * gy - c * gx) / det
    assert step < 10  # quadratic convergence: a handful of steps
    assert max(map(abs, gradient(x, y))) < 1e-12
    for dx, dy in [(1e-4, 0), (-1e-4, 0), (0, 1e-4), (0, -1e-4)]:
        assert bowl(x + dx, y + dy) > bowl(x, y)


# --- the public symdiff.symbolic ----------------------------------------------------------

def test_symbolic_is_a_function_whatever_is_imported():
    """``symdiff.symbolic`` and ``symdiff.symbolic_grad`` are functions of the package: the
    sympy witness lives in ``symdiff.witnesses.symbolic``, and importing it (as check()
    does) leaves them as they are; there is no module ``symdiff.symbolic`` to rebind them."""
    import symdiff.witnesses.symbolic  # noqa: F401
    assert isinstance(symdiff.symbolic, types.FunctionType)
    assert isinstance(symdiff.symbolic_grad, types.FunctionType)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("symdiff.symbolic")
    assert symdiff.symbolic(power, at=(2.0, 3.0)) == symbolic_expression(power, at=(2.0, 3.0))
