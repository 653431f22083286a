"""The array spellings of the numba target (``backend.numba_arrays``,
``backend.numba_statements``): each NumPy call numba lacks, written as calls it compiles.

Each is checked on the text it writes, on the forms it leaves alone (axes not known, an
argument read twice), and by evaluating the call and its spelling with NumPy on seeded
arrays: the same values (bit for bit, but a sum taken one axis at a time, which is
within a few last bits).  The corpus tests (``tests/end_to_end/test_numba_arrays.py``)
compile them with numba.
"""

import ast

import pytest

import symdiff
from symdiff.backend.numba_arrays import ARRAY_SPELLINGS
from symdiff.backend.numba_spellings import _Spelling
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.optimize import walk

np = pytest.importorskip("numpy")
try:
    import numba
except ImportError:
    numba = None
needs_numba = pytest.mark.skipif(  # a build with jit="numba" compiles it
    numba is None, reason="jit='numba' needs numba: pip install -e '.[test,numba]'")

TYPES = {"X": t.Array("float64", 2), "A": t.Array("float64", 3), "x": t.Array("float64", 1),
         "C": t.Array("float64", 2, (1,)), "g": t.Array("float64", 2)}


def spelled(text, types=TYPES):
    names = _Spelling({}, {}, "np", "math", types)

    def visit(node):
        for spelling in ARRAY_SPELLINGS:
            written = spelling(node, names)
            if written is not None:
                return written
        return node

    node = ex.from_ast(ast.parse(text, mode="eval").body)
    return ast.unparse(ex.to_ast(walk.transform(node, visit)))


def test_a_reduction_along_axes_kept_is_one_numba_compiles():
    assert spelled("np.sum(g, axis=1, keepdims=True)") == (
        "np.expand_dims(np.sum(g, axis=1), 1)")
    assert spelled("np.mean(A, axis=(0, 2))") == (
        "np.sum(np.sum(A, axis=2), axis=0) / (A.shape[0] * A.shape[2])")
    assert spelled("np.max(X, axis=-1, keepdims=True)") == (
        "np.expand_dims(np.array([np.max(X[k]) for k in range(X.shape[0])]), 1)")
    assert spelled("np.min(X, axis=0)") == (
        "np.array([np.min(X[:, k]) for k in range(X.shape[1])])")
    assert spelled("np.expand_dims(g, (0, 2))") == "np.expand_dims(np.expand_dims(g, 0), 2)"


def test_joins_squeezes_differences_and_flips():
    assert spelled("np.concatenate([x, x * 2.0], axis=0)") == (
        "np.concatenate((x, x * 2.0), axis=0)")
    assert spelled("np.stack([x, x], axis=1)") == "np.stack((x, x), axis=1)"
    assert spelled("np.squeeze(C, axis=1)") == "C[:, 0]"
    assert spelled("np.diff(X, axis=0)") == "X[1:] - X[:-1]"
    assert spelled("np.diff(X, axis=1)") == "X[:, 1:] - X[:, :-1]"
    assert spelled("np.flip(g, 1)") == "g[:, ::-1]"


@pytest.mark.parametrize("text", [
    "np.sum(g, axis=k, keepdims=True)",  # an axis known only when it runs
    "np.max(Y, axis=-1)",  # the ndim of Y is not known: where -1 is
    "np.max(X * 2.0, axis=1)",  # a matrix computed: read row by row, computed again
    "np.max(A, axis=1)",  # three axes
    "np.mean(X * 2.0, axis=0)",  # its count reads the argument again
    "np.squeeze(Y)",
])
def test_what_it_cannot_spell_is_left_as_written(text):
    assert spelled(text) == text


CASES = ["np.sum(g, axis=1, keepdims=True)", "np.mean(A, axis=(0, 2))",
         "np.mean(A, axis=1, keepdims=True)", "np.max(X, axis=-1, keepdims=True)",
         "np.min(X, axis=0)", "np.prod(X, axis=1)", "np.expand_dims(g, (0, 2))",
         "np.concatenate([x, x * 2.0])", "np.squeeze(C, axis=1)", "np.diff(X, axis=0)",
         "np.diff(A, axis=2)", "np.flip(g, 1)", "np.flip(A, 0)"]


@pytest.mark.parametrize("text", CASES)
def test_a_spelling_gives_numpys_values(text):
    rng = np.random.default_rng(3)
    for rows in (1, 2, 5):
        scope = {"np": np, "X": rng.standard_normal((rows, 4)), "g": rng.random((rows, 3)),
                 "A": rng.standard_normal((2, rows, 3)), "x": rng.standard_normal(rows),
                 "C": rng.standard_normal((rows, 1))}
        scope["X"][0, :2] = 0.5  # ties
        want, got = eval(text, scope), eval(spelled(text), scope)
        assert got.shape == want.shape and got.dtype == want.dtype, (text, got, want)
        if "sum" in text or "mean" in text:
            assert np.allclose(got, want, rtol=1e-15, atol=0), text
        else:
            assert got.tobytes() == want.tobytes(), text


def scattered(x, idx):
    return np.sum(x[idx] ** 2)


def padded_differences(x):
    return np.sum(np.diff(x) ** 2)


@needs_numba
def test_add_at_is_a_loop_and_pad_an_array_of_zeros_filled():
    x, idx = np.linspace(-1.0, 1.0, 5), np.array([0, 3, 3, 1, 0])
    text = symdiff.source(scattered, x, idx, wrt="x", jit="numba")
    assert "np.add.at" not in text and "for k in range(idx.shape[0]):" in text, text
    assert "dx[idx[k]] += dx_values[k]" in text, text
    text = symdiff.source(padded_differences, x, jit="numba")
    assert "np.pad" not in text and "np.zeros((ddiff_result.shape[0] + 1,)" in text, text
    assert "padded[1:1 + ddiff_result.shape[0]] = ddiff_result" in text, text
