"""Resolve: decide statically what each name in a user function means.

A name is a *local* when the function assigns it anywhere (or it is a parameter);
otherwise it is looked up — never executed — in the closure, then the module's
globals, then the builtins.  What it finds there is classified as a number
constant, the ``math`` or ``numpy`` module, a primitive function (however it was
imported or renamed), ``range``, ``stop_gradient``, or another user function.

    import math as m                      m        -> Meaning("module", "math")
    from math import sin as s      ──►    s        -> Meaning("primitive", "sin")
    SCALE = 2.0                           SCALE    -> Meaning("constant", 2.0)
"""

import ast
import builtins
import math
import numbers
import sys
import types
from dataclasses import dataclass, field

from symdiff.frontend.exits import own_nodes
from symdiff.ir.syntax import walk
from symdiff.frontend.wrappers import as_numpy, transparent
from symdiff.core.types import is_table
from symdiff.markers import CUSTOM_RULES, stop_gradient
from symdiff.primitives.registry import array_names, names
from symdiff.primitives.scalar import operator_op

MATH_CONSTANTS = ("pi", "e", "tau", "inf", "nan")


@dataclass(frozen=True)
class Meaning:
    kind: str  # local constant table module primitive function custom range stop_gradient
    value: object = None  # other; for a field of an object: flag array object
    name: str = None  # a field's: the name generated code reads it by (``system_mass``)
    held: object = field(default=None, compare=False)  # a primitive's: the function it is
    # (``np.tanh``, ``math.tanh``), so one passed as a value is computed as its module does


def parameter_names(tree):
    """A function's parameters in order: the positional ones, then the keyword-only."""
    args = tree.args
    return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]


def parameter_defaults(fn, tree):
    """``{parameter: its default}`` of the function ``fn`` whose tree is ``tree``: the
    positional defaults (``__defaults__``) and the keyword-only ones (``__kwdefaults__``)."""
    args = tree.args
    positional = [a.arg for a in args.posonlyargs + args.args]
    values = getattr(fn, "__defaults__", None) or ()
    found = dict(zip(positional[len(positional) - len(values):], values))
    found.update(getattr(fn, "__kwdefaults__", None) or {})
    return found


def local_names(tree, index=None):
    """Parameters (positional, keyword-only, then ``**kwargs`` and ``*args``), nested
    functions and every name the function assigns (an ``except`` clause's ``as`` name too) (not the names its nested functions
    assign), in first-seen order (``index``: the tree's ``NodeIndex``, when at hand)."""
    names = parameter_names(tree)
    if tree.args.kwarg is not None:
        names.append(tree.args.kwarg.arg)
    if tree.args.vararg is not None:
        names.append(tree.args.vararg.arg)
    for node in own_nodes(tree) if index is None else index.own:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
        elif isinstance(node, ast.FunctionDef) and node is not tree:
            names.append(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:  # `except E as e`
            names.append(node.name)
    return list(dict.fromkeys(names))


def all_identifiers(tree, index=None):
    """Every identifier written in the function: reserved against generated names
    (``index``: the tree's ``NodeIndex``, when at hand)."""
    found = []
    for node in walk(tree) if index is None else index.nodes:  # (the order is not read)
        if isinstance(node, ast.Name):
            found.append(node.id)
        elif isinstance(node, ast.arg):
            found.append(node.arg)
        elif isinstance(node, ast.Attribute):
            found.append(node.attr)
        elif isinstance(node, ast.alias):  # an import in the body binds its name
            found.append(node.asname or node.name.partition(".")[0])
    return found


def classify(obj):
    """What a global, closure or builtin object is to symdiff (a wrapper that changes no
    value, such as ``functools.lru_cache``, is what it wraps)."""
    obj = as_numpy(transparent(obj))
    if obj is math:
        return Meaning("module", "math")
    numpy = _numpy()
    if numpy is not None and obj is numpy:
        return Meaning("module", "numpy")
    if numpy is not None and obj is getattr(numpy, "linalg", None):
        return Meaning("module", "numpy.linalg")
    if isinstance(obj, types.ModuleType) or _is_norm(obj):  # scipy.stats.norm: its methods
        return Meaning("module", obj)
    if obj is range:
        return Meaning("range")
    if obj is reversed:
        return Meaning("reversed")
    if obj is stop_gradient:
        return Meaning("stop_gradient")
    if isinstance(obj, types.FunctionType) and obj in CUSTOM_RULES:
        return Meaning("custom", obj)
    if isinstance(obj, bool) or (isinstance(obj, numbers.Real) and not isinstance(obj, type)):
        if numpy is not None and isinstance(obj, numpy.ndarray):
            return Meaning("table", obj) if is_table(obj) else Meaning("other", obj)
        return Meaning("constant", float(obj) if not isinstance(obj, (int, float)) else obj)
    if is_table(obj):
        return Meaning("table", obj)
    primitive = _primitive_of(obj)
    if primitive is not None:
        return Meaning("primitive", primitive, held=obj)
    if isinstance(obj, types.FunctionType):
        return Meaning("function", obj)
    return Meaning("other", obj)


def module_attribute(module, attr):
    """The meaning of ``module.<attr>``; None when unknown.

    ``math`` and ``numpy`` members map to primitives; in any other module the
    attribute is read (not run) and classified like a global.
    """
    if not isinstance(module, str):
        if not hasattr(module, attr):
            return None
        return classify(getattr(module, attr))
    if module == "math":
        if attr in names("math"):
            return Meaning("primitive", names("math")[attr], held=getattr(math, attr))
        if attr in MATH_CONSTANTS:
            return Meaning("constant", getattr(math, attr))
        return None
    if module != "numpy":  # ``numpy.linalg``: the array functions named ``linalg.<attr>``
        dotted = f"{module[len('numpy.'):]}.{attr}"
        found = array_names()["functions"].get(dotted)
        return None if found is None else Meaning("primitive", found,
                                                  held=_member(_numpy(), dotted))
    if attr in names("numpy"):
        return Meaning("primitive", names("numpy")[attr], held=_member(_numpy(), attr))
    if attr in array_names()["functions"]:
        return Meaning("primitive", array_names()["functions"][attr],
                       held=_member(_numpy(), attr))
    if any(name.startswith(f"{attr}.") for name in array_names()["functions"]):
        return Meaning("module", f"numpy.{attr}")  # ``numpy.linalg``
    if attr in ("pi", "e", "inf", "nan"):
        return Meaning("constant", getattr(math, attr))
    return None


def numpy_method(ufunc, attr):
    """The meaning of ``numpy.<ufunc>.<attr>`` where the registry names an array function
    so (a ufunc's method: ``numpy.subtract.outer``), else None; ``numpy.<ufunc>`` itself
    is a primitive, not a module."""
    found = array_names()["functions"].get(f"{ufunc}.{attr}")
    return None if found is None else Meaning("primitive", found)


def lookup(name, closure, globals_):
    """The object a free name refers to (autograd's NumPy as the NumPy it wraps), or a
    ``KeyError``."""
    if name in closure:
        return as_numpy(closure[name])
    if name in globals_:
        return as_numpy(globals_[name])
    if hasattr(builtins, name):
        return getattr(builtins, name)
    raise KeyError(name)


def _primitive_of(obj):
    if operator_op(obj) is not None:  # passed as a value: ``apply(operator.mul, a, b)``
        return operator_op(obj)
    for name, primitive in names("math").items():
        if obj is getattr(math, name):
            return primitive
    for name, primitive in names("builtin").items():
        if obj is getattr(builtins, name):
            return primitive
    numpy = _numpy()
    if numpy is not None:
        for name, primitive in names("numpy").items():
            if obj is getattr(numpy, name, None):
                return primitive
    if numpy is not None:  # ``from numpy.linalg import solve``
        for name, primitive in array_names()["functions"].items():
            if obj is _member(numpy, name):
                return primitive
    special = sys.modules.get("scipy.special")  # imported already if the user's code uses it
    if special is not None:
        for family in (names("scipy"), array_names()["scipy"]):
            for name, primitive in family.items():
                if obj is getattr(special, name, None):
                    return primitive
    if _is_norm(getattr(obj, "__self__", None)):
        return names("method").get(getattr(obj, "__name__", None))
    return None


def _member(module, dotted):
    """``module.<dotted>`` (``linalg.solve``), or None."""
    for attr in dotted.split("."):
        module = getattr(module, attr, None)
    return module


def _is_norm(obj):
    """``scipy.stats.norm``, the normal distribution, whose methods are primitives."""
    stats = sys.modules.get("scipy.stats")
    return stats is not None and obj is not None and obj is getattr(stats, "norm", None)


def _numpy():
    return sys.modules.get("numpy")
