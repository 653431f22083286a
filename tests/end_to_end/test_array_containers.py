"""Arrays inside lists, tuples and dicts, end to end.  The corpus
(``corpus/arrays/containers.py``) is a category of the array corpus, so its gradients
are checked by ``test_arrays.py`` with every other array function: against the tape,
finite differences along random directions, entry by entry for small parameters, sympy
on small shapes, for structure, dtype and aliasing; forward mode by
``test_forward_arrays.py``, which reads every category (its ``FORWARD_REFUSED`` lists the
containers of arrays built in the function, which forward mode does not read yet).  Here:

- the gradient's text: a list of per-step arrays joined by ``np.stack`` is joined by
  ``np.stack`` in the gradient, and each element's adjoint is an array of its own,
  zeros of its shape, taking its part of the join's adjoint;
- a reduction of a container written out in the call (``sum([x, y * x])``,
  ``max([a, b])``, of numbers or arrays) against the tape and finite differences.
"""

import math

import numpy as np
import pytest

import symdiff
import symdiff.tape

try:
    import array_oracles as oracles
    from corpus.arrays import containers as corpus
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles
    from tests.corpus.arrays import containers as corpus

CASES = {case.label: case for case in corpus.CASES}


def test_the_corpus_holds_enough_functions():
    assert len(CASES) == len(corpus.CASES) >= 17  # labels unique


def test_a_stacked_list_is_stacked_and_each_element_takes_its_part():
    point = CASES["stacked_states"].points[0]
    text = symdiff.source(corpus.stacked_states, *point)
    assert "np.stack(states)" in text
    assert "dstates = [np.zeros_like(item) for item in states]" in text
    assert "    for i in range(len(states)):\n        dstates[i] += dS[i]\n" in text
    assert "[np.full_like" not in text  # never one array for every element


def test_every_element_of_a_summed_list_gets_an_array_of_its_own():
    x, y = np.ones(3), np.ones(3)
    dx, dy = symdiff.grad(corpus.summed_pair)(x, y)
    assert not np.shares_memory(dx, dy)
    dx += 1.0  # a caller changing one changes nothing else
    assert np.allclose(dy, np.cos(2.0))


def reductions_written_out(a, b):
    return max([a, b * 2.0]) + min((a, b)) + math.fsum([a, b]) + sum((a * b, b), 1.0)


def sum_of_arrays_written_out(x, y):
    return np.sum(np.sin(sum([x, y * x])))


@pytest.mark.parametrize("fn, point", [
    (reductions_written_out, (1.0, 2.0)), (reductions_written_out, (-0.5, 0.7)),
    (sum_of_arrays_written_out, (np.linspace(-1.0, 1.0, 3), np.linspace(0.5, 2.0, 3))),
], ids=["numbers", "numbers_other_branch", "arrays"])
def test_a_reduction_of_a_container_written_out_reads_it(fn, point):
    got = symdiff.grad(fn)(*point)
    want = symdiff.tape.grad(fn)(*point)
    for g, w in zip(got, want):
        assert np.allclose(g, w, rtol=1e-12, atol=1e-12)
    assert not oracles.gradient_failures(fn, point, got)


def slice_by_a_loop_bound(x):
    total = 0.0
    for k in range(3):
        total = total + np.sum(np.sin(x)[: k + 1] ** 2)
    return total


def slice_of_size_one_broadcast(S):
    return np.sum(np.sin(S) * S[..., :1])


def test_a_slice_by_a_loop_bound_in_a_loop():
    x = np.linspace(-1.0, 1.0, 4)
    assert not oracles.gradient_failures(slice_by_a_loop_bound, (x,),
                                         symdiff.grad(slice_by_a_loop_bound)(x))


def test_a_slice_of_size_one_that_broadcasts():
    S = np.linspace(-1.0, 1.0, 12).reshape(3, 2, 2)
    assert not oracles.gradient_failures(slice_of_size_one_broadcast, (S,),
                                         symdiff.grad(slice_of_size_one_broadcast)(S))
