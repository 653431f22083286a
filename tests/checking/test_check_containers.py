"""check and the CLI end to end on containers the gradient is taken by.

Every row is one number of a container parameter, named by its path, and the four
witnesses agree on it.  ``symdiff.grad`` refuses container parameters until the
containers core lands.
"""

import math


import symdiff
from symdiff.cli import main as cli
from tests.oracles import same_structure


def rosenbrock(x):
    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2 for i in range(len(x) - 1))


def model(params, data):
    total = 0.0
    for x, y in data:
        guess = params["w"][0] * x + params["w"][1] * x ** 2 + params["b"]
        total += (guess - y) ** 2
    return total / len(data)


def layers_forward(layers, x):
    for w, b in layers:
        x = math.tanh(w * x + b)
    return x


def test_rows_are_named_by_path_and_agree():
    report = symdiff.check(rosenbrock, ([0.5, 1.2, 0.8],), ([1.1, 0.9, 1.3],))
    assert report.ok, str(report)
    assert [r.param for r in report.rows] == ["x[0]", "x[1]", "x[2]"] * 2


def test_a_dict_of_lists_by_path():
    point = ({"w": [0.5, -0.2], "b": 0.1}, [(1.0, 0.4), (2.0, 1.1)])
    report = symdiff.check(model, point, wrt="params")
    assert report.ok, str(report)
    assert [r.param for r in report.rows] == ['params["w"][0]', 'params["w"][1]',
                                              'params["b"]']


def test_nested_pairs_and_a_number():
    report = symdiff.check(layers_forward, ([(0.9, 0.1), (1.1, -0.2)], 0.5))
    assert report.ok, str(report)
    assert [r.param for r in report.rows] == ["layers[0][0]", "layers[0][1]", "layers[1][0]",
                                              "layers[1][1]", "x"]


def test_random_points_from_an_example():
    report = symdiff.check(rosenbrock, example=([1.0] * 4,), samples=3)
    assert report.ok and len(report.rows) == 12


def test_the_generated_gradient_has_the_structure():
    point = ({"w": [0.5, -0.2], "b": 0.1}, [(1.0, 0.4)])
    same_structure(symdiff.grad(model, wrt="params")(*point), point[0])


def test_the_cli_checks_a_container(tmp_path, capsys, monkeypatch):
    (tmp_path / "rosen.py").write_text(
        "def rosenbrock(x):\n"
        "    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2"
        " for i in range(len(x) - 1))\n")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "rosen.py:rosenbrock", "--at", "[0.5, 1.2, 0.8]",
                     "--at", "x=[1.1, 0.9, 1.3]"]) == 0
    out = capsys.readouterr().out
    assert "check rosenbrock: ok" in out and "x[2]" in out


def test_the_cli_checks_a_dict(tmp_path, capsys, monkeypatch):
    (tmp_path / "keys.py").write_text(
        "def by_key(p, x):\n    return p['w'] * x * x + p['b']\n")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "keys.py:by_key", "--at", 'p={"w": 2.0, "b": 1.0}, x=0.5']) == 0
    out = capsys.readouterr().out
    assert 'p["w"]' in out and 'p["b"]' in out and "{2 numbers}" in out
