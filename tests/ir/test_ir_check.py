"""``check_program``: a well-formed program passes; each broken invariant is an
``InternalError`` naming the pass; the pipeline runs it after every pass in the tests."""

import ast
import dataclasses
import math
import os

import pytest

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

import symdiff.pipeline
from symdiff.errors import InternalError
from symdiff.frontend.parse import parse_function
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.core import types as t
from symdiff.ir.check import check_program
from symdiff.pipeline import lower


def f(x, n):
    total = 0.0
    for i in range(n):
        total = total + math.sin(x * i)
        if total > 5.0:
            break
    assert total < 100.0, f"{total} is too large"
    return total


def program():
    return lower(parse_function(f))


def first(program, kind):
    return next(s for s in ir.walk(program.body) if isinstance(s, kind))


def broken(edit):
    p = program()
    edit(p)
    with pytest.raises(InternalError) as caught:
        check_program(p, "a-pass")
    assert caught.value.pass_name == "a-pass"
    return caught.value


def test_the_suite_checks_the_ir():
    assert os.environ.get("SYMDIFF_CHECK_IR") == "1"


def test_a_lowered_program_is_well_formed():
    check_program(program(), "lower")


def test_ids_must_be_unique_and_present():
    def twice(p):
        statements = list(ir.walk(p.body))
        statements[1].sid = statements[0].sid
    broken(twice)
    broken(lambda p: setattr(p.body[0], "sid", None))


def test_no_syntax_tree():
    broken(lambda p: setattr(first(p, ir.Compute), "expr", ast.Constant(1.0)))
    broken(lambda p: setattr(first(p, ir.Check), "value", ast.Name("total_1", ast.Load())))


def test_a_break_only_ends_a_loop_body():
    def moved(p):
        loop = first(p, ir.For)
        loop.body.insert(0, loop.body.pop())
    broken(moved)


def test_an_assign_applies_a_primitive_to_its_operands():
    broken(lambda p: setattr(first(p, ir.Assign), "op", "no_such_primitive"))
    sine = next(s for s in ir.walk(program().body) if isinstance(s, ir.Assign) and s.op == "sin")

    def arity(p):
        stmt = next(s for s in ir.walk(p.body) if isinstance(s, ir.Assign) and s.sid == sine.sid)
        stmt.args = stmt.args + stmt.args
    broken(arity)


def test_reads_come_after_a_definition():
    def early(p):
        loop = first(p, ir.For)
        late = next(s for s in loop.body if isinstance(s, ir.Assign) and s.op == "add")
        loop.body.remove(late)
        p.body.insert(0, late)  # reads the loop's values before the loop
    broken(early)

    def branch_read_first(p):  # a name a branch assigns, read before the branch
        stmt = first(p, ir.If)
        assign = ir.Assign("later", "copy", (ir.Var("x"),), stmt.origin, sid=10_000)
        stmt.orelse.append(assign)
        before = ir.Assign("reader", "copy", (ir.Var("later"),), stmt.origin, sid=10_001)
        p.body.insert(0, before)
        p.types.update(later=t.FLOAT, reader=t.FLOAT)
    broken(branch_read_first)


def test_types_agree_with_the_rules():
    def mistyped(p):
        loop = first(p, ir.For)
        p.types[loop.target] = t.STR
    broken(mistyped)

    def untyped(p):
        del p.types[first(p, ir.Assign).target]
    broken(untyped)

    def string_operand(p):
        stmt = next(s for s in ir.walk(p.body) if isinstance(s, ir.Assign) and s.op == "sin")
        stmt.args = (ir.Const("text"),)
    broken(string_operand)

    def not_a_bool(p):
        stmt = first(p, ir.BreakIf)
        stmt.test, stmt.reads = ex.Name("x"), ("x",)
    broken(not_a_bool)


def test_the_pipeline_names_the_pass_that_broke_the_ir(monkeypatch):
    real = symdiff.pipeline.hoist_invariants

    def bad_hoist(p):
        out = real(p)
        stmt = first(out, ir.Compute)
        return dataclasses.replace(out, body=[dataclasses.replace(stmt, expr=ast.Constant(0.0))]
                                   + out.body)
    monkeypatch.setattr(symdiff.pipeline, "hoist_invariants", bad_hoist)
    with pytest.raises(InternalError) as caught:
        lower(parse_function(f))
    assert caught.value.pass_name == "hoist"


# --- planted inference bugs: the check is apart from the inference, so it catches them ---

def numpy_and_lists(x, y):
    s = np.sin(x)
    stack = []
    stack.append(s / y)
    return stack.pop() * math.cos(x)


def assign_of(p, op):
    return next(s for s in ir.walk(p.body) if isinstance(s, ir.Assign) and s.op == op)


def test_a_wrong_type_stored_on_a_variable_is_caught_at_its_statement():
    def wrong(p):
        p.types[assign_of(p, "sin").target] = t.INT  # math.sin gives a float
    error = broken(wrong)
    sine = assign_of(program(), "sin")
    assert f"#{sine.sid} " in str(error) and "= sin(" in str(error)
    assert "is a int but is given a float" in str(error)


def test_a_wrong_result_type_of_the_inference_is_caught(monkeypatch):
    """The inference's own rule, broken, types the program wrong; the check reads the
    record's rule, not the inference's, and names the statement."""
    from symdiff.analysis import types as inference
    real = inference.result_type

    def floor_of_everything(program, stmt, arg_types):
        return t.INT if stmt.op == "sin" else real(program, stmt, arg_types)
    monkeypatch.setattr(inference, "result_type", floor_of_everything)
    with pytest.raises(InternalError) as caught:
        lower(parse_function(f))
    assert caught.value.pass_name == "lower"
    assert "= sin(" in str(caught.value) and "given a float" in str(caught.value)


def test_a_numpy_scalar_typed_as_a_float_is_caught():
    np_ = pytest.importorskip("numpy")
    assert np_ is np

    def forgot_numpy(p):  # np.sin gives a NumPy scalar: its partials are numpy's
        p.types[assign_of(p, "sin").target] = t.FLOAT
    p = lower(parse_function(numpy_and_lists))
    check_program(p, "lower")
    forgot_numpy(p)
    with pytest.raises(InternalError) as caught:
        check_program(p, "a-pass")
    assert "= sin(" in str(caught.value) and "given a np.float64" in str(caught.value)


def test_a_list_not_refined_by_what_is_appended_is_caught():
    pytest.importorskip("numpy")
    p = lower(parse_function(numpy_and_lists))
    assert p.types["stack"] == t.List(t.NUMPY_FLOAT, None)
    p.types["stack"] = t.List(t.FLOAT, None)  # the inference forgot the append
    with pytest.raises(InternalError) as caught:
        check_program(p, "a-pass")
    assert "appended to a list[float]" in str(caught.value)
    assert ".append(" in str(caught.value)  # the statement named


def test_a_wrong_type_of_a_test_is_caught():
    def wrong(p):
        test = first(p, ir.Compute)
        p.types[test.target] = t.STR
    error = broken(wrong)
    assert "given a bool" in str(error)


def test_a_list_not_refined_by_what_it_is_built_of_is_caught():
    pytest.importorskip("numpy")

    def g(x, y):
        xs = [np.sin(x), y]
        return sum(xs) * y

    p = lower(parse_function(g))
    p.types["xs"] = t.List(t.FLOAT, None)  # the inference forgot np.sin's NumPy scalar
    with pytest.raises(InternalError) as caught:
        check_program(p, "a-pass")
    assert "xs: list[float] = [sin_xs, y]" in str(caught.value)  # the statement
    assert "a np.float64 stored where its list[float] holds a float" in str(caught.value)


def test_a_join_not_refined_by_its_parts_is_caught():
    pytest.importorskip("numpy")

    def g(x, y):
        xs = [y, y]
        ys = xs + [np.cos(x)]
        return ys[2] * y

    p = lower(parse_function(g))
    p.types["ys"] = t.List(t.FLOAT, None)  # the inference forgot the part np.cos made
    with pytest.raises(InternalError) as caught:
        check_program(p, "a-pass")
    assert "ys: list[float] = xs + [cos_ys]" in str(caught.value)


def test_the_check_imports_no_inference():
    """``check_program`` shares nothing with what it checks but the records' rules."""
    import pathlib

    here = pathlib.Path(symdiff.pipeline.__file__).parent / "ir"
    for module in ("check.py", "check_types.py"):
        tree = ast.parse((here / module).read_text())
        imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        imported += [a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for a in node.names]
        assert not [m for m in imported if m.startswith(("symdiff.analysis",
                                                         "symdiff.frontend"))], module


def mixed(x, n, scale=None):
    s = np.sin(x)
    total = 0
    parts = [x, 2.0]
    for i in range(n):
        total = total + s * parts[i % 2]
        if total > 3.0:
            break
    if scale is not None:
        total = total * scale
    k = math.floor(x)
    return total + k + len(parts)


@pytest.mark.parametrize("fn", [f, numpy_and_lists, mixed], ids=lambda fn: fn.__name__)
def test_every_wrong_type_stored_on_a_target_is_caught(fn):
    """A mutation test of the check: each target's stored type replaced by a wrong one
    (a string for a number, a float for anything else) fails at the statement."""
    if np is None and fn is not f:
        pytest.skip("numpy is not installed")
    base = lower(parse_function(fn))
    check_program(base, "lower")
    targets = [s for s in ir.walk(base.body) if isinstance(
        s, (ir.Assign, ir.Compute, ir.Item, ir.For)) or isinstance(s, ir.Pop)]
    assert len(targets) > 4
    for stmt in targets:
        p = dataclasses.replace(base, types=dict(base.types))
        name = stmt.target
        p.types[name] = t.FLOAT if p.types[name] == t.STR else t.STR
        with pytest.raises(InternalError) as caught:
            check_program(p, "a-pass")
        assert "the IR is not well formed at `#" in str(caught.value), name


def test_a_type_wider_than_its_statements_give_is_caught():
    """A type wider than the statements give (an int stored as a float, a float as a
    NumPy scalar, which would spell its operators numpy's) is caught too: the stored type
    must be the join of what the variable's statements give it."""
    p = lower(parse_function(mixed))
    floor = assign_of(p, "floor")
    p.types[floor.target] = t.FLOAT  # math.floor gives an int
    with pytest.raises(InternalError) as caught:
        check_program(p, "a-pass")
    assert f"#{floor.sid} " in str(caught.value) and "= floor(" in str(caught.value)
    assert "its statements give it a int" in str(caught.value)
