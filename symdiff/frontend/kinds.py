"""Kinds: what a call's arguments are, as the types generation is specialized on.

Expects the arguments of one call of a user function.  Guarantees, for each argument,
its kind as an IR type (``symdiff.core.types``): a number is ``float`` (an int or a bool
is read as the number it is), a tuple ``Tuple`` of its elements' kinds, a list ``List``
of one element kind and its length, a dict ``Dict`` of its keys and their values'
kinds; a Python function ``Function`` (itself: its calls are inlined); a
namedtuple, a dataclass or a plain instance ``Record`` of its class and its
fields' kinds (``core.records``: the fields without a kind are its static ones);
anything else (a string, None, a table of data the function only reads) is
``None``, which leaves the parameter to be read as it is today.  Two calls whose
arguments have equal kinds share one generated gradient.

    >>> kind_of([1.0, 2.0, 3.0])
    List(elem=Float(), length=3)
    >>> str(kind_of({"w": [0.5, 1.5], "b": 2.0}))
    "dict['w': list[float, 2], 'b': float]"
    >>> kind_of("tanh") is None
    True
"""

import ast
import dataclasses
import numbers
import sys
import types

from symdiff.core import types as t
from symdiff.core.records import GENERATOR, Function, Record, Row, Scalar
from symdiff.core.types import element  # noqa: F401 (one statement, in the type system)
from symdiff.frontend.wrappers import as_numpy
from symdiff.primitives.reductions import REDUCTIONS
from symdiff.primitives.registry import array_names


PLAIN = frozenset({float, int})  # the types of a list's numbers, checked in one pass


def kind_of(value, depth=0):
    """The kind of ``value`` (see the module's docstring), or None (``depth``: the
    records around it; one nested deeper than ``RECORD_DEPTH`` has no kind)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return t.FLOAT
    if type(value).__name__ == "ndarray":
        return t.array_type(value)
    if is_generator(value):  # data, whose state its draws change
        return GENERATOR
    if not depth and is_function(value):  # a function passed as a value
        return Function(value)
    if type(value) in (list, tuple) and set(map(type, value)) <= PLAIN:  # plain numbers
        if type(value) is list:
            return t.List(t.FLOAT, len(value))
        return t.Tuple((t.FLOAT,) * len(value))
    if hasattr(type(value), "_fields") and isinstance(value, tuple) or is_instance(value):
        return record_kind(value, depth)
    if isinstance(value, tuple):
        elts = tuple(kind_of(v, depth) for v in value)
        return t.Tuple(elts) if all(_is_leafy(e) for e in elts) else None
    if isinstance(value, list):
        elts = [kind_of(v, depth) for v in value]
        if not all(_is_leafy(e) for e in elts):
            return None
        elem = elts[0] if elts else t.FLOAT
        for kind in elts[1:]:
            elem = t.element_join(elem, kind)
            if elem is None:  # a list of unlike things: of arrays, typed element by element
                return Row(tuple(elts)) if any(isinstance(e, t.Array) for e in elts) else None
        return t.List(elem, len(value))
    if isinstance(value, dict) and value and all(isinstance(k, str) for k in value):
        items = tuple((k, kind_of(v, depth)) for k, v in value.items())
        return t.Dict(items) if all(_is_leafy(k) for _, k in items) else None
    return None


NARROW_SCALARS = ("float32", "float16")  # the NumPy floats a Python float would widen


def scalar_kind(value):
    """The ``Scalar`` kind of a NumPy float scalar narrower than a Python float
    (``np.float32``), for a compiled gradient, which keeps its dtype; None for any other
    value (a ``np.float64`` is a float).

    >>> import numpy as np
    >>> scalar_kind(np.float32(0.5)), scalar_kind(np.float64(0.5)), scalar_kind(0.5)
    (Scalar(dtype='float32'), None, None)
    """
    dtype = getattr(value, "dtype", None)
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0 and (
            type(value).__name__ != "ndarray" and dtype.name in NARROW_SCALARS):
        return Scalar(dtype.name)
    return None


RECORD_DEPTH = 4  # records inside records, at most (an object graph may have cycles)


def record_kind(value, depth=0):
    """The ``Record`` of a namedtuple, a dataclass or a plain instance: its fields, in
    their order, those with a kind as items and the others as static (a string's, a
    bool's or None's value kept: a flag is read as the constant it is; a function's too,
    ``self.act`` of ``act=np.tanh``, called as the function it is); None nested
    deeper than ``RECORD_DEPTH``."""
    if depth >= RECORD_DEPTH:
        return None
    items, static, constants = [], [], []
    for name, field in fields_of(value):
        kind = kind_of(field, depth + 1)
        if kind is None:
            static.append(name)
            if field is None or type(field) in (str, bool) or is_function(field):
                constants.append((name, field))  # a flag, or a function its calls inline
        else:
            items.append((name, kind))
    return Record(tuple(items), type(value), tuple(static), tuple(constants))


def fields_of(value):
    """``(name, value)`` of each field of a namedtuple, a dataclass or a plain instance."""
    if isinstance(value, tuple):
        return list(zip(type(value)._fields, value))
    if dataclasses.is_dataclass(value):
        return [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
    return [(k, v) for k, v in vars(value).items() if not k.startswith("__")]


_NOT_RECORDS = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                types.MethodType, types.BuiltinMethodType)


def is_function(value):
    """Whether ``value`` is a function passed as a value: a Python function, or a
    builtin one (``math.sin``, a NumPy ufunc: read as the primitive it is)."""
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType)) or (
        type(value).__name__ == "ufunc")


def is_generator(value):
    """Whether ``value`` is a NumPy random ``Generator``."""
    numpy = sys.modules.get("numpy")  # imported by the user's code, never here
    return numpy is not None and isinstance(value, numpy.random.Generator)


def is_instance(value):
    """Whether ``value`` is an instance of a class written in Python, with fields of its
    own (a dataclass, or a plain object with a ``__dict__``), not a module, a class or a
    function."""
    if isinstance(value, _NOT_RECORDS) or callable(getattr(value, "__get__", None)):
        return False
    if dataclasses.is_dataclass(value):
        return True
    return type(value).__module__ not in ("builtins", "numpy") and isinstance(
        getattr(value, "__dict__", None), dict)


def _is_leafy(kind):
    return kind is not None


def signature(args):
    """The kinds of a call's positional arguments, a hashable key."""
    return tuple(kind_of(a) for a in args)


def uses_arrays(parsed):
    """Whether the parsed function ``parsed`` computes with NumPy arrays: it multiplies
    with ``@``, reads an array's ``.T``, ``.shape``, ``.ndim`` or ``.size``, calls an array
    method (``x.sum()``) or one of NumPy's array functions (``np.sum``, ``np.where``, or
    imported by name: ``from numpy import sum as npsum``; autograd's NumPy is NumPy).
    Such a function is generated on its first call, for the kinds of its arguments."""
    index = parsed.index  # (the order of the nodes is not read: any one decides)

    def value_of(name):  # what a free name of the function refers to (autograd's NumPy:
        return as_numpy(parsed.closure.get(name, parsed.globals.get(name)))  # NumPy's)

    def module_of(name):  # the module a free name of the function refers to, or None
        found = value_of(name)
        return found if isinstance(found, types.ModuleType) else None
    found = array_names()
    numpy = sys.modules.get("numpy")
    functions = {id(getattr(numpy, name)) for name in found["functions"]
                 if "." not in name and hasattr(numpy, name)}  # (none without numpy)
    for node in index.of(ast.BinOp, ast.Name, ast.Attribute):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return True
        if isinstance(node, ast.Name) and id(value_of(node.id)) in functions:
            return True  # ``from numpy import sum as npsum``
        if not isinstance(node, ast.Attribute):
            continue
        if isinstance(node.value, ast.Name) and module_of(node.value.id) is not None:
            module = getattr(module_of(node.value.id), "__name__", "")
            if module == "numpy" and node.attr in found["functions"] or (
                    module == "scipy.special" and node.attr in found["scipy"]):
                return True
        elif isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name) and (
                getattr(module_of(node.value.value.id), "__name__", "") == "numpy") and (
                f"{node.value.attr}.{node.attr}" in found["functions"]):  # np.linalg.det
            return True
        elif node.attr in found["attributes"] or node.attr in _MEASURES:
            return True
    for node in index.of(ast.Call):
        if isinstance(node.func, ast.Attribute) and (
                node.func.attr in found["methods"]) and not (
                isinstance(node.func.value, ast.Name) and module_of(node.func.value.id)):
            return True
    return False


_MEASURES = ("shape", "ndim", "size")


def called_name(func):
    """The name a call's function is written as, ``m`` or ``statistics.fmean``, for
    ``helper``; None for any other callee (``f(x)(y)``, ``xs[0](y)``)."""
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    return ".".join([func.id] + parts[::-1]) if isinstance(func, ast.Name) else None


def uses_containers(tree, params, helper=None):
    """Whether the function ``tree`` reads any of ``params`` as a container: indexes,
    reads a field of (``p.w``), measures, unpacks, loops over or reduces it (a dict's ``keys()``, ``values()`` or
    ``items()`` too), or passes it to a function that does.
    Such a function is generated on its first call, for the kinds of its arguments.
    ``helper(name)`` gives ``(tree, parameter names, helper)`` of a function ``tree``
    calls by ``name``, or None."""
    params = _joined_names(tree, set(params))
    lists = {node.targets[0].id for node in ast.walk(tree) if isinstance(node, ast.Assign)
             and isinstance(node.targets[0], ast.Name) and isinstance(node.value, _DISPLAYS)}
    asked = set()  # (helper, the parameters given) already asked: a helper called often
    methods = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(
        n.func, ast.Attribute) and hasattr(str, n.func.attr)}  # ``kind.lower()``
    own = _parameter_names(tree)  # (a parameter called holds a function: no global's)
    for node in ast.walk(tree):
        if helper is not None and isinstance(node, ast.Call) and called_name(
                node.func) and called_name(node.func).split(".")[0] not in own and any(
                _is_param(a, params) for a in node.args):
            found = helper(called_name(node.func))
            if found is not None:
                inner, names, inner_helper = found
                passed = tuple(n for n, a in zip(names, node.args) if _is_param(a, params))
                if (called_name(node.func), passed) not in asked:
                    asked.add((called_name(node.func), passed))
                    if uses_containers(inner, passed, inner_helper):
                        return True
        if isinstance(node, ast.Subscript) and _is_param(node.value, params) or (
                _reads_field(node, params, methods)):
            return True  # an element read, or a field's (``p.w``)
        if isinstance(node, ast.Call) and (_is_param(node.func, params) or any(
                isinstance(a, ast.Starred) and _is_param(a.value, params) for a in node.args)
                or any(k.arg is None and _is_param(k.value, params) for k in node.keywords)):
            return True  # a function passed as a value, called; a spread: ``f(*p, **d)``
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in ("keys", "values", "items")) and _is_param(
                node.func.value, params):  # a dict's entries
            return True
        if isinstance(node, ast.Call) and _reads_whole(node, params):
            return True
        if isinstance(node, (ast.For, ast.comprehension)) and _is_param(node.iter, params):
            return True
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], (ast.Tuple, ast.List)) \
                and _is_param(node.value, params):
            return True
        if _joins_param(node, params, lists):
            return True
    return False


def _reads_field(node, params, methods):
    """Whether ``node`` reads an attribute of one of ``params`` (``p.w``, ``self.h(x)``),
    not a string's method called (``kind.lower()``: ``methods``, the ids of such calls'
    functions), which is read as it is."""
    return isinstance(node, ast.Attribute) and _is_param(node.value, params) and (
        id(node) not in methods)


def _joined_names(tree, params):
    """``params`` and the names assigned a sum with one of them as a term (``zs = xs +
    ys``), to a fixed point: each is read as its terms are."""
    found = set(params)
    assignments = [(node.targets[0].id, node.value) for node in ast.walk(tree)
                   if isinstance(node, ast.Assign) and len(node.targets) == 1
                   and isinstance(node.targets[0], ast.Name)
                   and isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Add)]
    grown = True
    while grown:
        grown = False
        for name, value in assignments:
            if name not in found and _is_param(value, found):
                found.add(name)
                grown = True
    return found


_DISPLAYS = (ast.List, ast.Tuple, ast.ListComp)


def _parameter_names(tree):
    """The names of the parameters of the ``def`` (or lambda) ``tree``; empty for other
    trees."""
    spec = getattr(tree, "args", None)
    if not isinstance(spec, ast.arguments):
        return set()
    extra = [a for a in (spec.vararg, spec.kwarg) if a is not None]
    return {a.arg for a in spec.posonlyargs + spec.args + spec.kwonlyargs + extra}


def _joins_param(node, params, lists):
    """Whether ``node`` is ``xs + [y]``, ``(a,) + t`` or ``ys += xs``: one of ``params``
    joined with a list or tuple written out, or with a name (in ``lists``) assigned one."""
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
        sides = (node.target, node.value)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        sides = (node.left, node.right)
    else:
        return False
    return any(isinstance(s, _DISPLAYS) or isinstance(s, ast.Name) and s.id in lists
               for s in sides) and any(_is_param(s, params) for s in sides)


_WHOLE = ("len", "enumerate", "zip", "reversed", "sorted", "list", "tuple", "iter", "dict", "map",
          "callable", "reduce")  # (whether it holds a function: the call passes it, or not)
_ONE = REDUCTIONS  # of one iterable (``min(a, b)`` is of numbers)


def _reads_whole(call, params):
    """Whether ``call`` takes one of ``params`` whole: ``len(xs)``, ``zip(xs, ys)``,
    ``sum(xs)``, ``max(xs)`` (not ``max(x, y)``)."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if name in _WHOLE:
        return any(_is_param(a, params) for a in call.args)
    if name in _ONE and call.args and _is_param(call.args[0], params):
        return name == "sum" or len(call.args) == 1
    return False


def _is_param(node, params):
    """Whether ``node`` is one of ``params``, or a sum with one as a term (``xs + ys``
    read whole is a join of containers)."""
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if _is_param(node.right, params):
            return True
        node = node.left
    return isinstance(node, ast.Name) and node.id in params
