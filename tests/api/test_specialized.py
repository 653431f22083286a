"""Which path a gradient takes is decided from the source, before anything is built.

``grad`` builds a function's gradient at once, or (``specialized.per_kinds``) per kind
of the arguments of each call: when the function reads a parameter as a container and
that parameter is differentiated, or is read other than as a table of data
(``frontend.table_reads``).  No build is attempted, refused and redone.

The decision is checked against the build it stands for: for every function of the
container corpora and every ``wrt`` (all parameters, each one alone), a function the
decision builds at once builds without kinds (or fails so with its argument's kinds too:
it cannot be differentiated for any), and one it specializes does not build without
kinds, or builds a gradient that is wrong at the function's point (a dict's ``items()``
read as a table's, which a table has not).
"""

import math

import pytest

import symdiff
import symdiff.api as api
from symdiff.errors import SymdiffError
from symdiff.frontend.parse import parse_function
from symdiff.frontend.table_reads import read_as_tables
from symdiff.specialized import Specialized, container_kinds, per_kinds

try:
    from corpus import branch_local, containers, control_lists, joins, tangent_lists
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import branch_local, containers, control_lists, joins, tangent_lists


def horner(x, coeffs):
    s = 0.0
    for c in coeffs:
        s = s * x + c
    return s


def through_a_helper(x, coeffs):
    return horner(x, coeffs) + coeffs[0] * x


def mean_times(x, xs):
    return sum(xs) / len(xs) * x


def generator_over(x, weights):
    return sum(w * x for w in weights)


def over_items(x, p):
    s = 0.0
    for _, v in p.items():
        s = s + v * x
    return s


def backwards(x, coeffs):
    s = 0.0
    for c in reversed(coeffs):
        s = s * x + c
    return s


def enumerated(x, coeffs):
    s = 0.0
    for i, c in enumerate(coeffs):
        s = s + c * x ** i
    return s


def rows(x, m):
    s = 0.0
    for row in m:
        s = s + row[0] * x
    return s


def keyed(x, p):
    return p["w"] * x + p["b"]


def sliced(x, xs):
    return xs[1:][0] * x


def unpacked(x, pair):
    a, b = pair
    return a * x + b


def zipped(x, xs, ys):
    total = 0.0
    for a, b in zip(xs, ys):
        total = total + (a * x - b) ** 2
    return total


def element_is_a_row(x, m):
    return len(m[0]) * x


OWN = [(horner, (0.5, [1.0, 2.0, 3.0]), True), (through_a_helper, (0.5, (1.0, -2.0)), True),
       (mean_times, (0.5, [1.0, 2.0]), False), (generator_over, (0.5, [1.0, 2.0]), True),
       (over_items, (0.5, {"a": 1.0, "b": 2.0}), False), (backwards, (0.5, [1.0, 2.0]), True),
       (enumerated, (0.5, (1.0, 2.0)), True),
       (rows, (0.5, [[1.0, 2.0]]), False), (keyed, (0.5, {"w": 1.0, "b": 2.0}), False),
       (sliced, (0.5, [1.0, 2.0]), False), (unpacked, (0.5, (1.0, 2.0)), True),
       (zipped, (0.5, [1.0, 2.0], [3.0, 4.0]), True), (element_is_a_row, (0.5, [[1.0]]), False)]


@pytest.mark.parametrize("fn, point, tables", OWN, ids=[f.__name__ for f, _, _ in OWN])
def test_a_parameter_is_read_as_a_table_or_needs_its_kind(fn, point, tables):
    parsed = parse_function(fn)
    param = parsed.tree.args.args[-1].arg
    helper = _helper_of(parsed)
    assert read_as_tables(parsed.tree, param, helper) is tables
    assert per_kinds(fn, "x") is not tables  # x alone: the container is data
    assert per_kinds(fn, None)  # every parameter: the container is differentiated
    gradient = symdiff.grad(fn, wrt="x")
    assert isinstance(gradient, Specialized) is not tables
    assert gradient(*point) == pytest.approx(symdiff.tape.grad(fn, wrt="x")(*point))


def _helper_of(parsed):
    def helper(name):
        found = parsed.globals.get(name)
        if not callable(found):
            return None
        inner = parse_function(found)
        return inner.tree, [a.arg for a in inner.tree.args.args], None
    return helper


def test_no_build_is_attempted_before_the_path_is_chosen(monkeypatch):
    """A function to specialize builds nothing when ``grad`` is applied and one build
    per kind when called; one built at once builds once; no build fails on the way."""
    built, failed = [], []
    real = api.Gradient

    def counting(fn, wrt, *args):
        built.append((fn.__name__, wrt, args[-1]))  # the kinds, last
        try:
            return real(fn, wrt, *args)
        except SymdiffError:
            failed.append(fn.__name__)
            raise

    monkeypatch.setattr(api, "Gradient", counting)
    api._CACHE.clear()
    specialized = symdiff.grad(horner)
    assert isinstance(specialized, Specialized) and built == []
    dx, dcoeffs = specialized(0.5, [1.0, 2.0])
    assert (dx, dcoeffs) == (pytest.approx(1.0), [pytest.approx(0.5), pytest.approx(1.0)])
    assert [(name, kinds is not None) for name, _, kinds in built] == [("horner", True)]
    at_once = symdiff.grad(horner, wrt="x")
    assert not isinstance(at_once, Specialized) and built[1:] == [("horner", "x", None)]
    assert "coeffs" in at_once.source and failed == []


def test_a_wrt_that_names_no_parameter_is_refused_when_grad_is_applied():
    with pytest.raises(SymdiffError, match="horner has no parameter of that name"):
        symdiff.grad(horner, wrt="nope")


CORPORA = [containers, joins, control_lists, branch_local, tangent_lists]
SUBJECTS = {case.fn: case.points[0] for corpus in CORPORA for case in corpus.CASES}
SUBJECTS.update({fn: point for fn, point, _ in OWN})


@pytest.mark.parametrize("fn", list(SUBJECTS), ids=lambda fn: fn.__name__)
def test_the_decision_is_the_build_it_stands_for(fn):
    code = fn.__code__
    params = code.co_varnames[:code.co_argcount]
    kinds = container_kinds(fn, SUBJECTS[fn])
    for wrt in (None,) + params:
        tables = _outcome(fn, wrt, None)
        if per_kinds(fn, wrt):
            assert tables != "built" or not _right(fn, wrt, SUBJECTS[fn]), (
                f"wrt={wrt!r}: specialized, but builds without kinds")
        else:
            assert tables == _outcome(fn, wrt, kinds) if tables != "built" else _right(
                fn, wrt, SUBJECTS[fn]), f"wrt={wrt!r}: built at once, but fails so: {tables}"


def _outcome(fn, wrt, kinds):
    try:
        api.build(fn, wrt, kinds=kinds)
    except SymdiffError as exc:
        return str(exc)
    return "built"


def _right(fn, wrt, point):
    """Whether the gradient built without kinds agrees with the tape at ``point`` (true
    where the tape refuses: by an index, which has no derivative)."""
    try:
        expected = symdiff.tape.grad(fn, wrt=wrt)(*point)
    except TypeError:
        return True
    try:
        got = api.build(fn, wrt).function(*point)
    except Exception:
        return False
    return got == pytest.approx(expected)


def test_the_decision_reads_each_helper_once(monkeypatch):
    import symdiff.frontend.table_reads as table_reads

    read = []
    real = table_reads.parse_function
    monkeypatch.setattr(table_reads, "parse_function",
                        lambda fn: read.append(fn.__name__) or real(fn))
    assert per_kinds(calls_horner_often, "x") is False
    assert sorted(read) == ["calls_horner_often", "horner"]


def calls_horner_often(x, coeffs):
    return horner(x, coeffs) * horner(2.0 * x, coeffs) + math.sin(horner(x * x, coeffs))


def keyed_cubes(x, data):
    s = 0.0
    for k in data:
        s += data[k] * x ** 3
    return s


def test_a_per_kind_gradient_is_differentiated_again_per_kind():
    """``grad`` of a gradient built per kind of the arguments is built per kind too: the
    gradient of the text built for the call's kinds, agreeing with a central difference
    of the tape's gradient; ``api.build`` of one, which takes no kinds, is refused."""
    specialized = symdiff.grad(keyed_cubes, wrt="x")
    assert isinstance(specialized, Specialized)
    twice = symdiff.grad(specialized, wrt="x")
    slope = symdiff.tape.grad(keyed_cubes, wrt="x")
    for x, data in ((0.7, {"a": 1.0, "b": 3.0}), (-1.3, {"u": -2.0, "v": 0.5, "w": 4.0})):
        h = 1e-5
        expected = (slope(x + h, data) - slope(x - h, data)) / (2 * h)
        assert twice(x, data) == pytest.approx(expected, rel=1e-6)
    assert "def grad_grad_keyed_cubes" in twice.source
    with pytest.raises(SymdiffError, match="generated per kind") as caught:
        api.build(symdiff.grad(horner))
    assert caught.value.lineno == horner.__code__.co_firstlineno


def over_keys(x, data):
    s = 0.0
    for k in data:
        s += data[k] * x
    return s


@pytest.mark.parametrize("transform", [symdiff.jvp, symdiff.jacobian, symdiff.hessian,
                                       symdiff.hvp], ids=lambda t: t.__name__)
def test_a_data_dict_looped_over_by_key_is_not_built_as_a_table(transform):
    """Built without kinds, ``for k in data: data[k]`` would run over the positions of
    ``data`` (``KeyError: 0`` on a dict); forward mode and second order are built for the
    call's kinds, so the loop runs over its keys: ``d/dx`` is the sum of the values."""
    point = (2.0, {"a": 1.0, "b": 3.0})
    found = transform(over_keys, wrt="x")(*point, *((1.0,) if transform in (
        symdiff.jvp, symdiff.hvp) else ()))
    slope = symdiff.tape.grad(over_keys, wrt="x")(*point)
    expected = {symdiff.jvp: (over_keys(*point), slope), symdiff.jacobian: slope,
                symdiff.hessian: 0.0, symdiff.hvp: 0.0}[transform]
    assert found == pytest.approx(expected)
    assert symdiff.grad(over_keys, wrt="x")(*point) == pytest.approx(
        symdiff.tape.grad(over_keys, wrt="x")(*point))
