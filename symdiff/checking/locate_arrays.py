"""Locate in array code: the user's line whose array adjoint differs, by finite differences.

Expects the lowered ``Program`` a gradient was built from, the parameters differentiated
by and a point whose arguments hold NumPy arrays (the tape engine, which the scalar
locator ``symdiff.checking.locate`` runs the statements on, may not take arrays).
Guarantees the first statement, walking back from the result as the reverse sweep does,
whose chain-rule contribution to one of its arguments differs from what finite
differences give, or None when every one checked agrees:

- the generated code runs instrumented (``differentiate(record=True)``): per statement,
  argument and execution, the contribution ``c`` it adds to that argument's adjoint;
- the witness knows no derivative: the program runs on the IR evaluator with each
  primitive as generated code computes its value (``ir.evaluate.on_records``), once more
  with that one argument of that one execution moved by ``t u`` (``u`` a seeded random
  direction of its shape), and the central difference in ``t`` of the result is the true
  ``<c, u>`` for the adjoint that flows into the statement.  Walking back from the
  result, the first contribution that differs is where a wrong rule first shows.

At most ``LIMIT`` contributions are checked (four runs of the program each); the
program is read, never changed.
"""

import math
import numbers


from symdiff.checking.arrays import is_float_array
from symdiff.checking.interpret import keywords
from symdiff.checking.locate import recorded_contributions
from symdiff.checking.report import Divergence
from symdiff.errors import InternalError, SymdiffError
from symdiff.ir import nodes as ir
from symdiff.ir.evaluate import on_records, run
from symdiff.witnesses.finite import precision
from symdiff.checking.arrays import numpy

LIMIT = 60  # contributions checked per point


def locate_arrays(report, program, names, point, kwargs, seed=0):
    """``locate_by_differences``, or None with a note where it cannot run."""
    try:
        return locate_by_differences(program, names, point, kwargs or {}, seed, report)
    except InternalError:
        raise
    except (ArithmeticError, ValueError, TypeError, IndexError, SymdiffError) as exc:
        report.note(f"the differing statement was not located: {type(exc).__name__}: {exc}")
        return None


def locate_by_differences(program, names, point, kwargs, seed=0, report=None):
    """The first statement, walking back from the result, whose contribution differs."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    records = recorded_contributions(program, names, point, kwargs)
    executions = _forward_arguments(program, point, kwargs)
    rng = np.random.default_rng(seed)
    seen, checked = {}, 0
    for sid, arg, value in records:
        k = seen.get((sid, arg), 0)
        seen[(sid, arg)] = k + 1
        runs = executions.get(sid, [])
        if k >= len(runs) or not _numeric(value):
            continue
        execution = len(runs) - 1 - k
        here = runs[execution][arg]
        if not (is_float_array(here) or _float(here)):
            continue
        if checked == LIMIT:
            if report is not None:
                report.note(f"the locator checked the first {LIMIT} contributions only")
            return None
        checked += 1
        u = rng.standard_normal(np.shape(here)).astype(np.asarray(here).dtype)
        generated = float(np.sum(np.asarray(value, dtype=np.float64) * u))
        expected, steady = _moved_result(program, point, kwargs, (sid, execution, arg),
                                         here, u)
        _, rtol, atol = precision(np.asarray(here).flat[0] if np.ndim(here) else here)
        rtol, atol = max(rtol, 1e-4), max(atol, 1e-6) * max(1.0, abs(expected))
        if steady and abs(generated - expected) > atol + rtol * max(abs(generated),
                                                                    abs(expected)):
            return _divergence(program, sid, arg, generated, expected, point)
    return None


def _numeric(value):
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    return isinstance(value, (np.ndarray, numbers.Real)) and not isinstance(value, bool)


def _float(value):
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, int))


def _forward_arguments(program, point, kwargs):
    """Per statement id, the operands' values of each execution (arrays copied)."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    found = {}

    def observe(stmt, out, args):
        found.setdefault(stmt.sid, []).append(
            [a.copy() if isinstance(a, np.ndarray) else a for a in args])
    run(program, point, on_records(program), env=keywords(program, kwargs), observe=observe)
    return found


def _moved_result(program, point, kwargs, where, here, u):
    """(d/dt of the result with that operand moved by ``t u``, whether it is steady)."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    step, rtol, atol = precision(np.asarray(here).flat[0] if np.ndim(here) else here)
    size = max(1.0, float(np.max(np.abs(here))) if np.size(here) else 1.0)

    def at(h):
        h = h * size
        up = _result(program, point, kwargs, where, h * u)
        down = _result(program, point, kwargs, where, -h * u)
        return (up - down) / (2 * h)
    first, second = at(step), at(step / 4)
    if math.isnan(first) or math.isnan(second):
        return first, False
    return first, abs(first - second) <= atol + rtol * max(abs(first), abs(second))


def _result(program, point, kwargs, where, delta):
    """The program's result with one operand of one execution moved by ``delta``."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    sid, execution, arg = where
    base, count = on_records(program), [0]

    def ops(stmt):
        op = base(stmt)
        if stmt.sid != sid:
            return op

        def moved(*args):
            n = count[0]
            count[0] += 1
            if n == execution:
                args = list(args)
                args[arg] = (args[arg] + delta).astype(args[arg].dtype) if isinstance(
                    args[arg], np.ndarray) else args[arg] + float(delta)
            return op(*args)
        return moved
    return float(run(program, point, ops, env=keywords(program, kwargs)))


def _divergence(program, sid, arg, generated, expected, point):
    stmt = next(s for s in ir.walk(program.body) if s.sid == sid)
    argument = stmt.args[arg]
    label = argument.name if isinstance(argument, ir.Var) else repr(argument.value)
    origin = stmt.origin
    return Divergence(origin.filename, origin.lineno, origin.text,
                      origin.function if origin.function != program.name else "",
                      f"{label} (along a random direction)", generated, expected, point,
                      witness="finite differences")
