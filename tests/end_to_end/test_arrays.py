"""Gradients of functions over NumPy arrays: the array corpus (``corpus/arrays/``)
against the array oracles (``array_oracles``), the tape and sympy.

For every function, at every one of its points:

- it runs in plain NumPy, returns a finite scalar (a Python float or a NumPy scalar) and
  leaves its arguments as they were, bit for bit;
- ``symdiff.grad(f, wrt=...)(*point)`` either returns a gradient or raises.  Array
  support is being built, so most functions are refused today: ``REFUSED`` lists the
  cases expected to raise a ``SymdiffError`` (located: a file and a line) at some point of
  theirs, and the list only shrinks (a listed case that no longer raises fails, so it is
  removed the day it is supported; an unlisted case that raises fails).  A case raising
  anything else (a ``TypeError`` from inside generated code, an ``InternalError``), or
  whose gradient changes its arguments, is a bug of symdiff: ``KNOWN_BROKEN`` lists
  those, each with its reason, under the same rule;
- every gradient returned is checked, never skipped: its structure, shapes and dtypes,
  that none of its arrays shares memory with an argument or another of its arrays,
  directional finite differences along random directions and, for small parameters,
  entry by entry.  ``KNOWN_WRONG`` lists the cases whose returned gradient is wrong
  today, each with its reason, under the same shrink-only rule;
- the tape (``symdiff.tape.grad``) and the sympy witness, where they take arrays, agree
  with the oracles and with every returned gradient.  Until they take arrays (tried on a
  small function) those tests are skipped, saying so; ``TAPE_PENDING`` lists the cases
  the tape does not take yet, with the same shrink-only rule once it takes arrays.  The
  sympy witness is slow, so it is run at one point per case, the one holding the fewest
  numbers; ``SYMPY_REFUSED`` lists the cases it refuses there (a ``SymdiffError``), with
  why, under the same shrink-only rule, and ``SYMPY_LARGE`` the cases whose every point
  holds more numbers than the witness takes (``MAX_ELEMENTS``: checked by the tape and
  finite differences only).
"""

import math
from functools import lru_cache

import numpy as np
import pytest

import symdiff
import symdiff.tape
from symdiff.witnesses.symbolic import MAX_ELEMENTS, evaluate_grad

try:
    import array_oracles as oracles
    from corpus.arrays import ARRAY_CASES as CASES, CATEGORIES
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles as oracles
    from tests.corpus.arrays import ARRAY_CASES as CASES, CATEGORIES

REFUSED = set()  # cases symdiff refuses today with a SymdiffError (located); only shrinks

KNOWN_BROKEN = {  # case -> why symdiff raises something other than a SymdiffError
}

KNOWN_WRONG = {  # case -> why the gradient symdiff returns is wrong today
}

TAPE_PENDING = {  # case -> what the tape witness does not take yet (checked once it takes
    # arrays: a listed case the tape then differentiates rightly fails, and is removed)
    "indexing.filled_by_index": "a Value written into a plain float array (np.zeros)",
    "indexing.scattered_into_zeros": "an ArrayValue written into a plain float array",
}

SYMPY_REFUSED = {  # case -> why the sympy witness refuses its smallest point; only shrinks
    "moves.questions_in_branches": "a mask's .any() as a branch condition (a bool as a number)",
    **{f"indexing.{label}": "np.add.at is not read by the sympy witness" for label in (
        "added_at_repeats", "added_at_pairs", "added_at_in_a_loop")},
    **{f"linalg.{label}": "eigh, eigvalsh, svd and lstsq have no symbolic form in the sympy "
                          "witness" for label in (
        "gaussian_log_likelihood_by_eigh", "log_det_by_eigvalsh", "pca_reconstruction_loss",
        "least_squares_by_lstsq")},
}

SYMPY_LARGE = set()  # cases whose every point holds more than MAX_ELEMENTS numbers

EXACT = {np.float64: 1e-9, np.float32: 1e-4}  # relative, symdiff against the tape or sympy


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 90 and all(len(cases) >= 10 for cases in CATEGORIES.values())
    assert len(CASES) == sum(len(cases) for cases in CATEGORIES.values())  # labels unique


def test_the_lists_name_corpus_cases_once():
    lists = (REFUSED, set(KNOWN_BROKEN), set(KNOWN_WRONG), set(TAPE_PENDING),
             set(SYMPY_REFUSED), SYMPY_LARGE)
    assert all(names <= set(CASES) for names in lists)
    assert not (REFUSED & set(KNOWN_BROKEN)) and not (set(KNOWN_BROKEN) & set(KNOWN_WRONG))


@pytest.mark.parametrize("case_id", list(CASES))
def test_points_vary_the_shapes(case_id):
    """Several points, and where a parameter is an array, more than one shape of it (or
    one dtype and another), so a build made for one point has to serve or refuse another."""
    case = CASES[case_id]
    assert len(case.points) >= 2
    kinds = {tuple((path, np.shape(leaf), getattr(leaf, "dtype", type(leaf)))
                   for argument in point for path, leaf in oracles.leaves(argument))
             for point in case.points}
    assert len(kinds) >= 2 or not any(isinstance(leaf, np.ndarray) for argument in case.points[0]
                                      for _, leaf in oracles.leaves(argument))


# --- plain NumPy ------------------------------------------------------------------------

def frozen(value):
    """A comparable copy of a value: arrays as (dtype, shape, bytes), containers alike."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if type(value) is dict:
        return ("dict", tuple((k, frozen(v)) for k, v in value.items()))
    if type(value) in (tuple, list):
        return (type(value).__name__, tuple(frozen(v) for v in value))
    return (type(value).__name__, repr(value))


@pytest.mark.parametrize("case_id", list(CASES))
def test_runs_in_plain_numpy(case_id):
    """A finite scalar at every point, the same twice, the arguments untouched."""
    case = CASES[case_id]
    for point in case.points:
        before = frozen(point)
        with np.errstate(all="raise", under="ignore"):
            value = case.fn(*point)
        assert isinstance(value, (float, np.floating)) and not isinstance(value, np.ndarray), (
            f"{case.label} returns {type(value).__name__}")
        assert math.isfinite(value), value
        assert frozen(point) == before, f"{case.label} changed its arguments"
        assert case.fn(*point) == value


# --- symdiff today ----------------------------------------------------------------------

@lru_cache(maxsize=None)
def outcome(case_id, k):
    """("gradient", g), ("refused", SymdiffError) or ("broken", exception) at point k; a
    gradient that changed its arguments is "broken" too."""
    case = CASES[case_id]
    point = case.points[k]
    before = frozen(point)
    try:
        gradient = symdiff.grad(case.fn, wrt=case.wrt)(*point)
    except symdiff.SymdiffError as error:
        return "refused", error
    except Exception as error:  # noqa: BLE001 - a bug of symdiff, listed in KNOWN_BROKEN
        return "broken", error
    if frozen(point) != before:
        return "broken", AssertionError("the gradient changed its arguments")
    return "gradient", gradient


def outcomes(case_id):
    return [outcome(case_id, k) for k in range(len(CASES[case_id].points))]


def first_line(error):
    return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"


@pytest.mark.parametrize("case_id", list(CASES))
def test_refused_only_as_listed(case_id):
    refusals = [error for kind, error in outcomes(case_id) if kind == "refused"]
    if case_id in REFUSED:
        assert refusals, f"{case_id} is no longer refused: remove it from REFUSED"
    else:
        assert not refusals, f"{case_id} is refused: {first_line(refusals[0])}"
    for error in refusals:
        assert error.filename is not None and error.lineno is not None, (
            f"a refusal without a location: {first_line(error)}")


@pytest.mark.parametrize("case_id", list(CASES))
def test_broken_only_as_listed(case_id):
    broken = [error for kind, error in outcomes(case_id) if kind == "broken"]
    if case_id in KNOWN_BROKEN:
        assert broken, f"{case_id} no longer raises a stray exception: remove it from KNOWN_BROKEN"
    else:
        assert not broken, f"{case_id}: symdiff raises {first_line(broken[0])}"


def returned_failures(case_id):
    """Oracle failures of every gradient symdiff returned for a case, and their count."""
    case = CASES[case_id]
    failures, checked = [], 0
    for k, (kind, gradient) in enumerate(outcomes(case_id)):
        if kind == "gradient":
            checked += 1
            failures += [f"at point {k}: {f}" for f in oracles.gradient_failures(
                case.fn, case.points[k], gradient, case.wrt, case.kinky, seed=case_id)]
    return failures, checked


@pytest.mark.parametrize("case_id", list(CASES))
def test_returned_gradients_are_right(case_id):
    failures, checked = returned_failures(case_id)
    if not checked:
        listed = case_id in REFUSED or case_id in KNOWN_BROKEN
        assert listed, f"{case_id}: no gradient, and in neither REFUSED nor KNOWN_BROKEN"
        return
    if case_id in KNOWN_WRONG:
        assert failures, f"{case_id}'s gradients are right now: remove it from KNOWN_WRONG"
    else:
        assert not failures, "\n".join(failures)


# --- the witnesses ----------------------------------------------------------------------

def _probe(x, w):
    return np.sum(np.tanh(x * w))


PROBE = (np.array([0.5, -1.0, 2.0]), np.array([0.3, 0.2, -0.1]))


def _probe_gradient():
    x, w = PROBE
    g = 1.0 - np.tanh(x * w) ** 2
    return g * w, g * x


@lru_cache(maxsize=None)
def witness_refusal(name):
    """None when the witness ``name`` returns a gradient of a small array function (right
    or wrong: that is checked), else why it does not take arrays (what it raised)."""
    run = {"tape": lambda: symdiff.tape.grad(_probe)(*PROBE),
           "sympy": lambda: evaluate_grad(_probe, PROBE)}[name]
    try:
        run()
    except Exception as error:  # noqa: BLE001 - whatever it raises, it cannot take arrays
        return f"the {name} witness does not take arrays yet: {first_line(error)}"
    return None  # whatever it returns is checked, case by case


def test_a_witness_that_takes_arrays_is_right_on_the_probe():
    for name, run in (("tape", lambda: symdiff.tape.grad(_probe)(*PROBE)),
                      ("sympy", lambda: evaluate_grad(_probe, PROBE))):
        if witness_refusal(name) is None:
            got = run()
            assert not [f for g, x in zip(got, PROBE) for f in oracles.structure_failures(g, x)]
            assert all(np.allclose(g, w) for g, w in zip(got, _probe_gradient())), (name, got)


def agreement_failures(case, point, got, want, label):
    """Where ``got`` and a witness's ``want`` differ, leaf by leaf, beyond rounding."""
    indices, single = oracles.differentiated(case.fn, case.wrt)
    got, want = (oracles.per_parameter(g, len(indices), single) for g in (got, want))
    tolerance = EXACT[oracles.lowest_precision(point)]
    failures = []
    for i, g, w in zip(indices, got, want):
        for (path, g_leaf), (_, w_leaf) in zip(oracles.leaves(g), oracles.leaves(w)):
            g_leaf, w_leaf = np.asarray(g_leaf, float), np.asarray(w_leaf, float)
            scale = tolerance * (np.abs(w_leaf) + 1e-3 * max(1.0, float(np.max(np.abs(w_leaf)))))
            if g_leaf.shape != w_leaf.shape or not np.all(np.abs(g_leaf - w_leaf) <= scale):
                failures.append(f"d/d{oracles.where_text(case.params[i], path)}: "
                                f"{g_leaf.tolist()!r}, {label} {w_leaf.tolist()!r}")
    return failures


def witness_failures(case_id, name, witness, points):
    """The witness's gradient at each point against the oracles and against symdiff's."""
    case = CASES[case_id]
    failures = []
    for k in points:
        point = case.points[k]
        try:
            want = witness(case, point)
        except Exception as error:  # noqa: BLE001 - a witness that raises fails, and names why
            failures.append(f"{case_id} at point {k}: the {name} raises {first_line(error)}")
            continue
        failures += [f"{case_id} at point {k}: the {name}: {f}" for f in oracles.gradient_failures(
            case.fn, point, want, case.wrt, case.kinky, seed=case_id)]
        kind, got = outcome(case_id, k)
        if kind == "gradient" and case_id not in KNOWN_WRONG:
            failures += [f"{case_id} at point {k}: {f}"
                         for f in agreement_failures(case, point, got, want, name)]
    return failures


@pytest.mark.parametrize("category", list(CATEGORIES))
def test_the_tape_agrees(category):
    reason = witness_refusal("tape")
    if reason:
        pytest.skip(reason)
    failures = []
    for case in CATEGORIES[category]:
        case_id = f"{category}.{case.label}"
        found = witness_failures(case_id, "tape",
                                 lambda c, p: symdiff.tape.grad(c.fn, wrt=c.wrt)(*p),
                                 range(len(case.points)))
        if case_id in TAPE_PENDING:
            found = [] if found else [f"{case_id}: the tape takes it: remove it from TAPE_PENDING"]
        failures += found
    assert not failures, "\n".join(failures)


def smallest(case):
    """The index of the case's point with the fewest numbers, if the sympy witness takes
    that many, else None."""
    counts = [sum(int(np.size(leaf)) for argument in point for _, leaf in oracles.leaves(argument))
              for point in case.points]
    k = counts.index(min(counts))
    return k if counts[k] <= MAX_ELEMENTS else None


def test_sympy_large_lists_the_cases_too_large_for_the_witness():
    assert SYMPY_LARGE == {case_id for case_id, case in CASES.items() if smallest(case) is None}


@lru_cache(maxsize=None)
def sympy_at(case_id, k):
    case = CASES[case_id]
    return evaluate_grad(case.fn, case.points[k], wrt=case.wrt)


def sympy_against_the_tape(case_id, k):
    """Where the tape takes the case, its gradient and sympy's agree beyond rounding."""
    case = CASES[case_id]
    if case_id in TAPE_PENDING or witness_refusal("tape"):
        return []
    point = case.points[k]
    taped = symdiff.tape.grad(case.fn, wrt=case.wrt)(*point)
    return [f"{case_id} at point {k}: sympy against the tape: {f}"
            for f in agreement_failures(case, point, sympy_at(case_id, k), taped, "tape")]


@pytest.mark.parametrize("category", list(CATEGORIES))
def test_sympy_agrees_on_small_shapes(category):
    reason = witness_refusal("sympy")
    if reason:
        pytest.skip(reason)
    failures = []
    for case in CATEGORIES[category]:
        case_id, k = f"{category}.{case.label}", smallest(case)
        if k is None:
            continue
        if case_id in SYMPY_REFUSED:
            with pytest.raises(symdiff.SymdiffError):
                sympy_at(case_id, k)
            continue
        failures += witness_failures(case_id, "sympy", lambda c, p, at=(case_id, k): sympy_at(*at),
                                     [k])
        failures += sympy_against_the_tape(case_id, k)
    assert not failures, "\n".join(failures)
