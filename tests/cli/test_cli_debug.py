"""``--debug``: every pipeline stage's result on stderr, stdout unchanged."""

from symdiff.cli import main as cli
from symdiff.pipeline import STAGES

MODEL = """\
import math


def f(x, y):
    z = x * y
    return z + math.sin(x)
"""


def test_debug_shows_each_stage_and_leaves_stdout_alone(tmp_path, monkeypatch, capsys):
    (tmp_path / "model.py").write_text(MODEL)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["show", "model.py:f"]) == 0
    plain = capsys.readouterr().out
    assert cli.main(["show", "model.py:f", "--debug"]) == 0
    out, err = capsys.readouterr()
    assert out == plain
    headers = [line[len("# --- after "):-len(" ---")] for line in err.splitlines()
               if line.startswith("# --- after ")]
    assert headers == [stage for stage in STAGES if stage != "compile"]
    emitted = err.split("# --- after emit ---\n", 1)[1]
    assert emitted.rstrip("\n") == plain.rstrip("\n")
    optimized = err.split("# --- after optimize ---\n", 1)[1].split("# --- after emit")[0]
    assert "def grad_f(x, y):" in optimized and "# line 6: return z + math.sin(x)" in optimized


def test_debug_shows_the_stages_of_the_gradient_check_and_graph_use(tmp_path, monkeypatch,
                                                                    capsys):
    (tmp_path / "model.py").write_text(MODEL)
    monkeypatch.chdir(tmp_path)
    for command in (["check", "model.py:f", "--at", "0.5,2.0"], ["graph", "model.py:f"]):
        assert cli.main(command + ["--debug"]) == 0
        out, err = capsys.readouterr()
        assert "# --- after lower ---\ndef f(x: float, y: float):\n" in err
        assert "# --- after emit ---" in err and "# --- after" not in out
