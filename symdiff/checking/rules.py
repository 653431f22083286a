"""Rules: each derivative rule the user gave (``symdiff.defgrad``), against finite
differences of its own function.

Expects the lowered ``Program`` and one point.  Guarantees a ``RuleProblem`` for every
function with a rule that ran at that point (its arguments as the program computed them)
and whose partial is not what steady finite differences of the function give, or raises
where the function does not.  The rule and the function are the user's code: an
exception either raises is reported, never taken for symdiff's.
"""

from symdiff.checking.interpret import Interpreter, keywords
from symdiff.checking.report import Raised, RuleProblem
from symdiff.checking.statuses import close, finite_difference
from symdiff.checking.tape_bridge import raw
from symdiff.errors import InternalError
from symdiff.markers import rule_parameters


def check_rules(program, point, rtol=1e-5, kwargs=None):
    """Each user-given rule against finite differences of its function, where it ran."""
    if not program.custom_functions:
        return []
    env = {p: v for p, v in zip(program.params, point)}
    env.update(keywords(program, kwargs or {}))
    runs = []
    Interpreter(program, env, runs).block(program.body)
    problems, seen = [], set()
    for stmt, _, out, args in runs:
        if stmt.op not in program.custom_functions or stmt.op in seen:
            continue
        seen.add(stmt.op)
        fn, partials = program.custom_functions[stmt.op]
        values = [float(raw(a)) for a in args]
        params = rule_parameters(fn)[:len(values)]
        for i, partial in enumerate(partials):
            estimate, steadiness = finite_difference(fn, tuple(values), i)
            try:
                given = 0.0 if partial is None else float(partial(*values, float(raw(out))))
            except InternalError:  # a rule that calls symdiff may meet our bug: never the rule's
                raise
            except Exception as exc:  # a rule that raises where its function does not
                given = Raised(type(exc))
            if isinstance(given, Raised) or (
                    steadiness == "steady" and not close(given, estimate, rtol, 1e-6)):
                problems.append(RuleProblem(fn.__name__, params[i], given, estimate,
                                            tuple(values)))
    return problems
