"""The primitive registry against the witnesses, which state their own derivatives.

Every record of ``symdiff.primitives.registry`` must have: a tape operation (its bridge
names only functions ``symdiff.tape`` has, and computes the record's value on tape
``Value``s, with the tape's derivatives equal to the record's partials at points of
its domain), check's bridge (``check``'s interpreter and the divergence locator run it
on Values), a sympy mapping (the sympy interpreter translates a call of each spelling),
a test domain of one interval per argument, a convention note (and a row of README's
table of conventions) wherever a partial has a branch or no derivative, and a type rule
that Python's own results bear out.  The old
scattered sets of primitive names must not come back outside the registry and the
witnesses.
"""

import ast
import builtins
import importlib.util
import math
import pathlib
import random
import warnings
import re

import pytest

import symdiff
import symdiff.witnesses.symbolic as sympy_witness
import symdiff.tape as tape
import test_rules
from symdiff.checking import locate, tape_bridge
from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.ir.names import BUILTINS
from symdiff.pipeline import lower
from symdiff.primitives import registry
from symdiff.core import types as t
from symdiff.primitives import type_rules
from symdiff.primitives.texts import names_read, template

RECORDS = registry.records()
ROOT = pathlib.Path(symdiff.__file__).parent
WITNESSES = ("tape.py", "tape_numpy.py", "tapemath.py", "symbolic.py", "witnesses")
HAVE_SCIPY = importlib.util.find_spec("scipy") is not None
if HAVE_SCIPY:  # the tape computes SciPy's functions by SciPy, once the user's code has it
    import scipy.special  # noqa: F401
    import scipy.stats  # noqa: F401
else:
    RECORDS = [r for r in RECORDS if not (r.scipy and not r.math or r.method)]
IDS = [r.name for r in RECORDS]


def points(record, seed, count=3):
    rng = random.Random(f"registry:{record.name}:{seed}")
    found = []
    for _ in range(count):
        found.append(tuple(rng.randint(int(lo), int(hi)) if p in record.ints else
                           lo + (hi - lo) * (0.05 + 0.9 * rng.random())
                           for p, (lo, hi) in zip(record.params, record.domain)))
    return found


def _computable(text, record):
    """Whether ``text`` runs with math and the builtins alone (not SciPy's formulas)."""
    return names_read(text) <= set(record.params) | {"math", "out"} | set(dir(builtins))


def _run(text, record, point, out=None):
    env = dict(zip(record.params, point), math=math, out=out)
    return eval(compile(ast.Expression(template(text)), "<record>", "eval"), env)


def _close(a, b, rtol=1e-9):
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b or abs(a - b) <= rtol * max(1.0, abs(a), abs(b))


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_record_is_whole(record):
    assert len(record.domain) == record.arity, "one test interval per argument"
    assert all(lo <= hi for lo, hi in record.domain)
    assert len(record.partials) == record.arity or (record.vjp and record.jvp)
    assert set(record.ints) <= set(record.params)
    assert all(record.partials[record.params.index(p)] is None for p in record.underived)
    assert len(record.defaults) <= record.arity
    assert record.result in type_rules.RESULTS
    assert record.bridge, "no bridge to the tape"
    branched = [p for p in record.partials if p is not None
                and any(isinstance(n, ast.IfExp) for n in ast.walk(template(p)))]
    if None in record.partials or branched:
        assert record.note, "a convention note where the derivative is not smooth"
    assert record.internal or any((record.math, record.numpy, record.builtin, record.scipy,
                                   record.method, record.operator, record.pair)) or (
        record.name.rpartition("_")[0] in registry.VARIADIC) or any(
        record.name == v for r in registry.RECORDS.values() for _, v in r.variants), \
        "reached by no name"


def _tape_functions(node):
    """The tape's functions the bridge calls: ``tape.sin`` -> ["sin"], ``tape.norm.cdf``
    -> ["norm", "cdf"]."""
    for sub in ast.walk(node):
        dotted = ast.unparse(sub.func) if isinstance(sub, ast.Call) else ""
        if dotted.startswith("tape.") and all(part.isidentifier() for part in dotted.split(".")):
            yield dotted.split(".")[1:]


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_bridge_is_a_tape_operation(record):
    """The bridge calls what the tape has, and the tape's value and derivatives at the
    record's points are the record's forward and partials."""
    for path in _tape_functions(template(record.bridge)):
        found = tape
        for name in path:
            found = getattr(found, name, None)
        assert callable(found), f"symdiff.tape has no {'.'.join(path)}"
    function = tape_bridge.tape_op(_PROGRAM, record.name)
    for point in points(record, "tape"):  # (a parameter of no derivative: a number)
        values = [tape.Value(float(v)) if p not in record.ints + record.underived else v
                  for p, v in zip(record.params, point)]
        out = function(*values)
        value = out.data if isinstance(out, tape.Value) else out
        if _computable(record.forward, record):
            assert _close(value, _run(record.forward, record, point)), point
        if isinstance(out, tape.Value):
            out.backward()
        for param, v, partial in zip(record.params, values, record.partials):
            got = v.grad if isinstance(v, tape.Value) and isinstance(out, tape.Value) else 0.0
            if partial is None:
                assert got == 0.0, (param, point)
            elif _computable(partial, record):
                assert _close(got, _run(partial, record, point, value), 1e-7), (param, point)


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_check_runs_every_operation_on_values(record):
    """check's interpreter and the locator's local partials take each op on Values."""
    program = lower(parse_function(_identity))
    point = points(record, "check", 1)[0]
    args = [tape.Value(float(v)) if p not in record.ints else v
            for p, v in zip(record.params, point)]
    tape_bridge.tape_op(program, record.name)(*args)
    args = [float(v) if p not in record.ints else v for p, v in zip(record.params, point)]
    stmt = ir.Assign("out", record.name, tuple(ir.Var(p) for p in record.params), None)
    partials = locate._local_partials(program, stmt, args)
    assert len(partials) == record.arity


def _identity(x):
    return x


_PROGRAM = lower(parse_function(_identity))


# --- sympy --------------------------------------------------------------------------------

SPELLINGS = test_rules.SPELLINGS
module = test_rules.module  # the fixture: one module of a function per spelling


def test_every_record_is_spelled_for_sympy():
    reached = {op for _, op, _ in SPELLINGS}
    internal = {r.name for r in registry.RECORDS.values() if r.internal}
    scipy_only = set() if HAVE_SCIPY else {r.name for r in registry.RECORDS.values()
                                          if r.scipy or r.method}
    assert {r.name for r in RECORDS} - reached == internal | scipy_only


@pytest.mark.parametrize("index", range(len(SPELLINGS)), ids=[s[0] for s in SPELLINGS])
def test_sympy_translates_every_spelling(module, index):
    spelling, op, _ = SPELLINGS[index]
    fn = getattr(module, f"f{index}")
    point = test_rules.points(op, spelling, 1)[0]
    expressions = sympy_witness.symbolic(fn, at=point)
    assert expressions is not None


def test_stop_gradient_is_translated_by_sympy():
    def f(x):
        return x * symdiff.stop_gradient(x)
    assert sympy_witness.evaluate_grad(f, (1.5,)) == pytest.approx(1.5)


# --- types and properties -----------------------------------------------------------------

_FIXED = (type_rules.floats, type_rules.ints, type_rules.bools)


@pytest.mark.parametrize("record", [r for r in RECORDS if not r.numpy or r.math or r.builtin
                                    or r.operator], ids=lambda r: r.name)
def test_type_rule_is_python_s(record):
    """The type the type rule gives holds the value Python's own computation returns (is
    its type, for a rule of one type)."""
    if not _computable(record.forward, record):
        pytest.skip("computed by SciPy")
    for family in (None, "math"):
        spelled = record.spelled(family)
        for point in points(record, "types"):
            args = [t.INT if p in record.ints else t.FLOAT for p in record.params]
            try:
                value = _run(spelled.forward, record, point)
            except (ValueError, OverflowError, ZeroDivisionError):
                continue
            typed = record.typed(args, point, family)
            assert t.accepts(typed.result, t.of_value(value)), (family, point, value)
            if spelled.result in _FIXED:
                assert typed.result == t.of_value(value)


def test_type_rules_of_python_arithmetic():
    def result(op, *args, consts=(), by=None):
        return registry.typed(op, args, consts, by).result

    assert result("add", t.INT, t.INT) == t.INT
    assert result("add", t.BOOL, t.BOOL) == t.INT
    assert result("add", t.INT, t.FLOAT) == t.FLOAT
    assert result("div", t.INT, t.INT) == t.FLOAT
    assert result("pow", t.INT, t.INT) == t.FLOAT  # 2 ** -1 is 0.5: an int or a float
    assert result("pow", t.INT, t.INT, consts=(None, 2)) == t.INT
    assert result("pow", t.INT, t.INT, consts=(None, 2), by="math") == t.FLOAT
    assert result("max", t.INT, t.FLOAT) == t.FLOAT  # either: a float variable holds both
    assert result("max", t.BOOL, t.BOOL) == t.BOOL
    assert result("copy", t.STR) == t.STR
    assert result("isnan", t.FLOAT) == t.BOOL
    assert result("floor", t.FLOAT) == t.INT
    assert result("add", None, t.FLOAT) == t.FLOAT  # an operand not typed yet
    assert result("sin", t.FLOAT, by="math") == t.FLOAT


def test_numpy_scalars_are_a_type():
    """What numpy computes is a NumPy scalar, and so is an operator that meets one; a test
    stays a bool; ``float()`` and math's functions give Python floats back."""
    def result(op, *args, by=None):
        return registry.typed(op, args, (), by).result

    npf = t.NUMPY_FLOAT
    assert result("sin", t.FLOAT, by="numpy") == npf
    assert result("floor", t.FLOAT, by="numpy") == npf  # np.floor gives a float
    assert result("mul", npf, t.FLOAT) == npf
    assert result("div", t.INT, npf) == npf
    assert result("pow", npf, t.INT) == npf
    assert result("abs", npf) == npf and result("max", t.FLOAT, npf) == npf
    assert result("float", npf) == t.FLOAT and result("sin", npf, by="math") == t.FLOAT
    assert result("round", npf) == t.INT
    assert result("isnan", npf, by="math") == t.BOOL
    assert t.join(t.FLOAT, npf) == npf and t.accepts(npf, t.FLOAT)
    assert not t.accepts(t.FLOAT, npf)


@pytest.mark.parametrize("record", [r for r in RECORDS if r.numpy], ids=lambda r: r.name)
def test_type_rule_is_numpy_s(record):
    """Called by numpy's name, the value is the NumPy scalar the rule says (a bool stays
    a bool); an operator on a NumPy scalar gives one too."""
    np = pytest.importorskip("numpy")
    function = getattr(np, record.numpy[0])
    tests = record.result is type_rules.bools  # ``np.isnan``: NumPy's bool
    for point in points(record, "numpy"):
        with np.errstate(all="ignore"):
            value = function(*point)
        assert isinstance(value, np.bool_ if tests else np.floating), (point, value)
        args = [t.INT if p in record.ints else t.FLOAT for p in record.params]
        assert record.typed(args, point, "numpy").result == (t.BOOL if tests else t.NUMPY_FLOAT)
        if record.operator is not None:
            with np.errstate(all="ignore"):
                mixed = _run(record.forward, record, (np.float64(point[0]),) + point[1:])
            assert isinstance(mixed, np.floating)
            assert record.typed([t.NUMPY_FLOAT] + args[1:], point).result == t.NUMPY_FLOAT


def test_may_raise_is_total_on_numbers():
    assert not registry.typed("add", (t.FLOAT, t.FLOAT)).may_raise
    assert registry.typed("div", (t.FLOAT, t.FLOAT)).may_raise
    assert registry.typed("add", (t.STR, t.FLOAT)).may_raise
    assert registry.total("tanh") and not registry.total("log")
    assert not registry.typed("div", (t.NUMPY_FLOAT, t.FLOAT)).may_raise  # inf, a warning
    assert not registry.typed("log", (t.FLOAT,), by="numpy").may_raise  # np.log(-1.0): nan
    assert registry.typed("log", (t.NUMPY_FLOAT,), by="math").may_raise  # math.log raises
    assert registry.typed("div", (t.NUMPY_FLOAT, t.STR)).may_raise


@pytest.mark.parametrize("record", [r for r in RECORDS if r.total], ids=lambda r: r.name)
def test_total_records_never_raise_on_floats(record):
    specials = (0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 1e308, -1e308, 1.5)
    rng = random.Random(record.name)
    for _ in range(60):
        point = [rng.choice(specials) for _ in record.params]
        _run(record.forward, record, point)


def test_cheap_records_are_one_operation_that_cannot_raise():
    for record in RECORDS:
        if record.cheap:
            assert record.total and record.arithmetic, record.name


def test_generated_code_reserves_every_builtin_it_calls():
    assert set(registry.builtins_called()) <= set(BUILTINS)
    assert {"abs", "round", "float"} <= set(registry.builtins_called())


# --- the old sets stay gone ---------------------------------------------------------------

def _literal_names(node):
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    if isinstance(node, ast.Dict):
        return [k.value for k in node.keys if isinstance(k, ast.Constant)] + [
            v.value for v in node.values if isinstance(v, ast.Constant)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
            node.func.attr == "split") and isinstance(node.func.value, ast.Constant):
        return str(node.func.value.value).split()
    return []


def test_no_module_keeps_its_own_list_of_primitives():
    """Outside the registry and the witnesses, no literal collection names three or more
    primitives (``CHEAP = ("add", "sub", ...)``): facts about them live in the records."""
    ops = set(registry.RECORDS) | set(registry.names("math")) | set(registry.names("numpy"))
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[0] in ("primitives",) + WITNESSES:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            named = [n for n in _literal_names(node) if isinstance(n, str) and n in ops]
            if len(set(named)) >= 3:
                found.append(f"{relative}:{node.lineno}: {sorted(set(named))}")
    assert not found, "\n".join(found)


# --- regressions: the bridge once lacked round and trunc -----------------------------------

def soft_square(x):
    return x * x


symdiff.defgrad(soft_square, lambda x, out: 2.0 * x)


def wrong_square(x):
    return x * x


symdiff.defgrad(wrong_square, lambda x, out: 3.0 * x)


def rounds(x):
    return soft_square(x) + round(x) + round(x, 1)


def truncates(x):
    return wrong_square(x) + math.trunc(x)


def test_check_of_a_rule_and_round():
    report = symdiff.check(rounds, (1.3,), (2.6,))
    assert report.ok, str(report)


def test_locator_through_trunc():
    report = symdiff.check(truncates, (1.3,))
    assert not report.ok
    assert [d.argument for d in report.divergences] == ["x"]
    assert [(p.function, p.argument) for p in report.rule_problems] == [("wrong_square", "x")]


def steps_and_checks(x):
    return wrong_square(x) + float(math.isnan(x)) + math.ulp(x) + round(x, 1)


def test_locator_through_steps_and_tests():
    """``math.isnan`` and ``math.ulp`` read the number of a Value; ``round(x, 1)`` takes its
    digits as an int: none of them crashes check's interpreter or the locator."""
    report = symdiff.check(steps_and_checks, (1.3,), (-0.6,))
    assert [d.argument for d in report.divergences] == ["x"]
    assert [(p.function, p.argument) for p in report.rule_problems] == [("wrong_square", "x")]


def _readme_conventions():
    text = (ROOT.parent / "README.md").read_text(encoding="utf-8")
    section = text.split("## Conventions at non-differentiable points", 1)[1].split("\n## ")[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("| "))


def _spelled_as(record):
    """The names README's table may call ``record`` by."""
    found = {*record.math, *record.numpy, *record.builtin, *record.scipy,
             *(f"np.{n}" for n in record.numpy), *(f"norm.{m}" for m in record.method)}
    found |= {"norm.*"} if record.method else set()
    found |= {record.forward, record.operator} if record.operator else set()
    found |= {record.pair[0]} if record.pair else set()
    found |= {record.name.rpartition("_")[0]} & set(registry.VARIADIC)
    for other in registry.RECORDS.values():  # ``round(x, n)``: a variant of round
        if any(variant == record.name for _, variant in other.variants):
            found |= _spelled_as(other)
    return found


@pytest.mark.parametrize("record", [r for r in RECORDS if not r.internal], ids=lambda r: r.name)
def test_readme_states_each_convention(record):
    """A primitive whose derivative has a point where a convention is chosen (a branch in
    a partial, or no derivative) has a row in README's table of conventions."""
    branched = any(p is not None and any(isinstance(n, ast.IfExp) for n in ast.walk(template(p)))
                   for p in record.partials)
    if not (branched or None in record.partials):
        return
    spans = re.findall(r"`([^`]*)`", _readme_conventions())
    cited = set(spans) | {word for span in spans for word in re.findall(r"[A-Za-z_][\w.]*\*?", span)}
    assert _spelled_as(record) & cited, f"README's conventions table does not name {record.name}"


@pytest.mark.parametrize("record", [r for r in RECORDS if r.numpy], ids=lambda r: r.name)
def test_what_numpy_computes_never_raises_on_numbers(record):
    """The type rule says a call numpy computes never raises on numbers: under numpy's
    default errstate it gives inf or nan and a warning."""
    np = pytest.importorskip("numpy")
    assert not record.typed([t.FLOAT] * record.arity, by="numpy").may_raise
    specials = (0.0, -0.0, -1.0, math.inf, -math.inf, math.nan, 5e-324, 1e308, 2.5)
    rng = random.Random(record.name)
    function = getattr(np, record.numpy[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(40):
            function(*[rng.choice(specials) for _ in record.params])
