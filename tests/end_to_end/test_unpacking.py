"""Unpacking whose length may not match: the gradient raises ``ValueError`` where the
function does, and agrees with the witnesses (tape, sympy, finite differences) where
it does not.

For each function and each point the function is run first: where it raises
``ValueError`` the gradient (and ``value_and_grad``) must raise it too; elsewhere the
gradient is checked by ``oracles.container_failures``.  The generated texts keep a
check of the length only where the kinds do not give it: none for a tuple whose
length matches, a bare ``raise`` for one whose length does not, an ``if`` for a list.
"""

import ast
import random

import numpy as np
import pytest

import symdiff

try:
    import array_oracles
    import oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles, oracles


def line(params, x):
    w, b = params
    return w * x * x + b


def nested(p, x):
    (w, b), c = p
    return w * x + b * c


def first_against_rest(xs):
    a, *rest = xs
    return a * sum(rest) + a * a


def ends_and_middle(xs, scale):
    a, *middle, b = xs
    return scale * a * b + sum(m * m for m in middle)


def layers_loop(layers, x):
    for w, b in layers:
        x = w * x + b
    return x


def enumerated_layers(layers, x):
    for i, (w, b) in enumerate(layers):
        x = w * x + b * (i + 1)
    return x


def sliced(params, c):
    w, b = params[1:]
    return w * b * c


def pair_of_rows(v, w):
    a, b = v
    return np.sum(a * b * w)


def _numbers(rng, count):
    return [rng.uniform(-2.0, 2.0) for _ in range(count)]


def _points(fn, rng):
    """Points of several lengths, as tuples and as lists, for ``fn``."""
    def both(values):
        return [tuple(values), list(values)]
    x = rng.uniform(0.5, 1.5)
    if fn is line:
        return [(p, x) for n in (1, 2, 3) for p in both(_numbers(rng, n))]
    if fn is nested:  # (a list holding a tuple and a number is refused: one kind a list)
        return [((inner, rng.uniform(-2.0, 2.0)), x) for n in (1, 2, 3)
                for inner in both(_numbers(rng, n))]
    if fn is first_against_rest:
        return [(p,) for n in (0, 1, 2, 4) for p in both(_numbers(rng, n))]
    if fn is ends_and_middle:
        return [(p, x) for n in (1, 2, 3, 5) for p in both(_numbers(rng, n))]
    if fn is sliced:
        return [(p, x) for n in (2, 3, 4) for p in both(_numbers(rng, n))]
    shapes = [(2, 2), (2, 3), (3, 2), (2,)]  # element lengths of two layers (or one)
    return [(layers, x) for lengths in shapes for outer in (tuple, list)
            for inner in (tuple, list) if not (outer is list and inner is tuple and len(
                set(lengths)) > 1)  # (tuples of two lengths in a list: refused, two kinds)
            for layers in [outer(inner(_numbers(rng, n)) for n in lengths)]]


FUNCTIONS = [line, nested, first_against_rest, ends_and_middle, layers_loop,
             enumerated_layers, sliced]


def _raises_value_error(fn, point):
    try:
        fn(*point)
    except ValueError:
        return True
    return False


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda fn: fn.__name__)
def test_the_gradient_raises_where_the_function_raises_and_agrees_elsewhere(fn):
    rng = random.Random(f"unpacking:{fn.__name__}")
    points = _points(fn, rng)
    raising = [p for p in points if _raises_value_error(fn, p)]
    assert raising and len(raising) < len(points)  # both sides are exercised
    gradient, valued = symdiff.grad(fn), symdiff.value_and_grad(fn)
    for point in raising:
        with pytest.raises(ValueError):
            gradient(*point)
        with pytest.raises(ValueError):
            valued(*point)
    for point in points:
        if point not in raising:
            assert oracles.container_failures(fn, [point], gradient=gradient) == [], point


def _statements(text):
    """The statements of the generated function (comments are not statements)."""
    return ast.parse(text).body[-1].body


def _has_raise(text):
    return any(isinstance(node, ast.Raise) for node in ast.walk(ast.parse(text)))


@pytest.mark.parametrize("fn, point", [
    (line, ((1.0, 2.0), 0.5)),
    (nested, (((1.0, 2.0), 3.0), 0.5)),
    (ends_and_middle, ((1.0, 2.0, 3.0), 0.5)),
    (layers_loop, ([(1.0, 2.0), (3.0, 4.0)], 0.5)),
    (layers_loop, (((1.0, 2.0), (3.0, 4.0)), 0.5)),
    (enumerated_layers, ([(1.0, 2.0), (3.0, 4.0)], 0.5)),
], ids=lambda v: getattr(v, "__name__", None) or type(v[0]).__name__)
def test_no_check_is_left_where_the_kinds_give_the_length(fn, point):
    text = symdiff.source(fn, *point)
    assert not _has_raise(text), text


@pytest.mark.parametrize("fn, point", [
    (line, ((1.0, 2.0, 3.0), 0.5)),
    (nested, (((1.0,), 3.0), 0.5)),
    (first_against_rest, ((),)),
    (ends_and_middle, ((1.0,), 0.5)),
], ids=lambda v: getattr(v, "__name__", None) or type(v[0]).__name__)
def test_a_length_the_kinds_prove_wrong_leaves_the_raise_alone(fn, point):
    statements = _statements(symdiff.source(fn, *point))
    assert len(statements) == 1 and isinstance(statements[0], ast.Raise), statements


@pytest.mark.parametrize("fn, point", [
    (line, ([1.0, 2.0], 0.5)),
    (first_against_rest, ([1.0, 2.0],)),
    (layers_loop, ([[1.0, 2.0], [3.0, 4.0]], 0.5)),
    (pair_of_rows, (np.ones(2), 1.0)),
], ids=lambda v: getattr(v, "__name__", None) or type(v[0]).__name__)
def test_a_length_read_at_run_time_is_checked(fn, point):
    text = symdiff.source(fn, *point)
    assert _has_raise(text), text


def sizes_of(X):
    n, m = X.shape
    return np.sum(X ** 2) / (n * m)


@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 3, 2)])
def test_a_shape_unpacked_is_checked_by_the_kind(shape):
    rng = np.random.default_rng(len(shape))
    point = (rng.normal(size=shape),)
    text = symdiff.source(sizes_of, *point)
    if _raises_value_error(sizes_of, point):
        assert [type(s) for s in _statements(text)] == [ast.Raise], text
        with pytest.raises(ValueError):
            symdiff.grad(sizes_of)(*point)
        return
    assert not _has_raise(text), text
    gradient = symdiff.grad(sizes_of)(*point)
    assert array_oracles.gradient_failures(sizes_of, point, gradient) == []


@pytest.mark.parametrize("shape", [(2,), (3,), (2, 3), (3, 2), (1, 4)])
def test_an_array_unpacked_by_its_rows_raises_where_numpy_does(shape):
    rng = np.random.default_rng(len(shape) * 10 + shape[0])
    point = (rng.normal(size=shape), rng.normal())
    gradient = symdiff.grad(pair_of_rows)
    if _raises_value_error(pair_of_rows, point):
        with pytest.raises(ValueError):
            gradient(*point)
        return
    assert array_oracles.gradient_failures(pair_of_rows, point, gradient(*point)) == []
