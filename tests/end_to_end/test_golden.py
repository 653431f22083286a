"""Golden files: the generated source of a few representative functions, reviewed in diffs.

Each ``tests/golden/<name>.py`` holds ``symdiff.source(f)`` for a function of
``golden_cases.py``.  The test regenerates the text and compares; run it with
``SYMDIFF_UPDATE_GOLDEN=1`` to rewrite the files after an intended change.
"""

import pathlib

import pytest

import golden_cases
import symdiff
from golden_files import matches_golden

GOLDEN = pathlib.Path(__file__).parent.parent / "golden"


@pytest.mark.parametrize("fn", golden_cases.CASES, ids=lambda fn: fn.__name__)
def test_generated_source_matches_golden_file(fn):
    path = GOLDEN / f"{fn.__name__}.py"
    text = symdiff.source(fn)
    matches_golden(path, text, f"the generated source of {fn.__name__}")


def test_every_golden_file_has_a_function():
    names = {fn.__name__ for fn in golden_cases.CASES}
    assert {path.stem for path in GOLDEN.glob("*.py")} <= names


@pytest.mark.parametrize("fn", golden_cases.CASES, ids=lambda fn: fn.__name__)
def test_golden_text_runs_and_matches_the_gradient(fn):
    """The stored text is a working gradient, not just a snapshot."""
    path = GOLDEN / f"{fn.__name__}.py"
    if not path.exists():
        pytest.skip("golden file not written yet")
    namespace = {"DECAY": golden_cases.DECAY}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    generated = namespace[f"grad_{fn.__name__}"]
    args = (0.7, 1.3)
    assert generated(*args) == symdiff.grad(fn)(*args)
