"""The IR printer: one line per statement, ids and types shown; ``show --debug``
prints it after each stage."""

import math
import subprocess
import sys
import textwrap
from pathlib import Path

from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.ir.printer import program_text, statement_text
from symdiff.pipeline import lower

ROOT = Path(__file__).resolve().parents[2]


def f(x, n):
    total = 0.0
    for i in range(n):
        total = total + math.sin(x * i)
        if total > 5.0:
            break
    assert total < 100.0, f"{total} is too large"
    return total


def test_one_line_per_statement_with_its_id_and_types():
    program = lower(parse_function(f))
    text = program_text(program)
    lines = text.splitlines()
    assert lines[0] == "def f(x: float, n: int):"
    assert lines[-1] == "  return total"
    statements = list(ir.walk(program.body))
    body = [line for line in lines[1:-1] if line.strip().startswith("#")]
    assert len(body) == len(statements)
    for line, stmt in zip(body, statements):
        assert line.split()[0] == f"#{stmt.sid}"
        assert statement_text(stmt, program).split(" ", 1)[1] in line
    assert "  #2  for i: int in range(n):" in lines
    assert any(line.endswith("sin_total: float = sin(mul_total)  [math]") for line in lines)
    assert any("break if stop" in line for line in lines)
    assert any(line.endswith("assert total < 100.0, f'{total} is too large'") for line in lines)


def test_show_debug_prints_the_ir_after_each_stage(tmp_path):
    source = tmp_path / "module.py"
    source.write_text(textwrap.dedent('''
        import math

        def f(x, n):
            s = 0.0
            for i in range(n):
                s = s + math.sin(x * i)
            return s
    '''))
    done = subprocess.run([sys.executable, "-m", "symdiff", "show", f"{source}:f", "--wrt", "x",
                           "--debug"], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    for stage in ("parse", "fence", "lower", "hoist", "differentiate", "optimize", "emit"):
        assert f"# --- after {stage} ---" in done.stderr
    after_lower = done.stderr.split("# --- after lower ---\n")[1].split("# ---")[0]
    assert after_lower.startswith("def f(x: float, n: int):\n  #0 s: float = copy(0.0)\n")
    assert "def grad_f(x, n):" in done.stdout
