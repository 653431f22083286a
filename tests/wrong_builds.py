"""A gradient built wrong on purpose, for tests that ``check`` catches it: ``built_wrong``
makes ``symdiff.api.build`` hand out gradients whose result a given ``change`` alters,
the rest as built."""

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
