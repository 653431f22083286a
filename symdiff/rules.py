"""The derivative table: the only place the generator learns a derivative.

One ``Rule`` per primitive: how to compute it (``forward``), and one partial per
argument as a Python expression over the arguments ``x``, ``y`` and the primal
output ``out``; ``None`` means "does not depend on this argument".  Each entry
also carries the domain its test samples and a note on the convention at points
where the derivative is not defined.  Adding a primitive means adding one entry.

Partials are written so they never raise where the forward computation does
not: ``sqrt'(0)`` is ``inf``, ``abs'(0)`` is 0 (the conventions of JAX and
PyTorch).  Where the forward computation raises, the gradient raises the same.

A primitive reached through a *family* of names computes as that family does.
The forward keeps the user's spelling (``math.pow`` stays ``math.pow``, with its
``ValueError`` where ``**`` gives a complex number; ``np.log`` stays numpy's),
and ``Rule.spelled(family)`` gives the rule as the family computes it: an entry's
``spellings`` say what differs (``Spelling``), and under numpy's names every
partial is computed by numpy (``numpy_text``: ``math.cos`` -> ``numpy.cos``,
``a / b`` -> ``numpy.divide(a, b)``), so it gives ``inf`` or ``nan`` where numpy
does, under numpy's ``errstate``, instead of raising.
"""

import ast
import math
from dataclasses import dataclass, replace

INF_GUARD = "math.inf"
NUMPY = "numpy"  # the name standing for the numpy module in texts computed by numpy


@dataclass(frozen=True)
class Spelling:
    """What a primitive computes differently under one family's names (None: as the rule)."""

    forward: str = None
    partials: tuple = None


@dataclass(frozen=True)
class Rule:
    forward: str
    partials: tuple
    domain: tuple = ((-3.0, 3.0),)
    note: str = ""
    params: tuple = ("x", "y")  # the names standing for the arguments in the texts
    spellings: tuple = ()  # (family, Spelling): "math" or "numpy", where it differs

    def spelled(self, family):
        """The rule as the family ``family`` computes it: "math", "numpy", or None for
        Python's operators and builtins."""
        if family is None:
            return self
        override = dict(self.spellings).get(family, Spelling())
        rule = replace(self, forward=override.forward or self.forward,
                       partials=override.partials or self.partials, spellings=())
        if family == "numpy":
            rule = replace(rule, partials=tuple(None if p is None else numpy_text(p)
                                                for p in rule.partials))
        return rule


def _unary(forward, partial, domain=(-3.0, 3.0), note="", spellings=()):
    return Rule(forward, (partial,), (domain,), note, spellings=spellings)


RULES = {
    # arithmetic
    "add": Rule("x + y", ("1.0", "1.0"), ((-3, 3), (-3, 3))),
    "sub": Rule("x - y", ("1.0", "-1.0"), ((-3, 3), (-3, 3))),
    "mul": Rule("x * y", ("y", "x"), ((-3, 3), (-3, 3))),
    "div": Rule("x / y", ("1.0 / y", "-out / y"), ((-3, 3), (0.5, 3))),
    "pow": Rule("x ** y",
                ("y * x ** (y - 1) if abs(x) >= 1.0 or y >= 1 else "
                 "((y * (x ** y / x) if y or abs(x ** y / x) < math.inf else 0.0) if x else "
                 "((math.inf if y > 0 else y * math.inf) if y else 0.0))",
                 "out * math.log(x) if x > 0 else (0.0 if x == 0 else math.nan)"),
                ((0.2, 3), (-2, 2)),
                "d/dx is 0 for y = 0 (at every x, nan included) and, at x = 0, inf for "
                "0 < y < 1 (nan for y = inf); d/dy is 0 at x = 0 and nan for x < 0; for "
                "|x| < 1 and y < 1, y * (x ** y / x), which overflows to inf where x ** (y - 1) "
                "would raise (and reads x and y only, so a loop need not save the output); the branch taken at y = 0 is the formula wherever it is finite, "
                "so second derivatives there hold",
                spellings=(("math", Spelling(forward="math.pow(x, y)")),)),
    "floordiv": Rule("x // y", (None, None), ((-3, 3), (0.5, 3)),
                     "piecewise constant: derivative 0, also at the jumps"),
    "mod": Rule("x % y", ("1.0", "-(x // y)"), ((-3, 3), (0.5, 3)),
                "x % y = x - y * (x // y); at the jumps the right-hand derivative"),
    "neg": _unary("-x", "-1.0"),
    "pos": _unary("+x", "1.0"),
    "copy": _unary("x", "1.0"),
    # builtins
    "abs": _unary("abs(x)", "1.0 if x > 0 else (-1.0 if x < 0 else 0.0)",
                  note="abs'(0) = 0"),
    "max": Rule("max(x, y)", ("0.0 if y > x else 1.0", "1.0 if y > x else 0.0"),
                ((-3, 3), (-3, 3)), "the gradient goes to the argument max returns (the first on "
                "a tie); np.maximum returns a nan argument (the first of two)",
                spellings=(("numpy", Spelling(partials=(
                    "0.0 if y > x or y != y and x == x else 1.0",
                    "1.0 if y > x or y != y and x == x else 0.0"))),)),
    "min": Rule("min(x, y)", ("0.0 if y < x else 1.0", "1.0 if y < x else 0.0"),
                ((-3, 3), (-3, 3)), "the gradient goes to the argument min returns (the first on "
                "a tie); np.minimum returns a nan argument (the first of two)",
                spellings=(("numpy", Spelling(partials=(
                    "0.0 if y < x or y != y and x == x else 1.0",
                    "1.0 if y < x or y != y and x == x else 0.0"))),)),
    "float": _unary("float(x)", "1.0"),
    "int": _unary("int(x)", None, note="piecewise constant: derivative 0"),
    "round": _unary("round(x)", None, note="piecewise constant: derivative 0"),
    "roundn": Rule("round(x, y)", (None, None), ((-3, 3), (0, 3)),
                   "piecewise constant: derivative 0"),
    "stop_gradient": _unary("x", None, note="identity with derivative 0, by definition"),
    # math
    "sin": _unary("math.sin(x)", "math.cos(x)"),
    "cos": _unary("math.cos(x)", "-math.sin(x)"),
    "tan": _unary("math.tan(x)", "1.0 + out * out", (-1.4, 1.4)),
    "asin": _unary("math.asin(x)", "1.0 / math.sqrt(1.0 - x * x) if x * x != 1.0 else math.inf",
                   (-0.95, 0.95), "inf at x = ±1"),
    "acos": _unary("math.acos(x)", "-1.0 / math.sqrt(1.0 - x * x) if x * x != 1.0 else -math.inf",
                   (-0.95, 0.95), "-inf at x = ±1"),
    "atan": _unary("math.atan(x)", "1.0 / (1.0 + x * x)"),
    "atan2": Rule("math.atan2(x, y)",
                  ("y / (x * x + y * y) if x * x + y * y else "
                   "(y / math.hypot(x, y) / math.hypot(x, y) if x or y else math.nan)",
                   "-x / (x * x + y * y) if x * x + y * y else "
                   "(-x / math.hypot(x, y) / math.hypot(x, y) if x or y else math.nan)"),
                  ((-3, 3), (0.5, 3)),
                  "nan at the origin (0 / 0); where x * x + y * y underflows to 0 near it, "
                  "divided by hypot(x, y) twice instead"),
    "sinh": _unary("math.sinh(x)", "math.cosh(x)"),
    "cosh": _unary("math.cosh(x)", "math.sinh(x)"),
    "tanh": _unary("math.tanh(x)", "1.0 - out * out"),
    "asinh": _unary("math.asinh(x)", "1.0 / math.sqrt(x * x + 1.0)"),
    "acosh": _unary("math.acosh(x)", "1.0 / math.sqrt(x * x - 1.0) if x != 1.0 else math.inf",
                    (1.1, 4.0), "inf at x = 1"),
    "atanh": _unary("math.atanh(x)", "1.0 / (1.0 - x * x)", (-0.95, 0.95)),
    "exp": _unary("math.exp(x)", "out"),
    "expm1": _unary("math.expm1(x)", "out + 1.0"),
    "log": _unary("math.log(x)", "1.0 / x", (0.1, 5.0)),
    "logb": Rule("math.log(x, y)",
                 ("1.0 / x / math.log(y)", "-math.log(x) / y / math.log(y) ** 2"),
                 ((0.1, 5.0), (1.5, 5.0))),
    "log1p": _unary("math.log1p(x)", "1.0 / (1.0 + x)", (-0.9, 5.0)),
    "log2": _unary("math.log2(x)", "1.0 / (x * math.log(2.0))", (0.1, 5.0)),
    "log10": _unary("math.log10(x)", "1.0 / (x * math.log(10.0))", (0.1, 5.0)),
    "sqrt": _unary("math.sqrt(x)", "0.5 / out if out else math.inf", (0.0, 5.0),
                   "sqrt'(0) = inf"),
    "hypot": Rule("math.hypot(x, y)", ("x / out if out else 0.0", "y / out if out else 0.0"),
                  ((-3, 3), (-3, 3)), "0 at the origin"),
    "fabs": _unary("math.fabs(x)", "1.0 if x > 0 else (-1.0 if x < 0 else 0.0)",
                   note="fabs'(0) = 0"),
    "erf": _unary("math.erf(x)", "1.1283791670955126 * math.exp(-x * x)"),
    "erfc": _unary("math.erfc(x)", "-1.1283791670955126 * math.exp(-x * x)"),
    "floor": _unary("math.floor(x)", None, note="piecewise constant: derivative 0"),
    "ceil": _unary("math.ceil(x)", None, note="piecewise constant: derivative 0"),
    "trunc": _unary("math.trunc(x)", None, note="piecewise constant: derivative 0"),
    "fmod": Rule("math.fmod(x, y)",
                 ("1.0", "-(math.trunc(x / y) if abs(x / y) < 4503599627370496.0 else x / y) "
                  "if y else math.nan"),
                 ((-3, 3), (0.5, 3)),
                 "fmod(x, y) = x - y * trunc(x / y); at the jumps the right-hand derivative; "
                 "a quotient of 2 ** 52 or more (inf, nan) is its own trunc; nan in y at "
                 "y = 0 (where fmod gives nan or raises)"),
    "copysign": Rule("math.copysign(x, y)",
                     ("1.0 if (x >= 0) == (math.copysign(1.0, y) > 0) else -1.0", None),
                     ((0.2, 3), (-3, 3)), "derivative 0 in the sign argument"),
    "degrees": _unary("math.degrees(x)", "57.29577951308232"),
    "radians": _unary("math.radians(x)", "0.017453292519943295"),
    "cbrt": _unary("math.cbrt(x)", "1.0 / (3.0 * out * out) if out else math.inf",
                   note="cbrt'(0) = inf"),
    "exp2": _unary("math.exp2(x)", "out * 0.6931471805599453"),
    # numpy's elementwise functions with no math twin (generated code calls numpy's own)
    "square": _unary("x * x", "2.0 * x"),
    "sinc": _unary("math.sin(math.pi * x) / (math.pi * x) if x else 1.0",
                   "(math.cos(math.pi * x) - out) / x if x else 0.0",
                   note="sin(pi x) / (pi x), 1 at 0 with derivative 0 there"),
    "reciprocal": _unary("1.0 / x", "-(out * out)", (0.2, 3.0)),
    "sign": _unary("1.0 if x > 0 else (-1.0 if x < 0 else x)", None,
                   note="piecewise constant: derivative 0"),
    "rint": _unary("float(round(x))", None, note="piecewise constant: derivative 0"),
    "fmax": Rule("x if x >= y or y != y else y",
                 ("1.0 if x >= y or y != y else 0.0", "0.0 if x >= y or y != y else 1.0"),
                 ((-3, 3), (-3, 3)), "like max, but a nan argument loses; the first on a tie"),
    "fmin": Rule("x if x <= y or y != y else y",
                 ("1.0 if x <= y or y != y else 0.0", "0.0 if x <= y or y != y else 1.0"),
                 ((-3, 3), (-3, 3)), "like min, but a nan argument loses; the first on a tie"),
    "logaddexp": Rule("max(x, y) + math.log1p(math.exp(-abs(x - y)))",
                      ("math.exp(x - out)", "math.exp(y - out)"), ((-3, 3), (-3, 3))),
    "logaddexp2": Rule("max(x, y) + math.log2(1.0 + 2.0 ** -abs(x - y))",
                       ("2.0 ** (x - out)", "2.0 ** (y - out)"), ((-3, 3), (-3, 3))),
    "clip": Rule("min(max(x, lo), hi)",
                 ("1.0 if x != x or lo <= x <= hi else 0.0",
                  "1.0 if x == x and (x < lo <= hi or lo != lo) else 0.0",
                  "1.0 if x == x and lo == lo and (hi < x or hi < lo or hi != hi) else 0.0"),
                 ((-3, 3), (-2, -0.5), (0.5, 2)),
                 "the gradient goes to the argument returned; x's on the bounds themselves; "
                 "a nan argument is the one returned (x, then lo, then hi)",
                 params=("x", "lo", "hi")),
}

# The user-facing names of the primitives: ``math.<name>`` and ``numpy.<name>``.
MATH_FUNCTIONS = {
    name: name for name in (
        "sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp expm1 "
        "log log1p log2 log10 sqrt hypot fabs erf erfc floor ceil trunc fmod copysign pow "
        "degrees radians cbrt exp2"
    ).split() if hasattr(math, name)  # cbrt and exp2 came with Python 3.11
}
NUMPY_FUNCTIONS = {
    "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "asin", "arccos": "acos",
    "arctan": "atan", "arctan2": "atan2", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
    "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "exp": "exp",
    "expm1": "expm1", "log": "log", "log1p": "log1p", "log2": "log2", "log10": "log10",
    "sqrt": "sqrt", "hypot": "hypot", "fabs": "fabs", "abs": "abs", "absolute": "abs",
    "floor": "floor", "ceil": "ceil", "trunc": "trunc", "fmod": "fmod", "power": "pow",
    "copysign": "copysign", "maximum": "max", "minimum": "min",
    "degrees": "degrees", "rad2deg": "degrees", "radians": "radians", "deg2rad": "radians",
    "cbrt": "cbrt", "exp2": "exp2", "square": "square", "reciprocal": "reciprocal",
    "sign": "sign", "rint": "rint", "fmax": "fmax", "fmin": "fmin", "logaddexp": "logaddexp",
    "logaddexp2": "logaddexp2", "clip": "clip", "negative": "neg", "positive": "pos",
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "div", "true_divide": "div",
    "float_power": "pow", "remainder": "mod", "mod": "mod", "floor_divide": "floordiv",
    "sinc": "sinc",
}
BUILTIN_FUNCTIONS = {"abs": "abs", "max": "max", "min": "min", "pow": "pow",
                     "float": "float", "int": "int", "round": "round"}


def custom_rule(function_name, partial_names):
    """The rule of a user function with its own partials (``symdiff.defgrad``).

    Its texts call the function and its partial functions by the names the
    generated code knows them under; arguments stand as ``__arg0``, ``__arg1``...
    """
    params = tuple(f"__arg{i}" for i in range(len(partial_names)))
    args = ", ".join(params)
    partials = tuple(None if name is None else f"{name}({args}, out)" for name in partial_names)
    return Rule(f"{function_name}({args})", partials, note="the user's own rule",
                params=params)


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


def template(text):
    """The parsed expression of a rule's forward or partial text (cached)."""
    cached = _TEMPLATES.get(text)
    if cached is None:
        cached = _TEMPLATES[text] = ast.parse(text, mode="eval").body
    return cached


_TEMPLATES = {}


def uses_output(rule):
    return any(p is not None and "out" in _names(p) for p in rule.partials)


def _names(text):
    return {n.id for n in ast.walk(template(text)) if isinstance(n, ast.Name)}
