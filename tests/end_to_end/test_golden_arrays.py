"""Golden files of generated array code: the NumPy gradient of a few representative
functions (``golden_arrays.py``), reviewed in diffs.

Each ``tests/golden/arrays/<name>.py`` holds ``symdiff.source(f, *args, wrt=...)``.  The
test regenerates the text and compares; run it with ``SYMDIFF_UPDATE_GOLDEN=1`` to
rewrite the files after an intended change.  The stored text runs on its own, with
NumPy only, and gives the gradient ``symdiff.grad`` gives.
"""

import pathlib

import numpy as np
import pytest

import golden_arrays
import symdiff
from golden_files import matches_golden

GOLDEN = pathlib.Path(__file__).parent.parent / "golden" / "arrays"
IDS = [case[0].__name__ for case in golden_arrays.CASES]


@pytest.mark.parametrize("case", golden_arrays.CASES, ids=IDS)
def test_generated_source_matches_golden_file(case):
    fn, args, wrt = case
    path = GOLDEN / f"{fn.__name__}.py"
    text = symdiff.source(fn, *args, wrt=wrt)
    matches_golden(path, text, f"the generated source of {fn.__name__}")


@pytest.mark.parametrize("case", golden_arrays.CASES, ids=IDS)
def test_golden_text_runs_alone_and_matches_the_gradient(case):
    fn, args, wrt = case
    path = GOLDEN / f"{fn.__name__}.py"
    namespace = {}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    alone = namespace[f"grad_{fn.__name__}"](*args)
    built = symdiff.grad(fn, wrt=wrt)(*args)
    flat = [(alone, built)] if not isinstance(built, (tuple, dict)) else (
        zip(alone, built) if isinstance(built, tuple) else
        [(alone[k], built[k]) for k in built])
    for mine, theirs in flat:
        assert np.array_equal(mine, theirs)


def test_array_code_is_numpy_a_person_writes():
    texts = {fn.__name__: (GOLDEN / f"{fn.__name__}.py").read_text(encoding="utf-8")
             for fn, _, _ in golden_arrays.CASES}
    assert "X.T @" in texts["logistic_loss"]
    assert "dadd_hidden.sum(axis=0)" in texts["two_layers"]
    assert "np.add.at(" in texts["softmax_cross_entropy"]
    assert "np.where(mask, " in texts["masked_squares"]
    assert "dw = np.sum(expand_dims_dm * (X - np.expand_dims(m, 0)), axis=1) / sum_w" \
        in texts["weighted_contraction"]  # what both adjoints read, computed once
    assert "mask_array_max_scores = scores == array_max_scores" in texts[
        "softmax_cross_entropy"]
    assert "np.add.at(dX, (np.arange(X.shape[0])[:, None], order)," in texts["ranked_rows"]
    assert all("symdiff" not in text for text in texts.values())
