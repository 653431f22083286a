"""Emit: the generated syntax tree -> module text.  The only module that imports astor.

Expects a ``Generated`` from ``differentiate`` (possibly optimized).  Guarantees
text that parses back to the same tree, with an ``import math`` line when the
code uses it, and comment lines where ``differentiate`` left comment markers:

    __symdiff_comment__('line 3: z = x * y')    ──emit──►    # line 3: z = x * y
"""

import ast
import re

import astor

from .syntax import COMMENT

_MARKER = re.compile(r"^(\s*)" + COMMENT + r"\((.*)\)$")


def emit(generated):
    """The module text defining the generated function."""
    function = generated.function
    markers, comments = _number_comments(function)
    module = ast.Module(body=[function], type_ignores=[])
    uses_math = any(isinstance(n, ast.Name) and n.id == generated.math_name
                    for n in ast.walk(function))
    try:
        text = astor.to_source(module, indent_with="    ")
    finally:
        for marker, text_arg in zip(markers, comments):  # leave the input as it was
            marker.args = [ast.Constant(text_arg)]
    lines = [_comment_line(line, comments) for line in text.splitlines()]
    header = []
    if uses_math:
        alias = "" if generated.math_name == "math" else f" as {generated.math_name}"
        header.append(f"import math{alias}")
    for alias, builtin in generated.builtins.items():
        header.append(f"from builtins import {builtin} as {alias}")
    if header:
        header += ["", ""]
    return "\n".join(header + lines) + "\n"


def _number_comments(function):
    """Replace each marker's text by its number, so no marker line is ever wrapped."""
    markers, texts = [], []
    for node in ast.walk(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == COMMENT):
            markers.append(node)
            texts.append(node.args[0].value)
            node.args = [ast.Constant(len(texts) - 1)]
    return markers, texts


def _comment_line(line, comments):
    match = _MARKER.match(line)
    if match is None:
        return line
    return f"{match.group(1)}# {comments[int(match.group(2))]}"
