"""A half of a function returning a pair, read by index (``lower.halves``): the half's
record, as unpacking gives it; another index is refused where the call is, located."""

import math

import numpy as np
import pytest

import symdiff


def by_index(K):
    return np.linalg.slogdet(K)[1] * np.linalg.slogdet(K)[0]


def by_unpacking(K):
    sign, logdet = np.linalg.slogdet(K)
    return logdet * sign


def mantissa(x):
    return math.frexp(x)[-2] * x


def test_an_index_reads_the_half_unpacking_gives():
    K = np.array([[2.0, 0.4], [0.1, 1.0]])
    assert np.allclose(symdiff.grad(by_index)(K), symdiff.grad(by_unpacking)(K))
    assert np.allclose(symdiff.grad(by_index)(K), np.linalg.inv(K).T)
    assert symdiff.grad(mantissa)(3.0) == pytest.approx(2 * 3.0 / 4)


def third(K):
    return np.linalg.slogdet(K)[2]


def test_another_index_is_refused_located():
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(third)(np.eye(2))
    assert caught.value.lineno == third.__code__.co_firstlineno + 1
