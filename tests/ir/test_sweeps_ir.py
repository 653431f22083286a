"""The sweeps as IR (``symdiff.ir.sweeps``) and their lowering (``backend.to_python``).

``differentiate`` and ``forward`` write IR statements holding IR expressions, with every
contribution to an adjoint an ``AddTo``; ``to_python`` writes the Python tree the
optimizer and ``emit`` read.  The generated texts themselves are proven unchanged by
``test_snapshots``; here: the IR holds no Python syntax tree, each statement kind lowers
to the Python statement it stands for (builtins under the aliases the code calls them
by), accumulations are the only augmented assignments of a reverse sweep besides trip
counters, comments are statements naming the user's lines, and ``python_names`` lists
names in the order of Python's own tree.
"""

import ast
import dataclasses

import pytest

from symdiff.ad.forward import differentiate_forward
from symdiff.ad.reverse import differentiate
from symdiff.backend.to_python import python_names, statements, to_python
from symdiff.errors import InternalError
from symdiff.frontend.parse import parse_function
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.pipeline import lower

try:
    from corpus import checks, control, nested, straight
except ImportError:  # run with the repository root, not tests/, on sys.path
    from tests.corpus import checks, control, nested, straight

CASES = [c for module in (straight, control, nested, checks) for c in module.CASES]


def program_of(fn):
    return lower(parse_function(fn))


def ir_statements(block):
    for stmt in block:
        yield stmt
        for inner in sw.blocks(stmt):
            yield from ir_statements(inner)


def holds_syntax(value):
    """Whether a Python syntax tree hides anywhere in ``value`` (a lowered ``Check``,
    which keeps the user's statement, aside)."""
    if isinstance(value, ast.AST):
        return True
    if isinstance(value, (ir.Check, str, int, float, bool, type(None))):
        return False
    if isinstance(value, (list, tuple)):
        return any(holds_syntax(v) for v in value)
    if dataclasses.is_dataclass(value):
        return any(holds_syntax(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.label)
def test_the_sweeps_are_ir_and_adjoints_accumulate_by_add_to(case):
    program = program_of(case.fn)
    generated = differentiate(program, list(program.params))
    function = generated.function
    assert isinstance(function, sw.Function) and not holds_syntax(function)
    body = list(ir_statements(function.body))
    comments = [s.text for s in body if isinstance(s, sw.Comment)]
    assert all(": " in text for text in comments) and (bool(comments) or not program.body)
    tree = to_python(generated).function
    assert isinstance(tree, ast.FunctionDef)
    adjoints = set(generated.adjoints.values())
    augmented = [n for n in ast.walk(tree) if isinstance(n, ast.AugAssign)]
    add_to = [s for s in body if isinstance(s, sw.AddTo)]
    assert len(augmented) == len(add_to)
    for stmt in add_to:
        counter = isinstance(stmt.value, ex.Const) and stmt.value.value == 1
        assert stmt.target in adjoints or counter, stmt
    forward = differentiate_forward(program, list(program.params)).function
    assert isinstance(forward, sw.Function) and not holds_syntax(forward)


def test_each_statement_lowers_to_the_python_it_stands_for():
    x, d = ex.Name("x"), ex.Name("dx")
    block = [
        sw.Comment("line 3: y = x * x"),
        sw.NewStack("stack", "push", "pop"),
        sw.Let("y", ex.BinOp("*", x, x)),
        sw.AddTo("dx", ex.BinOp("*", ex.Name("dy"), x)),
        sw.AddTo("dx", ex.Name("dy"), negate=True),
        sw.Push("push", x),
        sw.Pop("x", "pop"),
        sw.Push("values", d, method=True),
        sw.Pop(None, "values", method=True),
        sw.Pop("t", "values", method=True),
        sw.Do(ex.Call(ex.Name("record"), (ex.Const(0),))),
        sw.For("i", (ex.Name("n"),), [sw.Pass()], reverse=True),
        sw.For("i", (ex.Const(1), ex.Name("n")), [sw.Break()]),
        sw.While(ex.Const(True), [sw.If(ex.UnaryOp("not", x), [sw.Break()])]),
        sw.If(x, [sw.Raise(ex.Call(ex.Name("TypeError"), (ex.Const("no"),)))], [sw.Pass()]),
        sw.Return(ex.Tuple((x, d))),
    ]
    python = statements(block, {"range": "range_1"})
    lines = [ast.unparse(ast.fix_missing_locations(ast.Module([s], []))) for s in python[1:]]
    lines = [line.replace("(push, pop) =", "push, pop =") for line in lines]  # 3.10's unparse
    assert lines == [
        "stack = []", "push, pop = (stack.append, stack.pop)", "y = x * x", "dx += dy * x",
        "dx -= dy", "push(x)", "x = pop()", "values.append(dx)", "values.pop()",
        "t = values.pop()", "record(0)", "for i in reversed(range_1(n)):\n    pass",
        "for i in range_1(1, n):\n    break", "while True:\n    if not x:\n        break",
        "if x:\n    raise TypeError('no')\nelse:\n    pass", "return (x, dx)"]
    from symdiff.ir.syntax import Comment, comment_text
    assert isinstance(python[0], Comment) and comment_text(python[0]) == "line 3: y = x * x"


def test_python_names_follow_the_python_tree():
    loop = sw.For("i", (ex.Name("n"),), [
        sw.If(ex.Name("t"), [sw.AddTo("da", ex.BinOp("*", ex.Name("g"), ex.Name("b")))],
              [sw.Let("db", ex.Name("da"))])], reverse=True)
    tree = statements([loop])[0]
    assert python_names(loop) == [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]


def test_a_stranger_is_our_bug():
    with pytest.raises(InternalError):
        statements([ast.Pass()])


def test_helpers_of_the_ir():
    loop = sw.For("i", (ex.Name("n"),), [sw.Let("a", ex.Name("b"))])
    assert sw.mentions(loop, "b") and sw.mentions(loop, "i") and not sw.mentions(loop, "c")
    assert sw.negated(sw.negated(ex.Name("a"))) == ex.Name("a")
    assert sw.is_zero(sw.ZERO) and not sw.is_zero(ex.Const(False))
