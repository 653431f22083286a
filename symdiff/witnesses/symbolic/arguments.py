"""The sympy witness's arguments: a real symbol for each number it differentiates by.

Expects the positional parameters' names, their values at the point (or None: no point)
and the names whose containers get symbols.  Guarantees ``arguments(...)``: what the
interpreter passes for each parameter, the point as ``{Symbol: Float}``, and each
parameter's symbols in its structure:

- a number is the real symbol of the parameter's name (``x``);
- a tuple, list or dict among the named ones is the same structure with one real symbol
  per number, named from the parameter and the path to it: ``xs_2`` for ``xs[2]``,
  ``p_w`` for ``p["w"]``, ``layers_1_0`` for ``layers[1][0]`` (a name already taken gets a
  ``_`` more, so no two leaves share a symbol); a bool or str inside one is refused with a
  ``SymdiffError`` naming its path;
- anything else (a string flag, a table of data, a container not named) goes in as it is,
  a container as a copy (its symbol, which the expression does not hold, has derivative 0).

    arguments(("xs", "k"), ([1.0, 2.0], 3.0), {"xs"})
      -> [[xs_0, xs_1], k], {xs_0: 1.0, xs_1: 2.0, k: 3.0}, {"xs": [xs_0, xs_1], "k": k}

The traversal is this module's own: the witness imports nothing of symdiff's leaf helpers.
"""

import numbers
import re

import sympy

from symdiff.errors import SymdiffError


def arguments(names, values, containers):
    """(arguments, point or None, {name: symbols in the parameter's structure})."""
    taken = set(names)
    passed, point, symbols = [], ({} if values is not None else None), {}
    for name, value in zip(names, values if values is not None else [None] * len(names)):
        if values is None or _number(value):
            symbol = sympy.Symbol(name, real=True)
            if values is not None:
                point[symbol] = sympy.Float(float(value))
            passed.append(symbol)
            symbols[name] = symbol
        elif type(value) in (tuple, list, dict) and name in containers:
            structure = _symbols(name, (), value, taken, point)
            passed.append(_copy(structure))  # the function may change what it is passed:
            symbols[name] = structure  # the symbols stay those of the caller's values
        else:  # a string flag or a table goes in as it is (its derivative is 0); a
            # container copied, so what the function assigns into it stays in the witness
            passed.append(_copy(value))
            symbols[name] = sympy.Symbol(name, real=True)
    return passed, point, symbols


def _number(value):
    return isinstance(value, numbers.Real)


def _symbols(name, path, value, taken, point):
    """``value`` with a fresh real symbol for each number (its value noted in ``point``)."""
    if type(value) is dict:
        return {key: _symbols(name, path + (key,), item, taken, point)
                for key, item in value.items()}
    if type(value) in (tuple, list):
        return type(value)(_symbols(name, path + (i,), item, taken, point)
                           for i, item in enumerate(value))
    if not _number(value) or isinstance(value, bool):
        where = name + "".join(f'["{key}"]' if isinstance(key, str) else f"[{key!r}]"
                               for key in path)
        raise SymdiffError(f"cannot differentiate by {name!r}: {where} is a "
                           f"{type(value).__name__}, not a number",
                           hint="a bool or a str carries no derivative; leave the parameter "
                                "out of wrt= (name the others)")
    text = "_".join([name] + [_part(key) for key in path])
    while text in taken:
        text += "_"
    taken.add(text)
    symbol = sympy.Symbol(text, real=True)
    point[symbol] = sympy.Float(float(value))
    return symbol


def _copy(value):
    """``value`` with every tuple, list and dict in it new (the numbers shared)."""
    if type(value) is dict:
        return {key: _copy(item) for key, item in value.items()}
    if type(value) in (tuple, list):
        return type(value)(_copy(item) for item in value)
    return value


def _part(key):
    """A path step in a symbol's name: a position as digits, a key as its word characters."""
    if isinstance(key, int):
        return str(key)
    return re.sub(r"\W", "_", key if isinstance(key, str) else repr(key)) or "_"


def structure_map(function, structure):
    """``function`` of each symbol of ``structure`` (as ``arguments`` built it), in it."""
    if type(structure) is dict:
        return {key: structure_map(function, item) for key, item in structure.items()}
    if type(structure) in (tuple, list):
        return type(structure)(structure_map(function, item) for item in structure)
    return function(structure)
