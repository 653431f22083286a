"""Object fields: ``system.mass`` of an object defined at module level (or in a
closure), read as the data it holds when the gradient is built.

Expects a ``Frame``, an attribute node and the object its base denotes (a namedtuple, a
dataclass or a plain instance: ``core.records.is_data_object``) with the name generated
code reads it by.  Guarantees ``field_of``: the ``Meaning`` of the field, named for
generated code after the object and the field (``system_mass``), with each read of an
instance's ``__dict__`` recorded in ``Unit.reads``, so the gradient is built again when
the field is assigned another value:

    system.mass      ->  Meaning("constant", 2.0, "system_mass")
    system.mode      ->  Meaning("flag", "fast")          (a str, a bool, None)
    system.W         ->  Meaning("array", W, "system_W")  (in a function with arrays)
    system.coeffs    ->  Meaning("table", [1.0, 2.0], "system_coeffs")
    system.layer     ->  Meaning("object", layer, "system_layer")
    system.act       ->  Meaning("function", act)         (a function the field holds)

A property, a class method, a field the object has not and a field holding anything
else are located ``UnsupportedSyntaxError``s with a hint.
"""

import ast
import dataclasses
import inspect

from symdiff.core import types as t
from symdiff.core.records import ClassField, is_data_object, is_instance_record
from symdiff.core.records import watched_values
from symdiff.core.types import table_values
from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.resolve import Meaning, classify

_FLAGS = (str, bool, type(None))
_MISSING = object()


def field_of(frame, node, obj, name):
    """The ``Meaning`` of ``node`` (``<name>.<attr>``, ``obj`` what ``name`` denotes):
    see the module."""
    attr, shown = node.attr, ast.unparse(node)
    value = _value(frame, node, obj, attr, shown)
    named = f"{name}_{attr}"
    if isinstance(value, _FLAGS):
        return Meaning("flag", value)
    if is_data_object(value):
        return Meaning("object", value, named)
    if frame.unit.array_code and t.array_type(value) is not None:
        return Meaning("array", value, named)
    meant = classify(value)
    if meant.kind in ("constant", "table"):
        return Meaning(meant.kind, meant.value, named)
    if meant.kind in ("function", "primitive", "custom"):
        return meant
    raise frame.error(UnsupportedSyntaxError, node, f"{shown}: the field {attr} of {name} "
                      f"holds {_described(value)}, which symdiff does not read as data",
                      "keep numbers, flags (a str, a bool, None), NumPy arrays, lists of "
                      "numbers or other such objects in its fields, or pass the value to "
                      "the function as an argument")


def _value(frame, node, obj, attr, shown):
    """The value of ``obj.<attr>``, the read recorded (see the module), or a located
    error for a property, a class method, a method read as a value, a missing field."""
    own = vars(obj) if hasattr(obj, "__dict__") else {}
    if attr in own:
        value = own[attr]
        frame.unit.reads.append((own, attr, value, _contents(value)))
        return value
    if is_instance_record(obj) and attr in _record_fields(obj):  # (a namedtuple's, a
        return getattr(obj, attr)  # dataclass's with ``slots=True``)
    static = inspect.getattr_static(type(obj), attr, _MISSING)
    if static is _MISSING:
        raise frame.error(UnsupportedSyntaxError, node, f"{shown}: {type(obj).__name__} "
                          f"has no field {attr} when the gradient is built",
                          "set the field before the gradient is first used")
    if isinstance(static, staticmethod):
        return static.__func__
    if isinstance(static, (property, classmethod)) or inspect.isfunction(static) or hasattr(
            type(static), "__get__"):
        what = ("a property" if isinstance(static, property) else "a class method"
                if isinstance(static, classmethod) else "a method" if inspect.isfunction(
                    static) else "computed when it is read")
        hint = ("call it: " + shown + "(...)" if inspect.isfunction(static) else
                "write it as a method called with () or keep the value in a field of "
                "the object")
        raise frame.error(UnsupportedSyntaxError, node, f"{shown}: {attr} of "
                          f"{type(obj).__name__} is {what}, not a field read as data", hint)
    if isinstance(own, dict):
        frame.unit.reads.append((own, attr, None, None))  # (a field would hide it)
    holder = next((c for c in type(obj).__mro__ if attr in vars(c)), None)
    if holder is not None:  # the class's own value, assigned again or not
        watched = ClassField(holder, attr)
        frame.unit.reads.append(({attr: watched}, attr, watched, watched_values(watched)))
    return static


def _record_fields(obj):
    fields = getattr(type(obj), "_fields", None)
    return fields if fields is not None else [f.name for f in dataclasses.fields(obj)]


def _contents(value):
    """What a build compares to know a list field still holds the same numbers."""
    return table_values(value) if isinstance(value, list) else None


def _described(value):
    kind = type(value).__name__
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"
