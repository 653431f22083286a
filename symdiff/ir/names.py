"""One generator of names for everything symdiff writes into generated code.

It reserves every identifier of the user's code first, so a generated name never
collides with a user's, whatever the user called things (``dx``, ``t1``,
``stack``, ``grad_f``).  Names are handed out deterministically.
"""

import keyword

from symdiff.errors import InternalError
from symdiff.primitives.registry import builtins_called

# the builtins generated code calls: its loops' and those the registry's texts call (``round``
# in the rules of rint, remainder and the helpers of ``special``)
BUILTINS = ("range", "reversed") + builtins_called()


class Namer:
    def __init__(self, reserved=()):
        self._taken = set(reserved)  # the user's identifiers and every name issued
        self._issued = set()  # names already written into generated code
        self._counters = {}

    def claim(self, name):
        """Issue ``name`` exactly: one of the user's own names, or a fixed one like ``math``."""
        check_identifier(name)
        if name in self._issued:
            raise InternalError("names", f"{name!r} issued twice")
        self._taken.add(name)
        self._issued.add(name)
        return name

    def is_issued(self, name):
        return name in self._issued

    def fresh(self, base):
        """``base`` if free, else ``base_1``, ``base_2``, ... — never a taken name."""
        check_identifier(base)
        if base not in self._taken:
            self._taken.add(base)
            self._issued.add(base)
            return base
        n = self._counters.get(base, 0)
        while True:
            n += 1
            candidate = f"{base}_{n}"
            if candidate not in self._taken:
                self._counters[base] = n
                self._taken.add(candidate)
                self._issued.add(candidate)
                return candidate

    def is_taken(self, name):
        return name in self._taken

    @property
    def taken(self):
        return set(self._taken)


def check_identifier(name):
    """Only a plain identifier may ever reach generated text."""
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
        raise InternalError("names", f"{name!r} is not a valid identifier")
    return name
