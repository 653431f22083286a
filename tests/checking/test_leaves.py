"""The leaf helpers: paths, texts and rebuilding, and their doctests."""

import dataclasses
import doctest
from collections import namedtuple

import pytest

from symdiff.checking import leaves as module
from symdiff.checking.leaves import is_container, leaves, number_leaf, path_text, rebuild


def test_the_doctests_run():
    failures, tried = doctest.testmod(module)
    assert tried and not failures


STRUCTURES = [
    3.0,
    [],
    [1.0, 2, 3.5],
    (1.0, (2.0, [3.0, {"a": 4.0}])),
    {"w": [[1.0, 2.0], [3.0]], "b": (0.5,), 7: 1.0},
    [(0.1, 0.2), (0.3, 0.4)],
]


@pytest.mark.parametrize("value", STRUCTURES, ids=repr)
def test_rebuild_of_leaves_is_the_value(value):
    assert rebuild(value, [leaf for _, leaf in leaves(value)]) == value
    rebuilt = rebuild(value, [float(i) for i in range(len(leaves(value)))])
    assert [leaf for _, leaf in leaves(rebuilt)] == [float(i) for i in range(len(leaves(value)))]
    assert repr(type(rebuilt)) == repr(type(value)) or not is_container(value)


@pytest.mark.parametrize("value", STRUCTURES, ids=repr)
def test_a_path_reads_its_leaf(value):
    for path, leaf in leaves(value):
        found = value
        for key in path:
            found = found[key]
        assert found is leaf


def test_path_text_is_how_python_writes_the_read():
    assert path_text("layers", (1, 0)) == "layers[1][0]"
    assert path_text("p", ("b", 3)) == 'p["b"][3]'
    assert path_text("d", ("it's",)) == 'd["it\'s"]'
    assert path_text("d", ('a"b',)) == 'd["a\\"b"]'
    assert path_text("d", ("tab\t",)) == 'd["tab\\t"]'
    assert path_text("d", ((1, 2),)) == "d[(1, 2)]"
    for key in ("it's", 'a"b', "tab\t", "x\\y"):
        assert eval(path_text("d", (key,)), {"d": {key: 1}}) == 1


def test_bool_and_str_leaves_are_reported_as_such():
    found = leaves({"on": True, "name": "w", "x": 1.5})
    assert found == [(("on",), True), (("name",), "w"), (("x",), 1.5)]
    assert [number_leaf(leaf) for _, leaf in found] == [False, False, True]


def test_a_string_a_class_or_a_function_is_not_a_container():
    assert not any(is_container(v) for v in ("ab", Pair, test_the_doctests_run, len, 1.0))


Pair = namedtuple("Pair", "a b")


@dataclasses.dataclass(frozen=True)
class Frozen:
    v: list
    label: str = "f"


@dataclasses.dataclass
class Derived:
    a: float
    twice: float = dataclasses.field(init=False)

    def __post_init__(self):
        self.twice = 2 * self.a


class Plain:
    def __init__(self, k, v):
        self.k, self.v, self.name = k, v, "plain"


OBJECTS = [Pair(1.0, [2.0, 3.0]), Frozen([1.0, Pair(2.0, 3.0)]), Derived(1.5),
           Plain(0.5, {"w": (1.0, 2.0)}), [Pair(1.0, 2.0), {"p": Plain(3.0, 4.0)}]]


@pytest.mark.parametrize("value", OBJECTS, ids=lambda v: type(v).__name__)
def test_an_object_is_read_by_its_fields_each_path_as_python_reads_it(value):
    found = leaves(value)
    assert found and all(eval(path_text("value", path), {"value": value}) is leaf
                         for path, leaf in found)


@pytest.mark.parametrize("value", OBJECTS, ids=lambda v: type(v).__name__)
def test_an_object_rebuilt_is_of_its_class_and_holds_the_values_given(value):
    drawn = [float(i) if number_leaf(leaf) else leaf for i, (_, leaf) in
             enumerate(leaves(value))]
    rebuilt = rebuild(value, drawn)
    assert [leaf for _, leaf in leaves(rebuilt)] == drawn
    assert [type(leaf) for _, leaf in leaves(rebuilt)] == [type(v) for v in drawn]
    assert type(rebuilt) is type(value) and rebuilt is not value
    assert [leaf for _, leaf in leaves(value)] != drawn  # the value itself is not changed


def test_a_field_outside_init_is_set_on_a_copy():
    made = rebuild(Derived(1.5), [4.0, 0.5])
    assert (made.a, made.twice) == (4.0, 0.5)


def test_deep_nesting_is_no_recursion_limit():
    value = 1.0
    for _ in range(5000):
        value = [value]
    assert leaves(value) == [((0,) * 5000, 1.0)]
