"""Statuses: whether the witnesses agree, and what a row of the report says.

Expects numbers (or ``Raised``) from the four witnesses at one point and parameter, and
the function itself for finite differences.  Guarantees a status string: ``"ok"``, an
``"ok (...)"`` that says why a witness may differ without the gradient being wrong
(finite differences undefined, ill-conditioned or seeing through ``stop_gradient``;
sympy's convention at a kink), or the list of what disagrees.  Nothing here runs
symdiff's own code: the closeness test is plain arithmetic, the central differences
(``finite_difference``) are the witness ``symdiff.witnesses.finite``.
"""

import math

from symdiff.checking.report import Raised
from symdiff.witnesses.finite import central_difference as finite_difference  # noqa: F401


def status(gen, tap, sym, fd, rtol, atol, rule_wrong=False):
    """What a row says.  ``fd`` is ``(estimate, steadiness)`` from ``finite_difference``;
    ``rule_wrong``: a user rule used at this point is wrong, so a gradient that finite
    differences do not confirm is not ok."""
    if isinstance(gen, Raised):
        return f"generated {gen} where the function does not"
    if isinstance(tap, Raised):
        said = status(gen, None, sym, fd, rtol, atol, rule_wrong)
        return with_remark(said, f"tape {tap} where the function does not")
    estimate, steadiness = fd
    problems = []
    if not close(gen, tap, rtol, atol):
        problems.append("tape differs")
    if sym is not None and not close(gen, sym, rtol, atol):
        if close(gen, estimate, 1e-4, 1e-6) and close(gen, tap, rtol, atol):
            return "ok (sympy differs: its convention at a kink)"
        problems.append("sympy differs")
    if rule_wrong and steadiness == "steady" and not close(gen, estimate, 1e-4, 1e-6):
        problems.append("finite differences differ (a rule is wrong)")
    if not problems and steadiness == "undefined":
        return "ok (finite differences undefined here: a step leaves the domain or the reals)"
    if not problems and not close(gen, estimate, 1e-4, 1e-6):
        return ("ok (finite differences ill-conditioned here)" if steadiness == "unsteady"
                else "ok (fd differs)")
    return "ok" if not problems else ", ".join(problems)


def with_remark(said, remark):
    """``"ok"`` + remark -> ``"ok (remark)"``; ``"ok (a)"`` -> ``"ok (a; remark)"``."""
    if said.endswith(")"):
        return f"{said[:-1]}; {remark})"
    return f"{said} ({remark})"


def close(a, b, rtol, atol):
    """Whether ``a`` and ``b`` agree (None agrees with anything; nan only with nan)."""
    if a is None or b is None:
        return True
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))
