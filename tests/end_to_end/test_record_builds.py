"""Records built inside the function (``corpus/record_builds.py``): the gradient agrees
with the tape's, structure and numbers; along random directions, ``<gradient, v>``
agrees with the central difference of the function and ``H v`` with the central
difference of the tape's gradient; the generated code builds the record as the user's
does; a build symdiff does not read is a located refusal whose hint names the fields.
"""

import math
import random
import re
from collections import namedtuple
from dataclasses import dataclass, field

import pytest

import symdiff
import symdiff.tape
from symdiff import SymdiffError

try:
    from corpus import record_builds
    from oracles import marked_place
    from end_to_end.test_objects import (along, assert_alike, at_path, derivative_at_zero,
                                         number_paths)
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import record_builds
    from tests.oracles import marked_place
    from tests.end_to_end.test_objects import (along, assert_alike, at_path,
                                               derivative_at_zero, number_paths)

POINTS = [pytest.param(c.fn, point, id=f"{c.label}-{i}")
          for c in record_builds.RECORD_CASES for i, point in enumerate(c.points)]

HESSIAN_REFUSED = {  # function -> what forward mode of its gradient stops at; only shrinks
    "stepped_in_a_loop": "the gradient builds the record inside its loop (s = State(...)), "
    "which is read only in a function of the user the loop calls",
    **{name: "the gradient's adjoint of a list of records is a comprehension of dicts "
       "written out ([{'w': 0.0} for item in layers]), which is not read again"
       for name in ("layers_holding_functions", "alike_flags_in_a_loop")},
}


def _leaves(gradient, point):
    parts = gradient if len(point) > 1 else (gradient,)
    return [float(at_path(part, path)) for part, value in zip(parts, point)
            for path in number_paths(value)]


def _direction(fn, point):
    rng = random.Random(f"record builds:{fn.__name__}:{point}")
    return [(i, path, rng.uniform(-1.0, 1.0)) for i, value in enumerate(point)
            for path in number_paths(value)]


@pytest.mark.parametrize("fn, point", POINTS)
def test_the_gradient_agrees_with_the_tape(fn, point):
    assert_alike(symdiff.grad(fn)(*point), symdiff.tape.grad(fn)(*point), fn.__name__)


@pytest.mark.parametrize("fn, point", POINTS)
def test_the_gradient_agrees_with_finite_differences_along_a_direction(fn, point):
    moves = _direction(fn, point)
    inner = sum(g * v for g, (_, _, v) in zip(_leaves(symdiff.grad(fn)(*point), point), moves))
    estimate = derivative_at_zero(lambda t: fn(*along(point, moves, t)))
    assert math.isclose(inner, estimate, rel_tol=1e-6, abs_tol=1e-6), (inner, estimate)


@pytest.mark.parametrize("fn, point", POINTS)
def test_the_hessian_times_a_direction_agrees_with_the_tape_gradient(fn, point):
    moves = _direction(fn, point)
    if fn.__name__ in HESSIAN_REFUSED:
        with pytest.raises(SymdiffError):
            symdiff.hessian(fn)(*point)
        return
    hessian = symdiff.hessian(fn)(*point)
    paths = [(i, path) for i, value in enumerate(point) for path in number_paths(value)]
    single = len(point) == 1
    got = []
    for a, path in paths:
        total = 0.0
        for (b, inner), (_, _, v) in zip(paths, moves):
            block = hessian if single else hessian[a][b]
            total += float(at_path(at_path(block, path), inner)) * v
        got.append(total)
    gradient = symdiff.tape.grad(fn)
    for k, g in enumerate(got):
        want = derivative_at_zero(lambda t: _leaves(gradient(*along(point, moves, t)), point)[k])
        assert math.isclose(g, want, rel_tol=1e-6, abs_tol=1e-6), (k, g, want)


def test_the_generated_code_builds_the_record_as_the_function_does():
    text = symdiff.source(record_builds.by_keywords)
    assert "State(x=" in text and re.search(r"\bs\.x\b", text)
    assert not re.search(r"\bs\['x'\]", text)  # the record read by its field
    assert "from " in text and "import State" in text  # it runs on its own
    flagged = symdiff.source(record_builds.with_a_flag)
    assert "label='weighted'" in flagged
    params = record_builds.Params(0.5, -0.2)
    assert "type(p)(w=" in symdiff.source(record_builds.like_the_parameter, params, 0.7)
    held = symdiff.source(record_builds.holding_a_function)
    assert "Layer(w=w, act=math.tanh)" in held and "math.tanh(" in held
    assert "Layer(w=w, act=_leaky)" in symdiff.source(record_builds.layers_holding_functions)


def unlike_flags_in_a_list(x, w, v):
    layers = [record_builds.Pair(w, x, "a"), record_builds.Pair(v, x, "b")]  # REFUSED at [
    s = 0.0
    for layer in layers:
        s += layer.left * layer.right if layer.label == "a" else layer.left
    return s


def unlike_functions_in_a_list(x, w, v):
    layers = [record_builds.Layer(w, math.tanh), record_builds.Layer(v, math.sin)]  # REFUSED at [
    h = x
    for layer in layers:
        h = layer.act(layer.w * h)
    return h


@pytest.mark.parametrize("fn", [unlike_flags_in_a_list, unlike_functions_in_a_list])
def test_a_list_of_records_of_unlike_flags_or_functions_is_refused_at_the_list(fn):
    """Their flags and functions are part of their type: one name over them (the loop's)
    could not stand for both, so the list is refused where it is built."""
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(fn)(0.7, 0.3, -0.5)
    assert "a list of unlike elements" in str(caught.value)
    assert (caught.value.lineno, caught.value.col_offset) == marked_place(fn)


Point = namedtuple("Point", "x y")


@dataclass
class Listed:
    values: list = field(default_factory=list)
    scale: float = 1.0


def missing_field(x):
    return Point(x=x).x


def unknown_field(x):
    return Point(x=x, z=x).x


def factory_default(x):
    return Listed(scale=x).scale


def built_in_a_loop(x):
    s = Point(x, x)
    for _ in range(3):
        s = Point(x=s.x * s.y, y=s.y)
    return s.x


def _halved(s):
    return Point(x=s.x * s.y, y=s.y)


def built_in_a_loop_fixed(x):
    s = Point(x, x)
    for _ in range(3):
        s = _halved(s)
    return s.x


def missing_field_fixed(x):
    return Point(x=x, y=0.0).x * x


def unknown_field_fixed(x):
    return Point(x=x, y=x).x * x


def factory_default_fixed(x):
    return Listed(values=[x], scale=x).scale * x


@pytest.mark.parametrize("refused, fixed, words", [
    (missing_field, missing_field_fixed, "the field y of Point is given no value"),
    (unknown_field, unknown_field_fixed, "z is not a field of Point"),
    (factory_default, factory_default_fixed, "a default made by a factory"),
    (built_in_a_loop, built_in_a_loop_fixed, "a Point built inside a loop"),
])
def test_a_build_not_read_is_refused_where_it_is_and_its_hint_works(refused, fixed, words):
    with pytest.raises(SymdiffError) as caught:
        symdiff.grad(refused)(0.5)
    assert words in str(caught.value)
    assert caught.value.lineno in (refused.__code__.co_firstlineno + 1,
                                   refused.__code__.co_firstlineno + 3)
    assert math.isclose(symdiff.grad(fixed)(0.5), symdiff.tape.grad(fixed)(0.5))
