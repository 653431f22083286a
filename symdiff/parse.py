"""Parse: a function object (or a function in a source file) -> its syntax tree.

Expects a plain Python function defined with ``def`` in a file or in text known
to ``linecache``.  Guarantees a ``ParsedFunction`` whose ``tree`` is the
``ast.FunctionDef`` without decorators and whose nodes carry the line numbers and
columns of the user's real file, so every later error points at the right place.

    @grad                               ParsedFunction(name="f", filename="model.py",
    def f(x):          ──parse──►           tree=FunctionDef(f, lineno=12, ...),
        return x * x                        globals=f.__globals__, closure={})
"""

import ast
import inspect
import linecache
import re
import textwrap
from dataclasses import dataclass, field

from .errors import SourceUnavailableError


@dataclass(frozen=True)
class ParsedFunction:
    """A user function's syntax tree and everything needed to talk about it."""

    name: str
    tree: ast.FunctionDef
    filename: str
    globals: dict
    closure: dict = field(default_factory=dict)
    fn: object = None

    def source_line(self, lineno):
        return linecache.getline(self.filename, lineno) or None

    def error(self, cls, node, message, hint=None):
        """Build a user error of class ``cls`` located at ``node``."""
        lineno = getattr(node, "lineno", None) or self.tree.lineno
        col = getattr(node, "col_offset", None)
        return cls(message, filename=self.filename, lineno=lineno, col_offset=col,
                   source_line=self.source_line(lineno), hint=hint)


def parse_function(fn):
    """Read ``fn``'s source and return its ``ParsedFunction``."""
    fn = inspect.unwrap(fn)
    name = getattr(fn, "__name__", repr(fn))
    if not inspect.isfunction(fn):
        if inspect.ismethod(fn):
            code = fn.__func__.__code__
            line = linecache.getline(code.co_filename, code.co_firstlineno)
            raise SourceUnavailableError(
                f"{name} is a bound method", filename=code.co_filename,
                lineno=code.co_firstlineno, col_offset=len(line) - len(line.lstrip()),
                source_line=line or None,
                hint="differentiate a plain function; pass the instance's numbers as arguments")
        raise SourceUnavailableError(
            f"{name!s} is not a Python function with readable source",
            hint="symdiff reads source text; builtins and C functions have none")
    if fn.__name__ == "<lambda>":
        code = fn.__code__
        line = linecache.getline(code.co_filename, code.co_firstlineno)
        raise SourceUnavailableError(
            "a lambda cannot be differentiated", filename=code.co_filename,
            lineno=code.co_firstlineno, col_offset=_column_of("lambda", line),
            source_line=line or None, hint="write it as a def function")
    filename = fn.__code__.co_filename
    tree = _find_in_file(fn, filename)
    if tree is None:
        try:
            lines, first = inspect.getsourcelines(fn)
        except (OSError, TypeError) as exc:
            raise SourceUnavailableError(
                f"the source of {name} cannot be read ({exc})", filename=filename,
                lineno=fn.__code__.co_firstlineno,
                hint="define it in a file, or register its text with linecache") from None
        tree = parse_text("".join(lines), filename, first, name)
    closure = {}
    if fn.__closure__:
        for var, cell in zip(fn.__code__.co_freevars, fn.__closure__):
            try:
                closure[var] = cell.cell_contents
            except ValueError:  # an empty cell: the enclosing variable is not set yet
                pass
    return ParsedFunction(name=name, tree=tree, filename=filename,
                          globals=fn.__globals__, closure=closure, fn=fn)


def _column_of(word, line):
    """Where ``word`` stands alone in ``line`` (0 when it does not)."""
    match = re.search(rf"\b{word}\b", line)
    return match.start() if match else 0


_MODULES = {}  # filename -> (source text, its syntax tree): one parse per file version


def _find_in_file(fn, filename):
    """The ``def`` of ``fn`` found by parsing its whole file once; None when that fails."""
    text = "".join(linecache.getlines(filename))
    if not text:
        return None
    cached = _MODULES.get(filename)
    if cached is None or cached[0] != text:
        try:
            cached = _MODULES[filename] = (text, ast.parse(text, filename=filename))
        except SyntaxError:
            return None
    first = fn.__code__.co_firstlineno
    for node in ast.walk(cached[1]):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
            starts = [node.lineno] + [d.lineno for d in node.decorator_list]
            if first in starts:
                return _without_decorators(node)
    return None


def _without_decorators(node):
    """A copy of the ``def`` node with no decorators (the cached tree stays whole)."""
    copy = type(node)(**{name: getattr(node, name) for name in node._fields})
    for attr in node._attributes:
        setattr(copy, attr, getattr(node, attr, None))
    copy.decorator_list = []
    return copy


def parse_text(text, filename, first_lineno, name):
    """Parse the source of one ``def`` that starts at ``first_lineno`` of ``filename``.

    Indented source (a nested function) is wrapped in ``if 1:`` rather than
    dedented, so columns stay those of the real file.
    """
    indented = text[:1] in (" ", "\t")
    wrapped = "if 1:\n" + text if indented else text
    try:
        module = ast.parse(wrapped, filename=filename)
    except SyntaxError:
        try:
            module = ast.parse(textwrap.dedent(text), filename=filename)
            indented = False
        except SyntaxError as exc:
            raise SourceUnavailableError(
                f"the source of {name} does not parse ({exc.msg})", filename=filename,
                lineno=first_lineno, hint="check the function's syntax") from None
    ast.increment_lineno(module, first_lineno - (2 if indented else 1))
    body = module.body[0].body if indented else module.body
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.decorator_list = []
            return node
    raise SourceUnavailableError(
        f"no def statement found for {name}", filename=filename, lineno=first_lineno,
        hint="symdiff differentiates functions written with def")


def parse_module_function(path, funcname):
    """Find ``funcname`` in the file at ``path`` without running the file.

    Returns ``(ParsedFunction, module_tree)``; globals are left empty for the
    caller to fill from the module's syntax tree.
    """
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    linecache.updatecache(path)
    module = ast.parse(text, filename=path)
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and node.name == funcname:
            node.decorator_list = []
            return ParsedFunction(name=funcname, tree=node, filename=path, globals={}), module
    raise SourceUnavailableError(f"{path} has no top-level function named {funcname}",
                                 filename=path, lineno=1, hint="check the function name")
