"""The records' derivative builders, and the IR-level helpers AD writes with.

A builder of an elementwise record computes ``g`` times its partial (checked by running
both on the record's domain); two builders of one variable merge into one term; what a
builder reads is found by building it on placeholders; the container records' builders
give the sparse values reverse mode adds and the tangents forward mode reads.  The
breadth-first name orders of ``core.rewrite`` and ``ad.adjoints`` are the ones
``ast.walk`` gives on the Python the IR stands for (the order AD saves values in).
"""

import ast
import math

import pytest

import test_registry
from symdiff.ad.adjoints import python_names
from symdiff.ad.reverse import differentiate
from symdiff.backend.to_python import python_names as written_names
from symdiff.errors import SymdiffError
from symdiff.frontend.kinds import element
from symdiff.frontend.parse import parse_function
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.core import types as t
from symdiff.core.rewrite import breadth_first_names, substitute
from symdiff.pipeline import lower
from symdiff.primitives import container_reductions, containers, registry
from symdiff.primitives.derivatives import Scaled, Summed, merged, reads, unit
from symdiff.primitives.texts import expression, instantiate

try:
    from corpus import control, control_lists, straight, tangent_lists
except ImportError:  # run from the repository root
    from tests.corpus import control, control_lists, straight, tangent_lists

RECORDS = test_registry.RECORDS
G = ex.Name("g")


def _value(expr, env):
    return eval(compile(ast.Expression(ast.fix_missing_locations(ex.to_ast(expr))), "<b>",
                        "eval"), dict(env, math=math))


@pytest.mark.parametrize("record", RECORDS, ids=test_registry.IDS)
def test_a_builder_is_the_partial_times_g(record):
    names = tuple(ex.Name(p) for p in record.params)
    assert len(record.vjps) == len(record.jvps) == record.arity
    for partial, vjp, jvp in zip(record.partials, record.vjps, record.jvps):
        assert (vjp is None) == (jvp is None) == (partial is None)
        if partial is None or not (test_registry._computable(partial, record)
                                   and test_registry._computable(record.forward, record)):
            continue
        for point in test_registry.points(record, "builders", 2):
            env = dict(zip(record.params, point))
            try:
                out = test_registry._run(record.forward, record, point)
                want = 0.75 * test_registry._run(partial, record, point, out)
            except (ValueError, ZeroDivisionError, OverflowError):
                continue
            got = _value(vjp(G, names, ex.Name("out"), None), dict(env, g=0.75, out=out))
            assert test_registry._close(got, want), (record.name, point)


def test_two_arguments_of_one_variable_merge_into_one_term():
    mul = registry.rule_of("mul")
    both = merged(*mul.vjps)
    x = ex.Name("x")
    assert both(G, (x, x), ex.Name("z"), None) == ex.BinOp("*", G, ex.BinOp("+", x, x))
    summed = merged(mul.vjps[0], lambda g, args, out, names: g)
    assert isinstance(summed, Summed)
    assert summed(G, (x, x), ex.Name("z"), None) == ex.BinOp("+", ex.BinOp("*", G, x), G)


def test_a_partial_of_one_is_written_as_g_alone():
    add, sub = registry.rule_of("add"), registry.rule_of("sub")
    x, y = ex.Name("x"), ex.Name("y")
    assert unit(add.vjps[0](G, (x, y), None, None)) == (G, 1)
    assert unit(sub.vjps[1](G, (x, y), None, None)) == (G, -1)
    div = registry.rule_of("div").vjps[0](G, (x, y), None, None)
    assert div == ex.BinOp("/", G, y) and unit(div) == (div, None)


def test_what_a_builder_reads_is_found_on_placeholders():
    assert reads(registry.rule_of("mul").vjps[0], 2) == ([1], False)
    assert reads(registry.rule_of("exp").vjps[0], 1) == ([], True)
    assert reads(registry.rule_of("add").vjps[1], 2) == ([], False)


def test_instantiating_asks_for_the_other_names_and_enters_no_replacement():
    asked = []

    def names(name):
        asked.append(name)
        return ex.Name("m") if name == "math" else None

    got = instantiate("math.cos(x) * out", ("x",), (ex.Name("x"),), ex.Name("x"), names)
    assert ex.to_ast(got) and ast.unparse(ex.to_ast(got)) == "m.cos(x) * x"
    assert asked == ["math"]  # parameters and the output are not asked for
    assert expression("x + 1.0") is expression("x + 1.0")  # parsed once
    swap = substitute(ex.BinOp("+", ex.Name("a"), ex.Name("b")),
                      {"a": ex.Name("b"), "b": ex.Name("a")})
    assert swap == ex.BinOp("+", ex.Name("b"), ex.Name("a"))


@pytest.mark.parametrize("record", RECORDS, ids=test_registry.IDS)
def test_breadth_first_names_are_ast_walks(record):
    for text in (record.forward, *record.partials):
        if text is None:
            continue
        walked = [n.id for n in ast.walk(ast.parse(text, mode="eval").body)
                  if isinstance(n, ast.Name)]
        assert breadth_first_names(expression(text)) == walked, text


def _statements(block):
    for stmt in block:
        yield stmt
        for inner in sw.blocks(stmt):
            yield from _statements(inner)


def _lowered(fn):
    """The function's program, where it lowers without the kinds of its arguments."""
    try:
        return lower(parse_function(fn))
    except SymdiffError:
        return None


PROGRAMS = [(c.fn.__name__, p) for c in straight.CASES + control.CASES
            + control_lists.CASES + tangent_lists.CASES for p in [_lowered(c.fn)] if p]


@pytest.mark.parametrize("name, program", PROGRAMS, ids=[n for n, _ in PROGRAMS])
def test_the_names_of_a_sweeps_statement_are_as_python_writes_them(name, program):
    generated = differentiate(program, list(program.params))
    adjoints = set(generated.adjoints.values())
    for stmt in _statements(generated.function.body):
        if isinstance(stmt, (sw.Check, sw.Comment, sw.NewStack)):
            continue
        ours, written = python_names(stmt), written_names(stmt)
        assert [n for n in ours if n in adjoints] == [n for n in written if n in adjoints]
        if not any(isinstance(s, (sw.Check, sw.Comment, sw.NewStack))
                   for s in _statements([stmt])):  # which hold no adjoint: left out
            assert ours == written, stmt


def test_an_element_read_is_a_record():
    xs, i = ex.Name("xs"), ex.Name("i")
    item = containers.item_operation(1)
    assert item.vjp[1] is None and item.jvp[1] is None  # an index has no derivative
    assert item.vjp[0](G, (xs, i), ex.Name("y"), None) == containers.At((i,), G)
    assert item.jvp[0](ex.Name("dxs"), (xs, i), None, None) == ex.Subscript(
        ex.Name("dxs"), i)
    rows = t.List(t.Tuple((t.FLOAT, t.INT)))
    for kind, path in ((rows, (None, 0)), (rows, (None, 1)), (t.Dict((("w", t.FLOAT),)),
                                                               ("w",))):
        want = kind
        for index in path:
            want = element(want, index)
        assert item.result(kind, path) == want


def test_reductions_are_records():
    xs, g = ex.Name("xs"), G
    total = container_reductions.reduction("sum")
    assert total.vjp[0](g, (xs,), None, None) == containers.Each(g)
    assert total.vjp[1](g, (xs, ex.Name("s")), None, None) == g
    assert total.jvp[0](ex.Name("dxs"), (xs,), None, None) == ex.Call(
        ex.Name("sum"), (ex.Name("dxs"),))
    share = container_reductions.reduction("prod").vjp[0](g, (xs,), None, None)
    assert isinstance(share, containers.Each) and containers.reads_position(share.value)
    chosen = container_reductions.reduction("max").jvp[0](ex.Name("dxs"), (xs,), None, None)
    assert isinstance(chosen, ex.Subscript) and chosen.value == ex.Name("dxs")
    chosen = container_reductions.reduction("max").vjp[0](g, (xs,), None, None)
    assert isinstance(chosen, containers.At) and chosen.value == g
    assert total.result(t.List(t.INT), ()) == t.INT
    assert total.result(t.Tuple((t.INT, t.FLOAT)), ()) == t.FLOAT
    assert container_reductions.reduction("min").result(t.List(t.FLOAT), ()) == t.FLOAT


def test_a_scaled_builder_is_one_value():
    assert Scaled(("x",), ("x",)) == Scaled(("x",), ("x",))  # frozen, compared by value


def test_a_build_is_a_record_of_its_places():
    g, a, b = G, ex.Name("a"), ex.Name("b")
    paths = containers.leaf_paths((a, ir.Literal("tuple", (b, a))))
    assert paths == [(0,), (1, 0), (1, 1)]
    build = containers.build_operation(paths)
    assert build.vjp[1](g, (a, b, a), None, None) == ex.Subscript(
        ex.Subscript(g, ex.Const(1)), ex.Const(0))
    assert build.jvp[2](ex.Name("da"), (a, b, a), None, None) == containers.At(
        (ex.Const(1), ex.Const(1)), ex.Name("da"))
    keyed = containers.leaf_paths((a, b), ("w", "b"))
    assert keyed == [("w",), ("b",)]
    repeated = containers.build_operation([(0,)], repeat=True)
    n = ex.Name("n")
    assert repeated.vjp == (repeated.vjp[0], None)
    assert repeated.vjp[0](g, (a, n), None, lambda name: ex.Name("sum_1")) == ex.Call(
        ex.Name("sum_1"), (g, ex.Const(0.0)))  # (a float when n is 0: sum([]) is the int 0)
    assert repeated.vjp[0](g, (a, ex.Const(3)), None, None) == ex.Call(ex.Name("sum"), (g,))
    assert repeated.jvp[0](ex.Name("da"), (a, n), None, None) == ex.BinOp(
        "*", ex.List((ex.Name("da"),)), n)


def test_a_join_hands_each_part_its_stretch():
    g, xs, y = G, ex.Name("xs"), ex.Name("y")
    join = containers.join_operation((None, 1, None))
    assert len(join.vjp) == len(join.jvp) == 3
    args = (xs, y, ex.Name("ws"))
    dxs, dy, dws = ex.Name("dxs"), ex.Name("dy"), ex.Name("dws")  # the stretches, in order
    assert [join.jvp[i](d, args, None, None) for i, d in enumerate((dxs, dy, dws))] == [
        dxs, ex.List((dy,)), dws]
    assert containers.join_operation((1,), "tuple").jvp[0](dy, (y,), None, None) == ex.Tuple(
        (dy,))
    assert join.vjp[0](g, args, None, None) == containers.Each(ex.Subscript(g, containers.POSITION))
    length = ex.Call(ex.Name("len"), (xs,))
    assert join.vjp[1](g, args, None, None) == ex.Subscript(g, length)
    tail = join.vjp[2](g, args, None, None)
    assert tail == containers.Each(ex.Subscript(g, ex.BinOp("+", ex.BinOp(
        "+", length, ex.Const(1)), containers.POSITION)))


def test_a_slice_gives_its_adjoint_back_where_it_was_taken():
    g, xs = G, ex.Name("xs")
    every = ex.Call(ex.Name("range"), (ex.Call(ex.Name("len"), (xs,)),))
    taken = containers.take_operation()
    got = taken.vjp[0](g, (xs, ex.Const(1), None, None), None, None)
    assert got == containers.Scattered(ex.Subscript(every, ex.Slice(ex.Const(1))), g)
    assert taken.vjp[1:] == (None, None, None) and taken.jvp[1:] == (None, None, None)
    dxs = ex.Name("dxs")  # the tangent of a slice: the same slice of the tangent
    assert taken.jvp[0](dxs, (xs, ex.Const(1), None, None), None, None) == ex.Subscript(
        dxs, ex.Slice(ex.Const(1), None, None))
    ordered = containers.take_operation("sorted").jvp[0](dxs, (xs,), None, None)
    assert ordered == ex.ListComp(ex.Subscript(dxs, ex.Name("k")), "k", ex.Call(
        ex.Name("sorted"), (every,), (("key", ex.Attribute(xs, "__getitem__")),)))
    ranked = containers.take_operation("sorted", descending=True).vjp[0](g, (xs,), None, None)
    assert ranked.positions == ex.Call(ex.Name("sorted"), (every,), (
        ("key", ex.Attribute(xs, "__getitem__")), ("reverse", ex.Const(True))))


def test_a_list_bound_again_adds_its_adjoint_into_the_other():
    each = containers.SHARE.vjp[0](ex.Name("dx"), (ex.Name("h"),), None, None)
    assert each == containers.Each(ex.Subscript(ex.Name("dx"), containers.POSITION))
