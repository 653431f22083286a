"""Leaf rows: one row of ``check``'s report per number a differentiated parameter holds.

Expects a point, the differentiated parameters (names and indices) and the four
witnesses' gradients at it: one entry per parameter, a float for a number parameter and
the parameter's structure of floats for a tuple, list or dict (or a ``Raised`` where a
witness raised, None where sympy was not used).  Guarantees:

- ``places(point, names, indices)``: ``(name, index, path)`` per number, in order, a
  number parameter with the empty path, an array's element with its index as the last
  step (``symdiff.checking.arrays``);
- ``pick(gradient, path)``: the number at ``path`` of one parameter's gradient (a
  ``Raised`` or None as it is);
- ``structure_problem(gradient, like)``: what is wrong with a gradient's structure
  against the parameter's own (a list where a tuple is, a missing key, a length, an
  array's shape or dtype), or None: a gradient must have exactly its parameter's
  structure;
- ``finite_differences(fn, point, places)``: the central difference by each number;
- ``cells(...)``: per place, its row's text (``xs[2]``, ``p["w"]``) and the four values,
  the generated one nan where its gradient's structure is wrong, with that problem.

    places(([1.0, 2.0], 3.0), ["xs", "y"], [0, 1])
      -> [("xs", 0, (0,)), ("xs", 0, (1,)), ("y", 1, ())]
"""

import math
from dataclasses import dataclass

from symdiff.checking.arrays import expand, is_float_array
from symdiff.checking.leaves import (Field, child, fields, is_container, is_object, leaves,
                                     number_leaf, path_text)
from symdiff.checking.report import NotAvailable, Raised
from symdiff.checking.statuses import finite_difference


def places(point, names, indices):
    """``(name, index, path)`` for each number of the parameters differentiated."""
    found = []
    for name, index in zip(names, indices):
        value = point[index]
        pairs = leaves(value) if is_container(value) else [((), value)]
        found += [(name, index, path) for at, leaf in pairs if at == () or _carries(leaf)
                  for path in expand(leaf, at)]
    return found


def _carries(leaf):
    """Whether a leaf inside a container or an object can carry a derivative: a number or
    an array (an object's static fields, a string or a flag, are not rows)."""
    return number_leaf(leaf) or hasattr(leaf, "dtype")


def pick(gradient, path):
    """The number at ``path`` of one parameter's gradient (a Raised or None as it is)."""
    if gradient is None or isinstance(gradient, (Raised, NotAvailable)):
        return gradient
    for key in path:
        gradient = child(gradient, key)
    return float(gradient) if hasattr(gradient, "dtype") else gradient  # an element


def structure_problem(gradient, like, name):
    """What differs between a gradient's structure and its parameter's, or None."""
    if isinstance(gradient, Raised) or gradient is None:
        return None
    stack = [((), gradient, like)]
    while stack:
        path, got, want = stack.pop()
        where = path_text(name, path)
        if is_float_array(want):
            problem = _array_problem(got, want, where)
            if problem:
                return problem
            continue
        if not is_container(want):
            if is_container(got) or isinstance(got, bool) or not isinstance(
                    got, (int, float)):
                return f"the gradient by {where} is a {type(got).__name__}, not a number"
            continue
        if is_object(want):
            problem, steps = _object_problem(got, want, where)
            if problem:
                return problem
            stack += [(path + (step,), child(got, step), value) for step, value in steps]
            continue
        if type(got) is not type(want):
            return (f"the gradient by {where} is a {type(got).__name__}, "
                    f"where {where} is a {type(want).__name__}")
        if type(want) is dict:
            if list(got) != list(want):
                return f"the gradient by {where} has the keys {list(got)}, not {list(want)}"
            stack += [(path + (key,), got[key], want[key]) for key in reversed(list(want))]
        else:
            if len(got) != len(want):
                return f"the gradient by {where} has {len(got)} items, not {len(want)}"
            stack += [(path + (i,), got[i], want[i]) for i in reversed(range(len(want)))]
    return None


def _object_problem(got, want, where):
    """``(what differs, None)`` between an object's gradient and the object, or ``(None,
    [(step, field)])`` of the fields to compare: a namedtuple's or a dataclass's gradient
    is of its class, a plain instance's a dict holding each attribute that holds numbers."""
    carrying = [(Field(name), value) for name, value in fields(want) if any(
        _carries(leaf) for _, leaf in (leaves(value) if is_container(value) else
                                       [((), value)]))]
    plain = not isinstance(want, tuple) and not hasattr(type(want), "__dataclass_fields__")
    expected = dict if plain else type(want)
    if type(got) is not expected:
        return (f"the gradient by {where} is a {type(got).__name__}, not a "
                f"{expected.__name__}", None)
    missing = [step for step, _ in carrying if (step not in got if plain else not hasattr(
        got, step))]
    if missing:
        return f"the gradient by {where} has no {', '.join(missing)}", None
    return None, list(reversed(carrying))


def _array_problem(got, want, where):
    """What differs between an array parameter's gradient and the array, or None."""
    if not is_float_array(got):
        return f"the gradient by {where} is a {type(got).__name__}, not an array of floats"
    if got.shape != want.shape:
        return f"the gradient by {where} has the shape {got.shape}, not {want.shape}"
    if got.dtype != want.dtype:
        return f"the gradient by {where} is of {got.dtype}, not {want.dtype}"
    return None


def finite_differences(fn, point, where):
    """``(estimate, steadiness)`` by each place (``places``) of ``point``."""
    return [finite_difference(fn, point, (index, *path) if path else index)
            for _, index, path in where]


@dataclass
class Cells:
    """One place's row before its status: what it is called and what each witness says."""

    label: str
    generated: object
    tape: object
    sympy: object
    finite: tuple  # (estimate, steadiness)
    problem: str = None  # the generated gradient's structure is wrong


def cells(point, names, indices, gen, tap, sym, fds, where=None):
    """The ``Cells`` of each place (``where``, by default all of them), in order; ``gen``,
    ``tap`` and ``sym`` hold one gradient per parameter differentiated, ``fds`` one
    estimate per place."""
    where = places(point, names, indices) if where is None else where
    wrong = {name: structure_problem(g, point[index], name)
             for name, index, g in zip(names, indices, gen)}
    found = []
    for (name, index, path), fd in zip(where, fds):
        i = names.index(name)
        problem = wrong[name]
        generated = math.nan if problem else pick(gen[i], path)
        found.append(Cells(path_text(name, path), generated, pick(tap[i], path),
                           pick(sym[i], path), fd, problem))
    return found
