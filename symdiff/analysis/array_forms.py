"""Array forms: the located error for a call of an array operation on arguments its
type rule gives no value for (``np.trace`` of a vector, ``np.dot`` of arrays of three
axes), once every variable's type is known.

Expects a ``Program`` whose ``types`` the inference set.  Guarantees it returns
nothing where every array operation it checks (``registry.array_checked``) with typed
arguments has a result type, and
raises an ``UnsupportedSyntaxError`` at the user's line otherwise, naming the
operation and its arguments' types, with the record's hint (``registry.array_hint``).

    np.trace(v)    (v a vector)   ->  f.py:3:11: numpy.trace of array[float64, 1, ()] is
                                      not supported — it takes a matrix (an array of 2 axes)

``alike_arrays`` is the located error of the inference where one variable would hold
arrays of unlike kinds (a name a loop carries, or one a branch assigns, given a vector
here and a matrix there).
"""

from symdiff.analysis.held_types import unlike_items
from symdiff.core import types as t
from symdiff.core.records import Row
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.primitives.reductions import SIDED
from symdiff.primitives.registry import array_checked, array_hint


def refuse_array_forms(program):
    for stmt in ir.walk(program.body):
        if isinstance(stmt, ir.Assign) and program.types.get(stmt.target) is None:
            _refuse(program, stmt)
        elif isinstance(stmt, ir.Reduce) and program.types.get(stmt.target) is None:
            _refuse_reduction(program, stmt)
        elif isinstance(stmt, ir.Build):
            _refuse_unlike(program, stmt)


def _refuse_unlike(program, stmt):
    """A list written out of an array and a number, or arrays of unlike kinds (unless
    typed element by element: read at constant positions only)."""
    if isinstance(program.types.get(stmt.target), Row):
        return
    found = unlike_items(stmt, lambda a: program.types.get(a.name) if isinstance(
        a, ir.Var) else t.of_value(a.value))
    if found is not None:
        origin = stmt.origin
        raise UnsupportedSyntaxError(
            "a list of unlike elements (" + ", ".join(dict.fromkeys(map(str, found))) + ")",
            filename=origin.filename, lineno=origin.lineno, col_offset=origin.col_offset,
            source_line=origin.line, hint="make its elements alike, or write a tuple")


_SIDED_NUMBERS = {"vstack": "np.stack(xs)[:, None]", "column_stack": "np.stack(xs)[None, :]"}


def _refuse_reduction(program, stmt):
    """A reduction of a list the types give no value for: ``np.stack`` of a list of
    numbers, of arrays of unlike numbers of axes, ``max`` of arrays."""
    kind = program.types.get(stmt.container)
    shown = f"numpy.{stmt.op}" if stmt.axis is not None else f"{stmt.op}()"
    hint = (f"np.{stmt.op} of a list of float arrays of one number of axes, along an axis "
            "they have (np.stack(xs) of a list of numbers)") if stmt.axis is not None else (
        "sum the arrays, or reduce each array with np.max / np.min")
    if stmt.op in SIDED:
        hint = (f"np.{stmt.op} of a list of float arrays of one axis or more, alike; of "
                f"numbers, {_SIDED_NUMBERS[stmt.op]}")
    origin = stmt.origin
    raise UnsupportedSyntaxError(
        f"{shown} of a {kind} is not supported", filename=origin.filename,
        lineno=origin.lineno, col_offset=origin.col_offset, source_line=origin.line,
        hint=hint)


def _refuse(program, stmt):
    try:
        rule = program.rule(stmt.op)
    except KeyError:
        return
    if rule.array_result is None or not array_checked(stmt.op):
        return
    kinds = [program.types.get(a.name) if isinstance(a, ir.Var) else None
             for a in stmt.args]
    if any(isinstance(a, ir.Var) and k is None for a, k in zip(stmt.args, kinds)):
        return  # not known: ``check_program`` reports it
    shown = ", ".join(str(k) for k in kinds if k is not None) or "constants"
    origin = stmt.origin
    raise UnsupportedSyntaxError(
        f"{_shown(rule)} of {shown} is not supported",
        filename=origin.filename, lineno=origin.lineno, col_offset=origin.col_offset,
        source_line=origin.line, hint=array_hint(stmt.op))


def _shown(rule):
    """The name a user calls ``rule`` by: ``numpy.trace``, ``scipy.special.logsumexp``,
    ``transpose`` (with axes), ``concatenate`` (of its count of arrays)."""
    if rule.numpy:
        return f"numpy.{rule.numpy[0]}"
    if rule.scipy:
        return f"scipy.special.{rule.scipy[0]}"
    head, _, count = rule.name.rpartition("_")
    name = head if count.isdigit() else rule.name
    return "numpy." + {"transpose_axes": "transpose"}.get(name, name).removeprefix("array_")


def alike_arrays(stmt, held, given):
    """``held``, the type a variable holds, when ``stmt`` may give it a ``given`` too;
    an error at ``stmt`` when both are arrays of unlike kinds (numbers of axes, floats
    and integers): in a loop or after a branch, a name has one kind."""
    if not (isinstance(held, t.Array) and isinstance(given, t.Array)) or (
            held.ndim == given.ndim and held.dtype.startswith("float") == (
                given.dtype.startswith("float"))):
        return held
    origin = stmt.origin
    raise UnsupportedSyntaxError(
        f"this assigns an {given} to a name that holds an {held} elsewhere in a loop or "
        "after a branch", filename=origin.filename, lineno=origin.lineno,
        col_offset=origin.col_offset, source_line=origin.line,
        hint="give each kind of array a name of its own")
