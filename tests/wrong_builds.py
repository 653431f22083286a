"""A gradient built wrong on purpose, for tests that ``check`` catches it and names the
line responsible: ``built_wrong`` makes ``symdiff.api.build`` hand out gradients whose
result a given ``change`` alters, the rest as built; ``marked_line`` finds the line a
test file marks as the one to be named."""

from pathlib import Path

import symdiff.api


class Changed:
    """A built gradient whose function's result ``change`` alters (the rest as built)."""

    def __init__(self, gradient, change):
        self.gradient, self.change = gradient, change

    def __getattr__(self, name):
        return getattr(self.gradient, name)

    def function(self, *args, **kwargs):
        return self.change(self.gradient.function(*args, **kwargs))


def built_wrong(monkeypatch, change):
    """Make ``check`` build a gradient whose result ``change`` alters."""
    real = symdiff.api.build
    monkeypatch.setattr(symdiff.api, "build",
                        lambda *args, **kwargs: Changed(real(*args, **kwargs), change))


def marked_line(path, name):
    """The number of the one line of the file ``path`` that ends with ``# <call: name>``."""
    tag = "# <call: " + name + ">"
    found = [number for number, line in enumerate(Path(path).read_text().splitlines(), 1)
             if line.rstrip().endswith(tag)]
    assert len(found) == 1, f"marker {tag!r} found {len(found)} times"
    return found[0]
