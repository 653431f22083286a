"""Value types: the type an IR expression certainly has, from its names' types.

Expects an ``core.expr`` expression and the types of the names it reads (``core.types``, with
``Number``: a bool, an int or a float); guarantees ``value_type(e, env, module)``: a type
every value of ``e`` has when it evaluates without raising, or None where the rules do
not tell, and ``sweep_join``, the type of a name given values of two types (an ``Int``
and a ``Float`` join to a ``Number``: ``core.types.either``).  An operator or a call of a
primitive has its record's type rule's result, the one statement of the rule
(``expression_types.primitive_type`` with ``certain``: ``max`` of an int and a float is a
number): a float meeting any number is a float (or it raises); ``/`` of numbers a float;
``math.sin(x)`` a float, ``math.floor(x)`` an int; numpy's function of numbers a NumPy
scalar; the rest here: a comparison of numbers a bool; an element of a list its
element type; ``sum`` of floats a float when there is one at least.  Numbers are real: a
negative float to a fractional power, which Python makes a complex number, is taken as a
float, as every derivative rule of the registry takes it.

    value_type(x * 2.0, {"x": Number}) -> Float      value_type(x + 1, ...) -> Number
"""

import math
import sys

from symdiff.analysis.expression_types import (BUILTIN_VALUES, MATH_VALUES, STRING_METHODS,
                                               primitive_type)
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.primitives.reductions import REDUCTIONS, WITH_START, in_math
from symdiff.analysis.array_call_types import array_call_type, int_constant
from symdiff.primitives.registry import array_names, names, operator_ops, variant

_ARRAY_ELEMENTS = {"f": t.FLOAT, "i": t.INT, "u": t.INT, "b": t.BOOL}  # by dtype kind
NUMBERS = t.NUMBERS
# Each type of these classes is one of ``NUMBERS`` and each of those is of one of them:
# ``type(k) in _NUMBER_CLASSES`` is ``k in NUMBERS``, without comparing types field by field.
_NUMBER_CLASSES = frozenset(type(k) for k in NUMBERS)
POPPED = object()  # the value of ``t = pop()`` from a save stack: what ``push`` saved
UNKNOWN = object()  # a name known to hold values of no one type (None once settled)


def sweep_join(a, b):
    """The type of a name assigned a value of type ``a`` and one of type ``b`` (None: no
    value yet; ``UNKNOWN``: nothing known)."""
    if a is None or a == b:
        return b
    if b is None:
        return a
    if a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN
    if type(a) in _NUMBER_CLASSES and type(b) in _NUMBER_CLASSES:
        return t.either(a, b)  # an int and a float: a number
    if isinstance(a, t.List) and isinstance(b, t.List):  # (elem None: no element yet)
        elem = sweep_join(a.elem, b.elem)
        return UNKNOWN if elem is UNKNOWN else t.List(
            elem, a.length if a.length == b.length else None)
    if isinstance(a, t.Tuple) and isinstance(b, t.Tuple) and len(a.elts) == len(b.elts):
        elts = tuple(sweep_join(x, y) for x, y in zip(a.elts, b.elts))
        return UNKNOWN if UNKNOWN in elts else t.Tuple(elts)
    if isinstance(a, t.Dict) and isinstance(b, t.Dict) and not (a.items and b.items):
        return a if a.items else b  # an empty dict has no value to read
    if isinstance(a, t.Dict) and isinstance(b, t.Dict) and [k for k, _ in a.items] == [
            k for k, _ in b.items]:
        values = [sweep_join(x, y) for (_, x), (_, y) in zip(a.items, b.items)]
        return UNKNOWN if UNKNOWN in values else t.Dict(
            tuple((k, v) for (k, _), v in zip(a.items, values)))
    return UNKNOWN


def value_type(expr, env, module):
    """The type ``expr`` certainly has when the names hold the types of ``env`` (None:
    not known, or no value yet)."""
    return value_type_from(expr, lambda e: value_type(e, env, module), env, module)


def value_type_from(expr, of, env, module):
    """``value_type`` of ``expr``, its operands' types given by ``of`` (``value_type``
    of each, or a caller's memory of them)."""
    rule = _RULES.get(type(expr))
    if rule is None:
        return None
    found = rule(expr, of, env, module)
    return None if found is UNKNOWN else found


def _name(expr, of, env, module):
    return env.get(expr.id)


def _const(expr, of, env, module):
    if expr.text is not None:  # ``math.pi``, ``math.inf``: floats
        head, _, attr = expr.text.partition(".")
        return t.FLOAT if head == module.math and attr and "." not in attr else None
    if type(expr.value) in (bool, int, float, str) or expr.value is None:
        return t.of_value(expr.value)
    return None


def _attribute(expr, of, env, module):
    """``math.pi``, ``math.inf``, ``np.inf``: the floats of ``math`` and numpy; an
    array's ``size`` and ``ndim`` (ints) and ``shape`` (a tuple of ints, one per axis)."""
    value = expr.value
    array = of(value)
    if isinstance(array, t.Array) and expr.attr in ("size", "ndim"):
        return t.INT
    if isinstance(array, t.Array) and expr.attr == "shape":
        return t.Tuple((t.INT,) * array.ndim)
    if type(value) is not ex.Name:
        return None
    numpy = sys.modules.get("numpy")
    source = math if value.id == module.math else numpy if value.id in module.numpy else None
    return t.FLOAT if isinstance(getattr(source, expr.attr, None), float) else None


def _unary(expr, of, env, module):
    operand = of(expr.operand)
    if expr.op == "not":
        return t.BOOL
    if type(operand) not in _NUMBER_CLASSES:
        return None
    op = operator_ops(1).get(expr.op)
    if op is None:  # ``~``: an int's
        return t.INT if operand in (t.BOOL, t.INT) else None
    return _rule_type(module, op, (operand,), (None,), None)  # -True is -1


def _binary(expr, of, env, module):
    left, right = of(expr.left), of(expr.right)
    if expr.op == "*" and isinstance(left, t.List) and right in (t.INT, t.BOOL):
        return t.List(left.elem)  # ``[0.0] * n``
    if expr.op == "+" and isinstance(left, t.List) and isinstance(right, t.List):
        elem = sweep_join(left.elem, right.elem)
        return None if elem is UNKNOWN else t.List(elem, None if None in (
            left.length, right.length) else left.length + right.length)
    if expr.op == "+" and isinstance(left, t.Tuple) and isinstance(right, t.Tuple):
        return t.Tuple(left.elts + right.elts)
    if type(left) not in _NUMBER_CLASSES or type(right) not in _NUMBER_CLASSES:
        return None
    op = expr.op
    if op in operator_ops(2):  # a float meeting any number: a float, or it raises
        return _rule_type(module, operator_ops(2)[op], (left, right), (
            int_constant(expr.left), int_constant(expr.right)), None)
    if op in ("&", "|", "^", "<<", ">>") and left in (t.BOOL, t.INT) and right in (
            t.BOOL, t.INT):
        return t.BOOL if op in ("&", "|", "^") and left == right == t.BOOL else t.INT
    return None


def _compare(expr, of, env, module):
    if all(op in ("is", "is not", "in", "not in") for op in expr.ops):
        return t.BOOL
    operands = [of(expr.left)] + [of(c) for c in expr.comparators]
    if all(o in NUMBERS for o in operands) or all(o == t.STR for o in operands):
        return t.BOOL
    return None


def _choice(parts, of):
    found = None
    for part in parts:
        kind = of(part)
        if kind is None:
            return None
        found = sweep_join(found, kind)
    return found


def _boolop(expr, of, env, module):
    return _choice(expr.values, of)  # ``a or b`` is one of its operands


def _ifexp(expr, of, env, module):
    return _choice((expr.body, expr.orelse), of)


def _call(expr, of, env, module):
    func = expr.func
    stack = _stack_of(func, module) if not expr.args else None
    if stack is not None:
        kind = env.get(stack)  # ``pop()`` of a save stack
        return kind.elem if isinstance(kind, t.List) else None
    if type(func) is ex.Name and func.id in module.shadowed:
        return None  # the user's own ``sum``
    if type(func) is ex.Name:
        if func.id in module.helpers:
            return t.FLOAT  # a helper the generated module defines returns a float
        family, name = "builtin", func.id
        if name in BUILTIN_VALUES:
            return BUILTIN_VALUES[name]
        if len(expr.args) == 1 and not expr.keywords and name in _OF_ELEMENTS:
            return _OF_ELEMENTS[name](elements_of(of(expr.args[0])), of(expr.args[0]))
        if len(expr.args) == 1 and not expr.keywords and name in REDUCTIONS and not (
                in_math(name)):
            return _reduced(name, of(expr.args[0]))
        if name == "sum" and len(expr.args) == 2 and not expr.keywords:  # sum(xs, start)
            total, start = _sum_of(of(expr.args[0])), of(expr.args[1])
            return None if total is None or start not in NUMBERS else _binary(
                ex.BinOp("+", expr.args[0], expr.args[1]), lambda e: (
                    total if e is expr.args[0] else start), env, module)
    elif type(func) is ex.Attribute and type(func.value) is ex.Name and (
            func.value.id == module.math):
        family, name = "math", func.attr
    elif type(func) is ex.Attribute and type(func.value) is ex.Name and (
            func.value.id in module.numpy):
        return _primitive_call(expr, of, "numpy", module, env)
    elif type(func) is ex.Attribute and func.attr in STRING_METHODS and (
            of(func.value) == t.STR):
        return STRING_METHODS[func.attr]  # ``kind.lower()``
    elif type(func) is ex.Attribute and func.attr == "pop" and len(expr.args) <= 1:
        kind = of(func.value)  # ``xs.pop()``, ``xs.pop(i)``: an element
        return kind.elem if isinstance(kind, t.List) else None
    else:
        return None
    if family == "math" and name in MATH_VALUES:
        return MATH_VALUES[name]
    if family == "math" and in_math(name) and len(expr.args) == 1 and not expr.keywords:
        return _reduced(name, of(expr.args[0]))
    return _primitive_call(expr, of, family, module)


def _primitive_call(expr, of, family, module, env=None):
    op = names(family).get(expr.func.id if family == "builtin" else expr.func.attr)
    if op is None and family == "numpy":
        op = array_names()["functions"].get(expr.func.attr)
        return None if op is None else array_call_type(expr, of, module, op, env or {})
    if op is None or expr.keywords:
        return None
    try:
        op = variant(op, len(expr.args))
    except KeyError:
        return None
    by = family if family in ("math", "numpy") else None
    return _rule_type(module, op, tuple(of(a) for a in expr.args),
                      tuple(int_constant(a) for a in expr.args), by)


def _rule_type(module, op, args, consts, by):
    """The certain type the rule of ``op`` gives (``primitive_type``), found once per
    (op, argument types, constants, names) in one run (``module.rules``)."""
    key = (op, args, tuple((type(c), c) for c in consts), by)  # 1 and True apart
    found = module.rules.get(key, _UNSEEN)
    if found is _UNSEEN:
        found = module.rules[key] = primitive_type(op, list(args), list(consts), by,
                                                   certain=True)
    return found


_UNSEEN = object()


def _stack_of(func, module):
    if type(func) is ex.Name:
        for pop, stack in module.pops:
            if pop == func.id:
                return stack
    return None


def elements_of(kind):
    """The element types of a list or tuple (None: not one)."""
    if isinstance(kind, t.Tuple):
        return kind.elts
    if isinstance(kind, t.List) and kind.elem is not None:
        return (kind.elem,)
    return None


def joined(kinds):
    found = None
    for kind in kinds:
        found = sweep_join(found, kind)
    return None if found is UNKNOWN else found


def _length(kind):
    return len(kind.elts) if isinstance(kind, t.Tuple) else getattr(kind, "length", None)


_OF_ELEMENTS = {  # builtins copying one list or tuple: from its elements' types
    "sorted": lambda elts, kind: None if elts is None else t.List(joined(elts), _length(kind)),
    "list": lambda elts, kind: None if elts is None else t.List(joined(elts), _length(kind)),
    "tuple": lambda elts, kind: kind if isinstance(kind, t.Tuple) else None,
}


def _reduced(op, kind):
    """The type of a reduction (``primitives.reductions``) of one list or tuple: ``fsum``
    gives a float, ``sum`` and ``prod`` start from an int, ``min`` and ``max`` give
    one of the elements."""
    if op == "fsum":
        return t.FLOAT
    if op in WITH_START:
        return _sum_of(kind)
    elts = elements_of(kind)
    return None if elts is None else joined(elts)


def _sum_of(kind):
    """``sum(xs)`` of numbers: it starts from the int 0, so the sum of floats is a float
    only when there is one at least."""
    if kind == t.Tuple(()):
        return t.INT  # sum(()) is 0
    elts = kind.elts if isinstance(kind, t.Tuple) else (kind.elem,) if isinstance(
        kind, t.List) else ()
    if not elts or not all(e in NUMBERS for e in elts):
        return None
    found = t.INT
    for e in elts:
        found = sweep_join(found, e)
    known_length = isinstance(kind, t.Tuple) or kind.length
    return t.FLOAT if t.FLOAT in elts and known_length else found





def _subscript(expr, of, env, module):
    container = of(expr.value)
    index = expr.index
    if isinstance(container, t.Array):  # an integer of one axis: numpy's scalar of it
        if container.ndim != 1 or type(index) in (ex.Slice, ex.Tuple) or (
                of(index) not in (t.INT, t.BOOL, t.NUMBER)):
            return None  # (an array: typed as the program types it)
        numpy = sys.modules.get("numpy")
        return _ARRAY_ELEMENTS.get(numpy.dtype(container.dtype).kind) if numpy else None
    if type(index) is ex.Slice:
        return _slice(container, index)
    if isinstance(container, (t.List, t.Table)):
        return container.elem
    key = index.value if type(index) is ex.Const and index.text is None else None
    if isinstance(container, t.Tuple) and type(key) is int and -len(
            container.elts) <= key < len(container.elts):
        return container.elts[key]
    if isinstance(container, t.Dict) and key is not None:
        return dict(container.items).get(key)
    items = container.elts if isinstance(container, t.Tuple) else [
        v for _, v in container.items] if isinstance(container, t.Dict) else ()
    found = None
    for item in items:  # some element of a tuple, some value of a dict
        found = sweep_join(found, item)
    return None if found is UNKNOWN else found


def _slice(container, index):
    """A slice of a list is a list; of a tuple, the tuple of the elements it takes."""
    if isinstance(container, t.List):
        return t.List(container.elem)
    bounds = [None if b is None else int_constant(b)
              for b in (index.lower, index.upper, index.step)]
    written = [b for b in (index.lower, index.upper, index.step) if b is not None]
    if isinstance(container, t.Tuple) and len([b for b in bounds if b is not None]) == len(
            written):
        return t.Tuple(container.elts[slice(*bounds)])
    return None


def _display(expr, of, env, module):
    elts = [of(e) for e in expr.elts]
    if any(e is None for e in elts):
        return None
    if type(expr) is ex.Tuple:
        return t.Tuple(tuple(elts))
    found = None
    for e in elts:
        found = sweep_join(found, e)
    return None if found is UNKNOWN else t.List(found, len(elts))  # ``[]``: no element


def _dict(expr, of, env, module):
    keys = [k.value if type(k) is ex.Const and k.text is None else ... for k in expr.keys]
    values = [of(v) for v in expr.values]
    if ... in keys or None in values or len(set(keys)) != len(keys):
        return None
    return t.Dict(tuple(zip(keys, values)))


def _list_comp(expr, of, env, module):
    iterated = expr.iter
    counts = type(iterated) is ex.Call and type(iterated.func) is ex.Name and (
        iterated.func.id == "range")
    inner = dict(env, **{expr.target: t.INT if counts else UNKNOWN})
    elem = value_type(expr.elt, inner, module)
    return None if elem is None else t.List(elem)


_RULES = {ex.Name: _name, ex.Const: _const, ex.Attribute: _attribute, ex.UnaryOp: _unary, ex.BinOp: _binary,
          ex.Compare: _compare, ex.BoolOp: _boolop, ex.IfExp: _ifexp, ex.Call: _call,
          ex.Subscript: _subscript, ex.Tuple: _display, ex.List: _display, ex.Dict: _dict,
          ex.ListComp: _list_comp, ex.FString: lambda *args: t.STR}
