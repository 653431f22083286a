"""Check: the generated gradient against three independent witnesses, and where they part.

``check(fn, *points)`` evaluates the gradient at each point four ways — the
generated code, the tape engine, sympy, central finite differences — and returns
a ``CheckReport``.  When the generated code and the tape disagree, the report
names the first statement of the user's source, walking back from the result as
the reverse sweep does, whose chain-rule contribution differs: the generated
code runs instrumented (``differentiate(record=True)``) and the same normalized
statements run on the tape (``Value``s), so both sides give one contribution
per statement, argument and execution.  A function with its own rule
(``symdiff.defgrad``) runs by that rule in the generated code and on the tape alike; sympy
reads its code, and the rule is checked against finite differences of it.

A point may leave out parameters that have defaults.  Finite differences that leave the
real numbers (``x ** y`` for ``x < 0``) are nan, and the row says so.  The sympy witness
has a time budget (``sympy_timeout`` seconds for the whole check, 5 by default); past it,
its column says ``timed out``, which is not a failure of the gradient.
"""

import functools
import inspect
import math
import numbers
import operator
import random
import time
from dataclasses import dataclass, field

from symdiff import tape
from symdiff.ad.reverse import differentiate
from symdiff.analysis.activity import active_names
from symdiff.backend.compile import compile_module
from symdiff.backend.emit import emit
from symdiff.deadline import TimedOut, within
from symdiff.errors import SymdiffError
from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.ir.evaluate import Evaluator
from symdiff.pipeline import lower
from symdiff.markers import rule_parameters


@dataclass
class Row:
    point: tuple
    param: str
    generated: float
    tape: float
    sympy: object  # float, or None when sympy could not be used
    finite_difference: float
    status: str  # "ok", or what disagrees
    sympy_status: str = "ok"  # or "not used", "timed out"


@dataclass
class Divergence:
    filename: str
    lineno: int
    text: str
    function: str
    argument: str
    generated: float
    tape: float
    point: tuple

    def __str__(self):
        where = f"{self.filename}:{self.lineno}"
        inside = "" if not self.function else f" (in {self.function})"
        return (f"{where}{inside}: `{self.text}` — the derivative through {self.argument} "
                f"differs: generated {self.generated!r}, tape {self.tape!r} at {self.point}")


@dataclass
class RuleProblem:
    function: str
    argument: str
    rule: float
    finite_difference: float
    point: tuple

    def __str__(self):
        return (f"the rule given for {self.function} is wrong by {self.argument} at "
                f"{self.point}: rule {self.rule!r}, finite differences {self.finite_difference!r}")


@dataclass
class CheckReport:
    function: str
    params: list
    rows: list = field(default_factory=list)
    divergences: list = field(default_factory=list)
    rule_problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    @property
    def ok(self):
        return all(row.status.startswith("ok") for row in self.rows) and not self.rule_problems

    def __bool__(self):
        return self.ok

    def __str__(self):
        head = ("point", "wrt", "generated", "tape", "sympy", "finite diff", "status")
        body = [_row_cells(r) for r in self.rows]
        widths = [max(len(str(line[i])) for line in [head] + body) for i in range(len(head))]
        lines = [f"check {self.function}: {'ok' if self.ok else 'FAILED'}",
                 "  ".join(h.ljust(w) for h, w in zip(head, widths)),
                 "  ".join("-" * w for w in widths)]
        lines += ["  ".join(str(c).ljust(w) for c, w in zip(line, widths)) for line in body]
        lines += [f"diverges: {d}" for d in self.divergences]
        lines += [f"wrong rule: {p}" for p in self.rule_problems]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def _repr_html_(self):
        """Jupyter's view: the table in HTML, failing rows marked."""
        from symdiff.backend.display import report_html
        return report_html(self, _row_cells)

    def _repr_pretty_(self, printer, cycle):
        """IPython's plain-text view: the printed table."""
        printer.text(str(self))


def _row_cells(r):
    return (_fmt_point(r.point), r.param, _fmt(r.generated), _fmt(r.tape),
            r.sympy_status if r.sympy_status == "timed out" else _fmt(r.sympy),
            _fmt(r.finite_difference), r.status)


SYMPY_TIMEOUT = 5.0  # seconds for the sympy witness, over all the points of one check


def check(fn, *points, wrt=None, rtol=1e-7, atol=1e-9, samples=5, domain=(0.1, 2.0), seed=0,
          kwargs=None, sympy_timeout=SYMPY_TIMEOUT):
    """Evaluate ``fn``'s gradient four ways at each point and report where they disagree.

    A point gives the positional parameters in order; those left out take their defaults.
    ``kwargs``: the keyword arguments every call gets (what ``**kwargs`` receives).
    ``sympy_timeout`` bounds the sympy witness's time over all the points (None: no bound).
    """
    from symdiff.api import build

    kwargs = dict(kwargs or {})
    user = functools.partial(fn, **kwargs) if kwargs else fn

    parsed = parse_function(fn)
    program = lower(parsed)
    names = _wrt_names(program, wrt)
    generated = build(fn, tuple(names)).function
    by_tape = tape.grad(fn, wrt=tuple(names))
    report = CheckReport(parsed.name, names)
    left = [p for p in program.params if p not in names]
    flat = [p for p in left if p not in program.optional]
    if wrt is None and flat:
        _note(report, "not checked (no derivative flows from them): " + ", ".join(flat))
    if wrt is None and len(flat) < len(left):
        _note(report, "not checked (optional, None by default; name them in wrt): " + ", ".join(
            p for p in left if p in program.optional))
    if not points:
        counts = [None if p in program.optional and p not in names else p not in names
                  for p in program.params]
        points = _random_points(user, counts, samples, domain, seed)
    sympy = _SympyWitness(fn, names, kwargs, sympy_timeout, report)
    stops = any(isinstance(s, ir.Assign) and s.op == "stop_gradient"
                for s in ir.walk(program.body))
    for point in points:
        point = complete_point(fn, program.params, point)
        gen = _attempt(generated, point, names, kwargs)
        tap = _attempt(by_tape, point, names, kwargs)
        expected = _raises(user, point)
        if expected is not None:
            _rows_where_the_function_raises(report, point, names, gen, tap, expected)
            continue
        sym, sympy_status = sympy.at(point)
        fds = [_finite_difference(user, point, program.params.index(n)) for n in names]
        problems = check_rules(program, point, rtol=1e-5, kwargs=kwargs)
        report.rule_problems += [p for p in problems if all(
            (q.function, q.argument) != (p.function, p.argument) for q in report.rule_problems)]
        diverged = bool(problems)
        for i, name in enumerate(names):
            status = _status(gen[i], tap[i], sym[i], fds[i], rtol, atol, bool(problems))
            if stops and status == "ok (fd differs)":
                status = "ok (finite differences see through stop_gradient)"
            if sympy_status == "timed out":
                status = _with_remark(status, "sympy: timed out")
            report.rows.append(Row(point, name, gen[i], tap[i], sym[i], fds[i][0], status,
                                   sympy_status))
            diverged |= not status.startswith("ok")
        if diverged and not any(isinstance(v, Raised) for v in gen + tap):
            found = _locate_safely(report, program, names, point, rtol, atol, kwargs)
            if found is not None and all((d.lineno, d.argument) != (found.lineno, found.argument)
                                         for d in report.divergences):
                report.divergences.append(found)
    return report


class Raised:
    """What a witness gave where it raised: shown as ``raises ValueError``."""

    def __init__(self, kind):
        self.kind = kind

    def __str__(self):
        return f"raises {self.kind.__name__}"

    def __repr__(self):
        return f"Raised({self.kind.__name__})"


def _attempt(gradient, point, names, kwargs):
    """The gradient at ``point`` as a tuple, or one ``Raised`` per parameter."""
    try:
        return tuple(gradient(*point, **kwargs))
    except Exception as exc:  # reported in the table, next to what the function does
        return (Raised(type(exc)),) * len(names)


def _raises(fn, point):
    """The class of the exception ``fn`` raises at ``point``, or None."""
    try:
        fn(*point)
    except Exception as exc:
        return type(exc)
    return None


def _rows_where_the_function_raises(report, point, names, gen, tap, expected):
    """Where ``fn`` raises, the gradient must raise the same (nothing else to compare)."""
    for i, name in enumerate(names):
        if isinstance(gen[i], Raised) and gen[i].kind is expected:
            status = f"ok (the function raises {expected.__name__} here, and so does the gradient)"
        else:
            status = f"generated {'gives a number' if not isinstance(gen[i], Raised) else gen[i]} " \
                     f"where the function raises {expected.__name__}"
        report.rows.append(Row(point, name, gen[i], tap[i], None, math.nan, status, "not used"))


def complete_point(fn, params, point):
    """``point`` as a tuple with a value for every parameter: defaults fill in the rest."""
    point = tuple(point) if isinstance(point, (tuple, list)) else (point,)
    if len(point) >= len(params):
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
        from symdiff.symbolic import evaluate_grad

        nothing = (None,) * len(self.names)
        if self.timed_out:
            return nothing, "timed out"
        left = None if self.deadline is None else self.deadline - time.monotonic()
        try:
            return within(left, evaluate_grad, self.fn, point, wrt=self.names,
                          kwargs=self.kwargs), "ok"
        except TimedOut:
            self.timed_out = True
            _note(self.report, f"sympy: timed out (its budget is {self.budget:g} s per check; "
                  "give check() sympy_timeout= for more)")
            return nothing, "timed out"
        except SymdiffError as exc:
            _note(self.report, f"sympy not used: {exc.message}")
            return nothing, "not used"


def _with_remark(status, remark):
    """``"ok"`` + remark -> ``"ok (remark)"``; ``"ok (a)"`` -> ``"ok (a; remark)"``."""
    if status.endswith(")"):
        return f"{status[:-1]}; {remark})"
    return f"{status} ({remark})"


# --- the witnesses' statuses ------------------------------------------------------------

def _status(gen, tap, sym, fd, rtol, atol, rule_wrong=False):
    """What a row says.  ``rule_wrong``: a user rule used at this point is wrong, so a
    gradient that finite differences do not confirm is not ok."""
    if isinstance(gen, Raised):
        return f"generated {gen} where the function does not"
    if isinstance(tap, Raised):
        status = _status(gen, None, sym, fd, rtol, atol, rule_wrong)
        return _with_remark(status, f"tape {tap} where the function does not")
    estimate, steadiness = fd
    problems = []
    if not _close(gen, tap, rtol, atol):
        problems.append("tape differs")
    if sym is not None and not _close(gen, sym, rtol, atol):
        if _close(gen, estimate, 1e-4, 1e-6) and _close(gen, tap, rtol, atol):
            return "ok (sympy differs: its convention at a kink)"
        problems.append("sympy differs")
    if rule_wrong and steadiness == "steady" and not _close(gen, estimate, 1e-4, 1e-6):
        problems.append("finite differences differ (a rule is wrong)")
    if not problems and steadiness == "undefined":
        return "ok (finite differences undefined here: a step leaves the domain or the reals)"
    if not problems and not _close(gen, estimate, 1e-4, 1e-6):
        return ("ok (finite differences ill-conditioned here)" if steadiness == "unsteady"
                else "ok (fd differs)")
    return "ok" if not problems else ", ".join(problems)


def _close(a, b, rtol, atol):
    if a is None or b is None:
        return True
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def _finite_difference(fn, point, index, step=1e-6):
    """(central difference, "steady" / "unsteady" / "undefined"): whether quartering the step
    leaves it steady, or "undefined" (the estimate nan) where a step leaves the function's
    domain or the real numbers (a complex value, as ``(-2.0) ** 3.01`` gives)."""
    def at(h):
        scale = h * max(1.0, abs(point[index]))
        plus, minus = list(point), list(point)
        plus[index] += scale
        minus[index] -= scale
        try:
            up, down = fn(*plus), fn(*minus)
        except (ValueError, ZeroDivisionError, OverflowError):
            return math.nan
        if not (isinstance(up, numbers.Real) and isinstance(down, numbers.Real)):
            return math.nan
        try:
            return float((up - down) / (2 * scale))
        except (ZeroDivisionError, OverflowError):
            return math.nan
    first, second = at(step), at(step / 4)
    if math.isnan(first) or math.isnan(second):
        return math.nan, "undefined"
    return first, "steady" if _close(first, second, 1e-4, 1e-7) else "unsteady"


def _random_points(fn, counts, samples, domain, seed):
    """Random points where ``fn`` returns a finite number; small whole numbers for the
    parameters no derivative flows from (they are often counts), None for the optional
    ones (``counts`` None there) left out of ``wrt``."""
    rng = random.Random(seed)
    points = []
    for _ in range(samples * 50):
        point = tuple(None if count is None else rng.randint(1, 5) if count
                      else rng.uniform(*domain) for count in counts)
        try:
            value = fn(*point)
        except Exception:  # noqa: BLE001 - outside the domain, or failing its input checks
            continue
        if isinstance(value, (int, float)) and math.isfinite(value):
            points.append(point)
        if len(points) == samples:
            break
    return points


def _wrt_names(program, wrt):
    """The parameters to check: by default those a derivative can flow from."""
    params = program.params
    if wrt is None:
        params = [p for p in params if p not in program.optional] or params
        active = active_names(program, params)
        return [p for p in params if p in active] or list(params)
    items = wrt if isinstance(wrt, (list, tuple)) else [wrt]
    return [params[w] if isinstance(w, int) else w for w in items]


def _note(report, text):
    if text not in report.notes:
        report.notes.append(text)


# --- the divergence locator ---------------------------------------------------------------

def _locate_safely(report, program, names, point, rtol, atol, kwargs):
    """``locate``, or None with a note where the locator's own run of the statements fails
    (it runs them by the operations' math spellings)."""
    try:
        return locate(program, names, point, rtol, atol, kwargs)
    except (ArithmeticError, ValueError, SymdiffError) as exc:
        _note(report, f"the differing statement was not located at {point}: "
              f"{type(exc).__name__}: {exc}")
        return None


def locate(program, names, point, rtol=1e-7, atol=1e-9, kwargs=None):
    """The first statement, walking back from the result, whose contribution differs."""
    generated = _recorded_contributions(program, names, point, kwargs or {})
    taped = _tape_contributions(program, names, point, kwargs or {})
    seen = {}
    for sid, arg, value in generated:
        k = seen.get((sid, arg), 0)
        seen[(sid, arg)] = k + 1
        runs = taped.get((sid, arg), [])
        if k >= len(runs):
            continue
        expected = runs[len(runs) - 1 - k]
        if not _close(value, expected, rtol, atol):
            stmt = list(ir.walk(program.body))[sid]
            operand = stmt.args[arg]
            label = operand.name if isinstance(operand, ir.Var) else repr(operand.value)
            return Divergence(stmt.origin.filename, stmt.origin.lineno, stmt.origin.text,
                              stmt.origin.function if stmt.origin.function != program.name
                              else "", label, value, expected, point)
    return None


def _recorded_contributions(program, names, point, kwargs):
    records = []
    generated = differentiate(program, names, record=True, as_tuple=True)
    text = emit(generated)
    namespace = dict(program.namespace)
    namespace[generated.record_name] = lambda sid, arg, value: records.append((sid, arg, value))
    function = compile_module(text, generated.function.name, namespace, program.origin.filename)
    function(*point, **kwargs)
    return records


def _tape_contributions(program, names, point, kwargs):
    """Contributions per (statement, argument), in execution order, by the tape."""
    env = {p: (tape.Value(v) if p in names else v) for p, v in zip(program.params, point)}
    env.update(_keywords(program, kwargs))
    runs = []
    _run_on_tape(program, env, runs)
    result = _operand(program.result, env, program)
    if isinstance(result, tape.Value):
        result.backward()
    contributions = {}
    for stmt, sid, out, args in runs:
        if not isinstance(out, tape.Value):
            continue
        for i, local in enumerate(_local_partials(program, stmt, args)):
            if local is not None:
                contributions.setdefault((sid, i), []).append(out.grad * local)
    return contributions


def _local_partials(program, stmt, args):
    """The tape's own partials of one operation at these arguments: of a function with a
    user rule, those of its code (so a wrong rule shows), or the rule where the tape cannot
    run that code."""
    fresh = [tape.Value(_raw(a)) if isinstance(a, (tape.Value, int, float)) else a for a in args]
    try:
        out = _tape_op(program, stmt.op, own_code=True)(*fresh)
    except SymdiffError:
        if stmt.op not in program.custom_functions:
            raise
        out = _tape_op(program, stmt.op)(*fresh)
    if not isinstance(out, tape.Value):
        return [None] * len(args)
    out.backward()
    return [v.grad if isinstance(v, tape.Value) else None for v in fresh]


def _run_on_tape(program, env, runs):
    """Run ``program`` (its parameters bound in ``env``, which it fills) on tape
    ``Value``s, noting each operation's output in ``runs``."""
    Evaluator(program, lambda stmt: _tape_op(program, stmt.op), env=env, index=_raw,
              observe=lambda stmt, out, args: runs.append((stmt, stmt.sid, out, args))
              ).block(program.body)


_TAPE_OPS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
    "pow": operator.pow, "floordiv": operator.floordiv, "mod": operator.mod,
    "neg": operator.neg, "pos": operator.pos, "abs": abs, "max": max, "min": min,
    "copy": lambda x: x * 1.0 if isinstance(x, tape.Value) else x,
    "float": lambda x: x * 1.0 if isinstance(x, tape.Value) else float(x),
    "int": lambda x: int(x), "logb": lambda x, b: tape.log(x, b),
    "stop_gradient": lambda x: x.detach() if isinstance(x, tape.Value) else x,
    "factorial": math.factorial, "comb": math.comb, "perm": math.perm, "ulp": math.ulp,
    "isnan": math.isnan, "isinf": math.isinf, "isfinite": math.isfinite,
    "frexp_mantissa": lambda x: tape.frexp(x)[0], "frexp_exponent": lambda x: tape.frexp(x)[1],
    "modf_fraction": lambda x: tape.modf(x)[0], "modf_integer": lambda x: tape.modf(x)[1],
    "isclose": lambda a, b, rel_tol, abs_tol: math.isclose(a, b, rel_tol=rel_tol,
                                                           abs_tol=abs_tol),
    **{f"norm_{method}": (lambda method: lambda *args: getattr(tape.norm, method)(*args))(method)
       for method in ("cdf", "pdf", "logpdf", "logcdf", "sf", "ppf")},
}
_TAPE_VARIADIC = {  # ops of several numbers written out (``fsum_3``): their numbers in a row
    "hypot": lambda args: tape.hypot(*args), "fsum": tape.fsum, "prod": math.prod,
    "dist": lambda args: tape.dist(args[:len(args) // 2], args[len(args) // 2:]),
    "sumprod": lambda args: tape.sumprod(args[:len(args) // 2], args[len(args) // 2:]),
}


def _tape_op(program, op, own_code=False):
    """The tape's operation ``op``; for a function with a user rule, by that rule, or by the
    function's own code (``own_code``, for the locator's local partials)."""
    if op in program.custom_functions:
        return tape.on_values(program.custom_functions[op][0], own_rule=not own_code)
    name, _, count = op.rpartition("_")
    if name in _TAPE_VARIADIC and count.isdigit():
        return lambda *args: _TAPE_VARIADIC[name](args)
    return _TAPE_OPS.get(op) or getattr(tape, op)


def _operand(operand, env, program):
    if isinstance(operand, ir.Var):
        return env[operand.name]
    return operand.value


def _raw(value):
    return value.data if isinstance(value, tape.Value) else value


# --- custom rules -------------------------------------------------------------------------

def _keywords(program, kwargs):
    """The environment entry of the ``**kwargs`` parameter, if the function has one."""
    return {program.kwargs: dict(kwargs)} if program.kwargs else {}


def check_rules(program, point, rtol=1e-5, kwargs=None):
    """Each user-given rule against finite differences of its function, where it ran."""
    if not program.custom_functions:
        return []
    env = {p: v for p, v in zip(program.params, point)}
    env.update(_keywords(program, kwargs or {}))
    runs = []
    _run_on_tape(program, env, runs)
    problems, seen = [], set()
    for stmt, _, out, args in runs:
        if stmt.op not in program.custom_functions or stmt.op in seen:
            continue
        seen.add(stmt.op)
        fn, partials = program.custom_functions[stmt.op]
        values = [float(_raw(a)) for a in args]
        params = rule_parameters(fn)[:len(values)]
        for i, partial in enumerate(partials):
            estimate, steadiness = _finite_difference(fn, tuple(values), i)
            try:
                given = 0.0 if partial is None else float(partial(*values, float(_raw(out))))
            except Exception as exc:  # a rule that raises where its function does not
                given = Raised(type(exc))
            if isinstance(given, Raised) or (
                    steadiness == "steady" and not _close(given, estimate, rtol, 1e-6)):
                problems.append(RuleProblem(fn.__name__, params[i], given, estimate,
                                            tuple(values)))
    return problems


def _fmt(value):
    if value is None:
        return "n/a"
    return f"{value:.10g}" if isinstance(value, float) else str(value)


def _fmt_point(point):
    return "(" + ", ".join(_fmt_argument(v) for v in point) + ")"


def _fmt_argument(value):
    if isinstance(value, numbers.Real):
        return f"{value:.4g}"
    if isinstance(value, (tuple, list)) or getattr(value, "ndim", None) == 1:
        return f"[{len(value)} numbers]"  # a table: its size says enough in a table row
    return repr(value)
