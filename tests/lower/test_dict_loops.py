"""Loops over dicts, reads by a loop's key or by a key passed in, and dicts filled by key.

The gradients themselves are checked against the witnesses in ``test_containers.py``
(the corpus's loops over dicts); here: what desugar writes for a loop over a dict, that
the generated code keeps such a loop a loop whatever the number of keys, and what is
refused (class and place).
"""

import ast
import doctest
import inspect
import math
import textwrap

import pytest

import symdiff
import symdiff.lower.dict_loops
from symdiff.errors import UnsupportedSyntaxError
from symdiff.lower.desugar import desugar_function
from symdiff.specialized import container_kinds
from oracles import marked_place


def test_the_module_examples_run():
    assert doctest.testmod(symdiff.lower.dict_loops).failed == 0


def _desugared(fn, *args):
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    return ast.unparse(desugar_function(tree, kinds=container_kinds(fn, args)))


def loops_over_views(p, x):
    s = 0.0
    for k in p:
        s += p[k] * x
    for v in p.values():
        s += v
    for name, (w, b) in p.items():
        s += w * b
    return s


def over_sorted_keys(p, x):
    s = 0.0
    for name in reversed(sorted(p.keys())):
        s = s * x + p[name]
    return s


def test_a_loop_over_sorted_keys_runs_back_over_them_sorted():
    text = symdiff.source(over_sorted_keys, {"b": 0.5, "a": 1.5}, 2.0)
    assert "for name in reversed(sorted(p)):" in text
    assert "for name in sorted(p):" in text


def test_a_loop_over_a_dict_is_a_loop_over_its_keys_that_reads_its_entries_first():
    text = _desugared(loops_over_views, {"a": (0.5, 1.0), "b": (1.5, 2.0)}, 2.0)
    assert text.splitlines()[2:] == [
        "    for k in p:",
        "        s = s + p[k] * x",
        "    for key in p:",
        "        v = p[key]",
        "        s = s + v",
        "    for name in p:",
        "        if len(p[name]) != 2:",
        "            raise ValueError('wrong number of values to unpack (expected 2)')",
        "        w = p[name][0]",
        "        b = p[name][1]",
        "        s = s + w * b",
        "    return s"]


def step_over_keys(params, grads, lr):
    for k in params:
        params[k] = params[k] - lr * grads[k]
    return sum(v * v for v in params.values())


@pytest.mark.parametrize("keys", [("a",), ("a", "b", "c", "d", "e", "f")])
def test_the_generated_code_keeps_the_loops_whatever_the_number_of_keys(keys):
    params, grads = dict.fromkeys(keys, 0.5), dict.fromkeys(keys, 0.25)
    text = symdiff.source(step_over_keys, params, grads, 0.1)
    two = symdiff.source(step_over_keys, {"a": 0.5, "b": 0.5}, {"a": 0.1, "b": 0.1}, 0.1)
    assert len(text.splitlines()) == len(two.splitlines())
    assert "for k in params:" in text and "for k in reversed(params):" in text
    assert all(f"params_{k}" not in text for k in keys)  # no variable per key


# --- read by a key passed in ---------------------------------------------------------------

def scaled_by_mode(x, mode):
    scale = {"small": 0.5, "large": 3.0}
    return scale[mode] * x * x


def chosen_term(x, y, mode):
    terms = {"product": x * y, "sum": x + y, "ratio": x / y}
    return terms[mode] * x


def chosen_weight(params, x, mode):
    return params[mode] * math.sin(x) + params["bias"]


KEYED = [(scaled_by_mode, "x", [(1.2, "small"), (-0.7, "large")]),
         (chosen_term, ("x", "y"), [(1.2, 0.7, m) for m in ("product", "sum", "ratio")]),
         (chosen_weight, ("params", "x"),
          [({"w": 0.5, "v": -1.5, "bias": 2.0}, 0.3, m) for m in ("w", "v", "bias")])]


def _differences(fn, wrt, point, h=1e-6):
    """Central differences of ``fn`` at ``point`` along each number of ``wrt``."""
    names = list(inspect.signature(fn).parameters)
    found = []
    for name in (wrt,) if isinstance(wrt, str) else wrt:
        i = names.index(name)
        value = point[i]
        keys = list(value) if isinstance(value, dict) else [None]
        parts = {}
        for key in keys:
            def moved(step):
                new = list(point)
                new[i] = {**value, key: value[key] + step} if key is not None else value + step
                return fn(*new)
            parts[key] = (moved(h) - moved(-h)) / (2 * h)
        found.append(parts if isinstance(value, dict) else parts[None])
    return found


@pytest.mark.parametrize("fn, wrt, points", KEYED, ids=[k[0].__name__ for k in KEYED])
def test_a_key_passed_in_reads_its_entry_as_the_gradient_runs(fn, wrt, points):
    gradient, tape = symdiff.grad(fn, wrt=wrt), symdiff.tape.grad(fn, wrt=wrt)
    single = isinstance(wrt, str)
    for point in points:
        got, want = gradient(*point), _differences(fn, wrt, point)
        got, taped = ([g] if single else list(g) for g in (got, tape(*point)))
        assert _numbers(got) == pytest.approx(_numbers(want), rel=1e-6, abs=1e-8), point
        assert _numbers(got) == pytest.approx(_numbers(taped), rel=1e-12), point


def _numbers(parts):
    """The numbers of a gradient's parts, a dict's in its keys' order."""
    return [n for p in parts for n in (p.values() if isinstance(p, dict) else (p,))]


def test_a_key_passed_in_is_read_at_run_time_and_raises_where_python_does():
    text = symdiff.source(chosen_term, 1.2, 0.7, "sum", wrt=("x", "y"))
    assert "terms[mode]" in text and "dterms[mode] += x" in text
    with pytest.raises(KeyError):
        symdiff.grad(chosen_term, wrt=("x", "y"))(1.2, 0.7, "difference")
    with pytest.raises(KeyError):
        chosen_term(1.2, 0.7, "difference")


def test_a_key_passed_in_has_second_derivatives():
    hessian = symdiff.hessian(chosen_term, wrt=("x", "y"))
    (xx, xy), (yx, yy) = hessian(1.2, 0.7, "product")  # x * y * x
    assert (xx, xy, yx, yy) == pytest.approx((2 * 0.7, 2 * 1.2, 2 * 1.2, 0.0))


# --- refused, where it stands --------------------------------------------------------------

def enumerate_items(p):
    s = 0.0
    for i, (k, v) in enumerate(p.items()):  # REFUSED at p.items()
        s += i * v
    return s


def zip_of_dicts(p, q):
    s = 0.0
    for a, b in zip(p, q):  # REFUSED at p, q
        s += p[a] * q[b]
    return s


def key_into_unlike_values(p):
    s = 0.0
    for k in p:  # unlike values: the body once per key, p["b"] a list times a number
        s += p[k] * 2.0  # REFUSED at s +=
    return s


def key_into_values_of_unlike_kinds(p, mode):
    return p[mode] * 2.0  # REFUSED at mode]


def key_of_another_dict(p, q):
    s = 0.0
    for k in p:
        s += q[k]  # REFUSED at k]
    return s


def read_by_position(p):
    return p[0]  # REFUSED at 0


def filled_in_a_branch(p):
    out = {}
    for k in p:
        if p[k] > 0.0:
            out[k] = p[k]  # REFUSED at out[k]
    return out["a"]


def filled_by_a_loop_that_breaks(p):
    out = {}
    for k in p:  # REFUSED at for
        out[k] = p[k]
        if p[k] > 1.0:
            break
    return out["a"]


def read_before_filled(p):
    out = {}
    n = len(out)  # REFUSED at out
    for k in p:
        out[k] = p[k] * n
    return out["a"]


def comprehension_with_a_filter(p):
    big = {k: v for k, v in p.items() if v > 0}  # REFUSED at {k
    return big["a"]


def comprehension_over_a_range(p):
    squares = {k: p["a"] * k for k in range(3)}  # REFUSED at {k
    return squares[0]


def keys_of_a_list(xs):
    s = 0.0
    for k, v in xs.items():  # REFUSED at xs
        s += v
    return s


def keys_of_a_dict_in_a_list(layers):
    s = 0.0
    for layer in layers:
        for k in layer:  # REFUSED at layer:
            s += layer[k]
    return s


REFUSED = [
    (enumerate_items, ({"a": 0.5, "b": 1.5},)),
    (zip_of_dicts, ({"a": 0.5}, {"a": 1.5})),
    (key_into_unlike_values, ({"a": 0.5, "b": [1.5, 2.0]},)),
    (key_of_another_dict, ({"a": 0.5, "b": 1.5}, {"a": 1.0})),
    (key_into_values_of_unlike_kinds, ({"a": 0.5, "b": [1.5, 2.0]}, "a")),
    (read_by_position, ({"a": 0.5},)),
    (filled_in_a_branch, ({"a": 0.5},)),
    (filled_by_a_loop_that_breaks, ({"a": 0.5},)),
    (read_before_filled, ({"a": 0.5},)),
    (comprehension_with_a_filter, ({"a": 0.5},)),
    (comprehension_over_a_range, ({"a": 0.5},)),
    (keys_of_a_list, ([0.5, 1.5],)),
    (keys_of_a_dict_in_a_list, ([{"a": 0.5}, {"a": 1.5}],)),
]




@pytest.mark.parametrize("fn, args", REFUSED, ids=[fn.__name__ for fn, _ in REFUSED])
def test_refused_with_its_class_at_its_place(fn, args):
    with pytest.raises(UnsupportedSyntaxError) as raised:
        symdiff.grad(fn)(*args)
    assert (raised.value.lineno, raised.value.col_offset) == marked_place(fn), raised.value
    assert raised.value.hint
