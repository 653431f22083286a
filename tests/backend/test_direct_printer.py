"""``backend.direct`` writes each statement it reads as astor and ``ast.unparse`` do after
``minimal_parentheses``: compared on hand-picked statements (each one a rule of
precedence) and on random trees of every kind of expression it reads."""

import ast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symdiff.backend import direct, printer

ASTOR = printer.astor_module() is not None
LONG_WAYS = printer.PRINTERS if ASTOR else ("unparse",)


def long_way(stmt, name):
    """The statement's text as ``printer`` writes it without ``backend.direct``."""
    lines = []
    writer = printer._Printer(name, lines, direct_first=False)
    if isinstance(stmt, (ast.If, ast.While, ast.For)):
        return writer.header(stmt)
    return writer.simple(stmt)


def written(stmt):
    if isinstance(stmt, (ast.If, ast.While, ast.For)):
        return direct.header_text(stmt)
    return direct.statement_text(stmt)


CASES = [
    "x = (-a) ** b", "x = -a ** b", "x = a ** -b", "x = a ** (-b) ** c", "x = (a ** b) ** c",
    "x = a - (b - c)", "x = a - -b", "x = --a", "x = -(a * b)", "x = (a + b) * c",
    "x = not not a", "x = -(not a)", "x = (not a) == b", "x = a == (not b)",
    "x = (a < b) < c", "x = a < b <= c", "x = a and (b and c)", "x = a or b and c",
    "x = (a or b) and c", "x = (a if b else c) if d else e", "x = a if b else c if d else e",
    "x = a if (b if c else d) else e", "x = f((a, b), k=(c, d))", "x = (a + b)(c)",
    "x = (a + b).c", "x = (a + b)[c]", "x[i, j] = v", "x = y[a:b]", "x = y[:-1]",
    "x = y[a:b, c]", "x = [a, (b, c)]", "a, b = c", "a = b = c", "return a, b",
    "return (a, b), c", "return", "x += a * b", "d[i] -= g", "raise ValueError('no')",
    "assert a < b, 'why'", "f(a)", "x = 'it''s' + \"q\"", "x = 1.5e-07 * y", "x = True",
    "x = a is not None", "x = a not in b", "x = a // b % c", "x = a & b | c ^ d",
    "x = a << (b >> c)", "x = math.sin(x) * y", "if not (a and b):\n pass",
    "while a < b:\n pass", "for a, b in zip(c, d):\n pass", "for i in range(n - 1):\n pass",
]


@pytest.mark.parametrize("source", CASES)
def test_direct_text_is_the_printers_text(source):
    stmt = ast.parse(source).body[0]
    text = written(stmt)
    assert text is not None, source
    for name in LONG_WAYS:
        assert text == long_way(stmt, name), (source, name)


@pytest.mark.parametrize("source", ["x = f(*a)", "x = lambda: 1", "x = f'{a}'", "x = (a,)",
                                    "x = y[::2]", "x = (1).real", "x = {a: b}", "x = -1e400",
                                    "if (a, b):\n pass", "x = y[()]", "x = [i for i in a]"])
def test_what_it_does_not_write_is_left_to_the_printers(source):
    assert written(ast.parse(source).body[0]) is None


NAMES = st.sampled_from(["a", "b", "x", "math"]).map(lambda n: ast.Name(n, ast.Load()))
CONSTANTS = st.one_of(st.floats(min_value=0.0, allow_nan=False, allow_infinity=False),
                      st.integers(min_value=0, max_value=2 ** 70), st.text(max_size=4),
                      st.sampled_from([True, False, None])).map(ast.Constant)
BINARY = [ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd,
          ast.BitOr, ast.LShift]
UNARY = [ast.USub, ast.UAdd, ast.Not, ast.Invert]
COMPARE = [ast.Lt, ast.Gt, ast.Eq, ast.NotEq, ast.Is, ast.NotIn]


def _expressions():
    def extend(inner):
        some = st.lists(inner, min_size=1, max_size=3)
        return st.one_of(
            st.tuples(inner, st.sampled_from(BINARY), inner).map(
                lambda t: ast.BinOp(t[0], t[1](), t[2])),
            st.tuples(st.sampled_from(UNARY), inner).map(lambda t: ast.UnaryOp(t[0](), t[1])),
            st.tuples(inner, st.lists(st.tuples(st.sampled_from(COMPARE), inner), min_size=1,
                                      max_size=2)).map(
                lambda t: ast.Compare(t[0], [o() for o, _ in t[1]], [c for _, c in t[1]])),
            st.tuples(st.sampled_from([ast.And, ast.Or]), st.lists(inner, min_size=2,
                                                                     max_size=3)).map(
                lambda t: ast.BoolOp(t[0](), t[1])),
            st.tuples(inner, inner, inner).map(lambda t: ast.IfExp(*t)),
            st.tuples(inner, st.lists(inner, max_size=2), st.lists(inner, max_size=1)).map(
                lambda t: ast.Call(t[0], t[1], [ast.keyword("k", v) for v in t[2]])),
            st.tuples(inner, st.sampled_from(["real", "sin"])).map(
                lambda t: ast.Attribute(t[0], t[1], ast.Load())),
            some.map(lambda e: ast.Tuple(e, ast.Load())),
            some.map(lambda e: ast.List(e, ast.Load())),
            st.tuples(inner, st.one_of(inner, st.tuples(st.none() | inner, st.none() | inner)
                                       .map(lambda t: ast.Slice(*t)))).map(
                lambda t: ast.Subscript(t[0], t[1], ast.Load())),
        )

    return st.recursive(st.one_of(NAMES, CONSTANTS), extend, max_leaves=7)


def _statements():
    expr = _expressions()
    store = st.sampled_from(["y", "z"]).map(lambda n: ast.Name(n, ast.Store()))
    return st.one_of(
        st.tuples(st.lists(store, min_size=1, max_size=2), expr).map(
            lambda t: ast.Assign([ast.Tuple(t[0], ast.Store()) if len(t[0]) > 1 else t[0][0]],
                                 t[1], None)),
        st.tuples(store, st.sampled_from(BINARY), expr).map(
            lambda t: ast.AugAssign(t[0], t[1](), t[2])),
        expr.map(ast.Return), expr.map(ast.Expr),
        st.tuples(expr, expr).map(lambda t: ast.Assert(*t)),
        expr.map(lambda e: ast.If(e, [ast.Pass()], [])),
        st.tuples(store, expr).map(lambda t: ast.For(t[0], t[1], [ast.Pass()], [], None)),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(_statements())
def test_random_statements_are_written_as_the_printers_write_them(stmt):
    stmt = ast.fix_missing_locations(stmt)
    text = written(stmt)
    if text is None:
        return
    for name in LONG_WAYS:
        try:
            want = long_way(stmt, name)
        except Exception:  # a tree no printer writes (astor's ``if x,:``): not compared
            return
        assert text == want, (ast.dump(stmt), name)
