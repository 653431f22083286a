"""The tape's ufuncs on arrays (``symdiff.witnesses.tape.array_ufuncs``): every one the
tape differentiates, on several shapes, and every two-argument one under each broadcasting
pattern, checked against central finite differences along random directions."""

import zlib

import pytest

from symdiff.witnesses.tape.array_ufuncs import _BINARY, _SELECTIONS, _UNARY

from .array_checks import check_grad, check_vjp, tape_vjp

np = pytest.importorskip("numpy")
special = pytest.importorskip("scipy.special")

SHAPES = [(5,), (3, 4), (2, 3, 2)]


def _inputs(name, shape, rng):
    """Points inside each function's domain, away from its kinks."""
    x = rng.uniform(0.2, 0.8, size=shape)
    if name in ("arccosh",):
        return 1.0 + x
    if name in ("absolute", "fabs", "sign"):
        return np.where(rng.random(shape) < 0.5, -x, x)
    if name in ("sin", "cos", "tan", "tanh", "sinh", "cosh", "exp", "arctan", "square",
                "negative", "positive", "cbrt", "arcsinh", "erf", "erfc", "ndtr",
                "log_ndtr", "expit", "exp2", "expm1", "degrees", "radians", "rad2deg",
                "deg2rad"):
        return 2.0 * x - 1.0 + 0.05
    return x


def _function(name):
    return getattr(np, name, None) or getattr(special, name)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("name", sorted(_UNARY))
def test_unary_vjp(name, shape):
    rng = np.random.default_rng(zlib.crc32(repr((name, shape)).encode()))
    ufunc = _function(name)
    check_vjp(lambda x: ufunc(x), (_inputs(name, shape, rng),))


PATTERNS = [((3, 4), (4,)), ((3, 4), (3, 1)), ((3, 4), (1, 4)), ((3, 4), ()),
            ((4,), (3, 4)), ((3, 1), (1, 4)), ((2, 3, 4), (3, 1)), ((3, 4), (3, 4))]


def _pair(name, shapes, rng):
    a = rng.uniform(0.5, 1.5, size=shapes[0])
    b = rng.uniform(0.5, 1.5, size=shapes[1])
    if name in ("subtract", "maximum", "minimum", "fmax", "fmin", "add", "multiply",
                "arctan2", "hypot", "logaddexp", "logaddexp2", "copysign"):
        a, b = 2.0 * a - 2.0, 2.0 * b - 2.0
    if name in ("remainder", "fmod"):
        a = a * 3.0 + 0.3
    if name == "zeta":  # zeta(s, x) of s > 1 (SciPy's is nan below)
        a = a + 1.0
    return a, b


@pytest.mark.parametrize("shapes", PATTERNS, ids=str)
@pytest.mark.parametrize("name", sorted(set(_BINARY) | set(_SELECTIONS)))
def test_binary_vjp_under_broadcasting(name, shapes):
    rng = np.random.default_rng(zlib.crc32(repr((name, shapes)).encode()))
    ufunc = _function(name)
    wrt = (1,) if name == "zeta" else (0, 1)  # (SciPy's zeta(s, x): no derivative in s)
    check_vjp(lambda a, b: ufunc(a, b), _pair(name, shapes, rng), wrt=wrt)


@pytest.mark.parametrize("shapes", PATTERNS, ids=str)
@pytest.mark.parametrize("op", ["+", "-", "*", "/", "**"])
def test_operators_both_sides(op, shapes):
    rng = np.random.default_rng(len(op) + len(shapes[1]))
    a, b = rng.uniform(0.5, 1.5, size=shapes[0]), rng.uniform(0.5, 1.5, size=shapes[1])
    f = eval(f"lambda a, b: a {op} b")
    check_vjp(f, (a, b), wrt=(0, 1))
    check_vjp(f, (a, b), wrt=(0,))      # b plain data on the right
    check_vjp(f, (a, b), wrt=(1,))      # a plain data on the left


@pytest.mark.parametrize("number", [2.0, 3, np.float64(0.5)], ids=["float", "int", "float64"])
def test_a_number_on_either_side(number):
    x = np.random.default_rng(1).uniform(0.5, 1.5, size=(3, 2))
    check_vjp(lambda x: number * x - x / number + number ** x + x ** number - (-x), (x,))


def test_a_scalar_value_meets_an_array():
    """A Value (a parameter float) broadcast against arrays: its VJP is the sum."""
    rng = np.random.default_rng(2)
    x, s = rng.normal(size=(3, 4)), 0.7
    check_vjp(lambda x, s: np.tanh(s * x) + x / (1.0 + s * s), (x, s), wrt=(0, 1))
    check_vjp(lambda x, s: np.maximum(x, s) + np.power(s, np.abs(x)), (x, s), wrt=(0, 1))
    check_grad(lambda x, s: np.sum(np.exp(x * s)) * s, (x, s), wrt=(0, 1))


def test_the_selections_pass_the_gradient_to_the_argument_returned():
    """On a tie the first argument gets it all, as the scalar tape's ``np.maximum``."""
    x, g = np.array([-1.0, 0.0, 2.0]), np.array([0.3, -0.7, 1.1])
    (vjp,) = tape_vjp(lambda x: np.maximum(x, 0.0), (x,), (0,), g)
    assert np.array_equal(vjp, np.where(x >= 0.0, g, 0.0))
    (vjp,) = tape_vjp(lambda x: np.maximum(0.0, x), (x,), (0,), g)
    assert np.array_equal(vjp, np.where(x > 0.0, g, 0.0))


def test_the_flat_ufuncs_and_the_tests_give_plain_arrays():
    from symdiff.witnesses.tape.arrays import ArrayValue
    x = ArrayValue(np.array([-1.5, 0.5, 2.0]))
    for result in (np.floor(x), np.sign(x), np.isnan(x), x > 0, x == x, np.less(x, 1.0)):
        assert type(result) is np.ndarray
    assert (x > 0).dtype == bool


def test_float32_parameters_give_float32_gradients():
    x = np.random.default_rng(3).normal(size=(4,)).astype(np.float32)
    grad = check_grad(lambda x: np.sum(np.sin(x) * x), (x,), wrt=(0,), rtol=1e-3, atol=1e-4)
    assert grad[0].dtype == np.float32


def test_every_numpy_function_of_the_scalar_tape_has_an_array_version():
    from symdiff.witnesses.tape.array_functions import functions
    from symdiff.witnesses.tape.array_ufuncs import ufunc_table
    from symdiff.witnesses.tape.numpy_stand_ins import numpy_stand_ins
    from symdiff.witnesses.tape.scipy_functions import special_stand_ins
    arrays = set(ufunc_table()) | {f.__name__ for f in functions(np)}
    missing = [name for name in [*numpy_stand_ins(np), *special_stand_ins(special)]
               if name not in arrays]
    assert not missing
