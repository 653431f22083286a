"""Symbolic: a user function -> its value as a sympy expression (the sympy witness).

Expects a function in the language symdiff supports.  Guarantees a sympy
expression in real symbols named after its positional parameters, built by
interpreting the syntax tree over sympy values: the function never runs, no text
goes through ``sympify``, and no derivative comes from symdiff's rules table.

    def f(x, y):                 symbolic(f)       ->  x*y + sin(x)
        z = x * y      ──►       symbolic_grad(f)  ->  (y + cos(x), x)
        return z + math.sin(x)

Control flow is decided, not represented: an ``if``, ``while`` or ``range`` bound
that depends on the inputs is evaluated at the point ``at=``, giving the expression
valid around it; ``min``/``max`` pick the argument Python returns there (the first
on a tie, a kink).  ``abs`` differentiates to ``sign`` (0 at 0); ``floor``, ``ceil``,
``int``, ``//`` and ``%`` (``x - y*floor(x/y)``) are flat between jumps;
``stop_gradient(e)`` is ``e`` with derivative 0.  Without a point, ``min``/``max`` of
symbols stay sympy ``Min``/``Max``, whose derivatives use ``Heaviside(0) = 1/2``:
never sample a comparison at a kink.

Loops are unrolled and calls inlined: a tree over ``MAX_NODES`` nodes, or over
``MAX_ITERATIONS`` loop iterations, is refused with a ``SymdiffError``.  Numbers at
a point come from ``_fold``, which visits each shared subexpression once (``evalf``
walks the whole, exponentially larger, tree).
"""

import ast
import builtins
import functools
import inspect
import math
import numbers
import operator
import sys
import types
from dataclasses import dataclass

import sympy
from mpmath.libmp import prec_to_dps

from symdiff import markers
from symdiff.errors import (
    RecursionCycleError,
    SymdiffError,
    UndefinedNameError,
    UnknownFunctionError,
    UnsupportedSyntaxError,
)
from symdiff.frontend.parse import lambda_as_def, parse_function
from symdiff.frontend.wrappers import transparent

MAX_NODES = 20_000
MAX_ITERATIONS = 10_000


class StopGradient(sympy.Function):
    """``stop_gradient(e)``: the value of ``e`` with the derivative of a constant."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number:
            return arg

    def fdiff(self, argindex=1):
        return sympy.S.Zero

    def doit(self, **hints):
        return self.args[0].doit(**hints) if hints.get("deep", True) else self.args[0]

    def _eval_evalf(self, prec):
        return self.args[0].evalf(prec_to_dps(prec))


class _Flat:
    """Piecewise-constant functions: derivative 0 away from the jumps."""

    def fdiff(self, argindex=1):
        return sympy.S.Zero


class Floor(_Flat, sympy.floor):
    """``math.floor``, and the floor inside ``//`` and ``%``."""


class Ceiling(_Flat, sympy.ceiling):
    """``math.ceil``."""


class Trunc(_Flat, sympy.Function):
    """``int(x)``, ``math.trunc``: rounding toward zero."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number and arg.is_finite:
            return sympy.Integer(int(arg))


class Sign(_Flat, sympy.Function):
    """``math.copysign(1.0, y)``: 1 or -1, never 0."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number:
            return sympy.Integer(1 if arg >= 0 else -1)


class Signum(_Flat, sympy.Function):
    """``numpy.sign``: 1, 0 or -1."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number:
            return sympy.Integer(1 if arg > 0 else -1 if arg < 0 else 0)


class Round(_Flat, sympy.Function):
    """``round(x)`` and ``round(x, n)``: Python's rounding, ties to even."""

    @classmethod
    def eval(cls, arg, digits=None):
        if arg.is_Number and (digits is None or digits.is_Integer):
            if digits is None:
                return sympy.Integer(round(float(arg)))
            return sympy.Float(round(float(arg), int(digits)))


class RealAbs(sympy.Function):
    """``abs`` of a real: derivative ``sign``, 0 at 0 (sympy's ``Abs`` detours via re/im)."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number:
            return abs(arg)

    def fdiff(self, argindex=1):
        return sympy.sign(self.args[0])


class LogAbsGamma(sympy.Function):
    """``math.lgamma``, ``scipy.special.gammaln``: log |Gamma(x)|, real for negative x too
    (sympy's ``loggamma`` is complex there); its derivative is digamma."""

    @classmethod
    def eval(cls, arg):
        if arg.is_Number and arg > 0:
            return sympy.loggamma(arg)
        if arg.is_Number and not arg.is_integer:
            return sympy.log(abs(sympy.gamma(arg)))

    def fdiff(self, argindex=1):
        return sympy.polygamma(0, self.args[0])


def _numeric(name, compute, derivatives=None):
    """A sympy function that is ``compute`` on numbers; its derivative by each argument is
    ``derivatives[i](*args)``, or 0 with no ``derivatives`` (a test, an integer function)."""
    def eval(cls, *args):
        if all(arg.is_Number for arg in args):
            return _outside_value(compute(*[int(a) if a.is_Integer else float(a) for a in args]))

    def fdiff(self, argindex=1):
        return derivatives[argindex - 1](*self.args) if derivatives else sympy.S.Zero
    return type(name, (sympy.Function,), {"eval": classmethod(eval), "fdiff": fdiff})


def _isclose(a, b, rel_tol=sympy.Float(1e-09), abs_tol=sympy.S.Zero):
    return _IsClose(a, b, rel_tol, abs_tol)


_Exponent = _numeric("Exponent", lambda x: math.frexp(x)[1])  # of math.frexp: no derivative
_IsClose = _numeric("IsClose", lambda a, b, r, t: math.isclose(a, b, rel_tol=r, abs_tol=t))
_SQRT2 = sympy.sqrt(2)


def _ndtr(z):
    return (1 + sympy.erf(z / _SQRT2)) / 2


def _normal(method):
    """``scipy.stats.norm.<method>(x, loc=0, scale=1)`` as an expression."""
    def build(x=None, loc=sympy.S.Zero, scale=sympy.S.One, q=None):  # ppf's first is q
        x = q if x is None else x
        z = (x - loc) / scale
        pdf = sympy.exp(-z ** 2 / 2) / (sympy.sqrt(2 * sympy.pi) * scale)
        return {"cdf": lambda: _ndtr(z), "sf": lambda: _ndtr(-z), "pdf": lambda: pdf,
                "logpdf": lambda: -z ** 2 / 2 - sympy.log(sympy.sqrt(2 * sympy.pi) * scale),
                "logcdf": lambda: sympy.log(_ndtr(z)),
                "ppf": lambda: loc + scale * _SQRT2 * sympy.erfinv(2 * x - 1)}[method]()
    return build


# name -> builder over sympy arguments; math, builtins and numpy map onto these names
_PRIMITIVES = {
    "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "asin": sympy.asin,
    "acos": sympy.acos, "atan": sympy.atan, "atan2": sympy.atan2, "sinh": sympy.sinh,
    "cosh": sympy.cosh, "tanh": sympy.tanh, "asinh": sympy.asinh, "acosh": sympy.acosh,
    "atanh": sympy.atanh, "exp": sympy.exp, "expm1": lambda x: sympy.exp(x) - 1,
    "log": lambda x, base=sympy.E: sympy.log(x) / sympy.log(base), "sqrt": sympy.sqrt,
    "log1p": lambda x: sympy.log(1 + x), "log2": lambda x: sympy.log(x) / sympy.log(2),
    "log10": lambda x: sympy.log(x) / sympy.log(10), "pow": operator.pow,
    "hypot": lambda *xs: sympy.sqrt(sympy.Add(*[x**2 for x in xs])),
    "fabs": RealAbs, "abs": RealAbs, "copysign": lambda x, y: RealAbs(x) * Sign(y),
    "erf": sympy.erf, "erfc": sympy.erfc, "floor": Floor,
    "ceil": Ceiling, "trunc": Trunc, "int": Trunc, "fmod": lambda x, y: x - y * Trunc(x / y),
    "float": lambda x: x, "stop_gradient": StopGradient, "round": Round,
    "degrees": lambda x: x * 180 / sympy.pi, "radians": lambda x: x * sympy.pi / 180,
    "cbrt": lambda x: Sign(x) * RealAbs(x) ** sympy.Rational(1, 3),
    "exp2": lambda x: 2 ** x, "square": lambda x: x ** 2, "reciprocal": lambda x: 1 / x,
    "sinc": lambda x: sympy.sinc(sympy.pi * x), "floordiv": lambda x, y: Floor(x / y),
    "sign": Signum, "rint": lambda x: Floor(x + sympy.Rational(1, 2)),
    "logaddexp": lambda x, y: sympy.log(sympy.exp(x) + sympy.exp(y)),
    "logaddexp2": lambda x, y: sympy.log(2 ** x + 2 ** y) / sympy.log(2),
    "neg": operator.neg, "pos": operator.pos, "add": operator.add, "sub": operator.sub,
    "mul": operator.mul, "div": operator.truediv, "mod": lambda x, y: x - y * Floor(x / y),
    "min": None, "max": None, "fmin": None, "fmax": None,  # decided at the point: pick
    "clip": None,  # max, then min: see _Interpreter.pick
    "lgamma": LogAbsGamma, "gamma": sympy.gamma, "factorial": sympy.factorial,
    "comb": sympy.binomial, "perm": lambda n, k=None: sympy.factorial(n) if k is None else (
        sympy.ff(n, k)), "isnan": _numeric("IsNan", math.isnan),
    "isinf": _numeric("IsInf", math.isinf), "isfinite": _numeric("IsFinite", math.isfinite),
    "isclose": _isclose, "ulp": _numeric("Ulp", math.ulp),
    "nextafter": _numeric("NextAfter", getattr(math, "nextafter", None),
                          (lambda x, y: sympy.S.One, lambda x, y: sympy.S.Zero)),
    "ldexp": lambda x, i: x * 2 ** i, "remainder": lambda x, y: x - y * Round(x / y),
    "fma": lambda x, y, z: x * y + z, "fsum": lambda xs: sympy.Add(*xs),
    "frexp": lambda x: (x * 2 ** -_Exponent(x), _Exponent(x)),
    "modf": lambda x: (x - Trunc(x), Trunc(x)),
    "prod": lambda xs: sympy.Mul(*xs),
    "dist": lambda p, q: sympy.sqrt(sympy.Add(*[(a - b) ** 2 for a, b in zip(p, q)])),
    "sumprod": lambda p, q: sympy.Add(*[a * b for a, b in zip(p, q)]),
    # scipy.special (its ufuncs by their own names) and scipy.stats.norm
    "gammaln": LogAbsGamma, "psi": lambda x: sympy.polygamma(0, x),
    "expit": lambda x: 1 / (1 + sympy.exp(-x)), "logit": lambda x: sympy.log(x / (1 - x)),
    "xlogy": lambda x, y: x * sympy.log(y), "xlog1py": lambda x, y: x * sympy.log(1 + y),
    "ndtr": _ndtr, "log_ndtr": lambda x: sympy.log(_ndtr(x)),
    "ndtri": lambda x: _SQRT2 * sympy.erfinv(2 * x - 1),
    **{f"norm_{method}": _normal(method)
       for method in ("cdf", "sf", "pdf", "logpdf", "logcdf", "ppf")},
}
_KEYWORDS = ("isclose",) + tuple(f"norm_{m}" for m in ("cdf", "sf", "pdf", "logpdf", "logcdf",
                                                          "ppf"))
_OF_POINTS = ("fsum", "prod", "dist", "sumprod")  # functions of numbers written out
_BY_OBJECT = {getattr(math, name): name for name in _PRIMITIVES if hasattr(math, name)}
_BY_OBJECT.update({abs: "abs", pow: "pow", float: "float", int: "int", round: "round",
                   min: "min", max: "max", markers.stop_gradient: "stop_gradient"})
_NUMPY_NAMES = {
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2",
    "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "power": "pow",
    "float_power": "pow", "absolute": "abs", "minimum": "min", "maximum": "max",
    "rad2deg": "degrees", "deg2rad": "radians", "negative": "neg", "positive": "pos",
    "subtract": "sub", "multiply": "mul", "divide": "div", "true_divide": "div",
    "remainder": "mod", "floor_divide": "floordiv",
}
_CONSTANTS = ((math.pi, sympy.pi), (math.e, sympy.E), (math.tau, 2 * sympy.pi),
              (math.inf, sympy.oo))
_OPERATORS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Pow: operator.pow, ast.FloorDiv: lambda a, b: Floor(a / b),
    ast.Mod: lambda a, b: a - b * Floor(a / b), ast.USub: operator.neg, ast.UAdd: operator.pos,
}
_COMPARISONS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
                ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}


def _primitive_name(func):
    """The ``_PRIMITIVES`` name of a math function, builtin or numpy ufunc, else None."""
    try:
        name = _BY_OBJECT.get(func)
    except TypeError:  # unhashable, so not a primitive
        return None
    numpy = sys.modules.get("numpy")  # imported already if the user's code uses it
    if name is None and numpy is not None and isinstance(func, numpy.ufunc):
        name = _NUMPY_NAMES.get(func.__name__, func.__name__)
    elif name is None and numpy is not None:
        name = next((n for n in ("clip", "sinc") if func is getattr(numpy, n, None)), None)
        # plain functions in numpy, not ufuncs
    if name is None and _is_norm(getattr(func, "__self__", None)):
        name = f"norm_{func.__name__}"
    return name if name in _PRIMITIVES else None


def _is_norm(obj):
    stats = sys.modules.get("scipy.stats")
    return obj is not None and stats is not None and obj is getattr(stats, "norm", None)


def _outside_value(obj):
    """A global, closure variable or default value as the interpreter sees it."""
    if isinstance(obj, sympy.Basic):
        return obj
    for constant, exact in _CONSTANTS:
        if obj is constant:
            return exact
    if isinstance(obj, numbers.Integral):
        return sympy.Integer(int(obj))
    return sympy.Float(float(obj)) if isinstance(obj, numbers.Real) else obj


def _describe(value):
    if isinstance(value, tuple):
        return "a tuple"
    return "None" if value is None else getattr(value, "__name__", f"a {type(value).__name__}")


# -- numbers at a point -----------------------------------------------------------------

class _NoNumber(Exception):
    """No real value: ``needs_point`` if a symbol has none, else complex or undefined."""

    def __init__(self, needs_point=False):
        super().__init__()
        self.needs_point = needs_point


def _fold(expr, memo, leaf, combine):
    """``combine(node, results for its args)`` bottom-up over ``expr``, memoized.

    Each shared subexpression is visited once, iteratively (no recursion limit).
    """
    stack = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if node in memo:
            continue
        if ready:
            memo[node] = combine(node, [memo[arg] for arg in node.args])
        elif node.args:
            stack.append((node, True))
            stack.extend((arg, False) for arg in node.args if arg not in memo)
        else:
            memo[node] = leaf(node)
    return memo[expr]


def _as_number(node, args=None):
    """``node``, rebuilt on the numbers ``args`` if given, as a sympy number."""
    try:
        value = node if args is None else node.func(*args)
        value = value if value.is_Number else value.evalf()
    except (AttributeError, TypeError, ValueError, ZeroDivisionError):
        raise _NoNumber from None
    if not value.is_Number:
        raise _NoNumber
    return value


def _evaluate(expr, point, memo):
    """The float ``expr`` takes at ``point`` ({Symbol: Float}); ``memo`` caches nodes."""
    def leaf(node):
        if node.is_Symbol and node not in point:
            raise _NoNumber(needs_point=True)
        return point[node] if node.is_Symbol else _as_number(node)

    return float(_fold(expr, memo, leaf, _as_number))


# -- the interpreter --------------------------------------------------------------------

class _Jump(Exception):
    """``_Jump(kind, value)``: a ``Break``, ``Continue`` or ``Return`` leaving a block."""


def _parameters(parsed):
    """The positional parameters (``**kwargs`` holds data: it gets no symbol)."""
    spec = parsed.tree.args
    if spec.vararg:
        raise parsed.error(UnsupportedSyntaxError, spec.vararg,
                           "*args is not supported", hint="name each parameter")
    return [arg.arg for arg in spec.posonlyargs + spec.args]


@dataclass(eq=False)
class _Closure:
    """A function the interpreted code defines: its ``def`` (a lambda made one), its
    defaults, the envs it reads free names from (live: late binding), its definer's
    ``ParsedFunction`` (for errors)."""

    tree: ast.FunctionDef
    defaults: tuple
    scopes: tuple
    parsed: object


class _Interpreter:
    """Runs user functions over sympy values.

    ``parsed`` and ``env`` belong to the function running now and are swapped by
    ``call``; the point, the caches, the loop budget and the call stack are shared.
    """

    def __init__(self, parsed, point):
        self.parsed, self.env, self.point = parsed, {}, point  # point: {Symbol: Float} | None
        self.scopes = ()  # the envs of the functions around a nested one, innermost first
        self.numbers, self.sizes, self.functions = {}, {}, {parsed.fn: parsed}
        self.iterations, self.stack = 0, []

    def call(self, fn, args, kwargs, node):
        """Interpret user function ``fn`` on sympy ``args``; return what it returns."""
        if fn in self.stack:
            chain = " -> ".join(getattr(f, "__name__", None) or f.tree.name
                                for f in self.stack[self.stack.index(fn):] + [fn])
            raise self.fail(RecursionCycleError, node, f"recursive call {chain}",
                            hint="the sympy witness inlines calls; write it as a loop")
        if fn not in self.functions:
            self.functions[fn] = parse_function(fn)
        parsed = self.functions[fn]
        _parameters(parsed)
        try:
            bound = inspect.signature(fn, follow_wrapped=False).bind(*args, **kwargs)
        except TypeError as exc:
            raise self.fail(SymdiffError, node, f"cannot call {parsed.name}: {exc}",
                            hint="give every parameter without a default") from None
        bound.apply_defaults()
        env = {name: _outside_value(v) if not isinstance(v, dict) else {
            key: _outside_value(item) for key, item in v.items()}  # **kwargs
            for name, v in bound.arguments.items()}
        return self.run_function(fn, parsed, parsed.tree, env, ())

    def run_function(self, fn, parsed, tree, env, scopes):
        """Run ``tree``'s body in ``env`` (its arguments), reading free names in ``scopes``."""
        saved = self.parsed, self.env, self.scopes
        self.parsed, self.env, self.scopes = parsed, env, scopes
        self.stack.append(fn)
        try:
            self.run_body(tree.body)
        except _Jump as jump:  # only a return can leave a function body
            return jump.args[1]
        finally:
            self.stack.pop()
            self.parsed, self.env, self.scopes = saved
        return None

    def call_nested(self, closure, args, kwargs, node):
        """Call a function the interpreted code defined (a ``def`` or a ``lambda``)."""
        if closure in self.stack:
            raise self.fail(RecursionCycleError, node, f"recursive call of {closure.tree.name}",
                            hint="the sympy witness inlines calls; write it as a loop")
        spec = closure.tree.args
        params = [arg.arg for arg in spec.posonlyargs + spec.args]
        env = dict(zip(params[len(params) - len(closure.defaults):], closure.defaults))
        if len(args) > len(params) or any(k not in params for k in kwargs):
            raise self.fail(SymdiffError, node, f"cannot call {closure.tree.name} with "
                            f"these arguments", hint="check the call")
        env.update(zip(params, args))
        env.update(kwargs)
        missing = [p for p in params if p not in env]
        if missing:
            raise self.fail(SymdiffError, node, f"{closure.tree.name}() is missing {missing[0]}",
                            hint="pass every parameter")
        return self.run_function(closure, closure.parsed, closure.tree, env, closure.scopes)

    def fail(self, cls, node, what, hint=None):
        return self.parsed.error(cls, node, what, hint=hint)

    def unsupported(self, node, what=None):
        text = ast.unparse(node).splitlines()[0]
        what = what or f"`{text[:40]}{'...' if len(text) > 40 else ''}`"
        return self.fail(UnsupportedSyntaxError, node, f"{what} is not supported",
                         hint="the sympy witness reads arithmetic, math calls, "
                         "if/for/while and calls to your own functions")

    def tick(self, node):
        self.iterations += 1
        if self.iterations > MAX_ITERATIONS:
            raise self.fail(SymdiffError, node, f"loops run more than {MAX_ITERATIONS:,} "
                            "iterations", hint="check this function with the tape engine")

    def checked(self, value, node):
        """``value``, once its expressions are known to be small enough for sympy."""
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, tuple):
                self.checked(item, node)
            elif isinstance(item, sympy.Basic) and _fold(
                    item, self.sizes, lambda leaf: 1, lambda node, sizes: 1 + sum(sizes)
            ) > MAX_NODES:  # counted as a tree: what sympy's own walks cost
                raise self.fail(SymdiffError, node, f"the expression grows past {MAX_NODES:,}"
                                " nodes", hint="unroll fewer iterations, or use the tape")
        return value

    def expr(self, value, node):
        if isinstance(value, sympy.Expr):
            return value
        raise self.unsupported(node, f"using {_describe(value)} as a number")

    def number(self, value, node, what):
        """The float ``value`` takes at the point (``what`` names it in errors)."""
        try:
            return _evaluate(self.expr(value, node), self.point or {}, self.numbers)
        except _NoNumber as exc:
            if exc.needs_point:
                raise self.fail(SymdiffError, node, f"this {what} depends on the inputs",
                                hint="pass at= (a point) to follow the branch taken there"
                                ) from None
            raise self.fail(SymdiffError, node, f"this {what} is not a real number at "
                            "the point", hint="choose a point inside the domain") from None

    def truthy(self, value, node):
        if isinstance(value, tuple):
            return bool(value)
        return self.number(value, node, "condition") != 0

    def truth(self, node):
        return self.truthy(self.eval(node), node)

    def dispatch(self, prefix, node):
        method = getattr(self, prefix + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node)
        return method(node)

    # statements

    def run_body(self, body):
        for stmt in body:
            if isinstance(stmt, (ast.Break, ast.Continue)):
                raise _Jump(type(stmt).__name__, None)
            if not isinstance(stmt, ast.Pass):
                self.dispatch("_exec_", stmt)

    def assign(self, target, value):
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, tuple) or len(value) != len(target.elts):
                raise self.fail(SymdiffError, target, f"cannot unpack {_describe(value)} "
                                f"into {len(target.elts)} names")
            for elt, item in zip(target.elts, value):
                self.assign(elt, item)
        else:
            raise self.unsupported(target, f"assigning to `{ast.unparse(target)}`")

    def _exec_Assign(self, node):  # also AnnAssign, which has one target
        if node.value is not None:
            value = self.checked(self.eval(node.value), node)
            for target in getattr(node, "targets", None) or [node.target]:
                self.assign(target, value)

    _exec_AnnAssign = _exec_Assign

    def _exec_FunctionDef(self, node):
        self.env[node.name] = self.closure(node)

    def _eval_Lambda(self, node):
        return self.closure(lambda_as_def(node, "lambda"))

    def closure(self, tree):
        """A nested function: defaults computed now, free names read when it runs."""
        defaults = tuple(self.eval(default) for default in tree.args.defaults)
        return _Closure(tree, defaults, (self.env,) + self.scopes, self.parsed)

    def _exec_AugAssign(self, node):
        value = self.operate(node.op, node, self.eval(node.target), self.eval(node.value))
        self.assign(node.target, self.checked(value, node))

    def _exec_Expr(self, node):
        if not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            self.eval(node.value)  # a docstring is skipped, anything else evaluated

    def _exec_Raise(self, node):
        """An input check that fails at the point raises what the function raises there."""
        if node.exc is None:
            raise self.unsupported(node, "a bare raise")
        exc = self.concrete(node.exc)
        if node.cause is None:
            raise exc
        raise exc from self.concrete(node.cause)

    def _exec_Assert(self, node):
        if __debug__ and not self.concrete(node.test):  # dropped under -O, as Python does
            raise AssertionError() if node.msg is None else AssertionError(
                self.concrete(node.msg))

    def _exec_Import(self, node):
        """Bound when the function was read (``parse``), as a module-level import."""

    _exec_ImportFrom = _exec_Import

    def concrete(self, node):
        """``node`` evaluated by Python on the numbers the variables it reads hold at the
        point (a check is run, not interpreted): ints stay ints."""
        scope = dict(self.parsed.globals, **self.parsed.closure)
        for name in {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}:
            for env in (self.env,) + self.scopes:
                if name in env:
                    scope[name] = self.concrete_value(env[name], node)
                    break
        code = compile(ast.fix_missing_locations(ast.Expression(node)), self.parsed.filename,
                       "eval")
        return eval(code, scope)

    def concrete_value(self, value, node):
        if isinstance(value, tuple):
            return tuple(self.concrete_value(item, node) for item in value)
        if isinstance(value, dict):  # **kwargs
            return {key: self.concrete_value(item, node) for key, item in value.items()}
        if isinstance(value, sympy.Integer):
            return int(value)
        if isinstance(value, sympy.Expr):
            return self.number(value, node, "value")
        return value

    def _exec_Return(self, node):
        value = None if node.value is None else self.eval(node.value)
        raise _Jump("Return", self.checked(value, node))

    def _exec_If(self, node):
        self.run_body(node.body if self.truth(node.test) else node.orelse)

    def _exec_While(self, node):
        self.loop(node, iter(lambda: self.truth(node.test), False))  # until the test fails

    def _exec_For(self, node):
        call = node.iter
        if isinstance(call, ast.Call) and self.eval(call.func) is range:
            items = [sympy.Integer(i) for i in self.range_of(call)]
        else:
            items = self.items_of(call)
        self.loop(node, (self.assign(node.target, item) for item in items))

    def items_of(self, node):
        """The values a ``for`` over a table (or ``enumerate`` of one, or ``reversed`` of
        one or of a range) runs through."""
        if isinstance(node, ast.Call) and self.eval(node.func) is reversed and len(
                node.args) == 1 and not node.keywords:
            inner = node.args[0]
            if isinstance(inner, ast.Call) and self.eval(inner.func) is range:
                return [sympy.Integer(i) for i in reversed(self.range_of(inner))]
            return list(reversed(self.items_of(inner)))
        if isinstance(node, ast.Call) and self.eval(node.func) is enumerate and len(
                node.args) == 1 and not node.keywords:
            return [(sympy.Integer(i), item) for i, item in enumerate(self.items_of(node.args[0]))]
        if isinstance(node, ast.Call) and self.eval(node.func) is zip and not node.keywords:
            return list(zip(*(self.items_of(arg) for arg in node.args)))
        table = self.table(node)
        if not isinstance(table, (tuple, list)):
            raise self.unsupported(node, "a for loop over anything but range(...) or a table")
        return [_outside_value(item) for item in table]

    def loop(self, node, iterations):
        """Run the loop body once per step of ``iterations``, until a ``break``; then the
        ``else:`` clause, unless a ``break`` ended the loop."""
        for _ in iterations:
            self.tick(node)
            try:
                self.run_body(node.body)
            except _Jump as jump:
                if jump.args[0] == "Break":
                    return
                if jump.args[0] == "Return":
                    raise
        self.run_body(node.orelse)

    def range_of(self, node):
        """The concrete ``range`` a for loop runs over."""
        is_range = isinstance(node, ast.Call) and self.eval(node.func) is range
        if not is_range or node.keywords or not 1 <= len(node.args) <= 3:
            raise self.unsupported(node, "a for loop over anything but range(...)")
        bounds = [self.number(self.eval(arg), arg, "loop bound") for arg in node.args]
        if not all(math.isfinite(b) and b == int(b) for b in bounds) or bounds[2:] == [0]:
            raise self.fail(SymdiffError, node, f"range() of {bounds} is not a valid range",
                            hint="give whole numbers (round with int()) and a nonzero step")
        return range(*map(int, bounds))

    # expressions

    def eval(self, node):
        return self.dispatch("_eval_", node)

    def _eval_Constant(self, node):
        if node.value is None or isinstance(node.value, (int, float, str)):
            return _outside_value(node.value)  # a string only ever meets a comparison
        raise self.unsupported(node, f"the constant {node.value!r}")

    def _eval_Name(self, node):
        for env in (self.env,) + self.scopes:
            if node.id in env:
                return env[node.id]
        for scope in (self.parsed.closure, self.parsed.globals, vars(builtins)):
            if node.id in scope:
                return _outside_value(scope[node.id])
        raise self.fail(UndefinedNameError, node, f"name {node.id!r} is not defined",
                        hint="define it in the function, its module or its closure")

    def _eval_Attribute(self, node):
        base = self.eval(node.value)
        if not isinstance(base, types.ModuleType) and not _is_norm(base):
            raise self.unsupported(node, f"the attribute `{ast.unparse(node)}`")
        if not hasattr(base, node.attr):
            raise self.fail(UndefinedNameError, node, f"module {base.__name__} has no "
                            f"attribute {node.attr!r}")
        return _outside_value(getattr(base, node.attr))

    def _eval_Tuple(self, node):
        return tuple(self.eval(elt) for elt in node.elts)

    def table(self, node):
        """What a loop runs over or an index reads: a list written out is read as a tuple
        (a list anywhere else is refused, as symdiff refuses it)."""
        table = tuple(self.eval(e) for e in node.elts) if isinstance(node, ast.List) else (
            self.eval(node))
        if getattr(table, "ndim", None) == 1:
            table = tuple(table.tolist())  # a one-dimensional numpy array
        if isinstance(table, (tuple, list)) and any(
                getattr(_outside_value(item), "free_symbols", None) for item in table):
            raise self.unsupported(node, "a table of values that are not all constants")
        return table

    def _eval_Subscript(self, node):
        if isinstance(self.eval(node.value), dict):  # kwargs["dose"]
            return self.eval(node.value)[self.eval(node.slice)]
        table = self.table(node.value)
        if not isinstance(table, (tuple, list)) or isinstance(node.slice, ast.Slice):
            raise self.unsupported(node, f"indexing `{ast.unparse(node.value)}`")
        index = self.number(self.eval(node.slice), node.slice, "index")
        if index != int(index) or not -len(table) <= index < len(table):
            raise self.fail(SymdiffError, node, f"index {index} is outside the table",
                            hint="index with a whole number inside the table")
        return _outside_value(table[int(index)])

    def operate(self, op, node, *operands):
        rule = _OPERATORS.get(type(op))
        if rule is None:
            raise self.unsupported(node, f"the operator in `{ast.unparse(node)}`")
        return rule(*(self.expr(operand, node) for operand in operands))

    def _eval_BinOp(self, node):
        return self.operate(node.op, node, self.eval(node.left), self.eval(node.right))

    def _eval_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            return sympy.Integer(not self.truth(node.operand))
        return self.operate(node.op, node, self.eval(node.operand))

    def _eval_BoolOp(self, node):
        stop_when = isinstance(node.op, ast.Or)  # `or` stops at a true operand
        for operand in node.values:
            value = self.eval(operand)
            if self.truthy(value, operand) == stop_when:
                break
        return value

    def _eval_Compare(self, node):
        if any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):  # `scale is None`
            left, right = self.eval(node.left), self.eval(node.comparators[0])
            return sympy.Integer((left is right) == isinstance(node.ops[0], ast.Is))
        left = self.comparand(node.left, node)
        for op, comparator in zip(node.ops, node.comparators):
            test = _COMPARISONS.get(type(op))
            if test is None:
                raise self.unsupported(node, f"the comparison `{ast.unparse(node)}`")
            right = self.comparand(comparator, node)
            if isinstance(left, str) != isinstance(right, str):
                raise self.unsupported(node, "comparing a string with a number")
            if not test(left, right):
                return sympy.S.Zero
            left = right
        return sympy.S.One

    def comparand(self, side, node):
        """A side of a comparison: a string flag as it is, anything else as a number."""
        value = self.eval(side)
        return value if isinstance(value, str) else self.number(value, node, "condition")

    def _eval_IfExp(self, node):
        return self.eval(node.body if self.truth(node.test) else node.orelse)

    def _eval_Call(self, node):
        if isinstance(node.func, ast.Attribute) and node.func.attr == "get" and isinstance(
                self.eval(node.func.value), dict):  # kwargs.get("k", default)
            return self.eval(node.func.value).get(*(self.eval(arg) for arg in node.args))
        func, callee = self.eval(node.func), ast.unparse(node.func)
        args = [tuple(self.eval(e) for e in arg.elts) if isinstance(arg, ast.List)  # fsum([..])
                else self.eval(arg) for arg in node.args]
        kwargs = {keyword.arg: self.eval(keyword.value) for keyword in node.keywords}
        if isinstance(func, _Closure):
            return self.call_nested(func, args, kwargs, node)
        if func is len and len(args) == 1 and (
                isinstance(args[0], (tuple, list)) or getattr(args[0], "ndim", None) == 1):
            return sympy.Integer(len(args[0]))  # a table's length
        name = _primitive_name(func)
        if name is None and inspect.isfunction(transparent(func)):
            return self.call(transparent(func), args, kwargs, node)  # what a call runs
        if name is None:
            raise self.fail(UnknownFunctionError, node, f"{callee} has no symbolic form",
                            hint="call math or numpy functions, abs, min, max, pow, or defs")
        if kwargs and name not in _KEYWORDS:
            raise self.unsupported(node, f"keyword arguments to {callee}")
        if name in ("min", "max", "fmin", "fmax"):
            return self.pick(name[-3:], args, node)
        if name == "clip" and len(args) == 3:
            return self.pick("min", (self.pick("max", args[:2], node), args[2]), node)
        if name in _OF_POINTS:
            exprs = [tuple(self.expr(a, node) for a in arg) if isinstance(arg, tuple) else
                     self.expr(arg, node) for arg in args]
        else:
            exprs = [self.expr(arg, node) for arg in args]
        kwargs = {key: self.expr(value, node) for key, value in kwargs.items()}
        try:
            return _PRIMITIVES[name](*exprs, **kwargs)
        except TypeError:
            raise self.fail(SymdiffError, node, f"{callee} does not take {len(exprs)} "
                            "arguments") from None

    def pick(self, name, args, node):
        """The argument Python's min/max returns at the point (on a tie, the first)."""
        exprs = [self.expr(arg, node) for arg in (
            args[0] if len(args) == 1 and isinstance(args[0], tuple) else args)]
        if not exprs:
            raise self.fail(SymdiffError, node, f"{name}() of no arguments")
        if self.point is None and any(e.free_symbols for e in exprs):
            return (sympy.Min if name == "min" else sympy.Max)(*exprs)
        values = [self.number(e, node, f"{name}() argument") for e in exprs]
        return exprs[(min if name == "min" else max)(range(len(values)), key=values.__getitem__)]


# -- the public functions ---------------------------------------------------------------

def _build(fn, at, kwargs=None):
    """(expression, parameter symbols, point as {Symbol: Float} or None); ``kwargs`` are
    the keyword arguments a ``**kwargs`` parameter receives (data: no symbols)."""
    parsed = parse_function(fn)
    names = _parameters(parsed)
    symbols = tuple(sympy.Symbol(name, real=True) for name in names)
    point = None
    if at is not None:
        if isinstance(at, dict) and sorted(at) != sorted(names):
            raise ValueError(f"at= must give exactly the parameters {names}, not {list(at)}")
        values = [at[name] for name in names] if isinstance(at, dict) else (
            [at] if isinstance(at, numbers.Real) else list(at))
        defaults = getattr(parsed.fn, "__defaults__", None) or ()
        missing = len(names) - len(values)
        if 0 < missing <= len(defaults):  # the last parameters left to their defaults
            values += list(defaults[len(defaults) - missing:])
        if len(values) != len(names):
            raise ValueError(f"at= gives {len(values)} values for {len(names)} parameters")
        point = {symbol: sympy.Float(float(v)) for symbol, v in zip(symbols, values)
                 if isinstance(v, numbers.Real)}  # a string flag or a table goes in as it is
        arguments = [s if isinstance(v, numbers.Real) else v for s, v in zip(symbols, values)]
    else:
        arguments = symbols
    value = _Interpreter(parsed, point).call(parsed.fn, arguments, kwargs or {}, parsed.tree)
    if not isinstance(value, sympy.Expr):
        raise parsed.error(SymdiffError, parsed.tree, f"{parsed.name} returns "
                           f"{_describe(value)}, not a number", hint="return one float")
    return value, symbols, point


def _select(wrt, symbols, fn=None):
    """(the symbols ``wrt`` names, whether the caller gets one value, not a tuple).  By
    default every parameter of ``fn`` but those defaulting to None (optional ones)."""
    names = [symbol.name for symbol in symbols]
    if wrt is None:
        defaults = getattr(fn, "__defaults__", None) or ()
        optional = {n for n, d in zip(names[len(names) - len(defaults):], defaults) if d is None}
        keys = [i for i, n in enumerate(names) if n not in optional] or list(range(len(names)))
        single = len(keys) == 1
    else:
        single = isinstance(wrt, (str, int))
        keys = [wrt] if single else list(wrt)
    chosen = []
    for key in keys:
        index = names.index(key) if isinstance(key, str) and key in names else key
        if isinstance(index, bool) or not isinstance(index, numbers.Integral) or not (
                0 <= index < len(names)):
            raise ValueError(f"wrt={key!r} is not a parameter of the function {names}")
        chosen.append(symbols[index])
    return chosen, single


def _to_float(expr, point, memo, what):
    try:
        return _evaluate(expr, point, memo)
    except _NoNumber:
        at = {symbol.name: float(value) for symbol, value in point.items()}
        raise SymdiffError(f"the {what} is not a real number at {at}") from None


def _bounded(entry):
    """Expressions so deep that sympy's own recursion gives up are refused, not crashed on."""
    @functools.wraps(entry)
    def guarded(fn, *args, **kwargs):
        try:
            return entry(fn, *args, **kwargs)
        except RecursionError:
            raise SymdiffError(f"the expression of {getattr(fn, '__name__', fn)} is nested too "
                               "deeply for sympy", hint="use fewer loop iterations, or check "
                               "with the tape and finite differences only") from None
    return guarded


@_bounded
def symbolic(fn, at=None, kwargs=None):
    """``fn``'s value as a sympy expression of its positional parameters.

    ``at`` (a tuple in parameter order, or a dict name -> float) decides the
    branches and loop counts that depend on the inputs; it is needed only then.
    ``kwargs``: what a ``**kwargs`` parameter receives.
    """
    return _build(fn, at, kwargs)[0]


@_bounded
def symbolic_grad(fn, wrt=None, at=None, kwargs=None):
    """sympy's derivatives of ``symbolic(fn, at)``.

    ``wrt=None`` means every positional parameter (one expression for a
    one-parameter function, else a tuple); a name or an index gives one
    expression; a tuple of them gives a tuple, in that order.
    """
    value, symbols, _ = _build(fn, at, kwargs)
    chosen, single = _select(wrt, symbols, fn)
    grads = tuple(value.diff(symbol) for symbol in chosen)
    return grads[0] if single else grads


@_bounded
def evaluate(fn, point, kwargs=None):
    """``fn``'s value at ``point`` as a float, computed from its sympy expression."""
    value, _, values = _build(fn, point, kwargs)
    return _to_float(value, values, {}, "value")


@_bounded
def evaluate_grad(fn, point, wrt=None, kwargs=None):
    """The gradient at ``point`` as floats, from the expression valid around it.

    Same shapes as ``symbolic_grad``: a float for one parameter, else a tuple.
    """
    value, symbols, values = _build(fn, point, kwargs)
    chosen, single = _select(wrt, symbols, fn)
    memo = {}
    grads = tuple(_to_float(value.diff(symbol), values, memo, f"derivative by {symbol}")
                  for symbol in chosen)
    return grads[0] if single else grads


class _CallableModule(types.ModuleType):
    """Importing this module makes ``symdiff.symbolic`` the module rather than the function
    of the same name; calling the module does what calling the function does."""

    def __call__(self, fn, at=None):
        return symbolic(fn, at)


sys.modules[__name__].__class__ = _CallableModule
