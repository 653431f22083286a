"""The def-use analysis (``symdiff.analysis.defuse``): one index of a lowered program.

Three parts.  First the index against a second, recursive reading of the same program
written here (positions, blocks, parents, enclosing statements, branches, definitions
and readers), over every function of the control, nested and checks corpora.  Then
small functions whose facts are stated by hand: a loop carrying a value, a branch in a
loop, a ``while`` left early, a return inside a loop (its flags), user stacks, and a
statement moved by ``hoist`` keeping its id.  Last, liveness checked by running: every
name the analysis calls dead on entry to a loop (or on exit from it) is overwritten
with a huge number there, and the function's value, computed by the forward-mode code, must stay
the same bit for bit at seeded points (a dead value is one nothing reads).
"""

import dataclasses
import random

import pytest

import symdiff
from symdiff.ad.forward import differentiate_forward
from symdiff.analysis.defuse import DefUse
from symdiff.backend.compile import compile_module
from symdiff.backend.emit import emit
from symdiff.backend.to_python import to_python
from symdiff.errors import InternalError
from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.pipeline import lower

try:
    from corpus import checks, control, nested
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import checks, control, nested

CASES = [c for module in (control, nested, checks) for c in module.CASES]


def program_of(fn):
    return lower(parse_function(fn))


# --- the index against a recursive reading ---------------------------------------------------

def recursive_facts(program):
    """sid -> (position, enclosing sids, branches, parent sid, index in block), read by
    plain recursion."""
    facts = {}

    def visit(block, around, branches, parent):
        for index, stmt in enumerate(block):
            facts[stmt.sid] = (len(facts), around, branches,
                               None if parent is None else parent.sid, index)
            inner = around + (stmt.sid,)
            if isinstance(stmt, ir.If):
                visit(stmt.body, inner, branches + ((stmt.sid, True),), stmt)
                visit(stmt.orelse, inner, branches + ((stmt.sid, False),), stmt)
            elif isinstance(stmt, ir.While):
                visit(stmt.pre, inner, branches, stmt)
                visit(stmt.body, inner, branches, stmt)
            elif isinstance(stmt, ir.For):
                visit(stmt.body, inner, branches, stmt)

    visit(program.body, (), (), None)
    return facts


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.label)
def test_the_index_agrees_with_a_recursive_reading(case):
    program = program_of(case.fn)
    du = DefUse(program)
    facts = recursive_facts(program)
    assert [s.sid for s in du.statements] == list(facts)
    definitions, readers = {}, {}
    for stmt in du.statements:
        position, around, branches, parent, index = facts[stmt.sid]
        assert du.position(stmt) == position
        assert [s.sid for s in du.enclosing(stmt)] == list(around)
        assert du.branches(stmt) == branches
        assert (None if du.parent(stmt) is None else du.parent(stmt).sid) == parent
        block, at = du.block(stmt)
        assert block[at] is stmt and at == index
        assert [s.sid for s in du.loops(stmt)] == [
            s for s in around if isinstance(du.statement(s), (ir.For, ir.While))]
        for outer in du.statements:
            assert du.encloses(outer, stmt) == (outer.sid in around)
        target = getattr(stmt, "target", None)
        if target is not None:
            definitions.setdefault(target, []).append(stmt.sid)
        for name in ir.reads(stmt):
            readers.setdefault(name, []).append(stmt.sid)
    for name in set(definitions) | set(readers) | set(program.params):
        assert [s.sid for s in du.definitions(name)] == definitions.get(name, [])
        assert [s.sid for s in du.readers(name)] == readers.get(name, [])


def test_a_statement_without_a_distinct_id_is_our_bug():
    program = program_of(carried)
    program.body[1].sid = program.body[0].sid
    with pytest.raises(InternalError):
        DefUse(program)


# --- facts stated by hand -----------------------------------------------------------------------

def carried(x, n):
    s = x
    for i in range(n):
        s = s * x + 1.0
    return s


def only(program, kind):
    found = [s for s in ir.walk(program.body) if isinstance(s, kind)]
    assert len(found) == 1
    return found[0]


def user_names(names):
    """The user's own names among ``names`` (the lowered ones are numbered: ``s_1``)."""
    return sorted(n for n in names if "_" not in n)


def test_a_loop_carries_its_value_and_reads_what_it_never_assigns():
    program = program_of(carried)
    du = DefUse(program)
    loop = only(program, ir.For)
    assert [type(s).__name__ for s in du.definitions(loop.target)] == ["For"]
    assert loop.sid in {s.sid for s in du.readers(loop.bounds[0].name)}
    inside = [s for s in du.statements if du.encloses(loop, s)]
    assert inside and all(du.loops(s) == [loop] for s in inside)
    assert program.result.name in du.live_out(loop) and program.result.name in du.results
    assert "x" in du.live_in(loop) and "n" in du.live_in(loop)
    assert loop.target not in du.live_in(loop) and loop.target not in du.live_out(loop)
    assert "x" not in du.live_out(loop) and "n" not in du.live_out(loop)


def branch_in_loop(x, n):
    s = 0.0
    for i in range(n):
        if s > 1.0:
            t = s * 0.5
        else:
            t = s + x
        s = t
    return s


def test_a_branch_in_a_loop_puts_its_statements_on_two_sides():
    program = program_of(branch_in_loop)
    du = DefUse(program)
    branch, loop = only(program, ir.If), only(program, ir.For)
    body, orelse = branch.body[-1], branch.orelse[-1]
    assert du.branches(body) == ((branch.sid, True),)
    assert du.branches(orelse) == ((branch.sid, False),)
    assert du.enclosing(body) == [loop, branch] and du.parent(body) is branch
    assert du.block_key(body) != du.block_key(orelse)
    assert du.place(body) == (du.position(body), du.branches(body))
    assert user_names(du.live_in(loop)) == ["n", "s", "x"]
    assert branch.test not in du.live_in(loop)  # computed afresh in every iteration
    t_defs = [s for s in du.definitions(body.target)]
    assert body.target == orelse.target and t_defs == [body, orelse]


def left_early(x):
    s = x
    while s < 100.0:
        s = s * 2.0 + 1.0
        if s > 50.0:
            break
        s = s + x
    return s


def test_a_loop_left_early_keeps_alive_what_follows_the_break():
    program = program_of(left_early)
    du = DefUse(program)
    loop = only(program, ir.While)
    exit_ = only(program, ir.BreakIf)
    assert du.loops(exit_) == [loop] and exit_ is loop.body[-1]
    assert program.result.name in du.live_out(loop)
    assert "x" in du.live_in(loop)
    for stmt in loop.pre:  # what the test reads is computed before every check
        assert du.parent(stmt) is loop and du.encloses(loop, stmt)


def returns_inside(x, n):
    s = x
    for i in range(n):
        s = s * x
        if s > 10.0:
            return s
    return s + 1.0


def test_a_return_inside_a_loop_is_a_flag_the_loop_reads():
    program = program_of(returns_inside)
    du = DefUse(program)
    loop = next(s for s in program.body if isinstance(s, (ir.For, ir.While)))
    flags = [n for n in du.live_out(loop) if n not in du.results and du.definitions(n)
             and any(du.encloses(loop, s) for s in du.definitions(n))]
    assert flags, "the loop's early return leaves nothing for the code after it to read"
    assert program.result.name in du.results


def stacks(x, n):
    values = []
    for i in range(n):
        values.append(x * i)
    total = 0.0
    for i in range(n):
        total = total + values.pop()
    return total


def test_a_stack_is_read_by_its_pushes_and_its_pops():
    program = program_of(stacks)
    du = DefUse(program)
    push, pop = only(program, ir.Push), only(program, ir.Pop)
    assert push in du.readers(push.stack) and pop in du.readers(pop.stack)
    assert pop in du.definitions(pop.target)
    assert all(not isinstance(s, ir.Push) for s in du.definitions(push.stack))
    first = next(s for s in program.body if isinstance(s, ir.For))
    assert push.stack in du.live_out(first) and push.stack in du.live_in(first)


def hoistable(x, u):
    s = 0.0
    for _ in range(4):
        s = s * x + u * x
    return s


def test_a_moved_statement_keeps_its_id():
    program = program_of(hoistable)
    moved = [s for s in program.body if s.origin.hoisted]
    assert moved
    du = DefUse(program)
    assert all(du.statement(s.sid) is s and du.parent(s) is None for s in moved)
    assert sorted(s.sid for s in du.statements) == sorted(set(s.sid for s in du.statements))


# --- liveness, by running ------------------------------------------------------------------------

def clobbered(program, du, loop, names, after):
    """``program`` with ``name = 1.2345e300`` for each of ``names`` just before (or after) ``loop``."""
    fresh = max(s.sid for s in du.statements) + 1
    junk = ir.Const(1.2345e300)  # a value no read of it would leave unseen
    stores = [ir.Assign(n, "copy", (junk,), loop.origin, sid=fresh + i)
              for i, n in enumerate(names)]

    def rebuild(block):
        out = []
        for stmt in block:
            if isinstance(stmt, ir.If):
                stmt = dataclasses.replace(stmt, body=rebuild(stmt.body),
                                           orelse=rebuild(stmt.orelse))
            elif isinstance(stmt, ir.While):
                stmt = dataclasses.replace(stmt, pre=rebuild(stmt.pre), body=rebuild(stmt.body))
            elif isinstance(stmt, ir.For):
                stmt = dataclasses.replace(stmt, body=rebuild(stmt.body))
            if stmt.sid == loop.sid:
                out += [stmt] + stores if after else stores + [stmt]
            else:
                out.append(stmt)
        return out

    return dataclasses.replace(program, body=rebuild(program.body))


def value_function(program):
    """The function's value, by its forward-mode code (which runs the statements as
    written, with no reverse sweep to read what the edit overwrote)."""
    generated = to_python(differentiate_forward(program, list(program.params)))
    text = emit(generated)
    jvp = compile_module(text, generated.function.name, program.namespace, "clobbered.py")
    return lambda *point: jvp(*point, *[0.0] * len(point))[0]


LOOPED = [c for c in CASES if any(isinstance(s, (ir.For, ir.While))
                                  for s in ir.walk(program_of(c.fn).body))]


@pytest.mark.parametrize("case", LOOPED, ids=lambda c: c.label)
def test_names_dead_at_a_loop_can_be_overwritten(case):
    program = program_of(case.fn)
    du = DefUse(program)
    rng = random.Random(15)
    points = [tuple(rng.uniform(lo, hi) for lo, hi in case.domain) for _ in range(3)]
    original = value_function(program)
    expected = [original(*p) for p in points]
    for loop in (s for s in du.statements if isinstance(s, (ir.For, ir.While))):
        named = du.assigned() + list(program.params)
        for after, live in ((False, du.live_in(loop)), (True, du.live_out(loop))):
            dead = [n for n in dict.fromkeys(named) if n not in live]
            if not dead:
                continue
            edited = value_function(clobbered(program, du, loop, dead, after))
            got = [edited(*p) for p in points]
            assert [repr(v) for v in got] == [repr(v) for v in expected], (loop.origin, dead)


def test_every_loop_of_the_corpus_is_covered():
    assert len(LOOPED) > 40
    assert symdiff  # the package imports whole
