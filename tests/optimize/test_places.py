"""The optimizer on element places: ``xs[k] = v`` and ``dxs[i] += g`` in every pass.

A write to a place reads and partly writes its container: it is never a copy source,
never dropped while its container is needed, a value reading the container never moves
past it, and ``to_python`` writes it as a subscript.  Each pass runs alone on hand-made
sweeps (``sweeps_text``), then all together through ``optimize_function``; every
rewrite is compared with the original on many points, exceptions included.
"""

import ast
import itertools
import math

import pytest

from symdiff.ad.reverse import Generated
from symdiff.errors import InternalError
from symdiff.core import expr as ex
from symdiff.ir import sweeps as sw
from symdiff.core import types as t
from symdiff.ir.check_sweeps import check_sweeps
from symdiff.optimize import driver as optimize
from symdiff.optimize.context import Context
from symdiff.optimize.copies import propagate_copies, propagate_local_copies
from symdiff.optimize.fold import fold_constants
from symdiff.optimize.fuse import fuse_single_uses
from symdiff.optimize.prune import drop_dead_statements, drop_empty_statements
from symdiff.optimize.reuse import merge_accumulations, reuse_values

try:
    import oracles
    from sweeps_text import function_of, python_of, text_of
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.sweeps_text import function_of, python_of, text_of

VALUES = (math.nan, math.inf, -0.0, 0.0, 1.0, -2.5, 0.5, 1e308, 0, 3)


def _function(text):
    """The sweeps of ``text``, every parameter a float."""
    return function_of(text, t.FLOAT)


def _run(text, *passes, containers=None, of_adjoints=frozenset()):
    function = _function(text)
    context = Context.of(function, "math")
    context.containers, context.of_adjoints = containers or {}, frozenset(of_adjoints)
    for _ in range(optimize.MAX_ROUNDS):
        if not any([run(function, context) for run in passes]):
            break
    return function


def _compile(function):
    module = ast.fix_missing_locations(ast.Module([python_of(function)], []))
    scope = {"math": math}
    exec(compile(module, "<test_places>", "exec"), scope)
    return scope[function.name]


def _same(text, function, expected, points=None):
    assert text_of(function) == text_of(_function(expected)), text_of(function)
    original = _function(text)
    if points is None:
        points = list(itertools.product(VALUES, repeat=len(original.params)))
    bad = oracles.mismatches(_compile(original), _compile(function), points)
    assert not bad, f"{len(bad)} mismatches, first {bad[0]}"


def test_to_python_writes_places():
    function = sw.Function("f", ("xs", "i", "g"), (), None, [
        sw.AddTo(ex.Subscript(ex.Name("xs"), ex.Name("i")), ex.BinOp("*", ex.Name("g"),
                                                                     ex.Const(2.0))),
        sw.Let(ex.Subscript(ex.Name("xs"), ex.Const(0)), ex.Name("g")),
        sw.AddTo(ex.Subscript(ex.Name("xs"), ex.Const(1)), ex.Name("g"), negate=True),
        sw.Return(ex.Name("xs"))])
    assert text_of(function).splitlines()[1:4] == [
        "    xs[i] += g * 2.0", "    xs[0] = g", "    xs[1] -= g"]
    assert sw.target_name(function.body[0].target) == "xs"
    assert sw.place_reads(function.body[0].target) == ["xs", "i"]


def test_fold_inside_a_place_and_its_value():
    text = """
        def f(x, g):
            xs = [x, x]
            xs[0 + 1] = g * 1
            xs[0] += 2.0 * 3.0
            return (xs[0], xs[1])
        """
    _same(text, _run(text, fold_constants), """
        def f(x, g):
            xs = [x, x]
            xs[1] = g
            xs[0] += 6.0
            return (xs[0], xs[1])
        """)


def test_a_place_is_never_a_copy_and_its_index_is_renamed():
    text = """
        def f(x, y):
            xs = [x, y]
            a = y
            k = 1
            xs[k] = a
            return (xs[0] + a, xs[1])
        """
    _same(text, _run(text, propagate_copies), """
        def f(x, y):
            xs = [x, y]
            xs[1] = y
            return (xs[0] + y, xs[1])
        """)


def test_a_copy_of_a_container_is_not_propagated_past_an_element_write():
    text = """
        def f(x, y):
            xs = [x, y]
            ys = list(xs)
            b = ys
            ys[0] = y
            return (b[0], xs[0])
        """
    function = _run(text, propagate_copies)
    assert "b = ys" in text_of(function)
    _same(text, function, text)


def test_local_copy_not_propagated_past_a_write_of_its_source():
    text = """
        def f(x, y):
            s = [x, y]
            t = 0.0
            for i in range(2):
                a = s
                s[i] = x * 2.0
                t = t + a[i]
            return (t,)
        """
    function = _run(text, propagate_local_copies)
    _same(text, function, text)


def test_reuse_puts_a_name_in_a_place_value_never_a_place():
    text = """
        def f(x, y):
            xs = [x, y]
            a = x * y
            xs[0] = x * y
            xs[1] += x * y
            return (xs[0], xs[1], a)
        """
    _same(text, _run(text, reuse_values), """
        def f(x, y):
            xs = [x, y]
            a = x * y
            xs[0] = a
            xs[1] += a
            return (xs[0], xs[1], a)
        """)


def test_fuse_into_an_accumulation_to_a_place():
    text = """
        def f(x, y):
            dxs = [0.0, 0.0]
            t = x * y
            dxs[1] += t
            return (dxs[0], dxs[1])
        """
    _same(text, _run(text, fuse_single_uses), """
        def f(x, y):
            dxs = [0.0, 0.0]
            dxs[1] += x * y
            return (dxs[0], dxs[1])
        """)


def test_fuse_never_moves_a_read_of_the_container_past_an_element_write():
    text = """
        def f(x, y):
            xs = [x, y]
            t = xs[0] * 2.0
            xs[0] = y
            z = t + 1.0
            return (z, xs[0])
        """
    function = _run(text, fuse_single_uses)
    assert "t = xs[0] * 2.0" in text_of(function)
    _same(text, function, text)


def test_fuse_keeps_a_value_that_may_raise_before_an_element_write():
    """``xs[k] = v`` may raise (an index out of range): ``x / y`` keeps raising first."""
    text = """
        def f(x, y, k):
            xs = [x]
            t = x / y
            xs[k] = 1.0
            z = t + 1.0
            return (z,)
        """
    function = _run(text, fuse_single_uses)
    assert "t = x / y" in text_of(function)
    points = [(1.0, 0.0, 5), (1.0, 2.0, 0), (1.0, 0.0, 0), (2.0, 1.0, 3)]
    assert not oracles.mismatches(_compile(function_of(text)), _compile(function), points)


def test_merge_leaves_places_alone():
    text = """
        def f(x, y):
            dxs = [0.0]
            dxs[0] = x
            dxs[0] += y
            return (dxs[0],)
        """
    function = _run(text, merge_accumulations)
    _same(text, function, text)


def test_prune_drops_writes_to_a_dead_container():
    """The element write goes (its index is one the sweeps write, in range), and so does
    building the list (a list written out of values that raise nothing raises nothing);
    a list repeated by a number may raise (``[0.0] * 2.5``), and stays."""
    text = """
        def f(x, g, i):
            dxs = [0.0, 0.0]
            dxs[i] += g * 2.0
            dys = [0.0] * i
            return (x,)
        """
    _same(text, _run(text, drop_dead_statements, drop_empty_statements), """
        def f(x, g, i):
            dys = [0.0] * i
            return (x,)
        """, [(x, g, i) for x in VALUES for g in VALUES for i in (0, 1, -1)])


def test_prune_keeps_writes_to_a_needed_container_and_what_they_read():
    text = """
        def f(x, g):
            i = 1
            h = g * 2.0
            dxs = [0.0, 0.0]
            dxs[i] += h
            dxs[0] = x
            return (dxs[0], dxs[1])
        """
    _same(text, _run(text, drop_dead_statements, drop_empty_statements), text)


def test_prune_drops_appends_to_a_dead_list_and_its_sum():
    """An append to a list nothing needs goes when its value raises nothing, and so
    does the sum of a list of numbers; an append whose value may raise stays (and the
    list it appends to)."""
    text = """
        def f(x, g):
            terms = []
            terms.append(x * g)
            terms.append(x - g)
            total = sum(terms)
            squares = []
            squares.append(x ** 2)
            return (g * 2.0,)
        """
    numbers = {"terms": t.List(t.FLOAT, None), "squares": t.List(t.FLOAT, None)}
    _same(text, _run(text, drop_dead_statements, drop_empty_statements, containers=numbers), """
        def f(x, g):
            squares = []
            squares.append(x ** 2)
            return (g * 2.0,)
        """)


def test_fold_drops_one_times_at_a_place_of_a_containers_adjoint():
    """``dxs[i] += 1.0 * e`` is ``dxs[i] += e``: every place of a container's adjoint
    holds a float, so the sum is one either way; another list's place keeps the 1.0 (x
    may be an int)."""
    text = """
        def f(x: number, i: int):
            dxs = [0.0, 0.0]
            dxs[i] += 1.0 * x
            ys = [0, 0]
            ys[i] += 1.0 * x
            return (dxs[0] + dxs[1], ys[0] + ys[1])
        """
    _same(text, _run(text, fold_constants, of_adjoints={"dxs"}), """
        def f(x: number, i: int):
            dxs = [0.0, 0.0]
            dxs[i] += x
            ys = [0, 0]
            ys[i] += 1.0 * x
            return (dxs[0] + dxs[1], ys[0] + ys[1])
        """, [(x, i) for x in VALUES for i in (0, 1, -1)])


def test_prune_keeps_a_sum_it_cannot_prove_quiet():
    """Without the list's kind, or of a list of lists, ``sum`` may raise: it stays."""
    text = """
        def f(x, g):
            terms = []
            terms.append(x * g)
            total = sum(terms)
            return (g * 2.0,)
        """
    for containers in ({}, {"terms": t.List(t.List(t.FLOAT, None), None)}):
        pruned = _run(text, drop_dead_statements, drop_empty_statements,
                      containers=containers)
        assert "sum(terms)" in text_of(pruned)


def _generated(text):
    function = _function(text)
    return Generated(function, "math", {"math": math}, adjoints={"x": "dx"})


PLACES = """
    def grad_f(x: number, g: number, i: int):
        dxs = [0.0, 0.0]
        one = 1.0
        t = g * one
        dxs[i] += t * 2.0
        k = i
        dxs[k - 1] += t
        unused = [x]
        unused[0] = x * x
        dx = dxs[0] + dxs[1]
        return dx
    """


def test_optimize_function_on_places():
    """The whole optimizer (it crashed in ``prune`` on ``dxs[i] += g * 2.0``)."""
    generated = _generated(PLACES)
    check_sweeps(_Program(), generated, "test")
    optimized = optimize.optimize_function(generated)
    check_sweeps(_Program(), optimized, "optimize")
    assert text_of(optimized.function) == text_of(function_of("""
        def grad_f(x: number, g: number, i: int):
            dxs = [0.0, 0.0]
            t = g * 1.0
            dxs[i] += t * 2.0
            dxs[i - 1] += t
            dx = dxs[0] + dxs[1]
            return dx
        """))
    points = [(x, g, i) for x in VALUES for g in VALUES for i in (0, 1, 2, -1)]
    assert not oracles.mismatches(_compile(generated.function), _compile(optimized.function),
                                  points)


class _Program:
    namespace = {"math": math}
    math_name = "math"


def test_check_sweeps_refuses_an_accumulation_to_no_adjoint_nor_place():
    generated = _generated("""
        def grad_f(x):
            y = 0.0
            y += x
            return y
        """)
    with pytest.raises(InternalError, match="adds to y"):
        check_sweeps(_Program(), generated, "test")


def test_check_sweeps_refuses_a_place_of_an_undefined_container():
    generated = _generated("""
        def grad_f(x):
            dx = 0.0
            dxs[0] += x
            dxs = [0.0]
            return dx
        """)
    with pytest.raises(InternalError, match="dxs"):
        check_sweeps(_Program(), generated, "test")


def test_check_sweeps_refuses_a_read_before_its_definition():
    generated = _generated("""
        def grad_f(x):
            dx = y * 2.0
            y = x
            return dx
        """)
    with pytest.raises(InternalError, match="reads y"):
        check_sweeps(_Program(), generated, "test")
