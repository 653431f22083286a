"""Values lowering computes under names of its own are computed into the user's names
(``lower.user_names``), and the parts of a call read in order are written as the call
unpacked (``backend.unpacking``): the text reads as the user's code, and the gradient
is the same, checked against central differences and the tape."""

import math

import numpy as np
import pytest

import symdiff


def _polar(x):
    return math.sin(x), math.cos(x)


def unpacked_from_a_helper(x):
    s, c = _polar(x)
    return s * c + s


def swapped(x, y):
    a, b = x * y, x + y
    a, b = b, a
    return a * math.exp(b)


def carried_in_a_loop(x):
    p = 1.0
    for _ in range(4):
        p = p * x
        s, c = _polar(p)
        p = s + c
    return p


def mantissa_and_exponent(x):
    m, e = math.frexp(x)
    return m * x + e


def decomposed(A):
    w, V = np.linalg.eigh(A @ A.T)
    sign, logdet = np.linalg.slogdet(A @ A.T + np.eye(3))
    return np.sum(w ** 2) + np.sum(V[:, 0] ** 3) + logdet * sign


def _code(text):
    return [line.strip() for line in text.splitlines() if not line.strip().startswith("#")]


def test_a_helpers_values_take_the_users_names():
    code = _code(symdiff.source(unpacked_from_a_helper))
    assert "s = math.sin(x)" in code and "c = math.cos(x)" in code
    assert not any("_polar_result" in line for line in code)


def test_a_call_of_several_values_is_computed_once_unpacked():
    code = _code(symdiff.source(decomposed, np.eye(3)))
    assert "w, V = np.linalg.eigh(matmul_value)" in code
    assert sum("np.linalg.eigh(" in line for line in code) == 1
    assert any(line.startswith("sign, logdet = np.linalg.slogdet(") for line in code)
    assert "m, e = math.frexp(x)" in _code(symdiff.source(mantissa_and_exponent))


@pytest.mark.parametrize("fn, points", [
    (unpacked_from_a_helper, [(0.3,), (-1.2,)]), (swapped, [(0.4, 0.9), (-0.7, 0.2)]),
    (carried_in_a_loop, [(0.6,), (1.1,)]), (mantissa_and_exponent, [(0.75,), (3.5,)])])
def test_the_gradient_is_the_one_of_the_function(fn, points):
    report = symdiff.check(fn, *points)
    assert report.ok, report


def test_decompositions_unpacked_agree_with_differences():
    A = np.random.default_rng(4).normal(size=(3, 3))
    assert symdiff.check(decomposed, (A,)).ok
