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

import inspect
import math
import random
import textwrap

import pytest

import symdiff
import symdiff.api
from symdiff.optimize import driver

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
        points = [p for p in _scalar_points(fn, ((-2.0, 2.0),) * _arity(fn))]
        assert _differences(fn, packed, plain, points) == []


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


def _gradients(fn, wrt, kinds_from=None):
    """The gradient as built, and as built with ``pack_saves`` off."""
    packed = symdiff.grad(fn, wrt=wrt)
    saved, driver.pack_saves = driver.pack_saves, lambda function, math_name=None: False
    symdiff.api._CACHE.clear()
    try:
        plain = symdiff.grad(fn, wrt=wrt)
        if kinds_from is not None:  # built now, for the kinds of each point, unpacked
            for point in kinds_from:
                _outcome(plain, point)
    finally:
        driver.pack_saves = saved
        symdiff.api._CACHE.clear()
    return packed, plain


def _outcome(fn, point, limit=2.0):
    """``repr`` of what ``fn`` gives at ``point``, None where it runs past ``limit``
    (``oracles.outcome`` records the ``Timeout`` raised in it as what it raised)."""
    try:
        with oracles.time_limit(limit, Timeout):
            found = oracles.outcome(fn, point)
    except Timeout:
        return None
    return None if found[0] == "raises" and found[1] is Timeout else repr(found)


def _differences(fn, packed, plain, points):
    found = []
    for point in points:
        if _outcome(fn, point, limit=0.25) is None:
            continue  # a loop that does not end here (a corpus function ends in far less)
        want, got = _outcome(packed, point), _outcome(plain, point)
        if want != got:
            found.append((point, want, got))
    return found


def _scalar_points(fn, domain):
    rng = random.Random(fn.__name__)
    inside = [tuple(lo + (hi - lo) * (0.05 + 0.9 * rng.random()) for lo, hi in domain)
              for _ in range(3)]
    start = inside[0]
    odd = [start[:i] + (v,) + start[i + 1:] for v in SPECIAL for i in range(len(start))]
    return inside + odd + [(v,) * len(start) for v in SPECIAL]


def _replaced(value, by):
    """``value`` with every float in it replaced by ``by``."""
    if type(value) is float:
        return by
    if type(value) in (list, tuple):
        return type(value)(_replaced(v, by) for v in value)
    if type(value) is dict:
        return {k: _replaced(v, by) for k, v in value.items()}
    return value


def _has_loop(fn):
    try:
        text = inspect.getsource(fn)
    except (OSError, TypeError):
        return True
    return "for " in text or "while " in text


def _cases():
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


@pytest.mark.parametrize("scalar, case", _cases())
def test_packed_and_one_by_one_agree_bit_for_bit(scalar, case):
    if scalar:
        points = _scalar_points(case.fn, case.domain)
        wrt = None
    else:
        given = [tuple(p) for p in case.points]
        points = given + [tuple(_replaced(a, v) for a in given[0]) for v in SPECIAL]
        wrt = case.wrt
    packed, plain = _gradients(case.fn, wrt, None if scalar else points)
    bad = _differences(case.fn, packed, plain, points)
    assert not bad, f"first of {len(bad)}: {bad[0]}"
