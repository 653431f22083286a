"""Array rules: each ``defgrad`` rule that ran on arrays, against finite differences.

Expects the lowered ``Program`` and a point whose arguments hold NumPy arrays.  A rule
given for a function of arrays is applied as generated code applies it: the adjoint of
the result times the partial, elementwise (``dx = g * rule(x, ..., out)``), summed where
the argument is a number.  Guarantees a ``RuleProblem`` for every function with a rule
that ran at the point (its arguments as the program computed them, on the IR evaluator
with the values generated code computes) and whose vector-Jacobian product, in a random
``g`` and direction ``u``, differs (an argument given as a constant in the code is not
checked: no derivative flows through it) from the central difference of
``t -> sum(g * fn(..., x + t u, ...))``; or raises where its function does not.

    rule dx = 2 * x for fn(x) = x ** 2 at x = [1, 2]: no problem; dx = x: a problem by x
"""

import numbers


from symdiff.checking.arrays import is_float_array
from symdiff.checking.directions import directional_difference, single
from symdiff.checking.interpret import keywords
from symdiff.checking.report import Raised, RuleProblem
from symdiff.errors import InternalError
from symdiff.ir import nodes as ir
from symdiff.ir.evaluate import on_records, run
from symdiff.markers import rule_parameters
from symdiff.checking.arrays import numpy


def check_array_rules(program, point, kwargs=None, seed=0):
    """Each user-given rule that ran at ``point`` against finite differences of its
    function along a random direction."""
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    if not program.custom_functions:
        return []
    runs = []
    run(program, point, on_records(program), env=keywords(program, kwargs or {}),
        observe=lambda stmt, out, args: runs.append((stmt, out, list(args))))
    rng = np.random.default_rng(seed)
    problems, seen = [], set()
    for stmt, out, args in runs:
        if stmt.op not in program.custom_functions or stmt.op in seen:
            continue
        seen.add(stmt.op)
        fn, partials = program.custom_functions[stmt.op]
        names = rule_parameters(fn)[:len(args)]
        for i, partial in enumerate(partials):
            if isinstance(stmt.args[i], ir.Const):  # no derivative flows through it
                continue
            problem = _rule_problem(fn, partial, args, out, i, names[i], rng)
            if problem is not None:
                problems.append(problem)
    return problems


def _rule_problem(fn, partial, args, out, i, name, rng):
    np = numpy()  # where arrays are: symdiff itself runs without NumPy
    here = args[i]
    if not (is_float_array(here) or (isinstance(here, numbers.Real)
                                     and not isinstance(here, (bool, int)))):
        return None
    g = rng.standard_normal(np.shape(out))
    u = rng.standard_normal(np.shape(here)).astype(np.asarray(here).dtype)
    try:
        given = 0.0 if partial is None else float(np.sum(g * partial(*args, out) * u))
    except InternalError:  # a rule that calls symdiff may meet our bug: never the rule's
        raise
    except Exception as exc:  # a rule that raises where its function does not
        given = Raised(type(exc))

    def along(x):
        return float(np.sum(g * fn(*args[:i], x, *args[i + 1:])))
    estimate, steadiness = directional_difference(along, (here,), 0, u)
    rtol, atol = (2e-2, 2e-3) if single(here) else (1e-4, 1e-6)
    if isinstance(given, Raised) or (steadiness == "steady" and abs(given - estimate) > (
            atol + rtol * max(abs(given), abs(estimate)))):
        return RuleProblem(fn.__name__, f"{name} (along a random direction)", given,
                           estimate, tuple(args))
    return None
