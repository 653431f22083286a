"""Reports: the calls of a function that only print, log or warn, which the sympy witness
steps over (they have no value to differentiate; the function still makes them when the
other witnesses run it).

Expects the interpreter (its ``eval``) and an expression; guarantees ``reported``.
"""

import ast
import logging
import warnings

from symdiff.errors import SymdiffError

_LOG_LEVELS = frozenset(("debug", "info", "warning", "error", "critical", "exception", "log"))


def reported(reader, node):
    """Whether ``node`` is a call that only reports (see ``reports``)."""
    if not isinstance(node, ast.Call):
        return False
    try:
        return reports(reader.eval(node.func))
    except SymdiffError:  # a callee the witness does not read: not a report it knows
        return False


def reports(func):
    """Whether ``func`` only prints, logs or warns: ``print``, ``warnings.warn``, a
    ``logging.Logger``'s (or adapter's) methods and ``logging``'s functions of the same
    names."""
    if func is print or func is warnings.warn:
        return True
    if getattr(func, "__name__", None) not in _LOG_LEVELS:
        return False
    owner = getattr(func, "__self__", None)
    return isinstance(owner, (logging.Logger, logging.LoggerAdapter)) or (
        getattr(logging, func.__name__, None) is func)
