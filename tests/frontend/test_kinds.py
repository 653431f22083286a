"""The kinds of a call's arguments (``frontend.kinds``): its doctests, and the kind of a
NumPy scalar, which a compiled gradient alone is built for."""

import doctest

import numpy as np

from symdiff.core import types as t
from symdiff.core.records import Scalar
from symdiff.frontend import kinds
from symdiff.specialized import container_kinds


def test_the_doctests_run():
    failures, tried = doctest.testmod(kinds)
    assert tried and not failures


def numbers(x, t):
    return x * t


def test_a_narrow_numpy_scalar_has_a_kind_of_its_dtype_only_for_a_compiled_build():
    assert kinds.scalar_kind(np.float32(0.5)) == Scalar("float32")
    assert kinds.scalar_kind(np.float16(0.5)) == Scalar("float16")
    for other in (0.5, np.float64(0.5), np.array(0.5, np.float32), 2, np.int32(2)):
        assert kinds.scalar_kind(other) is None, other
    assert kinds.kind_of(np.float32(0.5)) == t.FLOAT  # a float to every other build
    point = (np.float32(0.5), np.float64(2.0))
    assert container_kinds(numbers, point) == {}
    assert container_kinds(numbers, point, scalars=True) == {"x": Scalar("float32")}
    assert str(Scalar("float32")) == "np.float32"
