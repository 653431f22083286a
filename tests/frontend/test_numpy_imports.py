"""NumPy under other names: code written for autograd (``import autograd.numpy as np``,
``from autograd.numpy import tanh``) reads as the NumPy it wraps, and NumPy's functions
imported by name (``from numpy import exp, sum as npsum``) are NumPy's.

The gradients are checked against autograd's own (where it is installed) and the tape;
the generated text imports NumPy only, and runs on its own: executed in a fresh
namespace, with no autograd and no symdiff in it.
"""

import numpy as np
import pytest

import symdiff
import symdiff.tape

try:
    import array_oracles as oracles
    from corpus.arrays import for_autograd, idioms
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles
    from tests.corpus.arrays import for_autograd, idioms

autograd = pytest.importorskip("autograd")

CASES = [(case, point) for case in for_autograd.CASES for point in case.points]


def _wrt_indices(case):
    return tuple(case.params.index(name) for name in case.differentiated)


@pytest.mark.parametrize("case, point", CASES, ids=lambda c: getattr(c, "label", ""))
def test_code_for_autograd_gets_autograd_s_gradient(case, point):
    got = symdiff.grad(case.fn, wrt=case.wrt)(*point)
    indices = _wrt_indices(case)
    want = autograd.grad(case.fn, indices if len(indices) > 1 else indices[0])(*point)
    got_leaves = [leaf for _, leaf in oracles.leaves(got)]
    want_leaves = [leaf for _, leaf in oracles.leaves(want)]
    assert len(got_leaves) == len(want_leaves)
    assert all(np.allclose(g, w, rtol=1e-9, atol=1e-12) for g, w in zip(got_leaves, want_leaves))


@pytest.mark.parametrize("case", for_autograd.CASES, ids=lambda c: c.label)
def test_the_text_for_autograd_code_is_numpy_and_standalone(case):
    point = case.points[0]
    text = symdiff.source(case.fn, *point, wrt=case.wrt)
    assert "autograd" not in text and "symdiff" not in text
    assert "import numpy as np" in text
    namespace = {}
    exec(compile(text, "<standalone>", "exec"), namespace)
    standalone = namespace[f"grad_{case.fn.__name__}"](*point)
    built = symdiff.grad(case.fn, wrt=case.wrt)(*point)
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(oracles.leaves(standalone),
                                                               oracles.leaves(built)))


def test_functions_imported_by_name_are_numpy_s():
    case = next(c for c in idioms.CASES if c.fn is idioms.imported_by_name)
    for point in case.points:
        got = symdiff.grad(case.fn)(*point)
        want = symdiff.tape.grad(case.fn)(*point)
        assert all(np.allclose(g, w) for g, w in zip(got, want))
    text = symdiff.source(case.fn, *case.points[0])
    assert "from numpy import exp" in text and "np.sum(x, axis=0)" in text
