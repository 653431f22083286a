"""The divergence locator names the statement whose chain-rule term differs, found by
its id: hoisting moves statements out of loops, so their place in the program is not
their id."""

import inspect

from symdiff.api import build
from symdiff.checking.locate import locate
from symdiff.ir import nodes as ir
from symdiff.primitives import rules


def shifted(x, y):
    total = 0.0
    for _ in range(3):
        shift = x - y  # hoisted: bound before the loop, never changed in it
        total = total + shift * x
    return total


def test_a_wrong_rule_of_a_hoisted_statement_is_located_at_its_line(monkeypatch):
    right = rules.RULES["sub"]
    monkeypatch.setitem(rules.RULES, "sub", rules.Rule(right.forward, ("1.0", "1.0"),
                                                       right.domain))
    program = build(shifted).program
    order = [s.sid for s in ir.walk(program.body)]
    assert order != sorted(order)  # the hoisted statement stands before the loop
    found = locate(program, ["x", "y"], (0.5, 2.0))
    lines, first = inspect.getsourcelines(shifted)
    expected = first + next(i for i, line in enumerate(lines) if "shift = x - y" in line)
    assert (found.lineno, found.argument) == (expected, "y")
    assert found.text.startswith("shift = x - y")
