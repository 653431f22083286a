"""Locate: the statement of the user's source where the generated gradient and the tape part.

Expects the lowered ``Program`` the gradient was built from, the parameters differentiated
by and one point.  Guarantees the first statement, walking back from the result as the
reverse sweep does, whose chain-rule contribution differs between the two: the generated
code runs instrumented (``differentiate(record=True)``, one record per statement, argument
and execution) and the same statements run on the tape (``checking.interpret``), which
gives the same contributions from its own derivatives.  ``None`` when every contribution
agrees.  The program is read, never changed.
"""

from symdiff import tape
from symdiff.ad.reverse import differentiate
from symdiff.backend.compile import compile_module
from symdiff.backend.emit import emit
from symdiff.checking.gathered import spreading
from symdiff.checking.interpret import Interpreter, keywords
from symdiff.checking.leaves import is_container, leaves, number_leaf, rebuild
from symdiff.checking.report import Divergence
from symdiff.checking.statuses import close
from symdiff.checking.tape_bridge import operand, raw, tape_op
from symdiff.errors import SymdiffError
from symdiff.ir import nodes as ir
from symdiff.backend.to_python import to_python


def locate_safely(report, program, names, point, rtol, atol, kwargs):
    """``locate``, or None with a note where the locator's own run of the statements fails
    (it runs them by the operations' math spellings)."""
    try:
        return locate(program, names, point, rtol, atol, kwargs)
    except (ArithmeticError, ValueError, SymdiffError) as exc:
        report.note(f"the differing statement was not located at {point}: "
                    f"{type(exc).__name__}: {exc}")
        return None


def locate(program, names, point, rtol=1e-7, atol=1e-9, kwargs=None):
    """The first statement, walking back from the result, whose contribution differs."""
    generated = recorded_contributions(program, names, point, kwargs or {})
    taped = _tape_contributions(program, names, point, kwargs or {})
    seen = {}
    for sid, arg, value in generated:
        k = seen.get((sid, arg), 0)
        seen[(sid, arg)] = k + 1
        runs = taped.get((sid, arg), [])
        if k >= len(runs):
            continue
        expected = runs[len(runs) - 1 - k]
        if not close(value, expected, rtol, atol):
            stmt = next(s for s in ir.walk(program.body) if s.sid == sid)
            argument = stmt.args[arg]
            label = argument.name if isinstance(argument, ir.Var) else repr(argument.value)
            return Divergence(stmt.origin.filename, stmt.origin.lineno, stmt.origin.text,
                              stmt.origin.function if stmt.origin.function != program.name
                              else "", label, value, expected, point)
    return None


def recorded_contributions(program, names, point, kwargs):
    """``(statement id, argument, contribution)`` per term of the chain rule, in the order
    the generated reverse sweep computes them."""
    records = []
    generated = to_python(differentiate(program, list(names), record=True, as_tuple=True))
    text = emit(generated)
    namespace = dict(program.namespace)
    namespace[generated.record_name] = lambda sid, arg, value: records.append((sid, arg, value))
    function = compile_module(text, generated.function.name, namespace, program.origin.filename)
    spreading(function, program)(*point, **kwargs)
    return records


def _tape_contributions(program, names, point, kwargs):
    """Contributions per (statement, argument), in execution order, by the tape."""
    env = {p: (_on_tape(v) if p in names else v) for p, v in zip(program.params, point)}
    env.update(keywords(program, kwargs))
    runs = []
    Interpreter(program, env, runs).block(program.body)
    result = operand(program.result, env)
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


def _on_tape(value):
    """A number as a tape ``Value``; a container or an object with a ``Value`` for each of
    its numbers (its strings and flags as they are)."""
    if not is_container(value):
        return tape.Value(value)
    return rebuild(value, [tape.Value(leaf) if number_leaf(leaf) else leaf
                           for _, leaf in leaves(value)])


def _local_partials(program, stmt, args):
    """The tape's own partials of one operation at these arguments: of a function with a
    user rule, those of its code (so a wrong rule shows), or the rule where the tape cannot
    run that code."""
    rule = program.rule(stmt.op)  # an argument taken as an integer stays a number
    fresh = [tape.Value(raw(a)) if isinstance(a, (tape.Value, int, float)) and (
        i >= len(rule.params) or rule.params[i] not in rule.ints) else raw(a)
        for i, a in enumerate(args)]
    try:
        out = tape_op(program, stmt.op, own_code=True)(*fresh)
    except SymdiffError:
        if stmt.op not in program.custom_functions:
            raise
        out = tape_op(program, stmt.op)(*fresh)
    if not isinstance(out, tape.Value):
        return [None] * len(args)
    out.backward()
    return [v.grad if isinstance(v, tape.Value) else None for v in fresh]
