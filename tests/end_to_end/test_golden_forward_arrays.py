"""Golden files of generated forward-mode array code: the ``jvp`` text of the functions
of ``golden_arrays.py``, reviewed in diffs.

Each ``tests/golden/forward_arrays/<name>.py`` holds the text ``symdiff.jvp(f, wrt=...)``
builds for the kinds of the case's arguments.  The test regenerates it and compares;
run it with ``SYMDIFF_UPDATE_GOLDEN=1`` to rewrite the files after an intended change.
The stored text runs on its own, with NumPy only, and gives what ``symdiff.jvp`` gives.
"""

import pathlib

import numpy as np
import pytest

import golden_arrays
import symdiff
from golden_files import matches_golden
from symdiff.api import build
from symdiff.specialized import container_kinds

GOLDEN = pathlib.Path(__file__).parent.parent / "golden" / "forward_arrays"
IDS = [case[0].__name__ for case in golden_arrays.CASES]


def _text(fn, args, wrt):
    return build(fn, wrt, mode="forward", kinds=container_kinds(fn, args)).source


def _tangents(fn, args, wrt):
    """Ones of the shape of each differentiated parameter (the case's ``wrt``)."""
    names = list(fn.__code__.co_varnames[:fn.__code__.co_argcount])
    chosen = names if wrt is None else [wrt] if isinstance(wrt, str) else list(wrt)

    def ones(value):
        if isinstance(value, dict):
            return {k: ones(v) for k, v in value.items()}
        return np.ones_like(value) if isinstance(value, np.ndarray) else 1.0
    return [ones(args[names.index(name)]) for name in chosen]


@pytest.mark.parametrize("case", golden_arrays.CASES, ids=IDS)
def test_generated_forward_source_matches_golden_file(case):
    fn, args, wrt = case
    path = GOLDEN / f"{fn.__name__}.py"
    text = _text(fn, args, wrt)
    matches_golden(path, text, f"the generated forward source of {fn.__name__}")


@pytest.mark.parametrize("case", golden_arrays.CASES, ids=IDS)
def test_golden_forward_text_runs_alone_and_matches_jvp(case):
    fn, args, wrt = case
    path = GOLDEN / f"{fn.__name__}.py"
    namespace = {}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    tangents = _tangents(fn, args, wrt)
    alone = namespace[f"jvp_{fn.__name__}"](*args, *tangents)
    built = symdiff.jvp(fn, wrt=wrt)(*args, *tangents)
    assert alone == built


def test_forward_array_code_is_numpy_a_person_writes():
    texts = {fn.__name__: (GOLDEN / f"{fn.__name__}.py").read_text(encoding="utf-8")
             for fn, _, _ in golden_arrays.CASES}
    assert "dmatmul_result = X @ dw" in texts["logistic_loss"]
    assert "dparams_W1 = dparams['W1']" in texts["two_layers"]
    assert "dmatmul_h = dW @ h + W @ dh" in texts["recurrence"]
    assert "np.where(mask, dsub_result, 0.0)" in texts["masked_squares"]
    assert "dnew_1[1:-1] = dadd_new_1" in texts["smoothed"]
    assert "np.average(dX, axis=0, weights=w)" in texts["weighted_contraction"]
    assert "dfirst = np.broadcast_to(dX_part, X.shape)" in texts["ranked_rows"]
