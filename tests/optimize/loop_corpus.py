"""The corpus functions with a loop, and their numbers compared between two builds of
one gradient (an optimizer pass on and off): what each gives, value or exception, at
points inside the domain and at nan, the infinities, -0.0 and numbers whose squares
overflow, bit for bit.  Shared by the tests of the passes that change loops
(``test_saves``, ``test_invariants``)."""
import inspect
import math
import random

import pytest

import symdiff
import symdiff.api

try:
    import oracles
    from corpus import (arguments, attempts, branch_local, checks, containers, control,
                        control_lists, functions_as_values, joins, lambdas, nested, objects,
                        special, straight, tangent_lists)
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.corpus import (arguments, attempts, branch_local, checks, containers, control,
                              control_lists, functions_as_values, joins, lambdas, nested,
                              objects, special, straight, tangent_lists)

SCALAR = (attempts, checks, control, lambdas, nested, special, straight)
WITH_POINTS = (containers, tangent_lists, joins, branch_local, control_lists, arguments,
               objects, functions_as_values)
SPECIAL = (math.nan, math.inf, -math.inf, -0.0, 1e160, -1e200)


class Timeout(Exception):
    pass


def built_both_ways(fn, wrt, switched, kinds_from=None):
    """The gradient as built, and as built inside ``switched()`` (a context manager
    turning the pass off), each for the kinds of every point of ``kinds_from``."""
    on = symdiff.grad(fn, wrt=wrt)
    symdiff.api._CACHE.clear()
    try:
        with switched():
            off = symdiff.grad(fn, wrt=wrt)
            if kinds_from is not None:  # built now, for the kinds of each point
                for point in kinds_from:
                    outcome(off, point)
    finally:
        symdiff.api._CACHE.clear()
    return on, off


def outcome(fn, point, limit=2.0):
    """``repr`` of what ``fn`` gives at ``point``, None where it runs past ``limit``
    (``oracles.outcome`` records the ``Timeout`` raised in it as what it raised)."""
    try:
        with oracles.time_limit(limit, Timeout):
            found = oracles.outcome(fn, point)
    except Timeout:
        return None
    return None if found[0] == "raises" and found[1] is Timeout else repr(found)


def differences(fn, on, off, points):
    """``(point, off's outcome, on's)`` where the two builds differ."""
    found = []
    for point in points:
        if outcome(fn, point, limit=0.25) is None:
            continue  # a loop that does not end here (a corpus function ends in far less)
        want, got = outcome(off, point), outcome(on, point)
        if want != got:
            found.append((point, want, got))
    return found


def scalar_points(name, domain):
    """Three points inside ``domain``, then the first with each number in turn, and all
    of them, one of ``SPECIAL``."""
    rng = random.Random(name)
    inside = [tuple(lo + (hi - lo) * (0.05 + 0.9 * rng.random()) for lo, hi in domain)
              for _ in range(3)]
    start = inside[0]
    odd = [start[:i] + (v,) + start[i + 1:] for v in SPECIAL for i in range(len(start))]
    return inside + odd + [(v,) * len(start) for v in SPECIAL]


def replaced(value, by):
    """``value`` with every float in it replaced by ``by``."""
    if type(value) is float:
        return by
    if type(value) in (list, tuple):
        return type(value)(replaced(v, by) for v in value)
    if type(value) is dict:
        return {k: replaced(v, by) for k, v in value.items()}
    return value


def case_points(scalar, case):
    """``(points, wrt)`` a corpus case is compared at."""
    if scalar:
        return scalar_points(case.label, case.domain), None
    given = [tuple(p) for p in case.points]
    return given + [tuple(replaced(a, v) for a in given[0]) for v in SPECIAL], case.wrt


def _has_loop(fn):
    try:
        text = inspect.getsource(fn)
    except (OSError, TypeError):
        return True
    return "for " in text or "while " in text


def loop_cases():
    """``pytest.param(scalar, case)`` of every corpus function with a loop."""
    found = []
    for module in SCALAR + WITH_POINTS:
        listed = [getattr(module, n, []) for n in ("CASES", "OBJECT_CASES", "VALUE_CASES")]
        for case in [c for cases in listed for c in cases]:
            fn = getattr(case, "fn", None)
            if fn is None or not _has_loop(fn):
                continue
            name = f"{module.__name__.rpartition('.')[2]}.{case.label}"
            found.append(pytest.param(module in SCALAR, case, id=name))
    return found
