"""Check: the generated gradient against three independent witnesses, and where they part.

``check(fn, *points)`` evaluates the gradient at each point four ways — the
generated code, the tape engine, sympy, central finite differences — and returns
a ``CheckReport`` (``symdiff.checking.report``).  The pipeline runs once: the gradient
is built by ``symdiff.api.build``, and the lowered program it keeps is what the
divergence locator and the rule checks read.  When the generated code and the tape
disagree, the report names the first statement of the user's source, walking back from
the result, whose chain-rule contribution differs (``symdiff.checking.locate``).  A
function with its own rule (``symdiff.defgrad``) runs by that rule in the generated code
and on the tape alike; sympy reads its code, and the rule is checked against finite
differences of it (``symdiff.checking.rules``).

A tuple, list or dict argument differentiated by gives a row per number it holds, named
by its path (``symdiff.checking.leaf_rows``); random points for it are drawn from an
``example=`` (``symdiff.checking.examples``).  A function's ``*args`` is one such
parameter, the tuple of a point's extra arguments (``symdiff.checking.gathered``).  A
point whose containers are of other kinds than the first's (another length) is checked
with the gradient built for its kinds, as ``grad`` would build it.

``wrt`` is resolved as ``grad`` resolves it (``symdiff.frontend.wrt``); left out, it is
the parameters a derivative can flow from, and the report notes the others.  A point may
leave out parameters that have defaults.  Finite differences that leave the real numbers
(``x ** y`` for ``x < 0``) are nan, and the row says so.  The sympy witness has a time
budget (``sympy_timeout`` seconds for the whole check, 5 by default); past it, its column
says ``timed out``, which is not a failure of the gradient.
"""

import copy
import functools
import inspect
import math
import time
from dataclasses import dataclass

from symdiff import tape
from symdiff.checking.array_rows import (DIRECTIONS, direction_rows, element_status,
                                        holds_arrays, summary, tape_at)
from symdiff.checking.array_rules import check_array_rules
from symdiff.checking.arrays import sampled
from symdiff.checking.examples import function_example, needs_example, random_points
from symdiff.checking.gathered import spreading
from symdiff.checking.leaf_rows import cells, finite_differences, places
from symdiff.checking.states import NoSympy, draws, from_one_state
from symdiff.checking.locate import locate_safely
from symdiff.checking.locate_arrays import locate_arrays
from symdiff.checking.report import CheckReport, Raised, Row
from symdiff.checking.rules import check_rules
from symdiff.checking.statuses import status, with_remark
from symdiff.errors import InternalError, SymdiffError
from symdiff.ir import nodes as ir
from symdiff.witnesses.deadline import TimedOut, within

SYMPY_TIMEOUT = 5.0  # seconds for the sympy witness, over all the points of one check


def check(fn, *points, wrt=None, rtol=1e-7, atol=1e-9, samples=5, domain=(0.1, 2.0), seed=0,
          kwargs=None, sympy_timeout=SYMPY_TIMEOUT, example=None, directions=DIRECTIONS):
    """Evaluate ``fn``'s gradient four ways at each point and report where they disagree.

    A point gives the positional parameters in order; those left out take their defaults.
    An argument may be a tuple, list or dict of numbers (nested), or an object (a
    namedtuple, a dataclass, an instance of a class of the user's): each number it holds
    is a row, named by its path (``xs[2]``, ``p["w"]``, ``p.w``, ``state.v[1]``).  A bound
    method (``model.loss``) or an instance with ``__call__`` is checked as its function,
    the instance the first argument of every point, by its number fields where ``wrt``
    names it (``"self"``), as ``grad`` reads it.  Without points, ``samples`` random
    ones are drawn; a parameter used as a container needs ``example=`` (a point whose
    structure they keep: its numbers are drawn from ``domain``).
    ``kwargs``: the keyword arguments every call gets (what ``**kwargs`` receives).
    ``sympy_timeout`` bounds the sympy witness's time over all the points (None: no bound).
    An argument may be a NumPy float array, alone or in a container: each element is a
    row (``W[1, 2]``; a random sample of them past ``arrays.ELEMENT_LIMIT``), and each
    array parameter has ``directions`` rows more, along random directions; sympy checks
    points whose arrays are small (``symbolic.MAX_ELEMENTS`` numbers in all).  A function
    computing with arrays needs points or ``example=`` (random points keep its arrays'
    shapes and dtypes).
    """
    from symdiff.specialized import container_kinds

    fn, instance, wrt, points, example = _as_function(fn, wrt, points, example)
    kwargs = dict(kwargs or {})
    if not points and example is None and instance is None:
        missing = needs_example(fn)
        if missing is not None:
            raise missing
        example = function_example(fn)  # its function defaults kept, where it has some

    sample = points[0] if points else example  # its containers' kinds: the build's
    sample = (instance,) if sample is None and instance is not None else sample
    kinds = container_kinds(fn, tuple(sample)) if sample is not None else None
    options = (kwargs, sympy_timeout, rtol, atol, seed, directions)
    run, report = _first_run(fn, wrt, kinds, options)
    program, names = run.program, run.names
    if not points:
        if example is not None:
            example = complete_point(fn, program.params, example)
        points = _random_points(run.user, program, names, instance, (samples, domain, seed),
                                example)
    else:
        points = [complete_point(fn, program.params, point) for point in points]
    runs = {_kinds_key(fn, points[0] if points else None): run}
    for point in points:
        key = _kinds_key(fn, point)
        if key not in runs:  # another length or structure: the gradient built for it
            runs[key] = _run(fn, wrt, container_kinds(fn, _spread(fn, point)), options,
                             run.sympy)
        _check_point(report, runs[key], point)
    return report


def _first_run(fn, wrt, kinds, options):
    """The ``_Run`` of the gradient built for ``kinds``, and the report it starts, with
    the notes on the parameters left out and on the sympy witness."""
    kwargs, sympy_timeout = options[:2]
    run = _run(fn, wrt, kinds, options, None)
    program, names = run.program, run.names
    report = CheckReport(program.name, names)
    left = [p for p in program.params if p not in names]
    flat = [p for p in left if p not in program.optional]
    if wrt is None and flat:
        report.note("not checked (no derivative flows from them): " + ", ".join(flat))
    if wrt is None and len(flat) < len(left):
        report.note("not checked (optional, None by default; name them in wrt): " + ", ".join(
            p for p in left if p in program.optional))
    run.sympy = _SympyWitness(fn, names, kwargs, sympy_timeout, report)
    if draws(program)[0]:
        run.sympy = NoSympy(names)
        report.note(NoSympy.NOTE)
    return run, report


def _run(fn, wrt, kinds, options, sympy):
    """What the points of the kinds ``kinds`` are checked with: the gradient built for
    them, the tape's, and the function, each taking a point as ``complete_point`` gives
    it; ``sympy``, the witness (one for the whole check: its time budget is shared)."""
    from symdiff.api import build

    kwargs, _, rtol, atol, seed, directions = options
    user = functools.partial(fn, **kwargs) if kwargs else fn
    gradient = build(fn, wrt, prefer="active", kinds=kinds)
    program, names = gradient.program, list(gradient.wrt_names)
    generated = _as_tuple(gradient.function) if gradient.single else gradient.function
    by_tape = tape.grad(fn, wrt=tuple(names))
    user, generated, by_tape = (spreading(from_one_state(f, program), program)
                                for f in (user, generated, by_tape))
    stops = any(isinstance(s, ir.Assign) and s.op == "stop_gradient"
                for s in ir.walk(program.body))
    return _Run(user, program, names, [program.params.index(n) for n in names], generated,
                by_tape, sympy, kwargs, stops, rtol, atol, seed, directions)


def _kinds_key(fn, point):
    """What tells apart the builds for the points of one check: the kinds of the
    containers of ``point`` (a point ``complete_point`` gave); None for no point."""
    from symdiff.specialized import container_kinds

    if point is None:
        return None
    return tuple(sorted(container_kinds(fn, _spread(fn, point)).items()))


def _spread(fn, point):
    from symdiff.specialized import spread_call
    return spread_call(inspect.signature(fn), point)


def _as_function(fn, wrt, points, example):
    """``(function, instance, wrt, points, example)``: a bound method (``model.loss``) or
    an instance with ``__call__`` checked as its function, the instance its first argument
    in every point, read as data unless ``wrt`` names it (``"self"``), as ``grad`` reads
    it; any other function as it is (instance None)."""
    from symdiff.specialized import bound_instance, method_wrt

    bound = bound_instance(fn)
    if bound is None:
        return fn, None, wrt, points, example
    function, instance = bound

    def with_instance(point):
        return (instance, *(point if isinstance(point, (tuple, list)) else (point,)))
    return (function, instance, method_wrt(function, wrt), tuple(map(with_instance, points)),
            None if example is None else with_instance(example))


def _random_points(user, program, names, instance, drawing, example):
    """Random points (``examples.random_points``); a method's instance the first argument
    of each, as it is."""
    samples, domain, seed = drawing
    optional = set(program.optional)
    if instance is None or example is not None:
        return random_points(user, program.params, names, optional, samples, domain, seed,
                             example)
    drawn = random_points(functools.partial(user, instance), program.params[1:], names,
                          optional, samples, domain, seed)
    return [(instance, *point) for point in drawn]


def fresh(point):
    """A copy of ``point`` with every container in it new: each witness gets the caller's
    values, whatever the function changes in the arguments it is passed."""
    return tuple(copy.deepcopy(value) for value in point)


@dataclass
class _Run:
    """What every point of one check is checked with."""

    user: object  # the function, with the keyword arguments every call gets
    program: object
    names: list
    indices: list
    generated: object
    by_tape: object
    sympy: object
    kwargs: dict
    stops: bool
    rtol: float
    atol: float
    seed: int
    directions: int


def _check_point(report, run, point):
    """The rows, rule problems, notes and divergence of one point, added to ``report``."""
    names, indices, kwargs = run.names, run.indices, run.kwargs
    arrays = holds_arrays(point, range(len(point)))
    gen = _attempt(run.generated, fresh(point), names, kwargs)
    tap, tape_reason = (tape_at(run.by_tape, fresh(point), names, kwargs) if arrays
                        else (_attempt(run.by_tape, fresh(point), names, kwargs), None))
    expected = _raises(run.user, fresh(point))
    if expected is not None:
        _rows_where_the_function_raises(report, point, names, indices, gen, tap, expected)
        return
    sym, sympy_status = run.sympy.at(fresh(point))
    where, sampled_note = sampled(places(point, names, indices), seed=run.seed)
    fds = finite_differences(run.user, point, where)
    problems = (check_array_rules(run.program, fresh(point), kwargs, run.seed) if arrays else
                check_rules(run.program, fresh(point), rtol=1e-5, kwargs=kwargs))
    report.rule_problems += [p for p in problems if all(
        (q.function, q.argument) != (p.function, p.argument) for q in report.rule_problems)]
    diverged = bool(problems)
    for c, (_, index, _) in zip(cells(point, names, indices, gen, tap, sym, fds, where), where):
        said = c.problem or (
            element_status(c.generated, c.tape, c.sympy, c.finite, run.rtol, run.atol,
                           point[index], bool(problems)) if arrays else
            status(c.generated, c.tape, c.sympy, c.finite, run.rtol, run.atol, bool(problems)))
        if run.stops and said == "ok (fd differs)":
            said = "ok (finite differences see through stop_gradient)"
        if sympy_status == "timed out":
            said = with_remark(said, "sympy: timed out")
        report.rows.append(Row(point, c.label, c.generated, c.tape, c.sympy, c.finite[0],
                               said, sympy_status))
        diverged |= not said.startswith("ok")
    if arrays:
        for said in summary(point, names, indices, where, sampled_note, tape_reason,
                            run.directions, sympy_status):
            report.note(said)
        rows = direction_rows(run.user, point, names, indices, gen, tap, sym, sympy_status,
                              (run.directions, run.seed, run.rtol, run.atol))
        report.rows += rows
        diverged |= any(not r.status.startswith("ok") for r in rows)
    if diverged and not any(isinstance(v, Raised) for v in gen + tap):
        found = (locate_arrays(report, run.program, names, point, kwargs) if arrays else
                 locate_safely(report, run.program, names, point, run.rtol, run.atol, kwargs))
        if found is not None and all((d.lineno, d.argument) != (found.lineno, found.argument)
                                     for d in report.divergences):
            report.divergences.append(found)


def _as_tuple(function):
    """A gradient of one parameter (a bare float) as a gradient giving a 1-tuple."""
    return lambda *args, **kwargs: (function(*args, **kwargs),)


def _attempt(gradient, point, names, kwargs):
    """The gradient at ``point`` as a tuple, or one ``Raised`` per parameter."""
    try:
        return tuple(gradient(*point, **kwargs))
    except InternalError:
        raise
    except Exception as exc:  # reported in the table, next to what the function does
        return (Raised(type(exc)),) * len(names)


def _raises(fn, point):
    """The class of the exception ``fn`` raises at ``point``, or None."""
    try:
        fn(*point)
    except InternalError:  # a function that calls symdiff may meet our bug: never its own
        raise
    except Exception as exc:
        return type(exc)
    return None


def _rows_where_the_function_raises(report, point, names, indices, gen, tap, expected):
    """Where ``fn`` raises, the gradient must raise the same (nothing else to compare)."""
    nothing = [(math.nan, "undefined")] * len(places(point, names, indices))
    for c in cells(point, names, indices, gen, tap, (None,) * len(names), nothing):
        if isinstance(c.generated, Raised) and c.generated.kind is expected:
            said = f"ok (the function raises {expected.__name__} here, and so does the gradient)"
        else:
            gave = c.generated if isinstance(c.generated, Raised) else "gives a number"
            said = f"generated {gave} where the function raises {expected.__name__}"
        report.rows.append(Row(point, c.label, c.generated, c.tape, None, math.nan, said,
                               "not used"))


def complete_point(fn, params, point):
    """``point`` as a tuple with a value for every parameter: defaults fill in the rest,
    and the arguments ``*args`` gathers are one tuple, the value of its parameter (each
    extra argument a row of its own, ``args[0]``, as a tuple parameter's are)."""
    point = tuple(point) if isinstance(point, (tuple, list)) else (point,)
    if len(point) >= len(params) and not getattr(
            getattr(fn, "__code__", None), "co_flags", 0) & inspect.CO_VARARGS:
        return point
    try:
        bound = inspect.signature(fn).bind(*point)
    except TypeError as exc:
        raise ValueError(f"the point {point} gives {len(point)} values for the parameters "
                         f"({', '.join(params)}): {exc}") from None
    bound.apply_defaults()
    return tuple(bound.arguments[p] for p in params)


class _SympyWitness:
    """The sympy witness at each point, within one time budget for the whole check."""

    def __init__(self, fn, names, kwargs, budget, report):
        self.fn, self.names, self.budget, self.report = fn, tuple(names), budget, report
        self.kwargs = kwargs
        self.deadline = None if budget is None else time.monotonic() + budget
        self.timed_out = False

    def at(self, point):
        """(the derivatives, or Nones; "ok", "not used" or "timed out")."""
        from symdiff.witnesses.symbolic import evaluate_grad

        nothing = (None,) * len(self.names)
        if self.timed_out:
            return nothing, "timed out"
        left = None if self.deadline is None else self.deadline - time.monotonic()
        try:
            return within(left, evaluate_grad, self.fn, point, wrt=self.names,
                          kwargs=self.kwargs), "ok"
        except TimedOut:
            self.timed_out = True
            self.report.note(f"sympy: timed out (its budget is {self.budget:g} s per check; "
                             "give check() sympy_timeout= for more)")
            return nothing, "timed out"
        except SymdiffError as exc:
            self.report.note(f"sympy not used: {exc.message}")
            return nothing, "not used"
        except InternalError:
            raise
        except Exception as exc:  # the function does not raise here (checked first): what
            # the witness cannot compute is a column left out, with why
            self.report.note(f"sympy not used: it raised {type(exc).__name__}: {exc}")
            return nothing, "not used"
