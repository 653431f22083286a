"""The records of container changes (``primitives.changes``): element assignment,
``append`` and ``pop`` are records like ``sin``, read through ``registry.operation_of``.

Their builders give effects on the list's adjoint or tangent (``Put``, ``Insert``,
``Taken``).  Run here on Python lists, by a reading of the effects of this test's own,
each record's JVP and VJP are checked against each other by the dot-product identity
(``<JVP(t), g> == <t, VJP(g)>``, at random tangents and adjoints, for every index form
of ``pop``, negative ones too), and the JVP against the change itself, by finite
differences: a record whose reverse put a value back in the wrong place, or whose
forward took the wrong tangent, fails.
"""

import ast
import random

import pytest

from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.primitives import changes, registry

G = ex.Name("g")


def _value(expr, env):
    """The value of an IR expression, with the names in ``env``."""
    tree = ast.fix_missing_locations(ast.Expression(ex.to_ast(expr)))
    return eval(compile(tree, "<record>", "eval"), {}, env)


def _apply(change, into, env):
    """Apply ``change`` to the Python list ``into`` in place, as its docstring says (this
    test's reading); the value a ``Taken`` takes out."""
    if isinstance(change, changes.Put):
        place = into
        path = [_value(i, env) for i in change.path]
        for index in path[:-1]:
            place = place[index]
        place[path[-1]] = 0.0 if change.value is None else _value(change.value, env)
        return None
    if isinstance(change, changes.Insert):
        value = _value(change.value, env)
        if change.index is None:
            into.append(value)
        else:
            env = dict(env, into=into)
            into.insert(_value(changes.put_back_position(change.index, ex.Name("into"),
                                                         None), env), value)
        return None
    index = None if change.index is None else _value(change.index, env)
    return into.pop() if index is None else into.pop(index)


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def _random_list(rng, n):
    return [rng.uniform(-2.0, 2.0) for _ in range(n)]


INDICES = [None, 0, 2, 4, -1, -2, -5, "i"]  # "i": an index known when the gradient runs


def _index_operand(index):
    return ir.Var("i") if index == "i" else None if index is None else ir.Const(index)


@pytest.mark.parametrize("index", INDICES, ids=str)
@pytest.mark.parametrize("seed", range(3))
def test_pop_forward_and_reverse_are_adjoint(index, seed):
    rng = random.Random(seed)
    n = 5
    at = rng.randrange(-n, n) if index == "i" else index
    stmt = ir.Pop("ys", "v", None, index=_index_operand(index))
    record = registry.operation_of(stmt)
    args = (ex.Name("ys"),) + (() if index is None else (ex.of_operand(stmt.index),))
    env = {"i": at}
    tangents = _random_list(rng, n)
    forward = list(tangents)
    dv = _apply(record.jvp[0](ex.Name("dys"), args, None, None), forward, env)
    assert len(forward) == n - 1
    g_rest, g_v = _random_list(rng, n - 1), rng.uniform(-2.0, 2.0)
    back = list(g_rest)
    _apply(record.vjp[0](ex.Name("gv"), args, None, None), back, dict(env, gv=g_v))
    assert _dot(forward, g_rest) + dv * g_v == pytest.approx(_dot(tangents, back))


@pytest.mark.parametrize("path", [(0,), (3,), (-1,)], ids=str)
def test_element_assignment_forward_and_reverse_are_adjoint(path):
    rng = random.Random(len(path) + path[0])
    n = 4
    stmt = ir.SetItem("xs", tuple(ir.Const(i) for i in path), ir.Var("v"), None)
    record = registry.operation_of(stmt)
    assert record.vjp[2:] == (None,) and record.jvp[2:] == (None,)
    args = (ex.Name("xs"), ex.Name("v")) + tuple(ex.Const(i) for i in path)
    tangents, dv = _random_list(rng, n), rng.uniform(-2.0, 2.0)
    assert record.jvp[0] is None  # the tangent list is changed in place: the rest stays
    forward = list(tangents)
    _apply(record.jvp[1](ex.Name("dv"), args, None, None), forward, {"dv": dv})
    g = _random_list(rng, n)
    env = {"g": list(g)}
    share = _value(record.vjp[1](G, args, None, None), env)  # read first, then the reset
    back = env["g"]
    _apply(record.vjp[0](G, args, None, None), back, env)
    assert _dot(forward, g) == pytest.approx(_dot(tangents, back) + dv * share)


def test_an_append_forward_and_reverse_are_adjoint():
    rng = random.Random(7)
    n = 3
    stmt = ir.Push("ys", ir.Var("v"), None)
    record = registry.operation_of(stmt)
    args = (ex.Name("ys"), ex.Name("v"))
    tangents, dv = _random_list(rng, n), rng.uniform(-2.0, 2.0)
    forward = list(tangents)
    assert record.jvp[0] is None
    _apply(record.jvp[1](ex.Name("dv"), args, None, None), forward, {"dv": dv})
    g = _random_list(rng, n + 1)
    env = {"g": list(g)}
    share = _value(record.vjp[1](G, args, None, None), env)
    dropped = record.vjp[0](G, args, None, None)
    assert isinstance(dropped, changes.Taken) and dropped.index is None
    _apply(dropped, env["g"], env)  # the element the share read, taken out
    assert _dot(forward, g) == pytest.approx(_dot(tangents, env["g"]) + dv * share)


def test_a_pop_takes_the_popped_value_s_tangent():
    """The finite-difference witness of ``pop(i)``'s record: the tangent the JVP takes is
    the derivative of the popped value along the tangent, at every index form."""
    rng = random.Random(3)
    for index in INDICES:
        at = 1 if index == "i" else index
        stmt = ir.Pop("ys", "v", None, index=_index_operand(index))
        record = registry.operation_of(stmt)
        args = (ex.Name("ys"),) + (() if index is None else (ex.of_operand(stmt.index),))
        xs, ts = _random_list(rng, 5), _random_list(rng, 5)
        h = 1e-6

        def popped(values):
            values = list(values)
            return values.pop() if at is None else values.pop(at)
        moved = [x + h * t for x, t in zip(xs, ts)]
        slope = (popped(moved) - popped(xs)) / h
        dv = _apply(record.jvp[0](ex.Name("dys"), args, None, None), list(ts), {"i": at})
        assert dv == pytest.approx(slope, rel=1e-5)


def test_every_container_statement_has_a_record():
    """``registry.operation_of`` answers for every container statement lowering writes:
    no container rule is left outside the records."""
    statements = [ir.SetItem("xs", (ir.Const(0),), ir.Var("v"), None),
                  ir.Push("ys", ir.Var("v"), None), ir.Pop("ys", "v", None),
                  ir.Pop("ys", "v", None, index=ir.Const(-2))]
    for stmt in statements:
        record = registry.operation_of(stmt)
        assert record is not None and len(record.vjp) == len(record.jvp) == len(
            record.params)
