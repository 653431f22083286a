"""Oracle checks tests share: the tape, finite differences, bit equality, same outcome.

A case has ``fn``, ``label``, ``params``, ``domain`` (one ``(lo, hi)`` per parameter)
and ``kinky`` (a branch or trip count may change between nearby points).  Points are
drawn from the domain with a generator seeded by the table's name and the case's label,
so every run checks the same points.
"""

import contextlib
import math
import random
import signal
import struct
import threading

import symdiff
import symdiff.tape
from symdiff.witnesses.finite import richardson_difference

FD_STEP = 2e-4  # relative; the Richardson step uses 2 * FD_STEP


def sample(c, count, seed, domain=None):
    rng = random.Random(f"{seed}:{c.label}")
    return [tuple(lo + (hi - lo) * (0.01 + 0.98 * rng.random()) for lo, hi in domain or c.domain)
            for _ in range(count)]


def as_tuple(gradient):
    return gradient if isinstance(gradient, tuple) else (gradient,)


def bits(values):
    return tuple("nan" if math.isnan(v) else struct.pack("<d", v).hex() for v in values)


def finite_difference(fn, point, i):
    """(Richardson estimate of d fn / d point[i], disagreement of the steps h and 2h)."""
    return richardson_difference(fn, point, i, FD_STEP)


def against_tape(c, points):
    """Where ``symdiff.grad`` and the tape engine disagree beyond rounding."""
    gradient, witness = symdiff.grad(c.fn), symdiff.tape.grad(c.fn)
    failures = []
    for point in points:
        got, expected = as_tuple(gradient(*point)), as_tuple(witness(*point))
        scale = max([1.0] + [abs(e) for e in expected])
        for i, (g, e) in enumerate(zip(got, expected)):
            if not abs(g - e) <= 1e-10 * abs(e) + 1e-13 * scale:
                failures.append(f"at {point} d/d{c.params[i]}: symdiff {g!r}, tape {e!r}")
    return failures


def against_finite_differences(c, points):
    """Where ``symdiff.grad`` and finite differences disagree, and how many comparisons
    were (checked, skipped near a kink)."""
    gradient = symdiff.grad(c.fn)
    failures, checked, skipped = [], 0, 0
    for point in points:
        got = as_tuple(gradient(*point))
        value = c.fn(*point)
        for i in range(len(point)):
            estimate, spread = finite_difference(c.fn, point, i)
            if c.kinky and spread > 1e-5 * (1.0 + abs(estimate)):
                skipped += 1  # a branch or trip count changes within two steps
                continue
            checked += 1
            tolerance = 1e-7 * max(abs(estimate), abs(got[i])) + 1e-9 * (1.0 + abs(value))
            if not abs(got[i] - estimate) <= tolerance:
                failures.append(f"at {point} d/d{c.params[i]}: symdiff {got[i]!r}, "
                                f"finite differences {estimate!r}")
    return failures, checked, skipped


def outcome(fn, args):
    """``("value", result)`` or ``("raises", exception class)``: all two runs must share."""
    try:
        return ("value", fn(*args))
    except Exception as exc:  # the same exception, whatever it is, is all we ask
        return ("raises", type(exc))


def same(a, b):
    """Equal bit for bit as far as Python can tell: -0.0 is not 0.0, nan is nan."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(same(x, y) for x, y in zip(a, b)))
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return repr(a) == repr(b)


def mismatches(reference, candidate, points):
    """The points where two functions differ in value or in exception class."""
    bad = []
    for args in points:
        want, got = outcome(reference, args), outcome(candidate, args)
        if want[0] != got[0] or not same(want[1], got[1]):
            bad.append((args, want, got))
    return bad


@contextlib.contextmanager
def time_limit(seconds, error):
    """Raise ``error`` in the block after ``seconds`` (a while loop that never ends, sympy
    on a long program); no limit without SIGALRM, off the main thread, or for 0."""
    usable = seconds and hasattr(signal, "setitimer") and (
        threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise error

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
