"""Debug: each pipeline stage's result, printed as ``symdiff ... --debug`` runs it.

Expects the stage names and values ``symdiff.pipeline.generate`` hands its ``debug``
callable.  Guarantees one block per stage on stderr, headed ``-- stage <name>``: the
parsed function's place, the fenced source, the lowered program's signature and count
of statements, the generated function's tree as the emitter prints it (comments
included), and the emitted text.  stdout is left alone, so ``symdiff show --debug f.py:f > grad.py`` still
writes only the module.
"""

import ast
import sys

from symdiff.backend.printer import default_printer, print_function
from symdiff.ir import nodes as ir


def stage_printer(args):
    """The ``debug`` callable for ``args`` (None without ``--debug``)."""
    if not args.debug:
        return None
    return lambda stage, value: print_stage(stage, value, sys.stderr)


def print_stage(stage, value, stream):
    """Write one stage's block to ``stream``."""
    text = describe(value).rstrip("\n")
    stream.write(f"-- stage {stage}\n{text}\n" if text else f"-- stage {stage}\n")
    stream.flush()


def describe(value):
    """A stage's value as text."""
    if isinstance(value, str):
        return value
    if isinstance(value, ir.Program):
        return _program(value)
    if isinstance(value, ast.FunctionDef):  # a generated function, comments and all
        return "\n".join(print_function(value, default_printer()))
    name, filename = getattr(value, "name", None), getattr(value, "filename", None)
    if name is not None and filename is not None:  # the parsed function
        lineno = getattr(getattr(value, "tree", None), "lineno", "?")
        return f"{name} at {filename}:{lineno}"
    return ""


def _program(program):
    count = sum(1 for _ in ir.walk(program.body))
    return (f"{program.name}({', '.join(program.params)}): {count} statements, "
            f"result {getattr(program.result, 'name', program.result)!r}")
