"""Errors: what the ``symdiff`` command says when it cannot do what it was asked.

Expects the exception a command raised.  Guarantees one message on stderr, without a
traceback (``--debug`` adds it), and an exit status that tells whose fault it is:

- 2, a user's error: a ``CommandError`` (``symdiff: error: ...``), a ``SymdiffError``
  located in the user's file (``model.py:12:8: ...``, with the line and a caret; an
  undefined name explained as one only running the module binds, with ``--import`` as
  the way out), or any other exception (``symdiff: error: TypeError: ...``);
- 3, symdiff's own bug: an ``InternalError`` (``symdiff: internal error: ... please
  report``), never dressed up as a problem with the user's code.
"""

import re

from symdiff.cli.arguments import CommandError
from symdiff.errors import InternalError, SymdiffError, UndefinedNameError

USER_ERROR = 2
INTERNAL_ERROR = 3


def exit_status(exc):
    """The exit status for an exception a command raised."""
    return INTERNAL_ERROR if isinstance(exc, InternalError) else USER_ERROR


def describe_error(exc, args):
    """The message for an exception: located when it can be, always without a traceback."""
    if isinstance(exc, InternalError):
        return (f"symdiff: internal error: {exc.message} — please report it, with the "
                "command and the file (run with --debug for the traceback)")
    if isinstance(exc, CommandError):
        return f"symdiff: error: {exc}"
    if isinstance(exc, UndefinedNameError) and args.static_module is not None:
        exc = _needs_import(exc, args.static_module)
    if isinstance(exc, SymdiffError):
        text = str(exc)
        return text if exc.filename is not None else f"symdiff: error: {text}"
    hint = "" if args.debug else " (run with --debug for the traceback)"
    return f"symdiff: error: {type(exc).__name__}: {exc}{hint}"


def _needs_import(exc, module):
    """An undefined global, explained: it can only be known by running the module."""
    match = re.match(r"the name (\w+) is not defined", exc.message)
    if match is None:
        return exc
    name = match.group(1)
    line = module.skipped.get(name)
    left_out = module.left_out.get(name, (None, None))[1]
    if left_out is not None:
        message = f"the name {name} can only be known by running the module: {left_out}"
    elif line is not None:
        message = (f"the name {name} can only be known by running the module (line {line} "
                   "sets it, and symdiff reads the file without running it)")
    else:
        message = (f"the name {name} can only be known by running the module: it is not "
                   "defined by anything symdiff reads without running it")
    return SymdiffError(message, filename=exc.filename, lineno=exc.lineno,
                        col_offset=exc.col_offset, source_line=exc.source_line,
                        hint="pass --import to import the module instead")
