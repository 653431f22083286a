"""AD as functions (``symdiff.ad``): rules read a frozen environment, no class inherits.

The structure is checked on the source of ``symdiff/ad``: no class there has a base (no
mixins), and no statement sets an attribute of anything but ``self`` inside its own
class (no pass writes state onto another's object).  The environment's analyses are
frozen values; ``redefinitions`` is checked on a lowered program with an ``if`` and a
loop: an assignment in the other branch of an ``if`` is not a redefinition, one the loop
runs again is.
"""

import ast
import dataclasses
from pathlib import Path
from types import MappingProxyType

import pytest

import symdiff.ad
from symdiff.ad.reverse import environment
from symdiff.frontend.parse import parse_function
from symdiff.ir import nodes as ir
from symdiff.pipeline import lower

AD = sorted(Path(symdiff.ad.__file__).parent.glob("*.py"))


@pytest.mark.parametrize("path", AD, ids=lambda p: p.name)
def test_no_class_in_ad_inherits(path):
    tree = ast.parse(path.read_text())
    based = [node.name for node in ast.walk(tree)
             if isinstance(node, ast.ClassDef) and node.bases]
    assert based == []


def _attribute_writes(tree):
    """``(line, owner)`` of each attribute assignment whose owner is not ``self`` in a
    method, or is ``self`` outside a class."""
    found = []

    def visit(node, in_class):
        for child in ast.iter_child_nodes(node):
            inside = in_class or isinstance(child, ast.ClassDef)
            targets = []
            if isinstance(child, ast.Assign):
                targets = child.targets
            elif isinstance(child, (ast.AugAssign, ast.AnnAssign)):
                targets = [child.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store):
                        owner = part.value.id if isinstance(part.value, ast.Name) else "?"
                        if owner != "self" or not inside:
                            found.append((child.lineno, owner))
            if isinstance(child, ast.Call) and getattr(child.func, "id", None) == "setattr":
                found.append((child.lineno, "setattr"))
            visit(child, inside)
    visit(tree, False)
    return found


@pytest.mark.parametrize("path", AD, ids=lambda p: p.name)
def test_no_rule_sets_an_attribute_of_another_object(path):
    assert _attribute_writes(ast.parse(path.read_text())) == []


def test_the_attribute_check_can_fail():
    planted = "def rule(env, stmt):\n    env.names.counters = []\n"
    assert _attribute_writes(ast.parse(planted)) == [(2, "?")]


def f(x, n):
    if x > 0:
        y = x * 2.0
    else:
        y = x * 3.0
    s = 0.0
    for i in range(n):
        s = s + y * x
    return s


def test_the_environment_is_frozen():
    env = environment(lower(parse_function(f)), ["x"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        env.active = frozenset()
    assert isinstance(env.active, frozenset) and isinstance(env.redefined, frozenset)
    for table in (env.built_sides, env.restored, env.facts.readers, env.facts.forwarded):
        assert isinstance(table, MappingProxyType)


def test_redefinitions_follow_the_path_the_sweeps_are_written_in():
    program = lower(parse_function(f))
    env = environment(program, ["x"])
    assigned = [(s.target, s.sid in env.redefined) for s in ir.walk(program.body)
                if isinstance(s, ir.Assign)]
    ys = [again for target, again in assigned if target == "y"]
    ss = [again for target, again in assigned if target == "s"]
    assert ys == [False, False]  # one per branch: neither follows the other
    assert ss == [False, True]  # ``s = 0.0``, then the loop's ``s = s + ...``
