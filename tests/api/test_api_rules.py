"""Rules every entry point follows alike: defaults, the shape of one ``wrt``, the
snapshot of module constants, and the bounded cache.

Entry points: ``grad``, ``value_and_grad``, ``jvp``, ``jacobian``, ``hessian``,
``hvp`` and ``grad`` of ``grad``.  Values are checked against finite differences of
the function itself and of the tape gradient, never typed in.
"""

import math

import pytest

import symdiff
import symdiff.api
import symdiff.tape
from oracles import finite_difference

FACTOR = 3.0


def with_default(x, y=2.0):
    return x * x * y + math.sin(x * y)


def pair_with_default(x, s=0.5):
    return x * s, math.exp(x) * s


def scaled(x, y):
    return FACTOR * x * x * y


def _second(fn, point, i, j):
    """d2 fn / d point[i] d point[j] by finite differences of the tape gradient."""
    gradient = symdiff.tape.grad(fn, wrt=tuple(range(len(point))))
    return finite_difference(lambda *p: gradient(*p)[i], point, j)[0]


# --- defaults --------------------------------------------------------------------------------

ENTRY_POINTS = {
    "grad": lambda: (symdiff.grad(with_default), ()),
    "value_and_grad": lambda: (symdiff.value_and_grad(with_default), ()),
    "jvp": lambda: (symdiff.jvp(with_default), (0.3, -0.8)),
    "jvp, wrt x": lambda: (symdiff.jvp(with_default, wrt="x"), (0.7,)),
    "jacobian": lambda: (symdiff.jacobian(with_default), ()),
    "jacobian of a pair": lambda: (symdiff.jacobian(pair_with_default), ()),
    "hessian": lambda: (symdiff.hessian(with_default), ()),
    "hessian, wrt x": lambda: (symdiff.hessian(with_default, wrt="x"), ()),
    "hvp": lambda: (symdiff.hvp(with_default), (0.3, -0.8)),
    "grad of grad": lambda: (symdiff.grad(symdiff.grad(with_default, wrt="x"), wrt="x"), ()),
}


@pytest.mark.parametrize("name", list(ENTRY_POINTS))
def test_a_parameter_with_a_default_may_be_left_out_or_named(name):
    function, trailing = ENTRY_POINTS[name]()
    default = 0.5 if "pair" in name else 2.0
    for x in (0.4, -1.3):
        full = function(x, default, *trailing)
        assert function(x, *trailing) == full
        if name not in ("jvp", "jvp, wrt x", "hvp"):  # their tangents come last, by position
            key = "s" if "pair" in name else "y"
            assert function(x, **{key: default}) == full
        assert function(x, 1.5, *trailing) != full  # the default is not stuck in


def test_the_values_with_defaults_are_right():
    point = (0.4, 2.0)
    matrix = symdiff.hessian(with_default)(0.4)
    for i in range(2):
        assert matrix[i] == pytest.approx(
            [_second(with_default, point, i, j) for j in range(2)], rel=1e-6)
    assert symdiff.hessian(with_default, wrt="x")(0.4) == pytest.approx(
        _second(with_default, point, 0, 0), rel=1e-6)
    (row_x, row_y) = symdiff.jacobian(pair_with_default)(0.4)
    assert row_x == pytest.approx([finite_difference(
        lambda x, s: pair_with_default(x, s)[0], (0.4, 0.5), i)[0] for i in range(2)])
    assert row_y == pytest.approx([finite_difference(
        lambda x, s: pair_with_default(x, s)[1], (0.4, 0.5), i)[0] for i in range(2)])


def test_too_few_or_too_many_arguments_are_a_type_error():
    with pytest.raises(TypeError):
        symdiff.hessian(with_default)()
    with pytest.raises(TypeError):
        symdiff.hessian(with_default)(1.0, 2.0, 3.0)
    with pytest.raises(TypeError):
        symdiff.jacobian(with_default)(1.0, z=2.0)
    with pytest.raises(TypeError):
        symdiff.hvp(with_default)(1.0)


# --- one shape rule: one wrt name, a bare value ------------------------------------------------

def test_one_wrt_name_gives_a_bare_value_everywhere():
    point = (0.4, 1.7)
    assert isinstance(symdiff.grad(with_default, wrt="y")(*point), float)
    h = symdiff.hessian(with_default, wrt="y")(*point)
    assert isinstance(h, float)
    assert h == pytest.approx(_second(with_default, point, 1, 1), rel=1e-6)
    assert symdiff.hessian(with_default, wrt=("y",))(*point) == ((h,),)
    assert symdiff.hvp(with_default, wrt="y")(*point, 2.0) == pytest.approx(2.0 * h)
    assert symdiff.hvp(with_default, wrt=("y",))(*point, 2.0) == (pytest.approx(2.0 * h),)
    rows = symdiff.jacobian(pair_with_default, wrt="x")(0.4, 0.5)  # one float per output
    columns = symdiff.jacobian(pair_with_default, wrt=("x",))(0.4, 0.5)  # rows of one
    assert all(isinstance(v, float) for v in rows)
    assert rows == tuple(row[0] for row in columns) and all(len(row) == 1 for row in columns)
    (only,) = symdiff.jacobian(with_default, wrt="x")(*point)
    assert only == symdiff.grad(with_default, wrt="x")(*point)


def one(x):
    return x * x * x


def test_a_function_of_one_parameter_gives_bare_values_as_grad_does():
    assert isinstance(symdiff.grad(one)(2.0), float)
    assert symdiff.hessian(one)(2.0) == pytest.approx(12.0)
    assert symdiff.hvp(one)(2.0, 0.5) == pytest.approx(6.0)
    assert symdiff.jacobian(one)(2.0) == (pytest.approx(12.0),)


# --- the snapshot rule ---------------------------------------------------------------------

POINT = (0.5, 2.0)


def _entry_points():
    """Each entry point built now, with the arguments it takes at ``POINT``."""
    return {
        "grad": (symdiff.grad(scaled), POINT),
        "value_and_grad": (symdiff.value_and_grad(scaled), POINT),
        "jvp": (symdiff.jvp(scaled), POINT + (1.0, 0.0)),
        "jacobian": (symdiff.jacobian(scaled), POINT),
        "hessian": (symdiff.hessian(scaled), POINT),
        "hvp": (symdiff.hvp(scaled), POINT + (1.0, 0.0)),
        "grad of grad": (symdiff.grad(symdiff.grad(scaled, wrt="x"), wrt="x"), POINT),
        "built on first use": (symdiff.grad(uses_a_later_helper), POINT[:1]),
    }


def uses_a_later_helper(x):
    return later_helper(x) * x


def later_helper(t):
    return FACTOR * t


def _scaled_by(value, ratio):
    if isinstance(value, tuple):
        return tuple(_scaled_by(v, ratio) for v in value)
    return pytest.approx(value * ratio, rel=1e-12)


def test_held_gradients_keep_the_constants_they_were_built_with(monkeypatch):
    """Every entry point follows one rule: a gradient held across a rebinding keeps the
    values it was built with (its text binds them), and a fresh one reads the new ones.
    A gradient built on first use is built once, and held from then on the same way."""
    monkeypatch.delitem(globals(), "later_helper")
    lazy = symdiff.grad(uses_a_later_helper)
    monkeypatch.undo()
    assert isinstance(lazy, symdiff.api.GradFunction)
    held = _entry_points()
    held["built on first use"] = (lazy, POINT[:1])
    before = {name: fn(*args) for name, (fn, args) in held.items()}
    monkeypatch.setitem(scaled.__globals__, "FACTOR", 5.0)
    after = {name: fn(*args) for name, (fn, args) in held.items()}
    fresh = {name: fn(*args) for name, (fn, args) in _entry_points().items()}
    assert after == before
    assert after["value_and_grad"][0] == pytest.approx(3.0 / 5.0 * scaled(*POINT))
    for name in held:  # every derivative of scaled is linear in FACTOR
        assert fresh[name] == _scaled_by(before[name], 5.0 / 3.0), name
    assert fresh["value_and_grad"][0] == scaled(*POINT)


# --- the cache is bounded ------------------------------------------------------------------

def make_scaled(a):
    def scaled_by_a(x):
        return a * x * x
    return scaled_by_a


def test_the_cache_keeps_a_bounded_number_of_gradients(monkeypatch):
    """Closures of one factory are new functions each: the cache keeps the ones used
    last (a small bound here, to keep the test fast; the mechanism is the same)."""
    size = 16
    monkeypatch.setattr(symdiff.api, "CACHE_SIZE", size)
    first = symdiff.grad(make_scaled(0.5))
    kept = make_scaled(-1.0)
    for i in range(size * 3):
        symdiff.grad(make_scaled(float(i)))
        if i % 5 == 0:
            symdiff.grad(kept)  # used again and again: stays
        assert len(symdiff.api._CACHE) <= size
    assert first(2.0) == 2.0  # a gradient held outlives its cache entry
    builds = len(symdiff.api._CACHE)
    gradient = symdiff.grad(kept)
    assert len(symdiff.api._CACHE) == builds and gradient(3.0) == -6.0


# --- generated texts under one name ---------------------------------------------------------

def make_sine(a):
    def inner(x):
        return math.sin(a * x)
    return inner


def make_cube(a):
    def inner(x):
        return a * x * x * x
    return inner


def test_two_functions_of_one_name_keep_their_own_generated_text():
    """Two ``inner`` functions of one file: their gradients share a name, ``grad_inner``,
    but not a text; each stays readable (linecache, inspect), so differentiating the
    older one again reads its own text, not the newer one's."""
    sine = symdiff.grad(make_sine(2.0))
    cube = symdiff.grad(make_cube(3.0))
    assert sine.__name__ == cube.__name__ and sine.source != cube.source
    for gradient, second in ((sine, lambda x: -4.0 * math.sin(2.0 * x)),
                             (cube, lambda x: 18.0 * x)):
        again = symdiff.grad(gradient)
        for x in (0.3, -0.9):
            assert again(x) == pytest.approx(finite_difference(gradient, (x,), 0)[0], rel=1e-6)
            assert again(x) == pytest.approx(second(x), rel=1e-12)


def test_a_tuple_of_one_and_one_name_are_two_texts():
    """``wrt="x"`` returns a float and ``wrt=("x",)`` a tuple: two texts, two names."""
    bare, one = symdiff.grad(with_default, wrt="x"), symdiff.grad(with_default, wrt=("x",))
    assert bare.__code__.co_filename != one.__code__.co_filename
    assert symdiff.grad(bare, wrt="x")(0.4) == pytest.approx(
        _second(with_default, (0.4, 2.0), 0, 0), rel=1e-6)
