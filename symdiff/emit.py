"""Emit: the generated syntax tree -> module text.  The only module that imports astor.

Expects a ``Generated`` from ``differentiate`` (possibly optimized).  Guarantees
text that parses back to the same tree, with an ``import math`` line when the
code uses it, and comment lines where ``differentiate`` left comment markers:

    __symdiff_comment__('line 3: z = x * y')    ──emit──►    # line 3: z = x * y
"""

import ast
import re

import astor

from .differentiate import COMMENT

_MARKER = re.compile(r"^(\s*)" + COMMENT + r"\((.*)\)$")


def emit(generated):
    """The module text defining the generated function."""
    function = ast.fix_missing_locations(generated.function)
    module = ast.Module(body=[function], type_ignores=[])
    uses_math = any(isinstance(n, ast.Name) and n.id == generated.math_name
                    for n in ast.walk(function))
    text = astor.to_source(module, indent_with="    ")
    lines = [_comment_line(line) for line in text.splitlines()]
    header = []
    if uses_math:
        alias = "" if generated.math_name == "math" else f" as {generated.math_name}"
        header = [f"import math{alias}", "", ""]
    return "\n".join(header + lines) + "\n"


def _comment_line(line):
    match = _MARKER.match(line)
    if match is None:
        return line
    return f"{match.group(1)}# {ast.literal_eval(match.group(2))}"
