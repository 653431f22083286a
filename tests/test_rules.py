"""Every primitive of the derivative table, under every name a user can call it by.

For each entry of ``symdiff.rules.RULES`` and each spelling that reaches it
(``math.<name>``, ``np.<name>``, a builtin, an operator), a one-line function is written
to a module and differentiated; ``symdiff.check`` then compares the generated gradient
with the tape engine, sympy and finite differences at points drawn from the rule's own
domain.  A new primitive is checked here the moment it enters the table.
"""

import random

import pytest

import symdiff
from symdiff.rules import BUILTIN_FUNCTIONS, MATH_FUNCTIONS, NUMPY_FUNCTIONS, RULES

np = pytest.importorskip("numpy")

OPERATORS = {"add": "x + y", "sub": "x - y", "mul": "x * y", "div": "x / y", "pow": "x ** y",
             "floordiv": "x // y", "mod": "x % y", "neg": "-x", "pos": "+x"}
INTERNAL = ("copy", "stop_gradient")  # not called by a name of their own
PARAMS = ("x", "y", "z")


def spellings():
    """(id, op, expression over x, y, z) for every way a user reaches every primitive."""
    found = []
    for op, rule in RULES.items():
        args = ", ".join(PARAMS[:len(rule.partials)])
        if op in OPERATORS:
            found.append((f"operator-{op}", op, OPERATORS[op]))
        if op == "logb":
            found.append(("math.log-base", op, "math.log(x, y)"))
        if op == "roundn":
            found.append(("round-digits", op, "round(x, int(y))"))
        for table, prefix in ((MATH_FUNCTIONS, "math."), (NUMPY_FUNCTIONS, "np."),
                              (BUILTIN_FUNCTIONS, "")):
            for name, target in table.items():
                if target == op:
                    found.append((f"{prefix}{name}", op, f"{prefix}{name}({args})"))
    return found


SPELLINGS = spellings()


def test_every_primitive_can_be_called():
    reached = {op for _, op, _ in SPELLINGS}
    assert set(RULES) - reached == set(INTERNAL)


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    """One module holding a function per spelling, imported from a file."""
    lines = ["import math", "import numpy as np", ""]
    for i, (_, op, expression) in enumerate(SPELLINGS):
        params = ", ".join(PARAMS[:len(RULES[op].partials)])
        lines += ["", f"def f{i}({params}):", f"    return {expression}", ""]
    path = tmp_path_factory.mktemp("rules") / "primitive_spellings.py"
    path.write_text("\n".join(lines))
    import importlib.util
    spec = importlib.util.spec_from_file_location("primitive_spellings", path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


@pytest.mark.parametrize("index", range(len(SPELLINGS)), ids=[s[0] for s in SPELLINGS])
def test_primitive_agrees_with_every_witness(module, index):
    spelling, op, _ = SPELLINGS[index]
    rng = random.Random(spelling)
    domain = RULES[op].domain
    points = [tuple(lo + (hi - lo) * (0.05 + 0.9 * rng.random()) for lo, hi in domain)
              for _ in range(4)]
    report = symdiff.check(getattr(module, f"f{index}"), *points)
    assert report.ok, str(report)
