"""Saves packed (``optimize.saves``): a loop's saves pushed as one tuple, and a saved value
read where the reverse iteration would compute it again.

- The text: three saves of an iteration become one push and one pop; two become one only
  where a saved value then stands for a computation; a name rebound after its push, a
  pop into a name read before it, a ``break`` after saving keep their pushes (a ``try``
  in the loop's body is checked by the numbers); the numba target and a gradient read again (``hvp``) keep one push per
  value.
- The numbers: on every corpus function with a loop, the gradient with packed saves and
  the one without give the same results bit for bit (``repr``: -0.0, nan, the types of
  the leaves) and the same exceptions, at the corpus points and at nan, ±inf, -0.0 and
  numbers whose squares overflow.
"""

import contextlib
import inspect
import textwrap

import pytest

import symdiff
import symdiff.api
from symdiff.optimize import driver

try:
    import oracles
    from optimize.loop_corpus import (built_both_ways, case_points, differences, loop_cases,
                                      scalar_points)
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.optimize.loop_corpus import (built_both_ways, case_points, differences,
                                            loop_cases, scalar_points)


def _module(tmp_path, name, text):
    """The functions of ``text`` (with ``import math`` above), imported from a file."""
    return oracles.module_from_text(tmp_path, name, "import math\n\n" + textwrap.dedent(text))


LOOPS = '''
def shifted(x0, x1, x2, x3):
    s = 0.0
    for _ in range(3):
        s += 100.0 * (x1 - x0 * x0) ** 2 + (1.0 - x0) ** 2
        x0, x1, x2 = x1, x2, x3
    return s


def swell(x):
    for _ in range(5):
        x = math.sin(x) * x + math.cos(x)
    return x


def two_saves(x, w):
    h = x
    for _ in range(4):
        h = math.tanh(w * h)
    return h


def stopped(x):
    s = 0.0
    for i in range(6):
        a = math.sin(x + i)
        b = math.cos(a * x)
        s += a * b * math.exp(-b)
        if s > 1.5:
            break
        x = x * 0.9
    return s


def caught(x):
    s = 0.0
    for i in range(4):
        a = math.sin(x + i)
        b = math.cos(a * x)
        try:
            s += a * b * math.sqrt(b)
        except ValueError:
            s -= a * b
    return s
'''


@pytest.fixture(scope="module")
def loops(tmp_path_factory):
    return _module(tmp_path_factory.mktemp("saves"), "saves_loops", LOOPS)


def _reverse_loop(text):
    return text[text.index("reverse sweep"):]


def test_three_saves_are_one_tuple(loops):
    text = symdiff.grad(loops.shifted).source
    assert text.count("push(") == 1 and "push((x0, sub_s, sub_s_1))" in text
    assert text.count("pop()") == 1 and "x0, sub_s, sub_s_1 = pop()" in text


def test_a_saved_value_stands_for_its_computation(loops):
    text = symdiff.grad(loops.swell).source
    assert "push((sin_x, x))" in text and "sin_x, x = pop()" in text
    assert "math.sin(" not in "\n".join(
        line for line in _reverse_loop(text).splitlines() if "#" not in line)


def test_two_saves_with_nothing_read_instead_stay_apart(loops):
    text = symdiff.grad(loops.two_saves).source
    assert "push((" not in text


def test_a_break_after_saving_keeps_the_pushes(loops):
    assert "push((" not in symdiff.grad(loops.stopped).source


def test_the_packed_gradient_is_the_one_by_one_gradient(loops):
    for fn in (loops.shifted, loops.swell, loops.stopped, loops.caught):
        packed, plain = _gradients(fn, None)
        points = scalar_points(fn.__name__, ((-2.0, 2.0),) * _arity(fn))
        assert differences(fn, packed, plain, points) == []


def test_a_gradient_read_again_has_its_saves_one_by_one(loops):
    hvp = symdiff.hvp(loops.shifted)
    point, direction = (0.3, -0.2, 0.5, 1.1), (1.0, 0.5, -0.25, 2.0)
    hessian = symdiff.hessian(loops.shifted)(*point)
    expected = tuple(sum(row[k] * direction[k] for k in range(4)) for row in hessian)
    assert hvp(*point, *direction) == pytest.approx(expected, rel=1e-12)
    inner = symdiff.grad(loops.swell)
    assert symdiff.grad(inner)(0.4) == pytest.approx(
        symdiff.hessian(loops.swell)(0.4), rel=1e-12)


def test_the_numba_target_keeps_one_push_per_value(loops):
    pytest.importorskip("numba")
    text = symdiff.source(loops.shifted, jit="numba")
    assert "((" not in text.split("reverse sweep")[0].split("for _ in")[1]


# --- the numbers, on every corpus ----------------------------------------------------------

def _arity(fn):
    return len(inspect.signature(fn).parameters)


@contextlib.contextmanager
def _one_by_one():
    """Builds with ``pack_saves`` off."""
    saved, driver.pack_saves = driver.pack_saves, lambda function, math_name=None: False
    try:
        yield
    finally:
        driver.pack_saves = saved


def _gradients(fn, wrt, kinds_from=None):
    """The gradient as built, and as built with ``pack_saves`` off."""
    return built_both_ways(fn, wrt, _one_by_one, kinds_from)


@pytest.mark.parametrize("scalar, case", loop_cases())
def test_packed_and_one_by_one_agree_bit_for_bit(scalar, case):
    points, wrt = case_points(scalar, case)
    packed, plain = _gradients(case.fn, wrt, None if scalar else points)
    bad = differences(case.fn, packed, plain, points)
    assert not bad, f"first of {len(bad)}: {bad[0]}"
