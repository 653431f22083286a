"""Leaves: the numbers inside a container or object argument, each named by its path.

Expects a value: a number, or a tuple, list or dict of values, nested (a list of
``(w, b)`` pairs, a dict of lists), or an object read by its fields (a namedtuple, a
dataclass, a plain instance of a class of the user's: ``p.w``, ``state.v[1]``).
Guarantees the small helpers every part of ``check`` names containers with:

- ``is_container(value)``: a tuple, list or dict, or an object (``is_object``: a
  namedtuple, a dataclass instance, an instance of the user's own class); a numpy array
  or a string is a leaf;
- ``leaves(value)``: ``[(path, leaf)]`` depth first, positions in order, dict keys and an
  object's fields in their order; a path is a tuple of ints (positions), keys and
  ``Field``s (an object's field by name).  A number is one leaf with the empty path.
  Every leaf is reported, a bool or a str among them (``number_leaf`` tells a number from
  those);
- ``child(value, step)``: one step of a path: ``value[key]``, or the field of an object
  (the key of a dict, for the gradient of a plain instance, which is a dict);
- ``path_text(name, path)``: the path as Python would write the read, ``xs[2]``,
  ``p["w"]``, ``layers[1][0]``, ``p.w``: a position as ``[i]``, a string key in double
  quotes, a field as ``.name``, any other key by its ``repr``;
- ``rebuild(like, values)``: a structure shaped as ``like`` (same types, lengths, keys and
  key order; an object of the same class, its other attributes as they are) holding
  ``values``, given in the order of ``leaves(like)``.

    >>> leaves({"w": [1.0, 2], "b": 0.5})
    [(('w', 0), 1.0), (('w', 1), 2), (('b',), 0.5)]
    >>> path_text("p", ("w", 1))
    'p["w"][1]'
    >>> rebuild({"w": [1.0, 2], "b": 0.5}, [0.1, 0.2, 0.3])
    {'w': [0.1, 0.2], 'b': 0.3}
    >>> from collections import namedtuple
    >>> P = namedtuple("P", "w b")
    >>> [path_text("p", path) for path, _ in leaves(P([1.0, 2.0], 0.5))]
    ['p.w[0]', 'p.w[1]', 'p.b']

The witnesses (``symdiff.witnesses``) keep their own few lines of traversal: they import
nothing from here, so a mistake here cannot hide in them.
"""

import copy
import dataclasses
import numbers

from symdiff.core.records import is_data_object

_CONTAINERS = (tuple, list, dict)


class Field(str):
    """An object's field as a path step: ``p.w``, where a dict's key ``"w"`` is ``p["w"]``."""

    __slots__ = ()


def is_container(value):
    """Whether ``value`` is a tuple, list or dict (exactly those: a subclass of tuple is a
    namedtuple, an object), or an object read by its fields (``is_object``).

    >>> is_container((1.0, 2.0)), is_container({}), is_container(1.0), is_container("ab")
    (True, True, False, False)
    """
    return type(value) in _CONTAINERS or is_object(value)


def is_object(value):
    """Whether ``value`` is read by its fields: a namedtuple, a dataclass instance, or an
    instance of a class of the user's holding its attributes in ``__dict__``."""
    return type(value) not in _CONTAINERS and is_data_object(value)


def fields(value):
    """``[(name, value)]`` of an object's fields: a namedtuple's or a dataclass's in their
    order, a plain instance's attributes in ``vars`` order."""
    if isinstance(value, tuple):
        return list(zip(type(value)._fields, value))
    if dataclasses.is_dataclass(value):
        return [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
    return [(k, v) for k, v in vars(value).items() if not k.startswith("__")]


def _children(item):
    """``[(step, child)]`` of a container or an object."""
    if type(item) is dict:
        return list(item.items())
    if is_object(item):
        return [(Field(name), child) for name, child in fields(item)]
    return list(enumerate(item))


def child(value, step):
    """``value`` one step along a path: an object's field (a dict's key, where a plain
    instance's gradient is a dict of its number attributes), or ``value[step]``."""
    if isinstance(step, Field) and type(value) is not dict:
        return getattr(value, step)
    return value[step]


def number_leaf(leaf):
    """Whether a leaf is a number that can carry a derivative (a bool or a str cannot).

    >>> number_leaf(2), number_leaf(2.5), number_leaf(True), number_leaf("w")
    (True, True, False, False)
    """
    return isinstance(leaf, numbers.Real) and not isinstance(leaf, bool)


def leaves(value):
    """``[(path, leaf)]`` of ``value``, depth first.

    >>> leaves(3.0)
    [((), 3.0)]
    >>> leaves([(1.0, 2.0), (3.0,)])
    [((0, 0), 1.0), ((0, 1), 2.0), ((1, 0), 3.0)]
    >>> leaves([[], ()])
    []
    """
    found, stack = [], [((), value)]
    while stack:  # explicit stack: a deeply nested list is no recursion limit
        path, item = stack.pop()
        if not is_container(item):
            found.append((path, item))
            continue
        stack.extend(reversed([(path + (key,), value) for key, value in _children(item)]))
    return found


def path_text(name, path):
    """The path as the read Python would write: ``name`` then ``[i]`` or ``["k"]`` per step.

    >>> path_text("xs", (2,)), path_text("x", ())
    ('xs[2]', 'x')
    >>> print(path_text("p", ("b", 3)), path_text("d", ('say "hi"',)), path_text("d", (1.5,)))
    p["b"][3] d["say \\"hi\\""] d[1.5]
    >>> path_text("state", (Field("v"), 1))
    'state.v[1]'
    """
    return name + "".join(f".{key}" if isinstance(key, Field) else f"[{_key_text(key)}]"
                          for key in path)


def _key_text(key):
    """A string key in double quotes (escaped as ``repr`` escapes), anything else by repr."""
    if not isinstance(key, str):
        return repr(key)
    text = repr(key)
    if text[0] == "'":  # repr chose single quotes: swap them for double ones
        text = text[1:-1].replace("\\'", "'").replace('"', '\\"')
        return f'"{text}"'
    return text


def rebuild(like, values):
    """``values`` (in the order of ``leaves(like)``) in the structure of ``like``.

    >>> rebuild((1.0, [2.0, 3.0]), [4.0, 5.0, 6.0])
    (4.0, [5.0, 6.0])
    >>> rebuild(7, [8.0])
    8.0
    >>> rebuild([1.0, 2.0], [3.0])
    Traceback (most recent call last):
    ...
    ValueError: rebuild: 1 values for a structure of 2 leaves
    """
    values = list(values)
    count = len(leaves(like))
    if len(values) != count:
        raise ValueError(f"rebuild: {len(values)} values for a structure of {count} leaves")
    items = iter(values)

    def fill(shape):
        if type(shape) is dict:
            return {key: fill(child) for key, child in shape.items()}
        if type(shape) in (tuple, list):
            return type(shape)(fill(child) for child in shape)
        if is_object(shape):
            return with_fields(shape, {name: fill(field) for name, field in fields(shape)})
        return next(items)
    return fill(like)


def with_fields(value, changed):
    """An object of ``value``'s class whose fields ``changed`` names hold the values given,
    its others as they are: a namedtuple by ``_replace``, a dataclass by
    ``dataclasses.replace`` (a copy, the fields set, where a field is not an argument of
    its ``__init__``), a plain instance a copy, the attributes set.

    >>> from collections import namedtuple
    >>> with_fields(namedtuple("P", "w b")(1.0, 2.0), {"w": 3.0})
    P(w=3.0, b=2.0)
    """
    if isinstance(value, tuple):
        return value._replace(**changed)
    if dataclasses.is_dataclass(value) and all(
            f.init for f in dataclasses.fields(value) if f.name in changed):
        return dataclasses.replace(value, **changed)
    made = copy.copy(value)
    for name, field in changed.items():
        object.__setattr__(made, name, field)  # a frozen dataclass too
    return made
