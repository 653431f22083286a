"""A function that changes a container it is passed: ``check`` gives every witness the
caller's values and leaves them as they were; the tape changes the caller's containers
as the function and the generated gradient do."""

import symdiff
from symdiff import tape


def appended(xs):
    xs.append(3.0 * xs[0])
    return xs[-1] * xs[1]


def scaled_in_place(xs):
    for i in range(len(xs)):
        xs[i] = 3.0 * xs[i]
    return xs[0] * xs[1]


def first_scaled(xs):
    xs[0] = 3.0 * xs[0]
    return xs[0] * xs[1] + xs[1]


def entry_changed(p, rows):
    p["w"] = p["w"] * 2.0
    rows[0][1] = rows[0][0] * p["b"]
    return p["w"] * rows[0][1]


def test_check_of_a_function_that_changes_its_list_passes_and_leaves_the_list():
    for fn in (appended, scaled_in_place, first_scaled):
        for xs in ([1.0, 2.0], [0.5, -1.5], [1.7, 0.3]):
            point = list(xs)
            report = symdiff.check(fn, (point,))
            assert report.ok, (fn.__name__, str(report))
            assert point == xs


def test_check_of_a_function_that_changes_a_dict_and_a_nested_list():
    report = symdiff.check(entry_changed, ({"w": 1.5, "b": -0.5}, ([1.0, 2.0],)))
    assert report.ok, str(report)


def test_tape_changes_the_callers_containers_as_the_function_does():
    cases = [(appended, lambda: ([1.0, 2.0],)), (scaled_in_place, lambda: ([0.5, 2.5],)),
             (entry_changed, lambda: ({"w": 1.5, "b": -0.5}, ([1.0, 2.0],)))]
    for fn, arguments in cases:
        by_f, by_tape, by_generated = arguments(), arguments(), arguments()
        fn(*by_f)
        tape.grad(fn)(*by_tape)
        symdiff.grad(fn)(*by_generated)
        assert by_tape == by_f == by_generated, fn.__name__


def test_tape_keeps_the_callers_inner_containers():
    rows = ([1.0, 2.0],)
    inner = rows[0]
    tape.grad(entry_changed)({"w": 1.5, "b": -0.5}, rows)
    assert rows[0] is inner and inner == [1.0, -0.5]
