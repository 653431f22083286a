"""``symdiff.check`` of a function taking ``*args`` (issue 27): a point is the call's
arguments (the named parameters', then each extra one); the extra ones are rows of the
tuple parameter ``*args`` is (``args[0]``, ``args[1]``), checked by the generated code,
the tape, sympy and finite differences alike; points of other lengths are checked by the
gradient built for their kinds.  A wrong rule planted (``symdiff.defgrad``) or a gradient
built wrong (``tests/wrong_builds``) is caught, and the rule's line named."""

import math

import pytest

import symdiff

try:
    from wrong_builds import built_wrong, marked_line as marked_in
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.wrong_builds import built_wrong, marked_line as marked_in


def marked_line(name):
    return marked_in(__file__, name)


def scaled_sum(x, *args):
    return x * sum(args)


def mixed(*xs):
    return xs[0] * math.sin(xs[1]) + xs[0] * xs[1] * xs[1]


def indexes_and_measures(x, *rest):
    return x * rest[0] + len(rest) * x * x


def loops_over_rest(x, *rest):
    s = x
    for r in rest:
        s = s * r + math.cos(r)
    return s


POINTS = {
    scaled_sum: [(1.0, 2.0, 3.0), (0.5, -1.0), (-0.7, 0.2, 0.4, 1.1)],
    mixed: [(1.0, 2.0), (0.3, -0.4, 5.0), (-1.2, 0.8)],
    indexes_and_measures: [(1.0, 2.0), (0.4, 2.0, 3.0), (-1.5, 0.5, 0.1, 0.2)],
    loops_over_rest: [(0.7, 1.1, -0.3), (0.2, 0.5), (1.3,)],
}


@pytest.mark.parametrize("fn", list(POINTS), ids=lambda fn: fn.__name__)
def test_check_agrees_four_ways_at_points_of_several_lengths(fn):
    report = symdiff.check(fn, *POINTS[fn])
    assert report.ok, str(report)
    assert not report.divergences and not report.rule_problems
    named = fn.__code__.co_argcount
    star = fn.__code__.co_varnames[named]
    want = [label for point in POINTS[fn] for label in
            [*fn.__code__.co_varnames[:named], *(f"{star}[{i}]" for i in range(
                len(point) - named))]]
    assert [row.param for row in report.rows] == want
    assert all(row.sympy is not None for row in report.rows), str(report)
    assert all(math.isfinite(row.finite_difference) for row in report.rows)


def test_random_points_keep_the_example_s_number_of_arguments():
    report = symdiff.check(indexes_and_measures, example=(1.0, 2.0, 3.0), samples=4)
    assert report.ok, str(report)
    assert [row.param for row in report.rows] == ["x", "rest[0]", "rest[1]"] * 4


def test_without_points_or_an_example_the_star_args_are_located():
    with pytest.raises(symdiff.SymdiffError, match=r"takes \*rest") as refused:
        symdiff.check(indexes_and_measures)
    error = refused.value
    assert error.filename == __file__
    assert error.lineno == indexes_and_measures.__code__.co_firstlineno
    assert "example=" in error.hint
    assert symdiff.check(indexes_and_measures, example=(1.0, 2.0)).ok  # the way out


def test_wrt_names_star_args():
    report = symdiff.check(loops_over_rest, (0.7, 1.1, -0.3), wrt="rest")
    assert report.ok and [row.param for row in report.rows] == ["rest[0]", "rest[1]"]


# --- a rule planted wrong, in its second argument, called with the extra arguments ---------

def weighted(u, v):
    return u * v * v


def weighted_du(u, v, out):
    return v * v


def weighted_dv_wrong(u, v, out):
    return u * v  # wrong: half the right value


symdiff.defgrad(weighted, weighted_du, weighted_dv_wrong)


def weighs_the_rest(x, *rest):
    total = x * x
    for r in rest:
        total = total + math.sin(r)
    return total + weighted(x, rest[1])  # <call: weighted>


def test_a_wrong_rule_called_on_an_extra_argument_is_caught_and_located():
    report = symdiff.check(weighs_the_rest, (0.8, 0.3, 1.2), (1.4, -0.5, 0.7, 0.2))
    assert not report.ok
    assert [(p.function, p.argument) for p in report.rule_problems] == [("weighted", "v")]
    failing = {row.param for row in report.rows if not row.status.startswith("ok")}
    assert failing == {"rest[1]"}, str(report)
    assert report.divergences, str(report)
    assert all(d.lineno == marked_line("weighted") for d in report.divergences)


def test_one_extra_argument_s_gradient_built_wrong_fails_its_row_alone(monkeypatch):
    built_wrong(monkeypatch, lambda g: (g[0], (g[1][0], g[1][1] * 1.5)))
    report = symdiff.check(loops_over_rest, (0.7, 1.1, -0.3), (0.2, 0.5, 0.9))
    assert not report.ok
    failing = {row.param for row in report.rows if not row.status.startswith("ok")}
    assert failing == {"rest[1]"}, str(report)


def test_a_gradient_of_another_length_for_star_args_is_caught(monkeypatch):
    built_wrong(monkeypatch, lambda g: tuple(g[:1]))
    report = symdiff.check(mixed, (1.0, 2.0))
    assert not report.ok


def reads_a_tuple(x, p):
    return x * p[0] + len(p) * x * x


def test_points_of_another_length_of_a_tuple_parameter_are_checked_by_their_build():
    report = symdiff.check(reads_a_tuple, (1.0, (2.0,)), (0.4, (2.0, 3.0)), (-1.5, (0.5,)))
    assert report.ok, str(report)
    assert [row.param for row in report.rows] == ["x", "p[0]", "x", "p[0]", "p[1]", "x",
                                                  "p[0]"]
