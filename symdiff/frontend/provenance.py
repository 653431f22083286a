"""Provenance: is the source symdiff read the code that runs?

Expects a function object and the text of the file its code names (as ``linecache``
holds it; ``module_tree`` parses each version of it once, for every pass that reads it).  Guarantees that ``code_matches`` is True only when compiling that text
gives a code object of the same shape as the function's own: the same bytecode, names,
constants (nested code objects compared the same way) and signature counts.  A file
edited after import fails, so the gradient of the new text is never handed out for the
old code.

The whole file is compiled once per version of its text (about 12 ms per 1,000
statements, against over a second to generate their gradient), so class-private
names, closures, ``from __future__`` imports and the module's imports (which shape
the calls of an imported module's functions since Python 3.11) come out as Python made
them.  ``def_matches`` compiles one ``def`` alone, as the command line's reader
defines functions.  Code an import hook rewrote (pytest's assertion rewriting gives
names like ``@py_assert1``, which no source can spell) cannot be rebuilt from the
text; for it, and for a ``def`` read alone from text that does not parse whole
(``def_resembles``), every name and constant of the text's code must be among the
running code's.

    def f(x):            f.__code__ ──┐
        return x * x                  ├─ same shape? ──► read the source, or refuse
    (file now: x + x)   compile(file) ┘
"""

import ast
import linecache
import types

DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_MODULES = {}  # filename -> (source text, its syntax tree): one parse per file version
_COMPILED = {}  # filename -> (the file's text, its code objects by (name, first line))


def module_tree(filename):
    """The syntax tree of the whole file as ``linecache`` holds it, parsed once per
    version; None when that fails."""
    text = "".join(linecache.getlines(filename))
    if not text:
        return None
    cached = _MODULES.get(filename)
    if cached is None or cached[0] != text:
        try:
            cached = _MODULES[filename] = (text, ast.parse(text, filename=filename))
        except (SyntaxError, RecursionError, MemoryError):
            return None
    return cached[1]


def module_text(filename):
    """The text ``module_tree`` last parsed for ``filename``."""
    return _MODULES[filename][0]


def def_starts(node):
    """The lines a code object of the ``def`` ``node`` may say it starts on (its first
    decorator's, since Python 3.8)."""
    return [node.lineno] + [d.lineno for d in node.decorator_list]


def code_matches(fn, text, filename):
    """Whether the function ``fn``'s code is what the file's ``text`` compiles to; None
    when the text does not compile (there is nothing to compare with)."""
    cached = _COMPILED.get(filename)
    if cached is None or cached[0] != text:
        cached = _COMPILED[filename] = (text, _code_by_place(text, filename))
    return _matches(fn.__code__, cached[1])


def def_matches(fn, tree, filename):
    """``code_matches`` for the ``def`` (or ``lambda``) ``tree`` compiled alone: so the
    command line's reader defines functions, and so text holding one ``def`` is read when
    its file does not parse whole.  Compiled alone, a nested function's free names would
    read globals, so only a function without closure variables is compared."""
    code = fn.__code__
    if code.co_freevars:
        return None
    by_place = _code_by_place(_module_of(tree), filename)
    if by_place is None:
        return None
    # without its decorators the def starts on a later line: look it up by name
    return _matches(code, {(code.co_name, code.co_firstlineno): [
        c for (name, _), codes in by_place.items() if name == code.co_name for c in codes]})


def def_resembles(fn, tree, filename):
    """The weaker test of ``def_matches`` (what the text uses, the code uses), for a
    ``def`` read alone from text that does not parse whole (a notebook cell with a
    magic command): compiled without its module, code a module's imports shape (the
    attribute calls of an imported module, since Python 3.11) cannot be rebuilt."""
    code = fn.__code__
    by_place = None if code.co_freevars else _code_by_place(_module_of(tree), filename)
    if by_place is None:
        return None
    return any(_contained(c, code) for (name, _), codes in by_place.items()
               if name == code.co_name for c in codes)


def _matches(code, by_place):
    if by_place is None:
        return None
    candidates = by_place.get((code.co_name, code.co_firstlineno), ())
    same = _contained if _rewritten(code) else _same
    return any(same(candidate, code) for candidate in candidates)


def _module_of(tree):
    if isinstance(tree, ast.Lambda):
        tree = ast.copy_location(ast.Expr(value=tree), tree)
    return ast.Module(body=[tree], type_ignores=[])


def _code_by_place(source, filename):
    """The code objects ``source`` (text or a module tree) compiles to, by (name, first
    line); None when it does not compile."""
    try:
        module_code = compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return None
    found = {}
    for code in _code_objects(module_code):
        found.setdefault((code.co_name, code.co_firstlineno), []).append(code)
    return found


def _code_objects(code):
    """``code`` and every code object nested in its constants (iteratively: deep
    nesting must not recurse)."""
    stack, found = [code], []
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return found


def _same(a, b):
    if (a.co_code, a.co_names, a.co_varnames, a.co_freevars, a.co_cellvars, a.co_argcount,
            a.co_posonlyargcount, a.co_kwonlyargcount) != (
            b.co_code, b.co_names, b.co_varnames, b.co_freevars, b.co_cellvars, b.co_argcount,
            b.co_posonlyargcount, b.co_kwonlyargcount):
        return False
    return len(a.co_consts) == len(b.co_consts) and all(
        _same(x, y) if isinstance(x, types.CodeType) and isinstance(y, types.CodeType)
        else _same_constant(x, y) for x, y in zip(a.co_consts, b.co_consts))


def _same_constant(a, b):
    """Equal and of one type; ``-0.0`` is not ``0.0``, ``nan`` is ``nan``."""
    return type(a) is type(b) and (repr(a) == repr(b) or (
        isinstance(a, frozenset) and a == b))


def _rewritten(code):
    """Whether an import hook rewrote ``code``: it holds a name no source can spell."""
    return any(not name.isidentifier() for name in code.co_names + code.co_varnames)


def _contained(text_code, running):
    """The weaker test for rewritten code: what the text uses, the running code uses (a
    negative number the compiler folds may stand in it as the negation of its size, as
    pytest's rewritten asserts hold it)."""
    constants = {repr(c) for c in running.co_consts if not isinstance(c, types.CodeType)}
    return (text_code.co_argcount == running.co_argcount
            and set(text_code.co_names) <= set(running.co_names)
            and set(text_code.co_varnames) <= set(running.co_varnames)
            and all(repr(c) in constants or _negated(c) in constants
                    for c in text_code.co_consts if not isinstance(c, types.CodeType)))


def _negated(constant):
    is_number = isinstance(constant, (int, float, complex)) and not isinstance(constant, bool)
    return repr(-constant) if is_number else None
