"""Oracle checks tests share: the tape, finite differences, bit equality, same outcome.

A case has ``fn``, ``label``, ``params``, ``domain`` (one ``(lo, hi)`` per parameter)
and ``kinky`` (a branch or trip count may change between nearby points).  Points are
drawn from the domain with a generator seeded by the table's name and the case's label,
so every run checks the same points.

For container arguments (tuples, lists and dicts of numbers, nested): ``leaf_gradient``
(the gradient of one parameter by finite differences, one number at a time, in the
parameter's structure), ``vjp_mismatch`` (a gradient against a directional derivative
along a random direction over every number, as autograd's ``check_vjp`` does) and
``same_structure`` (types, lengths and keys alike: a tuple is not a list).
"""

import contextlib
import math
import random
import signal
import struct
import threading

import symdiff
import symdiff.tape
from symdiff.checking.leaves import is_container, leaves, path_text, rebuild
from symdiff.witnesses.finite import moved, richardson_difference

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


def leaf_gradient(fn, point, i):
    """The gradient of ``fn`` by its parameter ``i`` at ``point``, one Richardson estimate
    per number, in the structure of ``point[i]`` (a float for a number)."""
    places = leaves(point[i])
    estimates = [finite_difference(fn, point, (i, *path) if path else i)[0]
                 for path, _ in places]
    return rebuild(point[i], estimates) if is_container(point[i]) else estimates[0]


def vjp_mismatch(fn, gradient, point, wrt, rng, rtol=1e-6, atol=1e-8):
    """Where ``gradient`` (one structure per index of ``wrt``, in order) fails the check
    autograd's ``check_vjp`` makes: along a random direction ``v`` over every number of
    the parameters ``wrt``, ``<gradient, v>`` against the central difference of
    ``fn(point + h v)``.  None when they agree, else a message."""
    direction = [[rng.uniform(-1.0, 1.0) for _ in leaves(point[i])] for i in wrt]
    inner = sum(g * v for i, g_i, v_i in zip(wrt, gradient, direction)
                for (_, g), v in zip(leaves(g_i), v_i))
    scale = max([1.0] + [abs(x) for i in wrt for _, x in leaves(point[i])])
    h = FD_STEP * scale

    def along(t):
        arguments = list(point)
        for i, v_i in zip(wrt, direction):
            for (path, _), v in zip(leaves(point[i]), v_i):
                arguments = moved(arguments, (i, *path) if path else i, t * v)
        return fn(*arguments)
    near, far = (along(h) - along(-h)) / (2 * h), (along(2 * h) - along(-2 * h)) / (4 * h)
    estimate = (4.0 * near - far) / 3.0
    if abs(inner - estimate) <= atol * (1.0 + abs(fn(*point))) + rtol * max(abs(inner),
                                                                        abs(estimate)):
        return None
    return f"at {point}: <gradient, v> {inner!r}, directional difference {estimate!r}"


def same_structure(a, b, name="gradient"):
    """Assert ``a`` and ``b`` have one structure: the same container types (a tuple is not
    a list), lengths, keys in the same order, and numbers (not bools) as leaves."""
    stack = [((), a, b)]
    while stack:
        path, x, y = stack.pop()
        where = path_text(name, path)
        assert type(x) is type(y) or not (is_container(x) or is_container(y)), (
            f"{where}: a {type(x).__name__} and a {type(y).__name__}")
        if type(x) is dict:
            assert list(x) == list(y), f"{where}: keys {list(x)} and {list(y)}"
            stack += [(path + (k,), x[k], y[k]) for k in x]
        elif type(x) in (tuple, list):
            assert len(x) == len(y), f"{where}: lengths {len(x)} and {len(y)}"
            stack += [(path + (k,), u, v) for k, (u, v) in enumerate(zip(x, y))]
        else:
            assert all(isinstance(v, (int, float)) and not isinstance(v, bool)
                       for v in (x, y)), f"{where}: {x!r} and {y!r} are not both numbers"


def _wrt_indices(fn, wrt):
    import inspect
    names = [p.name for p in inspect.signature(fn).parameters.values()
             if p.kind <= p.POSITIONAL_OR_KEYWORD]
    if wrt is None:
        return list(range(len(names))), len(names) == 1
    single = not isinstance(wrt, (tuple, list))
    return [w if isinstance(w, int) else names.index(w) for w in ([wrt] if single else wrt)], (
        single)


def container_failures(fn, points, wrt=None, kinky=False, gradient=None, seed="vjp"):
    """Where a gradient of ``fn`` taking containers fails, at each point: its structure
    against the parameter's (``same_structure``), each number against the tape and the
    sympy witness (rounding) and against finite differences (skipped near a kink when
    ``kinky``), and autograd's directional check (``vjp_mismatch``).  ``gradient`` is
    ``symdiff.grad(fn, wrt=wrt)`` unless given."""
    from symdiff.witnesses.symbolic import evaluate_grad

    indices, single = _wrt_indices(fn, wrt)
    gradient = gradient or symdiff.grad(fn, wrt=wrt)
    taped = symdiff.tape.grad(fn, wrt=wrt)
    rng = random.Random(f"{seed}:{getattr(fn, '__name__', fn)}")
    failures = []
    for point in points:
        got, tape, sym = gradient(*point), taped(*point), evaluate_grad(fn, point, wrt=wrt)
        got, tape, sym = ([g] if single else list(g) for g in (got, tape, sym))
        for i, g, t, s in zip(indices, got, tape, sym):
            try:
                same_structure(g, point[i], f"d{i}")
            except AssertionError as exc:
                failures.append(f"at {point}: {exc}")
                continue
            for (path, gv), (_, tv), (_, sv) in zip(leaves(g), leaves(t), leaves(s)):
                where = (i, *path) if path else i
                scale = 1e-13 * max([1.0] + [abs(v) for _, v in leaves(t)])
                for other, value in (("tape", tv), ("sympy", sv)):
                    if not abs(gv - value) <= 1e-9 * abs(value) + scale:
                        failures.append(f"at {point} d/d{where}: {gv!r}, {other} {value!r}")
                estimate, spread = finite_difference(fn, point, where)
                if kinky and spread > 1e-5 * (1.0 + abs(estimate)):
                    continue
                if not abs(gv - estimate) <= 1e-6 * max(abs(gv), abs(estimate)) + 1e-8:
                    failures.append(f"at {point} d/d{where}: {gv!r}, "
                                    f"finite differences {estimate!r}")
        if not failures:
            found = vjp_mismatch(fn, got, point, indices, rng)
            if found is not None:
                failures.append(found)
    return failures


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


def module_from_text(tmp_path, name, text):
    """The module ``name`` made of ``text``, written to a file under ``tmp_path`` and
    imported from it (so symdiff reads the functions' source as a user's file)."""
    import importlib.util
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def marked_place(fn):
    """(line, column) of the text after ``# REFUSED at`` on a line of ``fn``'s source:
    where a test expects the refusal of ``fn`` to point."""
    import inspect
    lines, start = inspect.getsourcelines(fn)
    for offset, line in enumerate(lines):
        if "# REFUSED at " in line:
            code, anchor = line.split("# REFUSED at ")
            return start + offset, code.index(anchor.strip())
    raise AssertionError(f"{fn.__name__} has no marker")


def mismatches(reference, candidate, points):
    """The points where two functions differ in value or in exception class."""
    bad = []
    for args in points:
        want, got = outcome(reference, args), outcome(candidate, args)
        if want[0] != got[0] or not same(want[1], got[1]):
            bad.append((args, want, got))
    return bad


def overflows_only_in_value(fn, plain, optimized, args, got):
    """Whether an optimized gradient's outcome ``got`` at ``args``, unlike the unoptimized
    gradient ``plain``'s, is one ``DESIGN.md``'s Semantics allow: ``fn`` and ``plain``
    (which computes every value ``fn`` does) raise ``OverflowError``, and ``got`` is what
    ``plain`` gives on numpy floats, where an overflow gives inf, not an exception: the
    same real derivative (when that raises, a math call overflowing on numpy floats
    too, any real one), or the same exception, which ``fn`` meets after the overflow
    (``math.sin(inf)``)."""
    if outcome(fn, args) != ("raises", OverflowError) or outcome(
            plain, args) != ("raises", OverflowError):
        return False
    import numpy as np
    with np.errstate(all="ignore"):
        witness = outcome(lambda *a: plain(*map(np.float64, a)), args)
    if got[0] == "raises":
        return got[1] is not OverflowError and witness == got
    derivative = as_tuple(got[1])
    if not all(type(g) in (float, int) for g in derivative):
        return False
    if witness[0] == "raises":
        return True
    expected = as_tuple(witness[1])
    return len(expected) == len(derivative) and all(
        _close(g, float(w)) for g, w in zip(derivative, expected))


def _close(a, b, rel=1e-9):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-300)


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
