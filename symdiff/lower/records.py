"""Records built: ``Params(w=a, b=b)`` of a namedtuple or a dataclass, and
``type(p)(w=..., b=...)`` of a parameter's class, as the containers they are.

Expects a ``Frame`` and a call.  ``maker(frame, call)`` is ``(expression, class)`` when
the callee is a namedtuple's class, a dataclass whose ``__init__`` is the one
``dataclasses`` writes (no ``__post_init__``, every field taken by it), reached by name
or as an attribute of a module, or ``type(p)`` of a parameter ``p`` holding one (the
class of the gradient a record parameter is given, which forward mode reads when it
differentiates a gradient); None for any other callee.  ``build`` lowers such a call to
one ``Build`` of a dict of its number fields, typed ``Record`` of the class (so every
container pass reads it as the dict it is, ``q.w`` as ``q["w"]``), its flags (a
string, a bool or None, given or by default) part of its type; the ``Build`` holds the
class's expression (``maker``), so the generated code calls it, as the user's does:

    q = Params(w=x * 2.0, b=y)      ->   mul_q = x * 2.0; q = Params(w=mul_q, b=y)
    q.w * q.b                       ->   q_w = q.w; q_b = q.b; ...

Arguments are bound as Python binds them (positions in the order of the fields, then
keywords, then defaults); a missing field without a default, a field given twice or
unknown, a default built by a factory, and a field given something that is neither a
number, a container of numbers nor a flag are located ``UnsupportedSyntaxError``s.
"""

import ast
import builtins
import dataclasses
import math
import types

from symdiff.core import expr as ex
from symdiff.core.records import Record, is_namedtuple_class, is_structured
from symdiff.errors import SymdiffError, UnsupportedSyntaxError
from symdiff.frontend.kinds import is_function as is_function_value
from symdiff.frontend.resolve import lookup
from symdiff.lower import names

_FLAGS = (str, bool, type(None))


def maker(frame, call):
    """``(expression of the class, the class)`` for a call that builds a record (see
    the module), else None."""
    func = call.func
    if isinstance(func, ast.Call):
        return _type_of(frame, func)
    dotted = _dotted(func)
    if dotted is None or names.scope_of(frame, dotted[0]) is not None:
        return None  # a local name: no class
    if len(dotted) == 1:
        meant = names.meaning_of(frame, dotted[0], func)
        cls = meant.value if meant.kind == "other" else None
    else:
        cls = _module_member(frame, func, dotted)
    if not _builds_by_fields(cls):
        return None
    return ex.Name(frame.unit.global_name(cls.__name__, cls)), cls


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id] + parts[::-1]


def _module_member(frame, func, dotted):
    """The class ``mod.Params`` names, when ``mod`` is a module; None for any other
    attribute (a method of a value, ``self.h``), found without formatting a refusal."""
    try:
        if names.meaning_of(frame, dotted[0], func).kind != "module":
            return None
        return names.module_member(frame, func).value
    except SymdiffError:  # not a module's member: no class of a record
        return None


def _type_of(frame, func):
    """``type(p)`` of a parameter ``p`` whose kind is a namedtuple's or a dataclass's."""
    if not (isinstance(func.func, ast.Name) and len(func.args) == 1 and not func.keywords
            and isinstance(func.args[0], ast.Name)):
        return None
    if names.scope_of(frame, "type") is not None:
        return None
    meant = names.meaning_of(frame, "type", func.func)
    if meant.value is not builtins.type:
        return None
    operand = names.name_operand(frame, func.args[0])
    kind = frame.unit.containers.get(getattr(operand, "name", None))
    if not is_structured(kind) or operand.name not in frame.unit.params:
        return None
    return ex.Call(ex.Name("type"), (ex.Name(operand.name),)), kind.cls


def _builds_by_fields(cls):
    """Whether calling ``cls`` builds an instance from its fields alone."""
    if is_namedtuple_class(cls):
        return True
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        return False
    params = getattr(cls, "__dataclass_params__", None)
    return bool(params and params.init) and not hasattr(cls, "__post_init__") and all(
        f.init for f in dataclasses.fields(cls)) and "__init__" in vars(cls)


def _fields(cls):
    """``[(name, default)]`` of the fields ``cls`` is built from, in order (``_NONE``
    where there is no default, ``_FACTORY`` for a default made by a factory)."""
    if is_namedtuple_class(cls):
        return [(n, cls._field_defaults.get(n, _NONE)) for n in cls._fields]
    return [(f.name, f.default if f.default is not dataclasses.MISSING else (
        _FACTORY if f.default_factory is not dataclasses.MISSING else _NONE))
        for f in dataclasses.fields(cls)]


_NONE, _FACTORY = object(), object()


def _bound(frame, node, cls):
    """``{field: value node}`` of the call's arguments and the defaults, bound as
    Python binds them, in the order of the fields."""
    fields = _fields(cls)
    order = [name for name, _ in fields]
    shown = cls.__qualname__
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords):
        raise frame.error(UnsupportedSyntaxError, node, f"{shown}(...) with * or ** "
                          "arguments is not supported", "name each field: "
                          + ", ".join(f"{n}=..." for n in order))
    if len(node.args) > len(order):
        raise frame.error(UnsupportedSyntaxError, node, f"{shown} takes {len(order)} "
                          f"fields, not {len(node.args)}", "pass one value per field")
    given = dict(zip(order, node.args))
    for keyword in node.keywords:
        if keyword.arg not in order or keyword.arg in given:
            what = "given twice" if keyword.arg in given else "not a field"
            raise frame.error(UnsupportedSyntaxError, keyword.value, f"{keyword.arg} is "
                              f"{what} of {shown}", "its fields are: " + ", ".join(order))
        given[keyword.arg] = keyword.value
    bound = {}
    for name, default in fields:
        if name in given:
            bound[name] = given[name]
        elif default is _NONE or default is _FACTORY:
            why = "no value" if default is _NONE else "a default made by a factory"
            raise frame.error(UnsupportedSyntaxError, node, f"the field {name} of {shown} "
                              f"is given {why} here", f"pass it: {shown}(..., {name}=...)")
        else:
            bound[name] = ast.copy_location(ast.Constant(default), node)
    return bound


def _flag(value, field_flag):
    """The flag ``value`` stands for (a string, a bool or None written out, or a
    record's flag field: ``field_flag(value)``), or ``_NONE``."""
    if isinstance(value, ast.Constant) and isinstance(value.value, _FLAGS):
        return value.value
    found = field_flag(value) if isinstance(value, ast.Attribute) else None
    if found is not None and isinstance(found.value, _FLAGS):
        return found.value
    return _NONE


def _function(frame, value):
    """``(function, spelling)``: the function ``value`` names where it is known when the
    gradient is built (a function of the module, ``math.tanh``, ``np.tanh``: no local
    name) and how the generated module reads it (``math.tanh``, by the name it holds
    ``math`` by); ``(_NONE, None)`` else."""
    dotted = _dotted(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
    if dotted is None or names.scope_of(frame, dotted[0]) is not None:
        return _NONE, None
    try:
        head = found = lookup(dotted[0], frame.parsed.closure, frame.parsed.globals)
        for attr in dotted[1:]:
            if not isinstance(found, types.ModuleType):
                return _NONE, None  # (a field of a value: no function known now)
            found = getattr(found, attr)
    except (KeyError, AttributeError):
        return _NONE, None
    if not is_function_value(found):
        return _NONE, None
    module = frame.unit.math_name if head is math else frame.unit.global_name(dotted[0], head)
    return found, ".".join([module] + dotted[1:])


def build(frame, node, made, field_flag):
    """``(dict, record, maker)`` for ``containers.literal`` to lower the record build
    ``node`` (``made``: ``maker``'s answer) as: the dict of its number fields written
    out, what makes its type a ``Record`` of the class, the class's expression;
    ``field_flag(node)`` is the ``Const`` a record's flag field holds, or None.  A field
    given a function known now (``Layer(w, math.tanh)``) holds it as a constant too,
    called where the record's field is (``layer.act(z)``), and the generated code passes
    it by the name the generated module holds it by."""
    expression, cls = made
    bound = _bound(frame, node, cls)
    flags, spelled = {}, []
    for name, value in bound.items():
        flags[name] = _flag(value, field_flag)
        if flags[name] is _NONE:
            flags[name], spelling = _function(frame, value)
            spelled += [(name, spelling)] if spelling is not None else []
    constants = tuple((name, flag) for name, flag in flags.items() if flag is not _NONE)
    numbers = [name for name in bound if flags[name] is _NONE]
    written = ast.copy_location(ast.Dict([ast.Constant(name) for name in numbers],
                                         [bound[name] for name in numbers]), node)
    return written, lambda kind: Record(kind.items, cls, tuple(
        name for name, _ in constants), constants, tuple(spelled)), expression
