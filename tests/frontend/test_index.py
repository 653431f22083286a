"""The node index: one walk of a function's tree answering, in each question's own order,
what the separate walks of the front end answered (``ir.syntax.walk``, ``ast.walk``,
``frontend.exits.own_nodes``), on every function of the test corpus and of symdiff."""

import ast
import doctest
from pathlib import Path

import pytest

import symdiff
import symdiff.frontend.index as index_module
from symdiff.frontend.exits import own_nodes
from symdiff.frontend.index import NodeIndex
from symdiff.frontend.parse import parse_function
from symdiff.ir.syntax import walk

ROOTS = [Path(symdiff.__file__).parent, Path(__file__).parents[1] / "corpus"]


def _functions():
    for root in ROOTS:
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            yield from (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))


FUNCTIONS = list(_functions())
KINDS = [(ast.Call,), (ast.Name, ast.Attribute), (ast.Lambda, ast.FunctionDef, ast.Return)]


def test_the_doctests_run():
    failures, tried = doctest.testmod(index_module)
    assert tried and not failures


def test_the_sample_holds_nested_functions_and_lambdas():
    nested = [f for f in FUNCTIONS if any(isinstance(n, (ast.Lambda, ast.FunctionDef))
                                          for n in list(walk(f))[1:])]
    assert len(FUNCTIONS) > 1000 and len(nested) > 20


@pytest.mark.parametrize("start", range(0, 8))
def test_each_order_is_the_walk_it_replaces(start):
    for tree in FUNCTIONS[start::8]:
        index = NodeIndex(tree)
        assert index.nodes == list(walk(tree))
        assert index.own == list(own_nodes(tree))
        for kinds in KINDS:
            assert index.of(*kinds) == [n for n in walk(tree) if isinstance(n, kinds)]
            assert index.breadth_first(*kinds) == [n for n in ast.walk(tree)
                                                   if isinstance(n, kinds)]


def test_a_parsed_function_keeps_its_index():
    def f(x):
        return x * x
    parsed = parse_function(f)
    assert parsed.index is parsed.index and parsed.index.tree is parsed.tree
