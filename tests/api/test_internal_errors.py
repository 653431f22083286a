"""Our bugs are reported as bugs: an ``InternalError`` is never taken for the user's
mistake, turned into a user message or swallowed, by the entry points, ``check`` or the
command line (which exits with status 3, not a user error's 2).

A bug is planted by making one pass (or one entry of check's bridge to the tape) fail
the way a bug would, with ``monkeypatch``; everything else runs as users run it.
"""

import dataclasses
import math

import pytest

import symdiff
import symdiff.pipeline as pipeline
from symdiff.checking import compare, examples, rules, tape_bridge
from symdiff.cli import main as cli
from symdiff.cli.errors import INTERNAL_ERROR, USER_ERROR
from symdiff.primitives import registry

MODEL = """\
import math


def f(x, y):
    return x * math.sin(y)
"""


def planted(*args, **kwargs):
    raise KeyError("a planted bug")


def bug():
    raise symdiff.InternalError("check", "a planted bug")


def fresh():
    """A new function each time, so no gradient of it is cached."""
    def g(x, y):
        return x * math.sin(y) + y
    return g


@pytest.mark.parametrize("entry", ["grad", "value_and_grad", "source", "hessian", "hvp",
                                   "check"])
def test_a_failing_pass_is_an_internal_error_for_every_entry_point(entry, monkeypatch):
    monkeypatch.setattr(pipeline, "optimize_function", planted)
    with pytest.raises(symdiff.InternalError) as raised:
        if entry == "check":
            symdiff.check(fresh(), (0.5, 1.0))
        else:
            getattr(symdiff, entry)(fresh())
    assert not isinstance(raised.value, symdiff.SymdiffError)
    assert raised.value.pass_name == "optimize"


@pytest.mark.parametrize("entry", ["jvp", "jacobian"])
def test_a_failing_forward_pass_is_an_internal_error(entry, monkeypatch):
    monkeypatch.setattr(pipeline, "differentiate_forward", planted)
    with pytest.raises(symdiff.InternalError) as raised:
        getattr(symdiff, entry)(fresh())
    assert raised.value.pass_name == "differentiate"


def test_check_does_not_swallow_an_internal_error_where_it_reports_exceptions():
    """Where a witness or the function raises, check writes ``raises ...`` in its table;
    an ``InternalError`` is not one of those."""
    with pytest.raises(symdiff.InternalError):
        compare._attempt(lambda *args: bug(), (1.0,), ["x"], {})
    with pytest.raises(symdiff.InternalError):
        compare._raises(lambda *args: bug(), (1.0,))
    with pytest.raises(symdiff.InternalError):
        examples.random_points(lambda *args: bug(), ["x"], ["x"], set(), 3, (0.1, 2.0), 0)
    assert isinstance(compare._attempt(lambda *args: math.log(0.0), (1.0,), ["x"], {})[0],
                      compare.Raised)


def square(x):
    return x * x


def square_rule(x, out):
    bug()


symdiff.defgrad(square, square_rule)


def through_square(x, y):
    return square(x) * y


def test_a_rule_meeting_our_bug_is_not_a_wrong_rule():
    program = symdiff.api.build(through_square).program
    with pytest.raises(symdiff.InternalError):
        rules.check_rules(program, (0.5, 2.0))


def test_an_operation_missing_from_checks_bridge_is_an_internal_error(monkeypatch):
    """The tape bridge names the operation it lacks; the divergence locator, which notes
    a failure of its own run of the statements, does not take that for one."""
    mul = registry.rule_of("mul")
    monkeypatch.setitem(registry._RECORDS, "mul", dataclasses.replace(mul, bridge="tape.mul(x, y)"))
    monkeypatch.setattr(symdiff.tape, "mul", None, raising=False)
    monkeypatch.setattr(tape_bridge, "_BRIDGES", {})
    program = symdiff.api.build(through_square).program
    with pytest.raises(symdiff.InternalError) as raised:
        tape_bridge.tape_op(program, "mul")
    assert "'mul'" in str(raised.value)
    report = compare.CheckReport("through_square", ["x", "y"])
    with pytest.raises(symdiff.InternalError):
        symdiff.checking.locate.locate_safely(report, program, ["x", "y"], (0.5, 2.0), 1e-7,
                                              1e-9, {})
    assert report.notes == []


@pytest.mark.parametrize("command", ["show", "check", "graph"])
def test_the_command_line_reports_our_bug_as_one(command, tmp_path, monkeypatch, capsys):
    (tmp_path / "model.py").write_text(MODEL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pipeline, "optimize_function", planted)
    code = cli.main([command, "model.py:f"])
    err = capsys.readouterr().err
    assert code == INTERNAL_ERROR != USER_ERROR
    assert err.startswith("symdiff: internal error: ") and "please report" in err
    assert "pass optimize" in err and "Traceback" not in err


def test_the_command_line_shows_the_traceback_of_our_bug_with_debug(tmp_path, monkeypatch,
                                                                    capsys):
    (tmp_path / "model.py").write_text(MODEL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pipeline, "optimize_function", planted)
    assert cli.main(["show", "model.py:f", "--debug"]) == INTERNAL_ERROR
    err = capsys.readouterr().err
    assert "Traceback" in err and "KeyError: 'a planted bug'" in err


def test_importing_a_module_that_meets_our_bug_is_our_bug(tmp_path, monkeypatch, capsys):
    """--import runs the module; symdiff failing inside it is not the module's error."""
    (tmp_path / "model.py").write_text(MODEL + "\nimport symdiff\ngradient = symdiff.grad(f)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", list(__import__("sys").path))
    monkeypatch.delitem(__import__("sys").modules, "model", raising=False)
    monkeypatch.setattr(pipeline, "optimize_function", planted)
    assert cli.main(["show", "model.py:f", "--import"]) == INTERNAL_ERROR
    assert capsys.readouterr().err.startswith("symdiff: internal error: ")


def test_a_user_error_keeps_its_status(tmp_path, monkeypatch, capsys):
    (tmp_path / "model.py").write_text(MODEL.replace("return x", "with open(x):\n        pass\n"
                                                     "    return x"))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["show", "model.py:f"]) == USER_ERROR
    assert capsys.readouterr().err.startswith("model.py:")


def _helper(y):
    return y * y


def test_a_bug_reading_a_helper_is_not_taken_for_an_unreadable_helper(monkeypatch):
    """Reading a helper's source is the user's problem when the source cannot be read;
    our own failure there stays ours, not an ``UnknownFunctionError``."""
    import symdiff.lower.scope as scope

    real = scope.parse_function

    def parse(fn):
        if fn is _helper:
            raise symdiff.InternalError("parse", "a planted bug")
        return real(fn)

    monkeypatch.setattr(scope, "parse_function", parse)

    def uses_helper(x):
        return _helper(x) + x

    with pytest.raises(symdiff.InternalError) as raised:
        symdiff.grad(uses_helper)(1.0)
    assert not isinstance(raised.value, symdiff.SymdiffError)
