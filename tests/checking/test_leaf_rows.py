"""check's rows per leaf: places, picking, structure problems, per-leaf finite differences,
the rows built from four witnesses' gradients, and random points from an example.

The generated gradient of a container parameter lands with the containers core; until
then the rows are built here from gradients given by hand or by the tape, and ``check``
itself runs on containers of data (parameters the gradient is not taken by).
"""

import math

import pytest

import symdiff
import symdiff.tape
from symdiff.checking.compare import check
from symdiff.checking.examples import container_use, random_points
from symdiff.checking.leaf_rows import (
    cells,
    finite_differences,
    pick,
    places,
    structure_problem,
)
from symdiff.checking.report import Raised
from symdiff.checking.statuses import status
from symdiff.errors import SymdiffError
from tests.oracles import same_structure


def model(params, xs):
    total = 0.0
    for i in range(len(xs)):
        total += (params["w"][0] * xs[i] + params["w"][1] * xs[i] ** 2 - params["b"]) ** 2
    return total


POINT = ({"w": [0.5, -0.2], "b": 0.3}, [1.0, 2.0, 0.5])


def test_places_name_every_number_in_order():
    where = places(POINT + (2.0,), ["params", "y"], [0, 2])
    assert where == [("params", 0, ("w", 0)), ("params", 0, ("w", 1)), ("params", 0, ("b",)),
                     ("y", 2, ())]


def test_pick_reads_a_path_and_keeps_raised_and_none():
    gradient = {"w": [1.0, 2.0], "b": 3.0}
    assert pick(gradient, ("w", 1)) == 2.0 and pick(gradient, ("b",)) == 3.0
    raised = Raised(ValueError)
    assert pick(raised, ("w", 0)) is raised and pick(None, ("b",)) is None
    assert pick(4.0, ()) == 4.0


@pytest.mark.parametrize("gradient, words", [
    ({"w": (1.0, 2.0), "b": 3.0}, 'params["w"] is a tuple, where params["w"] is a list'),
    ({"b": 3.0, "w": [1.0, 2.0]}, "keys"),
    ({"w": [1.0], "b": 3.0}, "1 items, not 2"),
    ({"w": [1.0, [2.0]], "b": 3.0}, 'params["w"][1] is a list, not a number'),
    ({"w": [1.0, True], "b": 3.0}, "bool"),
    ([1.0, 2.0, 3.0], "params is a list, where params is a dict"),
])
def test_a_gradient_of_the_wrong_structure_is_named(gradient, words):
    problem = structure_problem(gradient, POINT[0], "params")
    assert problem is not None and words in problem


def test_the_right_structure_has_no_problem():
    assert structure_problem({"w": [1.0, 2], "b": 3.0}, POINT[0], "params") is None
    assert structure_problem(Raised(ValueError), POINT[0], "params") is None
    assert structure_problem(2.0, 1.0, "x") is None
    assert structure_problem((2.0,), 1.0, "x") is not None


def test_finite_differences_by_each_place_match_the_tape():
    where = places(POINT, ["params", "xs"], [0, 1])
    estimates = finite_differences(model, POINT, where)
    taped = symdiff.tape.grad(model)(*POINT)
    flat = [taped[0]["w"][0], taped[0]["w"][1], taped[0]["b"]] + taped[1]
    assert [s for _, s in estimates] == ["steady"] * len(flat)
    for (estimate, _), expected in zip(estimates, flat):
        assert estimate == pytest.approx(expected, rel=1e-5, abs=1e-7)


def test_cells_per_leaf_from_four_witnesses():
    names, indices = ["params", "xs"], [0, 1]
    taped = symdiff.tape.grad(model)(*POINT)
    where = places(POINT, names, indices)
    fds = finite_differences(model, POINT, where)
    wrong = ({"w": [taped[0]["w"][0], 9.0], "b": taped[0]["b"]}, taped[1])
    rows = cells(POINT, names, indices, wrong, taped, taped, fds)
    assert [c.label for c in rows] == ['params["w"][0]', 'params["w"][1]', 'params["b"]',
                                       "xs[0]", "xs[1]", "xs[2]"]
    said = [status(c.generated, c.tape, c.sympy, c.finite, 1e-7, 1e-9) for c in rows]
    assert said[1] == "tape differs, sympy differs"
    assert all(s == "ok" for i, s in enumerate(said) if i != 1)
    assert all(c.problem is None for c in rows)


def test_cells_mark_a_gradient_of_the_wrong_structure():
    names, indices = ["params", "xs"], [0, 1]
    taped = symdiff.tape.grad(model)(*POINT)
    fds = finite_differences(model, POINT, places(POINT, names, indices))
    as_tuple = (taped[0], tuple(taped[1]))
    rows = cells(POINT, names, indices, as_tuple, taped, (None, None), fds)
    assert [c.problem is None for c in rows] == [True] * 3 + [False] * 3
    assert all(math.isnan(c.generated) for c in rows[3:])
    assert "xs is a tuple, where xs is a list" in rows[3].problem


def test_cells_keep_raised_per_leaf():
    names, indices = ["xs"], [1]
    raised = Raised(ZeroDivisionError)
    fds = [(0.0, "steady")] * 3
    rows = cells(POINT, names, indices, (raised,), (raised,), (None,), fds)
    assert [c.generated for c in rows] == [raised] * 3 and rows[0].label == "xs[0]"


def test_a_container_parameter_is_found_where_it_is_used():
    name, node, parsed = container_use(model)
    assert name == "xs" and node.lineno == model.__code__.co_firstlineno + 2
    assert container_use(lambda x, y: x * y) is None
    assert container_use(lambda p: p.get("w", 1.0) * 2.0)[0] == "p"


def test_random_points_keep_the_example_structure():
    example = ({"w": [1.0, 1.0], "b": 1.0}, [1.0, 2.0, 3.0])
    drawn = random_points(model, ["params", "xs"], ["params"], set(), 4, (0.1, 2.0), 0,
                          example)
    assert len(drawn) == 4 and len({repr(p) for p in drawn}) == 4
    for point in drawn:
        same_structure(point[0], example[0], "params")
        assert point[1] is example[1]  # data: as given
        assert all(0.1 <= v <= 2.0 for v in point[0]["w"] + [point[0]["b"]])
    assert drawn == random_points(model, ["params", "xs"], ["params"], set(), 4, (0.1, 2.0),
                                  0, example)


# --- check on containers of data (no gradient by them), which works today -------------------

def weighted(xs, x):
    total = 0.0
    for i in range(len(xs)):
        total += xs[i] * math.sin(x * (i + 1))
    return total


def test_check_with_a_data_container():
    report = check(weighted, ([1.0, 2.0, 0.5], 0.3), ((2.0,), 1.1), wrt="x")
    assert report.ok and [r.param for r in report.rows] == ["x", "x"]
    assert "[3 numbers]" in str(report)


def test_check_draws_random_points_from_an_example():
    report = check(weighted, wrt="x", example=([1.0, 2.0, 0.5], 0.3), samples=3)
    assert report.ok and len(report.rows) == 3
    assert all(r.point[0] == [1.0, 2.0, 0.5] for r in report.rows)
    assert len({r.point[1] for r in report.rows}) == 3


def test_check_without_a_point_for_a_container_is_a_located_error():
    with pytest.raises(SymdiffError) as info:
        check(weighted, wrt="x")
    assert info.value.lineno == weighted.__code__.co_firstlineno + 2
    assert info.value.filename == __file__ and info.value.hint


def test_numbers_keep_their_rows():
    def f(x, y):
        return x * math.exp(y)

    report = symdiff.check(f, (0.5, 1.5))
    assert report.ok and [r.param for r in report.rows] == ["x", "y"]


# --- check's rows per leaf, with the generated gradient stood in for -----------------------

def _stand_in_build(monkeypatch, gradient_of):
    """``check`` builds with ``symdiff.api.build``: here its gradient is ``gradient_of(fn,
    names)`` and its program the little ``check`` reads (no rules, no stop_gradient)."""
    import inspect
    import types

    from symdiff import api
    from symdiff.checking import compare

    def build(fn, wrt=None, prefer=None, **_):
        params = list(inspect.signature(fn).parameters)
        names = params if wrt is None else [wrt] if isinstance(wrt, str) else list(wrt)
        program = types.SimpleNamespace(params=params, optional=(), name=fn.__name__, body=[],
                                        custom_functions={})
        return types.SimpleNamespace(program=program, wrt_names=names, single=len(names) == 1,
                                     function=gradient_of(fn, names))
    monkeypatch.setattr(api, "build", build)
    monkeypatch.setattr(compare, "locate_safely", lambda *args: None)


def _tape(fn, names):
    return symdiff.tape.grad(fn, wrt=names[0] if len(names) == 1 else tuple(names))


def test_check_rows_per_leaf(monkeypatch):
    _stand_in_build(monkeypatch, _tape)
    report = check(model, POINT, ({"w": [1.0, 0.5], "b": -0.1}, [0.5, 1.5]))
    assert report.ok, str(report)
    labels = ['params["w"][0]', 'params["w"][1]', 'params["b"]']
    assert [r.param for r in report.rows] == labels + ["xs[0]", "xs[1]", "xs[2]"] + labels + [
        "xs[0]", "xs[1]"]
    assert 'params["w"][1]' in str(report)


def test_check_names_the_wrong_leaf(monkeypatch):
    def off_by_one(fn, names):
        def gradient(*point):
            right = _tape(fn, names)(*point)
            right[1][2] += 1.0
            return right
        return gradient
    _stand_in_build(monkeypatch, off_by_one)
    report = check(model, POINT)
    assert not report.ok
    assert [r.param for r in report.rows if not r.status.startswith("ok")] == ["xs[2]"]


def test_check_names_a_gradient_of_the_wrong_structure(monkeypatch):
    def as_tuple(fn, names):
        def gradient(*point):
            params, xs = _tape(fn, names)(*point)
            return params, tuple(xs)
        return gradient
    _stand_in_build(monkeypatch, as_tuple)
    report = check(model, POINT)
    wrong = [r for r in report.rows if not r.status.startswith("ok")]
    assert [r.param for r in wrong] == ["xs[0]", "xs[1]", "xs[2]"]
    assert "a tuple, where xs is a list" in wrong[0].status


def test_check_rows_where_the_function_raises(monkeypatch):
    def f(xs):
        return math.log(xs[0]) + xs[1]

    _stand_in_build(monkeypatch, _tape)
    report = check(f, ([-1.0, 2.0],))
    assert [r.param for r in report.rows] == ["xs[0]", "xs[1]"]
    assert all(r.status.startswith("ok (the function raises ValueError") for r in report.rows)
