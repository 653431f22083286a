"""Invariants: values a loop assigns alike on every iteration are not saved (``ad.invariants``).

First the choice, read off the generated text: each function's invariant names are
never pushed, and for each rule that refuses a name (assigned twice, reading a number
the loop changes, reading a container some statement changes, a user's rule, a loop
holding a ``try``) a twin shows the name pushed again.  Then the numbers: every function
against the tape engine and central finite differences, and the unoptimized gradient
bit for bit, at seeded points, at 0, 1 and several iterations, and at nan, inf and
points where the loop overflows.
"""

import ast
import math
import random

import pytest

import symdiff
import symdiff.tape

try:
    from oracles import finite_difference
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.oracles import finite_difference


def rk4(x, v, omega, n):
    h = 0.01
    for _ in range(n):
        k1v = -omega ** 2 * x
        k2x = v + 0.5 * h * k1v
        k2v = -omega ** 2 * (x + 0.5 * h * v)
        x = x + h / 6.0 * (v + 2.0 * k2x)
        v = v + h / 6.0 * (k1v + 2.0 * k2v)
    return x * v


def decided_alike(x, c, n):
    s = x
    for _ in range(n):
        if c > 0.5:
            s = s * math.sin(c * x) + 1.0
        else:
            s = s * math.cos(x) - c
    return s


def nested(xs, w, n):
    total = 0.0
    for _ in range(n):
        for i in range(len(xs)):
            scale = w * w
            total = math.tanh(total + scale * xs[i])
    return total


def while_alike(x, omega, n):
    s = x + n
    while -10.0 < s < 10.0:
        k = omega * omega + 1.0
        s = s * k + 0.5
    return s


def assigned_twice(x, omega, n):
    for i in range(n):
        k = omega * omega
        if i > 2:
            k = omega * 3.0
        x = math.sin(k * x)
    return x


def reads_a_changing_number(x, omega, n):
    for _ in range(n):
        k = omega * x
        x = math.sin(k) + x
    return x


def reads_a_changed_container(xs, w, n):
    ys = [0.5, 0.0]
    total = 0.0
    for i in range(n):
        first = ys[0]
        total = math.sin(total * first + w)
        ys[0] = total
    return total + xs[0]


def reads_an_alias_of_a_changed_list(w, n):
    h = [0.5, 0.25]
    x = h
    total = 0.0
    for _ in range(n):
        first = x[0]
        total = math.sin(total * first + w)
        h[0] = total
    return total


def try_in_the_loop(x, omega, n):
    for _ in range(n):
        k = omega * omega
        try:
            x = math.sin(k * x) + 0.5
        except ValueError:
            x = 0.0
    return x


CASES = [  # (function, wrt, the names never pushed, the names pushed, arguments)
    (rk4, (0, 1, 2), ["k1v", "neg_k1v", "div_x"], ["x"], lambda r, n: (
        r.uniform(-2, 2), r.uniform(-2, 2), r.uniform(0.1, 3), n)),
    (decided_alike, (0, 1), ["cond"], [], lambda r, n: (r.uniform(-2, 2), r.uniform(0, 1), n)),
    (nested, (0, 1), ["scale"], [], lambda r, n: ([r.uniform(-1, 1) for _ in range(3)],
                                                   r.uniform(-2, 2), n)),
    (while_alike, (0, 1), ["k"], [], lambda r, n: (r.uniform(-2, 2), r.uniform(-2, 2), n)),
    (assigned_twice, (0, 1), [], ["k"], lambda r, n: (r.uniform(-2, 2), r.uniform(-2, 2), n)),
    (reads_a_changing_number, (0, 1), [], ["k"], lambda r, n: (
        r.uniform(-2, 2), r.uniform(-2, 2), n)),
    (reads_a_changed_container, (1,), [], ["first"], lambda r, n: (
        [r.uniform(-1, 1)], r.uniform(-2, 2), n)),
    (reads_an_alias_of_a_changed_list, (0,), [], ["first"], lambda r, n: (r.uniform(-2, 2), n)),
    (try_in_the_loop, (0, 1), [], ["k"], lambda r, n: (r.uniform(-2, 2), r.uniform(-2, 2), n)),
]
IDS = [case[0].__name__ for case in CASES]


def source_of(fn, wrt, args, optimize=True):
    return symdiff.source(fn, *args, wrt=wrt, optimize=optimize)


def pushed(source):
    """The names the text pushes, one by one or in tuples."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id.startswith("push")):
            for arg in node.args:
                items = arg.elts if isinstance(arg, ast.Tuple) else [arg]
                names += [item.id for item in items if isinstance(item, ast.Name)]
    return names


@pytest.mark.parametrize("fn, wrt, alike, saved, make", CASES, ids=IDS)
def test_a_value_assigned_alike_on_every_iteration_is_not_pushed(fn, wrt, alike, saved, make):
    args = make(random.Random(0), 4)
    for optimize in (True, False):
        names = pushed(source_of(fn, wrt, args, optimize))
        for name in alike:
            assert not any(n == name or n.startswith(name + "_") for n in names), (name, names)
        for name in saved:
            assert name in names, (name, names)


def gradients(fn, wrt, args):
    optimized = symdiff.grad(fn, wrt=wrt)(*args)
    plain = symdiff.grad(fn, wrt=wrt, optimize=False)(*args)
    return optimized, plain


def flat(value):
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in flat(v)]
    return [value]


@pytest.mark.parametrize("fn, wrt, alike, saved, make", CASES, ids=IDS)
def test_the_gradient_is_the_tapes_and_the_unoptimized_one_bit_for_bit(fn, wrt, alike, saved,
                                                                       make):
    rng = random.Random(sum(map(ord, fn.__name__)))
    for n in (0, 1, 2, 7):
        for _ in range(3):
            args = make(rng, n)
            optimized, plain = gradients(fn, wrt, args)
            assert repr(optimized) == repr(plain)
            tape = symdiff.tape.grad(fn, wrt=wrt)(*args)
            assert flat(optimized) == pytest.approx(flat(tape), rel=1e-12, abs=1e-12)
            first = wrt[0]
            if not isinstance(args[first], list):
                estimate, spread = finite_difference(fn, args, first)
                got = flat(optimized)[0]
                assert got == pytest.approx(estimate, rel=1e-6, abs=1e-7 + 10 * spread)


SPECIAL = [math.nan, math.inf, -math.inf, 1e200, -1e300, 0.0, -0.0]


@pytest.mark.parametrize("fn, wrt, alike, saved, make", CASES, ids=IDS)
def test_at_nan_inf_and_overflow_the_optimized_gradient_is_the_unoptimized_one(
        fn, wrt, alike, saved, make):
    rng = random.Random(7)
    for value in SPECIAL:
        for position in wrt:
            args = list(make(rng, 3))
            if isinstance(args[position], list):
                args[position] = [value] + args[position][1:]
            else:
                args[position] = value
            assert outcome(fn, wrt, args, True) == outcome(fn, wrt, args, False), args


def outcome(fn, wrt, args, optimize):
    try:
        return repr(symdiff.grad(fn, wrt=wrt, optimize=optimize)(*args))
    except Exception as error:  # the same exception, raised by both
        return type(error).__name__
