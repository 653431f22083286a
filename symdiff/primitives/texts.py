"""The texts of the primitives' records: parsed, read, and computed by numpy.

Expects a forward or partial text of a record (a Python expression over its
parameters, ``out`` and ``math``).  Guarantees its IR expression (``expression``,
parsed once per text: a frozen ``core.expr`` tree with the parameters as placeholder
names, which ``instantiate`` replaces by a statement's operands), its Python syntax
tree (``template``, cached: for the passes that read Python), the names it reads, and
the same text computed by numpy (``numpy_text``): ``math.f`` is ``numpy.f`` and ``/``,
``**``, ``//``, ``%`` are numpy's ``divide``, ``power``, ``floor_divide``, ``remainder``,
which give inf or nan where Python's operators raise.

    numpy_text("1.0 / y")     ->  "numpy.divide(1.0, y)"
    instantiate("x * y", ("x", "y"), (Name("a"), Const(2.0)), Name("z"), None)
                              ->  BinOp("*", Name("a"), Const(2.0))
"""

import ast

from symdiff.core import expr as ex
from symdiff.core.rewrite import substitute

NUMPY = "numpy"  # the name standing for the numpy module in texts computed by numpy


def template(text):
    """The parsed expression of a rule's forward or partial text (cached)."""
    cached = _TEMPLATES.get(text)
    if cached is None:
        cached = _TEMPLATES[text] = ast.parse(text, mode="eval").body
    return cached


_TEMPLATES = {}


def expression(text):
    """The IR expression of a text (parsed once; frozen, so every use shares it)."""
    cached = _EXPRESSIONS.get(text)
    if cached is None:
        parsed = ex.from_ast(template(text))
        names = tuple(ex.names(parsed))
        cached = _EXPRESSIONS[text] = (parsed, names, frozenset(names))
    return cached[0]


_EXPRESSIONS = {}  # text -> (its IR expression, the names it reads in order, as a set)


def instantiate(text, params, args, out, names):
    """The IR expression of ``text`` for one statement: each of ``params`` replaced by
    the operand at its place in ``args`` (IR expressions; a parameter without one stays),
    ``out`` by ``out``, and any other name ``n`` it reads by ``names(n)`` where that is
    not None (the module ``math`` is called by, a builtin's alias, a helper's name).
    ``names`` is asked once per name the text reads, in the order it reads them."""
    parsed = expression(text)
    bound = dict(zip(params, args))
    replaced = {}
    for name in _EXPRESSIONS[text][1]:
        value = bound.get(name)
        if value is None and name == "out":
            value = out
        if value is None and names is not None:
            value = names(name)
        if value is not None:
            replaced[name] = value
    return substitute(parsed, replaced)


def names_read(text):
    """The names ``text`` reads (``math``, ``x``, ``out``, ``digamma``...): those of its
    IR expression, found once per text with it."""
    expression(text)
    return _EXPRESSIONS[text][2]


def uses_output(rule):
    """Whether a partial of ``rule`` reads the primal output ``out``."""
    return any(p is not None and "out" in names_read(p) for p in rule.partials)


def numpy_text(text):
    """``text`` computed by numpy: ``math.f`` is ``numpy.f`` and ``/``, ``**``, ``//``,
    ``%`` are numpy's ``divide``, ``power``, ``floor_divide``, ``remainder`` (which give
    inf or nan where Python's operators raise).  ``+ - *`` and comparisons stay: on
    floats they raise nothing."""
    cached = _NUMPY_TEXTS.get(text)
    if cached is None:
        cached = _NUMPY_TEXTS[text] = ast.unparse(_ToNumpy().visit(ast.parse(text, mode="eval")))
    return cached


_NUMPY_TEXTS = {}
_NUMPY_OPERATORS = {ast.Div: "divide", ast.Pow: "power", ast.FloorDiv: "floor_divide",
                    ast.Mod: "remainder"}


class _ToNumpy(ast.NodeTransformer):
    def visit_Name(self, node):
        return ast.Name(NUMPY, ast.Load()) if node.id == "math" else node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        function = _NUMPY_OPERATORS.get(type(node.op))
        if function is None:
            return node
        return ast.Call(ast.Attribute(ast.Name(NUMPY, ast.Load()), function, ast.Load()),
                        [node.left, node.right], [])
