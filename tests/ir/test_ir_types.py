"""Type inference (``symdiff.analysis.types``) on small programs, and the type values
themselves (``symdiff.core.types``)."""

import math

import numpy as np
import pytest

from symdiff.errors import InternalError
from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.core import types as t
from symdiff.pipeline import lower

TABLE = (1.0, 2.0, 3.0)


def types_of(fn):
    return lower(parse_function(fn)).types


def test_parameters_are_floats_unless_read_otherwise():
    def f(x, n, table, scale=None, mode="fast", clip=True):
        total = 0.0
        for i in range(n):
            total = total + x * table[i]
        if scale is not None:
            total = total * scale
        if mode == "fast" and clip:
            total = total + 1.0
        return total

    types = types_of(f)
    assert types["x"] == t.FLOAT
    assert types["n"] == t.INT
    assert types["table"] == t.Table()
    assert types["scale"] == t.Optional(t.FLOAT)
    assert types["mode"] == t.STR
    assert types["clip"] == t.BOOL


def test_assignments_take_their_primitive_result_type():
    def f(x):
        k = math.floor(x)
        j = k * 2
        r = round(x)
        r2 = round(x, 2)
        big = math.factorial(3)
        test = math.isnan(x)
        s = math.sin(x)
        q = k / 2
        return s + j + r + r2 + big + q + test

    types = types_of(f)
    assert [types[n] for n in ("k", "j", "r", "r2", "big", "test", "s", "q")] == [
        t.INT, t.INT, t.INT, t.FLOAT, t.INT, t.BOOL, t.FLOAT, t.FLOAT]


def test_numpy_computes_numpy_scalars():
    def f(x):
        k = np.floor(x)
        return k * x

    types = types_of(f)
    assert types["k"] == t.NUMPY_FLOAT
    assert [kind for name, kind in types.items() if name != "k" and name != "x"] == [
        t.NUMPY_FLOAT]  # the product of a NumPy scalar and a float


def test_numpy_scalars_flow_through_operators_copies_and_lists():
    def f(x, y):
        s = np.sin(x)
        q = s / y           # numpy's: s is a NumPy scalar
        a = abs(q)          # abs keeps it
        r = math.cos(a)     # math gives a float back
        f = float(q)
        stack = []
        stack.append(q)
        p = stack.pop()     # popped back, still numpy's
        return r + f + p * 2.0

    program = lower(parse_function(f))
    types = program.types
    assert [types[n] for n in ("s", "q", "a", "r", "f", "p")] == [
        t.NUMPY_FLOAT, t.NUMPY_FLOAT, t.NUMPY_FLOAT, t.FLOAT, t.FLOAT, t.NUMPY_FLOAT]
    assert types["stack"] == t.List(t.NUMPY_FLOAT, None)
    assert program.containers["stack"] == t.List(t.FLOAT, None)  # lowering's, refined
    by = {s.target: program.computed_by(s) for s in ir.walk(program.body)
          if isinstance(s, ir.Assign)}
    assert by["s"] == "numpy" and by["q"] == "numpy" and by["r"] == "math"
    assert by["a"] is None  # abs is no operator: Python's partials, on a NumPy scalar too


def test_a_counter_given_floats_is_a_float_and_decisions_are_bools():
    def f(x, n):
        s = 0
        count = 0
        for i in range(n):
            s = s + x
            count = count + 1
            if s > 10.0:
                break
        return s * count

    types = types_of(f)
    assert types["s"] == t.FLOAT
    assert types["count"] == t.INT
    assert types["i"] == t.INT
    flags = [kind for name, kind in types.items() if name.startswith(("stop", "cond"))]
    assert flags and all(kind == t.BOOL for kind in flags)


def test_every_variable_gets_a_type():
    def f(x, y):
        stack = []
        for i in range(3):
            stack.append(x * i)
        z = 0.0
        for i in range(3):
            z = z + stack.pop() * y
        return z

    program = lower(parse_function(f))
    assert set(ir.assigned_names(program.body)) <= set(program.types)
    assert program.types["stack"] == t.List(t.FLOAT, None)


def test_join():
    assert t.join(t.INT, t.FLOAT) == t.FLOAT
    assert t.join(t.BOOL, t.INT) == t.INT
    assert t.join(t.NONE, t.FLOAT) == t.Optional(t.FLOAT)
    assert t.join(t.Optional(t.INT), t.FLOAT) == t.Optional(t.FLOAT)
    assert t.join(t.FLOAT, t.NUMPY_FLOAT) == t.NUMPY_FLOAT
    assert t.join(t.INT, t.NUMPY_FLOAT) == t.NUMPY_FLOAT
    assert t.join(t.List(t.INT, 2), t.List(t.FLOAT, 3)) == t.List(t.FLOAT, None)
    assert t.join(t.List(t.INT, 2), t.List(t.INT, 2)) == t.List(t.INT, 2)
    assert t.join(t.Tuple((t.INT, t.FLOAT)), t.Tuple((t.FLOAT, t.NUMPY_FLOAT))) == t.Tuple(
        (t.FLOAT, t.NUMPY_FLOAT))
    with pytest.raises(InternalError):
        t.join(t.STR, t.FLOAT)
    with pytest.raises(InternalError):
        t.join(t.List(t.FLOAT), t.Tuple((t.FLOAT,)))


def test_container_and_array_types_are_data():
    pair = t.Tuple((t.FLOAT, t.INT))
    layers = t.List(t.Tuple((t.FLOAT, t.FLOAT)), None)
    params = t.Dict((("w", t.FLOAT), ("b", t.List(t.FLOAT, 3))))
    image = t.Array("float64", 2, (0,))
    assert pair == t.Tuple((t.FLOAT, t.INT)) and hash(pair) == hash(t.Tuple((t.FLOAT, t.INT)))
    assert {layers: 1}[t.List(t.Tuple((t.FLOAT, t.FLOAT)))] == 1
    assert str(params) == "dict['w': float, 'b': list[float, 3]]"
    assert str(image) == "array[float64, 2, (0,)]"
    assert t.accepts(t.FLOAT, t.INT) and not t.accepts(t.INT, t.FLOAT)


def test_a_copy_keeps_any_type():
    def f(x, mode="fast"):
        chosen = mode
        for _ in range(2):
            chosen = mode
        if chosen == "fast":
            return x * 2.0
        return x

    types = types_of(f)
    assert all(kind == t.STR for name, kind in types.items() if name.startswith("chosen"))


def test_one_join_for_the_elements_of_a_list():
    """Lowering's list literals and the arguments' kinds share one join of elements."""
    from symdiff.frontend.kinds import kind_of

    assert t.element_join(t.INT, t.FLOAT) == t.FLOAT
    assert t.element_join(t.List(t.FLOAT, 2), t.List(t.FLOAT, 3)) == t.List(t.FLOAT, None)
    assert t.element_join(t.List(t.FLOAT, 2), t.List(t.FLOAT, 2)) == t.List(t.FLOAT, 2)
    assert t.element_join(t.Dict((("a", t.INT),)), t.Dict((("a", t.FLOAT),))) == t.Dict(
        (("a", t.FLOAT),))
    assert t.element_join(t.Dict((("a", t.INT),)), t.Dict((("b", t.INT),))) is None
    assert t.element_join(t.List(t.FLOAT), t.FLOAT) is None
    assert kind_of([[1.0, 2.0], [3.0]]) == t.List(t.List(t.FLOAT, None), 2)
    assert kind_of([{"w": 1.0}, {"w": [2.0]}]) is None


def test_a_list_of_dicts_with_like_keys_is_one_type():
    def f(x):
        rows = [{"a": x}, {"a": 1}]
        return rows[0]["a"] * rows[1]["a"] + x

    program = lower(parse_function(f))
    assert program.containers["rows"] == t.List(t.Dict((("a", t.FLOAT),)), None)
    import symdiff
    assert symdiff.grad(f)(2.0) == 2.0  # d/dx (x * 1 + x)


def test_numpy_scalars_stored_in_containers_stay_numpy_scalars():
    """A NumPy scalar written into a list is one when read back, and so is a sum of them:
    the division by it is numpy's, partials too, so the gradient gives inf where the
    function does instead of raising ZeroDivisionError."""
    import warnings

    import symdiff

    def f(x, y):
        xs = [np.sin(x), y]
        return xs[0] / y + sum(xs) / y

    program = lower(parse_function(f))
    assert program.types["xs"] == t.List(t.NUMPY_FLOAT, None)
    divisions = [s for s in ir.walk(program.body) if isinstance(s, ir.Assign) and s.op == "div"]
    assert [program.types[s.target] for s in divisions] == [t.NUMPY_FLOAT] * 2
    assert all(program.computed_by(s) == "numpy" for s in divisions)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dx, dy = symdiff.grad(f)(1.0, 0.0)
    assert dx == math.inf


def test_numpy_scalars_flow_through_joins_and_slices():
    def f(x, y):
        xs = [y, y]
        ys = xs + [np.cos(x)]
        zs = ys[1:]
        return zs[1] / y

    program = lower(parse_function(f))
    kinds = {name: program.types[name] for name in ("xs", "ys", "ys_slice")}
    assert kinds == {"xs": t.List(t.FLOAT, None), "ys": t.List(t.NUMPY_FLOAT, None),
                     "ys_slice": t.List(t.NUMPY_FLOAT, None)}
    division = next(s for s in ir.walk(program.body) if isinstance(s, ir.Assign)
                    and s.op == "div")
    assert program.computed_by(division) == "numpy"


def _array_types(fn, **kinds):
    return lower(parse_function(fn), kinds=kinds).types


def started_at_zero(x):
    z = 0.0
    scale = 0.0
    for i in range(3):
        z = z + x * i
        scale = scale + 1.0
    return np.sum(z) * scale


def test_a_number_constant_that_starts_an_array_is_that_array():
    vector = t.Array("float64", 1, ())
    types = _array_types(started_at_zero, x=vector)
    assert types["z"] == vector
    assert types["scale"] == t.FLOAT  # a number the loop keeps a number


def saved_arrays(x):
    stack = []
    for i in range(3):
        stack.append(x * i)
    y = stack.pop()
    return np.sum(y)


def test_a_list_arrays_are_appended_to_holds_arrays():
    vector = t.Array("float64", 1, ())
    types = _array_types(saved_arrays, x=vector)
    assert types["stack"] == t.List(vector)
    assert types["y"] == vector
