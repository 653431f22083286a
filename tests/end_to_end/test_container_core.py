"""The containers core: lowering, sweeps, specialization and refusals.

Each gradient is checked leaf by leaf against central differences at several points,
optimized and not, and its structure exactly (a tuple is a tuple, a dict keeps its
keys).  The corpus (``tests/end_to_end/test_containers.py``) checks many more functions against
every witness; these tests pin the mechanisms one at a time.
"""

import math
import random

import pytest

import symdiff
from symdiff import SymdiffError
from symdiff.errors import UnsupportedSyntaxError
from symdiff.specialized import container_kinds

import oracles


def leaves(value, path=()):
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from leaves(item, path + (i,))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, path + (key,))
    else:
        yield path, value


def replaced(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, tuple):
        return tuple(replaced(v, rest, new) if i == head else v for i, v in enumerate(value))
    if isinstance(value, list):
        return [replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]
    return {k: replaced(v, rest, new) if k == head else v for k, v in value.items()}


def shape(value):
    """The structure of ``value`` with every number replaced by ``float``."""
    if isinstance(value, (list, tuple)):
        return type(value)(shape(v) for v in value)
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    return float


def assert_gradient(fn, args, wrt=None, h=1e-6, rtol=1e-5):
    names = list(fn.__code__.co_varnames[:fn.__code__.co_argcount])
    chosen = list(range(len(names))) if wrt is None else [names.index(w) for w in (
        wrt if isinstance(wrt, (list, tuple)) else [wrt])]
    for optimize in (True, False):
        got = symdiff.grad(fn, wrt=wrt, optimize=optimize)(*args)
        got = (got,) if len(chosen) == 1 else got
        assert isinstance(got, tuple) and len(got) == len(chosen)
        for position, gradient in zip(chosen, got):
            assert shape(gradient) == shape(args[position]), (fn.__name__, optimize)
            found = dict(leaves(gradient))
            for path, x in leaves(args[position]):
                def at(step):
                    moved = list(args)
                    moved[position] = replaced(args[position], path, x + step)
                    return fn(*moved)
                expected = (at(h) - at(-h)) / (2 * h)
                assert found[path] == pytest.approx(expected, rel=rtol, abs=1e-6), (
                    fn.__name__, optimize, names[position], path)


def points(make, count=3, seed=0):
    rng = random.Random(seed)
    return [make(rng) for _ in range(count)]


def read_list(xs, y):
    a = xs[0] * y
    b = xs[-1] + math.sin(xs[1])
    return a * b


def rosenbrock(x):
    total = 0.0
    for i in range(len(x) - 1):
        total = total + 100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2
    return total


def dict_params(p, x):
    ys = [p["w"] * x, p["b"], x]
    t = sum(ys)
    return t * max(ys) + math.prod(ys)


def euler(x0, c):
    xs = [0.0] * 4
    xs[0] = x0
    for i in range(3):
        xs[i + 1] = xs[i] - c * math.sin(xs[i])
    return xs[3] * xs[2]


def network(layers, x):
    for i in range(len(layers)):
        w = layers[i][0]
        b = layers[i][1]
        x = math.tanh(w * x + b)
    return x


def aliased(layers, x):
    first = layers[0]
    return first[0] * x + first[1] * layers[1][0]


def tuple_params(params, x):
    w = params[0]
    b = params[1]
    return (w * x + b) ** 2


def appended(xs):
    ys = []
    for i in range(len(xs)):
        ys.append(xs[i] * xs[i])
    return math.fsum(ys) + min(ys)


def nested_dict(p, x):
    h = p["w"][0] * x + p["w"][1] * x * x
    return h * p["b"]


def reductions(xs, s):
    return sum(xs, s) * max(xs) - min(xs) + math.prod(xs, start=s)


def helper_sum(values):
    return sum(values)


def calls_helper(xs, y):
    return helper_sum(xs) * y


def computed_index(xs):
    total = 0.0
    for i in range(len(xs) // 2):
        j = 2 * i + 1
        total = total + xs[j] * xs[j - 1]
    return total


def built_then_indexed(a, b):
    ws = (a, b, a * b)
    total = 0.0
    for i in range(3):
        total = total + ws[i] * ws[i]
    return total


def overwritten_in_loop(x0, n_steps):
    xs = [x0, 0.0]
    for _ in range(3):
        xs[1] = xs[0] * xs[0]
        xs[0] = math.sin(xs[1])
    return xs[0] + max(xs)


CASES = [
    (read_list, lambda r: ([r.uniform(0.5, 2) for _ in range(3)], r.uniform(0.5, 2)), None),
    (rosenbrock, lambda r: ([r.uniform(-1, 2) for _ in range(5)],), None),
    (dict_params, lambda r: ({"w": r.uniform(0.2, 1), "b": r.uniform(0.2, 1)},
                             r.uniform(0.2, 1)), None),
    (euler, lambda r: (r.uniform(0.2, 1), r.uniform(0.1, 0.5)), None),
    (network, lambda r: ([(r.uniform(-1, 1), r.uniform(-1, 1)) for _ in range(3)],
                         r.uniform(-1, 1)), None),
    (aliased, lambda r: ([(r.uniform(-1, 1), r.uniform(-1, 1)) for _ in range(2)],
                         r.uniform(-1, 1)), None),
    (tuple_params, lambda r: ((r.uniform(-1, 1), r.uniform(-1, 1)), r.uniform(-1, 1)), None),
    (appended, lambda r: ([r.uniform(-2, 2) for _ in range(4)],), None),
    (nested_dict, lambda r: ({"w": [r.uniform(-1, 1), r.uniform(-1, 1)], "b": 0.5},
                             r.uniform(-1, 1)), None),
    (reductions, lambda r: ([r.uniform(0.5, 2) for _ in range(4)], r.uniform(0.5, 2)), None),
    (calls_helper, lambda r: ([r.uniform(0.5, 2) for _ in range(3)], r.uniform(0.5, 2)), None),
    (computed_index, lambda r: ([r.uniform(-1, 1) for _ in range(6)],), None),
    (built_then_indexed, lambda r: (r.uniform(0.5, 2), r.uniform(0.5, 2)), None),
    (overwritten_in_loop, lambda r: (r.uniform(0.2, 1), 3), "x0"),
]


def mlp(layers, x):
    for i in range(len(layers)):
        weights = layers[i]
        h = []
        for j in range(len(weights)):
            h.append(math.tanh(weights[j] * x[j % len(x)] + 0.1))
        x = h
    return sum(x)


def rebuilt_sum(xs):
    total = 0.0
    for k in range(3):
        terms = []
        for i in range(len(xs)):
            terms.append(xs[i] ** (k + 1))
        total = total + sum(terms) * max(terms)
    return total


def slices(xs, ys):
    tail = xs[1:]
    total = sum(xs[:-1]) * ys[0]
    for i in range(len(tail)):
        total = total + tail[i] * xs[::2][i % 2]
    return total + sum(ys[-2:]) * max(xs[1:3])


def sorted_copies(xs, y):
    ordered = sorted(xs)
    top = sorted(xs, reverse=True)
    copy = list(xs)
    frozen = tuple(xs)
    return ordered[0] * y + top[0] * ordered[-1] + copy[1] * frozen[2] * y


def helper_returns_list(xs, y):
    scaled = scale(xs, y)
    return scaled[0] + scaled[1] * scaled[2]


def scale(values, factor):
    out = []
    for i in range(len(values)):
        out.append(values[i] * factor)
    return out


def dict_of_lists_and_pairs(params, data):
    w, b = params["w"], params["b"]
    return sum((w[0] * x + w[1] * x * x + b - y) ** 2 for x, y in data) / len(data)


def accumulated_in_place(xs, c):
    ys = [0.0] * len(xs)
    for i in range(len(xs)):
        ys[i] += c * xs[i]
        ys[i] *= xs[i]
    return sum(ys)


CASES += [
    (mlp, lambda r: ([[r.uniform(-1, 1) for _ in range(3)] for _ in range(2)],
                     [r.uniform(-1, 1) for _ in range(3)]), None),
    (rebuilt_sum, lambda r: ([r.uniform(0.5, 2) for _ in range(3)],), None),
    (sorted_copies, lambda r: ([r.uniform(-2, 2) for _ in range(4)], r.uniform(0.5, 2)), None),
    (helper_returns_list, lambda r: ([r.uniform(-2, 2) for _ in range(3)], r.uniform(0.5, 2)),
     None),
    (dict_of_lists_and_pairs, lambda r: ({"w": [r.uniform(-1, 1), r.uniform(-1, 1)],
                                          "b": r.uniform(-1, 1)},
                                         [(r.uniform(-2, 2), r.uniform(-2, 2)) for _ in range(3)]),
     None),
    (accumulated_in_place, lambda r: ([r.uniform(-2, 2) for _ in range(3)], r.uniform(0.5, 2)),
     None),
    (slices, lambda r: ([r.uniform(0.5, 2) for _ in range(5)],
                        tuple(r.uniform(0.5, 2) for _ in range(3))), None),
]


@pytest.mark.parametrize("fn, make, wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_gradient_against_finite_differences(fn, make, wrt):
    for args in points(make):
        assert_gradient(fn, args, wrt)


def test_a_tuple_parameter_gets_a_tuple_and_a_dict_its_keys():
    grads = symdiff.grad(nested_dict)({"w": [0.5, 1.5], "b": 2.0}, 0.3)
    assert isinstance(grads[0], dict) and list(grads[0]) == ["w", "b"]
    assert isinstance(grads[0]["w"], list)
    dparams, _ = symdiff.grad(tuple_params)((0.5, 1.5), 2.0)
    assert isinstance(dparams, tuple)


def test_one_build_per_kind_of_arguments():
    gradient = symdiff.grad(rosenbrock)
    with pytest.raises(SymdiffError, match="call it once"):
        gradient.source
    gradient([1.0, 2.0, 3.0])
    first = gradient.source
    built = symdiff.api.build(rosenbrock, kinds=container_kinds(rosenbrock, ([1.0],)))
    gradient([1.0, 2.0, 3.0, 4.0])  # another length: the same kind, the same build
    assert gradient._last is built
    assert "len(x)" in first and "for " in first  # a loop, not unrolled by length
    assert symdiff.source(rosenbrock, [1.0, 2.0]) == first


def test_a_second_call_of_a_known_kind_reuses_the_build():
    gradient = symdiff.grad(rosenbrock)
    gradient([1.0, 2.0, 3.0])
    first = gradient._last
    gradient([1.0, -2.0])
    assert gradient._last is first
    assert gradient._gradient(([0.5, 1.5],), {}) is first


def test_source_for_example_arguments_keeps_loops_and_lists():
    text = symdiff.source(rosenbrock, [1.0, 2.0, 3.0])
    assert "dx = [0.0] * len(x)" in text
    assert "dx[i] +=" in text or "dx[i]" in text
    assert "x_1" not in text.split("def ")[1].split("\n")[0]  # the parameter list is x


def summed_terms(xs, w):
    return sum((w * x - 1.0) ** 2 for x in xs)


def summed_and_indexed(xs, w):
    terms = [w * x for x in xs]
    return sum(terms) * terms[0]


def test_a_list_only_summed_gives_each_term_the_sum_s_adjoint():
    """Each term of a list read by nothing but its sum takes the sum's adjoint: no list
    of adjoints is built and popped.  A list also read by index keeps its adjoints."""
    text = symdiff.source(summed_terms, [0.5, 1.5], 2.0)
    assert "dterms" not in text and ".pop()" not in text, text
    assert "sum(terms)" not in text  # the value is not returned, and its sum cannot raise
    indexed = symdiff.source(summed_and_indexed, [0.5, 1.5], 2.0)
    assert "dterms" in indexed
    for fn in (summed_terms, summed_and_indexed):
        for args in points(lambda r: ([r.uniform(-2, 2) for _ in range(4)], r.uniform(0.5, 2))):
            assert_gradient(fn, args, None)
    value, _ = symdiff.value_and_grad(summed_terms)([0.5, 1.5], 2.0)
    assert value == summed_terms([0.5, 1.5], 2.0)


def test_an_integer_leaf_gets_a_float_gradient():
    dxs, _ = symdiff.grad(read_list)([1, 2, 3], 0.5)
    assert all(isinstance(v, float) for v in dxs)


def _module(tmp_path, name, source):
    """The module made of ``source`` (``oracles.module_from_text``), and its file."""
    return oracles.module_from_text(tmp_path, name, source), tmp_path / f"{name}.py"


@pytest.mark.parametrize("source, line", [
    ("def f(xs):\n    return xs[0.5]\n", 2),
    ("def f(p):\n    return p['missing']\n", 2),
    ("def f(xs):\n    return xs[0] * xs\n", 2),
    ("def f(xs):\n    return xs[5]\n", 2),  # a tuple's length is part of its kind
])
def test_refusals_are_located(tmp_path, source, line):
    module, path = _module(tmp_path, "user_module", source)
    argument = {"w": 1.0} if "'missing'" in source else (1.0, 2.0)
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(module.f)(argument)
    assert caught.value.lineno == line and caught.value.filename == str(path)


@pytest.mark.parametrize("source, column", [
    ("def f(xs):\n    return sum(xs + (1.0,))\n", 20),  # a list and a tuple
    ("def f(xs):\n    y = xs[0]\n    return sum(xs + y)\n", 20),  # a list and a number
    ("def f(m):\n    z = m + m\n    return sum(z[0])\n", 8),  # of lists of lists
])
def test_a_join_python_refuses_or_of_containers_is_located(tmp_path, source, column):
    module, path = _module(tmp_path, "join_module", source)
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(module.f)([[1.0, 2.0]] if "(m)" in source else (1.0, 2.0) if (
            "(1.0,)" not in source) else [1.0, 2.0])
    assert caught.value.filename == str(path)
    line = 2 if "z = m + m" in source else source.count("\n")
    assert (caught.value.lineno, caught.value.col_offset) == (line, column)


def test_a_container_built_in_one_branch_and_read_there_is_differentiated(tmp_path):
    module, _ = _module(tmp_path, "branch_module", (
        "def f(x):\n    t = 0.0\n    if x > 0:\n"
        "        ys = [x, x * x]\n        t = t + ys[1]\n    return t\n"))
    for x in (1.5, -0.5):
        assert_gradient(module.f, (x,))


@pytest.mark.parametrize("body, line", [
    # bound to a name read after the if: refused where it is built
    ("    ys = [x]\n    if x > 0:\n        ys = [x, x * x]\n    return ys[0]\n", 4),
    # a comprehension bound again to a parameter: refused where it is read outside the if
    ("    if x[0] > 0:\n        x = [v * 2.0 for v in x]\n    return x[0] * x[1]\n", 2),
    # in one arm of a conditional expression
    ("    ys = [x] if x > 0 else [x, x]\n    return ys[0]\n", 2),
])
def test_a_container_built_in_one_branch_and_read_after_it_is_refused(tmp_path, body, line):
    module, path = _module(tmp_path, "after_module", "def f(x):\n" + body)
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(module.f)([1.0, 2.0] if "x[0]" in body else 1.0)
    assert (caught.value.filename, caught.value.lineno) == (str(path), line)


def test_show_at_example_arguments_prints_the_text_for_their_kinds(tmp_path, capsys):
    from symdiff.cli.main import main
    path = tmp_path / "rosen.py"
    path.write_text("def rosenbrock(x):\n    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2"
                    " + (1 - x[i]) ** 2 for i in range(len(x) - 1))\n")
    assert main(["show", f"{path}:rosenbrock", "--at", "[1.0, 2.0, 3.0]"]) == 0
    shown = capsys.readouterr().out
    assert "def grad_rosenbrock(x):" in shown and "dx = [0.0] * len(x)" in shown
    assert main(["show", f"{path}:rosenbrock"]) == 2  # no example: said where x is read
    assert "--at" in capsys.readouterr().err


def test_the_divergence_locator_names_a_line_inside_a_comprehension(tmp_path):
    module, path = _module(tmp_path, "wrong_rule", (
        "import math\nimport symdiff\n\n\ndef soft(x):\n    return math.log(1.0 + math.exp(x))"
        "\n\n\nsymdiff.defgrad(soft, lambda x, out: 1.0 / (1.0 + math.exp(x)))  # wrong sign\n"
        "\n\ndef loss(xs):\n    total = sum(\n        soft(x) * x\n        for x in xs)\n"
        "    return total\n"))
    report = symdiff.check(module.loss, ([0.5, 1.0, -0.3],))
    assert not report.ok
    text = str(report)
    assert f"{path}:14: `soft(x) * x`" in text  # the element's line, not the sum's


def _data_read_then_made_active(xs, y):
    a = xs[0]
    for _ in range(2):
        a = a * y
    return a + sum(xs)  # the sum: xs needs its kind, so it is built per kinds


def _slice_of_data_made_active(xs, y):
    tail = xs[1:]
    tail[0] = y * y
    return sum(tail)


def _oscillator_state(state, dt):
    x, v = state
    for _ in range(5):
        x, v = x + dt * v, v - dt * math.sin(x)
    return x * x + v * v


@pytest.mark.parametrize("fn, point, wrt", [
    (_data_read_then_made_active, ([1.5, 2.0], 0.5), "y"),
    (_slice_of_data_made_active, ([1.0, 2.0, 3.0], 0.5), "y"),
    (_oscillator_state, ((0.5, 0.0), 0.1), "dt"),
    (_oscillator_state, ([1.2, -0.4], 0.2), "dt")], ids=lambda v: getattr(v, "__name__", ""))
def test_an_element_of_data_made_active_later_gives_data_no_adjoint(fn, point, wrt):
    """``x = state[0]`` with ``state`` data, then ``x`` made active by ``dt``: the read's
    reverse adds into no adjoint of ``state`` (it wrote ``dstate[0] += dx``, undefined)."""
    import symdiff.api as api

    expected = symdiff.tape.grad(fn, wrt=wrt)(*point)
    for optimize in (True, False):
        built = api.build(fn, wrt, optimize=optimize, kinds=container_kinds(fn, point))
        assert built.function(*point) == pytest.approx(expected)
    assert symdiff.grad(fn, wrt=wrt)(*point) == pytest.approx(expected)


def _nested_row_assigned(xs):
    h = [[[0.0, 0.0]], [[0.0, 0.0]]]
    row = [[xs[0] * 2.0, xs[1]]]
    h[0] = row
    return h[0][0][0] + h[0][0][1] * xs[0]


def test_a_row_of_rows_assigned_gets_its_adjoint_number_by_number():
    """``h[0] = row`` with rows of lists: the reverse adds ``dh[0]`` into ``drow`` number
    by number (it wrote ``drow[i] += dh[0][i]``, which extends a list: a wrong gradient)."""
    point = ([1.5, 2.0],)
    assert_gradient(_nested_row_assigned, point)
    assert symdiff.grad(_nested_row_assigned)(*point) == pytest.approx(
        symdiff.tape.grad(_nested_row_assigned)(*point))
