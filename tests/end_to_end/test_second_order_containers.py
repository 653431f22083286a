"""Hessians, HVPs, Jacobians, JVPs and VJPs of functions of containers and objects
(``corpus.second_order``), at each case's points and at random points near them, against
finite differences: a Hessian's entries and an HVP against central differences of the
generated gradient (``grad``, reverse mode), a Jacobian's against central differences of
the function, a VJP against the Jacobian's inner product with the cotangent.  Results
have the parameters' structures (a dict of dicts for a dict), checked by building them
from the parameters with ``structures.like`` and comparing place by place.
"""

import math
import random

import pytest

import symdiff
from symdiff import structures
from symdiff.errors import SymdiffError
from symdiff.frontend.parse import parse_function
from symdiff.frontend.wrt import choose

try:
    from corpus import (arguments, branch_local, containers, control_lists, joins,
                        second_order, tangent_lists)
except ImportError:
    from tests.corpus import (arguments, branch_local, containers, control_lists, joins,
                              second_order, tangent_lists)

H = 1e-5


def _close(a, b, tol):
    return abs(a - b) <= tol * (1.0 + abs(a) + abs(b))


def _chosen(case):
    choice = choose(case.wrt, parse_function(case.fn))
    params = list(case.fn.__code__.co_varnames[:case.fn.__code__.co_argcount
                                               + case.fn.__code__.co_kwonlyargcount])
    return choice, [params.index(n) for n in choice.names]


def _call(case, function, point, *extra):
    """``function`` at ``point`` (``case.fn``'s arguments in order), ``extra`` after its
    positional arguments, the keyword-only ones passed by name."""
    code = case.fn.__code__
    names = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    return function(*point[:code.co_argcount], *extra,
                    **dict(zip(names, point[code.co_argcount:])))


def _points(case, positions, count=3):
    """The case's points, and ``count`` random ones near each (its differentiated
    parameters moved by up to 0.05 at each number)."""
    rng = random.Random(case.label)
    for point in case.points:
        yield tuple(point)
        for _ in range(count):
            moved = list(point)
            for p in positions:
                moved[p] = structures.like(point[p], lambda path, p=p: structures.at(
                    point[p], path) + rng.uniform(-0.05, 0.05))
            yield tuple(moved)


def _along(point, positions, k, direction, h):
    """``point`` with parameter ``positions[k]`` moved by ``h`` times ``direction``."""
    moved = list(point)
    p = positions[k]
    moved[p] = structures.like(point[p], lambda path: structures.at(point[p], path)
                               + h * structures.at(direction, path))
    return moved


def _gradients(case, choice, point):
    gradient = _call(case, symdiff.grad(case.fn, wrt=case.wrt), point)
    return [gradient] if choice.single else list(gradient)


SCALAR_IDS = [c.label for c in second_order.SCALAR]

# label -> the construct of its generated gradient that forward mode's reading of it
# stops at (located in the gradient's text); the list only shrinks
SECOND_REFUSED = {
    "layered_params": "Dict is not supported in an expression",
}


def _second(case, make):
    """``make()``, or the located refusal ``SECOND_REFUSED`` lists for ``case``; None
    when refused."""
    try:
        made = make()
    except SymdiffError as error:
        assert case.label in SECOND_REFUSED, f"{case.label}: {error}"
        assert SECOND_REFUSED[case.label] in str(error)
        assert error.filename and error.lineno
        return None
    assert case.label not in SECOND_REFUSED, f"{case.label} now differentiates: take it off"
    return made


@pytest.mark.parametrize("case", second_order.SCALAR, ids=SCALAR_IDS)
def test_hessian_against_differences_of_the_gradient(case):
    choice, positions = _chosen(case)
    hessian = symdiff.hessian(case.fn, wrt=case.wrt)
    if _second(case, lambda: hessian(*case.points[0])) is None:
        return
    for point in _points(case, positions):
        found = hessian(*point)
        blocks = [[found]] if choice.single else found
        params = [point[p] for p in positions]
        for j, pj in enumerate(params):
            for b in structures.paths(pj):
                unit = structures.unit(pj, b)
                up = _gradients(case, choice, _along(point, positions, j, unit, H))
                down = _gradients(case, choice, _along(point, positions, j, unit, -H))
                for i, pi in enumerate(params):
                    assert isinstance(blocks[i][j], type(pi)) or not structures.paths(pi)[0]
                    for a in structures.paths(pi):
                        entry = structures.at(structures.at(blocks[i][j], a), b)
                        assert _close(entry, structures.at(structures.at(blocks[j][i], b), a),
                                      1e-12)
                        if case.kinky:
                            continue
                        estimate = (structures.at(up[i], a) - structures.at(down[i], a)) / (2 * H)
                        assert _close(entry, estimate, 1e-4), (point, i, a, j, b)


@pytest.mark.parametrize("case", second_order.SCALAR, ids=SCALAR_IDS)
def test_hvp_is_the_hessian_along_the_vector(case):
    choice, positions = _chosen(case)
    rng = random.Random(case.label + ".v")
    hvp, hessian = symdiff.hvp(case.fn, wrt=case.wrt), symdiff.hessian(case.fn, wrt=case.wrt)
    if _second(case, lambda: hessian(*case.points[0])) is None:
        return
    for point in _points(case, positions, count=1):
        params = [point[p] for p in positions]
        vectors = [structures.like(p, lambda path: rng.uniform(-1.0, 1.0)) for p in params]
        product = hvp(*point, *vectors)
        product = [product] if choice.single else list(product)
        blocks = hessian(*point)
        blocks = [[blocks]] if choice.single else blocks
        for i, pi in enumerate(params):
            assert type(product[i]) is type(structures.like(pi, lambda path: 0.0))
            for a in structures.paths(pi):
                expected = math.fsum(
                    structures.at(structures.at(blocks[i][j], a), b) * structures.at(v, b)
                    for j, v in enumerate(vectors) for b in structures.paths(params[j]))
                assert _close(structures.at(product[i], a), expected, 1e-9)


@pytest.mark.parametrize("case", second_order.SCALAR + second_order.OBJECTS,
                         ids=SCALAR_IDS + [c.label for c in second_order.OBJECTS])
def test_jacobian_and_jvp_against_differences_of_the_function(case):
    choice, positions = _chosen(case)
    jacobian, jvp = symdiff.jacobian(case.fn, wrt=case.wrt), symdiff.jvp(case.fn, wrt=case.wrt)
    rng = random.Random(case.label + ".t")
    for point in _points(case, positions, count=1):
        found = jacobian(*point)
        found = [found] if choice.single else list(found)
        params = [point[p] for p in positions]
        tangents = [structures.like(p, lambda path: rng.uniform(-1.0, 1.0)) for p in params]
        value, along = jvp(*point, *tangents)
        assert _close(value, case.fn(*point), 1e-12)
        expected = 0.0
        for k, p in enumerate(params):
            assert type(found[k]) is type(p) or not structures.paths(p)[0]
            for path in structures.paths(p):
                entry = structures.at(found[k], path)
                expected += entry * structures.at(tangents[k], path)
                if case.kinky:
                    continue
                unit = structures.unit(p, path)
                estimate = (case.fn(*_along(point, positions, k, unit, H))
                            - case.fn(*_along(point, positions, k, unit, -H))) / (2 * H)
                assert _close(entry, estimate, 1e-5), (point, k, path)
        assert _close(along, expected, 1e-9)


@pytest.mark.parametrize("case", second_order.VALUED, ids=[c.label for c in second_order.VALUED])
def test_container_valued_jacobian_jvp_and_vjp(case):
    choice, positions = _chosen(case)
    jacobian, jvp = symdiff.jacobian(case.fn, wrt=case.wrt), symdiff.jvp(case.fn, wrt=case.wrt)
    vjp = symdiff.vjp(case.fn, wrt=case.wrt)
    rng = random.Random(case.label + ".c")
    for point in _points(case, positions, count=2):
        value = case.fn(*point)
        found = jacobian(*point)
        params = [point[p] for p in positions]
        cotangent = structures.like(value, lambda path: rng.uniform(-1.0, 1.0))
        tangents = [structures.like(p, lambda path: rng.uniform(-1.0, 1.0)) for p in params]
        pulled = vjp(*point, cotangent)[1]
        pulled = [pulled] if choice.single else list(pulled)
        pushed = jvp(*point, *tangents)[1]
        for out in structures.paths(value):
            row = structures.at(found, out)
            row = [row] if choice.single else list(row)
            assert _close(structures.at(pushed, out), math.fsum(
                structures.at(row[k], path) * structures.at(tangents[k], path)
                for k, p in enumerate(params) for path in structures.paths(p)), 1e-9)
        for k, p in enumerate(params):
            for path in structures.paths(p):
                unit = structures.unit(p, path)
                up = case.fn(*_along(point, positions, k, unit, H))
                down = case.fn(*_along(point, positions, k, unit, -H))
                total = 0.0
                for out in structures.paths(value):
                    row = structures.at(found, out)
                    entry = structures.at(row if choice.single else row[k], path)
                    total += entry * structures.at(cotangent, out)
                    if not case.kinky:
                        estimate = (structures.at(up, out) - structures.at(down, out)) / (2 * H)
                        assert _close(entry, estimate, 1e-5)
                assert _close(structures.at(pulled[k], path), total, 1e-9)


def test_a_newton_step_on_a_params_dict_reaches_the_minimum_of_a_quadratic():
    def loss(params, data):
        return sum((params["w"] * x + params["b"] - y) ** 2 for x, y in data)
    data = [(0.5, 1.0), (-1.0, 0.2), (2.0, 2.5)]
    params = {"w": 0.3, "b": -0.7}
    g = symdiff.grad(loss, wrt="params")(params, data)
    h = symdiff.hessian(loss, wrt="params")(params, data)
    keys = list(params)
    det = h["w"]["w"] * h["b"]["b"] - h["w"]["b"] * h["b"]["w"]
    inverse = {"w": {"w": h["b"]["b"] / det, "b": -h["w"]["b"] / det},
               "b": {"w": -h["b"]["w"] / det, "b": h["w"]["w"] / det}}
    new = {k: params[k] - sum(inverse[k][j] * g[j] for j in keys) for k in keys}
    after = symdiff.grad(loss, wrt="params")(new, data)
    assert all(abs(after[k]) < 1e-9 for k in keys)


def test_the_hessian_of_an_object_parameter_is_of_its_class_and_agrees_with_a_dict_of_it():
    case = second_order.OBJECTS[0]
    point = case.points[0]
    found = symdiff.hessian(case.fn, wrt="p")(*point)
    assert type(found) is type(point[0]) and type(found.w) is type(point[0])

    def as_dict(p, x):  # the same function of the fields in a dict
        return (p["w"] * x + p["b"]) ** 2 + math.sin(p["w"] * p["b"])
    plain = symdiff.hessian(as_dict, wrt="p")(point[0]._asdict(), point[1])
    for a in ("w", "b"):
        for b in ("w", "b"):
            assert _close(getattr(getattr(found, a), b), plain[a][b], 1e-12)
    w, b, x = point[0].w, point[0].b, point[1]
    assert _close(found.w.b, 2 * x - math.sin(w * b) * w * b + math.cos(w * b), 1e-12)


CORPUS = [c for corpus in (containers, tangent_lists, joins, control_lists, branch_local,
                           arguments) for c in corpus.CASES]

HVP_REFUSED = {  # label -> what the forward mode of its gradient stops at; only shrinks
    # each a construct of the generated gradient (located in its text) that lowering
    # does not read yet
    'mlp_over_layers': 'a list of unlike elements',
}

# lowering the generated gradient raises an InternalError (a bug of symdiff); only shrinks
HVP_INTERNAL = set()


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(
    strict=True, reason="InternalError lowering the gradient")) if c.label in HVP_INTERNAL
    else c for c in CORPUS], ids=[c.label for c in CORPUS])
def test_hvp_of_the_container_corpus_against_differences_of_the_gradient(case):
    choice, positions = _chosen(case)
    rng = random.Random(case.label + ".hvp")
    try:
        hvp = symdiff.hvp(case.fn, wrt=case.wrt)
        for point in case.points:
            point = tuple(point)
            params = [point[p] for p in positions]
            vectors = [structures.like(p, lambda path: rng.uniform(-1.0, 1.0)) for p in params]
            product = _call(case, hvp, point, *vectors)
            product = [product] if choice.single else list(product)
            if case.kinky:
                continue
            moved = [list(point), list(point)]
            for k, p in enumerate(positions):
                for sign, m in zip((1, -1), moved):
                    m[p] = structures.like(point[p], lambda path, p=p, k=k, sign=sign:
                                           structures.at(point[p], path)
                                           + sign * H * structures.at(vectors[k], path))
            up, down = (_gradients(case, choice, m) for m in moved)
            for k, p in enumerate(params):
                for path in structures.paths(p):
                    estimate = (structures.at(up[k], path) - structures.at(down[k], path)) / (
                        2 * H)
                    assert _close(structures.at(product[k], path), estimate, 1e-4), (
                        point, k, path)
    except SymdiffError as error:
        assert case.label in HVP_REFUSED, f"{case.label}: {error}"
        assert HVP_REFUSED[case.label] in str(error)
        return
    assert case.label not in HVP_REFUSED, f"{case.label} now differentiates: take it off"


@pytest.mark.parametrize("case", CORPUS, ids=[c.label for c in CORPUS])
def test_the_gradient_by_one_parameter_is_its_part_of_the_whole(case):
    """The gradient built for one parameter alone (as ``hvp`` builds it) is that
    parameter's part of the gradient by all: a list the others' derivatives alone read
    (inactive for this one) is neither saved nor restored for it."""
    choice, positions = _chosen(case)
    if choice.single:
        return
    for point in case.points:
        whole = _gradients(case, choice, tuple(point))
        for k, name in enumerate(choice.names):
            alone = _call(case, symdiff.grad(case.fn, wrt=name), tuple(point))
            for path in structures.paths(whole[k]):
                assert _close(float(structures.at(alone, path)),
                              float(structures.at(whole[k], path)), 1e-12), (name, path)
