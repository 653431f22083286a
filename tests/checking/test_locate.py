"""The divergence locator names the statement whose chain-rule term differs, found by
its id: hoisting moves statements out of loops, so their place in the program is not
their id."""

import dataclasses
import inspect
import math

import symdiff
from symdiff.api import build
from symdiff.checking.locate import locate
from symdiff.ir import nodes as ir
from symdiff.primitives import registry
from symdiff.specialized import container_kinds


def shifted(x, y):
    total = 0.0
    for _ in range(3):
        shift = x - y  # hoisted: bound before the loop, never changed in it
        total = total + shift * x
    return total


def test_a_wrong_rule_of_a_hoisted_statement_is_located_at_its_line(monkeypatch):
    right = registry.rule_of("sub")
    monkeypatch.setitem(registry._RECORDS, "sub", dataclasses.replace(right, partials=("1.0", "1.0")))
    program = build(shifted).program
    order = [s.sid for s in ir.walk(program.body)]
    assert order != sorted(order)  # the hoisted statement stands before the loop
    found = locate(program, ["x", "y"], (0.5, 2.0))
    lines, first = inspect.getsourcelines(shifted)
    expected = first + next(i for i, line in enumerate(lines) if "shift = x - y" in line)
    assert (found.lineno, found.argument) == (expected, "y")
    assert found.text.startswith("shift = x - y")


def layered(params, xs):
    total = 0.0
    for i in range(len(xs)):
        w, b = params[i]
        h = xs[i] - b  # <the wrong rule>
        total = total + w * h
    ys = xs + [total]
    return sum(ys) + max(ys) * ys[-1]


def _line_of(fn, marker):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if marker in line)


def test_a_wrong_rule_in_a_container_function_is_located_at_its_line(monkeypatch):
    right = registry.rule_of("sub")
    monkeypatch.setitem(registry._RECORDS, "sub", dataclasses.replace(right, partials=("1.0", "1.0")))
    point = ([(0.5, 0.2), (1.5, -0.3)], [0.7, 1.1])
    program = build(layered, kinds=container_kinds(layered, point)).program
    assert any(isinstance(s, (ir.Item, ir.Join, ir.Reduce)) for s in ir.walk(program.body))
    found = locate(program, ["params", "xs"], point)
    assert (found.lineno, found.argument) == (_line_of(layered, "<the wrong rule>"), "b")
    assert found.text.startswith("h = xs[i] - b")
    monkeypatch.setitem(registry._RECORDS, "sub", right)
    # a program spells each rule once (``Program.rule_of``): the same program, read afresh
    afresh = dataclasses.replace(program)
    assert locate(afresh, ["params", "xs"], point) is None  # the right rule: nothing differs


def shrunk(u, v):
    return u * math.exp(-v)


symdiff.defgrad(shrunk, lambda u, v, out: math.exp(-v), lambda u, v, out: out)  # wrong: -out


def shrunk_rows(rows, scale):
    out = []
    for row in rows:
        out.append(shrunk(row["x"], scale * row["y"]))  # <the wrong call>
    return sum(out) * out[0]


def test_check_names_the_line_of_a_wrong_rule_in_a_container_function():
    point = ([{"x": 0.5, "y": 1.2}, {"x": -0.7, "y": 0.4}], 1.3)
    report = symdiff.check(shrunk_rows, point)
    assert not report.ok
    assert [(p.function, p.argument) for p in report.rule_problems] == [("shrunk", "v")]
    assert report.divergences, str(report)
    assert {d.lineno for d in report.divergences} == {_line_of(shrunk_rows, "<the wrong call>")}


def fsum_of_logs(xs, c):
    terms = [math.log(x + c) for x in xs]  # <the wrong log>
    return math.fsum(terms) * math.prod(terms)


def test_the_locator_runs_a_reduction_of_values_on_the_tape(monkeypatch):
    right = registry.rule_of("log")
    monkeypatch.setitem(registry._RECORDS, "log", dataclasses.replace(right, partials=("x",)))
    point = ([0.5, 1.5, 2.5], 1.2)
    program = build(fsum_of_logs, kinds=container_kinds(fsum_of_logs, point)).program
    assert {s.op for s in ir.walk(program.body) if isinstance(s, ir.Reduce)} >= {"fsum", "prod"}
    found = locate(program, ["xs", "c"], point)
    assert found.lineno == _line_of(fsum_of_logs, "<the wrong log>")
