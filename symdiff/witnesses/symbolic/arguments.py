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
- a NumPy array of floats among the named ones (alone or inside a container) is an array
  of the same shape with one real symbol per element, named by its index: ``W_1_2`` for
  ``W[1, 2]``, ``p_b_0`` for ``p["b"][0]``; its symbols are an ``ArraySymbols``, whose
  derivatives come back as an array of the parameter's shape and dtype;
- a namedtuple, a dataclass or a plain instance among the named ones is a copy of it
  with one real symbol per number of its fields, named as a dict's (``p_w``), its other
  fields as they were; its gradient a namedtuple or dataclass of its class, a plain
  instance's a dict of its number attributes;
- anything else (a string flag, a table of data, a container not named) goes in as it is,
  a container as a copy (its symbol, which the expression does not hold, has derivative 0).

    arguments(("xs", "k"), ([1.0, 2.0], 3.0), {"xs"})
      -> [[xs_0, xs_1], k], {xs_0: 1.0, xs_1: 2.0, k: 3.0}, {"xs": [xs_0, xs_1], "k": k}

The traversal is this module's own: the witness imports nothing of symdiff's leaf helpers.
"""

import copy
import inspect
import numbers
import re
import sys

import sympy

from symdiff.errors import SymdiffError


def arguments(names, values, containers):
    """(arguments, point or None, {name: symbols in the parameter's structure})."""
    taken = set(names)
    given, point, symbols = [], ({} if values is not None else None), {}
    for name, value in zip(names, values if values is not None else [None] * len(names)):
        if values is None or _number(value):
            symbol = sympy.Symbol(name, real=True)
            if values is not None:
                point[symbol] = sympy.Float(float(value))
            given.append(symbol)
            symbols[name] = symbol
        elif (type(value) in (tuple, list, dict) or _float_array(value)
              or _fields(value) is not None) and name in containers:
            structure = _symbols(name, (), value, taken, point)
            given.append(passed(structure))
            symbols[name] = structure
        else:  # a string flag or a table goes in as it is (its derivative is 0); a
            # container copied, so what the function assigns into it stays in the witness
            given.append(_copy(value))
            symbols[name] = sympy.Symbol(name, real=True)
    return given, point, symbols


class _Object:
    """An object's symbols: ``value``, a copy of it (made without its class) whose number
    fields, and the numbers of its container fields, are symbols, named as a dict's
    (``p_w``); ``fields`` those fields' structures; the other fields (a string, a flag, a
    function) are as they were."""

    def __init__(self, name, path, obj, taken, point):
        self.obj, self.fields = obj, {}
        for field, item in _fields(obj):
            names, values = set(taken), dict(point)  # kept only if every leaf is a number
            try:
                self.fields[field] = _symbols(name, path + (field,), item, names, values)
            except SymdiffError:  # no number: static
                continue
            taken |= names
            point.update(values)
        self.value = _rebuilt(obj, {k: passed(v) for k, v in self.fields.items()})

    def gradient(self, grads):
        """``grads`` (field -> its derivatives) in the object's structure: a namedtuple
        or a dataclass of its class, its other fields as they were; a plain instance's
        as a dict (its class need not be built from its attributes)."""
        if isinstance(self.obj, tuple) or hasattr(self.obj, "__dataclass_fields__"):
            return _rebuilt(self.obj, grads)
        return dict(grads)


def _fields(value):
    """``[(name, value)]`` of a namedtuple's, a dataclass's or a plain instance's fields;
    None for anything else."""
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return list(zip(type(value)._fields, value))
    if hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
        return [(name, getattr(value, name)) for name in value.__dataclass_fields__]
    if type(value).__module__ not in ("builtins", "numpy", "functools") and isinstance(
            getattr(value, "__dict__", None), dict) and not inspect.isroutine(value) and not (
            isinstance(value, type)):  # an instance with __call__ too (spring by self)
        return [(k, v) for k, v in vars(value).items() if not k.startswith("__")]
    return None


def _rebuilt(obj, changed):
    if isinstance(obj, tuple):
        return obj._replace(**changed)
    made = copy.copy(obj)
    for name, value in changed.items():
        object.__setattr__(made, name, value)
    return made


def _number(value):
    return isinstance(value, numbers.Real)


def _float_array(value):
    numpy = sys.modules.get("numpy")  # imported already if an argument is an array
    return numpy is not None and isinstance(value, numpy.ndarray) and value.dtype.kind == "f"


class ArraySymbols:
    """The symbols of an array parameter: ``symbols`` (an object array of its shape, what
    the interpreter is passed) and the parameter's ``dtype``, which its gradient keeps."""

    def __init__(self, symbols, dtype):
        self.symbols, self.dtype = symbols, dtype

    def map(self, function):
        """``function`` of each symbol, in the array's shape (its dtype where numbers)."""
        numpy = sys.modules["numpy"]
        found = numpy.empty(self.symbols.shape, dtype=object)
        for index, symbol in numpy.ndenumerate(self.symbols):
            found[index] = function(symbol)
        numbers_only = all(isinstance(item, float) for item in found.flat)
        return found.astype(self.dtype) if numbers_only else found


def _array_symbols(name, path, value, taken, point):
    """An object array of ``value``'s shape, a real symbol per element (``W_1_2``)."""
    numpy = sys.modules["numpy"]
    symbols = numpy.empty(value.shape, dtype=object)
    for index in numpy.ndindex(value.shape):
        symbols[index] = _symbols(name, path + index, value[index], taken, point)
    return ArraySymbols(symbols, value.dtype)


def _symbols(name, path, value, taken, point):
    """``value`` with a fresh real symbol for each number (its value noted in ``point``)."""
    if _float_array(value):
        return _array_symbols(name, path, value, taken, point)
    if type(value) is dict:
        return {key: _symbols(name, path + (key,), item, taken, point)
                for key, item in value.items()}
    if type(value) in (tuple, list):
        return type(value)(_symbols(name, path + (i,), item, taken, point)
                           for i, item in enumerate(value))
    if _fields(value) is not None:
        return _Object(name, path, value, taken, point)
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


def passed(structure):
    """What the interpreter is given for a parameter's symbols: an ``ArraySymbols`` as
    its array of symbols, an ``_Object`` as its copy holding them."""
    if isinstance(structure, ArraySymbols):  # a copy: the function may write into it
        return structure.symbols.copy()
    if isinstance(structure, _Object):
        return structure.value
    if type(structure) is dict:
        return {key: passed(item) for key, item in structure.items()}
    if type(structure) in (tuple, list):
        return type(structure)(passed(item) for item in structure)
    return structure


def structure_map(function, structure):
    """``function`` of each symbol of ``structure`` (as ``arguments`` built it), in it."""
    if isinstance(structure, ArraySymbols):
        return structure.map(function)
    if isinstance(structure, _Object):
        return structure.gradient({k: structure_map(function, v)
                                   for k, v in structure.fields.items()})
    if type(structure) is dict:
        return {key: structure_map(function, item) for key, item in structure.items()}
    if type(structure) in (tuple, list):
        return type(structure)(structure_map(function, item) for item in structure)
    return function(structure)
