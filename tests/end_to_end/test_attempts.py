"""``try``/``except``/``else``/``finally`` end to end, at chosen points: where the
exception is raised and caught (a division by exactly zero, which random points never
hit), where it is not, and where it leaves the function; forward mode against reverse
mode; and the constructs refused with their location.

The witnesses: the tape engine, which runs the unchanged function (its own ``try``
included) on ``Value``s, and central finite differences where the function is smooth
around the point.
"""

import math

import pytest

import symdiff
import symdiff.tape
from symdiff.errors import UnsupportedSyntaxError

try:
    from corpus import attempts
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import attempts

# (function, point, whether finite differences may step around it)
POINTS = [
    (attempts.with_else, (1.5, 0.0), False),  # ZeroDivisionError caught: r = x
    (attempts.with_else, (1.5, 0.5), True),  # else runs
    (attempts.finally_after, (-0.7, 0.0), False),
    (attempts.finally_after, (-0.7, 0.3), True),
    (attempts.classes_tuple, (0.5,), False),  # 1 / (x - 0.5): caught by the tuple
    (attempts.classes_tuple, (2.5,), True),  # acos(0.5)
    (attempts.classes_tuple, (1.5,), True),  # acos(-0.5)
    (attempts.half_way, (0.3, -0.5), True),  # the first line ran, the second raised
    (attempts.half_way, (0.3, 0.5), True),
    (attempts.two_lines_caught, (0.5, -0.2), True),  # raised on the third line
    (attempts.two_lines_caught, (-0.5, 0.2), True),  # raised on the second line
    (attempts.two_lines_caught, (0.5, 0.2), True),
    (attempts.nested, (0.4, -1.5), True),  # the inner handler raises, the outer catches
    (attempts.nested, (0.4, -0.5), True),  # the inner handler repairs
    (attempts.nested, (0.4, 0.5), True),
    (attempts.returns_inside, (0.6, 0.8), True),  # returns inside the try
    (attempts.returns_inside, (0.6, -0.8), True),  # caught; finally; return after
    (attempts.in_loop, (1.5, 0.7), True),  # two iterations catch, one does not
    (attempts.in_loop, (3.5, 0.7), True),
    (attempts.overflow, (2.9, ), True),  # OverflowError caught
    (attempts.reraise, (-0.5,), True),
    (attempts.translate, (-0.5,), True),
    (attempts.own_class, (1.2, 0.3), True),
    (attempts.bare_except, (0.5,), True),
    (attempts.loop_pass, (-0.5,), True),
]


def _tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _central(fn, point, i, h=1e-6):
    up, down = list(point), list(point)
    up[i] += h
    down[i] -= h
    return (fn(*up) - fn(*down)) / (2 * h)


@pytest.mark.parametrize("fn, point, smooth", POINTS,
                         ids=[f"{f.__name__}{p}" for f, p, _ in POINTS])
def test_gradient_at_chosen_points(fn, point, smooth):
    got = _tuple(symdiff.grad(fn)(*point))
    tape = _tuple(symdiff.tape.grad(fn)(*point))
    for g, w in zip(got, tape):
        assert math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-12)
    if smooth:
        for i, g in enumerate(got):
            assert math.isclose(g, _central(fn, point, i), rel_tol=1e-5, abs_tol=1e-6)


@pytest.mark.parametrize("fn, point, smooth", POINTS,
                         ids=[f"{f.__name__}{p}" for f, p, _ in POINTS])
def test_forward_mode_agrees(fn, point, smooth):
    gradient = _tuple(symdiff.grad(fn)(*point))
    for i in range(len(point)):
        direction = tuple(1.0 if j == i else 0.0 for j in range(len(point)))
        _, tangent = symdiff.jvp(fn)(*point, *direction)
        assert math.isclose(tangent, gradient[i], rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize("fn, point", [(attempts.reraise, (-2.0,)),
                                       (attempts.translate, (-2.0,))])
def test_an_exception_that_leaves_the_function_leaves_the_gradient(fn, point):
    with pytest.raises(Exception) as expected:
        fn(*point)
    with pytest.raises(expected.type):
        symdiff.grad(fn)(*point)
    with pytest.raises(expected.type):
        symdiff.jvp(fn)(*point, 1.0)


def loop_in_body(x):
    try:
        for i in range(3):
            x = math.log(x) + i
    except ValueError:
        x = 0.0
    return x


def return_in_finally(x):
    try:
        y = math.log(x)
    except ValueError:
        y = x
    finally:
        return x  # noqa: B012
    return y


def bare_raise_outside(x):
    if x > 1.0:
        raise
    return x


@pytest.mark.parametrize("fn, below", [(loop_in_body, 2), (return_in_finally, 6),
                                       (bare_raise_outside, 2)])
def test_refused_with_the_location(fn, below):
    """Refused at the construct: ``below`` lines under the ``def``."""
    with pytest.raises(UnsupportedSyntaxError) as refused:
        symdiff.grad(fn)(0.5)
    assert refused.value.lineno == fn.__code__.co_firstlineno + below
    assert refused.value.filename == __file__
