"""Every primitive of the derivative table, under every name a user can call it by.

For each record of ``symdiff.primitives.registry`` and each spelling that reaches it
(``math.<name>``, ``np.<name>``, ``special.<name>``, ``norm.<method>`` by position and by
keyword, a builtin, an operator), and for the math functions of numbers written out
(``math.fsum([x, y, z])``, ``math.hypot(x, y, z)``...), a one-line function is written
to a module and differentiated; ``symdiff.check`` then compares the generated gradient
with the tape engine, sympy and finite differences at points drawn from the rule's own
domain.  A primitive with no derivative (a test, an integer function) is checked as the
factor of a parameter ``w``.  A new primitive is checked here the moment it enters the
table; every public name of ``math`` is either reached here or refused with a reason.
"""

import ast
import builtins
import importlib.util
import math
import random

import pytest

import symdiff
from symdiff.errors import SymdiffError
from symdiff.frontend.resolve import MATH_CONSTANTS
from symdiff.primitives import registry, scipy
from symdiff.primitives.registry import RECORDS as RULES
from symdiff.primitives.registry import VARIADIC, names, pairs, rule_of
from symdiff.primitives.texts import template

from oracles import module_from_text

np = pytest.importorskip("numpy")
HAVE_SCIPY = importlib.util.find_spec("scipy") is not None

OPERATORS = {op: record.forward for op, record in RULES.items() if record.operator}  # "x + y"
PARAMS = ("x", "y", "z", "u")
# the functions of numbers written out, at the counts checked
WRITTEN_OUT = {"hypot": ("math.hypot(x, y, z)", 3), "fsum": ("math.fsum([x, y, z])", 3),
               "prod": ("math.prod((x, y, z))", 3), "dist": ("math.dist((x, y), (z, u))", 4),
               "sumprod": ("math.sumprod((x, y), (z, u))", 4)}


def _arity(op):
    return len(rule_of(op).partials)


def _arguments(rule):
    """``x, y`` for the rule's parameters; a keyword-only one as ``rel_tol=z``; one it
    knows no derivative in (``underived``) as ``int(x)``, which carries none."""
    forward = template(rule.forward)
    by_keyword = {k.arg for k in forward.keywords} if isinstance(forward, ast.Call) else set()
    names = [f"int({name})" if param in rule.underived else name
             for param, name in zip(rule.params, PARAMS[:len(rule.partials)])]
    return ", ".join(f"{param}={name}" if param in by_keyword else name
                     for param, name in zip(rule.params, names))


def spellings():
    """(id, op, expression over x, y, z, u) for every way a user reaches every primitive."""
    found = []
    for op, rule in RULES.items():
        args = _arguments(rule)
        if op in OPERATORS:
            found.append((f"operator-{op}", op, OPERATORS[op]))
        for count, other in rule.variants:  # math.log(x, b) is logb, math.perm(n) factorial
            for family, prefix in (("math", "math."), ("builtin", "")):
                for name in (n for n, target in names(family).items() if target == op):
                    written = ", ".join(f"int({a})" if p in rule_of(other).ints else a for p, a in
                                        zip(rule_of(other).params, PARAMS))  # sympy: floats
                    found.append((f"{prefix}{name}-{count}", other, f"{prefix}{name}({written})"))
        for family, prefix in (("math", "math."), ("numpy", "np."), ("builtin", ""),
                               ("scipy", "special.")):
            for name, target in names(family).items():
                if target == op and (prefix != "special." or HAVE_SCIPY):
                    found.append((f"{prefix}{name}", op, f"{prefix}{name}({args})"))
        for method in (m for m, target in names("method").items() if target == op and HAVE_SCIPY):
            found.append((f"norm.{method}", op, f"norm.{method}(x, y, z)"))
            found.append((f"norm.{method}-keywords", op,
                          f"st.norm.{method}({rule.params[0]}=x, scale=z, loc=y)"))
    for name, halves in pairs().items():  # unpacked into two names (math's and the
        prefix = "math." if hasattr(math, name) else "" if hasattr(builtins, name) else None
        if prefix is None:  # builtins': not numpy.linalg.slogdet's, an array record's)
            continue
        args = _arguments(rule_of(halves[0]))
        for i, half in enumerate(halves):
            found.append((f"{prefix}{name}-{i}", half,
                          f"a, b = {prefix}{name}({args}); {'ab'[i]}"))
    for name in VARIADIC:
        expression, count = WRITTEN_OUT[name]
        found.append((expression.partition("(")[0] + "-written-out", f"{name}_{count}",
                      expression))
    return found


SPELLINGS = spellings()


def test_every_primitive_can_be_called():
    reached = {op for _, op, _ in SPELLINGS}
    internal = {op for op, record in RULES.items() if record.internal}
    assert internal == {"copy", "stop_gradient"}  # not called by a name of their own
    unreachable = internal | (set() if HAVE_SCIPY else set(scipy.RECORDS))
    assert set(RULES) - reached == unreachable


def test_every_math_name_is_reached_or_refused():
    """No public name of ``math`` on this Python is left unclassified."""
    for name in (n for n in dir(math) if not n.startswith("_")):
        assert (name in names("math")) + (name in MATH_CONSTANTS) + (
            registry.refused(name) is not None) == 1, name



@pytest.mark.parametrize("name", sorted(registry.refused_names()))
def test_refused_math_function_is_a_located_error(tmp_path, name):
    """``math.gcd(n, 4)`` (or ``from math import gcd``) is refused at the call, naming it."""
    text = (f"import math\nfrom math import {name} as imported\n\n\n"
            f"def attribute(x, n):\n    return x * math.{name}(n)\n\n\n"
            f"def imported_name(x, n):\n    return x * imported(n)\n")
    module = module_from_text(tmp_path, f"refused_{name}", text)
    for fn, line, column in ((module.attribute, 6, 15), (module.imported_name, 10, 15)):
        with pytest.raises(SymdiffError) as caught:
            symdiff.grad(fn)
        assert (caught.value.lineno, caught.value.col_offset) == (line, column)
        assert name in caught.value.message


@pytest.mark.parametrize("name", MATH_CONSTANTS)
def test_math_constants_are_values(tmp_path, name):
    module = module_from_text(tmp_path, f"constant_{name}",
                   f"import math\n\n\ndef f(x):\n    return x * 2.0 + math.{name}\n")
    assert symdiff.grad(module.f)(1.5) == 2.0


def _needs_factor(op):
    return all(p is None for p in rule_of(op).partials)


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    """One module holding a function per spelling, imported from a file."""
    lines = ["import math", "import numpy as np"]
    if HAVE_SCIPY:
        lines += ["from scipy import special", "from scipy.stats import norm",
                  "import scipy.stats as st"]
    lines.append("")
    for i, (_, op, expression) in enumerate(SPELLINGS):
        params = list(PARAMS[:_arity(op)])
        prelude, _, expression = expression.rpartition("; ")  # `a, b = math.frexp(x); a`
        if _needs_factor(op):  # no derivative: checked as the factor of a parameter w
            params, expression = ["w"] + params, f"w * float({expression})"
        body = f"{prelude}; return {expression}" if prelude else f"return {expression}"
        lines += ["", f"def f{i}({', '.join(params)}):", f"    {body}", ""]
    path = tmp_path_factory.mktemp("rules") / "primitive_spellings.py"
    path.write_text("\n".join(lines))
    spec = importlib.util.spec_from_file_location("primitive_spellings", path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def points(op, seed, count=4):
    """Points from the rule's domain; whole numbers for the parameters taking integers."""
    rng = random.Random(seed)
    rule = rule_of(op)
    found = []
    for _ in range(count):
        point = []
        for param, (lo, hi) in zip(rule.params, rule.domain):
            point.append(rng.randint(int(lo), int(hi)) if param in rule.ints else
                         lo + (hi - lo) * (0.05 + 0.9 * rng.random()))
        if _needs_factor(op):
            point.insert(0, 0.5 + rng.random())
        found.append(tuple(point))
    return found


@pytest.mark.parametrize("index", range(len(SPELLINGS)), ids=[s[0] for s in SPELLINGS])
def test_primitive_agrees_with_every_witness(module, index):
    spelling, op, _ = SPELLINGS[index]
    report = symdiff.check(getattr(module, f"f{index}"), *points(op, spelling))
    assert report.ok, str(report)
    assert not any(n.startswith("sympy not used") for n in report.notes), str(report)
