"""check on objects: namedtuples, dataclasses and plain instances as parameters.

Every number field of an object differentiated by is a row named by its path (``p.w``,
``net.layers[1].b``), and the four witnesses agree on it; the objects corpus
(``tests/corpus/objects.py``) runs through ``check`` with every row ok.  A wrong rule
used on a field is caught and its call located; a gradient built wrong on one field
fails that field's row alone.  Expected lines are found through marker comments
(``# <call: name>``), never written as numbers.
"""

import dataclasses
import math
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest

import symdiff
from symdiff.checking.locate import locate
from symdiff.specialized import container_kinds
from tests.corpus import objects
from tests.wrong_builds import built_wrong, marked_line as marked_in

HERE = Path(__file__)


def marked_line(name):
    """The line number of the one line of this file that ends with ``# <call: name>``."""
    return marked_in(HERE, name)


CASES = {c.label: c for c in objects.OBJECT_CASES}


@pytest.mark.parametrize("label", list(CASES))
def test_the_objects_corpus_checks_ok(label):
    case = CASES[label]
    report = symdiff.check(case.fn, *case.points, wrt=case.wrt)
    assert report.ok, str(report)
    assert report.rows and all(r.status.startswith("ok") for r in report.rows)


def number_fields(value, name):
    """The paths ``check`` should name an object's number fields by, written out here
    from the object's own fields (a field holding a list: one path per element)."""
    pairs = (list(zip(value._fields, value)) if isinstance(value, tuple) else
             [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
             if dataclasses.is_dataclass(value) else list(vars(value).items()))
    paths = []
    for field, item in pairs:
        if isinstance(item, float):
            paths.append(f"{name}.{field}")
        elif isinstance(item, list) and all(isinstance(v, float) for v in item):
            paths += [f"{name}.{field}[{i}]" for i in range(len(item))]
    return paths


@pytest.mark.parametrize("fn, point, wrt, name", [
    (objects.gaussian_nll, (objects.Gaussian(0.2, -0.1), 0.9), None, "g"),
    (objects.damped, (objects.Oscillator(0.5, 0.1, "slow"), 2.5), None, "osc"),
    (objects.mixture_density, (objects.Mixture([0.3, 0.7], [-0.5, 0.8], 1.2), 0.1), None, "m"),
    (objects.energy, (1.0, 2.0, objects.System(2.0, 3.0)), "system", "system"),
], ids=["namedtuple", "frozen dataclass", "dataclass of lists", "plain instance"])
def test_each_number_field_is_a_row_named_by_its_path(fn, point, wrt, name):
    report = symdiff.check(fn, point, wrt=wrt)
    assert report.ok, str(report)
    labels = [r.param for r in report.rows]
    value = next(v for v in point if not isinstance(v, float))
    assert [p for p in labels if p.startswith(name + ".")] == number_fields(value, name)
    assert all(r.sympy_status == "ok" and r.sympy is not None for r in report.rows)


def test_a_static_field_is_no_row_and_the_point_names_the_class():
    report = symdiff.check(objects.damped, (objects.Oscillator(2.0, 0.3), 1.1))
    assert [r.param for r in report.rows] == ["osc.omega", "osc.damping", "t"]
    assert "Oscillator(2 numbers)" in str(report)


def test_a_method_is_checked_with_its_instance_by_self():
    model = objects.Model(0.5, -0.2)
    report = symdiff.check(model.loss, (1.0, 2.0), wrt=("self", "x"))
    assert report.ok, str(report)
    assert [r.param for r in report.rows] == ["self.w", "self.b", "x"]
    drawn = symdiff.check(model.penalized, samples=2)  # random points: the instance kept
    assert drawn.ok and len(drawn.rows) == 6 and all(r.point[0] == model for r in drawn.rows)


def test_an_instance_with_call_is_checked_by_its_fields():
    report = symdiff.check(objects.Spring(3.0, 0.5), (2.0,), (-0.4,), wrt="self")
    assert report.ok, str(report)
    assert [r.param for r in report.rows] == ["self.k", "self.rest"] * 2


def test_random_points_need_an_example_of_the_object():
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.check(objects.linear_loss)
    error = caught.value
    first = objects.linear_loss.__code__.co_firstlineno
    assert (error.lineno, error.source_line[error.col_offset:][:3]) == (first + 1, "p.w")
    assert "example=" in error.hint
    report = symdiff.check(objects.linear_loss, example=(objects.Params(1.0, 1.0), 1.0, 1.0),
                           samples=3)  # the way out
    assert report.ok and len(report.rows) == 12
    assert len({r.point[0] for r in report.rows}) == 3  # its fields drawn at each point


@dataclasses.dataclass
class Dense:
    W: np.ndarray
    b: np.ndarray
    activation: str = "tanh"


def dense_energy(layer, x):
    return np.sum(np.tanh(layer.W @ x + layer.b) ** 2)


def test_an_object_holding_arrays_gives_element_and_direction_rows():
    rng = np.random.default_rng(3)
    point = (Dense(rng.standard_normal((2, 3)), rng.standard_normal(2)), rng.standard_normal(3))
    report = symdiff.check(dense_energy, point, wrt="layer")
    assert report.ok, str(report)
    labels = [r.param for r in report.rows]
    assert labels[:8] == [f"layer.W[{i}, {j}]" for i in range(2) for j in range(3)] + [
        "layer.b[0]", "layer.b[1]"]
    assert sum(p.startswith("layer along") for p in labels) == 3


# --- wrong derivatives: caught, and located -----------------------------------------------

Decay = namedtuple("Decay", "a k")


def relax(k, t):
    return math.exp(-k * t)


def relax_dk_wrong(k, t, out):
    return t * out  # wrong: the sign is lost


symdiff.defgrad(relax, relax_dk_wrong, lambda k, t, out: -k * out)


def decay_loss(p, t):
    s = p.a * t
    r = relax(p.k, t)  # <call: relax>
    return s * r


def test_a_wrong_rule_on_a_field_is_caught_and_located():
    report = symdiff.check(decay_loss, (Decay(1.5, 0.4), 0.7), (Decay(-0.5, 1.2), 1.3))
    assert not report.ok
    assert [(p.function, p.argument) for p in report.rule_problems] == [("relax", "k")]
    failing = {r.param for r in report.rows if not r.status.startswith("ok")}
    assert failing == {"p.k"}, str(report)
    assert report.divergences, str(report)
    assert all(d.lineno == marked_line("relax") for d in report.divergences)
    assert report.divergences[0].point[0] == Decay(1.5, 0.4)


def test_the_locator_finds_nothing_where_the_gradient_is_right():
    point = (objects.Params(0.5, 0.1), 1.5)
    gradient = symdiff.api.build(objects.through_helper, ("p", "x"), prefer="active",
                                 kinds=container_kinds(objects.through_helper, point))
    assert locate(gradient.program, ["p", "x"], point) is None


def test_one_wrong_field_fails_its_row_alone(monkeypatch):
    built_wrong(monkeypatch, lambda g: (g[0]._replace(w=g[0].w * 1.5), *g[1:]))
    report = symdiff.check(objects.linear_loss, (objects.Params(0.5, -0.3), 1.2, 0.7))
    assert not report.ok
    assert {r.param for r in report.rows if not r.status.startswith("ok")} == {"p.w"}


def test_a_gradient_of_another_class_is_caught(monkeypatch):
    built_wrong(monkeypatch, lambda g: (tuple(g[0]), *g[1:]))
    report = symdiff.check(objects.linear_loss, (objects.Params(0.5, -0.3), 1.2, 0.7))
    assert not report.ok
    assert "is a tuple, not a Params" in report.rows[0].status
