"""The IR evaluator runs every lowered corpus function as the function itself runs: the
same values (a container element by element, of the same structure: a tuple is a tuple,
a dict keeps its keys in order), the same arguments left behind, the same exception
types; on floats with Python's own operators, and on tape ``Value``s given the tape's
operations.

A function is lowered for the kinds of the arguments it is run at, as ``grad``
specializes on them (``specialized.container_kinds``), and run at the corpus's own
arguments: a container case's points, points drawn from a number case's domain, its bad
points, ``checks.OPTIONAL``'s calls with keyword arguments, and, for a helper no case
names, the arguments its callers pass it at their points.  A function of numbers also
runs at random numbers near 1 (small ints where its types say int), where it may raise;
a container function also as built without kinds, where symdiff builds it so (its
containers read as tables of data).  A primitive Python's operators and ``math`` do not
compute (numpy's, scipy's, ``math.fsum`` of numbers written out) is computed as its
registry record says (``evaluate.on_records``).  On ``Value``s, every case's function
runs by the tape's operations, as ``check``'s divergence locator runs it, and its
gradient is the one the tape gives running the function itself.

A function symdiff refuses to lower on its own is skipped with the refusal's class and
words and where its statements run instead (inlined in its callers, or nowhere: the
functions a corpus module calls to state its cases).
"""

import copy
import importlib
import inspect
import math
import operator
import pkgutil
import random
import sys

import pytest

import corpus
import oracles
import symdiff
import symdiff.tape as tape
from symdiff.checking.leaves import is_container, leaves, rebuild
from symdiff.checking.tape_bridge import raw, tape_op, tape_reduction
from symdiff.errors import SymdiffError
from symdiff.frontend.parse import parse_function
from symdiff.frontend.table_reads import check_tables
from symdiff.ir import evaluate
from symdiff.pipeline import lower
from symdiff.specialized import bound_instance, container_kinds

FLOATS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
    "pow": operator.pow, "floordiv": operator.floordiv, "mod": operator.mod,
    "neg": operator.neg, "pos": operator.pos, "copy": lambda a: a, "abs": abs, "max": max,
    "min": min, "float": float, "int": int, "stop_gradient": lambda a: a, "round": round,
    "logb": math.log, "roundn": round,
    "isclose": lambda a, b, rel, tol: math.isclose(a, b, rel_tol=rel, abs_tol=tol),
}


def float_ops(program):
    """Python's operators and ``math`` for what the user wrote with them; a primitive they
    do not compute (numpy's, scipy's, a function of numbers written out, a user's rule) as
    its record says (``evaluate.on_records``)."""
    by_record = evaluate.on_records(program)

    def ops(stmt):
        if stmt.family != "numpy" and stmt.call is None and stmt.op not in program.custom:
            found = FLOATS.get(stmt.op) or getattr(math, stmt.op, None)
            if found is not None:
                return found
        return by_record(stmt)
    return ops


def _modules():
    return [importlib.import_module(f"corpus.{info.name}")
            for info in pkgutil.iter_modules(corpus.__path__)]


def _stated_cases(module):
    """Every case a corpus module states, in each of its lists of cases (``CASES``, and
    those named for what they hold: ``OBJECT_CASES``, ``VALUE_CASES``), each once."""
    found = []
    for value in vars(module).values():
        if type(value) is list:
            found += [c for c in value if hasattr(c, "fn") and not any(c is f for f in found)]
    return found


def _unbound(case):
    """``(function, points)`` of a case: a bound method (``model.loss``) or a callable
    instance (``spring``) is its class's function, called with the instance first, as
    ``grad`` builds it; any other case's function is itself."""
    bound = bound_instance(case.fn)
    if bound is None:
        return case.fn, [tuple(p) for p in case.points]
    function, instance = bound
    return function, [(instance,) + tuple(p) for p in case.points]


def _functions():
    """Every function of a corpus module, and every case's function that is not one (a
    lambda of a tuple, a closure made where the case is stated, a method), named by its
    label."""
    found = []
    for module in _modules():
        named = {fn: name for name, fn in vars(module).items()
                 if inspect.isfunction(fn) and fn.__module__ == module.__name__}
        for c in _stated_cases(module):
            function = c.fn if hasattr(c, "domain") else _unbound(c)[0]
            named.setdefault(function, c.label)
        found += [pytest.param(fn, id=f"{module.__name__[7:]}.{name}")
                  for fn, name in named.items()]
    return found


def _split(fn, point):
    """``(positional arguments, keyword arguments)`` of a point that gives the keyword-only
    parameters last."""
    count = fn.__code__.co_argcount
    names = fn.__code__.co_varnames[count:count + fn.__code__.co_kwonlyargcount]
    return tuple(point[:count]), dict(zip(names, point[count:]))


def _called(fn, point, function=None):
    """``function`` (``fn`` itself by default) called at ``point``, a point of ``fn``."""
    args, kwargs = _split(fn, point)
    return (function or fn)(*args, **kwargs)


def _case_calls():
    """``{function: [(args, kwargs)]}``: the calls the corpus states for its cases."""
    calls = {}
    for module in _modules():
        for c in _stated_cases(module):
            if hasattr(c, "domain"):  # a case of numbers: points drawn from its domain
                fn, points = c.fn, oracles.sample(c, 3, "evaluate") + [tuple(p) for p in c.bad]
            else:
                fn, points = _unbound(c)
            calls.setdefault(fn, []).extend(_split(fn, p) for p in points)
        for fn, domain, kwargs, (bad, bad_kwargs) in getattr(module, "OPTIONAL", ()):
            rng = random.Random(f"evaluate:{fn.__name__}:{len(domain)}")
            calls.setdefault(fn, []).extend(
                [(tuple(rng.uniform(lo, hi) for lo, hi in domain), kwargs) for _ in range(3)]
                + [(bad, bad_kwargs)])
    return calls


def _helper_calls(calls):
    """``{function: [(args, {})]}`` for the corpus functions no case names: the arguments
    the cases' functions pass them at the cases' points (copied on entry)."""
    codes = {fn.__code__: fn for module in _modules() for fn in vars(module).values()
             if inspect.isfunction(fn) and fn not in calls}
    seen = {}

    def note(frame, event, arg):
        fn = codes.get(frame.f_code) if event == "call" else None
        if fn is not None:
            names = frame.f_code.co_varnames[:frame.f_code.co_argcount]
            seen.setdefault(fn, []).append((copy.deepcopy(tuple(frame.f_locals[n]
                                                                for n in names)), {}))

    previous = sys.getprofile()
    for fn, points in calls.items():
        for args, kwargs in points:
            args = copy.deepcopy(args)
            sys.setprofile(note)
            try:
                fn(*args, **kwargs)
            except Exception:  # a bad point: the helpers it reached are noted all the same
                pass
            finally:
                sys.setprofile(previous)
    return seen


CASE_CALLS = _case_calls()
HELPER_CALLS = _helper_calls(CASE_CALLS)


def _outcome(call, args):
    args = copy.deepcopy(args)
    try:
        return "value", call(args), args
    except Exception as exc:  # the same exception type, as the function raises it
        return "raised", type(exc), None


def _same(got, want):
    """Equal in structure exactly (types of containers, lengths, keys in order), and
    each number to rounding."""
    if isinstance(want, (list, tuple, dict)) or isinstance(got, (list, tuple, dict)):
        if type(got) is not type(want) or len(got) != len(want):
            return False
        if isinstance(want, dict):
            return list(got) == list(want) and all(_same(got[k], want[k]) for k in want)
        return all(_same(g, w) for g, w in zip(got, want))
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return got == pytest.approx(want, rel=1e-9, abs=1e-12, nan_ok=True)
    return got == want


def _random_numbers(fn, program, rng):
    """Arguments of numbers near 1 (ints where the types say int; a string, bool or None
    default as it is)."""
    args = []
    for param in program.params:
        default = inspect.signature(fn).parameters[param].default
        if isinstance(default, (str, bool)) or default is None:
            args.append(default)
        elif param in program.types and str(program.types[param]) == "int":
            args.append(rng.randint(0, 4))
        else:
            args.append(rng.uniform(0.2, 2.0))
    return tuple(args)


def _lowered(fn, kinds, called):
    """The program of ``fn`` for ``kinds``; one returning a tuple of numbers is lowered as
    forward mode reads it.  A function symdiff refuses to lower alone is skipped, saying
    why and where its statements run: inlined in the corpus functions that call it, or
    nowhere (a function the module calls to state its cases)."""
    try:
        return lower(parse_function(fn), kinds=kinds)
    except SymdiffError as exc:
        refused = exc
    try:
        return lower(parse_function(fn), kinds=kinds, forward=True)
    except SymdiffError:
        what = str(refused).partition(": ")[2].partition(" — ")[0]
        where = ("its statements run inlined in its callers" if called else
                 "called only where the module states its cases")
        pytest.skip(f"refused on purpose: {type(refused).__name__}: {what} ({where})")


def _programs(fn):
    """``[(program, calls, as tables)]``: ``fn`` lowered for each kind signature of its
    calls, with those calls; a container function also lowered without kinds where symdiff
    builds it so (reading its containers as tables of data), with the same calls; a
    function of numbers run at random numbers too."""
    by_kinds = {}
    for args, kwargs in CASE_CALLS.get(fn, []) + HELPER_CALLS.get(fn, []):
        kinds = container_kinds(fn, args, kwargs)
        by_kinds.setdefault(str(sorted(kinds.items(), key=str)), (kinds, []))[1].append(
            (args, kwargs))
    found = []
    for kinds, calls in list(by_kinds.values()) or [({}, [])]:
        program = _lowered(fn, kinds, fn in HELPER_CALLS)
        if not kinds:
            rng = random.Random(fn.__name__)
            calls = calls + [_split(fn, _random_numbers(fn, program, rng)) for _ in range(5)]
        found.append((program, calls, False))
        if kinds:
            try:
                parsed = parse_function(fn)
                at_once = lower(parsed)
                check_tables(parsed, list(at_once.tables))  # as ``pipeline.generate``
                found.append((at_once, calls, True))
            except SymdiffError:  # it reads a parameter as a container: built per kinds only
                pass
    return found


@pytest.mark.parametrize("fn", _functions())
def test_the_evaluator_computes_what_the_function_computes(fn):
    compared = 0
    for program, calls, _ in _programs(fn):
        for args, kwargs in calls:
            env = {program.kwargs: {k: v for k, v in kwargs.items() if k not in program.kwonly}
                   } if program.kwargs else {}
            env.update((k, v) for k, v in kwargs.items() if k in program.kwonly)
            want = _outcome(lambda a: fn(*a, **kwargs), args)
            got = _outcome(lambda a: evaluate.run(program, a, float_ops(program), env=env),
                           args)
            assert got[0] == want[0] and (
                _same(got[1], want[1]) if got[0] == "value" else got[1] == want[1]), (
                args, kwargs, got[:2], want[:2])
            assert got[0] == "raised" or _same(list(got[2]), list(want[2])), (
                "the arguments are left as the function leaves them", args)
            compared += 1
    assert compared


def test_checks_raise_as_the_function_does():
    def f(x):
        if x < 0:
            raise ValueError(f"x = {x!r:>8} must be positive")
        assert x < 10, f"{x:.2f} is too large"
        return x * 2.0

    program = lower(parse_function(f))
    for x in (-1.5, 3.0, 12.0):
        want = _outcome(lambda a: f(*a), (x,))[:2]
        got = _outcome(lambda a: evaluate.run(program, a, float_ops(program)), (x,))[:2]
        assert want == got
    with pytest.raises(ValueError) as caught:
        evaluate.run(program, (-1.5,), float_ops(program))
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


def _cases():
    return [pytest.param(c, id=f"{module.__name__[7:]}.{c.label}") for module in _modules()
            for c in getattr(module, "CASES", ())]


def _default_wrt(fn):
    """What ``wrt=None`` takes: the positional parameters but those defaulting to None, an
    int or a bool (all of them when that leaves none)."""
    parameters = inspect.signature(fn).parameters.values()
    positional = [p.name for p in parameters if p.kind <= p.POSITIONAL_OR_KEYWORD]
    return [p.name for p in parameters if p.name in positional and p.default is not None
            and not isinstance(p.default, int)] or positional


def _on_tape(value):
    if not is_container(value):
        return tape.Value(value)
    return rebuild(value, [tape.Value(leaf) for _, leaf in leaves(value)])


@pytest.mark.parametrize("case", _cases())
def test_on_tape_values_every_case_computes_and_differentiates_as_the_tape(case):
    """Run on ``Value``s by the tape's operations (as ``check``'s divergence locator runs
    it), every case's function gives the function's value and, backward, the gradient
    the tape gives running the function itself: at a container case's points, at two
    points of a number case's domain."""
    wrt = getattr(case, "wrt", None)
    names = _default_wrt(case.fn) if wrt is None else [wrt] if isinstance(wrt, str) else list(
        wrt)
    witness = tape.grad(case.fn, wrt=tuple(names))
    points = oracles.sample(case, 2, "tape") if hasattr(case, "domain") else case.points
    for point in points:
        program = lower(parse_function(case.fn), kinds=container_kinds(case.fn, point))
        args = [_on_tape(v) if p in names else copy.deepcopy(v)
                for p, v in zip(case.params, point)]
        out = evaluate.run(program, args, lambda stmt: tape_op(program, stmt.op), index=raw,
                           reductions=tape_reduction)
        assert raw(out) == pytest.approx(_called(case.fn, copy.deepcopy(point)), rel=1e-12,
                                         abs=1e-12)
        if isinstance(out, tape.Value):  # else a constant (the sum of an empty tail): no grad
            out.backward()
        for name, want in zip(names, _called(case.fn, copy.deepcopy(point), witness)):
            got = args[case.params.index(name)]
            got = [v.grad for _, v in leaves(got)] if is_container(got) else [got.grad]
            want = [w for _, w in leaves(want)] if is_container(want) else [want]
            assert got == pytest.approx(want, rel=1e-10, abs=1e-12), (point, name)


def scaled_sin(x, k):
    return k * math.sin(x)


symdiff.defgrad(scaled_sin, lambda x, k, out: k * math.cos(x), lambda x, k, out: math.sin(x))


def rarer_statements(p, xs, x):
    if not (x > -5.0 and x < 5.0 or x == 10.0):
        raise ValueError(f"x = {x if x > 0 else -x:.3f} is out of {(-5.0, 5.0)}, "
                         f"{[x, -x][0:1]}")
    total = math.prod(xs, start=2.0)
    for key in p["layers"]:
        total = total + scaled_sin(p["layers"][key] * x, 0.5)
    for key in reversed(p["layers"]):
        total = total * 0.5 + p["layers"][key]
    return total


def test_the_rarer_statements_and_expressions_compute_as_the_function_does():
    """A user's rule (``defgrad``) run by its own code, a loop over the keys of a dict
    inside a dict, ``math.prod`` with a ``start``, and a check's expressions (``and``,
    ``or``, a conditional, a tuple, a list and its slice): what the corpus does not hold."""
    for point in (({"layers": {"a": 0.5, "b": -1.5}}, [1.5, 0.5, 2.0], 0.7),
                  ({"layers": {"w": 2.0}}, [0.25], -1.2),
                  ({"layers": {"a": 0.5, "b": -1.5}}, [1.5], 7.0)):
        kinds = container_kinds(rarer_statements, point)
        program = lower(parse_function(rarer_statements), kinds=kinds)
        want = _outcome(lambda a: rarer_statements(*a), point)
        got = _outcome(lambda a: evaluate.run(program, a, float_ops(program)), point)
        assert got[0] == want[0] and (_same(got[1], want[1]) if got[0] == "value" else
                                      got[1] == want[1]), (point, got, want)
