"""Gradients of functions over tuples, lists and dicts: ``corpus/containers.py``,
``corpus/tangent_lists.py``, ``corpus/joins.py``, ``corpus/branch_local.py`` and
``corpus/control_lists.py`` and ``corpus/arguments.py`` against three witnesses, leaf by
leaf.

For every function, at every one of its points:

- each function runs in plain Python, returns a number and leaves its arguments as they
  were (nothing of symdiff is needed for that);
- ``symdiff.grad(f, wrt=...)`` has the structure of the parameters it differentiates by,
  exactly (a tuple for a tuple, a list for a list, a dict with the same keys in the same
  order, nested alike, a float at every leaf, an int argument's too), and agrees leaf by
  leaf with the tape (``symdiff.tape.grad``), with sympy
  (``symdiff.witnesses.symbolic.evaluate_grad``) and with central finite differences
  (``oracles.finite_difference``: one Richardson step per leaf, skipped near a kink of a
  ``kinky`` function);
- a vector-Jacobian check (``oracles.vjp_mismatch``, as autograd's ``check_vjp``): for a
  random direction ``v`` over all differentiated leaves, ``<gradient, v>`` against the
  numerical derivative of ``t -> f(x + t v)`` at 0;
- the witnesses alone: the tape, sympy and finite differences agree among themselves,
  with the same structure, whatever symdiff generates.

``PENDING`` lists the functions whose generated gradient is not right yet and
``WITNESSES_PENDING`` those the witnesses do not read yet: each test of theirs is an
``xfail(strict=True)``, so it fails the day it starts passing, and the name is removed.
"""

import contextlib
import copy
import inspect
import math
import numbers
import random
from functools import lru_cache

import pytest

import symdiff
import symdiff.tape
from symdiff.checking.leaves import leaves, path_text
from symdiff.witnesses.symbolic import evaluate_grad

try:
    import oracles
    from corpus import (arguments, branch_local, containers, control_lists, joins,
                        tangent_lists)
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests import oracles
    from tests.corpus import (arguments, branch_local, containers, control_lists, joins,
                              tangent_lists)



CASES = {f"{module.__name__.rpartition('.')[2]}.{c.label}": c
         for module in (containers, tangent_lists, joins, branch_local, control_lists, arguments)
         for c in module.CASES}

# Functions whose generated gradient does not pass yet.
PENDING = set()

# Functions the witnesses (the tape, sympy, finite differences per leaf) do not read yet.
WITNESSES_PENDING = set()

FD_TOLERANCE = 1e-7      # relative, against the Richardson estimate
EXACT_TOLERANCE = 1e-10  # relative, symdiff against the tape (sympy: 100 times that)


def ids(pending):
    """pytest parameters: every case id, an ``xfail(strict=True)`` where ``pending``."""
    return [pytest.param(case_id, id=case_id, marks=[pytest.mark.xfail(
        strict=True, reason="containers: not supported yet")] if case_id in pending else [])
            for case_id in CASES]


def test_the_pending_sets_name_corpus_functions():
    assert PENDING <= set(CASES) and WITNESSES_PENDING <= set(CASES)


def test_the_corpus_is_large_enough():
    corpora = (containers, tangent_lists, joins, branch_local, control_lists, arguments)
    assert len(containers.CASES) >= 70 and len(CASES) == sum(len(m.CASES) for m in corpora)


# --- the parameters differentiated, and the gradient's shape ------------------------------

def chosen(case):
    """(names of the parameters differentiated, whether the gradient is one of them alone):
    every parameter by default, else as ``wrt`` names them."""
    if case.wrt is None:
        names = defaulted_wrt(case)
        return names, len(names) == 1
    if isinstance(case.wrt, str):
        return [case.wrt], True
    return list(case.wrt), False


def keywords(case):
    """The keyword-only parameters of ``case.fn``: the last of ``case.params``."""
    return case.params[case.fn.__code__.co_argcount:]


def split(case, point):
    """(the positional arguments, the keyword arguments) of ``point``."""
    count = case.fn.__code__.co_argcount
    return tuple(point[:count]), dict(zip(keywords(case), point[count:]))


def call(case, function, point):
    """``function`` called at ``point``: its last values by name (``keywords``)."""
    args, kwargs = split(case, point)
    return function(*args, **kwargs)


def positional(case):
    """``case.fn`` taking every parameter by position (what finite differences move)."""
    if not keywords(case):
        return case.fn

    def fn(*point):
        return call(case, case.fn, point)
    return fn


def defaulted_wrt(case):
    """The parameters ``wrt=None`` differentiates by: the positional ones but those whose
    default is None, an int or a bool; all of them when that leaves none."""
    positional = case.params[:len(case.params) - len(keywords(case))]
    defaults = {name: p.default for name, p in inspect.signature(case.fn).parameters.items()}
    chosen = [p for p in positional if defaults[p] is not None
              and not isinstance(defaults[p], int)]
    return chosen or list(positional) or list(case.params)


def per_parameter(case, gradient):
    """``[(name, its gradient)]`` from a gradient shaped as ``symdiff.grad`` shapes it."""
    names, single = chosen(case)
    if single:
        return [(names[0], gradient)]
    assert type(gradient) is tuple and len(gradient) == len(names), (
        f"a tuple of {len(names)} gradients expected, got {gradient!r}")
    return list(zip(names, gradient))


def assert_shaped(gradient, like, name):
    """``gradient`` has the structure of the argument ``like`` exactly (``same_structure``),
    and a float at every leaf, an int argument's leaf too."""
    oracles.same_structure(gradient, like, name)
    for path, leaf in leaves(gradient):
        assert type(leaf) is float, f"{path_text(name, path)}: a float expected, got {leaf!r}"


def flat_leaves(case, point, gradient):
    """``[(path text, where, leaf)]`` of a gradient at ``point``, its structure checked;
    ``where`` is ``(index, *path)`` as ``oracles.finite_difference`` takes it."""
    found = []
    for name, g in per_parameter(case, gradient):
        i = case.params.index(name)
        assert_shaped(g, point[i], name)
        found += [(path_text(name, path), (i, *path) if path else i, leaf)
                  for path, leaf in leaves(g)]
    return found


# --- the gradients, the witnesses' once per point ---------------------------------------

@contextlib.contextmanager
def refusal_fails(who):
    """A ``SymdiffError`` fails the test with its located message alone (a refusal needs
    no traceback, and formatting hundreds of deep ones would cost the module seconds)."""
    try:
        yield
    except symdiff.SymdiffError as error:
        pytest.fail(f"{who} refuses: {type(error).__name__}: {error}", pytrace=False)


@lru_cache(maxsize=None)
def generated_gradient(case_id, k):
    case = CASES[case_id]
    with refusal_fails("symdiff"):
        return call(case, symdiff.grad(case.fn, wrt=case.wrt), case.points[k])


@lru_cache(maxsize=None)
def tape_gradient(case_id, k):
    case = CASES[case_id]
    with refusal_fails("the tape"):
        return call(case, symdiff.tape.grad(case.fn, wrt=case.wrt), case.points[k])


@lru_cache(maxsize=None)
def sympy_gradient(case_id, k):
    case = CASES[case_id]
    with refusal_fails("sympy"):
        args, kwargs = split(case, case.points[k])
        return evaluate_grad(case.fn, args, wrt=case.wrt, kwargs=kwargs)


@lru_cache(maxsize=None)
def finite_difference(case_id, k, where):
    """(Richardson estimate, spread of its two steps) of the derivative by one number."""
    case = CASES[case_id]
    return oracles.finite_difference(positional(case), case.points[k], where)


def disagreements(case, point, got, want, label, tolerance):
    """Leaves where two structured gradients differ beyond ``tolerance`` (relative)."""
    got, want = flat_leaves(case, point, got), flat_leaves(case, point, want)
    scale = max([1.0] + [abs(w) for _, _, w in want])
    return [f"at {point!r} d/d{path}: {g!r}, {label} {w!r}"
            for (path, _, g), (_, _, w) in zip(got, want)
            if not abs(g - w) <= tolerance * abs(w) + 1e-3 * tolerance * scale]


def against_finite_differences(case_id, k, got):
    """Leaves where a structured gradient and finite differences differ."""
    case = CASES[case_id]
    point = case.points[k]
    value = call(case, case.fn, point)
    failures = []
    for path, where, g in flat_leaves(case, point, got):
        estimate, spread = finite_difference(case_id, k, where)
        if case.kinky and spread > 1e-5 * (1.0 + abs(estimate)):
            continue  # a branch changes within two steps
        tolerance = FD_TOLERANCE * max(abs(estimate), abs(g)) + 1e-9 * (1.0 + abs(value))
        if not abs(g - estimate) <= tolerance:
            failures.append(f"at {point!r} d/d{path}: {g!r}, finite differences {estimate!r}")
    return failures


def vjp_mismatch(case_id, k, got):
    """``oracles.vjp_mismatch`` along a direction seeded by the case and the point."""
    case = CASES[case_id]
    point = case.points[k]
    flat_leaves(case, point, got)  # the structure first
    wrt = [case.params.index(name) for name, _ in per_parameter(case, got)]
    return oracles.vjp_mismatch(positional(case), [g for _, g in per_parameter(case, got)],
                                point, wrt, random.Random(f"{case_id}:{k}"))


# --- plain Python -----------------------------------------------------------------------

@pytest.mark.parametrize("case_id", list(CASES))
def test_runs_in_plain_python(case_id):
    """A number at every point, the arguments untouched (so every run sees the same)."""
    case = CASES[case_id]
    for point in case.points:
        before = copy.deepcopy(point)
        value = call(case, case.fn, point)
        assert isinstance(value, numbers.Real) and not isinstance(value, bool), value
        assert math.isfinite(value), value
        assert repr(point) == repr(before), f"{case.label} changed its arguments"


# --- symdiff against the witnesses ------------------------------------------------------

@pytest.mark.parametrize("case_id", ids(PENDING))
def test_gradient(case_id):
    case = CASES[case_id]
    failures = []
    for k, point in enumerate(case.points):
        got = generated_gradient(case_id, k)
        failures += disagreements(case, point, got, tape_gradient(case_id, k), "tape",
                                  EXACT_TOLERANCE)
        if case.symbolic:
            failures += disagreements(case, point, got, sympy_gradient(case_id, k), "sympy",
                                      100 * EXACT_TOLERANCE)
        failures += against_finite_differences(case_id, k, got)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("case_id", ids(PENDING))
def test_unoptimized_gradient_is_the_same(case_id):
    """The code as generated, before the optimizer, gives the optimized gradient's numbers
    (the optimizer's rewrites are exact) and its structure."""
    case = CASES[case_id]
    for k, point in enumerate(case.points):
        with refusal_fails("symdiff, unoptimized"):
            raw = call(case, symdiff.grad(case.fn, wrt=case.wrt, optimize=False), point)
        failures = disagreements(case, point, raw, generated_gradient(case_id, k),
                                 "the optimized gradient", EXACT_TOLERANCE)
        assert not failures, "\n".join(failures)


@pytest.mark.parametrize("case_id", ids(PENDING))
def test_vector_jacobian_product(case_id):
    failures = [vjp_mismatch(case_id, k, generated_gradient(case_id, k))
                for k in range(len(CASES[case_id].points))]
    failures = [f for f in failures if f]
    assert not failures, "\n".join(failures)


# --- the witnesses among themselves -----------------------------------------------------

@pytest.mark.parametrize("case_id", ids(WITNESSES_PENDING))
def test_witnesses_agree(case_id):
    case = CASES[case_id]
    failures = []
    for k, point in enumerate(case.points):
        tape = tape_gradient(case_id, k)
        if case.symbolic:
            failures += disagreements(case, point, sympy_gradient(case_id, k), tape, "tape",
                                      100 * EXACT_TOLERANCE)
        failures += against_finite_differences(case_id, k, tape)
        failures.append(vjp_mismatch(case_id, k, tape))
    failures = [f for f in failures if f]
    assert not failures, "\n".join(failures)
