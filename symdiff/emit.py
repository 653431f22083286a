"""Emit: the generated syntax tree -> module text.  The only module that imports astor.

Expects a ``Generated`` from ``differentiate`` (possibly optimized).  Guarantees
text that parses back to the same tree, with comment lines where ``differentiate``
left comment markers:

    __symdiff_comment__('line 3: z = x * y')    ──emit──►    # line 3: z = x * y

The text stands on its own: above the function it binds every name the function
reads from outside, as the user's module had it: ``import math`` (or ``numpy as np``),
``SCALE = 2.5`` for a module constant, ``from model import square`` for a function a
custom rule calls.  Saved to a file, it runs without symdiff.
"""

import ast
import math
import numbers
import re
import sys
import types

import astor

from .special import definition
from .syntax import COMMENT

_MARKER = re.compile(r"^(\s*)" + COMMENT + r"\((.*)\)$")


def emit(generated):
    """The module text defining the generated function."""
    function = generated.function
    markers, comments = _number_comments(function)
    aliases = {b: alias for alias, b in generated.builtins.items()}
    helpers = [definition(key, name, generated.math_name, aliases)
               for key, name in getattr(generated, "helpers", {}).items()]
    module = ast.Module(body=helpers + [function], type_ignores=[])
    uses_math = any(isinstance(n, ast.Name) and n.id == generated.math_name
                    for n in ast.walk(module))
    try:
        text = astor.to_source(module, indent_with="    ")
    finally:
        for marker, text_arg in zip(markers, comments):  # leave the input as it was
            marker.args = [ast.Constant(text_arg)]
    lines = [_comment_line(line, comments) for line in text.splitlines()]
    header = []
    if uses_math:
        alias = "" if generated.math_name == "math" else f" as {generated.math_name}"
        header.append(f"import math{alias}")
    for alias, builtin in generated.builtins.items():
        header.append(f"from builtins import {builtin} as {alias}")
    imports, constants = _outside_names(function, generated.namespace, generated.math_name)
    header += imports
    if constants:
        header += [""] * bool(header) + constants
    if header:
        header += ["", ""]
    return "\n".join(header + lines) + "\n"


def _outside_names(function, namespace, math_name):
    """The lines binding the names ``function`` reads from ``namespace``: (imports,
    constants), each in the order the names were first used."""
    read = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
    imports, constants = [], []
    for name, value in namespace.items():
        if name not in read or name == math_name:
            continue
        if isinstance(value, types.ModuleType):
            alias = "" if name == value.__name__ else f" as {name}"
            imports.append(f"import {value.__name__}{alias}")
        elif isinstance(value, (numbers.Number, tuple, list)):
            constants.append(f"{name} = {_literal(value)}")
        elif hasattr(value, "tolist") and getattr(value, "ndim", None) == 1:
            constants.append(f"{name} = {_literal(tuple(value.tolist()))}")  # a numpy table
        else:
            line = _from_import(name, value)
            if line is not None:
                imports.append(line)
    return imports, constants


def _literal(value):
    """Python text for a number, or a tuple or list of numbers, exact: ``float('inf')`` and
    ``float('nan')`` included."""
    if isinstance(value, (tuple, list)):
        items = ", ".join(_literal(item) for item in value)
        return f"({items},)" if isinstance(value, tuple) and len(value) == 1 else (
            f"({items})" if isinstance(value, tuple) else f"[{items}]")
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    return repr(value)


def _from_import(name, value):
    """``from module import thing as name`` for a function a module really holds, else None."""
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__name__", None)
    if not module or not qualname or getattr(sys.modules.get(module), qualname, None) is not value:
        return _public_import(name, value)
    if module == "__main__":
        return None  # a script's own function: no import reaches it
    alias = "" if name == qualname else f" as {name}"
    return f"from {module} import {qualname}{alias}"


def _public_import(name, value):
    """``from scipy.special import gammaln`` (a ufunc names no module), ``from scipy.stats
    import norm`` (an object of a private module): the public module holding ``value``."""
    for module_name in ("scipy.special", "scipy.stats"):
        module = sys.modules.get(module_name)
        if module is None:
            continue
        for attr in (name, getattr(value, "__name__", None)):
            if attr and getattr(module, attr, None) is value:
                alias = "" if name == attr else f" as {name}"
                return f"from {module_name} import {attr}{alias}"
    return None


def _number_comments(function):
    """Replace each marker's text by its number, so no marker line is ever wrapped."""
    markers, texts = [], []
    for node in ast.walk(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == COMMENT):
            markers.append(node)
            texts.append(node.args[0].value)
            node.args = [ast.Constant(len(texts) - 1)]
    return markers, texts


def _comment_line(line, comments):
    match = _MARKER.match(line)
    if match is None:
        return line
    return f"{match.group(1)}# {comments[int(match.group(2))]}"
