"""The numba target (``backend.numba_target``, ``to_python(..., target="numba")``) and the
compiled gradients of ``jit="numba"`` (``backend.jit``; the api and ``higher`` options).

The text and the ranges are checked without numba; what compiles is checked where numba
is installed (``pip install -e '.[test,numba]'``) and skipped with that reason where not.
"""

import ast
import itertools
import math
import struct
import sys

import pytest

import symdiff
from symdiff.api import build
from symdiff.backend.numba_target import reversed_range
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.frontend.parse import parse_function
from symdiff.pipeline import generate

try:
    import numba
except ImportError:
    numba = None

needs_numba = pytest.mark.skipif(
    numba is None, reason="jit='numba' needs numba: pip install -e '.[test,numba]'")


def recurrence(x, y, n):
    t = x
    for i in range(n):
        t = t * 0.999 + 0.001 * math.sin(t * y)
    return t


def halving(x, n):
    k = 0
    s = x
    while k < n:
        if s > 1.0:
            s = s * 0.5
        else:
            s = s * s + 1.0
        k += 1
    return s


def stepped(x):
    s = x
    for i in range(1, 9, 3):
        s = math.sin(s) * i
    return s


def summed_fsum(x, y):
    z = x * y
    return math.fsum([z, x])


def bits(value):
    if isinstance(value, tuple):
        return tuple(bits(v) for v in value)
    return struct.pack("<d", value).hex() if isinstance(value, float) else repr(value)


def numba_text(fn, **options):
    return generate(parse_function(fn), target="numba", **options).source


# --- the text (no numba needed) ----------------------------------------------------------

def test_a_reversed_range_runs_the_same_values_backwards():
    bounds = [b for b in itertools.product(range(-3, 4), repeat=3) if b[2] != 0]
    bounds += [(n,) for n in range(-2, 5)] + list(itertools.product(range(-2, 4), repeat=2))
    for given in bounds:
        made = reversed_range(tuple(ex.Const(b) for b in given))
        args = [eval(ast.unparse(ex.to_ast(a))) for a in made]
        assert list(range(*args)) == list(reversed(range(*given))), given


def test_a_reversed_range_of_names_reads_them():
    n, a, s = ex.Name("n"), ex.Name("a"), ex.Name("s")
    text = [ast.unparse(ex.to_ast(b)) for b in reversed_range((n,))]
    assert text == ["n - 1", "-1", "-1"]
    for a_, b_, s_ in itertools.product(range(-4, 5), range(-4, 5), (-3, -1, 2, 5)):
        scope = {"a": a_, "b": b_, "s": s_}
        made = [eval(ast.unparse(ex.to_ast(x)), scope)
                for x in reversed_range((a, ex.Name("b"), s))]
        assert list(range(*made)) == list(reversed(range(a_, b_, s_)))


def test_the_save_stack_is_one_list_per_type_with_its_methods():
    text = numba_text(halving, wrt="x")
    assert "push, pop" not in text and "reversed(" not in text
    assert "flags = []" in text and "flags.append(cond_1)" in text
    assert "cond_1 = flags.pop()" in text
    floats = numba_text(recurrence, wrt=("x", "y"))
    assert "for i in range(n - 1, -1, -1):" in floats


def test_the_lists_are_named_apart_from_the_users_names():
    def flagged(x, n):
        flags = x
        for i in range(n):
            if flags > 0.5:
                flags = flags * 0.9
        return flags
    text = numba_text(flagged, wrt="x")
    assert "flags_1 = np.empty(max(n, 0), np.bool_)" in text
    assert "flags_1[flags_1_top] = cond" in text


def nested_loops(x, n):
    s = x
    for i in range(n):
        for j in range(3):
            if s > 0.0:
                s = s * 0.5 + j
            else:
                s = math.sin(s)
    return s


def counted_later(x, n):
    m = n + 1
    s = x
    for i in range(m):
        s = math.sin(s)
    return s


def test_a_list_whose_pushes_can_be_counted_is_an_array_of_that_capacity():
    text = numba_text(nested_loops, wrt="x")
    # each of the 3 * n steps pushes a flag, and one branch a value
    assert "numbers = np.empty(3 * max(n, 0))" in text, text
    assert "flags = np.empty(3 * max(n, 0), np.bool_)" in text, text
    assert ".append(" not in text and ".pop()" not in text


def test_a_list_pushed_in_a_while_loop_grows():
    assert ".append(" in numba_text(halving, wrt="x")


def test_a_bound_computed_once_from_the_parameters_counts_as_they_do():
    assert "np.empty(max(n + 1, 0))" in numba_text(counted_later, wrt="x")


def test_a_bound_computed_in_a_loop_grows():
    def triangle(x, n):
        s = x
        for i in range(n):
            for j in range(i):
                s = math.sin(s)
        return s
    assert ".append(" in numba_text(triangle, wrt="x")


def test_the_python_text_is_unchanged_by_the_option():
    assert "push, pop = stack.append, stack.pop" in symdiff.source(halving, wrt="x")
    assert "reversed(range(n))" in symdiff.source(recurrence, wrt="x")


def test_a_target_symdiff_has_not_is_refused():
    with pytest.raises(ValueError, match="jit='cuda'"):
        symdiff.grad(recurrence, jit="cuda")


def test_without_numba_the_option_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba raises ImportError

    def cube(x):
        return x * x * x
    with pytest.raises(SymdiffError, match=r"pip install 'symdiff\[numba\]'"):
        symdiff.grad(cube, jit="numba")
    assert symdiff.grad(cube)(2.0) == 12.0  # the Python gradient needs nothing


# --- compiled ------------------------------------------------------------------------------

@needs_numba
@pytest.mark.parametrize("fn, args", [(recurrence, (0.3, 1.7, 200)), (halving, (0.7, 40)),
                                      (stepped, (0.4,))])
def test_the_compiled_gradient_gives_the_python_bits(fn, args):
    for options in ({}, {"wrt": fn.__code__.co_varnames[0]}):
        compiled = symdiff.grad(fn, jit="numba", **options)
        assert bits(compiled(*args)) == bits(symdiff.grad(fn, **options)(*args))
    value = symdiff.value_and_grad(fn, jit="numba", wrt=fn.__code__.co_varnames[0])
    assert bits(value(*args)) == bits(symdiff.value_and_grad(fn, wrt=value.fn.__code__
                                                              .co_varnames[0])(*args))


@needs_numba
def test_the_source_shown_is_the_text_compiled():
    compiled = symdiff.grad(recurrence, wrt=("x", "y"), jit="numba")
    assert compiled.source == symdiff.source(recurrence, wrt=("x", "y"), jit="numba")
    assert "range(n - 1, -1, -1)" in compiled.source
    gradient = build(recurrence, ("x", "y"), jit="numba")
    assert gradient.function.py_func.__name__ == "grad_recurrence"
    assert build(recurrence, ("x", "y"), jit="numba") is gradient  # cached
    assert build(recurrence, ("x", "y")) is not gradient  # the Python one apart
    # compiled at once for the parameters' types: a float, a float and an int
    assert [str(t) for t in gradient.function.signatures[0]] == [
        "float64", "float64", "int64"]


@needs_numba
@pytest.mark.parametrize("transform, extra", [(symdiff.jvp, (1.0, 0.5)),
                                              (symdiff.hvp, (1.0, 0.5)),
                                              (symdiff.hessian, ()), (symdiff.jacobian, ())])
def test_forward_mode_and_second_derivatives_compile(transform, extra):
    args = (0.3, 1.2, 30)
    compiled = transform(recurrence, wrt=("x", "y"), jit="numba")
    python = transform(recurrence, wrt=("x", "y"))
    assert bits(compiled(*args, *extra)) == bits(python(*args, *extra))


@needs_numba
def test_a_function_under_njit_is_read_through_its_python_function():
    jitted = numba.njit(recurrence)
    for options in ({}, {"jit": "numba"}):
        got = symdiff.grad(jitted, wrt=("x", "y"), **options)(0.3, 1.7, 50)
        assert bits(got) == bits(symdiff.grad(recurrence, wrt=("x", "y"))(0.3, 1.7, 50))


@needs_numba
def test_what_numba_cannot_compile_is_refused_at_the_users_line():
    with pytest.raises(UnsupportedSyntaxError) as refused:
        symdiff.grad(summed_fsum, jit="numba")
    error = refused.value
    lines, start = __import__("inspect").getsourcelines(summed_fsum)
    assert error.filename == __file__ and error.lineno == start + 2
    assert error.source_line.strip() == "return math.fsum([z, x])"
    assert error.col_offset == 4 and "fsum" in error.message
    assert "Traceback" not in str(error)


@needs_numba
def test_a_call_with_new_types_compiles_them():
    compiled = symdiff.grad(recurrence, wrt="x", jit="numba")
    assert bits(compiled(1, 1.7, 20)) == bits(symdiff.grad(recurrence, wrt="x")(1, 1.7, 20))


def horner(x, coeffs):
    s = 0.0
    for c in coeffs:
        s = s * x + c
    return s


def by_keys(d, x):
    return d["a"] * x + d["b"]


def test_a_tuple_made_of_a_list_is_written_out():
    text = generate(parse_function(horner), target="numba",
                    kinds={"coeffs": t.Tuple((t.FLOAT,) * 3)}).source
    assert "tuple(" not in text and "(dcoeffs[0], dcoeffs[1], dcoeffs[2])" in text


@needs_numba
@pytest.mark.parametrize("coeffs", [(1.0, 2.0, 3.0), (0.5, -1.5)])
def test_a_container_parameter_is_compiled_for_its_kind(coeffs):
    compiled = symdiff.grad(horner, jit="numba")
    assert bits(compiled(0.7, coeffs)) == bits(symdiff.grad(horner)(0.7, coeffs))


@needs_numba
def test_a_dict_parameter_is_refused_at_the_def():
    with pytest.raises(UnsupportedSyntaxError, match="d holds a dict") as refused:
        symdiff.grad(by_keys, jit="numba")({"a": 1.0, "b": 2.0}, 0.5)
    assert refused.value.filename == __file__
    assert refused.value.source_line.strip() == "def by_keys(d, x):"


@needs_numba
def test_a_compiled_gradient_pickles_by_its_recipe_and_comes_back_compiled():
    import pickle
    compiled = symdiff.grad(recurrence, wrt="x", jit="numba")
    back = pickle.loads(pickle.dumps(compiled))
    assert back._made[2] == {"wrt": "x", "optimize": True, "jit": "numba"}
    assert type(back._core).__module__.startswith("numba")
    assert bits(back(0.3, 1.7, 40)) == bits(compiled(0.3, 1.7, 40))


@needs_numba
def test_the_readmes_example_runs_and_matches_the_python_gradient(tmp_path, monkeypatch):
    import importlib
    import pathlib
    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Compiled gradients with numba", 1)[1]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "readme_numba.py").write_text("import math\nimport symdiff\n\n" + block)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("readme_numba")
    assert bits(module.rec(0.3, 1.7, 100)) == bits(
        symdiff.grad(recurrence, wrt=("x", "y"))(0.3, 1.7, 100))
    assert "numbers = np.empty(2 * max(n, 0))" in module.rec.source


def over_elements(w, x):
    s = 0.0
    for i in range(x.shape[0]):
        s = s + math.sin(w[i] * x[i])
    return s


@needs_numba
def test_a_loop_over_array_elements_compiles_with_the_python_bits():
    np = pytest.importorskip("numpy")
    w, x = np.linspace(0.1, 1.0, 7), np.linspace(-1.0, 1.0, 7)
    compiled = symdiff.grad(over_elements, wrt="w", jit="numba")(w, x)
    python = symdiff.grad(over_elements, wrt="w")(w, x)
    assert compiled.dtype == python.dtype and compiled.tobytes() == python.tobytes()


def path_over_an_array(mu, z):
    s = 1.0
    total = 0.0
    for i in range(z.shape[0]):
        s = s * math.exp(mu + z[i])
        total = total + s
    return total


@needs_numba
def test_a_list_pushed_over_the_length_of_an_array_axis_is_preallocated():
    np = pytest.importorskip("numpy")
    text = symdiff.source(path_over_an_array, 0.1, np.ones(4), wrt="mu", jit="numba")
    assert "floats = np.empty(2 * z.shape[0])" in text, text
    assert ".append(" not in text, text
