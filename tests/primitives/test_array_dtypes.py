"""The ``dtype=x.dtype`` keyword of ``np.sum``, ``np.mean`` and ``np.eye``
(``primitives.array_dtypes``, ``lower.dtypes``): the result takes the other array's
dtype from its type, the array named is never differentiated, a dtype written another
way is refused, located."""

import numpy as np
import pytest

import symdiff
from symdiff.core import types as t
from symdiff.errors import SymdiffError
from symdiff.primitives.array_dtypes import DTYPED, like_op, like_position
from symdiff.primitives.registry import rule_of


def test_the_result_has_the_dtype_of_the_array_named():
    record = rule_of("array_sum_like")
    mask, like = t.Array("bool", 2, ()), t.Array("float32", 1, ())
    at = like_position(rule_of("array_sum"))
    kinds = (mask, like, t.INT, t.BOOL)
    assert at == 1
    assert record.array_result(kinds, (None, None, 1, True)) == t.Array("float32", 2, (1,))
    assert record.array_result((mask, t.FLOAT, t.INT, t.BOOL), (None, None, 1, True)) is None


@pytest.mark.parametrize("op", DTYPED)
def test_the_array_named_has_no_derivative_and_the_others_keep_theirs(op):
    record, base = rule_of(like_op(op)), rule_of(op)
    at = like_position(base)
    assert record.params == base.params[:at] + ("like",) + base.params[at:]
    kinds = (t.Array("float64", 2, ()),) * len(record.params)
    out = t.Array("float64", 2, ())
    vjps = record.array_vjp(kinds, out)
    assert vjps[at] is None and len(vjps) == len(record.params)
    assert [b is None for b in vjps[:at] + vjps[at + 1:]] == [
        b is None for b in base.array_vjp(kinds[:-1], out)]


def counts_in_float32(x):
    k = np.sum(x > 0.0, dtype=x.dtype)
    return k * np.sum(x ** 2)


def test_a_count_in_the_parameters_dtype_keeps_the_gradient_in_it():
    x = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    got = symdiff.grad(counts_in_float32)(x)
    assert got.dtype == np.float32 and np.allclose(got, 2 * 2 * x)
    assert symdiff.tape.grad(counts_in_float32)(x).dtype == np.float32


def by_a_constant_dtype(x):
    return np.sum(x ** 2, dtype=np.int64)  # (an integer dtype: data, no derivative)


def of_max(x):
    return np.max(x ** 2, dtype=x.dtype)


def made_and_summed_in_constant_dtypes(x):
    z = np.zeros(x.shape[0], dtype=float) + np.array([1.0, 2.0, 3.0], dtype=np.float32)
    return np.sum(x * z, dtype=np.float32) + np.mean(x ** 2, dtype="float64")


def test_a_constant_float_dtype_is_a_cast_of_the_operand_or_of_the_array_made():
    for dtype in (np.float64, np.float32):
        x = np.array([0.5, -1.0, 2.0], dtype=dtype)
        got = symdiff.grad(made_and_summed_in_constant_dtypes)(x)
        want = symdiff.tape.grad(made_and_summed_in_constant_dtypes)(x)
        assert got.dtype == dtype and np.allclose(got, want, rtol=1e-6)
        assert np.allclose(got, np.array([1.0, 2.0, 3.0]) + 2.0 * x / 3.0, rtol=1e-6)
    source = symdiff.source(made_and_summed_in_constant_dtypes, np.ones(3))
    code = [line for line in source.splitlines() if not line.strip().startswith("#")]
    assert any(".astype(np.float32)" in line for line in code)  # the cast the dtype is
    assert not any("dtype=" in line for line in code)  # zeros of float64 are NumPy's own


@pytest.mark.parametrize("f", [by_a_constant_dtype, of_max])
def test_a_dtype_written_otherwise_or_of_an_operation_without_one_is_refused(f):
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(f)(np.ones(3))
    assert caught.value.lineno == f.__code__.co_firstlineno + 1
