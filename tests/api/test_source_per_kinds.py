"""``symdiff.source(g, *args)`` of a gradient ``g`` generated per kind of its arguments.

It is the text ``g`` generates for arguments of those kinds, with ``g``'s own ``wrt`` and
options: the text ``g.source`` shows after ``g(*args)``, and the text
``symdiff.source(f, *args, wrt=...)`` gives of the function with the same options.
Asking for it builds (or finds) that text and changes nothing a call of ``g`` runs or
shows.
"""

import math

import numpy as np
import pytest

import symdiff
from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.specialized import Specialized
from tests.corpus import objects


def horner(x, coeffs):
    s = 0.0
    for c in coeffs:
        s = s * x + c
    return s


def model(params, data):
    total = 0.0
    for x, y in data:
        guess = params["w"][0] * x + params["w"][1] * x ** 2 + params["b"]
        total += (guess - y) ** 2
    return total / len(data)


def layer(W, b, x):
    return np.sum(np.tanh(W @ x + b) ** 2)


def keyed(x, data):
    return sum(v * math.sin(x) for v in data.values())


CASES = [
    (horner, None, (0.5, [1.0, 2.0, 3.0])),
    (horner, "coeffs", (0.5, (1.0, 2.0))),
    (model, "params", ({"w": [0.5, -0.2], "b": 0.1}, [(1.0, 2.0), (0.5, -1.0)])),
    (layer, ("W", "b"), (np.ones((2, 3)) * 0.3, np.zeros(2), np.arange(3.0))),
    (objects.network, None, (objects.Net([objects.Layer(0.5, 0.1)], 2.0), 1.5)),
    (objects.mixture_density, None, (objects.Mixture([0.3, 0.7], [-0.5, 0.8]), 0.1)),
]
IDS = ["list", "tuple by wrt", "dict", "arrays", "dataclass of namedtuples", "dataclass of lists"]


@pytest.mark.parametrize("fn, wrt, args", CASES, ids=IDS)
@pytest.mark.parametrize("entry", [symdiff.grad, symdiff.value_and_grad],
                         ids=["grad", "value_and_grad"])
def test_the_text_for_the_arguments_is_the_one_a_call_builds(fn, wrt, args, entry):
    g = entry(fn, wrt=wrt)
    assert isinstance(g, Specialized)
    text = symdiff.source(g, *args)
    g(*args)
    assert text == g.source
    if entry is symdiff.grad:
        assert text == symdiff.source(fn, *args, wrt=wrt)


def test_asking_for_another_kinds_text_leaves_the_last_call_as_it_is():
    g = symdiff.grad(horner)
    g(0.5, [1.0, 2.0])
    listed = g.source
    paired = symdiff.source(g, 0.5, (1.0, 2.0))  # a tuple of two: another build
    assert paired != listed and paired == symdiff.source(horner, 0.5, (1.0, 2.0))
    assert g.source == listed
    assert g(0.5, [1.0, 2.0]) == symdiff.tape.grad(horner)(0.5, [1.0, 2.0])
    g(0.5, (1.0, 2.0))
    assert g.source == paired


def test_without_arguments_it_is_the_last_call_text_or_says_how_to_get_one():
    g = symdiff.grad(model, wrt="params")
    with pytest.raises(SymdiffError, match="symdiff.source"):
        symdiff.source(g)
    args = CASES[2][2]
    g(*args)
    assert symdiff.source(g) == g.source == symdiff.source(g, *args)


def test_a_gradient_of_a_gradient_per_kind_gives_its_own_text():
    twice = symdiff.grad(symdiff.grad(keyed, wrt="x"), wrt="x")
    args = (0.7, {"a": 1.0, "b": 3.0})
    text = symdiff.source(twice, *args)
    assert "def grad_grad_keyed" in text
    twice(*args)
    assert text == twice.source


@pytest.mark.parametrize("options", [{"wrt": "x"}, {"optimize": False}, {"jit": "numba"}],
                         ids=["wrt", "optimize", "jit"])
def test_options_of_another_build_are_refused_at_the_function(options):
    g = symdiff.grad(horner, wrt="coeffs")
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.source(g, 0.5, [1.0, 2.0], **options)
    error = caught.value
    assert (error.filename, error.lineno) == (horner.__code__.co_filename,
                                              horner.__code__.co_firstlineno)
    way_out = symdiff.source(horner, 0.5, [1.0, 2.0], **{"wrt": "coeffs", **options}) if (
        "jit" not in options) else None
    assert way_out is None or "def grad_horner" in way_out
