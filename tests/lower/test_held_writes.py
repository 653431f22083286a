"""A write by index into an array a container holds (``lower.arrays.held_write``:
``q["w"][0] += v``, ``parts[1][:, 0] += g``, the adds of a gradient into its adjoints
read again): the entry read, written and set back, whether the container is a parameter
or written out here (which lowering types as numbers, the inference as arrays).  Against
finite differences (``array_oracles``); the hvp against those of the gradient; a number
indexed so is refused where it is written, located."""

import numpy as np
import pytest

import symdiff
from symdiff.frontend.kinds import kind_of
from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.pipeline import lower

try:
    import array_oracles as oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles


def entries_of_zeros(params, x):
    """The shape of a gradient of a dict of arrays: zeros, added into by index."""
    q = {"w": np.zeros_like(params["w"]), "u": np.zeros_like(params["u"])}
    q["w"][0] += x * params["u"][1]
    q["u"][1:] += params["w"][0] * np.sin(params["u"][1:])
    q["w"][-1] += np.sum(q["u"] ** 2)
    return np.sum(q["w"] ** 2) + np.sum(np.sin(q["u"])) * x


def entries_computed(params, x):
    q = {"w": params["w"] * 1.0, "u": params["u"] * 2.0}
    q["w"][0] += x * q["u"][1]
    return np.sum(q["w"] ** 2)


def columns_of_a_row(blocks, x):
    parts = [np.zeros_like(blocks[0]), np.zeros_like(blocks[1])]
    parts[1][:, 0] += np.cos(blocks[1][:, 1]) * x
    parts[0][-1] += blocks[0][0] * blocks[1][0, 0]
    return np.sum(parts[0] * parts[0]) + np.sum(np.tanh(parts[1]) * blocks[1])


def a_number_indexed(params, x):
    q = {"w": 1.0, "u": params["u"]}
    q["w"][0] = x
    return np.sum(q["u"])


def _params(rng):
    return {"w": rng.standard_normal(3), "u": rng.standard_normal(4)}


def _blocks(rng):
    return [rng.standard_normal(3), rng.standard_normal((2, 2))]


POINTS = {entries_of_zeros: _params, entries_computed: _params, columns_of_a_row: _blocks}


def test_a_held_write_reads_the_entry_writes_it_and_sets_it_back():
    rng = np.random.default_rng(0)
    program = lower(parse_function(entries_of_zeros), kinds={"params": kind_of(_params(rng))})
    body = list(ir.walk(program.body))
    sets = [s for s in body if isinstance(s, ir.SetItem) and s.container == "q"]
    assert [tuple(i.value for i in s.path) for s in sets] == [("w",), ("u",), ("w",)]
    for s in sets:  # each the array a write record made of the entry read out
        written = next(a for a in body if getattr(a, "target", None) == s.value.name)
        entry = next(a for a in body if getattr(a, "target", None) == written.args[0].name)
        assert isinstance(entry, ir.Item) and (entry.container, entry.path) == ("q", s.path)
    assert program.types["q"] == kind_of(_params(rng))


@pytest.mark.parametrize("fn", list(POINTS), ids=lambda f: f.__name__)
@pytest.mark.parametrize("seed", range(3))
def test_a_held_write_is_differentiated(fn, seed):
    rng = np.random.default_rng(seed)
    point = (POINTS[fn](rng), float(rng.standard_normal()))
    gradient = symdiff.grad(fn)(*point)
    assert oracles.gradient_failures(fn, point, gradient, seed=str(seed)) == []


@pytest.mark.parametrize("seed", range(3))
def test_the_hvp_of_held_writes_is_the_gradients_difference(seed):
    rng = np.random.default_rng(seed)
    point = (_params(rng), float(rng.standard_normal()))
    vectors = (_params(rng), float(rng.standard_normal()))
    grad, h = symdiff.grad(entries_of_zeros), 1e-4
    steps = [[leaf for _, leaf in oracles.leaves(v)] for v in vectors]

    def at(t):
        moved = oracles.along(point, [0, 1], steps, t)
        return [np.asarray(leaf) for g in grad(*moved) for _, leaf in oracles.leaves(g)]
    near = [(a - b) / (2 * h) for a, b in zip(at(h), at(-h))]
    far = [(a - b) / (4 * h) for a, b in zip(at(2 * h), at(-2 * h))]
    product = symdiff.hvp(entries_of_zeros)(*point, *vectors)
    found = [np.asarray(leaf) for p in product for _, leaf in oracles.leaves(p)]
    assert len(found) == len(near)
    for f, n, w in zip(found, near, far):
        assert np.allclose(f, (4 * n - w) / 3, rtol=1e-6, atol=1e-8)


def test_a_number_indexed_is_refused_where_it_is_written():
    rng = np.random.default_rng(0)
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(a_number_indexed)(_params(rng), 0.5)
    assert not isinstance(caught.value, symdiff.InternalError)
    assert caught.value.lineno == a_number_indexed.__code__.co_firstlineno + 2
