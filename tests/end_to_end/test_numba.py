"""Gradients compiled with numba (``jit="numba"``) over the scalar corpus.

Every function of ``corpus/straight``, ``control``, ``lambdas``, ``nested``, ``checks`` and
``special`` and of ``golden_cases``:

- its gradient written for numba, run as plain Python, gives the Python gradient's
  numbers bit for bit at the corpus points (the save stack split into one list per type
  and the reversed ranges change no value; no numba needed);
- compiled with ``numba.njit``, it gives the same numbers at the same points to the last
  bit, or (where the text computes a power or calls NumPy on a number, which numba rounds
  its own way) within ``RELATIVE`` (a last-bit difference, grown by the derivative's own
  cancellations: ``1 - tanh(x) ** 2``); or numba's refusal is an
  ``UnsupportedSyntaxError`` at a real line of the function (or of a helper it calls).

The functions of containers (``corpus/containers``, ``tangent_lists``, ``joins``,
``branch_local``, ``control_lists``, ``arguments``) the same way, compiled for the kinds
of each of their points.

Compiling takes 0.2-1 s a function: the default run compiles a fixed sample of
``SAMPLE`` cases; the whole corpus runs with ``SYMDIFF_SLOW=1`` (``-m slow`` selects it).
"""

import ast
import hashlib
import inspect
import math
import os
import random
import struct
import types

import pytest

import symdiff
from symdiff.api import build
from symdiff.backend.compile import compile_module
from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.frontend.parse import parse_function
from symdiff.pipeline import generate
from symdiff.specialized import container_kinds

try:
    import golden_cases
    from corpus import (arguments, branch_local, checks, containers, control,
                        control_lists, joins, lambdas, nested, special, straight,
                        tangent_lists)
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import golden_cases
    from tests.corpus import (arguments, branch_local, checks, containers, control,
                              control_lists, joins, lambdas, nested, special, straight,
                              tangent_lists)

try:
    import numba
except ImportError:
    numba = None

needs_numba = pytest.mark.skipif(
    numba is None, reason="jit='numba' needs numba: pip install -e '.[test,numba]'")
slow = (pytest.mark.slow, pytest.mark.skipif(
    os.environ.get("SYMDIFF_SLOW") != "1",
    reason="numba compiling the whole corpus takes minutes: run with SYMDIFF_SLOW=1"))

POINTS = 20  # as the end-to-end corpus test draws them
GOLDEN_DOMAIN = (0.2, 1.5)
SAMPLE = 10
RELATIVE = 1e-12  # how far numba's powers and NumPy calls may take a derivative


def _corpus():
    found = [(f"{m.__name__.rpartition('.')[2]}.{c.label}", c.fn, c.domain, c.points)
             for m in (straight, control, lambdas, nested, checks, special) for c in m.CASES]
    found += [(f"golden.{fn.__name__}", fn, (GOLDEN_DOMAIN,) * fn.__code__.co_argcount, None)
              for fn in golden_cases.CASES]
    return found


CASES = _corpus()
SAMPLED = sorted(CASES, key=lambda c: hashlib.sha1(c[0].encode()).hexdigest())[:SAMPLE]


def points(case_id, domain, count):
    """The corpus points of ``test_end_to_end``: seeded by the case's name, inside its
    domain with a 1% margin."""
    rng = random.Random(case_id)
    return [tuple(lo + (hi - lo) * (0.01 + 0.98 * rng.random()) for lo, hi in domain)
            for _ in range(count or POINTS)]


def outcome(function, point):
    """What a call gives: its value, or the type of the exception it raises."""
    try:
        return function(*point)
    except Exception as error:  # the same exception is the same outcome
        return ("raises", type(error).__name__)


def bits(value):
    if isinstance(value, (tuple, list)):
        return (type(value).__name__,) + tuple(bits(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, bits(v)) for k, v in value.items())
    if isinstance(value, float):
        return "nan" if math.isnan(value) else struct.pack("<d", value).hex()
    return (type(value).__name__, repr(value))


def close(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(close(x, y) for x, y in zip(a, b)))
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return a == b
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return bits(float(a)) == bits(float(b))
    return math.isclose(a, b, rel_tol=RELATIVE, abs_tol=RELATIVE * 1e-3)


def rounds_its_own_way(source, scope):
    """Whether the text computes a power or calls NumPy: numba writes ``x ** 2`` as
    ``x * x``, a whole power as multiplications, and NumPy's functions on a number with
    the C library's, so these may differ from Python's in the last bit."""
    numpy_names = {n for n, v in scope.items()
                   if isinstance(v, types.ModuleType) and v.__name__.startswith("numpy")}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                node.value.id in numpy_names) and node.attr not in EXACT_NUMPY:
            return True
    return False


# what the numba target calls NumPy for that computes no number its own way: buffers,
# positions, and products and remainders, which numba computes as Python does
EXACT_NUMPY = ("empty", "int64", "bool_", "arange", "argsort", "array", "prod", "fmod")


@pytest.mark.parametrize("case_id, fn, domain, count", CASES, ids=[c[0] for c in CASES])
def test_the_text_for_numba_runs_as_python_with_the_same_bits(case_id, fn, domain, count):
    """No numba here: the numba text, run by Python, is the Python gradient."""
    parsed = parse_function(fn)
    try:
        built = generate(parsed, target="numba")
    except SymdiffError as refused:
        assert_located(refused, fn)
        return
    assert "reversed(" not in built.source and "push, pop" not in built.source
    python = build(fn).function
    as_numba = compile_module(built.source, built.function.name, built.program.namespace,
                              parsed.filename, "numba text", built.module)
    for point in points(case_id, domain, count):
        assert bits(outcome(as_numba, point)) == bits(outcome(python, point)), point


CONTAINER_CASES = {f"{m.__name__.rpartition('.')[2]}.{c.label}": c
                   for m in (containers, tangent_lists, joins, branch_local, control_lists,
                             arguments) for c in m.CASES}


@pytest.mark.parametrize("case_id", list(CONTAINER_CASES))
def test_the_container_corpus_text_for_numba_runs_as_python_with_the_same_bits(case_id):
    """The same for the functions of containers, at their points, for their kinds; a
    construct the numba target cannot take (a loop over a dict's keys) is refused at
    its line."""
    case = CONTAINER_CASES[case_id]
    parsed = parse_function(case.fn)
    python = symdiff.grad(case.fn, wrt=case.wrt)
    count = case.fn.__code__.co_argcount
    for point in case.points:
        args, kwargs = point[:count], dict(zip(case.params[count:], point[count:]))
        try:
            built = generate(parsed, case.wrt, target="numba",
                             kinds=container_kinds(case.fn, args, kwargs))
        except SymdiffError as refused:
            assert_located(refused, case.fn)
            continue
        as_numba = compile_module(built.source, built.function.name,
                                  built.program.namespace, parsed.filename, "numba text",
                                  built.module)
        got = outcome(lambda *a: as_numba(*a, **kwargs), args)
        assert bits(got) == bits(outcome(lambda *a: python(*a, **kwargs), args)), point


def compiled_against_python(case_id, fn, domain, count):
    try:
        compiled = symdiff.grad(fn, jit="numba")
    except SymdiffError as refused:
        assert_located(refused, fn)
        return "refused"
    python = symdiff.grad(fn)
    exact = not rounds_its_own_way(compiled.source, build(fn).function.__globals__)
    for point in points(case_id, domain, count):
        want, got = outcome(python, point), outcome(compiled, point)
        if exact:
            assert bits(got) == bits(want), (point, got, want)
        else:
            assert close(got, want), (point, got, want)
    return "exact" if exact else "close"


def assert_located(refused, fn):
    """A refusal names a real line of the function's file (or of a helper's), quotes it
    and points into it."""
    assert isinstance(refused, UnsupportedSyntaxError), refused
    assert refused.filename is not None and refused.lineno is not None, refused
    assert os.path.exists(refused.filename), refused
    lines, start = inspect.getsourcelines(fn)
    if refused.filename == inspect.getsourcefile(fn) and not (
            start <= refused.lineno < start + len(lines)):
        helper_lines = open(refused.filename, encoding="utf-8").read().splitlines()
        assert refused.lineno <= len(helper_lines), refused  # a helper of the module
    assert refused.source_line and refused.col_offset is not None, refused
    assert "numba" in refused.message, refused


@needs_numba
@pytest.mark.parametrize("case_id, fn, domain, count", SAMPLED, ids=[c[0] for c in SAMPLED])
def test_a_sample_compiled_gives_the_python_numbers(case_id, fn, domain, count):
    compiled_against_python(case_id, fn, domain, count)


@needs_numba
@slow[0]
@slow[1]
def test_the_whole_corpus_compiled_gives_the_python_numbers():
    found, failed = {}, []
    for case in CASES:
        try:
            found[case[0]] = compiled_against_python(*case)
        except AssertionError as error:
            failed.append(f"{case[0]}: {error}")
    assert not failed, "\n".join(failed)
    assert list(found.values()).count("refused") < len(found) / 4, found


def container_compiled_against_python(case_id):
    """The container case compiled for the kinds of each of its points: the Python
    gradient's numbers (bit for bit, or within ``RELATIVE`` where the text has a power or
    a NumPy call on a number), or a refusal located at a line of the function."""
    case = CONTAINER_CASES[case_id]
    count = case.fn.__code__.co_argcount
    python = symdiff.grad(case.fn, wrt=case.wrt)
    try:
        compiled = symdiff.grad(case.fn, wrt=case.wrt, jit="numba")
        found = []
        for point in case.points:
            args, kwargs = point[:count], dict(zip(case.params[count:], point[count:]))
            got = outcome(lambda *a: compiled(*a, **kwargs), args)
            want = outcome(lambda *a: python(*a, **kwargs), args)
            source = generate(parse_function(case.fn), case.wrt, target="numba",
                              kinds=container_kinds(case.fn, args, kwargs)).source
            if rounds_its_own_way(source, case.fn.__globals__):
                assert close(as_tuples(got), as_tuples(want)), (point, got, want)
                found.append("close")
            else:
                assert bits(got) == bits(want), (point, got, want)
                found.append("exact")
    except SymdiffError as refused:
        assert_located(refused, case.fn)
        return "refused"
    return "close" if "close" in found else "exact"


def as_tuples(value):
    return tuple(as_tuples(v) for v in value) if isinstance(value, (list, tuple)) else value


CONTAINER_SAMPLE = sorted(CONTAINER_CASES, key=lambda c: hashlib.sha1(c.encode()).hexdigest()
                          )[:SAMPLE]


@needs_numba
@pytest.mark.parametrize("case_id", CONTAINER_SAMPLE)
def test_a_sample_of_the_container_corpus_compiled_gives_the_python_numbers(case_id):
    container_compiled_against_python(case_id)


@needs_numba
@slow[0]
@slow[1]
def test_the_whole_container_corpus_compiled_gives_the_python_numbers():
    """Every container function: compiled with the Python numbers, or refused at its
    line; the dict parameters (numba takes no dict from Python) apart, most compile."""
    found, failed = {}, []
    for case_id in CONTAINER_CASES:
        try:
            found[case_id] = container_compiled_against_python(case_id)
        except AssertionError as error:
            failed.append(f"{case_id}: {error}")
    assert not failed, "\n".join(failed)
    assert list(found.values()).count("refused") < len(found) / 3, found


@needs_numba
def test_most_of_the_corpus_compiles():
    """The sample is not all refusals (numba compiles the math the corpus mostly uses)."""
    found = [compiled_against_python(*case) for case in SAMPLED]
    assert found.count("refused") < len(found) / 2, found
