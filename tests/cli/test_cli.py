"""The command line, run as users run it: ``python -m symdiff ...`` in a directory of files.

Each command line in ``CASES`` runs once, in a fresh directory holding the files it
names; the runs go concurrently (every one pays for importing sympy), and the tests
read their exit status and output: one run per command, the errors users meet first,
and the promise that the file's top-level code runs only with --import.  The other
error paths, the help texts, the colour highlighter and the static loader are tested
in-process through ``cli.main``, which the subprocesses run too.
"""

import ast
import inspect
import io
import math
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from symdiff.cli import arguments, terminal
from symdiff.cli import main as cli
from symdiff.frontend import static
from symdiff.errors import SymdiffError

ROOT = Path(__file__).resolve().parent.parent.parent
MODEL = (ROOT / "examples" / "model.py").read_text()
def line_of(text, source=MODEL):
    """The line number of the line of ``source`` that contains ``text``."""
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


ANSI = re.compile(r"\x1b\[[0-9;]*m")
LOCATED = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): ")

WRONG_RULE = """\
import math
import symdiff


def square(x):
    return x * x


symdiff.defgrad(square, lambda x, out: 3.0 * x)  # wrong: the derivative is 2 * x


def loss(x):
    return square(x) + math.sin(x)
"""

BROKEN = """\
import math

def f(x):
    return math.sin(x) +
"""

UNSUPPORTED = """\
def f(x):
    y = x * x
    with open("log.txt") as log:
        y = y / x
    return y
"""

NEEDS_RUNNING = """\
import math

def load_scale():
    return 3.0

SCALE = load_scale()


def f(x):
    return SCALE * math.sin(x)
"""

RAISES_ON_IMPORT = """\
def f(x):
    return x * x

raise RuntimeError("no import, please")
"""

PRINTS = """\
import math
import os

print("hello from the module")
os.system("echo from a child process")


def f(x):
    return math.sin(x) * x
"""


# The example with top-level code that must not run unless --import is given.
MARKED_MODEL = MODEL + '\nopen("marker.txt", "w").write("the top level ran")\n'

# Run as subprocesses: name -> (files in the working directory, arguments, environment).
CASES = {
    "show": ({"model.py": MARKED_MODEL}, ["show", "model.py:neuron"], {}),
    "check_ok": ({"model.py": MARKED_MODEL}, ["check", "model.py:power", "--at", "1.5,3",
                                              "--at", "0.5,2", "--wrt", "x"], {}),
    "check_fails": ({"wrong.py": WRONG_RULE}, ["check", "wrong.py:loss", "--at", "1.0",
                                               "--import"], {}),
    "graph_dot": ({"model.py": MARKED_MODEL}, ["graph", "model.py:neuron", "--wrt", "w"], {}),
    "graph_no_dot": ({"model.py": MARKED_MODEL}, ["graph", "model.py:neuron", "--format",
                                                  "svg"], {"PATH": os.devnull}),
    "syntax_error": ({"broken.py": BROKEN}, ["show", "broken.py:f"], {}),
    "unsupported": ({"unsupported.py": UNSUPPORTED}, ["graph", "unsupported.py:f"], {}),
    "imported": ({"model.py": MARKED_MODEL}, ["show", "model.py:neuron", "--import"], {}),
    "imported_prints": ({"prints.py": PRINTS}, ["show", "prints.py:f", "--import"], {}),
}
if shutil.which("dot"):
    CASES["graph_svg"] = ({"model.py": MARKED_MODEL}, ["graph", "model.py:power", "--wrt", "x",
                                                       "-o", "power.svg"], {})


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    cwd: Path


def environment(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + os.environ.get("PYTHONPATH", "").split(
        os.pathsep)).rstrip(os.pathsep)
    env.update(extra)
    return env


def write_files(directory, files):
    for name, text in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(text)


def run_case(directory, files, args, extra_env):
    directory.mkdir(parents=True)
    write_files(directory, files)
    done = subprocess.run([sys.executable, "-m", "symdiff", *args], cwd=directory,
                          env=environment(**extra_env), capture_output=True, text=True,
                          timeout=300)
    return Run(done.returncode, done.stdout, done.stderr, directory)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every command line of CASES, run once; concurrently, as each one imports sympy."""
    base = tmp_path_factory.mktemp("cli")
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures = {name: pool.submit(run_case, base / name, *case) for name, case in CASES.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.fixture
def invoke(tmp_path, monkeypatch, capsys):
    """``cli.main`` in this process, in ``tmp_path`` with the given files: a ``Run``."""
    def run(files, *args):
        write_files(tmp_path, files)
        monkeypatch.chdir(tmp_path)
        monkeypatch.setattr(sys, "path", list(sys.path))  # --import adds the file's directory
        for name in files:  # --import registers the module under its file name
            monkeypatch.delitem(sys.modules, Path(name).stem, raising=False)
        code = cli.main(list(args))
        out, err = capsys.readouterr()
        return Run(code, out, err, tmp_path)
    return run


def assert_error(run, filename=None):
    """Exit status 2, no traceback, and a first line that names the place or says `error`."""
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    first = run.stderr.splitlines()[0]
    if filename is None:
        assert first.startswith("symdiff: error: "), first
        return None
    found = LOCATED.match(first)
    assert found and found["file"] == filename, first
    return int(found["line"]), int(found["col"])


# --- show, check, graph ------------------------------------------------------------------

def test_show_prints_the_gradient_module(runs):
    run = runs["show"]
    assert run.returncode == 0, run.stderr
    module = ast.parse(run.stdout)
    assert [f.name for f in module.body if isinstance(f, ast.FunctionDef)] == ["grad_neuron"]
    assert "def grad_neuron(w, b, x):" in run.stdout
    assert not ANSI.search(run.stdout), "piped output must be plain"


def test_show_raw_is_the_code_before_the_optimizer(runs, invoke):
    raw, optimized = invoke({"model.py": MODEL}, "show", "model.py:neuron", "--raw"), runs["show"]
    assert raw.returncode == 0, raw.stderr
    ast.parse(raw.stdout)
    assert raw.stdout != optimized.stdout
    assert len(raw.stdout.splitlines()) > len(optimized.stdout.splitlines())


def test_show_wrt_selects_the_partial(invoke):
    run = invoke({"model.py": MODEL}, "show", "model.py:power", "--wrt", "x")
    assert run.returncode == 0, run.stderr
    function = ast.parse(run.stdout).body[-1]
    assert isinstance(function.body[-1], ast.Return)
    assert isinstance(function.body[-1].value, ast.Name)  # one float, not a tuple


def test_check_ok_exits_0_and_prints_the_table(runs):
    run = runs["check_ok"]
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("check power: ok")
    assert "(1.5, 3)" in run.stdout and "(0.5, 2)" in run.stdout
    assert not ANSI.search(run.stdout)


def test_check_random_points(invoke):
    run = invoke({"model.py": MODEL}, "check", "model.py:neuron", "--points", "2")
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if re.match(r"\(.*\s+ok\s*$", line)]
    assert len(rows) == 2 * 3  # two points, three parameters


def test_check_failure_exits_1(runs):
    run = runs["check_fails"]
    assert run.returncode == 1, run.stderr
    assert "FAILED" in run.stdout.splitlines()[0]


def test_rules_are_read_without_running_the_file(invoke):
    """The reproducer: without --import, check once ignored the file's rules and said ok."""
    run = invoke({"wrong.py": WRONG_RULE}, "check", "wrong.py:loss", "--at", "1.0")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAILED" in run.stdout.splitlines()[0] and "wrong rule" in run.stdout
    assert "the rule given for square is wrong by x" in run.stdout
    imported = invoke({"wrong.py": WRONG_RULE}, "check", "wrong.py:loss", "--at", "1.0",
                      "--import")
    assert imported.stdout.replace(str(imported.cwd) + os.sep, "") == run.stdout


RULES = """\
import math
import symdiff as sd
from symdiff import custom_grad, defgrad


def softplus(x):
    return math.log1p(math.exp(x))


def sigmoid(x, out):
    return 1.0 / (1.0 + math.exp(-x))


sd.defgrad(softplus, sigmoid)


@custom_grad(lambda x, y, out: y * math.cos(x * y), None)
def wave(x, y):
    return math.sin(x * y)


def scaled(x, k=2.0):
    return k * x


scaled = defgrad(scaled, lambda x, k, out: k + 0.0 * math.e, lambda x, k, out: x)


def loss(a, b):
    return softplus(a * b) + wave(a, b) + scaled(a, 2.0)
"""


def test_every_written_form_of_a_rule_is_read(invoke, tmp_path):
    run = invoke({"rules.py": RULES}, "check", "rules.py:loss", "--at", "0.3,0.8",
                 "--at", "-1.2,0.5")
    assert run.returncode == 1, run.stdout + run.stderr  # wave's rule says: nothing in y
    assert [line.split()[-1] for line in run.stdout.splitlines()[3:7:2]] == ["ok", "ok"]
    assert "the rule given for wave is wrong by y" in run.stdout
    module = static.load(str(tmp_path / "rules.py"))
    from symdiff import markers
    assert markers.CUSTOM_RULES[module.function("softplus")] == (module.namespace["sigmoid"],)
    assert markers.CUSTOM_RULES[module.function("wave")][1] is None
    assert module.function("scaled").__name__ == "scaled"
    assert module.rules == [14, 17, 26]


@pytest.mark.parametrize("text, line", [
    ("PARTIALS = [lambda x, out: 2.0 * x]\nsymdiff.defgrad(helper, *PARTIALS)\n", 16),
    ("symdiff.defgrad(helper, make_rule())\n", 15),
    ("symdiff.defgrad(helper, lambda x, out: SCALE * x)\n", 15),
    ("symdiff.defgrad(helper, lambda x, out, k=len('ab'): k * x)\n", 15),
    ("for rule in [lambda x, out: 2.0 * x]:\n    symdiff.defgrad(helper, rule)\n", 15),
], ids=["starred", "a call", "an unknown name", "a default that runs", "in a loop"])
def test_a_rule_that_cannot_be_read_is_a_located_error(invoke, text, line):
    source = ("import symdiff\n\n\ndef helper(x):\n    return x * x\n\n\n"
              "def make_rule():\n    return lambda x, out: 2.0 * x\n\n\n"
              "SCALE = float('2')\n\n\n" + text
              + "\n\ndef loss(x):\n    return helper(x) + 1.0\n\n\ndef other(x):\n"
              "    return 2.0 * x\n")
    files = {"unread.py": source}
    for command in ("check", "show"):
        run = invoke(files, command, "unread.py:loss")
        where = assert_error(run, "unread.py")
        assert "--import" in run.stderr and ("helper" in run.stderr or "for rule" in text)
        call = source.splitlines().index("    return helper(x) + 1.0") + 1
        assert where[0] == line or where[0] == call and f"line {line}" in run.stderr
    if "for rule" not in text:  # a rule for a known function: the others are fine
        assert invoke(files, "check", "unread.py:other", "--at", "1.0").returncode == 0
    assert invoke(files, "check", "unread.py:loss", "--at", "1.0", "--import").returncode == 0


def test_negative_numbers_after_at_and_wrt(invoke):
    run = invoke({"model.py": MODEL}, "check", "model.py:power", "--at", "-2,3", "--at",
                 "-0.5,2", "--wrt", "-2")
    assert run.returncode == 0, run.stderr
    assert "(-2, 3)" in run.stdout and "(-0.5, 2)" in run.stdout
    assert arguments.attach_values(["--at", "-2,3", "--wrt", "-1", "--at", "1"]) == [
        "--at=-2,3", "--wrt=-1", "--at", "1"]
    assert arguments.attach_values(["--at", "-inf,nan"]) == ["--at=-inf,nan"]


DEFAULTS = """\
import math


def f(x, y=2.0, n=3):
    total = 0.0
    for i in range(n):
        total = total + x ** y + math.sin(x * i)
    return total
"""


def test_at_takes_the_defaults_of_the_parameters_left_out(invoke):
    run = invoke({"defaults.py": DEFAULTS}, "check", "defaults.py:f", "--at", "1.5",
                 "--at", "0.5,3.0", "--wrt", "x,y")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "(1.5, 2, 3)" in run.stdout and "(0.5, 3, 3)" in run.stdout
    wrong = invoke({"defaults.py": DEFAULTS}, "check", "defaults.py:f", "--at", "1,2,3,4")
    assert_error(wrong)
    assert "1 to 3 parameters" in wrong.stderr


def test_show_import_keeps_the_module_output_off_stdout(runs):
    run = runs["imported_prints"]
    assert run.returncode == 0, run.stderr
    ast.parse(run.stdout)
    assert run.stdout.startswith("import math") and "hello" not in run.stdout
    assert "hello from the module" in run.stderr and "from a child process" in run.stderr


def test_the_sympy_budget_is_an_option(invoke):
    run = invoke({"model.py": MODEL}, "check", "model.py:neuron", "--points", "1",
                 "--sympy-timeout", "0.000001")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "timed out" in run.stdout
    full = invoke({"model.py": MODEL}, "check", "model.py:neuron", "--points", "1",
                  "--sympy-timeout", "0")
    assert full.returncode == 0 and "timed out" not in full.stdout
    with pytest.raises(SystemExit):
        cli.main(["check", "model.py:neuron", "--sympy-timeout", "soon"])


def test_check_import_keeps_the_module_output_off_stdout(invoke):
    run = invoke({"prints.py": PRINTS}, "check", "prints.py:f", "--at", "0.5", "--import")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("check f: ok") and "hello" in run.stderr


def test_graph_dot_labels_operations_lines_and_adjoints(runs):
    run = runs["graph_dot"]
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("digraph")
    labels = re.findall(r'label="([^"]*)"', run.stdout)
    assert f"z = add (line {line_of('z = w * x + b')})" in labels
    assert f"tanh_a = tanh (line {line_of('a = math.tanh(z)')})" in labels
    adjoints = re.findall(r'a\d+ \[label="(d\w+) \(lines? [\d, ]+\)", style=dashed', run.stdout)
    assert "dw" in adjoints and "dz" in adjoints
    assert "db" not in adjoints and "dx" not in adjoints  # --wrt w: b and x are not active


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graph_svg_is_rendered_by_graphviz(runs):
    run = runs["graph_svg"]
    assert run.returncode == 0, run.stderr
    svg = (run.cwd / "power.svg").read_text()
    assert "<svg" in svg and f"mul_result = mul (line {line_of('result * x')})" in svg


def test_graph_without_graphviz_says_how_to_install_it(runs):
    run = runs["graph_no_dot"]
    assert_error(run)
    assert len(run.stderr.splitlines()) == 1
    assert "graphviz" in run.stderr.lower() and "apt-get install graphviz" in run.stderr
    assert run.stdout == ""


# --- errors ------------------------------------------------------------------------------

def test_a_missing_file(invoke):
    run = invoke({}, "show", "missing.py:f")
    assert_error(run)
    assert "missing.py" in run.stderr


def test_a_directory(invoke):
    assert_error(invoke({"pkg/__init__.py": ""}, "show", "pkg:f"))


def test_a_missing_function_name_lists_the_functions(invoke):
    run = invoke({"model.py": MODEL}, "show", "model.py")
    assert_error(run)
    assert "FILE.py:FUNC" in run.stderr and "neuron, power" in run.stderr


def test_a_function_not_in_the_file(invoke):
    run = invoke({"model.py": MODEL}, "check", "model.py:nothing")
    assert_error(run)
    assert "nothing" in run.stderr and "neuron" in run.stderr


def test_a_syntax_error_in_the_file_is_located(runs):
    run = runs["syntax_error"]
    line, _ = assert_error(run, "broken.py")
    assert line == 4
    assert run.stderr.splitlines()[1].strip() == "return math.sin(x) +"
    assert run.stderr.splitlines()[2].strip() == "^"


def test_an_unsupported_construct_is_located_with_a_caret(runs):
    run = runs["unsupported"]
    line, col = assert_error(run, "unsupported.py")
    assert (line, col) == (3, 4)
    source, caret = run.stderr.splitlines()[1:3]
    assert source.strip() == 'with open("log.txt") as log:'
    assert caret.index("^") == source.index("with")


def test_debug_shows_the_traceback(invoke):
    run = invoke({"unsupported.py": UNSUPPORTED}, "show", "unsupported.py:f", "--debug")
    assert run.returncode == 2
    assert "Traceback" in run.stderr and "UnsupportedSyntaxError" in run.stderr


def test_a_name_only_running_the_module_defines_suggests_import(invoke):
    run = invoke({"needs.py": NEEDS_RUNNING}, "show", "needs.py:f")
    line, _ = assert_error(run, "needs.py")
    assert line == 10  # where f reads SCALE
    assert "SCALE" in run.stderr and "--import" in run.stderr
    imported = invoke({"needs.py": NEEDS_RUNNING}, "show", "needs.py:f", "--import")
    assert imported.returncode == 0, imported.stderr
    assert "def grad_f(x):" in imported.stdout


def test_an_exception_while_importing_is_reported(invoke):
    run = invoke({"raises.py": RAISES_ON_IMPORT}, "show", "raises.py:f", "--import")
    line, _ = assert_error(run, "raises.py")
    assert line == 4 and "RuntimeError" in run.stderr


# --- the file is read, not run -----------------------------------------------------------

@pytest.mark.parametrize("case", ["show", "check_ok", "graph_dot", "graph_svg"])
def test_the_file_is_not_run_by_default(runs, case):
    if case not in runs:
        pytest.skip("Graphviz's dot is not installed")
    run = runs[case]
    assert run.returncode == 0, run.stderr
    assert not (run.cwd / "marker.txt").exists()


def test_import_runs_the_file(runs):
    run = runs["imported"]
    assert run.returncode == 0, run.stderr
    assert (run.cwd / "marker.txt").read_text() == "the top level ran"
    assert run.stdout == runs["show"].stdout


# --- colours -----------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_terminal_gets_colours(tmp_path):
    (tmp_path / "model.py").write_text(MODEL)
    leader, follower = os.openpty()
    process = subprocess.Popen([sys.executable, "-m", "symdiff", "show", "model.py:neuron"],
                               cwd=tmp_path, env=environment(TERM="xterm"), stdout=follower,
                               stderr=subprocess.PIPE)
    os.close(follower)
    output = b""
    with os.fdopen(leader, "rb", buffering=0) as terminal:
        try:
            while chunk := terminal.read(4096):
                output += chunk
        except OSError:  # EIO: the command has exited and closed the terminal
            pass
    assert process.wait(timeout=120) == 0, process.stderr.read()
    process.stderr.close()
    text = output.decode().replace("\r\n", "\n")
    assert ANSI.search(text)
    assert "def grad_neuron(w, b, x):" in ANSI.sub("", text)


def test_highlight_only_adds_colour_codes():
    text = inspect.getsource(terminal)
    coloured = terminal.highlight(text)
    assert coloured != text and ANSI.sub("", coloured) == text
    assert terminal.COLORS["keyword"] + "def" + terminal.RESET in terminal.highlight("def f(x):\n    return x\n")


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_no_color_and_pipes_turn_colour_off(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert terminal.use_color(FakeTerminal())
    assert not terminal.use_color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal.use_color(FakeTerminal())


# --- help and arguments, in-process ------------------------------------------------------

@pytest.mark.parametrize("command", [[], ["show"], ["check"], ["graph"]])
def test_help_shows_an_example(command, capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(command + ["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "symdiff " + (command[0] if command else "show") in out


def test_no_command_prints_help_and_exits_2(capsys):
    assert cli.main([]) == 2
    assert "usage:" in capsys.readouterr().err


def test_a_point_of_the_wrong_length(tmp_path, capsys, monkeypatch):
    (tmp_path / "model.py").write_text(MODEL)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "model.py:neuron", "--at", "1.0,2.0"]) == 2
    assert "3 parameters" in capsys.readouterr().err


def test_a_bad_wrt_is_an_error(tmp_path, capsys, monkeypatch):
    (tmp_path / "model.py").write_text(MODEL)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["show", "model.py:neuron", "--wrt", "q"]) == 2
    assert capsys.readouterr().err.startswith("model.py:20:11: ")  # at the parameters
    assert cli.main(["show", "model.py:neuron", "--wrt", "0,2"]) == 0
    assert "return dw, dx" in capsys.readouterr().out


def test_points_and_wrt_parse():
    assert arguments.point("1.5,3,-2") == (1.5, 3, -2)
    assert isinstance(arguments.point("3")[0], int) and isinstance(arguments.point("3.0")[0], float)
    assert arguments.parse_wrt("x") == "x" and arguments.parse_wrt("x, 1") == ("x", 1)


# --- the static loader -------------------------------------------------------------------

def load(tmp_path, text):
    path = tmp_path / "module.py"
    path.write_text(text)
    return static.load(str(path))


def test_static_constants_and_imports(tmp_path):
    module = load(tmp_path, """\
import math as m
import numpy as np
from math import sin, cos as c
import os
A = 2
B = -A * 3 + m.pi
C, D = 1.5, (2, 3)
E: float = 0.5
E += 1
HUGE = 10 ** 10 ** 10
F = os.getcwd()
""")
    ns = module.namespace
    assert ns["m"].__name__ == "math" and ns["np"].__name__ == "numpy"
    assert ns["sin"] is ns["m"].sin and ns["c"] is ns["m"].cos
    assert ns["B"] == -6 + ns["m"].pi and (ns["C"], ns["D"], ns["E"]) == (1.5, (2, 3), 1.5)
    for name in ("os", "HUGE", "F"):  # another module, a power too large, a call
        assert name not in ns
    assert module.skipped["F"] == 11


def test_static_names_rebound_by_code_that_does_not_run_are_forgotten(tmp_path):
    module = load(tmp_path, """\
SCALE = 1.0
RATE = 0.1
for step in range(3):
    SCALE = SCALE * 2

def reset():
    global RATE
    RATE = 0.5
""")
    assert "SCALE" not in module.namespace and module.skipped["SCALE"] == 3
    assert "step" not in module.namespace
    assert "RATE" not in module.namespace and module.skipped["RATE"] == 7


def test_static_functions_are_defined_alone(tmp_path):
    module = load(tmp_path, """\
import math


@functools.lru_cache(maxsize=None)
def f(x: UndefinedType, k=2.0) -> AlsoUndefined:
    return k * math.sin(x)


def g(x, k=len("ab")):
    return x * k
""")
    f = module.function("f")
    assert f(0.0) == 0.0 and f.__defaults__ == (2.0,)
    assert f.__code__.co_filename == module.path and f.__code__.co_firstlineno == 5
    assert "def f(x: UndefinedType, k=2.0)" in inspect.getsource(f)
    with pytest.raises(SymdiffError) as raised:
        module.function("g")
    assert raised.value.lineno == 9 and "--import" in str(raised.value)
    with pytest.raises(SymdiffError):
        module.function("h")


DECORATED = """\
import functools
import math
import symdiff


def doubling(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return 2.0 * fn(*args)
    return wrapper


@doubling
def f(x):
    return x * x


@functools.cache
def g(x):
    return math.sin(x)


@symdiff.grad
def h(x):
    return g(x) * x
"""


def test_static_decorators_that_may_change_the_function_are_refused(tmp_path, invoke):
    """The undecorated f (x * x) once stood for the decorated one (2 * x * x)."""
    module = load(tmp_path, DECORATED)
    with pytest.raises(SymdiffError) as raised:
        module.function("f")
    assert raised.value.lineno == 14 and "@doubling" in str(raised.value)
    assert "--import" in str(raised.value)
    assert module.function("g")(0.0) == 0.0 and module.function("h")(2.0) == 2 * math.sin(2.0)
    run = invoke({"decorated.py": DECORATED}, "show", "decorated.py:f")
    assert assert_error(run, "decorated.py")[0] == 14
    assert invoke({"decorated.py": DECORATED}, "check", "decorated.py:h", "--at",
                  "0.5").returncode == 0


def test_static_syntax_error_is_located(tmp_path):
    with pytest.raises(SymdiffError) as raised:
        load(tmp_path, "def f(x):\n    return (x\n")
    assert raised.value.filename.endswith("module.py") and raised.value.lineno == 2


LAMBDAS = """\
import math

square = lambda t: t * t
wave = lambda x, y: square(math.sin(x)) * y
scaled = lambda x, k=len("ab"): k * x
"""


def test_show_and_check_a_lambda_bound_to_a_name(invoke):
    shown = invoke({"lambdas.py": LAMBDAS}, "show", "lambdas.py:wave")
    assert shown.returncode == 0, shown.stderr
    assert "def grad_wave(x, y):" in shown.stdout
    assert "# line 3 (in square): square = lambda t: t * t" in shown.stdout
    checked = invoke({"lambdas.py": LAMBDAS}, "check", "lambdas.py:wave", "--at", "0.3,1.7")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "check wave: ok" in checked.stdout


def test_static_lambdas_are_functions_too(tmp_path):
    module = load(tmp_path, LAMBDAS)
    assert module.function_names() == ["square", "wave", "scaled"]
    assert module.function("square")(3.0) == 9.0
    assert module.function("wave").__code__.co_firstlineno == 4
    with pytest.raises(SymdiffError) as raised:  # its default would have to run
        module.function("scaled")
    assert raised.value.lineno == 5 and "--import" in str(raised.value)


STAR_ARGS = """\
import math


def f(x, *rest):
    return x * rest[0] + math.sin(rest[1])
"""


def test_show_at_a_point_gives_star_args_the_values_past_the_named_ones(invoke):
    run = invoke({"star.py": STAR_ARGS}, "show", "star.py:f", "--at", "1.0,2.0,3.0")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "def grad_f(x, *rest):" in run.stdout and "tuple(drest)" in run.stdout
    short = invoke({"star.py": STAR_ARGS}, "show", "star.py:f", "--at", "1.0")  # rest = ()
    assert short.returncode != 0 and "out of range" in short.stdout + short.stderr
