"""Statement ids: given once the program is lowered, unique, kept by hoist."""

import math

from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.lower.hoist import hoist_invariants
from symdiff.lower.normalize import normalize
from symdiff.pipeline import lower


def f(x, u, n):
    h = 0.0
    for _ in range(100):
        h = math.tanh(h * x + u * x)
    while h < 10.0:
        h = h * 2.0 + 1.0
        if h > n:
            break
    return h


def test_ids_are_unique_and_in_source_order_after_lowering():
    program = lower(parse_function(f))
    sids = [s.sid for s in ir.walk(program.body)]
    assert None not in sids and len(set(sids)) == len(sids)


def test_hoist_keeps_the_ids_of_the_statements_it_keeps_and_moves():
    lowered = ir.number_statements(normalize(parse_function(f)))
    before = {s.sid: s for s in ir.walk(lowered.body)}
    after = hoist_invariants(lowered)
    moved = [s for s in ir.walk(after.body) if getattr(s, "origin").hoisted]
    assert moved  # ``u * x`` leaves the loop
    for stmt in ir.walk(after.body):
        original = before[stmt.sid]
        assert type(stmt) is type(original)
        assert getattr(stmt, "target", None) == getattr(original, "target", None)
    assert sorted(s.sid for s in ir.walk(after.body)) == sorted(before)


def test_numbering_gives_ids_only_where_missing():
    program = lower(parse_function(f))
    first = [s.sid for s in ir.walk(program.body)]
    program.body[0].sid = None
    ir.number_statements(program)
    assert [s.sid for s in ir.walk(program.body)][1:] == first[1:]
    assert program.body[0].sid == max(first) + 1
