"""The guards a gradient per kind of arguments checks each call against first.

A guard may say no to arguments of its kinds (the caller then finds their kinds the long
way), never yes to arguments of other kinds: ``kind_of`` is the witness here.
"""

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from symdiff.core import types as t
from symdiff.core.records import Scalar
from symdiff.frontend.guards import guard
from symdiff.frontend.kinds import kind_of
from symdiff.specialized import container_kinds

NAMES = ["a", "b", "c"]


def three(a, b, c):
    return a


def numbers():
    return st.one_of(st.floats(allow_nan=True), st.integers(-5, 5), st.booleans(),
                     st.just(np.float64(0.5)), st.just(1 << 80))


def values():
    leaves = st.one_of(numbers(), st.just("s"), st.none())
    return st.recursive(leaves, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.sampled_from(["w", "b", "k"]), inner, max_size=3)), max_leaves=12)


def _key(args):
    return container_kinds(three, args)


@settings(max_examples=400, deadline=None)
@given(st.tuples(values(), values(), values()), st.tuples(values(), values(), values()))
def test_a_guard_fits_only_arguments_of_its_kinds(built, called):
    fits = guard(_key(built), NAMES)
    if fits(called):
        assert _key(called) == _key(built), (built, called)


@settings(max_examples=300, deadline=None)
@given(st.tuples(values(), values(), values()))
def test_a_guard_fits_the_arguments_it_was_made_from_when_they_are_plain(args):
    if all(_plain(a) for a in args):
        assert guard(_key(args), NAMES)(args)


def _plain(value):
    """Made of exact lists, tuples, dicts and ints or floats only, and a container only
    where it has a kind (what a guard reads itself; anything else goes the long way)."""
    if type(value) in (list, tuple, dict) and kind_of(value) is None:
        return False
    if type(value) in (list, tuple):
        return all(_plain(v) for v in value)
    if type(value) is dict:
        return all(_plain(v) for v in value.values())
    return type(value) in (float, int, str, type(None))


def test_mutations_of_the_arguments_do_not_fit():
    """Each part a guard reads, changed alone, makes it say no."""
    base = ({"w": [[1.0, 2.0], [3.0, 4.0]], "b": [0.5, 1.5], "c": 2.0},
            [((1.0, 2.0), 1.0), ((3.0, 4.0), -1.0)], 3.0)
    fits = guard(_key(base), NAMES)
    assert fits(base)
    assert fits(({"w": [[1, 2, 7]], "b": [], "c": 2}, [((5, 6), 0)] * 9, "s"))  # lengths free
    changed = [({"w": [[1.0, 2.0]], "b": [0.5]}, base[1], 3.0),             # a key missing
               ({"b": [0.5], "w": [[1.0]], "c": 2.0}, base[1], 3.0),        # keys reordered
               ({"w": [[1.0, True]], "b": [0.5], "c": 2.0}, base[1], 3.0),  # a bool
               ({"w": [], "b": [0.5], "c": 2.0}, base[1], 3.0),             # an empty list of lists
               ({"w": [[1.0], (2.0,)], "b": [0.5], "c": 2.0}, base[1], 3.0),
               (base[0], [((1.0, 2.0, 3.0), 1.0)], 3.0),                    # a tuple's length
               (base[0], [((1.0, 2.0), 1.0, 0.0)], 3.0),
               (base[0], [([1.0, 2.0], 1.0)], 3.0),                         # a list for a tuple
               (base[0], [((1.0, "x"), 1.0)], 3.0),
               (base[0], [((1.0, 2.0), None)], 3.0),
               (base[0], [], 3.0),
               (base[0], base[1], [3.0]),                                   # a container for a number
               (base[0], base[1]),                                          # fewer arguments
               (base[0], base[1], 3.0, 4.0)]
    for args in changed:
        assert not fits(args), args


def test_a_guard_of_no_arguments_fits_only_a_call_without_any():
    fits = guard({}, [])
    assert fits(()) and not fits((1.0,)) and not fits(([1.0],))


def test_a_guard_says_no_when_a_watched_name_is_rebound_or_the_build_is_stale():
    scope, stale = {"math": "the module"}, [False]
    fits = guard({"a": t.List(t.FLOAT)}, ["a"], ((scope, scope), ("math", "range"),
                                                  ("the module", None), lambda: not stale[0]))
    assert fits(([1.0],))
    scope["range"] = len
    assert not fits(([1.0],))
    del scope["range"]
    assert fits(([1.0],))
    scope["math"] = "another"
    assert not fits(([1.0],))
    scope["math"], stale[0] = "the module", True
    assert not fits(([1.0],))


def test_a_guard_that_calls_runs_the_function_where_it_fits_and_the_other_way_elsewhere():
    def function(*args):
        return ("built", args)

    def otherwise(args, kwargs):
        return ("long way", args, kwargs)

    call = guard({"a": t.List(t.FLOAT)}, ["a", "b"], calls=(function, otherwise))
    assert call([1.0, 2], 3.0) == ("built", ([1.0, 2], 3.0))
    assert call([1.0, "x"], 3.0) == ("long way", ([1.0, "x"], 3.0), {})
    assert call([1.0]) == ("long way", ([1.0],), {})
    assert call([1.0], b=3.0) == ("long way", ([1.0],), {"b": 3.0})
    assert call([1.0], 2.0, type=int) == ("long way", ([1.0], 2.0), {"type": int})


def test_an_array_is_checked_by_dtype_axes_and_unit_axes_never_by_element():
    kinds = {"a": t.Array("float64", 2, (1,))}
    fits = guard(kinds, ["a"])
    assert fits((np.zeros((5, 1)),)) and fits((np.zeros((7, 1)),))
    for other in (np.zeros((5, 2)), np.zeros((1, 1)), np.zeros((5, 1), np.float32),
                  np.zeros(5), [[0.0]], 0.0):
        assert not fits((other,))


def test_an_array_s_dtype_is_met_by_numpy_s_own_object_another_byte_order_goes_the_long_way():
    """The guard takes the dtype object NumPy gives every native array of that name; an
    array of the same name in the other byte order is no verdict (its kind is the same),
    and the gradient called with one takes the long way to the same build."""
    import symdiff
    kinds = {"a": t.Array("float64", 1, ()), "b": t.Array("int64", 1, ())}
    fits = guard(kinds, ["a", "b"])
    swapped = np.arange(4.0).astype(np.dtype("float64").newbyteorder())
    assert fits((np.arange(4.0), np.arange(4)))
    assert not fits((swapped, np.arange(4)))
    assert container_kinds(three, (swapped, np.arange(4), 0.0)) == container_kinds(
        three, (np.arange(4.0), np.arange(4), 0.0))

    def weighted(x, w):
        return np.sum(np.sin(x) * w)

    gradient, witness = symdiff.grad(weighted, wrt="x"), symdiff.tape.grad(weighted, wrt="x")
    w = np.linspace(0.5, 2.0, 4)
    for x in (np.arange(4.0), swapped, np.arange(4.0) + 1.0, swapped):
        assert np.allclose(gradient(x, w), witness(x, w), rtol=1e-14, atol=0)


def test_a_gradient_per_kind_takes_the_build_of_each_call_s_kinds():
    """Alternating kinds: each call gets the build of its own kinds, not the last one's."""
    import symdiff
    from tests.corpus.containers import rosenbrock
    gradient = symdiff.grad(rosenbrock)
    rng = random.Random(5)
    for _ in range(20):
        xs = [rng.uniform(-2, 2) for _ in range(rng.randint(2, 5))]
        arg = tuple(xs) if rng.random() < 0.5 else xs
        got = gradient(arg)
        want = symdiff.tape.grad(rosenbrock)(list(xs))
        assert type(got) is type(arg) and list(got) == pytest.approx(list(want))


def test_a_global_rebound_after_a_call_builds_again(tmp_path):
    """The guard of the last call also checks the globals its build read."""
    import symdiff
    from tests import oracles
    module = oracles.module_from_text(tmp_path, "rebound_scale", (
        "SCALE = 2.0\n\n\ndef scaled(xs):\n    return SCALE * sum(x * x for x in xs)\n"))
    gradient = symdiff.grad(module.scaled)
    assert gradient([1.0, 3.0]) == [4.0, 12.0]
    module.SCALE = 0.5
    assert gradient([1.0, 3.0]) == [1.0, 3.0]


def test_a_list_of_tuples_changed_since_the_last_check_is_checked_again():
    """A list of tuples of numbers is checked once, then by the identity of its tuples:
    any tuple replaced, added or removed is checked again."""
    fits = guard({"data": t.List(t.Tuple((t.Tuple((t.FLOAT, t.FLOAT)), t.FLOAT)))}, ["data"])
    data = [((1.0, 2.0), 1.0), ((3.0, 4), -1.0)]
    assert fits((data,)) and fits((data,))
    for bad in (((1.0, True), 1.0), ((1.0, 2.0, 3.0), 1.0), ([1.0, 2.0], 1.0), (1.0, 2.0)):
        changed = list(data)
        changed[1] = bad
        assert not fits((changed,)), bad
        data.append(bad)
        assert not fits((data,)), bad
        data.pop()
        assert fits((data,))



def squares(xs, scale=2.0):
    total = 0.0
    for x in xs:
        total += scale * x * x
    return total


def test_a_gradient_per_kind_shows_the_signature_of_its_function():
    import inspect
    import symdiff

    gradient = symdiff.grad(squares, wrt=0)
    assert type(gradient).__name__ == "Specialized" and callable(gradient)
    assert str(inspect.signature(gradient)) == "(xs, scale=2.0)"
    assert gradient([1.0, 3.0]) == [4.0, 12.0] == gradient(xs=[1.0, 3.0])


def test_a_narrow_numpy_scalar_is_checked_by_its_exact_type():
    """The kind a compiled gradient is built for (``scalars=True``): a ``np.float32``
    fits, a float, a ``np.float64`` or a ``np.float16`` does not."""
    kinds = container_kinds(three, (np.float32(0.5), [1.0], 2.0), scalars=True)
    assert kinds["a"] == Scalar("float32") and "c" not in kinds
    fits = guard(kinds, NAMES)
    assert fits((np.float32(1.5), [2.0], 0.5))
    for other in (1.5, np.float64(1.5), np.float16(1.5), np.array(1.5, np.float32)):
        assert not fits((other, [2.0], 0.5))
        assert container_kinds(three, (other, [2.0], 0.5), scalars=True) != kinds


def test_a_star_parameter_holds_the_arguments_past_the_named_ones():
    fits = guard({"rest": t.Tuple((t.FLOAT, t.FLOAT))}, ["x"], star="rest")
    assert fits((1.0, 2.0, 3)) and not fits((1.0, 2.0)) and not fits((1.0, 2.0, 3.0, 4.0))
    assert not fits((1.0, 2.0, [3.0])) and not fits(([1.0], 2.0, 3.0))
    alone = guard({"args": t.Tuple(())}, [], star="args")
    assert alone(()) and not alone((1.0,))
