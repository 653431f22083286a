"""Debug: each pipeline stage's result, printed as ``symdiff ... --debug`` runs it.

Expects the stage names and values ``symdiff.pipeline.generate`` hands its ``debug``
callable.  Guarantees one block per stage on stderr, headed ``# --- after <stage> ---``:
the lowered program as the IR printer writes it (``symdiff.ir.printer``: ids and types),
the generated function's tree as the emitter prints it (comments included), the
emitted text, and for the other stages what ``ir.printer.stage_text`` shows.  stdout is
left alone, so ``symdiff show --debug f.py:f > grad.py`` still writes only the module.
"""

import ast
import sys

from symdiff.backend.printer import default_printer, print_function
from symdiff.ir.printer import stage_text


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
