"""Array rows: what ``check`` does differently where a differentiated argument holds arrays.

Expects a point whose differentiated parameters hold NumPy float arrays (alone or in
lists and dicts), the gradients the generated code and the tape gave there, and the
user's function.  Guarantees:

- ``holds_arrays(point, indices)``: whether any of those arguments holds a float array
  (``check`` treats a point as one with arrays where any argument does, data too);
- ``tape_at(by_tape, point, names, kwargs)``: the tape's gradients, or ``NOT_AVAILABLE``
  per parameter (with the reason) where the tape engine raises on arrays: a column the
  report shows as ``n/a (arrays)``, never a failure, so the comparison turns on by itself
  once the tape takes arrays;
- ``element_status``: a row's status: as ``statuses.status`` says where the tape ran
  (sympy too, where it took the point); else sympy, where it took the point, and steady
  finite differences decide: an estimate that differs from the generated element fails
  the row; tolerances are float32's for a float32 array;
- ``direction_rows(...)``: one row per random direction and array parameter, ``W along
  v1``, the generated gradient's inner product with the direction against the
  directional derivative by central differences (and the tape's and sympy's where
  available).

    check(layer, (W, b, X), wrt=("W", "b")) rows: W[0, 0] ... b[1], W along v1 ... b along v3
"""

import math

from symdiff.checking.arrays import is_float_array
from symdiff.checking.directions import (directional_difference, inner, random_directions,
                                         single)
from symdiff.checking.leaf_rows import structure_problem
from symdiff.checking.leaves import is_container, leaves, number_leaf
from symdiff.checking.report import NOT_AVAILABLE, NotAvailable, Raised, Row
from symdiff.checking.statuses import close, status
from symdiff.errors import InternalError

DIRECTIONS = 3  # random directions per array parameter and point


def holds_arrays(point, indices):
    """Whether a differentiated parameter of ``point`` holds a float array."""
    for index in indices:
        value = point[index]
        pairs = leaves(value) if is_container(value) else [((), value)]
        if any(is_float_array(leaf) for _, leaf in pairs):
            return True
    return False


def tape_at(by_tape, point, names, kwargs):
    """``(the tape's gradients, None)`` or ``(NOT_AVAILABLE per parameter, the reason)``."""
    try:
        return tuple(by_tape(*point, **kwargs)), None
    except InternalError:
        raise
    except Exception as exc:  # the tape engine without arrays: a column left out
        return (NOT_AVAILABLE,) * len(names), f"{type(exc).__name__}: {exc}"


def element_status(gen, tap, sym, fd, rtol, atol, like, rule_wrong=False):
    """A status for one number of an array parameter (``like`` is that parameter; ``sym``
    None where sympy did not take the point): as ``status`` says where the tape ran;
    else sympy and steady finite differences decide."""
    if single(like):
        rtol, atol = max(rtol, 1e-4), max(atol, 1e-5)
    if isinstance(gen, Raised) or not isinstance(tap, NotAvailable):
        return status(gen, tap, sym, fd, rtol, atol, rule_wrong)
    if sym is not None and not close(gen, sym, rtol, atol):
        return "sympy differs"
    fd_rtol, fd_atol = (2e-2, 2e-3) if single(like) else (1e-4, 1e-6)
    estimate, steadiness = fd
    if steadiness == "undefined":
        return "ok (finite differences undefined here: a step leaves the domain or the reals)"
    if close(gen, estimate, fd_rtol, fd_atol):
        return "ok"
    if steadiness == "unsteady":
        return "ok (finite differences ill-conditioned here)"
    return "finite differences differ"


def direction_rows(fn, point, names, indices, gen, tap, sym, sympy_status, settings):
    """The rows ``W along v1`` ... of each array parameter (see the module); ``settings``
    is (directions per parameter, seed, rtol, atol)."""
    count, seed, rtol, atol = settings
    rows = []
    for k, (name, index) in enumerate(zip(names, indices)):
        value = point[index]
        if not holds_arrays(point, [index]) or isinstance(gen[k], Raised) or (
                structure_problem(gen[k], value, name)):  # its element rows say so
            continue
        for j, v in enumerate(random_directions(value, count, seed + 7919 * k), start=1):
            generated = inner(gen[k], v)
            taped = tap[k] if isinstance(tap[k], (NotAvailable, Raised)) else (
                math.nan if structure_problem(tap[k], value, name) else inner(tap[k], v))
            symbolic = None if sym[k] is None or structure_problem(sym[k], value, name) else (
                inner(sym[k], v))
            fd = directional_difference(fn, point, index, v)
            said = element_status(generated, taped, symbolic, fd, rtol, atol, value)
            rows.append(Row(point, f"{name} along v{j}", generated, taped, symbolic, fd[0],
                            said, sympy_status if symbolic is not None else "not used"))
    return rows


def summary(point, names, indices, places, sample_note, tape_reason, count, sympy_status):
    """The notes saying what was compared at a point with arrays."""
    parts = []
    for name, index in zip(names, indices):
        value = point[index]
        pairs = leaves(value) if is_container(value) else [((), value)]
        if not any(is_float_array(leaf) for _, leaf in pairs):
            continue
        total = sum(leaf.size if is_float_array(leaf) else 1 for _, leaf in pairs
                    if is_float_array(leaf) or number_leaf(leaf))
        shown = sum(1 for n, _, _ in places if n == name)
        kind = "float32" if single(value) else "float64"
        parts.append(f"{name} ({kind}): {shown} of its {total} numbers one by one and "
                     f"{count} random directions")
    notes = ["arrays compared with central differences: " + "; ".join(parts) if parts else
             "compared with central differences (the point holds arrays)"]
    notes += [sample_note] if sample_note else []
    if tape_reason:
        notes.append(f"tape: not available for arrays ({tape_reason})")
    if sympy_status == "ok":
        notes.append("sympy: took the point, its arrays element by element")
    return notes
