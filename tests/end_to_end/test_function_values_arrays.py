"""Array models given functions and objects as values (``corpus/arrays/models.py``,
``VALUE_CASES``): an activation passed or kept as a default (``act=relu``,
``act=np.tanh``, a lambda), functions held in a dict, a tuple or a module's table, a
layer with ``__call__`` (a dataclass, a namedtuple, a plain instance; a list of them;
one inside a model), checked against the tape and central finite differences
(``array_oracles.gradient_failures``).  An object is compared by its fields: the finite
differences move each array a record holds, as they move a dict's.
"""

import dataclasses
import inspect
import types

import numpy as np
import pytest

import symdiff
import symdiff.tape

try:
    import array_oracles
    from corpus.arrays import models
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import array_oracles
    from tests.corpus.arrays import models

CASES = {c.label: c for c in models.VALUE_CASES}
POINTS = [pytest.param(c.label, i, id=f"{c.label}-{i}") for c in models.VALUE_CASES
          for i in range(len(c.points))]


def is_object(value):
    return dataclasses.is_dataclass(value) or hasattr(type(value), "_fields") or (
        hasattr(value, "__dict__") and type(value).__module__ != "builtins"
        and not isinstance(value, (types.FunctionType, types.BuiltinFunctionType, np.ufunc,
                                   np.ndarray, type)))


def fields(value):
    """``value`` with each object in it a dict of its fields (containers alike)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: fields(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return {k: fields(v) for k, v in zip(type(value)._fields, value)}
    if type(value) in (list, tuple):
        return type(value)(fields(v) for v in value)
    if type(value) is dict:
        return {k: fields(v) for k, v in value.items()}
    if is_object(value):
        return {k: fields(v) for k, v in vars(value).items()}
    return value


def objects(plain, like):
    """The inverse of ``fields``: ``plain`` (a dict of fields) as the objects of ``like``."""
    if is_object(like):
        fields_of = fields_named(like)
        built = {k: objects(plain[k], v) for k, v in fields_of.items()}
        if dataclasses.is_dataclass(like) or hasattr(type(like), "_fields"):
            return type(like)(**built)
        made = object.__new__(type(like))
        vars(made).update(built)
        return made
    if type(like) in (list, tuple):
        return type(like)(objects(p, v) for p, v in zip(plain, like))
    if type(like) is dict:
        return {k: objects(plain[k], v) for k, v in like.items()}
    return plain


def fields_named(value):
    if dataclasses.is_dataclass(value):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if hasattr(type(value), "_fields"):
        return dict(zip(type(value)._fields, value))
    return dict(vars(value))


def by_fields(fn, point):
    """``fn`` taking each object of ``point`` as the dict of its fields, and that point."""
    def plain_fn(*args):
        return fn(*(objects(a, like) for a, like in zip(args, point)))
    plain_fn.__name__ = fn.__name__
    plain_fn.__signature__ = inspect.signature(fn)
    return plain_fn, tuple(fields(a) for a in point)


@pytest.mark.parametrize("label, index", POINTS)
def test_gradient_agrees_with_finite_differences(label, index):
    case = CASES[label]
    point = case.points[index]
    got = symdiff.grad(case.fn, wrt=case.wrt)(*point)
    plain_fn, plain_point = by_fields(case.fn, point)
    failures = array_oracles.gradient_failures(plain_fn, plain_point, fields(got), case.wrt,
                                               kinky=case.kinky, seed=str(index))
    assert not failures, failures


@pytest.mark.parametrize("label, index", POINTS)
def test_gradient_agrees_with_the_tape(label, index):
    case = CASES[label]
    point = case.points[index]
    wrt = case.wrt if case.wrt is not None else tuple(case.params)
    got = fields(symdiff.grad(case.fn, wrt=case.wrt)(*point))
    want = fields(symdiff.tape.grad(case.fn, wrt=wrt)(*point))
    got_leaves, want_leaves = array_oracles.leaves(got), array_oracles.leaves(want)
    assert [p for p, _ in got_leaves] == [p for p, _ in want_leaves]
    for (path, g), (_, w) in zip(got_leaves, want_leaves):
        assert np.shape(g) == np.shape(w) and np.allclose(g, w, rtol=1e-9, atol=1e-12), path


def test_a_gradient_objects_hold_keeps_their_classes():
    layer = models._layer("cls", 3, 2)
    got = symdiff.grad(models.layer_loss, wrt="layer")(layer, np.ones((4, 3)))
    assert type(got) is models.DenseLayer and got.W.shape == layer.W.shape
    pair = models.TwoLayers(models._layer("c1", 3, 2), models._layer("c2", 2, 2))
    got = symdiff.grad(models.model_forward, wrt="model")(pair, np.ones((4, 3)))
    assert type(got) is models.TwoLayers and type(got.first) is models.DenseLayer


# --- a function kept as a default ------------------------------------------------------

DEFAULTS = [(models.mlp_act, ("W1", "W2"), 4), (models.mlp_tanh_default, ("W1", "W2"), 4),
            (models.mlp_lambda_default, ("W1", "X"), 3)]


@pytest.mark.parametrize("fn, wrt, count", DEFAULTS, ids=lambda v: getattr(v, "__name__", ""))
def test_a_function_default_is_kept_and_the_gradient_runs_without_it(fn, wrt, count):
    case = next(c for c in models.VALUE_CASES if c.fn is fn)
    point = case.points[1]
    gradient = symdiff.grad(fn, wrt=wrt)
    without, given = gradient(*point[:count - 1]), gradient(*point)
    for a, b in zip(without, given):
        assert np.array_equal(a, b)
    want = symdiff.tape.grad(fn, wrt=wrt)(*point[:count - 1])
    for a, b in zip(without, want):
        assert np.allclose(a, b, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("fn, wrt, count", DEFAULTS, ids=lambda v: getattr(v, "__name__", ""))
def test_the_text_of_a_gradient_with_a_function_default_runs_on_its_own(fn, wrt, count):
    point = next(c for c in models.VALUE_CASES if c.fn is fn).points[1][:count - 1]
    text = symdiff.source(fn, *point, wrt=wrt)
    namespace = {}
    exec(compile(text, "<generated>", "exec"), namespace)
    generated = namespace[f"grad_{fn.__name__}"]
    default = inspect.signature(generated).parameters[list(inspect.signature(fn).parameters)[-1]]
    kept = inspect.signature(fn).parameters[default.name].default
    if kept.__name__ == "<lambda>":  # written out as a def: the same function
        z = np.linspace(-2.0, 2.0, 5)
        assert np.array_equal(default.default(z), kept(z))
    else:
        assert default.default is kept
    for a, b in zip(generated(*point), symdiff.grad(fn, wrt=wrt)(*point)):
        assert np.array_equal(a, b)


def test_a_numpy_function_passed_is_computed_by_numpy():
    case = CASES["mlp_tanh_passed"]
    text = symdiff.source(case.fn, *case.points[1], wrt=case.wrt)
    assert "math" not in text  # np.tanh of an array, never math.tanh (which raised)


def test_another_function_passed_builds_another_gradient():
    case = CASES["mlp_act"]
    W1, W2, X, _ = case.points[1]
    gradient = symdiff.grad(models.mlp_act, wrt=("W1", "W2"))
    for act in (models.relu, np.tanh, models.expit, np.sin):
        got = gradient(W1, W2, X, act)
        want = symdiff.tape.grad(models.mlp_act, wrt=("W1", "W2"))(W1, W2, X, act)
        for a, b in zip(got, want):
            assert np.allclose(a, b, rtol=1e-9, atol=1e-12)


# --- refusals, located, and their ways out ---------------------------------------------

def by_name(W, X, kind="tanh"):
    return np.sum(models.ACTIVATIONS[kind](X @ W))


ACTIVATIONS = models.ACTIVATIONS


def by_global_name(W, X, kind="tanh"):
    return np.sum(ACTIVATIONS[kind](X @ W))


def by_name_passed(W, X, act=models.ACTIVATIONS["tanh"]):  # the way out
    return np.sum(act(X @ W))


@dataclasses.dataclass
class NoCall:
    W: np.ndarray


def called_object(layer, X):
    return np.sum(layer(X))


@dataclasses.dataclass
class ActLayer:
    W: np.ndarray
    act: object = np.tanh

    def __call__(self, x):
        return self.act(x @ self.W)


def reads_a_function_field(layer, X):
    return np.sum(X @ layer.W) * len(layer.act.__name__)


W, X = np.linspace(-1.0, 1.0, 6).reshape(3, 2), np.linspace(0.5, -0.5, 12).reshape(4, 3)


@pytest.mark.parametrize("fn, args, wrt, where", [
    (by_name, (W, X), "W", "kind]"),
    (by_global_name, (W, X), "W", "kind]"),
    (called_object, (NoCall(W), X), "layer", "layer(X)"),
    (reads_a_function_field, (ActLayer(W), X), "layer", "layer.act"),
])
def test_refusals_are_located(fn, args, wrt, where):
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(fn, wrt=wrt)(*args)
    error = caught.value
    assert error.filename == __file__ and error.hint
    assert error.source_line[error.col_offset:].startswith(where)


def test_the_way_out_of_a_table_indexed_when_the_gradient_runs_works():
    got = symdiff.grad(by_name_passed, wrt="W")(W, X)
    want = symdiff.tape.grad(by_name_passed, wrt="W")(W, X)
    assert np.allclose(got, want, rtol=1e-9, atol=1e-12)


def test_a_function_a_record_holds_is_called_as_it_is():
    for act in (np.tanh, models.relu, models.expit):
        layer = ActLayer(W, act)
        got = symdiff.grad(models.layer_loss, wrt="layer")(layer, X)
        want = symdiff.tape.grad(models.layer_loss, wrt="layer")(layer, X)
        assert got.act is act and np.allclose(got.W, want.W, rtol=1e-9, atol=1e-12)
