"""``symdiff.vjp``: its calling convention, its generated text, and what it refuses.

The numbers themselves are checked against the tape and finite differences on a corpus
in ``tests/end_to_end/test_vjp.py``; here, what a caller sees: ``vjp_f(*args,
cotangent) -> (value, gradient)`` with defaults filled in and keywords taken, the
gradient shaped as ``grad``'s, ``f.source`` showing ``vjp_f``, a cotangent of the wrong
structure refused, an unsupported result refused at the user's line, and a build per
kind of the arguments, not per size.
"""

import math
import pickle

import numpy as np
import pytest

import symdiff
from symdiff.errors import SymdiffError


def polar(r, theta):
    return r * math.cos(theta), r * math.sin(theta)


def scaled(x, k=2.0):
    return {"x": x * k, "x2": x * x}


def step(params, x):
    new = {"w": params["w"] - 0.5 * x * params["w"], "b": params["b"] * x}
    return new


def layer(W, x):
    return np.tanh(W @ x)


def picked(x, y):
    if x > y:
        return [x, y]
    return [y, x]


def as_text(x):
    return "x"


def keyword_scaled(x, *, k=2.0):
    return x * k, x


def energy(x, y):
    return x * x * y + math.sin(x * y)


def changed_in_a_list(x, y):
    out = [x, y]
    out[0] = out[0] * out[1]
    return out


def read_after_append(x):
    ys = []
    ys.append(x * 2.0)
    ys.append(ys[0] + 1.0)
    return ys


def changed_in_names(x, y):
    first = x * y
    return [first, y]


def test_the_cotangent_comes_last_and_the_value_first():
    r, theta = 1.5, 0.3
    value, (dr, dtheta) = symdiff.vjp(polar)(r, theta, (2.0, -1.0))
    assert value == polar(r, theta)
    assert math.isclose(dr, 2.0 * math.cos(theta) - math.sin(theta))
    assert math.isclose(dtheta, -2.0 * r * math.sin(theta) - r * math.cos(theta))


def test_one_parameter_in_wrt_is_bare_and_several_a_tuple():
    dr = symdiff.vjp(polar, wrt="r")(1.5, 0.3, (1.0, 0.0))[1]
    assert isinstance(dr, float) and math.isclose(dr, math.cos(0.3))
    both = symdiff.vjp(polar, wrt=("theta", "r"))(1.5, 0.3, (1.0, 0.0))[1]
    assert isinstance(both, tuple) and math.isclose(both[1], math.cos(0.3))


def test_defaults_are_filled_in_and_keywords_taken():
    product = symdiff.vjp(scaled)
    cotangent = {"x": 1.0, "x2": 0.5}
    left_out = product(3.0, cotangent)
    named = product(3.0, cotangent, k=2.0)
    given = product(3.0, 2.0, cotangent)
    assert left_out == named == given
    assert left_out[0] == {"x": 6.0, "x2": 9.0}
    assert left_out[1] == (2.0 + 0.5 * 6.0, 3.0)


def test_keyword_only_parameters_stay_keyword_only():
    product = symdiff.vjp(keyword_scaled)
    assert "def vjp_keyword_scaled(x, cotangent, *, k=2.0):" in product.source
    assert product(1.5, (1.0, 1.0)) == ((3.0, 1.5), 3.0)
    assert product(1.5, (1.0, 1.0), k=3.0) == ((4.5, 1.5), 4.0)


def test_the_vjp_of_a_gradient_is_a_hessian_vector_product():
    value, product = symdiff.vjp(symdiff.grad(energy))(1.0, 2.0, (1.0, 0.5))
    assert value == symdiff.grad(energy)(1.0, 2.0)
    want = symdiff.hvp(energy)(1.0, 2.0, 1.0, 0.5)  # the Hessian is symmetric
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(product, want))


def test_a_container_parameter_gets_a_gradient_of_its_structure():
    params = {"w": 0.5, "b": -0.2}
    new, (dparams, dx) = symdiff.vjp(step)(params, 1.5, {"w": 1.0, "b": 2.0})
    assert new == step(params, 1.5)
    assert set(dparams) == {"w", "b"}
    assert math.isclose(dparams["w"], 1.0 - 0.5 * 1.5)
    assert math.isclose(dparams["b"], 2.0 * 1.5)
    assert math.isclose(dx, -0.5 * 0.5 + 2.0 * -0.2)


def test_the_source_shows_the_generated_vjp():
    product = symdiff.vjp(polar)
    text = product.source
    assert text.startswith("import math") and "def vjp_polar(r, theta, cotangent):" in text
    assert "1.0" not in text  # seeded by the cotangent, not by one


def test_an_array_result_is_built_per_kind_not_per_size():
    product = symdiff.vjp(layer)
    with pytest.raises(SymdiffError, match="not been called yet"):
        product.source
    rng = np.random.default_rng(0)
    W, x = rng.normal(size=(3, 4)), rng.normal(size=4)
    ct = rng.normal(size=3)
    value, (dW, dx) = product(W, x, ct)
    first = product.source
    assert "def vjp_layer(W, x, cotangent):" in first
    assert np.allclose(value, layer(W, x)) and dW.shape == W.shape and dx.shape == x.shape
    product(rng.normal(size=(5, 2)), rng.normal(size=2), rng.normal(size=5))
    assert product.source is first  # a new size: the same build


def test_an_array_passed_to_a_function_of_numbers_builds_for_arrays():
    product = symdiff.vjp(scaled)  # nothing in its text says it takes arrays
    x = np.array([1.0, 2.0])
    value, (dx, dk) = product(x, {"x": np.ones(2), "x2": np.ones(2)})
    assert np.allclose(dx, 2.0 + 2 * x) and math.isclose(dk, 3.0)


def test_the_cotangent_is_not_changed():
    rng = np.random.default_rng(1)
    W, x = rng.normal(size=(3, 4)), rng.normal(size=4)
    ct = rng.normal(size=3)
    kept = ct.copy()
    symdiff.vjp(layer)(W, x, ct)
    assert np.array_equal(ct, kept)


@pytest.mark.parametrize("cotangent, says", [
    ((1.0,), "a tuple or list of 2 entries"),
    ({"a": 1.0, "b": 2.0}, "is not a tuple or list"),
    ((1.0, np.ones(3)), "is a ndarray at \\[1\\]"),
])
def test_a_cotangent_of_another_structure_is_refused(cotangent, says):
    with pytest.raises(TypeError, match=says):
        symdiff.vjp(polar)(1.5, 0.3, cotangent)


def test_a_cotangent_of_another_shape_is_refused():
    W, x = np.ones((3, 4)), np.ones(4)
    with pytest.raises(TypeError, match=r"has shape \(\), the result \(3,\)"):
        symdiff.vjp(layer)(W, x, 1.0)


def test_no_cotangent_is_refused():
    with pytest.raises(TypeError, match="followed by a cotangent"):
        symdiff.vjp(polar)()


def test_a_container_returned_from_a_branch_is_refused_at_its_line():
    with pytest.raises(SymdiffError) as caught:
        symdiff.vjp(picked)
    error = caught.value
    assert error.filename == __file__ and error.lineno == picked.__code__.co_firstlineno + 2
    assert "returned from inside a branch" in str(error)


def test_a_result_that_is_not_a_number_or_container_is_refused():
    with pytest.raises(SymdiffError) as caught:
        symdiff.vjp(as_text)
    assert caught.value.filename == __file__


def test_arrays_read_back_from_a_list_built_here_are_followed_as_names_are():
    x, y = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    ct = [np.array([1.0, 0.5]), np.array([-1.0, 2.0])]
    for fn in (changed_in_a_list, changed_in_names):  # the list's element types: arrays
        value, (dx, dy) = symdiff.vjp(fn)(x, y, ct)
        assert np.allclose(value[0], x * y) and np.allclose(dx, ct[0] * y)
        assert np.allclose(dy, ct[0] * x + ct[1])


def test_an_array_appended_and_read_back_is_followed():
    ct = [np.array([1.0, 0.5]), np.array([-1.0, 2.0])]
    value, dx = symdiff.vjp(read_after_append)(np.ones(2), ct)
    assert np.allclose(value[1], 3.0) and np.allclose(dx, 2.0 * ct[0] + 2.0 * ct[1])


def test_grad_still_refuses_a_container_result():
    with pytest.raises(SymdiffError, match="a gradient is taken of a function returning one"):
        symdiff.grad(polar)


def test_it_pickles_by_reference_and_is_exported():
    product = symdiff.vjp(polar)
    again = pickle.loads(pickle.dumps(product))
    assert again(1.5, 0.3, (1.0, 1.0)) == product(1.5, 0.3, (1.0, 1.0))
    assert "vjp" in symdiff.__all__ and symdiff.vjp.__module__ == "symdiff.vjp"
