"""Examples: the random points ``check`` draws, and the example a container needs.

Expects the user's function, which of its parameters are differentiated, and optionally
an example point.  Guarantees:

- ``container_use(fn)``: the first place the function's body uses a parameter as a
  container (``xs[i]``, ``for x in xs``, ``len(xs)``, ``w, b = params``, ``zip(xs, ys)``,
  ``sum(xs)``...) or as an object (``p.w``), as ``(name, node, parsed)``, or None.  A random point cannot be drawn
  for such a parameter without knowing its structure, nor for a function that computes
  with NumPy arrays (``frontend.kinds.uses_arrays``: ``@``, ``np.sum``, ``x.shape``...)
  without knowing its arrays' shapes: ``needs_example`` is the located ``SymdiffError``
  (with a hint naming ``example=``) that says so;
- ``random_points``: points where the function returns a finite number.  Without an
  example, a uniform number in the domain per differentiated parameter and a small whole
  number for the others (often counts), as ``check`` always drew them; with an example,
  each number of a differentiated parameter (inside its containers and arrays too) is
  drawn from the domain and the other parameters keep the example's values.

    def f(xs): return sum(x * x for x in xs)
    random_points(f, ["xs"], ["xs"], set(), 2, (0.1, 2.0), 0, example=([1.0, 1.0],))
      -> [([0.87, 1.61],), ([0.35, 1.12],)]   (seeded: the same every run)
"""

import ast
import builtins
import inspect
import math
import numbers
import random


from symdiff.checking.arrays import is_float_array
from symdiff.checking.leaves import is_container, leaves, number_leaf, rebuild
from symdiff.errors import InternalError, SymdiffError
from symdiff.checking.arrays import numpy

# the functions that read their argument as a container (compared by identity)
_READERS = (len, sum, min, max, zip, enumerate, sorted, reversed, list, tuple, dict, iter,
            math.fsum, math.prod)
# the methods that do
_METHODS = ("append", "extend", "pop", "items", "keys", "values", "get", "copy", "insert",
            "index", "count")


def container_use(fn):
    """``(parameter, node, parsed)`` where the body first uses a parameter as a container,
    or None (also when the source cannot be read: the build reports that)."""
    from symdiff.frontend.parse import parse_function
    try:
        parsed = parse_function(fn)
    except SymdiffError:
        return None
    spec = parsed.tree.args
    params = {arg.arg for arg in spec.posonlyargs + spec.args}
    found = []
    for node in ast.walk(parsed.tree):
        for name, where in _uses(node, parsed):
            if name in params:
                found.append((where.lineno, where.col_offset, name, where))
    if not found:
        return None
    _, _, name, where = min(found, key=lambda item: item[:2])
    return name, where, parsed


def _callee(func, parsed):
    """What a call's ``func`` names in the function's scope (a name or a module's
    attribute), or None."""
    scopes = (parsed.closure, parsed.globals, vars(builtins))
    if isinstance(func, ast.Name):
        return next((scope[func.id] for scope in scopes if func.id in scope), None)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        module = next((scope[func.value.id] for scope in scopes if func.value.id in scope),
                      None)
        return getattr(module, func.attr, None) if module is not None else None
    return None


def _uses(node, parsed):
    """(name, node) for each name ``node`` reads as a container or an object."""
    def named(expr):  # located at the name itself
        return [(expr.id, expr)] if isinstance(expr, ast.Name) else []
    if isinstance(node, ast.Subscript):
        return named(node.value)
    if isinstance(node, (ast.For, ast.comprehension)):
        return named(node.iter)
    if isinstance(node, ast.Starred):
        return named(node.value)
    if isinstance(node, ast.Assign) and any(isinstance(t, (ast.Tuple, ast.List))
                                            for t in node.targets):
        return named(node.value)
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and not (
            node.attr in _METHODS):
        return named(node.value)  # p.w: a field of an object
    if isinstance(node, ast.Call):
        called = _callee(node.func, parsed)
        if any(called is reader for reader in _READERS):
            return [use for arg in node.args for use in named(arg)]
        if isinstance(node.func, ast.Attribute) and node.func.attr in _METHODS:
            return named(node.func.value)  # xs.append(v), p.items()
    return []


def needs_example(fn):
    """The located error for an array function, or a container parameter, with no point
    to learn the shapes or the structure from; None when every parameter is a number."""
    from symdiff.frontend.kinds import uses_arrays
    from symdiff.frontend.parse import parse_function
    try:
        parsed = parse_function(fn)
    except SymdiffError:
        return None  # the build reports an unreadable source
    if uses_arrays(parsed):
        name = parsed.name
        return parsed.error(
            SymdiffError, parsed.tree, f"check needs a point to draw random points for "
            f"{name}, which computes with NumPy arrays: a random number has no shape",
            hint=f"give the points to check at (check({name}, (np.ones(3), 2.0)), or --at "
                 f"on the command line), or an example of the arguments (check({name}, "
                 "example=(np.ones(3), 2.0))): random points keep each array's shape and "
                 "dtype and draw its elements from domain=")
    vararg = parsed.tree.args.vararg
    if vararg is not None:
        name = parsed.name
        return parsed.error(
            SymdiffError, vararg, f"check needs a point to draw random points for {name}, "
            f"which takes *{vararg.arg}: how many arguments it gathers is the call's",
            hint=f"give the points to check at (check({name}, (1.0, 2.0, 3.0)), or --at on "
                 f"the command line), or check({name}, example=(1.0, 2.0, 3.0)): random "
                 "points keep its number of arguments and draw their numbers")
    use = container_use(fn)
    if use is None:
        return None
    name, node, parsed = use
    field = any(isinstance(n, ast.Attribute) and n.value is node and n.attr not in _METHODS
                for n in ast.walk(parsed.tree))
    what = "reads a field of" if field else "uses as a container"
    return parsed.error(
        SymdiffError, node, f"check needs a point to draw random points for {name}, which "
        f"{parsed.name} {what} here",
        hint=f"give the points to check at (check({parsed.name}, point, ...), or --at on "
             f"the command line), or check({parsed.name}, example=point): random points "
             "keep its lengths, keys and classes and draw its numbers")


def random_points(fn, params, names, optional, samples, domain, seed, example=None):
    """Up to ``samples`` random points where ``fn`` returns a finite number (see the
    module): ``params`` in order, ``names`` those differentiated, ``optional`` those
    defaulting to None (None in a point unless differentiated); one defaulting to a
    function (``act=relu``) keeps it."""
    rng = random.Random(seed)
    points = []
    functions = _function_defaults(fn)
    for _ in range(samples * 50):
        if example is None:
            point = tuple(None if p in optional and p not in names
                          else functions[p] if p in functions and p not in names
                          else rng.uniform(*domain) if p in names else rng.randint(1, 5)
                          for p in params)
        else:
            point = tuple(_drawn(value, rng, domain) if p in names else value
                          for p, value in zip(params, example))
        try:
            value = fn(*point)
        except InternalError:
            raise
        except Exception:  # noqa: BLE001 - outside the domain, or failing its input checks
            continue
        if isinstance(value, numbers.Real) and math.isfinite(value):  # numpy's floats too
            points.append(point)
        if len(points) == samples:
            break
    return points


def function_example(fn):
    """A point of ``fn`` whose parameters defaulting to a function keep it (the others
    1.0, or their default), up to the last of them; None where none does."""
    functions = _function_defaults(fn)
    if not functions:
        return None
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    last = max(i for i, p in enumerate(params) if p.name in functions)
    return tuple(p.default if p.default is not p.empty else 1.0 for p in params[:last + 1])


def _function_defaults(fn):
    """``{parameter: its default}`` of ``fn``'s parameters defaulting to a function."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in params if callable(p.default)
            and p.default is not inspect.Parameter.empty}


def _drawn(value, rng, domain):
    """``value`` with each number drawn from the domain (bools and strings kept; each
    element of a float array drawn, in its shape and dtype)."""
    if not is_container(value):
        return _drawn_leaf(value, rng, domain)
    return rebuild(value, [_drawn_leaf(leaf, rng, domain) for _, leaf in leaves(value)])


def _drawn_leaf(leaf, rng, domain):
    if is_float_array(leaf):
        drawn = numpy().random.default_rng(rng.getrandbits(64)).uniform(*domain, size=leaf.shape)
        return drawn.astype(leaf.dtype)
    return rng.uniform(*domain) if number_leaf(leaf) else leaf
