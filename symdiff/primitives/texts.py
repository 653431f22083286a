"""The texts of the primitives' records: parsed, read, and computed by numpy.

Expects a forward or partial text of a record (a Python expression over its
parameters, ``out`` and ``math``).  Guarantees its parsed expression (``template``,
cached: callers clone before changing it), the names it reads, and the same text
computed by numpy (``numpy_text``): ``math.f`` is ``numpy.f`` and ``/``, ``**``,
``//``, ``%`` are numpy's ``divide``, ``power``, ``floor_divide``, ``remainder``,
which give inf or nan where Python's operators raise.

    numpy_text("1.0 / y")     ->  "numpy.divide(1.0, y)"
"""

import ast

NUMPY = "numpy"  # the name standing for the numpy module in texts computed by numpy


def template(text):
    """The parsed expression of a rule's forward or partial text (cached)."""
    cached = _TEMPLATES.get(text)
    if cached is None:
        cached = _TEMPLATES[text] = ast.parse(text, mode="eval").body
    return cached


_TEMPLATES = {}


def names_read(text):
    """The names ``text`` reads (``math``, ``x``, ``out``, ``digamma``...), found once
    per text."""
    found = _NAMES_READ.get(text)
    if found is None:
        found = _NAMES_READ[text] = frozenset(n.id for n in ast.walk(template(text))
                                              if isinstance(n, ast.Name))
    return found


_NAMES_READ = {}


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
