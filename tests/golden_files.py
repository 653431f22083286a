"""Golden files: a generated text compared with the one recorded beside the tests.

``matches_golden(path, text, what)`` asserts that ``text`` is the text recorded at
``path``; with ``SYMDIFF_UPDATE_GOLDEN=1`` in the environment it records ``text``
there instead (after an intended change, reviewed in the diff).
"""

import os

UPDATE = os.environ.get("SYMDIFF_UPDATE_GOLDEN") == "1"


def matches_golden(path, text, what):
    """Assert ``text`` is the recorded text at ``path`` (``what`` names it in the message),
    or record it when updating."""
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run with SYMDIFF_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), (
        f"{what} changed; review it and run with SYMDIFF_UPDATE_GOLDEN=1 to accept")
