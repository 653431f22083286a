"""Debug: each pipeline stage's result, printed as ``symdiff ... --debug`` runs it.

Expects the stage names and values ``symdiff.pipeline.generate`` hands its ``debug``
callable.  Guarantees one block per stage on stderr, headed ``# --- after <stage> ---``:
the lowered program as the IR printer writes it (``symdiff.ir.printer``: ids and types),
the generated function's tree as the emitter prints it (comments included), the
emitted text, and for the other stages what ``stage_text`` shows (the sweeps as the Python
they stand for, a text as it is).  stdout is
left alone, so ``symdiff show --debug f.py:f > grad.py`` still writes only the module.
"""

import ast
import copy
import sys

from symdiff.backend.printer import default_printer, print_function
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.ir.printer import program_text
from symdiff.backend.to_python import function


def stage_printer(args):
    """The ``debug`` callable for ``args`` (None without ``--debug``)."""
    if not args.debug:
        return None
    return lambda stage, value: print_stage(stage, value, sys.stderr)


def print_stage(stage, value, stream):
    """Write one stage's block to ``stream``."""
    text = describe(value)
    stream.write(f"# --- after {stage} ---\n{text}" + ("" if text.endswith("\n") else "\n"))
    stream.flush()


def describe(value):
    """A stage's value as text."""
    if isinstance(value, ast.FunctionDef):  # a generated function, before it is emitted
        return "\n".join(print_function(value, default_printer())) + "\n"
    return stage_text(value)


def stage_text(value):
    """What ``symdiff show --debug`` prints for a stage's value: a program's text, a
    Python tree's code, or the text itself."""
    if isinstance(value, ir.Program):
        return program_text(value)
    if isinstance(value, ast.AST):  # the sweeps, before the back end prints them
        return ast.unparse(ast.fix_missing_locations(copy.deepcopy(value))) + "\n"
    if isinstance(value, sw.Function):  # the sweeps as IR: as the Python they stand for
        return stage_text(function(value))
    if isinstance(value, str):
        return value
    tree = getattr(value, "tree", None)  # the parsed function
    if isinstance(tree, ast.AST):
        return stage_text(tree)
    return f"{type(value).__name__}\n"
