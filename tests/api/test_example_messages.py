"""A function that reads a parameter as a container has its text generated for example
arguments: ``symdiff.source(f)`` and ``symdiff show``/``graph`` without them say so, at
the function, with how to give them, and the way out given works."""

import pytest

import symdiff
from symdiff.cli.main import main


def loss(params, x):
    return (params["w"] * x + params["b"]) ** 2


def layered(layers, x):
    for layer in layers:
        x = layer["w"] * x + layer["b"]
    return x * x


@pytest.mark.parametrize("fn, example, words", [
    (loss, ({"w": 0.5, "b": -1.0}, 2.0), "reads params as a container"),
    (layered, ([{"w": 0.5, "b": 1.5}], 2.0), "reads layers as a container"),
])
def test_source_without_examples_says_how_to_give_them(fn, example, words):
    with pytest.raises(symdiff.SymdiffError) as caught:
        symdiff.source(fn)
    error = caught.value
    assert words in str(error) and error.filename == __file__
    assert error.lineno == fn.__code__.co_firstlineno
    assert f"symdiff.source({fn.__name__}, " in error.hint
    text = symdiff.source(fn, *example)
    assert f"def grad_{fn.__name__}(" in text


def test_a_function_of_numbers_needs_no_examples():
    assert "def grad_square(" in symdiff.source(square)


def square(x):
    return x * x


MODULE = '''
def loss(params, x):
    return (params["w"] * x + params["b"]) ** 2
'''


@pytest.mark.parametrize("command", ["show", "graph"])
def test_show_and_graph_without_at_say_to_give_it_and_with_it_work(tmp_path, capsys, command):
    path = tmp_path / "model.py"
    path.write_text(MODULE)
    assert main([command, f"{path}:loss"]) != 0
    err = capsys.readouterr().err
    assert "reads params as a container" in err and "--at" in err and "model.py:2" in err
    assert main([command, f"{path}:loss", "--at", '{"w": 0.5, "b": -1.0}, 2.0']) == 0
    out = capsys.readouterr().out
    assert ("def grad_loss(" in out) if command == "show" else out.startswith("digraph")


def test_check_at_a_point_of_a_container_function(tmp_path, capsys):
    path = tmp_path / "model.py"
    path.write_text(MODULE)
    assert main(["check", f"{path}:loss", "--at", '{"w": 0.5, "b": -1.0}, 2.0']) == 0
    assert "ok" in capsys.readouterr().out
