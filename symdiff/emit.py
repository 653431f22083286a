"""Emit: the generated syntax tree -> module text, proven to parse back to that tree.

Expects a ``Generated`` from ``differentiate`` (possibly optimized).  Guarantees
text that parses back to the same tree, comments aside, and that is checked here
(a mismatch is an ``InternalError``, never compiled).  ``printer`` writes the
statements and blocks itself and a ``syntax.Comment`` as a comment line; astor, or
the standard library's ``ast.unparse`` where astor does not import cleanly, prints
the simple statements and expressions, with the same text either way:

    Comment('line 3: z = x * y')    ──emit──►    # line 3: z = x * y

The text stands on its own: above the function it binds every name the function
reads from outside, as the user's module had it: ``import math`` (or ``numpy as np``),
``SCALE = 2.5`` for a module constant, ``from model import square`` for a function a
custom rule calls.  Saved to a file, it runs without symdiff; a function no import
reaches (one of a script run as ``__main__``, a lambda or a closure) is named in a
comment above the function, which says it has to be bound before the text runs.
"""

import ast
import math
import numbers
import sys
import types

from .errors import InternalError
from .printer import default_printer, one_line, print_function
from .syntax import Comment, clone


def emit(generated, printer=None):
    """The module text defining the generated function (``printer``: ``"astor"`` or
    ``"unparse"``; by default astor where it imports cleanly)."""
    function = generated.function
    lines = print_function(function, printer or default_printer())
    uses_math = any(isinstance(n, ast.Name) and n.id == generated.math_name
                    for n in ast.walk(function))
    header = []
    if uses_math:
        alias = "" if generated.math_name == "math" else f" as {generated.math_name}"
        header.append(f"import math{alias}")
    for alias, builtin in generated.builtins.items():
        header.append(f"from builtins import {builtin} as {alias}")
    imports, constants, unbound = _outside_names(function, generated.namespace,
                                                 generated.math_name)
    header += imports
    if constants:
        header += [""] * bool(header) + constants
    if unbound:
        header += [""] * bool(header) + _unbound_note(unbound)
    if header:
        header += ["", ""]
    text = "\n".join(header + lines) + "\n"
    _check_round_trip(text, function, len([line for line in header if line.strip()
                                          and not line.startswith("#")]))
    return text


def _outside_names(function, namespace, math_name):
    """The lines binding the names ``function`` reads from ``namespace``: (imports,
    constants, unbound), each in the order of ``namespace``; ``unbound`` holds the
    (name, value) of functions no import reaches."""
    read = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)}
    imports, constants, unbound = [], [], []
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
            elif callable(value):
                unbound.append((name, value))
    return imports, constants, unbound


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
    """``from module import thing as name`` for a function its module holds under a name
    (its own, or the one it was assigned to: ``rule = lambda x, out: ...``), else None."""
    module_name = getattr(value, "__module__", None)
    module = sys.modules.get(module_name) if isinstance(module_name, str) else None
    if module is None or module_name == "__main__":
        return None  # a script's own function: no import reaches it
    held = [key for key in (name, getattr(value, "__name__", None)) if isinstance(key, str)]
    held += list(vars(module))
    found = next((key for key in held if key.isidentifier() and not key.startswith("__")
                  and getattr(module, key, None) is value), None)
    if found is None:
        return None
    alias = "" if name == found else f" as {name}"
    return f"from {module_name} import {found}{alias}"


def _unbound_note(unbound):
    """Comment lines naming the functions the text reads that no import can bind."""
    lines = ["# Not bound here, as no import reaches them: bind these names before this",
             "# text runs on its own (symdiff binds them when it compiles the text)."]
    for name, value in unbound:
        lines.append("#   " + one_line(f"{name}: {_described(value)}"))
    return lines


def _described(value):
    code = getattr(value, "__code__", None)
    where = f" ({code.co_filename}, line {code.co_firstlineno})" if code is not None else ""
    qualname = getattr(value, "__qualname__", "") or ""
    if getattr(value, "__module__", None) == "__main__":
        kind = "a function of the script run as __main__"
    elif "<locals>" in qualname:
        kind = "a function defined inside another function"
    elif getattr(value, "__name__", None) == "<lambda>":
        kind = "a lambda no module variable holds"
    else:
        kind = "a function its module does not hold under any name"
    return kind + where


# --- the proof ------------------------------------------------------------------------------

def _check_round_trip(text, function, header_count):
    """The text parses to ``header_count`` import and constant statements and then to
    ``function`` itself, comments aside; else an ``InternalError``."""
    try:
        body = ast.parse(text).body
    except SyntaxError as exc:
        raise InternalError("emit", f"the emitted text does not parse: {exc}") from None
    if len(body) != header_count + 1 or not all(_is_binding(s) for s in body[:-1]):
        raise InternalError("emit", "the emitted header is not imports and constants")
    if shape(body[-1]) != shape(without_comments(function)):
        raise InternalError("emit", f"the emitted text of {function.name} does not parse "
                            "back to its syntax tree")


def _is_binding(stmt):
    """An import, or a constant bound to numbers (``float('inf')`` included)."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return True
    return (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and _is_literal(stmt.value))


def _is_literal(node):
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, complex))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _is_literal(node.operand)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_is_literal(item) for item in node.elts)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "float" and not node.keywords and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in ("inf", "-inf", "nan"))


def without_comments(function):
    """A copy of ``function`` with its comments removed (an emptied block: ``pass``)."""
    class Strip(ast.NodeTransformer):
        def generic_visit(self, node):
            super().generic_visit(node)
            for field in ("body", "orelse"):
                block = getattr(node, field, None)
                if isinstance(block, list) and block and all(isinstance(s, ast.stmt)
                                                             for s in block):
                    kept = [s for s in block if not isinstance(s, Comment)]
                    setattr(node, field, kept or [ast.Pass()])
            return node

    return Strip().visit(clone(function))


def shape(node):
    """What a syntax tree means, as nested tuples: fields, not positions; a name's
    context, fixed by where it stands, left out; a constant by type and ``repr``, a
    negative number written ``-2.0`` (the same value, folded by the compiler) as one."""
    if isinstance(node, list):
        return tuple(shape(item) for item in node)
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and _is_real(node.operand.value)):
        return shape(ast.Constant(-node.operand.value))
    if isinstance(node, ast.Constant):
        return ("Constant", type(node.value).__name__, repr(node.value))
    if not isinstance(node, ast.AST):
        return node
    fields = tuple((name, shape(getattr(node, name, None))) for name in node._fields
                   if name not in ("ctx", "type_comment", "kind", "type_params")
                   or (name == "type_params" and getattr(node, name, None)))
    return (type(node).__name__,) + fields


def _is_real(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)
