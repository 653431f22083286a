"""The numbers of a parameter's structure, one by one, and structures built of them.

Used by ``higher_containers`` to lay out Jacobians and Hessians of parameters that are
tuples, lists, dicts (nested), namedtuples and dataclasses (their fields that hold
numbers or containers: a flag or a name is not differentiated), plain instances (their
number attributes, laid out as a dict, as their gradient is) or numbers, as JAX lays
out pytrees: each number of a
structure has a *path* (the keys and indices that reach it, ``()`` for a number), the
paths in the order ``grad``'s gradient lists them (a dict's keys in its order, a list's
positions in order).  Expects values built of numbers, tuples, lists and dicts;
guarantees:

- ``paths(value)``: the paths of its numbers;
- ``unit(value, path)``: a structure like ``value`` (the same containers: a tuple for a
  tuple), zeros but 1.0 at ``path``; ``zeros(value)``;
- ``like(value, f)``: a structure like ``value`` with ``f(path)`` at each number's place;
- ``at(value, path)``: the number at ``path``;
- ``plain(value)``: each object of ``value`` as the dict of its fields (what generated
  code reads a record's tangent as: ``dp['w']``);
- ``shaped_as(value, tangent)``: ``tangent`` (given as a list where ``value`` is a tuple,
  or the other way) in ``value``'s containers, or a ``TypeError`` naming the place where
  the two differ.

    >>> paths({"w": [1.0, 2.0], "b": 0.5})
    [('w', 0), ('w', 1), ('b',)]
    >>> unit((1.0, 2.0), (1,))
    (0.0, 1.0)
    >>> like({"w": 1.0, "b": 2.0}, lambda p: like({"w": 1.0, "b": 2.0}, lambda q: p + q))
    {'w': {'w': ('w', 'w'), 'b': ('w', 'b')}, 'b': {'w': ('b', 'w'), 'b': ('b', 'b')}}
"""

import dataclasses
import numbers
import types


def fields(value):
    """``{name: value}`` of the fields of a namedtuple or dataclass instance, or of the
    attributes of a plain instance (``is_plain``), that hold numbers or containers; None
    for any other value."""
    if is_structured(value):
        found = value._asdict() if isinstance(value, tuple) else {
            f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    elif is_plain(value):
        found = vars(value)
    else:
        return None
    return {k: v for k, v in found.items() if _holds_numbers(v)}


def is_structured(value):
    """Whether ``value`` is a namedtuple or dataclass instance: its structure is one of
    its class (``like`` builds one)."""
    return isinstance(value, tuple) and hasattr(type(value), "_fields") or (
        dataclasses.is_dataclass(value) and not isinstance(value, type))


def is_plain(value):
    """Whether ``value`` is an instance of a plain class written in Python: its
    structure is the dict of its number attributes, as its gradient is (its
    constructor need not take them)."""
    return type(value).__module__ not in ("builtins", "numpy") and not isinstance(
        value, (type, types.ModuleType, types.FunctionType, types.MethodType)) and (
        isinstance(getattr(value, "__dict__", None), dict)) and not callable(
        getattr(value, "__get__", None))


def _holds_numbers(value):
    if isinstance(value, bool):
        return False
    return isinstance(value, (numbers.Real, dict, list)) or (
        isinstance(value, tuple) or fields(value) is not None)


def plain(value):
    """``value`` with each namedtuple or dataclass as the dict of its number fields."""
    found = fields(value)
    if found is not None:
        return {k: plain(v) for k, v in found.items()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(plain(v) for v in value)
    return value


def paths(value, prefix=()):
    """The paths of the numbers of ``value``, in order."""
    found = fields(value)
    if found is not None:
        return [p for key, item in found.items() for p in paths(item, prefix + (key,))]
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in paths(item, prefix + (key,))]
    if isinstance(value, (tuple, list)):
        return [p for i, item in enumerate(value) for p in paths(item, prefix + (i,))]
    return [prefix]


def like(value, make, prefix=()):
    """A structure of ``value``'s containers with ``make(path)`` at each number's place
    (an object of its class, its other fields kept)."""
    found = fields(value)
    if found is not None:
        made = {key: like(item, make, prefix + (key,)) for key, item in found.items()}
        if not is_structured(value):
            return made
        return value._replace(**made) if isinstance(value, tuple) else dataclasses.replace(
            value, **made)
    if isinstance(value, dict):
        return {key: like(item, make, prefix + (key,)) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(like(item, make, prefix + (i,)) for i, item in enumerate(value))
    return make(prefix)


def unit(value, path):
    """Zeros of ``value``'s structure, 1.0 at ``path``."""
    return like(value, lambda p: 1.0 if p == path else 0.0)


def zeros(value):
    return like(value, lambda p: 0.0)


def at(value, path):
    """The number of ``value`` at ``path``."""
    for step in path:
        value = getattr(value, step) if fields(value) is not None else value[step]
    return value


def shaped_as(value, tangent, place="", name="the tangent"):
    """``tangent`` in ``value``'s containers (a tuple where ``value`` holds a tuple),
    checked to have its keys, lengths and numbers."""
    where = f" at {place}" if place else ""
    found = fields(value)
    if found is not None:  # the object's class, or a dict of its fields
        given = fields(tangent) if type(tangent) is type(value) else tangent
        if not isinstance(given, dict) or set(given) != set(found):
            raise TypeError(f"{name}{where} is not a {type(value).__name__} or a dict "
                            f"with the keys {list(found)}")
        return like(value, lambda path: float(at(shaped_as(
            found, given, place, name), path)))
    if isinstance(value, dict):
        if not isinstance(tangent, dict) or list(tangent) != list(value):
            raise TypeError(f"{name}{where} is not a dict with the keys {list(value)}")
        return {k: shaped_as(v, tangent[k], f"{place}[{k!r}]", name) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        if not isinstance(tangent, (tuple, list)) or len(tangent) != len(value):
            raise TypeError(f"{name}{where} is not a tuple or list of {len(value)} entries")
        return type(value)(shaped_as(v, d, f"{place}[{i}]", name)
                           for i, (v, d) in enumerate(zip(value, tangent)))
    if not isinstance(tangent, numbers.Real) or isinstance(tangent, bool):
        raise TypeError(f"{name}{where} is a {type(tangent).__name__}, where the "
                        "parameter holds a number")
    return float(tangent)
