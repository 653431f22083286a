"""Effects: which calls of a generated function symdiff can prove pure.

Expects a call in generated code as an IR expression (``core.expr.Call``) and the names the generated module
binds (``Calls.of(generated)``).  Guarantees that a call it calls pure computes its value
from its arguments alone and changes nothing: a function of ``math`` (under the name
generated code calls ``math`` by), one of numpy's elementwise functions of the registry
(under the user's alias), or a builtin of ``PURE_BUILTINS`` (those the registry's texts call,
and ``len``, ``range``, ``reversed``) no name of the module shadows, or numpy's reductions
and products of arrays (``NUMPY_PURE``), those of a dotted name (``DOTTED_PURE``:
``numpy.linalg``'s, ``np.add.outer``) and its
views of one (``NUMPY_VIEWS``); a call making a new array (``np.zeros_like``) may
be moved but never merged with another (each is a buffer of its own).  Every other call may have effects: a list's ``append`` or ``pop`` (the user's
stack, its adjoint stack, the generated ``push`` and ``pop``), a function with its own
derivative rule, ``record``.  The optimizer never merges two such calls into one, never
duplicates, drops or reorders them.

    math.cos(x)       pure: reused where the forward sweep computed it
    s.pop()           has effects: two of them are two values
"""

import math
from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.primitives.registry import array_names, builtins_called, names

PURE_BUILTINS = frozenset(builtins_called()) | {"len", "range", "reversed"}
# numpy's functions that may give a view of an array (another name then holds its memory;
# ``np.einsum("ii->i", a)`` is one)
NUMPY_VIEWS = frozenset(("expand_dims", "transpose", "reshape", "squeeze", "ravel", "einsum"))
# numpy's functions that make a new array of a shape: pure, but each its own buffer (one
# the gradient may write into), so two such calls are never merged into one
NUMPY_ALLOCATING = frozenset(("zeros_like", "ones_like", "full_like", "empty_like", "zeros",
                              "ones", "full"))
# numpy's array functions of the registry that make a new array of their arguments'
# values (a join, a copy, a range) rather than compute a value from them
_MADE = frozenset(("array", "asarray", "copy", "concatenate", "stack", "hstack", "vstack",
                   "arange", "eye", "linspace"))
# numpy's functions that compute a new value from arrays and change none: the registry's
# array functions (reductions, products, ``where``) but those that make or view arrays
NUMPY_PURE = frozenset(name for name in array_names()["functions"] if "." not in name) - (
    NUMPY_ALLOCATING | NUMPY_VIEWS | _MADE)
# numpy's functions of the registry named by a dotted path: ``numpy.linalg``'s
# (``np.linalg.eigh(a)``) and the ufuncs' methods (``np.subtract.outer(a, b)``): each
# computes new arrays from its arguments and changes nothing
DOTTED_PURE = frozenset(name for name in array_names()["functions"] if "." in name)


@dataclass(frozen=True)
class Calls:
    math_name: str = "math"
    numpy_names: frozenset = frozenset()  # the names numpy goes by in the generated module
    builtins: frozenset = PURE_BUILTINS  # the names the pure builtins go by

    @classmethod
    def of(cls, generated):
        """The pure functions of one generated function's module."""
        import sys
        numpy = sys.modules.get("numpy")
        namespace = generated.namespace
        numpy_names = frozenset(name for name, value in namespace.items()
                                if numpy is not None and value is numpy)
        builtins = {name for name in PURE_BUILTINS if name not in namespace}
        builtins |= {alias for alias, builtin in generated.builtins.items()
                     if builtin in PURE_BUILTINS}
        return cls(generated.math_name, numpy_names, frozenset(builtins))

    def is_pure(self, call, allocating=False):
        """Whether the call ``call`` (an ``core.expr.Call``) certainly has no effect
        (``allocating``: a call making a new array of a shape counts as one: it may be
        moved, never merged with another)."""
        func = call.func
        if call.keywords and not self._is_module_function(func, allocating):
            return False
        if isinstance(func, ex.Name):
            return func.id in self.builtins
        return self._is_module_function(func, allocating)

    def _is_module_function(self, func, allocating=False):
        if isinstance(func, ex.Attribute) and isinstance(func.value, ex.Attribute) and (
                isinstance(func.value.value, ex.Name)):  # ``np.linalg.det``, ``np.add.outer``
            return func.value.value.id in self.numpy_names and (
                f"{func.value.attr}.{func.attr}" in DOTTED_PURE)
        if not (isinstance(func, ex.Attribute) and isinstance(func.value, ex.Name)):
            return False
        module = func.value.id
        if module == self.math_name:
            return callable(getattr(math, func.attr, None))
        return module in self.numpy_names and (
            func.attr in names("numpy") or func.attr in NUMPY_PURE or func.attr in NUMPY_VIEWS or (
                allocating and func.attr in NUMPY_ALLOCATING))
