"""The witnesses on containers: the tape, sympy and finite differences agree among themselves.

Every case is a function of tuples, lists and dicts of numbers (nested), written as people
write them.  At several points drawn around its example, the tape's gradient
(``symdiff.tape.grad``) and the sympy witness's (``evaluate_grad``) must have the
parameters' structure exactly (a tuple for a tuple, a dict with the same keys), agree with
each other leaf by leaf, agree with central differences of the function leaf by leaf, and
pass autograd's ``check_vjp`` test (a random direction over every number).  The value the
sympy witness reads must be the function's.
"""

import math
import random
from dataclasses import dataclass

import pytest

import symdiff.tape
from symdiff.checking.leaves import leaves, rebuild
from symdiff.errors import SymdiffError
from symdiff.witnesses.symbolic import evaluate, evaluate_grad, symbolic_grad
from tests.oracles import container_failures, leaf_gradient, same_structure, vjp_mismatch

# --- the functions --------------------------------------------------------------------------


def rosenbrock(x):
    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2 for i in range(len(x) - 1))


def polynomial(coeffs, x):
    return sum(c * x ** i for i, c in enumerate(coeffs))


def affine(params, x):
    w, b = params
    return math.tanh(w * x + b)


def layers_forward(layers, x):
    for w, b in layers:
        x = math.tanh(w * x + b)
    return x


def dot_zip(xs, ys):
    return sum(a * b for a, b in zip(xs, ys))


def enumerate_zip(xs, ys):
    total = 0.0
    for i, (a, b) in enumerate(zip(xs, ys)):
        total += (i + 1) * a * math.sin(b)
    return total


def negative_index(xs):
    return xs[-1] * xs[0] + xs[-2] ** 2


def slices(xs):
    return sum(a * b for a, b in zip(xs[1:], xs[:-1])) + sum(xs[::2])


def dict_params(p, x):
    return p["w"] * x ** 2 + p["b"] * math.exp(-x)


def dict_of_lists(p):
    return sum(w * w for w in p["w"]) * p["b"][0] + p["b"][1]


def dict_iteration(p):
    total = 0.0
    for key in p:
        total += p[key] ** 3
    return total + sum(v for k, v in p.items() if k != "a")


def literal_of_active(a, b):
    xs = [a, b, a * b]
    return xs[0] + xs[1] * xs[2]


def append_in_loop(xs):
    squares = []
    for x in xs:
        squares.append(x * x)
    return sum(squares) / len(squares)


def zeros_then_fill(xs):
    ys = [0.0] * len(xs)
    for i in range(len(xs)):
        ys[i] = xs[i] * (i + 1)
    return math.fsum(ys)


def euler_steps(x0, dt):
    xs = [x0, 0.0, 0.0, 0.0]
    for i in range(3):
        xs[i + 1] = xs[i] - dt * math.sin(xs[i])
    return xs[-1]


def comprehension_filter(xs):
    return sum([x ** 2 for x in xs if x > 0.5])


def nested_comprehension(xs, ys):
    return sum(a * b for a in xs for b in ys if a < b)


def helper_norm(v):
    return math.sqrt(sum(x * x for x in v))


def normalized(v):
    n = helper_norm(v)
    return [x / n for x in v]


def through_helpers(v):
    u = normalized(v)
    return u[0] * 3.0 + u[1]


def split(x):
    return x * x, math.cos(x)


def unpack_returned(x, ys):
    a, b = split(x)
    return a * ys[0] + b * ys[1]


def sum_with_start(xs, s):
    return sum((x * x for x in xs), s)


def smooth_max(xs):
    m = max(xs)
    return m + math.log(sum(math.exp(x - m) for x in xs))


def min_max(xs):
    return max(xs) * min(xs)


def products(xs):
    return math.prod(xs) + math.prod(xs, start=2.0)


def sorted_weights(xs):
    return sum(i * x for i, x in enumerate(sorted(xs)))


def reversed_horner(coeffs, x):
    acc = 0.0
    for c in reversed(coeffs):
        acc = acc * x + c
    return acc


def tuple_and_list(pair, xs):
    a, b = pair
    both = list(pair) + xs
    return a * b + sum(i * t * t for i, t in enumerate(tuple(both)))


def nested_pairs(points):
    return sum(math.hypot(x, y) for (x, y) in points)


def starred(xs):
    first, *rest = xs
    return first * sum(rest)


def starred_middle(xs):
    a, *middle, b = xs
    *init, last = xs
    return a * b + sum(middle) * last + len(init)


def dict_comprehension(p):
    scaled = {k: 2.0 * v for k, v in p.items()}
    return scaled["a"] * scaled["b"] + len(scaled)


def stack_pop(xs):
    stack = list(xs)
    total = 0.0
    while stack:
        total = total * 0.5 + stack.pop()
    return total


def mixed_model(params, data):
    total = 0.0
    for x, y in data:
        guess = params["w"][0] * x + params["w"][1] * x ** 2 + params["b"]
        total += (guess - y) ** 2
    return total / len(data)


@dataclass
class Case:
    fn: object
    example: tuple  # one point: its structure, and the centre of the points drawn
    wrt: object = None
    kinky: bool = False  # a branch may change between nearby points


CASES = [
    Case(rosenbrock, ([0.5, 1.2, 0.8, 1.1],)),
    Case(polynomial, ([1.0, -0.5, 0.25, 0.3], 0.7)),
    Case(affine, ((0.8, -0.3), 1.1)),
    Case(layers_forward, ([(0.9, 0.1), (1.1, -0.2), (0.7, 0.3)], 0.5)),
    Case(dot_zip, ((1.0, 2.0, 3.0), [0.5, -1.0, 1.5])),
    Case(enumerate_zip, ([1.0, 2.0, 0.5], [0.3, 0.6, 0.9])),
    Case(negative_index, ([1.0, 2.0, 3.0],)),
    Case(slices, ([1.0, 0.5, 1.5, 2.0, 0.7],)),
    Case(dict_params, ({"w": 1.5, "b": -0.5}, 0.8)),
    Case(dict_of_lists, ({"w": [1.0, 2.0, 0.5], "b": (0.3, 0.9)},)),
    Case(dict_iteration, ({"a": 1.0, "b": 0.5, "c": 1.5},)),
    Case(literal_of_active, (1.3, 0.7)),
    Case(append_in_loop, ([1.0, 2.0, 3.0],)),
    Case(zeros_then_fill, ((0.5, 1.5, 1.0, 2.0),)),
    Case(euler_steps, (1.0, 0.1)),
    Case(comprehension_filter, ([0.2, 0.9, 1.4, 0.1],), kinky=True),
    Case(nested_comprehension, ([0.2, 1.0, 1.6], [0.6, 1.2]), kinky=True),
    Case(through_helpers, ([1.0, 2.0, 0.5],)),
    Case(unpack_returned, (0.9, [1.5, -0.5])),
    Case(sum_with_start, ([1.0, 0.5, 0.25], 2.0)),
    Case(smooth_max, ([0.3, 1.2, 0.8],), kinky=True),
    Case(min_max, ([0.3, 1.2, 0.8],), kinky=True),
    Case(products, ([1.5, 0.5, 2.0],)),
    Case(sorted_weights, ([0.3, 1.2, 0.8, 0.1],), kinky=True),
    Case(reversed_horner, ((1.0, 2.0, -1.0), 0.6)),
    Case(tuple_and_list, ((1.0, 2.0), [0.5, 1.5])),
    Case(nested_pairs, ([(1.0, 2.0), (0.5, -1.0)],)),
    Case(starred, ([2.0, 0.5, 1.5],)),
    Case(starred_middle, ((2.0, 0.5, 1.5, 0.7),)),
    Case(dict_comprehension, ({"a": 1.0, "b": 2.0},)),
    Case(stack_pop, ([1.0, 2.0, 3.0],)),
    Case(mixed_model, ({"w": [0.5, -0.2], "b": 0.1}, [(1.0, 0.4), (2.0, 1.1), (0.5, 0.2)]),
         wrt="params"),
    Case(polynomial, ([1.0, -0.5, 0.25], 0.7), wrt="coeffs"),
    Case(dict_of_lists, ({"w": [1.0, 2.0], "b": [0.3, 0.9]},), wrt=0),
]


def points(case, count=3):
    """The example, and points around it: each number moved by up to a fifth of itself
    (kinky cases by less, so the order of their numbers stays)."""
    rng = random.Random(case.fn.__name__)
    spread = 0.02 if case.kinky else 0.2
    drawn = [case.example]
    for _ in range(count - 1):
        drawn.append(tuple(rebuild(arg, [x * (1.0 + spread * rng.uniform(-1.0, 1.0))
                                         for _, x in leaves(arg)])
                           for arg in case.example))
    return drawn


def wrt_indices(case):
    import inspect
    names = list(inspect.signature(case.fn).parameters)
    if case.wrt is None:
        return list(range(len(names)))
    return [case.wrt if isinstance(case.wrt, int) else names.index(case.wrt)]


def as_list(gradient, case):
    return list(gradient) if case.wrt is None and len(wrt_indices(case)) > 1 else [gradient]


def close(a, b, rtol, atol=1e-12):
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.fn.__name__}-{c.wrt}")
def test_tape_sympy_and_finite_differences_agree_per_leaf(case):
    indices = wrt_indices(case)
    rng = random.Random(f"vjp:{case.fn.__name__}")
    for point in points(case):
        taped = as_list(symdiff.tape.grad(case.fn, wrt=case.wrt)(*point), case)
        symbolic = as_list(evaluate_grad(case.fn, point, wrt=case.wrt), case)
        assert evaluate(case.fn, point) == pytest.approx(case.fn(*point), rel=1e-12)
        for i, t, s in zip(indices, taped, symbolic):
            same_structure(t, point[i])
            same_structure(s, t)
            estimated = leaf_gradient(case.fn, point, i)
            same_structure(estimated, t)
            for (path, tv), (_, sv), (_, fv) in zip(leaves(t), leaves(s), leaves(estimated)):
                assert isinstance(tv, float) and isinstance(sv, float)
                assert close(tv, sv, 1e-9), (point, i, path, tv, sv)
                assert close(tv, fv, 1e-6, 1e-8), (point, i, path, tv, fv)
        assert vjp_mismatch(case.fn, taped, point, indices, rng) is None


@pytest.mark.parametrize("case", CASES[:8], ids=lambda c: f"{c.fn.__name__}-{c.wrt}")
def test_the_corpus_helper_passes_a_right_gradient_and_catches_wrong_ones(case):
    """``container_failures`` (what the corpus runs on ``symdiff.grad``), here on the tape's
    gradient, and on wrong ones: one number off, and a list given as a tuple."""
    right = symdiff.tape.grad(case.fn, wrt=case.wrt)
    assert container_failures(case.fn, points(case), case.wrt, case.kinky, right) == []

    def off(*point):  # the first number of the gradient one more
        gradient = right(*point)
        numbers = [v for _, v in leaves(gradient)]
        return rebuild(gradient, [numbers[0] + 1.0] + numbers[1:])

    assert container_failures(case.fn, points(case), case.wrt, case.kinky, off)

    def first(gradient):
        return gradient if len(wrt_indices(case)) == 1 else gradient[0]

    def retyped(*point):
        gradient = right(*point)
        flip = {list: tuple, tuple: list}
        g = first(gradient)
        if type(g) not in flip:
            return None
        g = flip[type(g)](g)
        return g if len(wrt_indices(case)) == 1 else (g,) + tuple(gradient[1:])

    if retyped(*case.example) is not None:
        assert any("tuple" in f or "list" in f for f in container_failures(
            case.fn, points(case), case.wrt, case.kinky, retyped))


def test_symbols_are_named_by_path():
    grads = symbolic_grad(dict_of_lists, at=({"w": [1.0, 2.0], "b": [0.3, 0.9]},))
    assert type(grads) is dict and list(grads) == ["w", "b"]
    names = {s.name for g in grads["w"] + grads["b"] for s in g.free_symbols}
    assert names == {"p_w_0", "p_w_1", "p_b_0"}


def test_leaf_names_never_collide_with_parameters():
    def f(p, p_w):
        return p["w"] * p_w

    assert evaluate_grad(f, ({"w": 2.0}, 3.0)) == ({"w": 3.0}, 2.0)
    assert symdiff.tape.grad(f)({"w": 2.0}, 3.0) == ({"w": 3.0}, 2.0)


def test_int_leaves_get_float_gradients():
    for gradient in (symdiff.tape.grad(dot_zip)([1, 2], [3, 4]),
                     evaluate_grad(dot_zip, ([1, 2], [3, 4]))):
        assert gradient == ([3.0, 4.0], [1.0, 2.0])
        same_structure(gradient, ([0.0, 0.0], [0.0, 0.0]))
        assert all(type(v) is float for g in gradient for v in g)


@pytest.mark.parametrize("bad", [[1.0, True], [1.0, "two"]], ids=["bool", "str"])
def test_a_bool_or_str_leaf_is_refused_naming_its_path(bad):
    def f(xs):
        return xs[0] * 2.0

    for run in (lambda: symdiff.tape.grad(f)(bad), lambda: evaluate_grad(f, (bad,))):
        with pytest.raises(SymdiffError) as info:
            run()
        assert "xs[1]" in str(info.value) and info.value.hint


def test_a_container_left_out_of_wrt_is_data():
    assert symdiff.tape.grad(mixed_model, wrt="params")(
        {"w": [1.0, 0.0], "b": 0.0}, [(1.0, 1.0)]) == {"w": [0.0, 0.0], "b": 0.0}
    assert evaluate_grad(polynomial, ([1.0, 2.0], 3.0), wrt="x") == pytest.approx(2.0)


def test_the_callers_containers_are_not_changed():
    xs = [1.0, 2.0, 3.0]
    point = (xs,)
    for run in (lambda: symdiff.tape.grad(stack_pop)(xs), lambda: evaluate_grad(stack_pop, point),
                lambda: leaf_gradient(stack_pop, point, 0)):
        run()
        assert xs == [1.0, 2.0, 3.0] and point == ([1.0, 2.0, 3.0],)


def decayed_in_place(params, lr):
    for k in params:
        params[k] = params[k] - lr * params[k] ** 2
    for k in params:
        params[k] = params[k] * 2.0
    return sum(v * v for v in params.values())


def test_the_tape_reads_the_leaves_a_function_changes_in_place():
    """A function that assigns its dict's entries still gets the derivative by each
    entry as it was passed (the tape's leaves are not the entries written later)."""
    for point in ({"a": 0.5, "b": -1.5}, {"a": 1.2, "b": 0.3}):
        got = symdiff.tape.grad(decayed_in_place, wrt="params")(dict(point), 0.1)
        for key in point:
            want = leaf_gradient(lambda p: decayed_in_place(dict(p), 0.1), (point,), 0)
            assert got[key] == pytest.approx(want[key], rel=1e-6)


def test_math_prod_on_the_tape_has_its_own_derivative():
    assert symdiff.tape.prod is not math.prod
    assert symdiff.tape.grad(products)([0.0, 3.0, 2.0]) == [18.0, 0.0, 0.0]
    assert symdiff.tape.grad(lambda xs: math.prod(xs, start=2.0))([0.0, 0.0]) == [0.0, 0.0]


def test_value_and_grad_on_the_tape_keeps_the_structure():
    value, gradient = symdiff.tape.value_and_grad(dict_params)({"w": 2.0, "b": 1.0}, 0.5)
    assert value == pytest.approx(dict_params({"w": 2.0, "b": 1.0}, 0.5))
    assert list(gradient[0]) == ["w", "b"] and gradient[0]["w"] == pytest.approx(0.25)


def membership(p, xs):
    total = p["a"] if "a" in p else 0.0
    if "z" not in p:
        total += 2.0 * p["b"]
    return total * (3.0 if 2.0 in xs else 1.0) + xs[0]


def test_membership_is_read_at_the_point():
    for point in (({"a": 1.0, "b": 2.0}, [1.0, 2.0]), ({"b": 2.0}, (5.0, 3.0))):
        assert evaluate_grad(membership, point) == symdiff.tape.grad(membership)(*point)


def out_of_range(xs):
    return xs[len(xs)]


def assigns_into_a_tuple(xs):
    ys = tuple(xs)
    ys[0] = 1.0
    return ys[0]


def missing_key(p):
    return p["w"] * p["missing"]


def sorted_by_key_of_data(xs):
    return sorted(xs, key=len)[0]


def unpack_too_many(xs):
    a, b = xs
    return a * b


@pytest.mark.parametrize("fn, cls, line", [
    (out_of_range, SymdiffError, 1),
    (assigns_into_a_tuple, SymdiffError, 2),
    (missing_key, SymdiffError, 1),
    (sorted_by_key_of_data, SymdiffError, 1),
    (unpack_too_many, SymdiffError, 1),
], ids=lambda v: getattr(v, "__name__", str(v)))
def test_what_the_sympy_witness_refuses_is_located(fn, cls, line):
    point = ({"w": 1.0},) if fn is missing_key else ([1.0, 2.0, 3.0],)
    with pytest.raises(cls) as info:
        evaluate_grad(fn, point)
    assert info.value.lineno == fn.__code__.co_firstlineno + line
    assert info.value.filename == __file__


def test_a_long_comprehension_is_bounded(monkeypatch):
    from symdiff.witnesses.symbolic import expressions
    monkeypatch.setattr(expressions, "MAX_ITERATIONS", 80)  # 30 + 30 per x

    def long(xs):
        return sum(x * i for i in range(30) for x in xs)

    assert evaluate_grad(long, ([1.0],)) == [435.0]

    with pytest.raises(SymdiffError, match="iterations"):
        evaluate_grad(long, ([1.0, 2.0],))


def test_a_data_container_the_function_assigns_into_stays_the_callers():
    def f(xs, x):
        xs[0] = xs[0] * x
        return xs[0] + x

    data = [2.0, 3.0]
    assert evaluate_grad(f, (data, 1.5), wrt="x") == pytest.approx(3.0)
    assert data == [2.0, 3.0] and all(type(v) is float for v in data)


def test_without_a_point_a_container_parameter_asks_for_one():
    from symdiff.witnesses.symbolic import symbolic
    for fn, line in ((rosenbrock, 1), (negative_index, 1), (append_in_loop, 2)):
        with pytest.raises(SymdiffError) as info:
            symbolic(fn)
        assert "at=" in info.value.hint and info.value.lineno == fn.__code__.co_firstlineno + line
