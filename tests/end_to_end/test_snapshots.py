"""The generated text of every tested function, in every variant, is the recorded one.

``tests/snapshots.py`` says what is recorded; after a deliberate change to the
generated text, ``python tests/snapshots.py`` rewrites the record and the diff of
``tests/snapshots/`` shows every text that changed.
"""

import difflib

import pytest

try:
    import snapshots
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import snapshots

CURRENT = snapshots.snapshots()


@pytest.mark.parametrize("name", sorted(CURRENT))
def test_generated_text_is_the_recorded_one(name):
    recorded = (snapshots.FOLDER / name).read_text()
    if CURRENT[name] != recorded:
        diff = difflib.unified_diff(recorded.splitlines(), CURRENT[name].splitlines(),
                                    f"recorded/{name}", f"now/{name}", lineterm="", n=2)
        pytest.fail("the generated text changed (python tests/snapshots.py records it):\n"
                    + "\n".join(list(diff)[:80]))


def test_every_variant_of_every_function_is_recorded():
    for name, text in CURRENT.items():
        headers = [line for line in text.splitlines() if line.startswith("### ")]
        assert len(headers) % len(snapshots.VARIANTS) == 0, name
        assert len(headers) == len(set(headers)), f"{name}: two functions share a name"
