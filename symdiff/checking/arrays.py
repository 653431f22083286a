"""Arrays: the elements of NumPy array arguments, named and sampled for ``check``'s rows.

Expects a point's arguments, each a number, a NumPy array, or a tuple, list or dict
holding them (``symdiff.checking.leaves`` gives the containers' leaves; an array is one
of its leaves).  Guarantees:

- ``is_float_array(value)``: a NumPy array of float32 or float64 (an integer or boolean
  array is data, never differentiated);
- ``At``: the index of one element as a path step, a tuple that indexes the array and
  prints as Python writes the read: ``path_text("W", (At((1, 2)),))`` is ``W[1, 2]``,
  ``params["W1"][0, 3]`` inside a dict;
- ``expand(value, path)``: the paths of the numbers at ``path`` of an argument, an array
  giving one path per element (in C order), anything else its own path;
- ``sampled(places, limit, seed)``: all the places when their array elements number at
  most ``limit``; else every number that is not an array's element and a seeded random
  sample of ``limit`` elements, in their order, with a sentence saying so.

    >>> import numpy as np
    >>> from symdiff.checking.leaves import path_text
    >>> [path_text("W", path) for path in expand(np.zeros((2, 2)), ())]
    ['W[0, 0]', 'W[0, 1]', 'W[1, 0]', 'W[1, 1]']
    >>> path_text("params", ("W1", At((0, 3))))
    'params["W1"][0, 3]'
"""

import importlib
import sys

ELEMENT_LIMIT = 200  # array elements compared one by one per point, in all


class At(tuple):
    """The index of one array element, a path step printed as ``1, 2`` (``W[1, 2]``)."""

    def __repr__(self):
        if not self:
            return "()"
        return ", ".join(str(i) for i in self)


def numpy():
    """NumPy, imported where an array is met: symdiff itself runs without it."""
    return importlib.import_module("numpy")


def is_float_array(value):
    """Whether ``value`` is a NumPy array of float32 or float64.

    >>> is_float_array(np.ones(2)), is_float_array(np.ones(2, int)), is_float_array(1.0)
    (True, False, False)
    """
    np = sys.modules.get("numpy")  # (no array where NumPy is not imported)
    return np is not None and isinstance(value, np.ndarray) and value.dtype in (
        np.float32, np.float64)


def expand(value, path):
    """The paths of the numbers of ``value`` found at ``path``: an array's elements."""
    if not is_float_array(value):
        return [path]
    return [path + (At(index),) for index in numpy().ndindex(value.shape)]


def is_element(path):
    """Whether a path ends at an array's element."""
    return bool(path) and isinstance(path[-1], At)


def sampled(places, limit=ELEMENT_LIMIT, seed=0):
    """``(places kept, a sentence or None)``; a place is ``(name, index, path)``."""
    elements = [i for i, (_, _, path) in enumerate(places) if is_element(path)]
    if len(elements) <= limit:
        return places, None
    chosen = set(numpy().random.default_rng(seed).choice(elements, size=limit, replace=False))
    kept = [p for i, p in enumerate(places) if i in chosen or not is_element(p[2])]
    return kept, (f"{limit} of the {len(elements)} array elements compared one by one "
                  "(a random sample); the random directions move every element")
