"""Leaves: the numbers inside a container argument, each named by its path.

Expects a value: a number, or a tuple, list or dict of values, nested (a list of
``(w, b)`` pairs, a dict of lists).  Guarantees four small helpers every part of symdiff
names containers with:

- ``is_container(value)``: a tuple, list or dict (exactly those; a numpy array or a string
  is a leaf);
- ``leaves(value)``: ``[(path, leaf)]`` depth first, positions in order and dict keys in
  their order; a path is a tuple of ints (positions) and keys.  A number is one leaf with
  the empty path.  Every leaf is reported, a bool or a str among them (``number_leaf``
  tells a number from those);
- ``path_text(name, path)``: the path as Python would write the read, ``xs[2]``,
  ``p["w"]``, ``layers[1][0]``: a position as ``[i]``, a string key in double quotes, any
  other key by its ``repr``;
- ``rebuild(like, values)``: a structure shaped as ``like`` (same types, lengths, keys and
  key order) holding ``values``, given in the order of ``leaves(like)``.

    >>> leaves({"w": [1.0, 2], "b": 0.5})
    [(('w', 0), 1.0), (('w', 1), 2), (('b',), 0.5)]
    >>> path_text("p", ("w", 1))
    'p["w"][1]'
    >>> rebuild({"w": [1.0, 2], "b": 0.5}, [0.1, 0.2, 0.3])
    {'w': [0.1, 0.2], 'b': 0.3}

The witnesses (``symdiff.witnesses``) keep their own few lines of traversal: they import
nothing from here, so a mistake here cannot hide in them.
"""

import numbers

_CONTAINERS = (tuple, list, dict)


def is_container(value):
    """Whether ``value`` is a tuple, list or dict (a subclass such as a named tuple is not).

    >>> is_container((1.0, 2.0)), is_container({}), is_container(1.0), is_container("ab")
    (True, True, False, False)
    """
    return type(value) in _CONTAINERS


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
        pairs = item.items() if type(item) is dict else enumerate(item)
        stack.extend(reversed([(path + (key,), child) for key, child in pairs]))
    return found


def path_text(name, path):
    """The path as the read Python would write: ``name`` then ``[i]`` or ``["k"]`` per step.

    >>> path_text("xs", (2,)), path_text("x", ())
    ('xs[2]', 'x')
    >>> print(path_text("p", ("b", 3)), path_text("d", ('say "hi"',)), path_text("d", (1.5,)))
    p["b"][3] d["say \\"hi\\""] d[1.5]
    """
    return name + "".join(f"[{_key_text(key)}]" for key in path)


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
        return next(items)
    return fill(like)
