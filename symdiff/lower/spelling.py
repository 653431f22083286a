"""Spelling: which operations of a normalized program compute as numpy does.

Expects the body of a ``Program`` whose primitive calls carry the family of names the
user called them by (``ir.Assign.family``: "math", "numpy", or None for Python's
operators and builtins).  Guarantees that an operator or builtin whose operand may be
a numpy scalar is marked "numpy" too: Python's ``/`` on ``np.float64`` gives ``inf``
where on floats it raises, so its partials must be computed by numpy as well (the
forward stays the user's operator, which computes as the function does).

    s = np.sin(x)              numpy (the user's call)
    q = s / y                  numpy: s is a numpy scalar, so q's partials are too
    r = math.cos(q)            math: math's functions return floats

A value is a numpy scalar when a numpy (or SciPy) call computed it, or an operator, ``abs``,
``max`` or ``min`` of one (through copies and lists too), found to a fixed point
so a loop's later iterations count; ``float``, ``int``, ``round`` and math's functions
return Python numbers.
"""

from dataclasses import replace

from symdiff.ir import nodes as ir
from symdiff.primitives.registry import arithmetic, keeps_operand_type


def mark_numpy_operations(body, numpy_name):
    """``body`` with the operators that may meet a numpy scalar marked as numpy's (new
    statements where they change; ``body`` itself is left as it was).  ``numpy_name`` is
    a function giving the name generated code calls numpy by, asked only if needed."""
    return _marked(body, _numpy_values(body), numpy_name)


def _marked(block, numpy_values, numpy_name):
    marked = []
    for stmt in block:
        if (isinstance(stmt, ir.Assign) and stmt.family is None and arithmetic(stmt.op)
                and any(isinstance(a, ir.Var) and a.name in numpy_values for a in stmt.args)):
            stmt = replace(stmt, family="numpy", module=numpy_name())
        elif isinstance(stmt, (ir.If, ir.For, ir.While)):
            blocks = {name: _marked(getattr(stmt, name), numpy_values, numpy_name)
                      for name in _BLOCKS[type(stmt)]}
            stmt = replace(stmt, **blocks)
        marked.append(stmt)
    return marked


_BLOCKS = {ir.If: ("body", "orelse"), ir.For: ("body",), ir.While: ("pre", "body")}


def _numpy_values(body):
    """The names (and lists) that may hold a numpy scalar somewhere in ``body``."""
    found = set()
    changed = True
    while changed:
        changed = False
        for stmt in ir.walk(body):
            if isinstance(stmt, ir.Assign):
                numpy = stmt.family == "numpy" or stmt.call is not None or (  # scipy's too
                    keeps_operand_type(stmt.op) and any(
                    isinstance(a, ir.Var) and a.name in found for a in stmt.args))
                name = stmt.target
            elif isinstance(stmt, ir.Push):
                numpy = isinstance(stmt.value, ir.Var) and stmt.value.name in found
                name = stmt.stack
            elif isinstance(stmt, ir.Pop):
                numpy, name = stmt.stack in found, stmt.target
            else:
                continue
            if numpy and name not in found:
                found.add(name)
                changed = True
    return found
