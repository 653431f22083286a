"""Arrays in the sweeps: what reverse mode writes for NumPy arrays besides each record's
builders.

Used by ``differentiate`` (``ad.reverse``).  Guarantees, for a program whose variables
include arrays (``Program.arrays``, the types of ``analysis.types``):

- the adjoint of an array parameter starts as ``np.zeros_like`` of it where a loop or
  branch accumulates into it (``array_zeros``), and so does the adjoint of an array read
  or written by index (``indexed_arrays``, ``indexed_zeros``, ``zero_of``): a buffer the
  reverse adds into (``dx[i] += g``, ``np.add.at`` where positions may repeat:
  ``scattered``) or zeroes at a written place (``zeroed``), never the number zero;
- the forward of ``x[i] = v`` makes a new array (``written``), so what the reverse
  saved of ``x`` stays as it was;
- a gradient of an array is an array (``as_array``), and a function returning an
  array is refused, located (``refuse_array_result``).

    X[:, 0] read            ->  dX = np.zeros_like(X)  ...  dX[:, 0] += dX_part
    X[rows] read            ->  np.add.at(dX, rows, dX_rows)

(A record that ``scatters``, ``np.take_along_axis``, adds into its operand's adjoint as a
read by index does.)
"""

from symdiff.ad.adjoints import accumulate
from symdiff.ad.environment import adjoint, builtin
from symdiff.ad.writer import operands
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.core.rewrite import breadth_first_names
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw
from symdiff.primitives.indexing import Scattered, Zeroed, adds_at
from symdiff.primitives.texts import instantiate


def differentiable(program, name):
    """Whether a parameter can carry a derivative: not an array of integers or booleans
    (read, never differentiated)."""
    kind = program.arrays.get(name)
    return kind is None or kind.dtype.startswith("float")


def array_zeros(env):
    """``{adjoint: numpy.zeros_like(name)}`` for the array parameters differentiated by
    and the arrays a loop carries: an adjoint a loop or branch accumulates into starts as
    zeros of its shape, so the gradient has it where no contribution reaches (a loop run
    no times), and a loop's reverse can multiply it by a matrix (``dP @ F``) in its first
    iteration.  (A carried array keeps its shape from one iteration to the next, so its
    value after the forward sweep gives it.)"""
    names = [p for p in env.wrt if p in env.program.arrays] + carried_arrays(env)
    return {env.names.derivatives[p]: zeros_like(env, p) for p in dict.fromkeys(names)
            if p in env.names.derivatives}


def carried_arrays(env):
    """The arrays of one axis or more that some loop reads on entry and assigns: their
    adjoints cross from one iteration's reverse to the one before."""
    types = env.program.types
    carried = []
    for stmt in env.defuse.statements:
        if isinstance(stmt, (ir.For, ir.While)):
            assigned = {n for b in ir.children(stmt) for n in ir.assigned_names(b)}
            carried += [name for name in sorted(env.defuse.live_in(stmt) & assigned)
                        if isinstance(types.get(name), t.Array) and types[name].ndim]
    return carried


def zeros_like(env, name):
    return ex.Call(ex.Attribute(ex.Name(env.program.numpy_name), "zeros_like"),
                   (ex.Name(name),))


def refuse_array_result(program):
    """A located error where the function returns an array: a gradient is of a number."""
    result = program.result
    kind = program.types.get(result.name) if isinstance(result, ir.Var) else None
    if isinstance(kind, t.Array) and kind.ndim:
        origin = program.origin
        raise UnsupportedSyntaxError(
            f"{program.name} returns an array of {kind.ndim} axes, not a number: a gradient "
            "is taken of one number", filename=origin.filename, lineno=origin.lineno,
            col_offset=origin.col_offset, source_line=origin.line,
            hint="return a number made of it (np.sum(...), np.mean(...), a loss)")


def written(env, stmt):
    """``y = x.copy()`` then ``y[index] = v``: the forward of ``x[index] = v`` (a new
    array, so what the reverse saved of ``x`` stays as it was); ``numpy.add.at(y,
    index, v)`` for ``numpy.add.at(x, index, v)``."""
    x, v, *index = operands(stmt)
    read = instantiate(env.program.rule(stmt.op).forward, env.program.rule(stmt.op).params,
                       (ex.Name(stmt.target), v, *index), None, None)
    copied = sw.Let(stmt.target, ex.Call(ex.Attribute(x, "copy")))
    if adds_at(stmt.op):
        return [copied, add_at(env, stmt.target, read.index, v)]
    return [copied, sw.Let(read, v)]


def add_at(env, d, index, value):
    """``numpy.add.at(d, index, value)``: ``value`` added at ``index`` of ``d`` in place,
    again for each time a position repeats."""
    at = ex.Attribute(ex.Attribute(ex.Name(env.program.numpy_name), "add"), "at")
    return sw.Do(ex.Call(at, (_held(d), as_value(env, index), value)))


def _held(d):
    """The adjoint ``d`` as an expression: its name's, or the place of a container's
    element (``dp['w']``, the adjoint of an array a dict holds)."""
    return ex.Name(d) if isinstance(d, str) else d


def zeroed(env, d, term):
    """``d += g`` with zeros at ``index``: the adjoint of an array before a write, from
    the one after it (a copy: ``g`` may be another adjoint's value)."""
    name = env.names.fresh(f"{d}_before" if isinstance(d, str) else "d_before")
    return [sw.Let(name, ex.Call(ex.Attribute(term.value, "copy"))),
            sw.Let(ex.Subscript(ex.Name(name), term.index), sw.ZERO),
            accumulate(d, ex.Name(name))]


def term_names(term):
    """The names a builder's contribution reads."""
    if isinstance(term, (Scattered, Zeroed)):
        return breadth_first_names(ex.Tuple((term.index, term.value)))
    return breadth_first_names(term)


def scattered(env, d, term):
    """``d[index] += value``, into the zeros the array's adjoint starts as
    (``indexed_zeros``); ``numpy.add.at`` where the index's positions may repeat."""
    if term.repeats:
        return add_at(env, d, term.index, term.value)
    return sw.AddTo(ex.Subscript(_held(d), term.index), term.value)


def as_value(env, index):
    """An index as a value a call takes: its slices as ``slice(lower, upper, step)``
    (``np.add.at(dx, (i, slice(None, None, -1)), g)``)."""
    parts = index.elts if isinstance(index, ex.Tuple) else (index,)
    made = tuple(ex.Call(ex.Name(builtin(env, "slice")), tuple(
        ex.Const(None) if b is None else b for b in (p.lower, p.upper, p.step)))
        if isinstance(p, ex.Slice) else p for p in parts)
    return ex.Tuple(made) if isinstance(index, ex.Tuple) else made[0]


def indexed_arrays(program):
    """The arrays read or written by index (``x[i]``, ``x[i] = v``): their adjoints are
    buffers the reverse adds into or zeroes at the index, never the number zero."""
    found = set()
    for stmt in ir.walk(program.body):
        if isinstance(stmt, ir.Assign) and isinstance(stmt.args[0] if stmt.args else None,
                                                      ir.Var) and (
                program.rule(stmt.op).writes or program.rule(stmt.op).scatters):
            found.update((stmt.args[0].name, stmt.target) if program.rule(stmt.op).writes
                         else (stmt.args[0].name,))
    return frozenset(found)


def zero_of(env, name):
    """What the adjoint of ``name`` starts anew as: zeros of its shape for an array read
    or written by index (``indexed_arrays``), else the number zero."""
    return zeros_like(env, name) if name in env.indexed else sw.ZERO


def indexed_zeros(env):
    """``d = numpy.zeros_like(x)`` for each active array ``x`` read by index: its adjoint
    is a buffer the gradient allocated, which the reverse of each read adds into."""
    found = {}
    for stmt in env.defuse.statements:
        if isinstance(stmt, ir.Assign) and env.program.rule(stmt.op).scatters and (
                stmt.target in env.active) and isinstance(stmt.args[0], ir.Var):
            found.setdefault(stmt.args[0].name, None)
    return [sw.Let(adjoint(env, x), zeros_like(env, x)) for x in found]


def as_array(env, name, node):
    """The gradient of an array parameter: an array of no axes stays one, of its dtype
    (a sum of its contributions is NumPy's scalar, of the dtype a float64 number met in
    them promotes a float32 one to: cast back)."""
    kind = env.program.arrays[name]
    if kind.ndim:
        return node
    numpy = ex.Name(env.program.numpy_name)
    made = ex.Call(ex.Attribute(numpy, "asarray"), (node,))
    if kind.dtype == "float64":
        return made
    return ex.Call(ex.Attribute(made, "astype"), (ex.Attribute(numpy, kind.dtype),))
