"""Objects as kinds: the class and the fields are part of the kind signature, the
fields are read when the gradient runs (never constants of a build), the generated code
reads ``p.w`` and runs without symdiff, and what is refused is located with a hint that
works.  The answers are checked against the tape (``symdiff.tape``), never typed in."""

import math
import re
from collections import namedtuple
from dataclasses import dataclass

import pytest

import symdiff
import symdiff.tape
from symdiff.frontend.kinds import kind_of

P = namedtuple("P", "w b")
Q = namedtuple("Q", "w b")


@dataclass
class Tagged:
    w: float
    tag: str = "a"


class System:
    def __init__(self, mass, k):
        self.mass, self.k = mass, k

    def energy(self, x, v):
        return 0.5 * self.mass * v * v + 0.5 * self.k * x * x


class Spring:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return 0.5 * self.k * x ** 3


def energy(x, v, system):
    return 0.5 * system.mass * v ** 2 + 0.5 * system.k * x ** 2


def linear(p, x):
    return math.sin(p.w * x) + p.b


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def test_a_changed_attribute_gives_a_right_answer_never_a_stale_one():
    gradient, system = symdiff.grad(energy), System(2.0, 3.0)
    for mass, k in [(2.0, 3.0), (5.0, 3.0), (5.0, 0.5)]:
        system.mass, system.k = mass, k
        got = gradient(0.7, 1.3, system)
        want = symdiff.tape.grad(energy, wrt=("x", "v"))(0.7, 1.3, system)
        assert all(close(g, w) for g, w in zip(got, want))


def test_a_bound_methods_instance_is_read_on_every_call():
    system = System(2.0, 3.0)
    gradient = symdiff.grad(system.energy)
    first = gradient(0.7, 1.3)
    system.k = 11.0
    second = gradient(0.7, 1.3)
    want = symdiff.tape.grad(System.energy, wrt=("x", "v"))(system, 0.7, 1.3)
    assert first != second and all(close(g, w) for g, w in zip(second, want))


def test_a_callable_instance_is_differentiated_by_its_arguments():
    spring = Spring(3.0)
    gradient = symdiff.grad(spring)
    for k in (3.0, 0.25):
        spring.k = k
        assert close(gradient(1.5), symdiff.tape.grad(Spring.__call__, wrt="x")(spring, 1.5))


def test_another_class_with_the_same_fields_is_another_kind():
    assert kind_of(P(1.0, 2.0)) != kind_of(Q(1.0, 2.0))
    assert kind_of(P(1.0, 2.0)) == kind_of(P(3, 4.5))
    gradient = symdiff.grad(linear, wrt="p")
    for record in (P(0.5, 0.2), Q(0.5, 0.2), P(-1.0, 3.0)):
        got = gradient(record, 0.8)
        assert type(got) is type(record)
        assert got == symdiff.tape.grad(linear, wrt="p")(record, 0.8)


def test_a_static_field_is_kept_in_the_gradient():
    def scaled(t, x):
        return t.w * t.w * x
    got = symdiff.grad(scaled, wrt="t")(Tagged(1.5, "kept"), 2.0)
    assert got == Tagged(6.0, "kept") == symdiff.tape.grad(scaled, wrt="t")(
        Tagged(1.5, "kept"), 2.0)


def test_generated_code_reads_fields_by_name_and_runs_without_symdiff():
    text = symdiff.source(linear, P(0.5, 0.2), 0.8)
    assert "p.w" in text and not re.search(r"\bp\['w'\]", text) and "type(p)(w=" in text
    namespace = {}
    exec(compile(text, "<saved>", "exec"), namespace)
    assert "symdiff" not in text
    assert namespace["grad_linear"](P(0.5, 0.2), 0.8) == symdiff.grad(linear)(P(0.5, 0.2), 0.8)


def read_static(t, x):
    return x * len(t.tag)


def assigns_field(p, x):
    p.w = x
    return p.w * x


def loops_over_fields(p, x):
    total = 0.0
    for v in p:
        total = total + v * x
    return total


def loops_over_a_tuple_of_fields(p, x):
    total = 0.0
    for v in (p.w, p.b):
        total = total + v * x
    return total


def missing_field(p, x):
    return p.z * x


@pytest.mark.parametrize("fn, args, where, words", [
    (read_static, (Tagged(1.0), 2.0), "t.tag", "read as a flag"),
    (read_static, (Tagged(1.0, len), 2.0), "t.tag", "holds no number"),
    (assigns_field, (P(1.0, 2.0), 2.0), "p.w = x", "attribute"),
    (loops_over_fields, (P(1.0, 2.0), 2.0), "p:", "loop over a P"),
    (missing_field, (P(1.0, 2.0), 2.0), "p.z", "no field z"),
])
def test_refusals_are_located_and_name_the_construct(fn, args, where, words):
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.grad(fn)(*args)
    error = caught.value
    assert error.filename == __file__ and error.lineno is not None and error.hint
    assert where in error.source_line[error.col_offset:] and words in str(error)


def test_a_flag_field_is_read_as_a_constant_of_the_kind():
    def activation(t, x):
        if t.tag == "a":
            return math.tanh(t.w * x)
        return t.w * x * x
    gradient = symdiff.grad(activation)
    for record in (Tagged(0.5, "a"), Tagged(0.5, "b"), Tagged(0.5, "a")):
        assert gradient(record, 1.2) == symdiff.tape.grad(activation)(record, 1.2)
    assert kind_of(Tagged(0.5, "a")) != kind_of(Tagged(0.5, "b"))


def test_the_way_out_of_a_loop_over_fields_works():
    point = (P(1.5, -0.5), 2.0)
    assert symdiff.grad(loops_over_a_tuple_of_fields)(*point) == symdiff.tape.grad(
        loops_over_a_tuple_of_fields)(*point)


def test_the_guard_of_a_record_fits_exactly_the_arguments_of_its_kind():
    from symdiff.frontend.guards import guard
    from symdiff.specialized import container_kinds

    def uses(p, x):
        return p.w * x
    built_for = (Tagged(1.0, "a"), 2.0)
    fits = guard(container_kinds(uses, built_for), ["p", "x"])
    others = [(Tagged(3.0, "a"), 1.0), (Tagged(3, "a"), 1.0), (Tagged(1.0, "b"), 2.0),
              (Tagged([1.0], "a"), 2.0), (P(1.0, 2.0), 2.0), (Tagged(True, "a"), 2.0)]
    for args in [built_for] + others:
        same = container_kinds(uses, args) == container_kinds(uses, built_for)
        assert not fits(args) or same, args
    assert fits(others[0]) and fits(others[1]) and not fits(others[2])


@dataclass
class Counted:
    count: float  # a field named as a string's method


def test_a_field_named_as_a_strings_method_is_a_field():
    def scaled(p, x):
        return p.count * x * x
    got = symdiff.grad(scaled)(Counted(2.0), 3.0)
    assert got == symdiff.tape.grad(scaled)(Counted(2.0), 3.0)
