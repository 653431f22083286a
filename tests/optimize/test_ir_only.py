"""The optimizer reads and writes the sweeps as IR, and the IR is checked around it.

No module of ``symdiff/optimize`` imports ``ast`` (the passes read statements and
expressions of ``ir.sweeps`` and ``core.expr``, never Python syntax); the pipeline runs
``optimize`` before ``to_python``; with ``SYMDIFF_CHECK_IR=1`` (``tests/conftest.py``)
``check_sweeps`` runs after ``differentiate`` and after ``optimize``, so a pass that
breaks the sweeps fails as an ``InternalError`` naming it.
"""

import ast
import dataclasses
import math
import pathlib

import pytest

import symdiff
from symdiff import pipeline
from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw

OPTIMIZE = pathlib.Path(symdiff.__file__).parent / "optimize"


@pytest.mark.parametrize("path", sorted(OPTIMIZE.glob("*.py")), ids=lambda p: p.name)
def test_no_pass_imports_python_syntax(path):
    tree = ast.parse(path.read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "ast" not in imported and "symdiff.ir.syntax" not in imported, imported


def test_optimize_runs_on_the_ir_before_to_python():
    stages = list(pipeline.STAGES)
    assert stages.index("differentiate") < stages.index("optimize") < stages.index(
        "to_python") < stages.index("emit")
    seen = {}

    def f(x):
        return math.sin(x) * x

    pipeline.generate(pipeline.parse_function(f),
                      debug=lambda stage, value: seen.setdefault(stage, value))
    assert isinstance(seen["optimize"], sw.Function)
    assert isinstance(seen["to_python"], ast.FunctionDef)


def _broken(generated):
    """``generated`` with an accumulation into a name that is no adjoint, read unset."""
    function = dataclasses.replace(generated.function, body=[
        sw.AddTo("nowhere", ex.Const(1.0))] + list(generated.function.body))
    return dataclasses.replace(generated, function=function)


def test_check_sweeps_names_the_optimizer_when_it_breaks_the_sweeps(monkeypatch):
    monkeypatch.setattr(pipeline, "optimize_function", _broken)

    def g(x, y):
        return x * y

    with pytest.raises(symdiff.InternalError) as raised:
        symdiff.source(g)
    assert raised.value.pass_name == "optimize"


def test_check_sweeps_passes_on_what_differentiate_writes_with_loops_and_stacks():
    def power(x, n):
        result = 1.0
        for i in range(n):
            result = result * x
        return result

    assert "pop()" in symdiff.source(power, wrt="x")
    assert "pop()" in symdiff.source(power, wrt="x", optimize=False)
