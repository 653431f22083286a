"""The derivative table: the only place the generator learns a derivative.

One ``Rule`` per primitive: how to compute it (``forward``), and one partial per
argument as a Python expression over the arguments ``x``, ``y`` and the primal
output ``out``; ``None`` means "does not depend on this argument".  Each entry
also carries the domain its test samples and a note on the convention at points
where the derivative is not defined.  Adding a primitive means adding one entry.

Partials are written so they never raise where the forward computation does
not: ``sqrt'(0)`` is ``inf``, ``abs'(0)`` is 0 (the conventions of JAX and
PyTorch).  Where the forward computation raises, the gradient raises the same.

Besides ``math`` and the builtins, a text may call ``digamma`` or ``trigamma``, functions
generated code defines for itself (``special``), and ``NORM``, SciPy's normal distribution
as the user's call names it (``norm``, ``st.norm``).  A primitive computed by NumPy or SciPy
is called as the user's code calls it (``Assign.call``); its ``forward`` is the formula.
``VARIADIC`` functions take numbers written out, one rule per count (``rule_of``);
``PAIRS`` return two numbers, one primitive per half.

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
    defaults: tuple = ()  # values of the last parameters when a call leaves them out
    ints: tuple = ()  # the parameters that take integers (never differentiated)
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
    # the gamma family: digamma and trigamma are functions generated code defines (special.py)
    "lgamma": _unary("math.lgamma(x)", "digamma(x)", (0.2, 8.0),
                     "raises at the poles 0, -1, -2, ... as lgamma does; digamma(-inf) is nan"),
    "gamma": _unary("math.gamma(x)", "out * digamma(x)", (0.2, 5.0),
                    "raises at the poles 0, -1, -2, ... as gamma does"),
    # integer functions and tests: values with no derivative
    "factorial": Rule("math.factorial(x)", (None,), ((0, 8),), "an integer function: no derivative",
                      ints=("x",)),
    "comb": Rule("math.comb(x, y)", (None, None), ((5, 9), (0, 5)),
                 "an integer function: no derivative", ints=("x", "y")),
    "perm": Rule("math.perm(x, y)", (None, None), ((5, 9), (0, 5)),
                 "an integer function: no derivative", ints=("x", "y")),
    "isnan": _unary("math.isnan(x)", None, note="a test: no derivative"),
    "isinf": _unary("math.isinf(x)", None, note="a test: no derivative"),
    "isfinite": _unary("math.isfinite(x)", None, note="a test: no derivative"),
    "isclose": Rule("math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)", (None,) * 4,
                    ((-3, 3), (-3, 3), (1e-9, 1e-3), (0.0, 1e-3)), "a test: no derivative",
                    params=("a", "b", "rel_tol", "abs_tol"), defaults=(1e-09, 0.0)),
    "ulp": _unary("math.ulp(x)", None, note="piecewise constant: derivative 0"),
    "nextafter": Rule("math.nextafter(x, y)", ("1.0", None), ((-3, 3), (-3, 3)),
                      "x moved by one ulp toward y: derivative 1 in x, 0 in y"),
    # scaling and splitting
    "ldexp": Rule("math.ldexp(x, y)", ("math.ldexp(1.0, y)", None), ((-3, 3), (-8, 8)),
                  "x * 2 ** i; no derivative in the integer exponent", ints=("y",)),
    # the halves of the functions returning pairs: `m, e = math.frexp(x)` (see PAIRS)
    "frexp_mantissa": _unary("math.frexp(x)[0]", "out / x if x else 1.0",
                             note="2 ** -e (exactly m / x): x scaled by a power of two; 1 at 0"),
    "frexp_exponent": _unary("math.frexp(x)[1]", None, note="an integer: no derivative"),
    "modf_fraction": _unary("math.modf(x)[0]", "1.0", note="x - trunc(x): derivative 1"),
    "modf_integer": _unary("math.modf(x)[1]", None, note="piecewise constant: derivative 0"),
    "remainder": Rule("math.remainder(x, y)",
                      ("1.0", "(-float(round((x - out) / y)) if math.isfinite((x - out) / y) "
                              "else -((x - out) / y)) if y else math.nan"),
                      ((-3, 3), (0.5, 3)),
                      "x - y * n with n = x / y rounded to even; at the jumps the one-sided "
                      "derivative"),
    "clip": Rule("min(max(x, lo), hi)",
                 ("1.0 if x != x or lo <= x <= hi else 0.0",
                  "1.0 if x == x and (x < lo <= hi or lo != lo) else 0.0",
                  "1.0 if x == x and lo == lo and (hi < x or hi < lo or hi != hi) else 0.0"),
                 ((-3, 3), (-2, -0.5), (0.5, 2)),
                 "the gradient goes to the argument returned; x's on the bounds themselves; "
                 "a nan argument is the one returned (x, then lo, then hi)",
                 params=("x", "lo", "hi")),
}

# SciPy's functions, computed by SciPy as the user's code calls them (``forward`` is only the
# formula); their partials are plain ``math``, so generated code needs SciPy only where the
# user's code does.
_PHI = "0.3989422804014327"  # 1 / sqrt(2 pi)
_SQRT_2PI = "2.5066282746310002"
_Z = "((x - loc) / scale)"
_NORM = dict(params=("x", "loc", "scale"), defaults=(0.0, 1.0))
_NORM_DOMAIN = ((-3, 3), (-1, 1), (0.5, 2))


def _scale_guarded(text):
    return f"{text} if scale > 0 else math.nan"  # scipy gives nan for a scale <= 0


_CDF_DX = "NORM.pdf(x, loc, scale)"  # NORM: the distribution as the user's call names it
_LOGCDF_DX = f"math.exp(-0.5 * {_Z} * {_Z} - out) * {_PHI} / scale"  # never overflows
SCIPY_RULES = {
    "expit": _unary("1.0 / (1.0 + math.exp(-x))", "out * (1.0 - out)"),
    "logit": _unary("math.log(x / (1.0 - x))",
                    "1.0 / (x * (1.0 - x)) if 0.0 < x < 1.0 else math.nan", (0.05, 0.95),
                    "nan outside (0, 1), where logit is nan"),
    "gammaln": _unary("math.lgamma(x)", "digamma(x)", (0.2, 8.0),
                      "inf at the poles, where gammaln is inf; the derivative there is nan"),
    "digamma": _unary("digamma(x)", "trigamma(x)", (0.2, 8.0), "nan at the poles"),
    "xlogy": Rule("x * math.log(y)",
                  ("math.log(y) if y > 0 else (-math.inf if y == 0 else math.nan)",
                   "x / y if y else (0.0 if x == 0 else math.copysign(math.inf, x))"),
                  ((-3, 3), (0.2, 3)), "xlogy(0, y) is 0, and so is its derivative in y"),
    "xlog1py": Rule("x * math.log1p(y)",
                    ("math.log1p(y) if y > -1.0 else (-math.inf if y == -1.0 else math.nan)",
                     "x / (1.0 + y) if y != -1.0 else (0.0 if x == 0 else "
                     "math.copysign(math.inf, x))"),
                    ((-3, 3), (-0.8, 3)), "xlog1py(0, y) is 0, and so is its derivative in y"),
    "ndtr": _unary("0.5 * math.erfc(-x * 0.7071067811865476)", f"{_PHI} * math.exp(-0.5 * x * x)"),
    "log_ndtr": _unary("math.log(0.5 * math.erfc(-x * 0.7071067811865476))",
                       f"math.exp(-0.5 * x * x - out) * {_PHI}", (-8, 3),
                       "phi(x) / Phi(x) in logs, so it stays finite far in the left tail"),
    "ndtri": _unary("ndtri(x)", f"math.inf if out * out > 1419.5 else {_SQRT_2PI} * "
                    "math.exp(0.5 * out * out)",
                    (0.02, 0.98), "inf at 0 and 1; nan outside [0, 1]"),
    "norm_cdf": Rule("ndtr((x - loc) / scale)",
                     (_CDF_DX, f"-{_CDF_DX}", _scale_guarded(f"-{_Z} * {_CDF_DX}")),
                     _NORM_DOMAIN, "nan for a scale <= 0", **_NORM),
    "norm_sf": Rule("ndtr((loc - x) / scale)",
                    (f"-{_CDF_DX}", _CDF_DX, _scale_guarded(f"{_Z} * {_CDF_DX}")),
                    _NORM_DOMAIN, "nan for a scale <= 0", **_NORM),
    "norm_pdf": Rule("phi((x - loc) / scale) / scale",
                     tuple(_scale_guarded(t) for t in (
                         f"-({_Z} * out) / scale", f"{_Z} * out / scale",
                         f"({_Z} * {_Z} - 1.0) * out / scale")),
                     _NORM_DOMAIN, "nan for a scale <= 0", **_NORM),
    "norm_logpdf": Rule("log(phi((x - loc) / scale) / scale)",
                        tuple(_scale_guarded(t) for t in (
                            f"-{_Z} / scale", f"{_Z} / scale", f"({_Z} * {_Z} - 1.0) / scale")),
                        _NORM_DOMAIN, "nan for a scale <= 0", **_NORM),
    "norm_logcdf": Rule("log_ndtr((x - loc) / scale)",  # in logs: no NORM.pdf / NORM.cdf
                        tuple(_scale_guarded(t) for t in (
                            _LOGCDF_DX, f"-{_LOGCDF_DX}", f"-{_Z} * {_LOGCDF_DX}")),
                        ((-8, 3), (-1, 1), (0.5, 2)), "nan for a scale <= 0", **_NORM),
    "norm_ppf": Rule("loc + scale * ndtri(q)",
                     tuple(_scale_guarded(t) for t in (
                         f"math.inf if ((out - loc) / scale) ** 2 > 1419.5 else scale * "
                         f"{_SQRT_2PI} * math.exp(0.5 * ((out - loc) / scale) ** 2)", "1.0",
                         "(out - loc) / scale")),
                     ((0.02, 0.98), (-1, 1), (0.5, 2)), "inf at 0 and 1; nan outside [0, 1]",
                     params=("q", "loc", "scale"), defaults=(0.0, 1.0)),
}
RULES.update(SCIPY_RULES)
SCIPY_SPECIAL_FUNCTIONS = {
    "erf": "erf", "erfc": "erfc", "expit": "expit", "logit": "logit", "gammaln": "gammaln",
    "digamma": "digamma", "psi": "digamma", "xlogy": "xlogy", "xlog1py": "xlog1py",
    "log_ndtr": "log_ndtr", "ndtr": "ndtr", "ndtri": "ndtri",
}
NORM_METHODS = {name: f"norm_{name}" for name in ("cdf", "pdf", "logpdf", "logcdf", "sf", "ppf")}

# The user-facing names of the primitives: ``math.<name>`` and ``numpy.<name>``.
MATH_FUNCTIONS = {
    name: name for name in (
        "sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp expm1 "
        "log log1p log2 log10 sqrt hypot fabs erf erfc floor ceil trunc fmod copysign pow "
        "degrees radians cbrt exp2 lgamma gamma factorial comb perm isnan isinf isfinite "
        "isclose ulp nextafter ldexp remainder fma fsum prod dist sumprod frexp modf"
    ).split() if hasattr(math, name)  # cbrt and exp2 came with Python 3.11, fma with 3.13
}
if hasattr(math, "fma"):  # Python 3.13
    RULES["fma"] = Rule("math.fma(x, y, z)", ("y", "x", "1.0"), ((-3, 3),) * 3,
                        "x * y + z rounded once", params=("x", "y", "z"))

# math functions of numbers written out (``math.fsum([a, b, c])``, ``math.hypot(x, y, z)``):
# one rule per count, made on demand (``rule_of("fsum_3")``).  ``hypot`` of two is the
# table's own entry; ``dist`` and ``sumprod`` take two points of ``count / 2`` coordinates.
VARIADIC = tuple(name for name in ("hypot", "fsum", "prod", "dist", "sumprod")
                 if hasattr(math, name))  # sumprod came with Python 3.12

# functions returning two numbers, unpacked into two names: one primitive per half
PAIRS = {"frexp": ("frexp_mantissa", "frexp_exponent"), "modf": ("modf_fraction", "modf_integer")}

# what the rest of ``math`` is, when a user's code calls it
MATH_REFUSED = {
    "gcd": "an integer function (greatest common divisor): it has no derivative",
    "lcm": "an integer function (least common multiple): it has no derivative",
    "isqrt": "an integer function (integer square root): it has no derivative",
}
MATH_REFUSED_HINTS = {
    "gcd": "compute it outside the function and pass it in",
    "lcm": "compute it outside the function and pass it in",
    "isqrt": "use int(math.sqrt(n)) or pass the value in",
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


def variadic_rule(name, count):
    """The rule of ``math.<name>`` over ``count`` numbers written out (see ``VARIADIC``)."""
    xs = tuple(f"x{i}" for i in range(count))
    half = count // 2
    if name == "hypot":
        forward = f"math.hypot({', '.join(xs)})"
        partials = tuple(f"{x} / out if out else 0.0" for x in xs)
        note = "0 at the origin"
    elif name == "fsum":
        forward, partials, note = f"math.fsum([{', '.join(xs)}])", ("1.0",) * count, ""
    elif name == "prod":
        forward = f"math.prod(({', '.join(xs)}{',' * (count == 1)}))"
        partials = tuple(" * ".join(xs[:i] + xs[i + 1:]) or "1.0" for i in range(count))
        note = "each partial is the product of the other factors (exact at zeros)"
    elif name in ("dist", "sumprod"):
        p, q = xs[:half], xs[half:]
        forward = f"math.{name}(({', '.join(p)},), ({', '.join(q)},))"
        if name == "dist":
            partials = tuple(f"({a} - {b}) / out if out else 0.0" for a, b in zip(p, q)) + tuple(
                f"({b} - {a}) / out if out else 0.0" for a, b in zip(p, q))
            note = "0 where the points coincide"
        else:
            partials, note = q + p, ""
    else:
        raise KeyError(name)
    return Rule(forward, partials, ((-3, 3),) * count, note, params=xs)


def rule_of(op):
    """The rule of ``op``: the table's, or a math function of ``count`` numbers
    (``fsum_3``, made once and kept)."""
    found = RULES.get(op)
    if found is None:
        found = _VARIADIC_RULES.get(op)
    if found is None:
        name, _, count = op.rpartition("_")
        if name not in VARIADIC or not count.isdigit():
            raise KeyError(op)
        found = _VARIADIC_RULES[op] = variadic_rule(name, int(count))
    return found


_VARIADIC_RULES = {}


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
