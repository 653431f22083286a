"""Loops over containers whose elements differ in kind, lowered once per element.

The gradients are checked against finite differences (``array_oracles``) and the tape;
here also what the generated code keeps a loop (alike elements, an early exit) and what
it writes once per element (unlike ones, as many as the kinds hold).
"""

import numpy as np
import pytest

import symdiff
from symdiff.errors import UnsupportedSyntaxError

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles


def norms_of_a_list(arrays, scale):
    total = 0.0
    for a in arrays:
        total = total + scale * np.sum(a ** 2) / a.size
    return total


def enumerated_unlike(arrays):
    total = 0.0
    for i, a in enumerate(arrays):
        total = total + (i + 1.0) * np.sum(np.sin(a))
    return total


def penalty_by_key(params):
    total = 0.0
    for k in params:
        total = total + np.sum(params[k] ** 2)
    return total


def sorted_keys_and_values(params, x):
    out = x
    for k in sorted(params):
        out = np.tanh(out * np.sum(params[k]))
    return np.sum(out) + sum(np.sum(v) for v in params.values())


def unlike_layers(layers, x):
    h = x
    for W in layers:
        h = np.tanh(h @ W)
    return np.sum(h)


def zipped_layers(Ws, bs, x):
    h = x
    for W, b in zip(Ws, bs):
        h = np.tanh(W @ h + b)
    return np.sum(h)


def reversed_layers(Ws, x):
    h = x
    for W in reversed(Ws):
        h = np.tanh(W @ h)
    return np.sum(h)


def stopped_early(arrays):
    total = 0.0
    for a in arrays:
        if np.sum(a) > 100.0:
            break
        total = total + np.sum(a)
    return total


_RNG = np.random.default_rng(25)
UNLIKE = [_RNG.standard_normal(3), _RNG.standard_normal((2, 2))]
ALIKE = [_RNG.standard_normal(3), _RNG.standard_normal(3)]
PARAMS = {"w": _RNG.standard_normal(3), "b": np.array(0.4), "M": _RNG.standard_normal((2, 3))}

CASES = [(norms_of_a_list, (UNLIKE, 0.7)), (norms_of_a_list, (ALIKE, -1.3)),
         (enumerated_unlike, (UNLIKE,)), (penalty_by_key, (PARAMS,)),
         (sorted_keys_and_values, (PARAMS, _RNG.standard_normal(2))),
         (unlike_layers, ([_RNG.standard_normal((3, 4)), _RNG.standard_normal((4, 1))],
                          _RNG.standard_normal((2, 3)))),
         (zipped_layers, ([_RNG.standard_normal((4, 3)), _RNG.standard_normal((2, 4))],
                          [_RNG.standard_normal(4), _RNG.standard_normal(2)],
                          _RNG.standard_normal(3))),
         (reversed_layers, ([_RNG.standard_normal((2, 4)), _RNG.standard_normal((4, 3))],
                            _RNG.standard_normal(3)))]


@pytest.mark.parametrize("fn, point", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradients_agree_with_the_witnesses(fn, point):
    gradient = symdiff.grad(fn)(*point)
    assert oracles.gradient_failures(fn, point, gradient, seed="unrolled") == []
    taped = symdiff.tape.grad(fn)(*point)
    for ours, theirs in zip(oracles.leaves(gradient), oracles.leaves(taped)):
        assert np.allclose(ours[1], theirs[1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("fn, point", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_jvp_is_the_gradient_along_a_direction(fn, point):
    directions = [oracles.rebuilt(p, lambda path, v: np.cos(np.asarray(v) + 1.0) if isinstance(
        v, np.ndarray) else 0.3) for p in point]
    value, tangent = symdiff.jvp(fn)(*point, *directions)
    gradient = symdiff.grad(fn)(*point)
    gradient = gradient if len(point) > 1 else (gradient,)
    expected = sum(float(np.sum(g * d)) for grads, along in zip(gradient, directions)
                   for (_, g), (_, d) in zip(oracles.leaves(grads), oracles.leaves(along)))
    assert np.isclose(value, fn(*point), rtol=1e-12)
    assert np.isclose(tangent, expected, rtol=1e-9, atol=1e-12)


def _source(fn, *point):
    return symdiff.source(fn, *point)


def test_unlike_elements_are_read_once_each_and_alike_ones_stay_a_loop():
    def code(text):  # the comments quote the user's loop
        return "\n".join(line for line in text.splitlines() if not line.strip().startswith("#"))
    unrolled = code(_source(norms_of_a_list, UNLIKE, 0.7))
    assert "for " not in unrolled
    assert "arrays[0]" in unrolled and "arrays[1]" in unrolled
    assert "for " in code(_source(norms_of_a_list, ALIKE, 0.7))
    keyed = _source(penalty_by_key, PARAMS)
    assert all(f"params[{k!r}]" in keyed for k in PARAMS)


def test_a_loop_that_leaves_early_is_not_unrolled():
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(stopped_early)(UNLIKE)
    assert caught.value.lineno is not None and "differ in kind" in str(caught.value)
