"""Hygiene: what desugar needs to know about one function to write new code into it.

Expects the ``ast.FunctionDef`` desugar is given (with the module globals and closure
of the user's function, when known).  Guarantees:

- ``fresh(base)`` is a name no identifier of the function (nor of the functions defined
  inside it) is spelled as, and no earlier ``fresh`` returned: ``terms``, then
  ``terms_2``...; for ``i`` the next tried are ``j``, ``k`` and ``index``;
- ``meaning(func)`` is the object a call's function stands for wherever it is read in
  the function, or None when reading cannot tell: a name the function (or a function
  inside it) assigns, binds as a parameter or defines is None, unless an ``import`` in
  the body is all that binds it (then it is what that import binds, from a module
  already imported); any other name is looked up in the closure, the globals, the
  builtins, never run;
- ``error(node, message, hint)`` is a located ``UnsupportedSyntaxError``;
- nothing is read from the tree until a question needs it (a function with no
  container syntax asks none).

    >>> import ast, math
    >>> tree = ast.parse("def f(terms, i):\\n    from math import fsum\\n    return i").body[0]
    >>> scope = Hygiene(tree)
    >>> scope.fresh("terms"), scope.fresh("terms"), scope.fresh("i"), scope.fresh("x")
    ('terms_1', 'terms_2', 'j', 'x')
    >>> scope.meaning(ast.parse("fsum").body[0].value) is math.fsum
    True
    >>> scope.meaning(ast.parse("sum").body[0].value) is sum
    True
"""

import ast
import functools
import keyword
import sys
import types

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.index import NodeIndex
from symdiff.frontend.resolve import all_identifiers, lookup

_AFTER_I = ("j", "k", "index")


class Hygiene:
    def __init__(self, tree, globals_=None, closure=None, error=None, index=None):
        self.tree = tree
        self.globals = globals_ if globals_ is not None else {}
        self.closure = closure or {}
        self._error = error
        if index is not None:  # the tree's ``NodeIndex``, when at hand
            self.index = index

    @functools.cached_property
    def index(self):
        """The ``frontend.index.NodeIndex`` of the tree, walked once for every question."""
        return NodeIndex(self.tree)

    @functools.cached_property
    def taken(self):
        """Every identifier of the function, and every name ``fresh`` gave."""
        return set(all_identifiers(self.tree, self.index))

    @functools.cached_property
    def _bindings(self):
        """(names the function binds otherwise than by an import, name -> what an import
        in the body binds it to (None: unknown))."""
        bound, imported = set(), {}
        for node in self.index.nodes:  # (the order is not read)
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
            elif isinstance(node, ast.FunctionDef) and node is not self.tree:
                bound.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    name = alias.asname or alias.name.partition(".")[0]
                    found = _imported(node, alias)
                    if name in imported and imported[name] is not found:
                        found = None  # bound to two things
                    imported[name] = found
        return bound, imported

    @property
    def bound(self):
        return self._bindings[0]

    def fresh(self, base):
        """A new name, ``base`` when no identifier of the function is spelled so."""
        tried = (base,) + (_AFTER_I if base == "i" else ())
        for name in tried:
            if name not in self.taken and not keyword.iskeyword(name):
                self.taken.add(name)
                return name
        n = 1
        while f"{base}_{n}" in self.taken:
            n += 1
        self.taken.add(f"{base}_{n}")
        return f"{base}_{n}"

    def meaning(self, func):
        """The object ``func`` (a name or a dotted name) stands for, or None."""
        if isinstance(func, ast.Name):
            if func.id in self.bound:
                return None
            imported = self._bindings[1]
            if func.id in imported:
                return imported[func.id]
            try:
                return lookup(func.id, self.closure, self.globals)
            except KeyError:
                return None
        if isinstance(func, ast.Attribute):
            base = self.meaning(func.value)
            if isinstance(base, types.ModuleType):
                return getattr(base, func.attr, None)
        return None

    def shadows(self, name):
        """Whether the function binds ``name`` itself (so code written with it would not
        read the builtin)."""
        return name in self.bound or name in self._bindings[1]

    def error(self, node, message, hint):
        if self._error is not None:
            return self._error(UnsupportedSyntaxError, node, message, hint)
        return UnsupportedSyntaxError(message, lineno=getattr(node, "lineno", None),
                                      col_offset=getattr(node, "col_offset", None), hint=hint)


def _imported(node, alias):
    """What ``import``/``from ... import`` binds for ``alias``, from ``sys.modules`` only
    (nothing is imported here); None when unknown."""
    if isinstance(node, ast.Import):
        top = alias.name if alias.asname else alias.name.partition(".")[0]
        return sys.modules.get(top)
    if node.level:
        return None
    module = sys.modules.get(node.module)
    return getattr(module, alias.name, None) if module is not None else None


def located(new, where):
    """``new`` with the location (line, column, end) of the user's node ``where`` given
    to it and to every node inside it that has none; the nodes of the user's code it
    holds keep their own.  Returns ``new``."""
    for node in ast.walk(new):
        if "lineno" in node._attributes and getattr(node, "lineno", None) is None:
            for attribute in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                setattr(node, attribute, getattr(where, attribute, None))
    return new


def name(identifier, where, store=False):
    """A located ``Name`` node."""
    return located(ast.Name(identifier, ast.Store() if store else ast.Load()), where)
