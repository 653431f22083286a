"""Lists used as stacks (``append`` and ``pop``) under the optimizer: one case of lists.

- A call with effects is never merged, duplicated, dropped or reordered: two ``s.pop()``
  are two values (the reproducer ``s.pop() * s.pop()`` and its relatives), against the
  tape and ``optimize=False``; ``effects.Calls`` on hand-written calls; the passes alone.
- A list that is popped (``s.pop()``, ``s.pop(i)``) is read every other way too (``s[0]``,
  ``s[-1]``, ``len(s)``, ``for v in s``); one read before it is made, or returned, is
  refused where it is read; a pop symdiff does not read is refused at the call.
- Fuzzing: random stack programs (``tests/stack_programs.py``), optimized against
  unoptimized against the tape, with and without reads by index and length.
"""

import ast
import math
import textwrap

import pytest

import symdiff
import symdiff.tape
from symdiff.optimize import fuse
from symdiff.optimize import driver as optimize
from symdiff.optimize.effects import Calls
from symdiff.optimize.context import Context
from symdiff.errors import UnsupportedSyntaxError
from symdiff.core.expr import from_ast

try:
    import oracles
    import stack_programs
    from sweeps_text import function_of, text_of
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles, stack_programs
    from tests.sweeps_text import function_of, text_of

POINTS = ((2.0, 3.0), (-0.5, 1.25), (0.0, -0.0))


def _module(tmp_path, name, text):
    """The functions of ``text`` (with ``import math`` above), imported from a file."""
    return oracles.module_from_text(tmp_path, name, "import math\n\n" + textwrap.dedent(text))


POPS = '''
def product(a, b):
    s = []
    s.append(a)
    s.append(b)
    return s.pop() * s.pop()


def difference(a, b):
    s = []
    s.append(a)
    s.append(b)
    return s.pop() - s.pop()


def quotient_of_functions(a, b):
    s = []
    s.append(math.sin(a))
    s.append(math.sin(b))
    return math.cos(s.pop()) / (2.0 + math.cos(s.pop()))


def as_statements(a, b):
    s = []
    s.append(a * b)
    s.append(a * b)
    u = s.pop()
    v = s.pop()
    return u * a + v * b


def two_stacks(a, b):
    s = []
    t = []
    s.append(a)
    t.append(a)
    s.append(b)
    t.append(b)
    return s.pop() * t.pop() + s.pop() * a - t.pop()


def in_a_loop(a, b):
    s = []
    r = 0.0
    for i in range(3):
        s.append(a * i)
        s.append(b + i)
        r = r + s.pop() * s.pop()
    return r


def filled_then_drained(a, b):
    s = []
    for i in range(3):
        s.append(a * b + i)
    r = 1.0
    for i in range(3):
        r = r * s.pop() + b
    return r


def in_branches(a, b):
    s = []
    s.append(a)
    s.append(b)
    if a > b:
        r = s.pop() - s.pop()
    else:
        r = s.pop() * 2.0 - s.pop()
    return r
'''
POPPING = ("product", "difference", "quotient_of_functions", "as_statements", "two_stacks",
           "in_a_loop", "filled_then_drained", "in_branches")


@pytest.fixture(scope="module")
def pops(tmp_path_factory):
    return _module(tmp_path_factory.mktemp("stacks"), "stack_pops", POPS)


@pytest.mark.parametrize("name", POPPING)
def test_two_pops_are_two_values(pops, name):
    fn = getattr(pops, name)
    for point in POINTS:
        optimized = symdiff.grad(fn)(*point)
        assert optimized == symdiff.grad(fn, optimize=False)(*point), point
        assert optimized == pytest.approx(symdiff.tape.grad(fn)(*point), rel=1e-12), point


def test_the_reported_product(pops):
    assert symdiff.grad(pops.product)(2.0, 3.0) == (3.0, 2.0)


def _pops(text):
    return sum(line.count(".pop()") + line.count(" pop()") for line in text.splitlines()
               if not line.lstrip().startswith("#"))


@pytest.mark.parametrize("name", POPPING)
def test_the_optimizer_keeps_every_pop(pops, name):
    fn = getattr(pops, name)
    assert _pops(symdiff.source(fn)) == _pops(symdiff.source(fn, optimize=False))


# --- the passes alone ------------------------------------------------------------------

def _function(text):
    return function_of(text)


def _optimized(text, *passes, calls=None):
    function = _function(text)
    context = Context.of(function, "math")
    context.calls = calls or context.calls
    for _ in range(optimize.MAX_ROUNDS):
        if not any([run(function, context) for run in passes]):
            break
    return text_of(function)


def test_reuse_never_merges_calls_with_effects():
    text = """
    def f(s, t, x):
        a = s.pop()
        b = s.pop()
        c = rule(x)
        d = rule(x)
        e = t.append(x)
        g = t.append(x)
        return a, b, c, d, e, g
    """
    assert _optimized(text, optimize.reuse_values) == text_of(_function(text))


def test_reuse_still_merges_pure_calls():
    text = """
    def f(x):
        a = math.cos(x)
        b = math.cos(x)
        c = np.cos(x)
        d = np.cos(x)
        return a, b, c, d
    """
    unknown = _optimized(text, optimize.reuse_values)
    assert "b = a" in unknown and "d = c" not in unknown  # np is not known to be numpy
    numpy = Calls("math", frozenset({"np"}))
    assert "d = c" in _optimized(text, optimize.reuse_values, calls=numpy)


def test_fuse_never_moves_a_call_with_effects():
    text = """
    def f(s, x):
        a = s.pop()
        b = rule(x)
        c = x * 2.0
        return b + c + a
    """
    fused = _optimized(text, fuse.fuse_single_uses)
    assert "a = s.pop()" in fused and "b = rule(x)" in fused


def test_pow_zero_keeps_a_base_that_may_raise():
    text = """
    def f(x):
        y = math.log(x) ** 0
        return y
    """
    assert "math.log(x)" in _optimized(text, optimize.fold_constants)
    assert "y = 1.0" in _optimized("def f(x):\n    y = 2.5 ** 0\n    return y",
                                   optimize.fold_constants)


@pytest.mark.parametrize("call, pure", [
    ("math.sin(x)", True), ("np.sin(x)", True), ("abs(x)", True), ("float(x)", True),
    ("s.pop()", False), ("s.append(x)", False), ("pop()", False), ("push(x)", False),
    ("rule(x)", False), ("record(1, 0, x)", False), ("np.random.rand()", False),
    ("np.save(x)", False), ("os.system(x)", False), ("abs_1(x)", True),
])
def test_which_calls_are_pure(call, pure):
    calls = Calls("math", frozenset({"np"}), frozenset({"abs", "float", "abs_1"}))
    assert calls.is_pure(from_ast(ast.parse(call, mode="eval").body)) is pure


def _line(error):
    """The source line a located error points at, read from its file."""
    with open(error.filename) as file:
        return file.read().splitlines()[error.lineno - 1]


# --- a list filled by append is read like any list: by index, len, a loop ---------------

READS = '''
def indexed(x):
    s = []
    s.append(x * x)
    y = s[0]
    return y


def indexed_in_for(x):
    y = 0.0
    for i in range(3):
        s = []
        s.append(x * x)
        y = y + s[0]
    return y


def last_in_for(x):
    s = []
    y = 0.0
    for i in range(3):
        s.append(x * i)
        y = y + s[-1]
    return y


def length(x):
    s = []
    s.append(x)
    return x * len(s)


def length_in_while(x):
    s = []
    y = x
    while len(s) < 3:
        s.append(y)
        y = y * x
    return y


def index_in_while(x):
    s = []
    s.append(x)
    i = 0
    y = 0.0
    while i < 2:
        y = y + s[i] * x
        i = i + 1
    return y


def nested_loops(x):
    y = 0.0
    for i in range(2):
        s = []
        for j in range(2):
            s.append(x * j)
            y = y + s[j]
    return y


def read_before_made(x):
    y = 0.0
    for i in range(2):
        if i > 0:
            y = y + s[0]
        s = []
        s.append(x)
    return y


def looped_over(x):
    s = []
    s.append(x)
    y = 0.0
    for v in s:
        y = y + v
    return y


def returned(x):
    s = []
    s.append(x)
    return s
'''
READING = ("indexed", "indexed_in_for", "last_in_for", "length", "length_in_while",
           "nested_loops", "looped_over")
REFUSED = ("read_before_made", "returned")  # a list read before it is made, or returned


@pytest.fixture(scope="module")
def reads(tmp_path_factory):
    return _module(tmp_path_factory.mktemp("stacks"), "stack_reads", READS)


@pytest.mark.parametrize("name", READING)
def test_a_list_filled_by_append_is_read_by_index_length_and_loops(reads, name):
    fn = getattr(reads, name)
    for x in (0.3, 0.7, 1.9):
        for optimized in (True, False):
            got = symdiff.grad(fn, optimize=optimized)(x)
            assert got == pytest.approx(symdiff.tape.grad(fn)(x), rel=1e-12, abs=1e-12)
            h = 1e-6
            assert got == pytest.approx((fn(x + h) - fn(x - h)) / (2 * h), rel=1e-6, abs=1e-8)


def test_a_list_read_past_its_end_raises_what_the_function_raises(reads):
    with pytest.raises(IndexError):
        reads.index_in_while(0.7)
    with pytest.raises(IndexError):
        symdiff.grad(reads.index_in_while)(0.7)


@pytest.mark.parametrize("name", REFUSED)
def test_a_list_read_before_it_is_made_or_returned_is_refused_where_it_is_read(reads, name):
    fn = getattr(reads, name)
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(fn)
    error = caught.value
    line = _line(error)
    assert error.filename.endswith("stack_reads.py")
    assert line[error.col_offset:].startswith("s"), line
    assert "s[" in line or "len(s)" in line or "in s" in line or "return s" in line, line


# --- fuzzing -----------------------------------------------------------------------------

PROGRAMS = 120  # per batch; scripts can run more by calling stack_programs directly


@pytest.fixture(scope="module")
def directory(tmp_path_factory):
    return tmp_path_factory.mktemp("stack_fuzz")


@pytest.mark.parametrize("seed", (1, 2))
def test_fuzz_optimized_equals_unoptimized_and_tape(directory, seed):
    programs = [stack_programs.generate(seed, i) for i in range(PROGRAMS)]
    stack_programs.load(programs, directory, f"stacks_{seed}")
    found = []
    for program in programs:
        for point in ((0.3, -0.7), (1.1, 0.4)):
            found += stack_programs.compare(program, point)
    assert not found, f"{len(found)} mismatches; the first:\n{found[0]}"


def test_fuzz_stacks_read_by_index_and_length_are_right(directory):
    programs = [stack_programs.generate(3, i, indexing=True) for i in range(PROGRAMS // 2)]
    stack_programs.load(programs, directory, "stacks_indexed")
    found = []
    for program in programs:
        for point in ((0.3, -0.7), (1.1, 0.4)):
            found += stack_programs.compare(program, point)
    assert not found, f"{len(found)} mismatches; the first:\n{found[0]}"
    read = [p for p in programs if "[" in p.source.replace("= []", "") or "len(" in p.source]
    assert len(read) >= len(programs) // 6, "the indexing programs should read stacks by index"


def test_stack_programs_pop_nothing_empty(directory):
    programs = [stack_programs.generate(4, i) for i in range(40)]
    stack_programs.load(programs, directory, "stacks_checked")
    for program in programs:
        value = program.fn(0.3, -0.7)
        assert isinstance(value, float) and not math.isnan(value), program.source
        assert program.source.count(".pop()") >= 1 or ".append(" not in program.source


# --- higher order: the lists of a gradient read again, and forward mode over lists -------

try:
    from corpus import containers as container_corpus, tangent_lists
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import containers as container_corpus, tangent_lists

NUMBER_CASES = [c for module in (container_corpus, tangent_lists) for c in module.CASES
                if all(isinstance(v, (int, float)) for v in c.points[0])]
# the ones whose second derivative and forward mode are built (lists built, appended to,
# popped and indexed in the function, and those the gradient itself keeps)
SECOND = {"list_literal", "tuple_indexed_in_loop", "powers_appended", "explicit_euler",
          "euler_trajectory_loss", "peek_and_measure", "stack_of_running_products",
          "anf_list", "list_and_subscript", "two_values_returned", "pick_from_packed",
          "polar_radius_times_angle", "pushed_and_popped", "pushed_and_dropped"}
FORWARD = {"list_literal", "powers_appended", "explicit_euler", "euler_trajectory_loss",
           "peek_and_measure", "stack_of_running_products", "pop_from_the_front", "anf_list",
           "list_and_subscript", "two_values_returned", "polar_radius_times_angle",
           "pushed_and_popped", "pushed_and_dropped"}


def _derivative(fn, point, i, h=1e-4):
    """d fn / d point[i], central differences with one Richardson step."""
    def at(step):
        moved = list(point)
        moved[i] += step
        return fn(*moved)
    coarse = (at(h) - at(-h)) / (2 * h)
    fine = (at(h / 2) - at(-h / 2)) / h
    return (4 * fine - coarse) / 3


def _built(make):
    try:
        return make()
    except symdiff.SymdiffError:
        return None


@pytest.mark.parametrize("case", NUMBER_CASES, ids=lambda c: c.label)
def test_second_derivatives_read_the_gradient_s_lists(case):
    first = case.params[0]
    inner = symdiff.grad(case.fn, wrt=first)
    second = _built(lambda: symdiff.grad(inner, wrt=first))
    if case.label in SECOND:
        assert second is not None, f"{case.label}: grad of grad is refused"
    if second is None:
        return
    for point in case.points:
        point = tuple(float(v) if i == 0 else v for i, v in enumerate(point))
        expected = _derivative(inner, point, 0)
        assert second(*point) == pytest.approx(expected, rel=1e-6, abs=1e-8), point
        hessian = _built(lambda: symdiff.hessian(case.fn, wrt=first))
        if hessian is not None:
            assert hessian(*point) == pytest.approx(second(*point), rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("case", NUMBER_CASES, ids=lambda c: c.label)
def test_forward_mode_over_lists_gives_the_gradient(case):
    if not all(isinstance(v, float) for point in case.points for v in point):
        return  # an int parameter (an index) has no tangent
    jvp = _built(lambda: symdiff.jvp(case.fn))
    if case.label in FORWARD:
        assert jvp is not None, f"{case.label}: forward mode is refused"
    if jvp is None:
        return
    gradient = symdiff.grad(case.fn)
    n = len(case.params)
    for point in case.points:
        g = gradient(*point)
        g = g if isinstance(g, tuple) else (g,)
        for i in range(n):
            value, tangent = jvp(*point, *[1.0 if j == i else 0.0 for j in range(n)])
            assert value == pytest.approx(case.fn(*point), rel=1e-12)
            assert tangent == pytest.approx(g[i], rel=1e-10, abs=1e-12), (point, i)
            assert tangent == pytest.approx(_derivative(case.fn, point, i), rel=1e-6,
                                            abs=1e-8)


@pytest.mark.parametrize("name", POPPING)
def test_user_stacks_have_second_derivatives(pops, name):
    fn = getattr(pops, name)
    inner = symdiff.grad(fn, wrt="a")
    second = symdiff.grad(inner, wrt="a")
    for point in POINTS[:2]:
        assert second(*point) == pytest.approx(_derivative(inner, point, 0), rel=1e-6,
                                               abs=1e-8), point
        value, tangent = symdiff.jvp(fn)(*point, 1.0, 0.0)
        assert tangent == pytest.approx(symdiff.grad(fn)(*point)[0], rel=1e-10, abs=1e-12)
        assert symdiff.hessian(fn, wrt="a")(*point) == pytest.approx(second(*point),
                                                                      rel=1e-10, abs=1e-12)


def test_fuzz_second_derivatives_of_stack_programs(directory):
    programs = [stack_programs.generate(5, i, indexing=True) for i in range(30)]
    stack_programs.load(programs, directory, "stacks_second")
    for program in programs:
        inner = symdiff.grad(program.fn, wrt="x")
        second = symdiff.grad(inner, wrt="x")
        hessian = symdiff.hessian(program.fn, wrt="x")
        for point in ((0.3, -0.7), (1.1, 0.4)):
            expected = _derivative(inner, point, 0)
            assert second(*point) == pytest.approx(expected, rel=1e-5, abs=1e-7), (
                program.source, point)
            assert hessian(*point) == pytest.approx(second(*point), rel=1e-9, abs=1e-11), (
                program.source, point)


POP_REFUSED = '''
def pop_by_a_float(x):
    s = [x, x * x]
    return s.pop(1.0)


def pop_with_a_keyword(x, i):
    s = [x, x * x]
    return s.pop(index=i)


def pop_a_row(x):
    rows = []
    row = [x, x * x]
    rows.append(row)
    last = rows.pop()
    return last[0]
'''


@pytest.mark.parametrize("name", ("pop_by_a_float", "pop_with_a_keyword", "pop_a_row"))
def test_a_pop_symdiff_does_not_read_is_refused_at_the_call(tmp_path, name):
    fn = getattr(_module(tmp_path, "stack_pops_refused", POP_REFUSED), name)
    with pytest.raises(UnsupportedSyntaxError) as caught:
        symdiff.grad(fn, wrt="x")
    error = caught.value
    assert error.filename.endswith("stack_pops_refused.py")
    assert _line(error)[error.col_offset:].startswith(("s.pop(", "rows.pop(", "1.0)")), _line(error)
