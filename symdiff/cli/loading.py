"""Loading: the function ``FILE.py:FUNC`` names, read from its file or imported.

Expects the command's target and ``--import``.  Guarantees the function object: by
default from ``symdiff.frontend.static`` (the file is read, never run; the module read is
kept in ``args.static_module``, so an undefined name can be explained), or with
``--import`` from the imported module (its top-level code runs, its prints go to stderr).
A bad path or name is a ``CommandError``; a syntax error, an exception raised while
importing, or a derivative rule that cannot be read without running the file is a
located ``SymdiffError``.  symdiff's own bug is never taken for the module's: an
``InternalError`` raised while importing passes through.
"""

import importlib.util
import inspect
import linecache
import os
import sys
import traceback

from symdiff.cli.arguments import CommandError
from symdiff.cli.terminal import output_to_stderr
from symdiff.errors import InternalError, SymdiffError
from symdiff.frontend import static


def split_target(target):
    """``"path/model.py:loss"`` -> ``("path/model.py", "loss")``."""
    path, colon, name = target.rpartition(":")
    if not colon or not name.isidentifier() or not path:
        file = path if colon and os.path.isfile(path) else target
        raise CommandError(f"{target}: name the function too, as FILE.py:FUNC"
                           f"{_functions_hint(file)}")
    return path, name


def _functions_hint(path):
    try:
        names = static.function_names(static.read_tree(path))
    except (OSError, SymdiffError):
        return ""
    if not names:
        return f" ({path} has no top-level def functions)"
    return f" (functions in {path}: {', '.join(names)})"


def load_function(args):
    """The function named by ``args.target``: read statically, or imported with --import."""
    path, name = split_target(args.target)
    if os.path.isdir(path):
        raise CommandError(f"{path} is a directory, not a Python file")
    if not os.path.isfile(path):
        raise CommandError(f"{path}: no such file")
    try:
        if args.import_module:
            return import_function(path, name)
        module = static.load(path)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    args.static_module = module
    if module.unreadable_rules:  # a rule for a function that cannot be told by reading
        lineno, reason = module.unreadable_rules[0]
        raise SymdiffError(reason, filename=path, lineno=lineno, col_offset=0,
                           source_line=linecache.getline(path, lineno) or None,
                           hint="pass --import to import the module and use its rules")
    return module.function(name)


def import_function(path, name):
    """Import the module at ``path`` (running it) and return its function ``name``."""
    tree = static.read_tree(path)  # a syntax error is reported with its location
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    stem = os.path.splitext(os.path.basename(path))[0]
    module_name = stem if stem.isidentifier() and stem not in sys.modules else "symdiff_target"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise CommandError(f"{path} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        with output_to_stderr():
            spec.loader.exec_module(module)
    except InternalError:  # the module called symdiff, which failed: our bug, not the module's
        raise
    except (Exception, SystemExit) as exc:
        raise import_error(path, exc) from exc
    found = getattr(module, name, None)
    inner = getattr(found, "fn", None)  # a function decorated with @grad
    if inspect.isfunction(inner):
        found = inner
    if found is None:
        names = static.function_names(tree)
        raise CommandError(f"{path} has no function named {name}"
                           + (f" (its functions: {', '.join(names)})" if names else ""))
    if not inspect.isfunction(found):
        raise CommandError(f"{path}: {name} is {type(found).__name__}, not a def function")
    return found


def import_error(path, exc):
    """A located error for an exception raised while importing the file at ``path``."""
    lineno = None
    for frame, line in traceback.walk_tb(exc.__traceback__):
        if os.path.abspath(frame.f_code.co_filename) == os.path.abspath(path):
            lineno = line
    message = f"importing the module raised {type(exc).__name__}: {exc}"
    return SymdiffError(message, filename=path if lineno else None, lineno=lineno,
                        source_line=linecache.getline(path, lineno) if lineno else None,
                        hint="fix the module, or leave out --import to read it without running")
