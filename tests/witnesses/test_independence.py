"""The witnesses stay independent: what the modules of ``symdiff.witnesses`` import.

A witness that shared a rule, the IR or a pass with the generator would copy a wrong rule
instead of catching it.  So every module under ``symdiff/witnesses/`` is parsed (nothing
is imported to read it) and each import in it, at module level or inside a function, is
checked: within ``symdiff`` it may name ``symdiff.witnesses`` itself and the modules of
``ALLOWED`` only, each with the reason it is not the generator and the witnesses that may
use it.
"""

import ast
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "symdiff" / "witnesses"

# module -> (why it is not the generator, the part of symdiff.witnesses that may import it)
ALLOWED = {
    "symdiff.errors": ("the error classes every part of symdiff raises; no behaviour",
                       "symdiff.witnesses"),
    "symdiff.markers": ("the user's own statements: stop_gradient (an identity the witnesses "
                        "recognize) and the rules given with defgrad, which the tape applies "
                        "as generated code does; the rules are the user's, not symdiff's",
                        "symdiff.witnesses"),
    "symdiff.frontend.parse": ("reading the user's source: the sympy witness interprets the same "
                      "syntax tree the generator reads (the tape runs the code itself, so a "
                      "misread tree still shows up as a disagreement)",
                      "symdiff.witnesses.symbolic"),
    "symdiff.frontend.wrappers": ("what a call runs: seeing through lru_cache, staticmethod and a "
                         "gradient symdiff returned, so the sympy witness reads the function "
                         "a call of the user's code reaches", "symdiff.witnesses.symbolic"),
}


def _modules():
    return sorted(PACKAGE.rglob("*.py"))


def _dotted(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path, name=None):
    """(line, module) for every import in the file (the module ``name``, by default the
    one at ``path``); ``from symdiff import markers`` names ``symdiff.markers``, and a
    relative import is resolved against the file's package."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = name or _dotted(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found += [(node.lineno, f"{base}.{alias.name}" if base == "symdiff" else base)
                      for alias in node.names]
    return found


def _allowed(module, importer):
    if module == "symdiff.witnesses" or module.startswith("symdiff.witnesses."):
        return True
    reason_and_scope = ALLOWED.get(module)
    if reason_and_scope is None:
        return False
    scope = reason_and_scope[1]
    return importer == scope or importer.startswith(scope + ".")


def test_the_package_has_its_modules():
    names = {_dotted(path) for path in _modules()}
    assert {"symdiff.witnesses.tape.value", "symdiff.witnesses.symbolic.interpreter",
            "symdiff.witnesses.finite", "symdiff.witnesses.deadline"} <= names


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_witness_imports_nothing_of_the_generator(path):
    importer = _dotted(path)
    wrong = [f"{path.name}:{line}: {module}" for line, module in _imported(path)
             if module.partition(".")[0] == "symdiff" and not _allowed(module, importer)]
    assert not wrong, "the witnesses import the generator:\n" + "\n".join(wrong)


def test_every_allowed_module_exists_and_is_used():
    """The list stays true: no entry for a module that is gone, or that nothing imports."""
    used = {module for path in _modules() for _, module in _imported(path)}
    for module in ALLOWED:
        assert (ROOT / (module.replace(".", "/") + ".py")).exists(), module
        assert module in used, f"{module} is allowed but no witness imports it"


def test_the_checker_sees_what_it_must_refuse(tmp_path):
    """The parse above finds imports inside functions and relative ones."""
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from symdiff.frontend import fence\n"
                     "    from .stand_ins import stand_in\n")
    assert _imported(probe, "symdiff.witnesses.tape.probe") == [
        (2, "symdiff.frontend"), (3, "symdiff.witnesses.tape.stand_ins")]
    assert not _allowed("symdiff.rules", "symdiff.witnesses.tape.value")
    assert not _allowed("symdiff.frontend.parse", "symdiff.witnesses.tape.running")
    assert _allowed("symdiff.frontend.parse", "symdiff.witnesses.symbolic.build")


@pytest.mark.parametrize("path", [p for p in _modules() if "symbolic" not in p.parts],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_sympy_witness_imports_sympy_and_nothing_imports_numpy(path):
    """The tape and finite differences run without sympy; numpy and SciPy are the user's
    to import (the tape finds them in ``sys.modules``)."""
    roots = {module.partition(".")[0] for _, module in _imported(path)}
    assert not roots & {"sympy", "mpmath", "numpy", "scipy"}


def test_importing_symdiff_does_not_import_sympy():
    code = ("import sys, symdiff, symdiff.tape; "
            "loaded = [m for m in ('sympy', 'symdiff.witnesses.symbolic') if m in sys.modules]; "
            "assert not loaded, loaded")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)


def test_witness_modules_stay_small():
    long = [f"{path.relative_to(ROOT)}: {n} lines" for path in _modules()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 400]
    assert not long, long
