"""The sympy witness's interpreter: runs user functions over sympy values.

Expects the ``ParsedFunction`` of the function to run, sympy arguments for its
parameters and the point (``{Symbol: Float}``, or None).  Guarantees ``Interpreter.call``:
what the function returns, as sympy values, with its statements run, its loops unrolled
and its calls inlined (the user's own functions, and those it defines with ``def`` or
``lambda``); ``min``/``max`` pick the argument Python returns at the point.  Recursion is
refused with ``RecursionCycleError``; a ``raise`` or ``assert`` that fails at the point
raises what the function raises there.

    def f(x):                        Interpreter(parsed, None).call(f, (x,), {}, tree)
        for i in range(3):    ──►      -> x + 3
            x = x + 1
        return x
"""

import ast
import functools
import inspect
import math
from dataclasses import dataclass

import sympy

from symdiff.errors import RecursionCycleError, SymdiffError, UnknownFunctionError
from symdiff.frontend.parse import lambda_as_def, parse_function
from symdiff.frontend.wrappers import transparent
from symdiff.witnesses.symbolic.arrays import is_array
from symdiff.witnesses.symbolic.folds import fold
from symdiff.witnesses.symbolic.reports import reported
from symdiff.witnesses.symbolic.numpy_calls import NumpyCalls
from symdiff.witnesses.symbolic.primitives import (_KEYWORDS, _OF_POINTS, _PRIMITIVES,
                                                   _primitive_name)
from symdiff.witnesses.symbolic.values import _describe, _outside_value


class _Jump(Exception):
    """``_Jump(kind, value)``: a ``Break``, ``Continue`` or ``Return`` leaving a block."""


_STRING_METHODS = frozenset({"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "title",
                             "capitalize", "swapcase", "replace", "removeprefix",
                             "removesuffix", "zfill", "startswith", "endswith", "isdigit",
                             "isalpha", "isalnum", "isspace", "islower", "isupper", "find",
                             "rfind"})


def _parameters(parsed):
    """The positional parameters, ``*args`` last (the tuple of the arguments past the
    others, a parameter like a tuple one); ``**kwargs`` holds data: it gets no symbol."""
    spec = parsed.tree.args
    star = [spec.vararg.arg] if spec.vararg else []
    return [arg.arg for arg in spec.posonlyargs + spec.args] + star


@dataclass(eq=False)
class _Closure:
    """A function the interpreted code defines: its ``def`` (a lambda made one), its
    defaults, the envs it reads free names from (live: late binding), its definer's
    ``ParsedFunction`` (for errors)."""

    tree: ast.FunctionDef
    defaults: tuple
    scopes: tuple
    parsed: object


class Interpreter(NumpyCalls):
    """Runs user functions over sympy values: their statements, loops and calls."""

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
        try:
            bound = inspect.signature(fn, follow_wrapped=False).bind(*args, **kwargs)
        except TypeError as exc:
            raise self.fail(SymdiffError, node, f"cannot call {parsed.name}: {exc}",
                            hint="give every parameter without a default") from None
        bound.apply_defaults()
        # a container is passed as it is (a helper's append is its caller's); what is
        # read from it becomes a sympy number then
        env = {name: _outside_value(v) for name, v in bound.arguments.items()}
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
            names = target.elts
            starred = [i for i, elt in enumerate(names) if isinstance(elt, ast.Starred)]
            items = self.iterate(value, target) if isinstance(value, (tuple, list, dict)) else None
            fits = items is not None and len(starred) <= 1 and (
                len(items) >= len(names) - 1 if starred else len(items) == len(names))
            if not fits:
                raise self.fail(SymdiffError, target, f"cannot unpack {_describe(value)} "
                                f"into {len(names)} names")
            if starred:  # a, *rest = xs: the starred name gets a list of what is left
                first, last = starred[0], len(items) - (len(names) - 1 - starred[0])
                items = items[:first] + [items[first:last]] + items[last:]
            for elt, item in zip(names, items):
                self.assign(elt.value if isinstance(elt, ast.Starred) else elt, item)
        elif isinstance(target, ast.Subscript):
            self.assign_item(target, value)
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
        left, right = self.eval(node.target), self.eval(node.value)
        if isinstance(left, list) and isinstance(node.op, ast.Add):  # xs += ys: in place
            left.extend(self.iterate(right, node))
            return
        value = self.sequence_operation(node.op, left, right, node)
        if value is NotImplemented:
            value = self.operate(node.op, node, left, right)
        if is_array(left) and isinstance(node.target, ast.Name):  # y *= 2.0: in place
            value = self.update_in_place(left, value, node)
        self.assign(node.target, self.checked(value, node))

    def _exec_Expr(self, node):
        if not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
                or reported(self, node.value)):  # a docstring, a print, a log line: skipped
            self.eval(node.value)

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
        if is_array(value):
            return self.numbers_of(value, node)
        if isinstance(value, (tuple, list)):
            return type(value)(self.concrete_value(item, node) for item in value)
        if isinstance(value, dict):
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
        items = self.items_of(node.iter)
        self.loop(node, (self.assign(node.target, item) for item in items))

    def items_of(self, node):
        """The values a ``for`` runs through: a range's numbers, a container's items (see
        ``containers``: ``zip``, ``enumerate``, ``reversed`` and ``sorted`` of them too)."""
        if isinstance(node, ast.Call) and not (  # d.items(): a method, not a function
                isinstance(node.func, ast.Attribute) and node.func.attr in (
                    "items", "keys", "values")) and self.eval(node.func) is range:
            return [sympy.Integer(i) for i in self.range_of(node)]
        return self.iterate(self.eval(node), node)

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

    # calls: of the user's functions (inlined), of primitives, and min/max at the point

    def _eval_Call(self, node):
        args = [item for arg in node.args for item in self.element(arg)]  # f(*xs) too
        if any(keyword.arg is None for keyword in node.keywords):
            raise self.unsupported(node, "a call with **keywords")
        kwargs = {keyword.arg: self.eval(keyword.value) for keyword in node.keywords}
        if isinstance(node.func, ast.Attribute):  # xs.append(v), kwargs.get("k", default)
            base = self.eval(node.func.value)
            if isinstance(base, str) and node.func.attr in _STRING_METHODS and all(
                    isinstance(a, (str, int)) for a in args) and not kwargs:
                found = getattr(base, node.func.attr)(*args)  # kind.lower(): no derivative
                return found if isinstance(found, str) else sympy.Integer(int(found))
            if isinstance(base, (tuple, list, dict)):
                if kwargs:
                    raise self.unsupported(node, f"keyword arguments to .{node.func.attr}()")
                found = self.container_method(base, node.func.attr, args, node)
                if found is NotImplemented:
                    raise self.unsupported(node, f"the method .{node.func.attr}() of "
                                           f"{_describe(base)}")
                return found
        func, callee = self.eval(node.func), ast.unparse(node.func)
        if func is functools.partial and args:  # a function bound to some of its arguments
            return functools.partial(*args, **kwargs)
        if isinstance(func, functools.partial):
            func, args, kwargs = func.func, list(func.args) + args, {**func.keywords, **kwargs}
        if not isinstance(func, type) and inspect.isfunction(getattr(type(func), "__call__",
                                                                     None)):
            func, args = type(func).__call__, [func] + args  # an object with ``__call__``
        if isinstance(func, _Closure):
            return self.call_nested(func, args, kwargs, node)
        if func is functools.reduce and not kwargs and len(args) in (2, 3):
            return fold(self, args[0], list(self.iterate(args[1], node)), args[2:], node)
        found = self.array_call(func, args, kwargs, node)
        if found is not NotImplemented:  # NumPy's functions and an array's methods
            return found
        if func is len and len(args) == 1 and isinstance(args[0], (tuple, list)):
            return sympy.Integer(len(args[0]))
        found = self.container_builtin(func, args, kwargs, node)
        if found is not NotImplemented:
            return found
        if func is float and len(args) == 1 and isinstance(args[0], str) and not kwargs:
            value = float(args[0])  # float("inf"), float("nan"), float("1.5")
            return sympy.nan if math.isnan(value) else sympy.oo if value == math.inf else (
                -sympy.oo if value == -math.inf else sympy.Float(value))
        if func is round and len(args) == 1 and set(kwargs) == {"ndigits"}:
            args, kwargs = args + [kwargs["ndigits"]], {}
        if func in (isinstance, hasattr, callable) and not kwargs:
            subject = 0.0 if isinstance(args[0], sympy.Basic) else args[0]  # a number: a float
            return sympy.Integer(int(func(subject, *args[1:])))
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
            exprs = [tuple(self.expr(a, node) for a in self.iterate(arg, node))
                     if isinstance(arg, (tuple, list)) else self.expr(arg, node) for arg in args]
        else:
            exprs = [self.expr(arg, node) for arg in args]
        kwargs = {key: self.expr(value, node) for key, value in kwargs.items()}
        try:
            return _PRIMITIVES[name](*exprs, **kwargs)
        except TypeError:
            raise self.fail(SymdiffError, node, f"{callee} does not take {len(exprs)} "
                            "arguments") from None

    def pick_by_key(self, func, items, key, node):
        """The item Python's ``max``/``min`` with ``key`` returns at the point (the first
        on a tie)."""
        if not items:
            raise ValueError(f"{func.__name__}() iterable argument is empty")
        keys = [self.number(self.apply(key, item, node), node, "key") for item in items]
        return items[func(range(len(keys)), key=keys.__getitem__)]

    def apply(self, fn, item, node, *more):
        """``fn(item, *more)`` for a key or a fold: a lambda, a def or a primitive."""
        if isinstance(fn, _Closure):
            return self.call_nested(fn, [item, *more], {}, node)
        if _primitive_name(fn) is None and inspect.isfunction(transparent(fn)):
            return self.call(transparent(fn), [item, *more], {}, node)
        name = _primitive_name(fn)
        if name is None:
            raise self.fail(UnknownFunctionError, node, f"the function {fn!r} has no "
                            "symbolic form", hint="give a lambda, a def or a math function")
        return _PRIMITIVES[name](*[self.expr(a, node) for a in (item, *more)])

    def pick(self, name, args, node):
        """The argument Python's min/max returns at the point (on a tie, the first)."""
        exprs = [self.expr(arg, node) for arg in (
            self.iterate(args[0], node) if len(args) == 1 and isinstance(args[0], (tuple, list))
            else args)]
        if not exprs:
            raise self.fail(SymdiffError, node, f"{name}() of no arguments")
        if self.point is None and any(e.free_symbols for e in exprs):
            return (sympy.Min if name == "min" else sympy.Max)(*exprs)
        values = [self.number(e, node, f"{name}() argument") for e in exprs]
        return exprs[(min if name == "min" else max)(range(len(values)), key=values.__getitem__)]

