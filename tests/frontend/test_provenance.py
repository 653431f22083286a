"""What symdiff reads is what the user calls: decorators, edited files, partials, exec.

A decorator's wrapper is differentiated (not the function it wraps), or refused at the
decorator; a wrapper that changes no value (``functools.lru_cache``, ``staticmethod``)
is seen through; a file edited after import is refused; and every such error carries
a location (or, for an object with no source at all, says why it has none).
"""

import functools
import importlib
import linecache
import math
import sys
import textwrap

import pytest

import symdiff
import symdiff.tape
from symdiff.errors import (DecoratorError, SourceChangedError, SourceUnavailableError,
                            SymdiffError)
from symdiff.frontend.parse import parse_function
from oracles import finite_difference


def doubled(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return 2.0 * fn(*args)
    return wrapper


def doubled_by_name(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return 2.0 * fn(x)
    return wrapper


@doubled
def square(x):
    return x * x


@doubled_by_name
def square_by_name(x):
    return x * x


@doubled
def doubled_helper(t):
    return t * t


def calls_a_doubled_helper(x):
    return doubled_helper(x) + x


@doubled_by_name
def named_helper(t):
    return math.sin(t) * t


def calls_a_named_helper(x):
    return named_helper(x) * x


@functools.lru_cache(maxsize=None)
def cached(x):
    return math.exp(x) * x


def calls_a_cached_helper(x):
    return cached(x) + x * x


class Shapes:
    @staticmethod
    def area(x):
        return x * x * math.pi


def _line_of(fn, text):
    """The line (and column) of ``text`` in ``fn``'s file, at or after its definition."""
    filename = fn.__code__.co_filename
    lines = linecache.getlines(filename)
    for i in range(fn.__code__.co_firstlineno - 3, len(lines)):
        if text in lines[i]:
            return i + 1, lines[i].index(text)
    raise AssertionError(text)


def _decorator_line(name):
    lines = linecache.getlines(__file__)
    index = next(i for i, line in enumerate(lines) if line.startswith(f"def {name}("))
    return index, 0  # the line above the def (1-based: index), column of the @


def test_a_decorator_passing_args_on_is_refused_at_the_decorator():
    assert square(3.0) == 18.0 and symdiff.tape.grad(square)(3.0) == 12.0
    with pytest.raises(DecoratorError) as raised:
        symdiff.grad(square)
    assert (raised.value.lineno, raised.value.col_offset) == _decorator_line("square")
    assert raised.value.filename == __file__


def test_a_decorated_helper_passing_args_on_is_refused_at_its_decorator():
    with pytest.raises(DecoratorError) as raised:
        symdiff.grad(calls_a_doubled_helper)
    assert (raised.value.lineno, raised.value.col_offset) == _decorator_line("doubled_helper")


@pytest.mark.parametrize("fn", [square_by_name, calls_a_named_helper],
                         ids=lambda fn: fn.__name__)
def test_a_wrapper_with_named_parameters_is_what_is_differentiated(fn):
    gradient, tape = symdiff.grad(fn), symdiff.tape.grad(fn)
    assert gradient.__name__ == f"grad_{fn.__name__}"
    for x in (0.3, -1.2, 2.5):
        assert gradient(x) == pytest.approx(tape(x), rel=1e-13)
        assert gradient(x) == pytest.approx(finite_difference(fn, (x,), 0)[0], rel=1e-7)
    assert symdiff.grad(square_by_name)(3.0) == 12.0


def test_the_sympy_witness_reads_the_wrapper_too():
    symbol = __import__("sympy").Symbol("x", real=True)
    for x in (0.3, 1.7):
        expected = symdiff.symbolic_grad(calls_a_named_helper, at=(x,)).subs(symbol, x)
        assert symdiff.grad(calls_a_named_helper)(x) == pytest.approx(float(expected))


@pytest.mark.parametrize("fn, plain", [
    (cached, lambda x: math.exp(x) * x),
    (calls_a_cached_helper, lambda x: math.exp(x) * x + x * x),
    (Shapes.__dict__["area"], lambda x: x * x * math.pi),
], ids=["lru_cache", "an lru_cache helper", "staticmethod"])
def test_wrappers_that_change_no_value_are_seen_through(fn, plain):
    gradient = symdiff.grad(fn)
    for x in (0.3, -1.2, 2.5):
        assert gradient(x) == pytest.approx(finite_difference(plain, (x,), 0)[0], rel=1e-7)


def test_our_own_decorators_keep_working():
    def softplus(t):
        return math.log1p(math.exp(t))

    rule = symdiff.custom_grad(lambda t, out: 1.0 / (1.0 + math.exp(-t)))(softplus)
    assert rule is softplus  # custom_grad registers and returns the function itself

    def loss(x):
        return softplus(x) * symdiff.stop_gradient(x)

    for x in (0.3, -1.2):
        assert symdiff.grad(loss)(x) == pytest.approx(x / (1.0 + math.exp(-x)), rel=1e-13)
    assert symdiff.grad(symdiff.grad(square_by_name))(3.0) == 4.0


# --- a file edited after import ----------------------------------------------------------

MODULE = """\
import math


def f(x):
    return x * x


def g(x):
    return f(x) + math.sin(x)
"""


@pytest.fixture
def edited(tmp_path, monkeypatch):
    """A module imported from ``tmp_path`` and a way to rewrite its file."""
    path = tmp_path / "edited_module.py"
    path.write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("edited_module", None)
    module = importlib.import_module("edited_module")
    yield module, path
    sys.modules.pop("edited_module", None)


def test_an_edited_file_is_refused(edited):
    module, path = edited
    path.write_text(MODULE.replace("x * x", "x + x"))
    with pytest.raises(SourceChangedError) as raised:
        symdiff.grad(module.f)
    assert (raised.value.filename, raised.value.lineno, raised.value.col_offset) == (
        str(path), 4, 0)


def test_an_edited_helper_is_refused_at_the_helper(edited):
    module, path = edited
    path.write_text(MODULE.replace("x * x", "x * x * x"))
    with pytest.raises(SourceChangedError) as raised:
        symdiff.grad(module.g)
    assert raised.value.lineno == 4


def test_moved_lines_are_refused(edited):
    module, path = edited
    path.write_text("\n\n" + MODULE)
    with pytest.raises(SourceChangedError):
        symdiff.grad(module.f)


def test_after_a_reload_the_new_text_is_read_though_the_old_was_cached(edited):
    module, path = edited
    linecache.getlines(str(path))  # a traceback once read the file
    path.write_text(MODULE.replace("x * x", "x * x * x"))
    importlib.reload(module)  # the new code runs: the new text must be read
    assert symdiff.grad(module.f)(2.0) == 12.0


def test_a_gradient_held_stays_right_after_the_edit(edited):
    module, path = edited
    gradient = symdiff.grad(module.f)
    path.write_text(MODULE.replace("x * x", "x + x"))
    assert gradient(3.0) == 6.0  # built from the code that runs, which has not changed


def test_an_unchanged_file_is_read_whatever_its_constructs():
    """Closures, class bodies (private names), decorators, lambdas and defaults compile
    back to the code that runs."""
    class Holder:
        __scale = 3.0

        @staticmethod
        def scaled(x, k=2.0):
            return k * x * Holder._Holder__scale

    def factory(a):
        return lambda t: a * t * t

    for fn in (Holder.scaled, factory(2.0), square_by_name, cached, calls_a_named_helper):
        assert parse_function(fn).tree is not None


def checked(x):
    assert x > 0, "x must be positive"
    return x * x


def test_code_rewritten_by_an_import_hook_is_still_read():
    """pytest rewrites the asserts of this module: its code holds names no source can
    spell, and cannot be rebuilt from the text; it is read all the same."""
    assert any(not n.isidentifier() for n in checked.__code__.co_varnames + checked.__code__.co_names)
    assert parse_function(checked).name == "checked"


# --- a location on every error -------------------------------------------------------------

def two(x, y=2.0):
    return x * y


def test_a_partial_is_refused_at_the_function_it_binds():
    with pytest.raises(SourceUnavailableError) as raised:
        symdiff.grad(functools.partial(two, y=3.0))
    assert (raised.value.lineno, raised.value.col_offset) == _line_of(two, "def two")
    assert "partial" in str(raised.value) and "two" in str(raised.value)


def test_a_function_made_by_exec_names_where_its_code_says_it_was_made():
    scope = {}
    exec(compile("\n\ndef made(x):\n    return x * x\n", "<generated>", "exec"), scope)
    with pytest.raises(SourceUnavailableError) as raised:
        symdiff.grad(scope["made"])
    assert (raised.value.filename, raised.value.lineno, raised.value.col_offset) == (
        "<generated>", 3, 0)


def test_text_registered_with_linecache_is_read():
    text = "def registered(x):\n    return x * x * x\n"
    linecache.cache["<registered>"] = (len(text), None, text.splitlines(True), "<registered>")
    scope = {}
    exec(compile(text, "<registered>", "exec"), scope)
    assert symdiff.grad(scope["registered"])(2.0) == 12.0


@pytest.mark.parametrize("wrt", ["q", 5, 1.5, ()], ids=repr)
def test_a_wrong_wrt_points_at_the_parameters(wrt):
    with pytest.raises(SymdiffError) as raised:
        symdiff.grad(two, wrt=wrt)
    assert (raised.value.lineno, raised.value.col_offset) == _line_of(two, "x, y")


@pytest.mark.parametrize("obj", [math.sin, len, 3.0], ids=["math.sin", "len", "a float"])
def test_an_object_with_no_source_says_why_there_is_no_location(obj):
    with pytest.raises(SourceUnavailableError) as raised:
        symdiff.grad(obj)
    assert raised.value.lineno is None and "no source" in str(raised.value)


def test_deep_nesting_points_at_the_statement_holding_it(tmp_path, monkeypatch):
    body = " ** ".join(["x"] * 1000)
    (tmp_path / "deep_module.py").write_text(textwrap.dedent(f"""\
        def deep(x):
            y = x * 2.0
            z = {body}
            return z + y
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("deep_module", None)
    module = importlib.import_module("deep_module")
    with pytest.raises(SymdiffError) as raised:
        symdiff.grad(module.deep)
    assert (raised.value.lineno, raised.value.col_offset) == (3, 4)
    sys.modules.pop("deep_module", None)


two_partial = functools.partial(two, y=1.0)


def calls_two_partial(x):
    return two_partial(x) * x


def test_an_unreadable_helper_is_reported_at_the_call():
    with pytest.raises(SymdiffError) as raised:
        symdiff.grad(calls_two_partial)
    assert (raised.value.lineno, raised.value.col_offset) == _line_of(
        calls_two_partial, "two_partial(x) * x")



@doubled
def doubled_softplus(t):
    return math.log1p(math.exp(t))


symdiff.defgrad(doubled_softplus, lambda t, out: 2.0 / (1.0 + math.exp(-t)))


def calls_a_decorated_function_with_a_rule(x):
    return doubled_softplus(x) * x


def test_a_rule_is_the_way_out_for_a_decorated_helper():
    """The hint of the decorator error: the decorated function given a rule is called as
    it is (its wrapper runs forward), and the rule gives its derivative."""
    gradient = symdiff.grad(calls_a_decorated_function_with_a_rule)
    for x in (0.3, -1.2):
        estimate, _ = finite_difference(calls_a_decorated_function_with_a_rule, (x,), 0)
        assert gradient(x) == pytest.approx(estimate, rel=1e-7)
    report = symdiff.check(calls_a_decorated_function_with_a_rule, (0.3,), (-1.2,))
    assert report.ok, report


def _cell(name, shown, run):
    """A function whose file (a notebook cell, say) holds ``shown`` while ``run`` ran:
    ``shown`` has a line no parser reads, as a magic command is."""
    linecache.cache[name] = (len(shown), None, shown.splitlines(True), name)
    scope = {}
    exec(compile(run, name, "exec"), scope)
    return scope["f"]


CELL = "import math\n%timeit\ndef f(x):\n    return math.sin(x) * x\n"


def test_a_def_read_alone_from_text_that_does_not_parse_whole():
    f = _cell("<cell 1>", CELL, CELL.replace("%timeit", "pass"))
    assert symdiff.grad(f)(0.5) == pytest.approx(math.cos(0.5) * 0.5 + math.sin(0.5))
    edited = _cell("<cell 2>", CELL.replace("sin", "tan"), CELL.replace("%timeit", "pass"))
    with pytest.raises(SourceChangedError):
        symdiff.grad(edited)


def test_rewritten_code_with_negative_constants_is_still_read():
    def guarded(x):
        assert x > -10.0, "x is too small"
        return x * -2.5

    assert parse_function(guarded).name == "guarded"
