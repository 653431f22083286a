"""Parse: a function object (or a function in a source file) -> its syntax tree.

Expects a plain Python function defined with ``def`` (or a ``lambda``) in a file or
in text known to ``linecache``.  Guarantees a ``ParsedFunction`` whose ``tree`` is the
``ast.FunctionDef`` without decorators (a lambda made one) and whose nodes carry the
line numbers and columns of the user's real file, so every later error points at the
right place.

    @grad                               ParsedFunction(name="f", filename="model.py",
    def f(x):          ──parse──►           tree=FunctionDef(f, lineno=12, ...),
        return x * x                        globals=f.__globals__, closure={})
"""

import ast
import functools
import importlib
import inspect
import linecache
import re
import textwrap
import types
from dataclasses import dataclass, field, replace

from symdiff.errors import SourceUnavailableError, UndefinedNameError
from symdiff.frontend.exits import statement_parts
from symdiff.frontend.index import NodeIndex
from symdiff.frontend.provenance import (
    DEFS,
    code_matches,
    def_matches,
    def_resembles,
    def_starts,
    module_text,
    module_tree,
)
from symdiff.frontend.wrappers import (
    changed_error,
    check_wrapper,
    partial_error,
    reloaded,
    transparent,
)
from symdiff.ir.syntax import function_def


@dataclass(frozen=True)
class ParsedFunction:
    """A user function's syntax tree and everything needed to talk about it."""

    name: str
    tree: ast.FunctionDef
    filename: str
    globals: dict
    closure: dict = field(default_factory=dict)
    fn: object = None

    @functools.cached_property
    def index(self):
        """The ``frontend.index.NodeIndex`` of ``tree``, made the first time it is asked
        for (the tree is not changed once parsed: a pass that rewrites it makes a new one)."""
        return NodeIndex(self.tree)

    def source_line(self, lineno):
        return linecache.getline(self.filename, lineno) or None

    def error(self, cls, node, message, hint=None):
        """Build a user error of class ``cls`` located at ``node``."""
        lineno = getattr(node, "lineno", None) or self.tree.lineno
        col = getattr(node, "col_offset", None)
        return cls(message, filename=self.filename, lineno=lineno, col_offset=col,
                   source_line=self.source_line(lineno), hint=hint)


def parse_function(fn):
    """Read ``fn``'s source and return its ``ParsedFunction``.

    What is read is what a call of ``fn`` runs.  A wrapper that only caches or rebinds
    (``functools.lru_cache``, ``staticmethod``) is seen through; the wrapper a
    ``functools.wraps`` decorator returns is read itself, never the function it wraps
    in its place, and is refused when it passes on ``*args``.  The text must still be
    the code that runs (a file edited after import is refused).
    """
    fn = transparent(fn)
    name = getattr(fn, "__name__", None) or repr(fn)
    if isinstance(fn, functools.partial):
        raise partial_error(fn)
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
            f"{name!s} is a {type(fn).__name__}, not a Python function: it has no source "
            "file, so there is nowhere to point", hint="symdiff reads the source text of a "
            "def or a lambda; builtins and C functions have none")
    if getattr(fn, "__wrapped__", None) is not None:
        check_wrapper(fn)
    for attempt in range(2):
        parsed, matches = _read(fn, name)
        if matches is not False:
            imported = body_imports(parsed)
            return replace(parsed, closure=dict(parsed.closure, **imported)) if imported else parsed
        if attempt == 0 and not reloaded(fn.__code__.co_filename):
            break  # the text linecache holds is the file's: the file changed
    raise changed_error(fn, name)


def _read(fn, name):
    """(the ``ParsedFunction`` of ``fn`` from its file's text as ``linecache`` holds it,
    whether that text compiles to ``fn``'s code: True, False or None for unknown)."""
    filename = fn.__code__.co_filename
    if fn.__code__.co_name == "<lambda>":
        tree, node = _lambda_in_file(fn, filename)
        matches = code_matches(fn, module_text(filename), filename)
        if matches is False and def_matches(fn, node, filename):
            matches = True  # compiled alone, as the command line's reader defines it
    else:
        tree = _find_in_file(fn, filename)
        if tree is not None:
            matches = code_matches(fn, module_text(filename), filename)
            if matches is False and def_matches(fn, tree, filename):
                matches = True  # compiled alone, as the command line's reader defines it
        elif module_tree(filename) is not None:
            return None, False  # the file parses, but holds no such def where the code says
        else:
            tree = _read_alone(fn, filename, name)
            matches = def_matches(fn, tree, filename) or def_resembles(fn, tree, filename)
    return ParsedFunction(name=tree.name if fn.__code__.co_name == "<lambda>" else name, tree=tree,
                          filename=filename, globals=fn.__globals__, closure=_closure(fn),
                          fn=fn), matches


def _read_alone(fn, filename, name):
    """The ``def`` of ``fn`` read by ``inspect`` (its file does not parse whole)."""
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as exc:
        code = fn.__code__
        raise SourceUnavailableError(
            f"the source of {name} cannot be read ({exc}): its code says it was defined in "
            f"{filename}, line {code.co_firstlineno}, and no text of that is kept "
            "(functions made by exec or compile from a string are not)", filename=filename,
            lineno=code.co_firstlineno, col_offset=0,
            hint="define it in a file, or register its text with linecache") from None
    return parse_text("".join(lines), filename, first, name)


READ_ONLY = "__symdiff_read_only__"  # in the globals of a file read without running it


def body_imports(parsed):
    """The names the ``import`` statements in the function's body bind (not those of the
    functions it defines), imported now: they mean what a module-level import would.

        def f(x):
            from scipy import special      ──►   {"special": <module scipy.special>}
    """
    package = parsed.globals.get("__package__")
    readable = parsed.globals.get(READ_ONLY)  # a file read, not run: only these modules
    bound = {}
    for node in _own_nodes(parsed.tree):
        if readable is not None and isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (name or ".").partition(".")[0] not in readable for name in (
                    [a.name for a in node.names] if isinstance(node, ast.Import)
                    else [None if node.level else node.module])):
            raise parsed.error(UndefinedNameError, node, "this import would run a module "
                               f"other than {', '.join(readable)}",
                               "pass --import to import the file instead of reading it")
        try:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    module = importlib.import_module(alias.name)
                    if alias.asname:
                        bound[alias.asname] = module
                    else:
                        top = alias.name.partition(".")[0]
                        bound[top] = importlib.import_module(top)
            elif isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                module = importlib.import_module(base, package)
                for alias in node.names:
                    if alias.name == "*":
                        continue  # refused by the fence
                    if not hasattr(module, alias.name):  # a submodule: from scipy import stats
                        importlib.import_module(f"{module.__name__}.{alias.name}")
                    bound[alias.asname or alias.name] = getattr(module, alias.name)
        except (ImportError, AttributeError, TypeError, ValueError) as exc:
            raise parsed.error(UndefinedNameError, node, f"this import fails: {exc}",
                               "import a module that is installed, with names it defines"
                               ) from None
    return bound


def _own_nodes(tree):
    """The statements (with ``except`` clauses and ``case``s) of ``tree``'s body, outside
    the functions and classes it defines: where an import can stand."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(statement_parts(node))


def _closure(fn):
    """The values of ``fn``'s closure variables that are set, by name."""
    closure = {}
    for var, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            closure[var] = cell.cell_contents
        except ValueError:  # an empty cell: the enclosing variable is not set yet
            pass
    return closure


def _column_of(word, line):
    """Where ``word`` stands alone in ``line`` (0 when it does not)."""
    match = re.search(rf"\b{word}\b", line)
    return match.start() if match else 0


def _find_in_file(fn, filename):
    """The ``def`` of ``fn`` found by parsing its whole file once; None when that fails.

    It is found by its code's name (a wrapper made by ``functools.wraps`` carries the
    ``__name__`` of the function it wraps) and the line its code starts on.
    """
    module = module_tree(filename)
    if module is None:
        return None
    code = fn.__code__
    for node in ast.walk(module):
        if isinstance(node, DEFS) and node.name == code.co_name and (
                code.co_firstlineno in def_starts(node)):
            return _without_decorators(node)
    return None


def _lambda_in_file(fn, filename):
    """The lambda ``fn`` as a ``def`` whose body returns the lambda's expression, and
    the ``ast.Lambda`` itself.

    A line may hold several lambdas: the one whose parameters are ``fn``'s and whose
    body spans every source position ``fn``'s code records is ``fn`` (before Python
    3.11, which records no columns, the one that compiles to ``fn``'s code).  The ``def`` takes
    the name of ``f = lambda ...``; a lambda bound to no one name is called ``lambda``
    (a word no Python name can be), so its gradient is ``grad_lambda``.
    """
    code = fn.__code__
    module = module_tree(filename)
    line = linecache.getline(filename, code.co_firstlineno)
    if module is None:
        raise SourceUnavailableError(
            "the source of this lambda cannot be read", filename=filename,
            lineno=code.co_firstlineno, col_offset=_column_of("lambda", line),
            source_line=line or None, hint="define it in a file, or write it as a def function")
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    found = [node for node in ast.walk(module)
             if isinstance(node, ast.Lambda) and node.lineno == code.co_firstlineno
             and _parameters(node.args) == params and _is_code_of(node, code)]
    if len({ast.dump(node) for node in found}) == 1:
        found = found[:1]  # lambdas written the same way: either one will do
    if len(found) != 1:
        raise SourceUnavailableError(
            "this lambda cannot be told apart from another on its line", filename=filename,
            lineno=code.co_firstlineno, col_offset=_column_of("lambda", line),
            source_line=line or None, hint="put it on a line of its own, or write a def")
    node = found[0]
    names = [lambda_name(s) for s in ast.walk(module)
             if isinstance(s, ast.Assign) and s.value is node]
    return lambda_as_def(node, next((n for n in names if n), "lambda")), node


def lambda_name(stmt):
    """``f`` for the statement ``f = lambda ...``; None for any other statement."""
    if (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Lambda)
            and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return stmt.targets[0].id
    return None


def lambda_as_def(node, name):
    """``lambda args: body`` as ``def name(args): return body``, at the lambda's place."""
    body = ast.copy_location(ast.Return(value=node.body), node.body)
    return ast.copy_location(function_def(name, node.args, [body]), node)


def _parameters(args):
    """The parameter names of an ``ast.arguments``, in the code object's order."""
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    return tuple(names)


def _is_code_of(node, code):
    """Whether the lambda ``node`` is the source of ``code``."""
    if hasattr(code, "co_positions"):
        return _spans(node.body, code)
    compiled = compile(ast.Expression(body=node), "<lambda>", "eval")
    own = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    if code.co_freevars:  # compiled alone, its free names read globals: compare what it uses
        return own.co_consts == code.co_consts and (
            set(own.co_names) == set(code.co_names) | set(code.co_freevars))
    return (own.co_code, own.co_consts, own.co_names) == (
        code.co_code, code.co_consts, code.co_names)


def _spans(body, code):
    """True when every source position recorded in ``code`` lies inside ``body``."""
    start = (body.lineno, body.col_offset)
    end = (body.end_lineno, body.end_col_offset)
    for line, end_line, col, end_col in code.co_positions():
        if line is None or col is None or (col, end_col) == (0, 0):
            continue        # the code's own entry and exit, placed at no expression
        if not start <= (line, col) or not (end_line, end_col) <= end:
            return False
    return True


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
                lineno=first_lineno, col_offset=0,
                source_line=linecache.getline(filename, first_lineno) or None,
                hint="check the function's syntax") from None
    ast.increment_lineno(module, first_lineno - (2 if indented else 1))
    body = module.body[0].body if indented else module.body
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.decorator_list = []
            return node
    raise SourceUnavailableError(
        f"no def statement found for {name}", filename=filename, lineno=first_lineno,
        col_offset=0, source_line=linecache.getline(filename, first_lineno) or None,
        hint="symdiff differentiates functions written with def")


def deepest_statement(tree):
    """The statement of ``tree`` holding its most deeply nested expression (found without
    recursion: it serves when reading the expression recursively overflowed)."""
    best, best_depth = tree, -1
    stack = [(tree, 0, tree)]
    while stack:
        node, depth, owner = stack.pop()
        if isinstance(node, ast.stmt):
            owner, depth = node, 0
        elif depth > best_depth:
            best, best_depth = owner, depth
        stack.extend((child, depth + 1, owner) for child in ast.iter_child_nodes(node))
    return best
