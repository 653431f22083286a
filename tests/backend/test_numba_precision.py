"""The numba target's casts of NumPy's weak Python numbers (``backend.numba_precision``).

NumPy 2 computes ``1.0 - t * t`` of a ``float32`` array ``t`` in ``float32`` (the Python
number takes the array's dtype); numba types ``1.0`` as a ``float64`` and widens the
result.  Checked on the text the cast writes, on where it does not cast, and, with numba,
by the compiled gradients of ``float32`` functions: the Python gradient's dtype and bits.
"""

import ast
import math

import pytest

import symdiff
from symdiff.backend.numba_precision import WEAK, combined, numbers_cast
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.ir import sweeps as sw

np = pytest.importorskip("numpy")

try:
    import numba
except ImportError:
    numba = None

needs_numba = pytest.mark.skipif(
    numba is None, reason="jit='numba' needs numba: pip install -e '.[test,numba]'")


def cast_text(lines, types, params=("x",), scalars=None):
    """The statements ``lines`` (``name = expression``) after ``numbers_cast``
    (``scalars``: the parameters passed NumPy scalars, and their dtypes)."""
    body = []
    for line in lines:
        target, _, value = line.partition(" = ")
        body.append(sw.Let(target, ex.from_ast(ast.parse(value, mode="eval").body)))
    function = sw.Function("g", tuple(params), (), None, body, types=types)
    written, uses_numpy = numbers_cast(function, "np", {"math"}, scalars)
    return [ast.unparse(ex.to_ast(s.value)) for s in written.body], uses_numpy


F32 = t.Array("float32", 1)
F64 = t.Array("float64", 1)


def test_a_python_number_meeting_a_float32_array_is_a_float32():
    text, uses = cast_text(["d = 1.0 - x * x", "e = 2 * d + np.where(d > 0, d, np.inf)"],
                           {"x": F32})
    assert text == ["np.float32(1.0) - x * x",
                    "np.float32(2) * d + np.where(d > 0, d, np.float32(np.inf))"]
    assert uses


def test_float64_arrays_and_python_numbers_alone_are_left_as_written():
    text, uses = cast_text(["d = 1.0 - x * x", "e = 2.0 * s + 1"], {"x": F64, "s": t.FLOAT},
                           params=("x", "s"))
    assert text == ["1.0 - x * x", "2.0 * s + 1"] and not uses


def test_a_name_takes_the_dtype_of_what_it_is_given():
    text, _ = cast_text(["e = x[0]", "f = e * 3.0", "n = x.shape[0]", "m = n * 2.0"],
                        {"x": F32})
    assert text == ["x[0]", "e * np.float32(3.0)", "x.shape[0]", "n * 2.0"]


def test_a_float32_passed_to_math_is_a_python_float():
    text, _ = cast_text(["u = math.sin(x[1])", "v = u * x"], {"x": F32})
    assert text == ["math.sin(float(x[1]))", "np.float32(u) * x"]  # u: a Python float


def test_the_axis_of_a_reduction_is_no_number_to_cast():
    text, _ = cast_text(["d = np.expand_dims(1.0 * x, -1)"], {"x": F32})
    assert text == ["np.expand_dims(np.float32(1.0) * x, -1)"]


def test_a_name_given_two_dtypes_is_not_known_and_not_cast():
    text, _ = cast_text(["d = x", "d = y", "e = d * 2.0"], {"x": F32, "y": F64},
                        params=("x", "y"))
    assert text[-1] == "d * 2.0"


def test_dtypes_combine_as_numpy_does():
    assert combined(WEAK, "float32") == "float32"
    assert combined("float32", "float64") == "float64"
    assert combined(WEAK, WEAK) == WEAK
    assert combined(WEAK, None) is None


def float32_model(w, x):
    z = np.tanh(w * x + 0.5)
    return np.sum(1.0 - z * z) + 2.0 * np.sum(w ** 2)


def over_float32_elements(w):
    s = 0.0
    for i in range(w.shape[0]):
        s = s + math.sin(w[i]) * 0.1 + w[i] * w[i]
    return s


@needs_numba
@pytest.mark.parametrize("fn", [float32_model, over_float32_elements])
def test_a_float32_gradient_compiled_has_the_python_dtype_and_values(fn):
    rng = np.random.default_rng(7)
    args = [rng.standard_normal(6).astype(np.float32)
            for _ in range(fn.__code__.co_argcount)]
    python = symdiff.grad(fn, wrt="w")(*args)
    compiled = symdiff.grad(fn, wrt="w", jit="numba")(*args)
    assert compiled.dtype == python.dtype == np.float32
    # numba's tanh of a float32 is the C library's, NumPy's its own: a last bit apart
    assert np.allclose(compiled, python, rtol=1e-6, atol=0)


def test_an_array_made_with_the_dtype_of_another_has_its_dtype():
    text, _ = cast_text(["e = np.eye(3, dtype=x.dtype)", "f = 2.0 * e"], {"x": F32})
    assert text == ["np.eye(3, dtype=x.dtype)", "np.float32(2.0) * e"]
    text, _ = cast_text(["e = np.zeros((3, 2), x.dtype)", "f = 2.0 * e"], {"x": F32})
    assert text == ["np.zeros((3, 2), x.dtype)", "np.float32(2.0) * e"]


def test_a_parameter_passed_a_float32_scalar_computes_in_float32():
    text, uses = cast_text(["d = 1.0 - x * x", "e = 2 * y + d", "f = math.exp(x)"],
                           {"x": t.FLOAT, "y": t.FLOAT}, params=("x", "y"),
                           scalars={"x": "float32"})
    # (y is a Python float: 2 * y is a Python number, which meets d, a float32)
    assert text == ["np.float32(1.0) - x * x", "np.float32(2 * y) + d",
                    "math.exp(float(x))"]
    assert uses


def test_a_sum_started_at_a_python_number_is_of_the_dtype_it_adds():
    """NumPy's ``s`` is a Python float, then a float32 from the first sum on; numba's has
    one type throughout: a float32 from its start."""
    text, _ = cast_text(["s = 0.0", "s = s + x * 2.0", "u = s * 3.0"], {"x": t.FLOAT},
                        scalars={"x": "float32"})
    assert text == ["np.float32(0.0)", "s + x * np.float32(2.0)", "s * np.float32(3.0)"]
    text, _ = cast_text(["s = 0.0", "s = s + x * 2.0"], {"x": F64})
    assert text == ["0.0", "s + x * 2.0"]


def rational(x, y):
    z = x * x * y - 3.0 * x / (1.0 + y * y)
    return z * z + 0.5 * y


def with_numpy(x, y):
    return np.sqrt(x * x + 2.0) * y + (x - 1) ** 2


def recurrence(x, y):
    t = x
    for _ in range(30):
        t = t * 0.999 + 0.001 * (t * y) ** 2 - t * t * 0.01
    return t


@needs_numba
@pytest.mark.parametrize("fn", [rational, with_numpy, recurrence])
def test_a_float32_scalar_compiled_gives_the_python_bits(fn):
    """A gradient of numbers given ``np.float32`` scalars computes in float32 compiled as
    in Python (NumPy's weak numbers), to the last bit; given floats, in float64."""
    python, compiled = symdiff.grad(fn), symdiff.grad(fn, jit="numba")
    rng = np.random.default_rng(3)
    for x, y in rng.uniform(-2, 2, (40, 2)):
        for point in ((np.float32(x), np.float32(y)), (np.float32(x), float(y)), (x, y)):
            want, got = python(*point), compiled(*point)
            if fn is with_numpy:  # (code of numbers returns NumPy's float32 as it is, numba
                assert [type(g) for g in got] == [type(w) for w in want], point  # a float)
            got, want = np.array(got, np.float64), np.array(want, np.float64)
            assert got.tobytes() == want.tobytes(), (point, got, want)
    point = (np.float32(0.3), np.float32(0.7))
    assert python(*point) != symdiff.grad(fn)(0.3, 0.7)  # (the point is float32's)
    assert "np.float32(" in symdiff.source(fn, *point, jit="numba")
    assert "np.float32(" not in symdiff.source(fn, *point)


def zero_d(s, t):
    return np.exp(s) * t + s ** 2


@needs_numba
def test_code_of_numbers_compiled_for_a_zero_d_array_gives_a_zero_d_array():
    python, compiled = symdiff.grad(zero_d), symdiff.grad(zero_d, jit="numba")
    for point in ((np.array(0.3), 1.5), (np.array(-0.6, np.float32), np.float32(0.5)),
                  (np.array(0.2, np.float32), 2.0), (0.4, 1.5)):
        want, got = python(*point), compiled(*point)
        assert [(type(g), np.result_type(g), np.shape(g)) for g in got] == [
            (type(w), np.result_type(w), np.shape(w)) for w in want], point
        assert np.allclose(np.array(got, float), np.array(want, float), rtol=1e-6, atol=0)


@needs_numba
def test_a_float32_call_runs_its_own_build_and_a_call_of_floats_numba_s_at_once():
    """A call of floats is numba's dispatcher's, with nothing before it; a float32 call,
    which numba has not compiled for, is sent to the build for its kinds."""
    compiled = symdiff.grad(with_numpy, jit="numba")
    point = (np.float32(0.3), np.float32(0.7))
    assert compiled(*point) == symdiff.grad(with_numpy)(*point)
    assert compiled(0.3, 0.7) == symdiff.grad(with_numpy)(0.3, 0.7)
    dispatcher = compiled.__wrapped__
    assert [tuple(map(str, s)) for s in dispatcher.signatures] == [("float64", "float64")]
