"""One ``wrt``: every entry point chooses the same parameters, and refuses the same values
at the same place.

The subject is a quadratic whose gradient at the origin is (1, 10, 100) and whose
Hessian is a fixed matrix, so every result says by its numbers which parameters were
chosen and in what order.  Each ``wrt`` of the table goes through ``grad``,
``value_and_grad``, ``source``, ``jvp``, ``jacobian``, ``hessian``, ``hvp``, ``check``, the
command line and the tape engine (the independent witness, with its own resolver); the
expected values are derived from the names the table states, never typed in.
"""

import importlib.util
import math

import pytest

import symdiff
import symdiff.tape
from symdiff import pipeline
from symdiff.api import build
from symdiff.cli import main as cli
from symdiff.frontend.wrt import Choice

SUBJECT = """\
def f(x, y, z, scale=None):
    base = (x + 10.0 * y + 100.0 * z + x * y + 2.0 * y * z + 3.0 * x * z
            + 4.0 * x * x + 5.0 * y * y + 6.0 * z * z)
    if scale is None:
        return base
    return base * scale


def weighted(x, coeffs):
    return x * coeffs[0] + coeffs[1]
"""

ORIGIN = (0.0, 0.0, 0.0)
AT = (0.5, 0.25, 0.125)
GRADIENT = {"x": 1.0, "y": 10.0, "z": 100.0}  # at the origin
COUPLING = {("x", "y"): 1.0, ("y", "z"): 2.0, ("x", "z"): 3.0}
SQUARES = {"x": 4.0, "y": 5.0, "z": 6.0}

# wrt, the names chosen, whether the result is bare
VALID = [
    (None, ("x", "y", "z"), False),  # scale defaults to None: never chosen by default
    ("y", ("y",), True),
    (0, ("x",), True),
    (-2, ("z",), True),  # counted from the end: x, y, z, scale
    (("z", "x"), ("z", "x"), False),
    (["y"], ("y",), False),  # a tuple or list asks for a tuple, even of one
    ((2, "x"), ("z", "x"), False),
    ((-4, -3), ("x", "y"), False),
]
INVALID = ["w", 4, -5, (), ("x", "nope"), 1.5, True, [0, None], "scale; x"]


def second(a, b):
    """d2f/da db of the subject, from its coefficients."""
    if a == b:
        return 2.0 * SQUARES[a]
    return COUPLING.get((a, b), COUPLING.get((b, a)))


@pytest.fixture(scope="module")
def subject(tmp_path_factory):
    """The subject module, imported from a file the command line reads too."""
    folder = tmp_path_factory.mktemp("wrt")
    path = folder / "subject.py"
    path.write_text(SUBJECT)
    spec = importlib.util.spec_from_file_location("wrt_subject", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, folder


def run_cli(folder, monkeypatch, capsys, *args):
    monkeypatch.chdir(folder)
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cli_wrt(wrt):
    """``wrt`` as ``--wrt`` spells it; None where the command line cannot say it."""
    if wrt is None:
        return []
    items = wrt if isinstance(wrt, (tuple, list)) else [wrt]
    if not items or not all(isinstance(i, (str, int)) and not isinstance(i, bool)
                            for i in items):
        return None
    return ["--wrt", ",".join(str(i) for i in items)]


@pytest.mark.parametrize("wrt, names, single", VALID, ids=[repr(v[0]) for v in VALID])
def test_every_entry_point_chooses_the_same_parameters(subject, wrt, names, single,
                                                       monkeypatch, capsys):
    module, folder = subject
    f = module.f
    bare = (lambda values: values[0]) if single else tuple
    expected = bare([GRADIENT[n] for n in names])

    assert symdiff.tape.grad(f, wrt=wrt)(*ORIGIN) == expected
    assert symdiff.grad(f, wrt=wrt)(*ORIGIN) == expected
    assert symdiff.value_and_grad(f, wrt=wrt)(*ORIGIN) == (0.0, expected)
    gradient = build(f, wrt)
    assert (tuple(gradient.wrt_names), gradient.single) == (names, single)
    assert symdiff.source(f, wrt=wrt) == gradient.source

    jvp = symdiff.jvp(f, wrt=wrt)
    for k, name in enumerate(names):
        direction = [1.0 if j == k else 0.0 for j in range(len(names))]
        assert jvp(*ORIGIN, *direction) == (0.0, GRADIENT[name])
    row = tuple(GRADIENT[n] for n in names)
    assert symdiff.jacobian(f, wrt=wrt)(*ORIGIN) == (row if single else (row,))
    matrix = tuple(tuple(second(a, b) for b in names) for a in names)
    assert symdiff.hessian(f, wrt=wrt)(*ORIGIN) == (matrix[0][0] if single else matrix)
    vector = [1.0, 2.0, 3.0][:len(names)]
    product = [sum(h * v for h, v in zip(line, vector)) for line in matrix]
    assert symdiff.hvp(f, wrt=wrt)(*ORIGIN, *vector) == bare(product)

    report = symdiff.check(f, AT, wrt=wrt)
    assert report.ok, str(report)
    assert tuple(report.params) == names
    assert tuple(row.param for row in report.rows) == names

    option = cli_wrt(wrt)
    code, out, err = run_cli(folder, monkeypatch, capsys, "check", "subject.py:f", "--at",
                             ",".join(map(str, AT)), *option)
    assert code == 0, err
    rows = out.splitlines()[3:3 + len(names)]
    assert tuple(line[line.index(")") + 1:].split()[0] for line in rows) == names


@pytest.mark.parametrize("wrt, names, single", VALID, ids=[repr(v[0]) for v in VALID])
def test_the_pipeline_takes_wrt_as_an_input_and_returns_its_choice(subject, wrt, names,
                                                                   single):
    """``wrt`` goes into ``pipeline.generate`` as the caller wrote it and comes out
    resolved, beside the text written for it; nothing is called back or set on the
    caller."""
    built = pipeline.generate(pipeline.parse_function(subject[0].f), wrt)
    assert built.wrt == Choice(names, single)
    assert built.source == build(subject[0].f, wrt).source


def test_the_pipeline_narrows_the_default_to_the_active_parameters_when_asked():
    parsed = pipeline.parse_function(unused)
    assert pipeline.generate(parsed).wrt == Choice(("x", "y"), False)
    assert pipeline.generate(parsed, prefer="active").wrt == Choice(("x",), True)
    parsed = pipeline.parse_function(powered)  # n, a bound of range, is an int: left out
    assert pipeline.generate(parsed).wrt == Choice(("x",), True)
    assert pipeline.generate(parsed, ("n",), prefer="active").wrt == Choice(("n",), False)


def _location(error):
    return type(error), error.filename, error.lineno, error.col_offset


@pytest.mark.parametrize("wrt", INVALID, ids=[repr(w) for w in INVALID])
def test_every_entry_point_refuses_a_bad_wrt_at_the_parameters(subject, wrt, monkeypatch,
                                                               capsys):
    module, folder = subject
    f = module.f
    lineno = next(i for i, line in enumerate(SUBJECT.splitlines(), 1) if "def f(" in line)
    at_parameters = (symdiff.SymdiffError, str(folder / "subject.py"), lineno,
                     SUBJECT.splitlines()[lineno - 1].index("x"))
    attempts = {
        "grad": lambda: symdiff.grad(f, wrt=wrt)(*ORIGIN),
        "value_and_grad": lambda: symdiff.value_and_grad(f, wrt=wrt)(*ORIGIN),
        "source": lambda: symdiff.source(f, wrt=wrt),
        "jvp": lambda: symdiff.jvp(f, wrt=wrt),
        "jacobian": lambda: symdiff.jacobian(f, wrt=wrt),
        "hessian": lambda: symdiff.hessian(f, wrt=wrt),
        "hvp": lambda: symdiff.hvp(f, wrt=wrt),
        "check": lambda: symdiff.check(f, AT, wrt=wrt),
    }
    for name, attempt in attempts.items():
        with pytest.raises(symdiff.SymdiffError) as raised:
            attempt()
        assert _location(raised.value) == at_parameters, name
    with pytest.raises(symdiff.SymdiffError):  # the witness refuses too, in its own words
        symdiff.tape.grad(f, wrt=wrt)(*ORIGIN)

    option = cli_wrt(wrt)
    if option is not None:
        for command in ("show", "check", "graph"):
            code, out, err = run_cli(folder, monkeypatch, capsys, command, "subject.py:f",
                                     *option)
            assert code == 2, (command, err)
            assert err.startswith(f"subject.py:{lineno}:{at_parameters[3]}: "), (command, err)


def test_a_container_parameter_is_read_by_every_transform(subject, monkeypatch, capsys):
    module, folder = subject
    weighted = module.weighted
    lineno = next(i for i, line in enumerate(SUBJECT.splitlines(), 1) if "coeffs[0]" in line)
    point = (0.5, (2.0, 3.0))
    # grad and value_and_grad differentiate a container parameter (issue: containers),
    # and so do the forward-mode transforms, built for the kinds of the call's arguments
    assert symdiff.grad(weighted)(*point) == (2.0, (0.5, 1.0))
    assert symdiff.value_and_grad(weighted, wrt=(0, -1))(*point) == (4.0, (2.0, (0.5, 1.0)))
    direction = (1.0, (0.5, 0.25))
    gradient = symdiff.grad(weighted)

    def flat(x, coeffs):
        return [x, *coeffs]

    def moved(step):  # the point moved by ``step`` times the direction
        return (point[0] + step * direction[0],
                tuple(c + step * d for c, d in zip(point[1], direction[1])))

    value, tangent = symdiff.jvp(weighted)(*point, *direction)
    assert value == weighted(*point)
    assert tangent == pytest.approx(sum(g * d for g, d in zip(
        flat(*gradient(*point)), flat(*direction))))
    assert symdiff.jacobian(weighted, wrt="coeffs")(*point) == pytest.approx(
        gradient(*point)[1])
    h = 1e-4  # the gradient is linear here: its central differences are exact to rounding
    along = [(a - b) / (2 * h) for a, b in zip(flat(*gradient(*moved(h))),
                                              flat(*gradient(*moved(-h))))]
    assert flat(*symdiff.hvp(weighted)(*point, *direction)) == pytest.approx(along)
    hessian = symdiff.hessian(weighted)(*point)
    assert hessian[0][1] == pytest.approx(hessian[1][0]) and hessian[0][1][0] == 1.0
    assert symdiff.grad(weighted, wrt="x")(*point) == 2.0
    assert symdiff.check(weighted, point, wrt="x").ok
    report = symdiff.check(weighted, point)  # check's default: what a derivative flows from
    assert report.ok and report.params == ["x", "coeffs"], str(report)
    assert symdiff.check(weighted, point, wrt=("x", "coeffs")).ok

    # without example arguments, show reads it as a table of data, located, with a way out
    code, out, err = run_cli(folder, monkeypatch, capsys, "show", "subject.py:weighted")
    assert code == 2 and err.startswith(f"subject.py:{lineno}:") and "wrt=('x',)" in err


def test_check_leaves_out_the_parameters_no_derivative_flows_from():
    """``check``'s own default: ``grad``'s, less the parameters that cannot change the
    result (a count), which the report names."""
    report = symdiff.check(powered, (1.5, 3))
    assert report.params == ["x"] and report.ok, str(report)
    assert any("no derivative flows from them): n" in note for note in report.notes)
    assert build(powered).wrt_names == ["x"]  # grad leaves out n, typed int (a bound)
    assert build(powered, ("x", "n")).wrt_names == ["x", "n"]  # named, it is taken


def test_the_default_leaves_out_a_parameter_used_as_an_int_whatever_its_value():
    """An index or a bound of ``range`` with no default (its value given at each call)
    is left out of the default, as one defaulting to an int is; named, it is taken."""
    logits = [0.5, 2.0, -1.0]
    got = symdiff.grad(picked)(logits, 1)
    want = symdiff.tape.grad(picked, wrt="logits")(logits, 1)
    assert got == pytest.approx(want, rel=1e-12)
    assert symdiff.grad(picked, wrt=("logits", "label"))(logits, 1)[1] == 0.0
    assert symdiff.grad(powered)(1.5, 3) == pytest.approx(3 * 1.5 ** 2 * 1.0, rel=1e-12)
    assert symdiff.grad(unused)(1.5, 2) == (1.0, 0.0)  # y is a number (not typed int)


def picked(logits, label):
    return -logits[label] + math.log(sum(math.exp(v) for v in logits))


def unused(x, y):
    return x + 0.5 if y > 0 else x + 0.25


def powered(x, n):
    total = 1.0
    for _ in range(n):
        total = total * x
    return total


def test_check_runs_the_pipeline_once(monkeypatch):
    """check reads the program of the gradient it builds: the front end runs once."""
    import symdiff.pipeline as pipeline

    lowered = []
    original = pipeline.lower
    monkeypatch.setattr(pipeline, "lower",
                        lambda parsed, **options: lowered.append(parsed.name)
                        or original(parsed, **options))

    def fresh(x, y):  # a new function: nothing of it is cached
        return x * y + x / y

    assert symdiff.check(fresh, (0.5, 2.0)).ok
    assert lowered == ["fresh"]


def wrongly_ruled(x):
    return x * x


symdiff.defgrad(wrongly_ruled, lambda x, out: 3.0 * x)


def uses_a_wrong_rule(x, y):
    return wrongly_ruled(x) * y


def test_check_leaves_the_gradient_it_reads_unchanged():
    """The locator differentiates the built gradient's program again, instrumented; the
    cached gradient keeps its text."""
    before = symdiff.source(uses_a_wrong_rule)
    report = symdiff.check(uses_a_wrong_rule, (0.5, 2.0))
    assert not report.ok and report.rule_problems
    assert symdiff.source(uses_a_wrong_rule) == before
    assert build(uses_a_wrong_rule).source == before
