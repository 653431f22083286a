"""One name for unlike values: two loops reusing a loop variable over arrays of unlike
kinds, and a name given arrays of two kinds.

A loop that binds a name afresh (its variable, or the first statement of each
iteration) and after which nothing reads the name gets its own variable, and so does
each binding of it again in the loop's body, so the gradients agree with finite
differences (``array_oracles``); a read after the loop keeps the name (a loop of no
iteration leaves the old value).  Where one variable would still hold arrays of two
kinds (read after the loop, or joined after a branch) the error is a located
``UnsupportedSyntaxError``, never an ``InternalError``.
"""

import numpy as np
import pytest

import symdiff
from symdiff.errors import UnsupportedSyntaxError

try:
    import array_oracles
    from oracles import marked_place
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles
    from tests.oracles import marked_place


def two_loops(Ws, bs):
    s = 0.0
    for item in Ws:
        s = s + np.sum(item ** 2)
    for item in bs:
        s = s + np.sum(np.sin(item))
    return s


def two_loops_with_a_body_name(Ws, bs, x):
    s = 0.0
    for W in Ws:
        h = W @ x
        s = s + np.sum(np.tanh(h))
    for b in bs:
        h = np.outer(b, x)
        s = s + np.sum(h * h)
    return s


def loop_then_reassigned(Ws, H, X):
    s = 0.0
    for h in Ws:
        s = s + np.sum(h * h)
    h = H @ X
    return s + np.sum(np.cos(h))


def reassigned(W, x, H, X):
    h = W @ x
    s = np.sum(h ** 2)
    h = H @ X
    return s + np.sum(h ** 2)


def _arrays(rng, shapes):
    return [rng.normal(size=shape) for shape in shapes]


def _points(fn, rng):
    if fn is two_loops:
        return [(kind(_arrays(rng, [(2, 3), (3, 2)])), kind(_arrays(rng, [(3,), (2,)])))
                for kind in (list, tuple)]
    if fn is two_loops_with_a_body_name:
        return [(kind(_arrays(rng, [(2, 3), (2, 3)])), kind(_arrays(rng, [(3,)])),
                 rng.normal(size=3)) for kind in (list, tuple)]
    if fn is loop_then_reassigned:
        return [(kind(_arrays(rng, [(3,), (3,)])), rng.normal(size=(2, 3)),
                 rng.normal(size=(3, 4))) for kind in (list, tuple)]
    return [(rng.normal(size=(2, 3)), rng.normal(size=3), rng.normal(size=(2, 3)),
             rng.normal(size=(3, 4)))]  # (reassigned, reassigned_in_a_loop)


def reassigned_in_a_loop(W, x, H, X):
    s = 0.0
    for i in range(2):
        h = W @ x
        s = s + np.sum(h ** 2) * i
        h = H @ X
        s = s + np.sum(np.sin(h))
    return s


@pytest.mark.parametrize("fn", [two_loops, two_loops_with_a_body_name, loop_then_reassigned,
                                reassigned, reassigned_in_a_loop], ids=lambda fn: fn.__name__)
def test_a_name_reused_for_unlike_arrays_agrees_with_finite_differences(fn):
    rng = np.random.default_rng(7)
    for point in _points(fn, rng):
        for _ in range(3):
            gradient = symdiff.grad(fn)(*point)
            assert array_oracles.gradient_failures(fn, point, gradient) == []
            point = tuple(type(p)(np.asarray(a) + 0.1 * rng.normal(size=np.shape(a))
                                  for a in p) if isinstance(p, (list, tuple))
                          else p + 0.1 * rng.normal(size=np.shape(p)) for p in point)


def read_after_a_loop(x, xs):
    v = x * 2.0
    for v in xs:
        x = x * v
    return v * x


def read_in_the_loop_s_else(x, xs):
    v = x * 2.0
    for v in xs:
        x = x * v
    else:
        x = x * v
    return x


def read_by_the_next_outer_iteration(x, xs):
    s = 0.0
    v = x * 0.5
    for j in range(3):
        s = s + v * x
        for v in xs:
            s = s + v * v
    return s


@pytest.mark.parametrize("fn", [read_after_a_loop, read_in_the_loop_s_else,
                                read_by_the_next_outer_iteration], ids=lambda fn: fn.__name__)
@pytest.mark.parametrize("xs", [[], [1.5], [0.5, -2.0]])
def test_a_read_after_the_loop_sees_the_old_value_when_it_runs_no_iteration(fn, xs):
    gradient = symdiff.grad(fn, wrt="x")
    h = 1e-6
    for x in (0.7, -1.3):
        expected = (fn(x + h, xs) - fn(x - h, xs)) / (2 * h)
        assert gradient(x, xs) == pytest.approx(expected, rel=1e-6)


def reassigned_and_read_after_the_loop(W, x, H, X, n):
    h = H @ X
    for i in range(n):
        h = W @ x  # REFUSED at h = W
        h = H @ X
    return np.sum(h ** 2)


def joined_after_a_branch(W, x, H, X, c):
    if c > 0:
        h = W @ x
    else:
        h = H @ X  # REFUSED at h = H
    return np.sum(h ** 2)


@pytest.mark.parametrize("fn", [reassigned_and_read_after_the_loop, joined_after_a_branch],
                         ids=lambda fn: fn.__name__)
def test_one_variable_of_two_kinds_of_array_is_a_located_error(fn):
    rng = np.random.default_rng(3)
    point = (rng.normal(size=(2, 3)), rng.normal(size=3), rng.normal(size=(2, 3)),
             rng.normal(size=(3, 4)), 2)
    with pytest.raises(UnsupportedSyntaxError) as raised:
        symdiff.grad(fn, wrt=(0, 1, 2, 3))(*point)
    assert (raised.value.lineno, raised.value.col_offset) == marked_place(fn)
    assert raised.value.hint


def _loop_reads(text):
    """The names the element reads of the forward loops assign (``item = Ws[i]``), in
    order."""
    import ast
    function = ast.parse(text).body[-1]
    loops = [s for s in function.body if isinstance(s, ast.For)]
    return [s.targets[0].id for loop in loops for s in loop.body[:1]
            if isinstance(s, ast.Assign) and isinstance(s.value, ast.Subscript)]


def test_each_loop_that_binds_a_name_afresh_has_its_own_variable():
    rng = np.random.default_rng(0)
    point = _points(two_loops, rng)[0]
    first, second = _loop_reads(symdiff.source(two_loops, *point))[:2]
    assert first == "item" and second != first


def test_a_name_read_after_its_loop_keeps_its_variable():
    names = _loop_reads(symdiff.source(read_after_a_loop, 0.5, [1.0, 2.0]))
    assert names == ["v"]
