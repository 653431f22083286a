"""Bindings: the lines above a generated function that bind what it reads from outside.

Expects a ``Generated`` (its function, the namespace its names come from, the name of
``math`` and the builtins it aliases).  Guarantees lines that, run on their own with
nothing but Python and the user's importable modules, bind every name the function
reads, as the user's module had it:

    import math                         a module, under the user's alias
    from model import square            a function its module holds under a name
    SCALE = 2.5                         a number or a table of numbers, exactly
    def softplus_dx(x, out):            a function no import reaches (a lambda, one of
        return 1.0 / (1.0 + math.exp(-x))   a script run as __main__): its definition,
                                        with what it reads bound the same way

A function whose definition cannot be carried (no readable source, a name it reads
that is bound to something else here, a construct the printer does not write) is named
in a comment saying it has to be bound before the text runs.  Never silently missing.
"""

import builtins
import dis
import math
import numbers
import sys
import types

from symdiff.backend.printer import UnprintableStatement, one_line, print_function
from symdiff.errors import SymdiffError
from symdiff.ir.syntax import clone, name_nodes

_MISSING = object()


def header(generated, printer, helpers=()):
    """(lines, definitions): the header's lines and the ``def`` trees among them; the
    ``helpers`` (``special``'s definitions, written after the header) read from it too."""
    function = generated.function
    lines = []
    taken = {function.name: function, **{helper.name: helper for helper in helpers}}
    read = {n.id for tree in (function, *helpers) for n in name_nodes(tree)}
    if generated.math_name in read:
        alias = "" if generated.math_name == "math" else f" as {generated.math_name}"
        lines.append(f"import math{alias}")
        taken[generated.math_name] = math
    for alias, builtin in generated.builtins.items():
        lines.append(f"from builtins import {builtin} as {alias}")
        taken[alias] = getattr(builtins, builtin)
    wanted = {name: value for name, value in generated.namespace.items()
              if name in read and name != generated.math_name}
    imports, constants, unbound = _bind(wanted, taken, getattr(generated, "arrays", {}))
    definitions, notes = _definitions(unbound, taken, imports, constants, printer)
    lines += imports
    if constants:
        lines += [""] * bool(lines) + constants
    for _, text in definitions:
        lines += ["", ""] * bool(lines) + text
    if notes:
        lines += ["", ""] * bool(definitions) + [""] * (bool(lines) and not definitions) + notes
    if lines:
        lines += ["", ""]
    return lines, [tree for tree, _ in definitions]


def _bind(wanted, taken, arrays=()):
    """(imports, constants, unbound) for the names ``wanted``, in their order; each
    name bound is added to ``taken``; ``unbound`` holds the (name, value) no import or
    literal binds (an array the code computes with, ``arrays``: as a tuple it would
    compute otherwise)."""
    imports, constants, unbound = [], [], []
    for name, value in wanted.items():
        if name in taken:
            continue
        if isinstance(value, types.ModuleType):
            alias = "" if name == value.__name__ else f" as {name}"
            imports.append(f"import {value.__name__}{alias}")
        elif isinstance(value, (numbers.Number, tuple, list)) and _is_numbers(value):
            constants.append(f"{name} = {_literal(value)}")
        elif hasattr(value, "tolist") and getattr(value, "ndim", None) == 1 and (
                name not in arrays):
            constants.append(f"{name} = {_literal(tuple(value.tolist()))}")  # a numpy table
        else:
            line = _from_import(name, value)
            if line is None:
                unbound.append((name, value))
                continue
            imports.append(line)
        taken[name] = value
    return imports, constants, unbound


def _is_numbers(value):
    if isinstance(value, (tuple, list)):
        return all(_is_numbers(item) for item in value)
    return isinstance(value, numbers.Number)


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
    if module_name == "__main__":
        return None  # a script's own function: no import reaches it
    public = _public_import(name, value)
    if public is not None or module is None:
        return public
    held = [key for key in (name, getattr(value, "__name__", None)) if isinstance(key, str)]
    held += list(vars(module))
    found = next((key for key in held if key.isidentifier() and not key.startswith("__")
                  and getattr(module, key, None) is value), None)
    if found is None:
        return None
    alias = "" if name == found else f" as {name}"
    return f"from {module_name} import {found}{alias}"


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


# --- functions no import reaches ------------------------------------------------------------

def _definitions(unbound, taken, imports, constants, printer):
    """([(tree, lines)], notes): the definitions of the functions in ``unbound`` and of
    those they read in turn; a note for each one that cannot be carried.  What the
    definitions read is appended to ``imports`` and ``constants``."""
    from symdiff.frontend.parse import parse_function  # parse reads files; only needed here

    definitions, notes, pending = [], [], list(unbound)
    while pending:
        name, fn = pending.pop(0)
        if taken.get(name, _MISSING) is fn:
            continue
        reason = "its name is bound to something else here" if name in taken else None
        if reason is None and not callable(fn):
            reason = "it is not a module, a function or numbers"
        if reason is None:
            try:
                parsed = parse_function(fn)
            except SymdiffError:
                parsed, reason = None, "its source cannot be read"
        if reason is None:
            wanted, reason = _reads(fn, parsed)
        if reason is None:
            clash = next((n for n, v in wanted.items() if n in taken and taken[n] is not v
                          or n == name), None)
            if clash is not None:
                reason = f"it reads {clash}, which is bound to something else here"
        if reason is None:
            tree = clone(parsed.tree)
            tree.name, tree.decorator_list, tree.returns = name, [], None
            try:
                lines = print_function(tree, printer)
            except UnprintableStatement:
                reason = "it holds a statement this text cannot carry"
        if reason is not None:
            notes.append((name, fn, reason))
            continue
        taken[name] = fn
        more_imports, more_constants, more_unbound = _bind(wanted, taken)
        imports += more_imports
        constants += more_constants
        pending += more_unbound
        definitions.append((tree, lines))
    return definitions, _note(notes)


def _reads(fn, parsed):
    """({name: value} of the globals and closure variables ``fn`` reads, None), or
    (None, why they cannot all be bound)."""
    if _writes_globals(fn.__code__):
        return None, "it assigns a global variable"
    wanted = {}
    for name in _global_names(fn.__code__):
        value = parsed.closure.get(name, parsed.globals.get(name, _MISSING))
        if value is _MISSING:
            if hasattr(builtins, name):
                continue
            return None, f"it reads {name}, which is not defined"
        wanted[name] = value
    for name in fn.__code__.co_freevars:
        if name not in parsed.closure:
            return None, f"it reads {name}, a variable of the function around it, not yet set"
        wanted[name] = parsed.closure[name]
    for name, value in wanted.items():
        if not (isinstance(value, types.ModuleType) or callable(value) or _is_numbers(value)
                or (hasattr(value, "tolist") and getattr(value, "ndim", None) == 1)):
            return None, f"it reads {name}, which is not a module, function or number"
    return wanted, None


def _global_names(code):
    """The global names ``code`` (and the code inside it) reads, in order."""
    names = [i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL"]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names += _global_names(const)
    return list(dict.fromkeys(names))


def _writes_globals(code):
    return any(i.opname in ("STORE_GLOBAL", "DELETE_GLOBAL") for i in dis.get_instructions(code)
               ) or any(_writes_globals(c) for c in code.co_consts if isinstance(c, types.CodeType))


def _note(notes):
    if not notes:
        return []
    lines = ["# Not bound here: bind these names before this text runs on its own",
             "# (symdiff binds them when it compiles the text)."]
    for name, fn, reason in notes:
        lines.append("#   " + one_line(f"{name}: {_described(fn)}; {reason}"))
    return lines


def _described(value):
    if not callable(value):
        return f"a {type(value).__name__}"
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
