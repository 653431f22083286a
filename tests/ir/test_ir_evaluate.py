"""The IR evaluator runs every lowered corpus function as the function itself runs
(same values, same exceptions), on floats with Python's own operators, and on tape
``Value``s given the tape's operations."""

import importlib
import inspect
import math
import operator
import pkgutil
import random

import pytest

import corpus
import symdiff.tape as tape
from symdiff.errors import SymdiffError
from symdiff.frontend.parse import parse_function
from symdiff.ir import evaluate
from symdiff.pipeline import lower

FLOATS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
    "pow": operator.pow, "floordiv": operator.floordiv, "mod": operator.mod,
    "neg": operator.neg, "pos": operator.pos, "copy": lambda a: a, "abs": abs, "max": max,
    "min": min, "float": float, "int": int, "stop_gradient": lambda a: a, "round": round,
    "logb": math.log, "roundn": round,
    "isclose": lambda a, b, rel, tol: math.isclose(a, b, rel_tol=rel, abs_tol=tol),
}


def float_op(stmt):
    return FLOATS.get(stmt.op) or getattr(math, stmt.op)


def _functions():
    found = []
    for info in pkgutil.iter_modules(corpus.__path__):
        module = importlib.import_module(f"corpus.{info.name}")
        for name, fn in vars(module).items():
            if inspect.isfunction(fn) and fn.__module__ == module.__name__:
                found.append(pytest.param(fn, id=f"{info.name}.{name}"))
    return found


def _outcome(call):
    try:
        return "value", call()
    except Exception as exc:  # the same exception type, as the function raises it
        return "raised", type(exc)


@pytest.mark.parametrize("fn", _functions())
def test_the_evaluator_computes_what_the_function_computes(fn):
    try:
        program = lower(parse_function(fn))
    except SymdiffError:
        pytest.skip("not lowered (refused on purpose)")
    if program.kwargs or program.tables or any(not hasattr(math, s.op) and s.op not in FLOATS
                                               for s in _assigns(program)):
        pytest.skip("reads a table or a primitive outside math")
    rng = random.Random(fn.__name__)
    signature = inspect.signature(fn)
    for _ in range(5):
        args = []
        for param in program.params:
            default = signature.parameters[param].default
            if isinstance(default, (str, bool)) or default is None:
                args.append(default)
            elif param in program.types and str(program.types[param]) == "int":
                args.append(rng.randint(0, 4))
            else:
                args.append(rng.uniform(0.2, 2.0))
        want = _outcome(lambda: fn(*args))
        got = _outcome(lambda: evaluate.run(program, args, float_op))
        if want[0] == "value" and got[0] == "value":
            assert got[1] == pytest.approx(want[1], rel=1e-9, abs=1e-12, nan_ok=True)
        else:
            assert got == want


def _assigns(program):
    from symdiff.ir import nodes as ir

    return [s for s in ir.walk(program.body) if isinstance(s, ir.Assign)]


def test_checks_raise_as_the_function_does():
    def f(x):
        if x < 0:
            raise ValueError(f"x = {x!r:>8} must be positive")
        assert x < 10, f"{x:.2f} is too large"
        return x * 2.0

    program = lower(parse_function(f))
    for x in (-1.5, 3.0, 12.0):
        want, got = _outcome(lambda: f(x)), _outcome(lambda: evaluate.run(program, (x,),
                                                                           float_op))
        assert want == got
    with pytest.raises(ValueError) as caught:
        evaluate.run(program, (-1.5,), float_op)
    assert str(caught.value) == "x =     -1.5 must be positive"


def test_on_tape_values_with_the_tape_operations():
    def f(x, y):
        s = 0.0
        for i in range(3):
            s = s + math.sin(x * i) * y
            if s > 2.0:
                break
        return s

    program = lower(parse_function(f))
    tape_ops = {"add": operator.add, "mul": operator.mul, "copy": lambda a: a}
    seen = []
    x, y = tape.Value(0.7), tape.Value(1.3)
    out = evaluate.run(program, (x, y), lambda s: tape_ops.get(s.op) or getattr(tape, s.op),
                       observe=lambda stmt, value, args: seen.append(stmt.sid),
                       index=lambda v: v.data if isinstance(v, tape.Value) else v)
    out.backward()
    assert out.data == pytest.approx(f(0.7, 1.3))
    assert x.grad == pytest.approx(tape.grad(f, wrt=("x", "y"))(0.7, 1.3)[0])
    assert seen and all(isinstance(sid, int) for sid in seen)
