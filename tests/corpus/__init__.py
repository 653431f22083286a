"""The end-to-end corpus: plain Python functions, each with the inputs it is valid on.

``straight`` holds straight-line functions, ``control`` functions with branches and
loops.  Each module exports ``CASES``, a list of ``Case`` records:

    Case(fn, domain=((lo, hi), ...))      one open interval per positional parameter

Points sampled uniformly inside the domain are valid inputs (the function returns a
finite float without raising) and stay a few finite-difference steps away from the
edges.  ``kinky`` marks a function that is not smooth everywhere on its domain (a
branch, ``abs``, ``min``/``max``, ``floor``, a loop count that depends on an input): a
finite-difference comparison is skipped at points that lie within a step of a kink.
``symbolic=False`` marks a function too large for the sympy witness (it unrolls loops).
``points`` overrides how many random points the tests sample (for slow functions).
``bad`` lists points where the function's own input checks raise (``checks``): the
gradient must raise the same exception there, with the same message.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    fn: object
    domain: tuple
    kinky: bool = False
    symbolic: bool = True
    points: int = None
    name: str = None
    bad: tuple = ()

    def __post_init__(self):
        code = self.fn.__code__
        count = code.co_argcount
        if len(self.domain) != count:
            raise ValueError(f"{self.label}: {len(self.domain)} intervals for {count} parameters")
        for lo, hi in self.domain:
            if not lo < hi:
                raise ValueError(f"{self.label}: empty interval ({lo}, {hi})")

    @property
    def label(self):
        return self.name or self.fn.__name__

    @property
    def params(self):
        code = self.fn.__code__
        return code.co_varnames[:code.co_argcount]


def case(fn, *domain, kinky=False, symbolic=True, points=None, name=None, bad=()):
    """A ``Case`` with the intervals given positionally: ``case(f, (0, 1), (-2, 2))``."""
    return Case(fn, tuple(domain), kinky=kinky, symbolic=symbolic, points=points, name=name,
                bad=tuple(bad))
