"""Golden files of generated vector-Jacobian products (``golden_vjp.py``), reviewed in
diffs.

Each ``tests/golden/vjp/<name>.py`` holds the text ``symdiff.vjp(f, wrt=...)`` generates
for the case's arguments.  The test regenerates the text and compares; run it with
``SYMDIFF_UPDATE_GOLDEN=1`` to rewrite the files after an intended change.  The stored
text runs on its own and gives what ``symdiff.vjp`` gives.
"""

import pathlib

import numpy as np
import pytest

import golden_vjp
import symdiff
from golden_files import matches_golden

GOLDEN = pathlib.Path(__file__).parent.parent / "golden" / "vjp"
IDS = [case[0].__name__ for case in golden_vjp.CASES]


def generated(case):
    fn, args, cotangent, wrt = case
    product = symdiff.vjp(fn, wrt=wrt)
    return product, product(*args, cotangent)


@pytest.mark.parametrize("case", golden_vjp.CASES, ids=IDS)
def test_generated_source_matches_golden_file(case):
    fn = case[0]
    path = GOLDEN / f"{fn.__name__}.py"
    text = generated(case)[0].source
    matches_golden(path, text, f"the generated source of vjp_{fn.__name__}")


def same(a, b):
    if isinstance(a, dict):
        return set(a) == set(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return np.array_equal(a, b)


@pytest.mark.parametrize("case", golden_vjp.CASES, ids=IDS)
def test_golden_text_runs_alone_and_matches_the_vjp(case):
    fn, args, cotangent, _ = case
    path = GOLDEN / f"{fn.__name__}.py"
    namespace = {}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    alone = namespace[f"vjp_{fn.__name__}"](*args, cotangent)
    assert same(alone, generated(case)[1])


def test_the_texts_start_from_the_cotangent_and_need_no_symdiff():
    texts = {fn.__name__: (GOLDEN / f"{fn.__name__}.py").read_text(encoding="utf-8")
             for fn, _, _, _ in golden_vjp.CASES}
    assert all("cotangent" in text and "symdiff" not in text for text in texts.values())
    assert "dresult = 1.0" not in "".join(texts.values())
    assert "value = list(out)" in texts["running_products"]  # the reverse pops from out
