"""Forward mode and second order of functions over objects (``corpus/objects.py``):
``jvp`` against the central difference of the function, ``hvp`` and ``hessian`` against
the central difference of the tape's gradient, along random directions over every
differentiated number, for plain functions, bound methods and callable instances alike.

What forward mode does not take yet is listed in ``REFUSED`` (a located
``SymdiffError``); the list only shrinks: a case listed that is taken fails here.
"""

import copy
import dataclasses
import inspect
import math
import numbers
import random

import pytest

import symdiff
import symdiff.tape
from symdiff import SymdiffError
from symdiff.witnesses.finite import moved

try:
    from corpus import objects
    from end_to_end.test_objects import (CASES, POINTS, along, at_path, derivative_at_zero,
                                         function_and_instance, number_paths, tape_wrt)
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import objects  # noqa: F401 (the cases' module)
    from tests.end_to_end.test_objects import (CASES, POINTS, along, at_path,
                                               derivative_at_zero, function_and_instance,
                                               number_paths, tape_wrt)

REFUSED = {  # label -> what second order stops at (jvp takes them all); only shrinks
    label: "records inside containers: the gradient's nested builds" for label in (
        "network", "network_indexed", "mixture_density", "list_of_records",
        "dict_of_records", "record_holding_a_dict", "called_in_turn", "called_in_turn_unlike",
        "called_by_index")}
H = 1e-4
TOLERANCE = 1e-6


def _setting(label, index):
    """The differentiated parameters of a case at a point: the full argument list (the
    instance first, for a method), their names, whether one, and a random direction as
    ``(argument index, path, size)`` over every number they hold."""
    case = CASES[label]
    point = case.points[index]
    function, instance = function_and_instance(case.fn)
    full = point if instance is None else (instance,) + point
    names, single = tape_wrt(case, point)
    params = list(inspect.signature(function).parameters)
    rng = random.Random(f"objects second order:{label}:{index}")
    moves = [(params.index(n), path, rng.uniform(-1.0, 1.0))
             for n in names for path in number_paths(full[params.index(n)])]
    return case, function, full, names, single, params, moves


def _wrt(case, names, single):
    """The case's ``wrt``, or the parameters its gradient takes by default written out
    (forward mode's default counts a tangent per parameter of the source, a plain
    instance's too: ``frontend.wrt``)."""
    if case.wrt is not None:
        return case.wrt
    return names[0] if single else tuple(names)


def _direction_values(full, moves, names, params):
    """The direction as the differentiated parameters' structures (the object's own
    class for a record), one per name."""
    values = []
    for name in names:
        k = params.index(name)
        value = _zeros(full[k])
        for i, path, v in moves:
            if i == k:
                value = moved([value], (0, *path), v)[0]
        values.append(value)
    return values


def _zeros(value):
    """``value`` with each of its numbers 0.0 (an object of its class, its other fields
    kept)."""
    if isinstance(value, bool) or isinstance(value, str) or value is None:
        return value
    if isinstance(value, numbers.Real):
        return 0.0
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return value._replace(**{k: _zeros(v) for k, v in value._asdict().items()})
    if dataclasses.is_dataclass(value):
        return dataclasses.replace(value, **{f.name: _zeros(getattr(value, f.name))
                                             for f in dataclasses.fields(value)})
    if isinstance(value, dict):
        return {k: _zeros(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_zeros(v) for v in value)
    made = copy.copy(value)  # a plain instance: its attributes
    for key, item in vars(value).items():
        setattr(made, key, _zeros(item))
    return made


def _leaves(value, template):
    return [float(at_path(value, path)) for path in number_paths(template)]


def _taken(label, build):
    try:
        made = build()
    except SymdiffError as error:
        assert label in REFUSED, f"{label} refused: {error}"
        assert error.lineno is not None
        return None
    assert label not in REFUSED, f"{label} is taken now: take it out of REFUSED"
    return made


@pytest.mark.parametrize("label, index", POINTS)
def test_jvp_agrees_with_finite_differences_of_the_function(label, index):
    case, function, full, names, single, params, moves = _setting(label, index)
    tangents = _direction_values(full, moves, names, params)
    value, tangent = symdiff.jvp(case.fn, wrt=_wrt(case, names, single))(*case.points[index], *tangents)
    assert math.isclose(value, function(*full), rel_tol=1e-12, abs_tol=1e-12)
    estimate = derivative_at_zero(lambda t: function(*along(full, moves, t)))
    assert math.isclose(tangent, estimate, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def _tape_gradientalong(function, full, moves, names, single):
    """The central difference of the tape's gradient along the direction, leaf by
    leaf, in the order ``number_paths`` lists each parameter's numbers."""
    gradient = symdiff.tape.grad(function, wrt=names[0] if single else tuple(names))
    params = list(inspect.signature(function).parameters)

    def leaves(t):
        got = gradient(*along(full, moves, t))
        parts = [got] if single else list(got)
        return [leaf for name, part in zip(names, parts)
                for leaf in _leaves(part, full[params.index(name)])]
    ahead, behind = leaves(H), leaves(-H)
    far_ahead, far_behind = leaves(2 * H), leaves(-2 * H)
    return [(4.0 * (a - b) / (2 * H) - (c - d) / (4 * H)) / 3.0
            for a, b, c, d in zip(ahead, behind, far_ahead, far_behind)]


@pytest.mark.parametrize("label, index", POINTS)
def test_hvp_agrees_with_finite_differences_of_the_tape_gradient(label, index):
    case, function, full, names, single, params, moves = _setting(label, index)
    vectors = _direction_values(full, moves, names, params)
    got = _taken(label, lambda: symdiff.hvp(case.fn, wrt=_wrt(case, names, single))(
        *case.points[index], *vectors))
    if got is None:
        return
    parts = [got] if single else list(got)
    leaves = [leaf for name, part in zip(names, parts)
              for leaf in _leaves(part, full[params.index(name)])]
    want = _tape_gradientalong(function, full, moves, names, single)
    assert len(leaves) == len(want)
    for g, w in zip(leaves, want):
        assert math.isclose(g, w, rel_tol=TOLERANCE, abs_tol=TOLERANCE), (g, w)


@pytest.mark.parametrize("label, index", POINTS)
def test_hessian_times_a_direction_agrees_with_finite_differences(label, index):
    case, function, full, names, single, params, moves = _setting(label, index)
    hessian = _taken(label, lambda: symdiff.hessian(case.fn, wrt=_wrt(case, names, single))(
        *case.points[index]))
    if hessian is None:
        return
    got = []
    for a, name in enumerate(names):
        template = full[params.index(name)]
        for path in number_paths(template):
            total = 0.0
            for i, inner, v in moves:
                b = names.index(params[i])
                block = hessian if single else hessian[a][b]
                total += float(at_path(at_path(block, path), inner)) * v
            got.append(total)
    want = _tape_gradientalong(function, full, moves, names, single)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert math.isclose(g, w, rel_tol=TOLERANCE, abs_tol=TOLERANCE), (g, w)
