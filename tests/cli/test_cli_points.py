"""``--at`` reads Python literals: numbers as before, containers, named values, and a
clear usage error for a text that is not one."""

import math

import pytest

from symdiff.cli import arguments
from symdiff.cli import main as cli
from symdiff.cli.points import Named, read

TABLES = """\
import math


def weighted(xs, x):
    total = 0.0
    for i in range(len(xs)):
        total += xs[i] * math.sin(x)
    return total


def loss(xs):
    return sum(x * x for x in xs)
"""


@pytest.mark.parametrize("text, expected", [
    ("1.5,3", (1.5, 3)),
    ("-2,3", (-2, 3)),
    ("[1.0, 2.0, 3.0]", ([1.0, 2.0, 3.0],)),
    ("[1.0, 2.0], 3", ([1.0, 2.0], 3)),
    ("(1.0, 2.0), [(0.5, 1)]", ((1.0, 2.0), [(0.5, 1)])),
    ('{"w": [1.0, 2.0], "b": 0.5}, 2', ({"w": [1.0, 2.0], "b": 0.5}, 2)),
    ("'fast', 1e-3", ("fast", 0.001)),
])
def test_literals(text, expected):
    got = read(text)
    assert got == expected and type(got) is tuple
    assert [type(v) for v in got] == [type(v) for v in expected]


def test_inf_and_nan_are_floats():
    got = read("-inf, [nan, Infinity]")
    assert got[0] == -math.inf and math.isnan(got[1][0]) and got[1][1] == math.inf


def test_named_values_bind_in_parameter_order():
    def f(xs, x, scale=2.0):
        return x

    point = read('x=0.5, xs=[1.0, 2.0]')
    assert point == Named((), {"x": 0.5, "xs": [1.0, 2.0]})
    assert point.bind(f) == ([1.0, 2.0], 0.5, 2.0)
    assert read("[1.0], 0.5, scale=3").bind(f) == ([1.0], 0.5, 3)
    with pytest.raises(ValueError):
        read("y=1.0").bind(f)


@pytest.mark.parametrize("text", ["[1.0, 2.0", "1.0,,2", "x + 1", "open('f')", "*xs", "",
                                  "1)(2", "{1.0, 2.0}.pop()"])
def test_a_bad_literal_is_a_usage_error(text):
    with pytest.raises(Exception) as info:
        arguments.point(text)
    assert type(info.value).__name__ == "ArgumentTypeError"
    assert repr(text) in str(info.value)


def test_a_bad_literal_exits_2_naming_it(tmp_path, capsys, monkeypatch):
    (tmp_path / "tables.py").write_text(TABLES)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        cli.main(["check", "tables.py:weighted", "--at", "[1.0, 2.0", "--wrt", "x"])
    assert info.value.code == 2
    assert "'[1.0, 2.0' is not a point" in capsys.readouterr().err


def test_a_data_container_at_a_point(tmp_path, capsys, monkeypatch):
    """A container the gradient is not taken by (a table of data) works today."""
    (tmp_path / "tables.py").write_text(TABLES)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "tables.py:weighted", "--at", "[1.0, 2.0, 0.5], 0.3",
                     "--at", "xs=[2.0], x=1.1", "--wrt", "x"]) == 0
    out = capsys.readouterr().out
    assert "check weighted: ok" in out and "[3 numbers]" in out and "[1 number]" in out


def test_a_named_value_the_function_lacks(tmp_path, capsys, monkeypatch):
    (tmp_path / "tables.py").write_text(TABLES)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "tables.py:weighted", "--at", "ys=[1.0], x=1.0"]) == 2
    assert "--at" in capsys.readouterr().err


def test_random_points_for_a_container_need_an_example(tmp_path, capsys, monkeypatch):
    (tmp_path / "tables.py").write_text(TABLES)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "tables.py:loss"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tables.py:12:30:")  # sum(x * x for x in xs): the use of xs
    assert "--at" in err or "point" in err


ARRAYS = """\
import numpy as np


def energy(W, x):
    return np.sum(np.tanh(W @ x) ** 2)
"""


def test_arrays_are_calls_of_numpys_constructors_with_literals():
    np = pytest.importorskip("numpy")
    W, x = read('np.array([[1.0, 2.0]], dtype="float32"), numpy.linspace(0, 1, 3)')
    assert W.dtype == np.float32 and W.shape == (1, 2) and x.tolist() == [0.0, 0.5, 1.0]
    point = read('p={"W": np.ones((2, 3)), "b": zeros(2, dtype=np.float32)}, x=eye(2)')
    assert point.keywords["p"]["W"].shape == (2, 3)
    assert point.keywords["p"]["b"].dtype == np.float32 and point.keywords["x"].shape == (2, 2)
    assert read("[np.full(2, -1.5), arange(3)]")[0][0].tolist() == [-1.5, -1.5]


@pytest.mark.parametrize("text", ["np.random.rand(3)", "np.array(x)", "np.zeros(2, dtype=object)",
                                  "np.array([1.0, 2.0], [3])", "np.linalg.inv([[1.0]])"])
def test_an_array_that_is_not_one_of_literals_is_a_usage_error(text):
    pytest.importorskip("numpy")
    with pytest.raises(Exception) as info:
        arguments.point(text)
    assert type(info.value).__name__ == "ArgumentTypeError"
    assert repr(text) in str(info.value)


def test_check_and_show_at_an_array_point(tmp_path, capsys, monkeypatch):
    pytest.importorskip("numpy")
    (tmp_path / "arrays.py").write_text(ARRAYS)
    monkeypatch.chdir(tmp_path)
    at = "np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]), np.linspace(-1, 1, 3)"
    assert cli.main(["check", "arrays.py:energy", "--at", at]) == 0
    assert "check energy: ok" in capsys.readouterr().out
    assert cli.main(["show", "arrays.py:energy", "--at", at]) == 0
    assert "def grad_energy(W, x):" in capsys.readouterr().out
