"""Gradients of the array corpus (``corpus/arrays``, every category) compiled with numba.

For each function, compiled for the kinds of each of its points (``jit="numba"``):

- it gives the Python gradient's result: the same structure, types, dtypes and shapes,
  and the same numbers to the last bit, or (where numba's NumPy computes its own way:
  a ufunc from the C library where NumPy has its own loops, a sum along an axis in
  order where NumPy sums pairwise, a matrix product) within ``RELATIVE`` of the result's
  largest entry, for its dtype;
- its text for numba, run by Python (no numba needed), gives the same result too: the
  spellings of what numba lacks (a reduction along an axis kept, ``np.add.at`` as a loop,
  ``np.pad`` as zeros filled, NumPy's weak numbers cast) change no value but the last
  bits of a sum taken one axis at a time;
- or numba cannot compile it, and the refusal is an ``UnsupportedSyntaxError`` at a
  line of the function's file, naming numba, never numba's traceback.  What numba still
  refuses is listed in the README ("Compiled gradients with numba").

Compiling takes 0.5-20 s a function: the default run compiles a fixed sample of
``SAMPLE`` cases; the whole corpus runs with ``SYMDIFF_SLOW=1`` (``-m slow`` selects it).
The gradients are cached by symdiff per kind signature, so each is compiled once a run.
"""

import hashlib
import os

import pytest

import symdiff
from symdiff.backend.compile import compile_module
from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.frontend.parse import parse_function
from symdiff.pipeline import generate
from symdiff.specialized import container_kinds

np = pytest.importorskip("numpy")

try:
    from corpus.arrays import ARRAY_CASES as CASES
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus.arrays import ARRAY_CASES as CASES

try:
    import numba
except ImportError:
    numba = None

needs_numba = pytest.mark.skipif(
    numba is None, reason="jit='numba' needs numba: pip install -e '.[test,numba]'")
slow = (pytest.mark.slow, pytest.mark.skipif(
    os.environ.get("SYMDIFF_SLOW") != "1",
    reason="numba compiling the whole array corpus takes minutes: run with SYMDIFF_SLOW=1"))

SAMPLE = 12
# how far numba's NumPy may take an entry, relative to the result's largest: some
# thousands of last bits in float64, some tens in float32 (grown by the cancellations
# of the derivative itself, as in tests/end_to_end/test_numba.py)
RELATIVE = {"float64": 1e-12, "float32": 1e-5}
DIFFER = {}  # case -> how the compiled gradient differs from Python's; the list only shrinks

def outcome(function, point):
    """What a call gives: its value, or the type of the exception it raises."""
    try:
        return function(*point)
    except SymdiffError:
        raise
    except Exception as error:  # the same exception is the same outcome
        return ("raises", type(error).__name__)


def structure(value):
    """The types, dtypes and shapes of a result, without its numbers."""
    if isinstance(value, (tuple, list)):
        return (type(value).__name__,) + tuple(structure(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, structure(v)) for k, v in value.items())
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        return (type(value).__name__, value.dtype.name, np.shape(value))
    return (type(value).__name__,)


def same_bits(got, want):
    if isinstance(want, (tuple, list)):
        return all(same_bits(g, w) for g, w in zip(got, want))
    if isinstance(want, dict):
        return all(same_bits(got[k], want[k]) for k in want)
    if isinstance(want, (np.ndarray, np.generic, float)):
        return np.asarray(got).tobytes() == np.asarray(want).tobytes()
    return got == want


def near(got, want):
    if isinstance(want, (tuple, list)):
        return all(near(g, w) for g, w in zip(got, want))
    if isinstance(want, dict):
        return all(near(got[k], want[k]) for k in want)
    if not isinstance(want, (np.ndarray, np.generic, float)):
        return got == want
    got, want = np.asarray(got), np.asarray(want)
    scale = float(np.max(np.abs(want), initial=0.0)) if np.all(np.isfinite(want)) else 0.0
    tolerance = RELATIVE.get(want.dtype.name, RELATIVE["float64"]) * max(scale, 1e-300)
    return bool(np.allclose(got, want, rtol=0.0, atol=tolerance, equal_nan=True))


def assert_located(refused, case):
    """A refusal names a line of the function's file, quotes it, points into it and
    says numba."""
    assert isinstance(refused, UnsupportedSyntaxError), refused
    assert refused.filename is not None and refused.lineno is not None, refused
    assert os.path.exists(refused.filename), refused
    assert refused.source_line and refused.col_offset is not None, refused
    assert "numba" in refused.message and "Traceback" not in refused.message, refused


def compiled_against_python(case_id):
    """``"exact"``, ``"close"`` or ``"refused"``: the case compiled at each of its points
    against its Python gradient (an ``AssertionError`` where they disagree)."""
    case = CASES[case_id]
    python = symdiff.grad(case.fn, wrt=case.wrt)
    found = "exact"
    try:
        outcome(python, case.points[0])
    except SymdiffError:  # refused in Python (tests/end_to_end/test_arrays: REFUSED)
        with pytest.raises(SymdiffError):
            symdiff.grad(case.fn, wrt=case.wrt, jit="numba")(*case.points[0])
        return "refused"
    try:
        compiled = symdiff.grad(case.fn, wrt=case.wrt, jit="numba")
        for point in case.points:
            want, got = outcome(python, point), outcome(compiled, point)
            assert structure(got) == structure(want), (point, structure(got),
                                                       structure(want))
            if not same_bits(got, want):
                assert near(got, want), (point, got, want)
                found = "close"
    except SymdiffError as refused:
        assert_located(refused, case)
        return "refused"
    return found


def run_as_python(built, parsed, variant):
    return compile_module(built.source, built.function.name, built.program.namespace,
                          parsed.filename, variant, built.module)


@pytest.mark.parametrize("case_id", list(CASES))
def test_the_text_for_numba_runs_as_python_with_the_python_numbers(case_id):
    """No numba here: the numba text, run by Python, is the Python text's gradient."""
    case = CASES[case_id]
    parsed = parse_function(case.fn)
    for point in case.points:
        kinds = container_kinds(case.fn, point, {})
        try:
            python = run_as_python(generate(parsed, case.wrt, kinds=kinds), parsed, "python")
        except SymdiffError:  # refused in Python (tests/end_to_end/test_arrays: REFUSED)
            with pytest.raises(SymdiffError):
                generate(parsed, case.wrt, target="numba", kinds=kinds)
            continue
        try:
            built = generate(parsed, case.wrt, target="numba", kinds=kinds)
        except SymdiffError as refused:
            assert_located(refused, case)
            continue
        as_python = run_as_python(built, parsed, "numba text")
        want, got = outcome(python, point), outcome(as_python, point)
        assert structure(got) == structure(want), (point, structure(got), structure(want))
        assert same_bits(got, want) or near(got, want), (point, got, want)


SAMPLED = sorted(CASES, key=lambda c: hashlib.sha1(c.encode()).hexdigest())[:SAMPLE]


@needs_numba
@pytest.mark.parametrize("case_id", SAMPLED)
def test_a_sample_of_the_array_corpus_compiled_gives_the_python_numbers(case_id):
    compiled_against_python(case_id)


@needs_numba
@slow[0]
@slow[1]
def test_the_whole_array_corpus_compiled_gives_the_python_numbers_or_is_refused_located():
    found, failed = {}, []
    for case_id in CASES:
        try:
            found[case_id] = compiled_against_python(case_id)
        except AssertionError as error:
            if case_id not in DIFFER:
                failed.append(f"{case_id}: {error}")
            continue
        if case_id in DIFFER:
            failed.append(f"{case_id} agrees now: take it out of DIFFER")
    assert not failed, "\n".join(failed)
    assert list(found.values()).count("refused") < len(found) / 2, found
