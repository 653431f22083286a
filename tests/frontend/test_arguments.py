"""Every kind of parameter: keyword-only ones, container defaults and the defaults the
default ``wrt`` leaves out.  The generated gradient keeps the user's signature (checked
against ``inspect.signature`` of the function itself), and its numbers agree with the
tape and with finite differences (``oracles``), never with values typed in.
"""

import inspect
import textwrap
from pathlib import Path

import pytest

import symdiff
import symdiff.tape
from symdiff.errors import UnsupportedSyntaxError

try:
    import oracles
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles


def define(tmp_path, text, name):
    """The function ``name`` of ``text``, written to a file and imported (symdiff reads
    its source)."""
    module = oracles.module_from_text(tmp_path, f"m_{name}", textwrap.dedent(text))
    return getattr(module, name)


HUBER = """\
def huber(r, *, delta=1.0):
    a = abs(r)
    if a <= delta:
        return 0.5 * r * r
    return delta * (a - 0.5 * delta)


def scaled(x, *, scale):
    return scale * x * x


def calls(x):
    return scaled(x, scale=3.0) + huber(x, delta=0.25)
"""


def signature_text(fn):
    return str(inspect.signature(fn))


def test_a_keyword_only_parameter_stays_keyword_only_with_its_default(tmp_path):
    huber = define(tmp_path, HUBER, "huber")
    text = symdiff.source(huber, wrt=("r", "delta"))
    assert "def grad_huber(r, *, delta=1.0):" in text
    gradient = symdiff.grad(huber, wrt=("r", "delta"))
    with pytest.raises(TypeError):
        gradient(3.0, 2.0)  # as huber(3.0, 2.0) raises
    with pytest.raises(TypeError):
        huber(3.0, 2.0)


@pytest.mark.parametrize("point", [(0.5, 1.0), (3.0, 2.0), (-2.5, 1.0)])
def test_a_keyword_only_parameter_is_differentiated_when_wrt_names_it(tmp_path, point):
    huber = define(tmp_path, HUBER, "huber")
    r, delta = point
    got = symdiff.grad(huber, wrt=("r", "delta"))(r, delta=delta)
    want = symdiff.tape.grad(huber, wrt=("r", "delta"))(r, delta=delta)
    assert got == pytest.approx(want, rel=1e-12)

    def by_position(r, delta):
        return huber(r, delta=delta)
    for i in range(2):
        assert got[i] == pytest.approx(oracles.finite_difference(by_position, point, i)[0],
                                       rel=1e-7, abs=1e-9)
    assert symdiff.grad(huber, wrt="delta")(r, delta=delta) == got[1]


def test_the_default_wrt_leaves_keyword_only_parameters_out(tmp_path):
    huber = define(tmp_path, HUBER, "huber")
    assert symdiff.grad(huber)(0.5) == symdiff.tape.grad(huber)(0.5)
    assert isinstance(symdiff.grad(huber)(0.5, delta=2.0), float)


def test_a_required_keyword_only_parameter_and_a_helper_called_by_keyword(tmp_path):
    scaled = define(tmp_path, HUBER, "scaled")
    calls = define(tmp_path, HUBER, "calls")
    assert signature_text(symdiff.grad(scaled)) == signature_text(scaled)
    assert "def grad_scaled(x, *, scale):" in symdiff.source(scaled)
    assert symdiff.grad(scaled)(1.5, scale=2.0) == symdiff.tape.grad(scaled)(1.5, scale=2.0)
    for x in (0.1, 0.9, -2.0):
        want = oracles.finite_difference(calls, (x,), 0)[0]
        assert symdiff.grad(calls)(x) == pytest.approx(want, rel=1e-7, abs=1e-9)


def test_an_unknown_name_lists_the_keyword_only_parameters_too(tmp_path):
    huber = define(tmp_path, HUBER, "huber")
    with pytest.raises(symdiff.SymdiffError, match="its parameters are r, delta"):
        symdiff.grad(huber, wrt="gamma")


SECOND = """\
import math


def damped(x, v, *, dt=0.1, gamma=0.5):
    v_next = v - dt * (x + gamma * v)
    x_next = x + dt * math.sin(v_next)
    return x_next * x_next + v_next * v_next


def weighted(xs, *, weights, scale=2.0):
    return scale * sum(w * x ** 3 for w, x in zip(weights, xs))
"""


@pytest.mark.parametrize("point", [(0.5, 1.0), (3.0, 2.0), (-2.5, 1.0)])
def test_forward_mode_takes_keyword_only_parameters_and_keeps_them_keyword_only(
        tmp_path, point):
    huber = define(tmp_path, HUBER, "huber")
    r, delta = point
    jvp = symdiff.jvp(huber, wrt=("r", "delta"))
    value, along = jvp(r, 0.3, -0.7, delta=delta)
    assert value == huber(r, delta=delta)
    gradient = symdiff.tape.grad(huber, wrt=("r", "delta"))(r, delta=delta)
    assert along == pytest.approx(0.3 * gradient[0] - 0.7 * gradient[1], rel=1e-12)
    assert symdiff.jacobian(huber)(r, delta=delta) == pytest.approx(
        (symdiff.tape.grad(huber)(r, delta=delta),), rel=1e-12)
    with pytest.raises(TypeError):
        jvp(r, delta, 1.0, 1.0)  # delta by position, as huber(r, delta) raises
    assert "def jvp_huber(r, dr, ddelta, *, delta=1.0):" in jvp.source


@pytest.mark.parametrize("point", [(0.3, -0.4), (1.2, 0.5)])
def test_hessian_and_hvp_with_keyword_only_parameters_against_differences(tmp_path, point):
    damped = define(tmp_path, SECOND, "damped")
    options = {"dt": 0.05, "gamma": 0.8}
    hessian = symdiff.hessian(damped)(*point, **options)
    gradient = symdiff.grad(damped)
    for j in range(2):
        def column(x, v, j=j):
            return gradient(x, v, **options)[j]
        for i in range(2):
            want = oracles.finite_difference(column, point, i)[0]
            assert hessian[j][i] == pytest.approx(want, rel=1e-6, abs=1e-8)
    product = symdiff.hvp(damped)(*point, 1.0, -2.0, **options)
    assert product == pytest.approx(tuple(h[0] - 2.0 * h[1] for h in hessian), rel=1e-12)
    assert symdiff.hessian(damped)(*point) != hessian  # the defaults are the function's


def test_forward_mode_of_a_container_function_with_keyword_only_parameters(tmp_path):
    weighted = define(tmp_path, SECOND, "weighted")
    xs, weights = [0.5, -1.0, 2.0], [1.0, 0.5, -0.25]
    hessian = symdiff.hessian(weighted)(xs, weights=weights, scale=3.0)
    assert hessian == [[pytest.approx(18.0 * w * x if i == k else 0.0, abs=0.0)
                        for k in range(3)] for i, (w, x) in enumerate(zip(weights, xs))]
    by_weights = symdiff.jvp(weighted, wrt="weights")
    value, along = by_weights(xs, [1.0, 0.0, 0.0], weights=weights)
    assert (value, along) == pytest.approx((weighted(xs, weights=weights), 2.0 * xs[0] ** 3))
    assert symdiff.hvp(weighted)(xs, [1.0, 1.0, 1.0], weights=weights) == pytest.approx(
        [12.0 * w * x for w, x in zip(weights, xs)], rel=1e-12)


DEFAULTS = """\
def polynomial(x, coeffs=[1.0, 2.0, 0.5]):
    return sum(c * x ** k for k, c in enumerate(coeffs))


def config(x, p={"a": 2.0, "b": -1.0}, pair=(0.5, 0.25)):
    return p["a"] * x + p["b"] + pair[0] * pair[1] * x * x


def cubic(x, *, weights=[0.5, 1.5]):
    return weights[0] * x + weights[1] * x ** 3


def remembers(x, seen=[]):
    seen.append(x)
    return x * len(seen)
"""


@pytest.mark.parametrize("name, wrt", [("polynomial", "x"), ("polynomial", None),
                                       ("config", "x"), ("config", None), ("cubic", None),
                                       ("cubic", ("x", "weights"))])
def test_a_container_default_is_kept_in_the_signature(tmp_path, name, wrt):
    fn = define(tmp_path, DEFAULTS, name)
    gradient = symdiff.grad(fn, wrt=wrt)
    got = gradient(1.5)  # the container left to its default
    assert got == symdiff.tape.grad(fn, wrt=wrt)(1.5)
    defaults = {k: p.default for k, p in inspect.signature(fn).parameters.items()
                if p.default is not p.empty}
    assert got == symdiff.tape.grad(fn, wrt=wrt)(1.5, **defaults)
    first = got if not isinstance(got, tuple) else got[0]
    assert first == pytest.approx(oracles.finite_difference(fn, (1.5,), 0)[0], rel=1e-7)
    text = symdiff.source(fn, 1.5, wrt=wrt)
    assert f"def grad_{name}{inspect.signature(fn)}:" in text


def test_a_default_the_function_changes_is_the_gradients_own(tmp_path):
    """The gradient's default is its own list, changed by its calls as ``f``'s is by
    ``f``'s: calling the gradient leaves ``f``'s default as it was."""
    remembers = define(tmp_path, DEFAULTS, "remembers")
    gradient = symdiff.grad(remembers, wrt="x")
    assert [gradient(2.0), gradient(2.0)] == [1.0, 2.0]
    assert remembers.__defaults__ == ([],)
    assert [remembers(2.0), remembers(2.0)] == [2.0, 4.0]


def readme_example(heading):
    """The first Python block of the README after ``heading``."""
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    after = text[text.index(heading):]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_example_of_the_default_wrt_runs(tmp_path):
    """The README's example of what ``wrt=None`` takes runs as written (its asserts hold)."""
    text = readme_example("### Which parameters `wrt=None` differentiates")
    assert "label=1" in text and "delta=1.0" in text
    oracles.module_from_text(tmp_path, "readme_wrt", text)


COUNTS = """\
def power(x, n=10, exact=False):
    r = 1.0
    for i in range(n):
        r = r * x
    return r if exact else r + 0.0


def only_counts(n=3, k=True):
    return float(n)
"""


def test_the_default_wrt_leaves_out_int_and_bool_defaults(tmp_path):
    power = define(tmp_path, COUNTS, "power")
    got = symdiff.grad(power)(1.1, 3)
    assert isinstance(got, float) and got == symdiff.tape.grad(power)(1.1, 3)
    assert got == pytest.approx(oracles.finite_difference(power, (1.1, 3), 0)[0], rel=1e-7)
    assert symdiff.grad(power, wrt=("x", "n"))(1.1, 3) == (got, 0.0)  # named: taken
    assert symdiff.grad(power, wrt="exact")(1.1, 3, True) == 0.0
    only_counts = define(tmp_path, COUNTS, "only_counts")  # nothing else: all of them
    assert symdiff.grad(only_counts)(3, True) == symdiff.tape.grad(only_counts)(3, True)


LOCALS = """\
def not_a_string(x):
    return x.lower()


def bad_float(x):
    return x * float("abc")


def mode_of(xs, kind="Sum"):
    mode = kind.strip().lower()
    if mode == "sum":
        return sum(xs)
    return sum(xs) / len(xs)
"""


@pytest.mark.parametrize("name, where", [("not_a_string", "x.lower()"),
                                         ("bad_float", 'float("abc")')])
def test_what_is_left_of_strings_and_floats_is_a_located_refusal(tmp_path, name, where):
    fn = define(tmp_path, LOCALS, name)
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(fn)(1.5)
    error = caught.value
    assert error.hint and error.source_line[error.col_offset:].startswith(where)


@pytest.mark.parametrize("kind", ["Sum", " sum ", "mean", "MEAN"])
def test_a_string_method_runs_when_the_gradient_runs(tmp_path, kind):
    mode_of = define(tmp_path, LOCALS, "mode_of")
    xs = [0.5, -1.0, 2.0]
    got = symdiff.grad(mode_of, wrt="xs")(xs, kind)
    assert got == symdiff.tape.grad(mode_of, wrt="xs")(xs, kind)
    assert "kind.strip()" in symdiff.source(mode_of, xs, kind, wrt="xs")


KINDS = """\
import math
import numbers


def float_or_count(x):
    if isinstance(x, float):
        return math.sin(x)
    return x * 2.0


def dispatch(x, scale):
    if isinstance(x, (list, tuple)):
        return scale * sum(v * v for v in x)
    return scale * x * x


def first_peak(xs):
    n = len(xs)
    best = n > 1 and max(range(n), key=lambda k: xs[k])
    return xs[best]


def empty_peak(xs):
    return max(xs[:0], key=abs)


def unknown_class(x):
    if isinstance(x, numbers.Integral):
        return x
    return x * x
"""


@pytest.mark.parametrize("x", [0.7, -1.3, 2, -3])
def test_isinstance_of_a_number_by_int_or_float_is_told_as_the_gradient_runs(tmp_path, x):
    fn = define(tmp_path, KINDS, "float_or_count")
    got = symdiff.grad(fn)(x)
    assert got == pytest.approx(oracles.finite_difference(fn, (float(x),), 0)[0] if isinstance(
        x, float) else 2.0, rel=1e-7)
    assert "isinstance(x, (float,))" in symdiff.source(fn)


@pytest.mark.parametrize("x", [[0.5, -1.5], (0.25, 2.0), 1.5])
def test_isinstance_of_a_table_of_data_is_told_as_the_gradient_runs(tmp_path, x):
    """``x`` left out of wrt: built at once, ``x`` a number or a table of data."""
    fn = define(tmp_path, KINDS, "dispatch")
    got = symdiff.grad(fn, wrt="scale")(x, 2.0)
    assert got == symdiff.tape.grad(fn, wrt="scale")(x, 2.0)


@pytest.mark.parametrize("name, where", [("first_peak", "max(range(n)"),
                                         ("unknown_class", "isinstance")])
def test_a_kind_test_or_keyed_call_symdiff_cannot_place_is_a_located_refusal(tmp_path, name,
                                                                              where):
    fn = define(tmp_path, KINDS, name)
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(fn)([0.5, 1.5] if name == "first_peak" else 1.5)
    error = caught.value
    assert error.hint and error.source_line[error.col_offset:].startswith(where)


def test_a_keyed_max_of_nothing_raises_as_python_does(tmp_path):
    fn = define(tmp_path, KINDS, "empty_peak")
    with pytest.raises(ValueError):
        fn([0.5, 1.5])
    with pytest.raises(ValueError):
        symdiff.grad(fn)([0.5, 1.5])


SORTS = """\
def top_two_margin(scores):
    ranked = sorted(scores, reverse=True)
    return ranked[0] - ranked[1] + 0.1 * ranked[0] * ranked[1]


def lowest_first(xs):
    s = sorted(xs)
    return 3.0 * s[0] + s[1]
"""


@pytest.mark.parametrize("name", ["top_two_margin", "lowest_first"])
@pytest.mark.parametrize("xs", [[0.3, 0.3, 0.1], [0.1, 0.3, 0.3], [0.2, 0.2, 0.2]])
def test_ties_go_through_the_permutation_as_pythons_stable_sort_orders_them(tmp_path, name,
                                                                             xs):
    """At a tie the derivative goes to the tied items in the order ``sorted`` leaves them
    (the tape runs ``sorted`` itself on its values)."""
    fn = define(tmp_path, SORTS, name)
    assert symdiff.grad(fn)(xs) == symdiff.tape.grad(fn)(xs)


def scaled_by_text(x, s="double"):
    return x * 2.0 if s == "double" else x


def test_a_string_default_is_left_out_of_the_default_wrt():
    assert symdiff.grad(scaled_by_text)(2.0) == 2.0


def test_a_string_named_in_wrt_is_refused_at_the_parameter():
    with pytest.raises(symdiff.SymdiffError, match="holds a string") as caught:
        symdiff.grad(scaled_by_text, wrt=("x", "s"))(2.0, "double")
    assert caught.value.lineno == scaled_by_text.__code__.co_firstlineno


OPTIONS = """\
import math


def dense(x, w, **opts):
    act = opts.get("activation", "tanh")
    y = w * x * opts.get("gain", 1.0)
    return math.tanh(y) if act == "tanh" else max(y, 0.0)


def net(x, w):
    return dense(x, w, gain=2.0) + dense(x, w, activation="relu")


def dense_named(x, w, activation="tanh", **opts):
    y = w * x * opts.get("gain", 1.0)
    return math.tanh(y) if activation == "tanh" else max(y, 0.0)


def net_named(x, w):
    return dense_named(x, w, gain=2.0) + dense_named(x, w, activation="relu")
"""


def test_a_flag_passed_into_a_helpers_kwargs_is_refused_with_a_way_out_that_works(tmp_path):
    net = define(tmp_path, OPTIONS, "net")
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(net)(0.7, 1.3)
    error = caught.value
    assert error.lineno == net.__code__.co_firstlineno + 1
    assert error.source_line[error.col_offset:].startswith('"relu"')
    assert "def dense(..., activation=..., **opts)" in error.hint
    named = define(tmp_path, OPTIONS, "net_named")  # the way out: the flag a parameter
    for point in [(0.7, 1.3), (-0.6, 0.9)]:
        got = symdiff.grad(named)(*point)
        assert got == pytest.approx(symdiff.tape.grad(named)(*point), rel=1e-12)
        for i in range(2):
            assert got[i] == pytest.approx(oracles.finite_difference(named, point, i)[0],
                                           rel=1e-6, abs=1e-9)
