"""Gradients of functions over objects (``corpus/objects.py``) against the tape,
finite differences and (for the plain functions) sympy, leaf by leaf.

For every case, at every one of its points: ``symdiff.grad`` (of the function, the
bound method, the callable instance) has the structure the tape gives (a namedtuple or a
dataclass of the argument's class, a plain instance's number attributes as a dict, the
same fields in the same order, static fields kept) and agrees with it leaf by leaf; and
along a random direction over every differentiated number, ``<gradient, v>`` agrees
with the central difference of the function (as autograd's ``check_vjp``).  The tape
is given the function and the instance as its first argument; the parameters
differentiated are stated here apart from symdiff's rule: every positional one but an
instance of a plain class, and a method's instance only when ``wrt`` names it.
"""

import dataclasses
import inspect
import math
import numbers
import random

import pytest

import symdiff
import symdiff.tape
from symdiff.witnesses.finite import moved
from symdiff.witnesses.symbolic import evaluate_grad

try:
    import oracles
    from corpus import objects
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.corpus import objects

CASES = {c.label: c for c in objects.OBJECT_CASES}
EXACT = 1e-10
FD = 1e-6


def test_the_labels_are_distinct_and_many():
    assert len(CASES) == len(objects.OBJECT_CASES) >= 25


def function_and_instance(fn):
    """``(function, instance or None)`` of a function, a bound method or an instance."""
    if inspect.ismethod(fn):
        return fn.__func__, fn.__self__
    if not inspect.isfunction(fn):
        return type(fn).__call__, fn
    return fn, None


def plain(value):
    return hasattr(value, "__dict__") and not dataclasses.is_dataclass(value) and not (
        isinstance(value, tuple)) and not callable(value)


def tape_wrt(case, point):
    """The names the tape differentiates ``case`` by at ``point``, and whether alone."""
    function, instance = function_and_instance(case.fn)
    names = list(inspect.signature(function).parameters)
    if instance is not None:
        point = (instance,) + point
    if case.wrt is None:
        chosen = [n for n, v in zip(names, point) if not plain(v)
                  and not (instance is not None and n == names[0])]
        return chosen, len(chosen) == 1
    items = [case.wrt] if isinstance(case.wrt, (str, int)) else list(case.wrt)
    offset = 1 if instance is not None else 0
    chosen = [names[i + offset] if isinstance(i, int) else i for i in items]
    return chosen, isinstance(case.wrt, (str, int))


def fields(value):
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return list(zip(value._fields, value))
    if dataclasses.is_dataclass(value):
        return [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
    return None


def assert_alike(got, want, where, tolerance=EXACT):
    """``got`` has ``want``'s structure exactly, and its numbers agree."""
    assert type(got) is type(want), f"{where}: {type(got).__name__}, not {type(want).__name__}"
    if fields(want) is not None:
        for (name, g), (_, w) in zip(fields(got), fields(want)):
            assert_alike(g, w, f"{where}.{name}", tolerance)
    elif isinstance(want, dict):
        assert list(got) == list(want), f"{where}: keys {list(got)}, not {list(want)}"
        for key in want:
            assert_alike(got[key], want[key], f"{where}[{key!r}]", tolerance)
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_alike(g, w, f"{where}[{i}]", tolerance)
    elif isinstance(want, float):
        assert math.isclose(got, want, rel_tol=tolerance, abs_tol=tolerance), (
            f"{where}: {got} != {want}")
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


def number_paths(value, path=()):
    """The paths of the numbers a gradient of ``value`` holds (its static fields left)."""
    if isinstance(value, bool) or isinstance(value, str):
        return []
    if isinstance(value, numbers.Real):
        return [path]
    pairs = fields(value) or (list(value.items()) if isinstance(value, dict) else list(
        enumerate(value)) if isinstance(value, (list, tuple)) else list(vars(value).items())
        if hasattr(value, "__dict__") else [])
    return [p for key, item in pairs for p in number_paths(item, path + (key,))]


def at_path(value, path):
    for key in path:
        value = value[key] if isinstance(value, (dict, list)) or (
            isinstance(value, tuple) and isinstance(key, int)) else getattr(value, key)
    return value


POINTS = [pytest.param(c.label, i, id=f"{c.label}-{i}") for c in objects.OBJECT_CASES
          for i in range(len(c.points))]


@pytest.mark.parametrize("label, index", POINTS)
def test_gradient_agrees_with_the_tape(label, index):
    case = CASES[label]
    point = case.points[index]
    got = symdiff.grad(case.fn, wrt=case.wrt)(*point)
    function, instance = function_and_instance(case.fn)
    names, single = tape_wrt(case, point)
    full = point if instance is None else (instance,) + point
    want = symdiff.tape.grad(function, wrt=names[0] if single else tuple(names))(*full)
    assert_alike(got, want, label)


@pytest.mark.parametrize("label, index", [p for p in POINTS if inspect.isfunction(
    CASES[p.values[0]].fn)])
def test_gradient_agrees_with_sympy(label, index):
    case = CASES[label]
    point = case.points[index]
    names, single = tape_wrt(case, point)
    want = evaluate_grad(case.fn, point, wrt=names[0] if single else tuple(names))
    assert_alike(symdiff.grad(case.fn, wrt=case.wrt)(*point), want, label, 1e-9)


def along(point, moves, t):
    """The arguments ``point`` moved by ``t`` along ``moves``, ``(argument, path, v)``
    each."""
    arguments = list(point)
    for i, path, v in moves:
        arguments = moved(arguments, (i, *path), t * v)
    return arguments


def derivative_at_zero(at, h=1e-4):
    """The central difference of ``at(t)`` at 0, Richardson-extrapolated."""
    near = (at(h) - at(-h)) / (2 * h)
    far = (at(2 * h) - at(-2 * h)) / (4 * h)
    return (4.0 * near - far) / 3.0


@pytest.mark.parametrize("label, index", POINTS)
def test_gradient_agrees_with_finite_differences_along_a_direction(label, index):
    case = CASES[label]
    point = case.points[index]
    function, instance = function_and_instance(case.fn)
    full = point if instance is None else (instance,) + point
    names, single = tape_wrt(case, point)
    params = list(inspect.signature(function).parameters)
    got = symdiff.grad(case.fn, wrt=case.wrt)(*point)
    grads = [got] if single else list(got)
    rng = random.Random(f"objects:{label}:{index}")
    moves = [(params.index(n), path, rng.uniform(-1.0, 1.0))
             for n in names for path in number_paths(full[params.index(n)])]
    inner = sum(at_path(grads[names.index(params[i])], path) * v for i, path, v in moves)

    estimate = derivative_at_zero(lambda t: function(*along(full, moves, t)))
    assert math.isclose(inner, estimate, rel_tol=FD, abs_tol=FD), (inner, estimate)


def test_a_module_level_dataclass_is_read_as_a_snapshot_and_rebuilt_when_it_changes():
    point = (0.7, 0.2)
    before = symdiff.grad(objects.settings_through_helper)(*point)
    assert "SETTINGS_w = 0.5" in symdiff.source(objects.settings_through_helper)
    saved = dataclasses.replace(objects.SETTINGS)
    try:
        objects.SETTINGS.w = 2.0  # a new field value: grad applied again reads it
        after = symdiff.grad(objects.settings_through_helper)(*point)
        want = symdiff.tape.grad(objects.settings_through_helper)(*point)
        assert after != before
        assert_alike(after, want, "settings changed")
    finally:
        objects.SETTINGS.w = saved.w


def test_forward_mode_reads_module_level_objects_as_data():
    hessian = symdiff.hessian(objects.module_spring_energy)(0.7, -0.3)
    omega, damping = objects.SPRING.omega, objects.SPRING.damping
    assert hessian == ((omega ** 2, -damping), (-damping, 1.0))


MODULE_LABEL = """\
from dataclasses import dataclass


@dataclass
class Options:
    scale: float
    kind: str


OPTIONS = Options(2.0, "sum")


def scaled(x):
    return OPTIONS.kind * x


def scaled_by_argument(x, options):
    return options.scale * x * x if options.kind == "sum" else x
"""


def test_a_field_of_a_module_object_that_is_no_number_is_refused_with_a_way_out(tmp_path):
    module = oracles.module_from_text(tmp_path, "m_options", MODULE_LABEL)
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(module.scaled)(1.0)
    error = caught.value
    assert (error.lineno, error.source_line[error.col_offset:].startswith("OPTIONS.kind")) == (
        module.scaled.__code__.co_firstlineno + 1, True)
    assert "pass the object as an argument" in error.hint
    got = symdiff.grad(module.scaled_by_argument, wrt="x")(1.5, module.OPTIONS)  # the way out
    assert got == symdiff.tape.grad(module.scaled_by_argument, wrt="x")(1.5, module.OPTIONS)
