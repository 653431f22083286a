"""The scalar primitives: Python's operators and builtins, ``math``, numpy's elementwise
functions, the halves of ``frexp``/``modf`` and the math functions of numbers written out.

Expects nothing; guarantees one ``Primitive`` per primitive (``RECORDS``, in a fixed
order), the functions of several numbers (``VARIADIC``, one record per count, made by
``variadic``) and the ``math`` functions symdiff refuses, with the reason (``REFUSED``).

Partials are written so they never raise where the forward computation does not:
``sqrt'(0)`` is ``inf``, ``abs'(0)`` is 0 (the conventions of JAX and PyTorch).  Where the
forward computation raises, the gradient raises the same.  A partial may call ``digamma``
or ``trigamma``, functions generated code defines for itself (``special``).  A primitive
only numpy computes is called as the user's code calls it; its ``forward`` is the formula.
"""

import math
import operator
from types import BuiltinFunctionType, MappingProxyType

from symdiff.primitives.record import Spelling, primitive, table, unary
from symdiff.primitives.type_rules import bools, floats, ints, like, pick, power, quotient

_ARITHMETIC = dict(arithmetic=True, total=True, cheap=True, result=like)
_STEP = "piecewise constant: derivative 0"
# ``abs'`` on arrays: ``numpy.sign``, of the array's dtype, 0 at 0 and nan at nan (the
# array tape's and PyTorch's; the scalar text is 0 at nan, and float64 on a float32 array)
_SIGN_ON_ARRAYS = (("arrays", Spelling(partials=("numpy.sign(x)",))),)
_NONE = "an integer function: no derivative"
_TEST = "a test: no derivative"


def _on_numbers(function, params="x"):
    """The bridge of a function with no derivative: the tape reads the numbers."""
    return f"tape.on_numbers(math.{function})({params})"


_OPERATORS = (
    primitive("add", "x + y", ("1.0", "1.0"), ((-3, 3), (-3, 3)), operator="+",
              numpy=("add",), bridge="x + y", **_ARITHMETIC),
    primitive("sub", "x - y", ("1.0", "-1.0"), ((-3, 3), (-3, 3)), operator="-",
              numpy=("subtract",), bridge="x - y", **_ARITHMETIC),
    primitive("mul", "x * y", ("y", "x"), ((-3, 3), (-3, 3)), operator="*",
              numpy=("multiply",), bridge="x * y", **_ARITHMETIC),
    primitive("div", "x / y", ("1.0 / y", "-out / y"), ((-3, 3), (0.5, 3)), operator="/",
              numpy=("divide", "true_divide"), bridge="x / y", arithmetic=True,
              result=quotient),
    primitive("pow", "x ** y",
              ("y * x ** (y - 1) if abs(x) >= 1.0 or y >= 1 else "
               "((y * (x ** y / x) if y or abs(x ** y / x) < math.inf else 0.0) if x else "
               "((math.inf if y > 0 else y * math.inf) if y else 0.0))",
               "out * math.log(x) if x > 0 else (0.0 if x == 0 else math.nan)"),
              ((0.2, 3), (-2, 2)),
              "d/dx is 0 for y = 0 (at every x, nan included) and, at x = 0, inf for "
              "0 < y < 1 (nan for y = inf); d/dy is 0 at x = 0 and nan for x < 0; for "
              "|x| < 1 and y < 1, y * (x ** y / x), which overflows to inf where x ** (y - 1) "
              "would raise (and reads x and y only, so a loop need not save the output); the "
              "branch taken at y = 0 is the formula wherever it is finite, "
              "so second derivatives there hold",
              overrides=(("math", Spelling(forward="math.pow(x, y)", result=floats)),),
              operator="**", math=("pow",), numpy=("power", "float_power"), builtin=("pow",),
              bridge="x ** y", arithmetic=True, result=power),
    # ``q, r = divmod(x, y)`` is ``x // y, x % y`` (Python computes the three alike)
    primitive("floordiv", "x // y", (None, None), ((-3, 3), (0.5, 3)),
              "piecewise constant: derivative 0, also at the jumps", operator="//",
              numpy=("floor_divide",), bridge="x // y", arithmetic=True, result=like,
              pair=("divmod", 0)),
    primitive("mod", "x % y", ("1.0", "-(x // y)"), ((-3, 3), (0.5, 3)),
              "x % y = x - y * (x // y); at the jumps the right-hand derivative", operator="%",
              numpy=("remainder", "mod"), bridge="x % y", arithmetic=True, result=like,
              pair=("divmod", 1)),
    unary("neg", "-x", "-1.0", operator="-", numpy=("negative",), bridge="-x", **_ARITHMETIC),
    unary("pos", "+x", "1.0", operator="+", numpy=("positive",), bridge="+x", **_ARITHMETIC),
    unary("copy", "x", "1.0", internal=True, bridge="x * 1.0 if isinstance(x, Value) else x",
          **dict(_ARITHMETIC, result=pick)),
)

_BUILTINS = (
    unary("abs", "abs(x)", "1.0 if x > 0 else (-1.0 if x < 0 else 0.0)", note="abs'(0) = 0",
          builtin=("abs",), numpy=("abs", "absolute"), bridge="abs(x)", total=True,
          result=like, overrides=_SIGN_ON_ARRAYS),
    primitive("max", "max(x, y)", ("0.0 if y > x else 1.0", "1.0 if y > x else 0.0"),
              ((-3, 3), (-3, 3)), "the gradient goes to the argument max returns (the first "
              "on a tie); np.maximum returns a nan argument (the first of two)",
              overrides=(("numpy", Spelling(partials=(
                  "0.0 if y > x or y != y and x == x else 1.0",
                  "1.0 if y > x or y != y and x == x else 0.0"))),),
              builtin=("max",), numpy=("maximum",), chain=True, bridge="max(x, y)",
              result=pick),
    primitive("min", "min(x, y)", ("0.0 if y < x else 1.0", "1.0 if y < x else 0.0"),
              ((-3, 3), (-3, 3)), "the gradient goes to the argument min returns (the first "
              "on a tie); np.minimum returns a nan argument (the first of two)",
              overrides=(("numpy", Spelling(partials=(
                  "0.0 if y < x or y != y and x == x else 1.0",
                  "1.0 if y < x or y != y and x == x else 0.0"))),),
              builtin=("min",), numpy=("minimum",), chain=True, bridge="min(x, y)",
              result=pick),
    unary("float", "float(x)", "1.0", builtin=("float",),
          bridge="x * 1.0 if isinstance(x, Value) else float(x)"),
    unary("int", "int(x)", None, note=_STEP, builtin=("int",), bridge="int(x)", result=ints),
    unary("round", "round(x)", None, note=_STEP, builtin=("round",), variants=((2, "roundn"),),
          bridge="round(x)", result=ints),
    primitive("roundn", "round(x, y)", (None, None), ((-3, 3), (0, 3)), _STEP, ints=("y",),
              bridge="round(x, y)", result=like),
    unary("stop_gradient", "x", None, note="identity with derivative 0, by definition",
          internal=True, bridge="x.detach() if isinstance(x, Value) else x", result=pick),
)


def _math(name, forward, partial, domain=(-3.0, 3.0), note="", **facts):
    """A unary function of ``math`` (and numpy's of the same name, unless told)."""
    facts.setdefault("numpy", (name,))
    return unary(name, forward, partial, domain, note, math=(name,), **facts)


def _math2(name, forward, partials, domain, note="", **facts):
    facts.setdefault("numpy", (name,))
    return primitive(name, forward, partials, domain, note, math=(name,), **facts)


_MATH = (
    _math("sin", "math.sin(x)", "math.cos(x)", foldable=True),
    _math("cos", "math.cos(x)", "-math.sin(x)", foldable=True),
    _math("tan", "math.tan(x)", "1.0 + out * out", (-1.4, 1.4)),
    _math("asin", "math.asin(x)", "1.0 / math.sqrt(1.0 - x * x) if x * x != 1.0 else math.inf",
          (-0.95, 0.95), "inf at x = ±1", numpy=("arcsin",)),
    _math("acos", "math.acos(x)", "-1.0 / math.sqrt(1.0 - x * x) if x * x != 1.0 else -math.inf",
          (-0.95, 0.95), "-inf at x = ±1", numpy=("arccos",)),
    _math("atan", "math.atan(x)", "1.0 / (1.0 + x * x)", numpy=("arctan",), total=True),
    _math2("atan2", "math.atan2(x, y)",
           ("y / (x * x + y * y) if x * x + y * y else "
            "(y / math.hypot(x, y) / math.hypot(x, y) if x or y else math.nan)",
            "-x / (x * x + y * y) if x * x + y * y else "
            "(-x / math.hypot(x, y) / math.hypot(x, y) if x or y else math.nan)"),
           ((-3, 3), (0.5, 3)),
           "nan at the origin (0 / 0); where x * x + y * y underflows to 0 near it, "
           "divided by hypot(x, y) twice instead", numpy=("arctan2",), total=True),
    _math("sinh", "math.sinh(x)", "math.cosh(x)"),
    _math("cosh", "math.cosh(x)", "math.sinh(x)"),
    _math("tanh", "math.tanh(x)", "1.0 - out * out", total=True),
    _math("asinh", "math.asinh(x)", "1.0 / math.sqrt(x * x + 1.0)", numpy=("arcsinh",)),
    _math("acosh", "math.acosh(x)", "1.0 / math.sqrt(x * x - 1.0) if x != 1.0 else math.inf",
          (1.1, 4.0), "inf at x = 1", numpy=("arccosh",)),
    _math("atanh", "math.atanh(x)", "1.0 / (1.0 - x * x)", (-0.95, 0.95), numpy=("arctanh",)),
    _math("exp", "math.exp(x)", "out", foldable=True),
    _math("expm1", "math.expm1(x)", "out + 1.0"),
    _math("log", "math.log(x)", "1.0 / x", (0.1, 5.0), variants=((2, "logb"),), foldable=True),
    primitive("logb", "math.log(x, y)",
              ("1.0 / x / math.log(y)", "-math.log(x) / y / math.log(y) ** 2"),
              ((0.1, 5.0), (1.5, 5.0)), bridge="tape.log(x, y)", foldable=True),
    _math("log1p", "math.log1p(x)", "1.0 / (1.0 + x)", (-0.9, 5.0)),
    _math("log2", "math.log2(x)", "1.0 / (x * math.log(2.0))", (0.1, 5.0), foldable=True),
    _math("log10", "math.log10(x)", "1.0 / (x * math.log(10.0))", (0.1, 5.0), foldable=True),
    _math("sqrt", "math.sqrt(x)", "0.5 / out if out else math.inf", (0.0, 5.0),
          "sqrt'(0) = inf", foldable=True),
    _math2("hypot", "math.hypot(x, y)", ("x / out if out else 0.0", "y / out if out else 0.0"),
           ((-3, 3), (-3, 3)), "0 at the origin", total=True),
    _math("fabs", "math.fabs(x)", "1.0 if x > 0 else (-1.0 if x < 0 else 0.0)",
          note="fabs'(0) = 0", total=True, overrides=_SIGN_ON_ARRAYS),
    _math("erf", "math.erf(x)", "1.1283791670955126 * math.exp(-x * x)", numpy=(),
          scipy=("erf",), total=True),
    _math("erfc", "math.erfc(x)", "-1.1283791670955126 * math.exp(-x * x)", numpy=(),
          scipy=("erfc",), total=True),
    _math("floor", "math.floor(x)", None, note=_STEP, result=ints),
    _math("ceil", "math.ceil(x)", None, note=_STEP, result=ints),
    _math("trunc", "math.trunc(x)", None, note=_STEP, bridge="math.trunc(x)", result=ints),
    _math2("fmod", "math.fmod(x, y)",
           ("1.0", "-(math.trunc(x / y) if abs(x / y) < 4503599627370496.0 else x / y) "
            "if y else math.nan"),
           ((-3, 3), (0.5, 3)),
           "fmod(x, y) = x - y * trunc(x / y); at the jumps the right-hand derivative; "
           "a quotient of 2 ** 52 or more (inf, nan) is its own trunc; nan in y at "
           "y = 0 (where fmod gives nan or raises)"),
    _math2("copysign", "math.copysign(x, y)",
           ("1.0 if (x >= 0) == (math.copysign(1.0, y) > 0) else -1.0", None),
           ((0.2, 3), (-3, 3)), "derivative 0 in the sign argument", total=True),
    _math("degrees", "math.degrees(x)", "57.29577951308232", numpy=("degrees", "rad2deg")),
    _math("radians", "math.radians(x)", "0.017453292519943295", numpy=("radians", "deg2rad")),
    _math("cbrt", "math.cbrt(x)", "1.0 / (3.0 * out * out) if out else math.inf",
          note="cbrt'(0) = inf"),
    _math("exp2", "math.exp2(x)", "out * 0.6931471805599453"),
)

_NUMPY = (  # numpy's elementwise functions with no math twin (generated code calls numpy's)
    unary("square", "x * x", "2.0 * x", numpy=("square",), result=like),
    unary("sinc", "math.sin(math.pi * x) / (math.pi * x) if x else 1.0",
          "(math.cos(math.pi * x) - out) / x if x else 0.0",
          note="sin(pi x) / (pi x), 1 at 0 with derivative 0 there", numpy=("sinc",)),
    unary("reciprocal", "1.0 / x", "-(out * out)", (0.2, 3.0), numpy=("reciprocal",),
          result=like),
    unary("sign", "1.0 if x > 0 else (-1.0 if x < 0 else x)", None, note=_STEP,
          numpy=("sign",), result=like),
    unary("rint", "float(round(x))", None, note=_STEP, numpy=("rint",)),
    primitive("heaviside", "1.0 if x > 0 else (0.0 if x < 0 else (y if x == 0 else x))",
              (None, None), note=_STEP + " (y at x = 0)", numpy=("heaviside",)),
    primitive("fmax", "x if x >= y or y != y else y",
              ("1.0 if x >= y or y != y else 0.0", "0.0 if x >= y or y != y else 1.0"),
              ((-3, 3), (-3, 3)), "like max, but a nan argument loses; the first on a tie",
              numpy=("fmax",), result=pick),
    primitive("fmin", "x if x <= y or y != y else y",
              ("1.0 if x <= y or y != y else 0.0", "0.0 if x <= y or y != y else 1.0"),
              ((-3, 3), (-3, 3)), "like min, but a nan argument loses; the first on a tie",
              numpy=("fmin",), result=pick),
    primitive("logaddexp", "max(x, y) + math.log1p(math.exp(-abs(x - y)))",
              ("math.exp(x - out)", "math.exp(y - out)"), ((-3, 3), (-3, 3)),
              numpy=("logaddexp",)),
    primitive("logaddexp2", "max(x, y) + math.log2(1.0 + 2.0 ** -abs(x - y))",
              ("2.0 ** (x - out)", "2.0 ** (y - out)"), ((-3, 3), (-3, 3)),
              numpy=("logaddexp2",)),
)

_FUNCTIONS = (  # the gamma family (digamma, trigamma: see special.py), integers, tests
    _math("lgamma", "math.lgamma(x)", "digamma(x)", (0.2, 8.0),
          "raises at the poles 0, -1, -2, ... as lgamma does; digamma(-inf) is nan", numpy=()),
    _math("gamma", "math.gamma(x)", "out * digamma(x)", (0.2, 5.0),
          "raises at the poles 0, -1, -2, ... as gamma does", numpy=()),
    primitive("factorial", "math.factorial(x)", (None,), ((0, 8),), _NONE, params=("x",),
              ints=("x",), math=("factorial",), bridge=_on_numbers("factorial"), result=ints),
    primitive("comb", "math.comb(x, y)", (None, None), ((5, 9), (0, 5)), _NONE,
              ints=("x", "y"), math=("comb",), bridge=_on_numbers("comb", "x, y"), result=ints),
    primitive("perm", "math.perm(x, y)", (None, None), ((5, 9), (0, 5)), _NONE,
              ints=("x", "y"), math=("perm",), variants=((1, "factorial"),),
              bridge=_on_numbers("perm", "x, y"), result=ints),
    _math("isnan", "math.isnan(x)", None, note=_TEST, total=True,
          bridge=_on_numbers("isnan"), result=bools),
    _math("isinf", "math.isinf(x)", None, note=_TEST, total=True,
          bridge=_on_numbers("isinf"), result=bools),
    _math("isfinite", "math.isfinite(x)", None, note=_TEST, total=True,
          bridge=_on_numbers("isfinite"), result=bools),
    primitive("isclose", "math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)", (None,) * 4,
              ((-3, 3), (-3, 3), (1e-9, 1e-3), (0.0, 1e-3)), _TEST,
              params=("a", "b", "rel_tol", "abs_tol"), defaults=(1e-09, 0.0), math=("isclose",),
              bridge=_on_numbers("isclose", "a, b, rel_tol=rel_tol, abs_tol=abs_tol"),
              result=bools),
    _math("ulp", "math.ulp(x)", None, note=_STEP, numpy=(), total=True,
          bridge=_on_numbers("ulp")),
    _math2("nextafter", "math.nextafter(x, y)", ("1.0", None), ((-3, 3), (-3, 3)),
           "x moved by one ulp toward y: derivative 1 in x, 0 in y", numpy=(), total=True),
    _math2("ldexp", "math.ldexp(x, y)", ("math.ldexp(1.0, y)", None), ((-3, 3), (-8, 8)),
           "x * 2 ** i; no derivative in the integer exponent", ints=("y",), numpy=()),
    # the halves of the functions returning pairs: `m, e = math.frexp(x)`
    unary("frexp_mantissa", "math.frexp(x)[0]", "out / x if x else 1.0",
          note="2 ** -e (exactly m / x): x scaled by a power of two; 1 at 0",
          pair=("frexp", 0), bridge="tape.frexp(x)[0]"),
    unary("frexp_exponent", "math.frexp(x)[1]", None, note="an integer: no derivative",
          pair=("frexp", 1), bridge="tape.frexp(x)[1]", result=ints),
    unary("modf_fraction", "math.modf(x)[0]", "1.0", note="x - trunc(x): derivative 1",
          pair=("modf", 0), bridge="tape.modf(x)[0]"),
    unary("modf_integer", "math.modf(x)[1]", None, note=_STEP, pair=("modf", 1),
          bridge="tape.modf(x)[1]"),
    _math2("remainder", "math.remainder(x, y)",
           ("1.0", "(-float(round((x - out) / y)) if math.isfinite((x - out) / y) "
                   "else -((x - out) / y)) if y else math.nan"),
           ((-3, 3), (0.5, 3)),
           "x - y * n with n = x / y rounded to even; at the jumps the one-sided derivative",
           numpy=()),
    primitive("clip", "min(max(x, lo), hi)",
              ("1.0 if x != x or lo <= x <= hi else 0.0",
               "1.0 if x == x and (x < lo <= hi or lo != lo) else 0.0",
               "1.0 if x == x and lo == lo and (hi < x or hi < lo or hi != hi) else 0.0"),
              ((-3, 3), (-2, -0.5), (0.5, 2)),
              "the gradient goes to the argument returned; x's on the bounds themselves; "
              "a nan argument is the one returned (x, then lo, then hi)",
              params=("x", "lo", "hi"), numpy=("clip",), result=pick,
              keywords=(("a_min", "lo"), ("a_max", "hi")), optional=(("min", "lo"),
                                                                     ("max", "hi")),
              without=(("lo", "min"), ("hi", "max"))),
)

# the functions of ``operator`` that are an operation on numbers: the op of each
_OPERATOR_MODULE = MappingProxyType({
    "add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "pow": "pow",
    "floordiv": "floordiv", "mod": "mod", "neg": "neg", "pos": "pos"})


def operator_op(obj):
    """The op of ``obj`` when it is a function of ``operator`` that is an operation on
    numbers (``operator.mul`` -> "mul"); None for any other object."""
    if not isinstance(obj, BuiltinFunctionType):
        return None
    name = getattr(obj, "__name__", None)
    return _OPERATOR_MODULE.get(name) if getattr(operator, name, None) is obj else None


NONE_HINTS = {"clip": "give one bound at least (np.clip(x, None, hi) is np.minimum(x, hi))"}

_LATER = tuple(  # Python 3.13
    primitive("fma", "math.fma(x, y, z)", ("y", "x", "1.0"), ((-3, 3),) * 3,
              "x * y + z rounded once", params=("x", "y", "z"), math=("fma",))
    for _ in range(hasattr(math, "fma")))

RECORDS = table(*_OPERATORS, *_BUILTINS, *_MATH, *_NUMPY, *_FUNCTIONS, *_LATER)

# math functions of numbers written out (``math.fsum([a, b, c])``, ``math.hypot(x, y, z)``):
# one record per count, made on demand (``variadic("fsum", 3)`` is ``fsum_3``).  ``hypot`` of
# two is the table's own entry; ``dist`` and ``sumprod`` take two points of ``count / 2``
# coordinates.  Each: the lists a call writes its numbers in (0: as arguments), its facts.
VARIADIC = {name: (lists, facts) for name, lists, facts in (
    ("hypot", 0, dict(total=True)), ("fsum", 1, {}), ("prod", 1, dict(result=like)),
    ("dist", 2, {}), ("sumprod", 2, dict(result=like))) if hasattr(math, name)}  # sumprod: 3.12


def variadic(name, count):
    """The record of ``math.<name>`` over ``count`` numbers written out."""
    xs = tuple(f"x{i}" for i in range(count))
    listed = ", ".join(xs)
    half = count // 2
    points = f"({', '.join(xs[:half])},), ({', '.join(xs[half:])},)"
    if name == "hypot":
        forward, bridge = f"math.hypot({listed})", f"tape.hypot({listed})"
        partials = tuple(f"{x} / out if out else 0.0" for x in xs)
        note = "0 at the origin"
    elif name == "fsum":
        forward, bridge = f"math.fsum([{listed}])", f"tape.fsum([{listed}])"
        partials, note = ("1.0",) * count, ""
    elif name == "prod":
        forward = bridge = f"math.prod(({listed}{',' * (count == 1)}))"
        partials = tuple(" * ".join(xs[:i] + xs[i + 1:]) or "1.0" for i in range(count))
        note = "each partial is the product of the other factors (exact at zeros)"
    elif name in ("dist", "sumprod"):
        p, q = xs[:half], xs[half:]
        forward, bridge = f"math.{name}({points})", f"tape.{name}({points})"
        if name == "dist":
            partials = tuple(f"({a} - {b}) / out if out else 0.0" for a, b in zip(p, q)) + tuple(
                f"({b} - {a}) / out if out else 0.0" for a, b in zip(p, q))
            note = "0 where the points coincide"
        else:
            partials, note = q + p, ""
    else:
        raise KeyError(name)
    return primitive(f"{name}_{count}", forward, partials, ((-3, 3),) * count, note,
                     params=xs, bridge=bridge, **VARIADIC[name][1])


# what the rest of ``math`` is, when a user's code calls it: (the reason, a hint)
REFUSED = {
    "gcd": ("an integer function (greatest common divisor): it has no derivative",
            "compute it outside the function and pass it in"),
    "lcm": ("an integer function (least common multiple): it has no derivative",
            "compute it outside the function and pass it in"),
    "isqrt": ("an integer function (integer square root): it has no derivative",
              "use int(math.sqrt(n)) or pass the value in"),
}
