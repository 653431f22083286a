"""Array indexing: ``x[i]``, ``x[:, j]``, ``x[1:-1]``, ``x[:, None]``, ``x[mask]``,
``x[idx]`` as one record per pattern of index.

Expects an index's pattern (``index_pattern``: what each part of the index is) from
lowering.  Guarantees one record per pattern (``index_op`` names it, ``index_record``
gives it), whose operands are the array and the index's operands in order, whose type
rule follows NumPy's basic and (one-axis, adjacent) advanced indexing, and whose VJP
is ``Scattered``: zeros of the array's shape with the adjoint at the index, added in
place into the array's adjoint (``numpy.add.at`` where integer arrays may repeat a
position).

    X[:, 0]      ->   getitem of pattern (("s", False, False, False), "v")
                      forward X[:, i0];  reverse dX[:, 0] += g
"""

from dataclasses import dataclass, replace

from symdiff.core import types as t
from symdiff.primitives.broadcasting import Text, Unbroadcast
from symdiff.primitives.record import primitive
from symdiff.primitives.tangents import linear
from symdiff.primitives.texts import instantiate


@dataclass(frozen=True)
class Scattered:
    """Zeros of an array's shape but ``value`` at ``index`` (an IR index expression): what
    the adjoint of an indexed read adds back, in place into the adjoint (``repeats``:
    an index of integer arrays, whose positions may repeat: ``numpy.add.at``)."""

    index: object
    value: object
    repeats: bool

    def expressions(self):
        """The IR expressions it reads (what ``derivatives.reads`` walks)."""
        return (self.index, self.value)


def index_pattern(parts):
    """The pattern of an index: for each part, ``"v"`` (an operand: an integer, or an
    array of integers or booleans, as its type says), ``"n"`` (``None``), ``"e"``
    (``...``) or ``("s", lower, upper, step)`` (a slice, each bound True where an
    operand gives it), ``("s", lower, upper, step, width)`` where the bounds are the
    same value apart by the integer ``width`` (``k:k + 1``, ``i - 2:i``)."""
    return tuple(parts)


_INDEX_OPS = {}  # pattern -> the name of its record's op, ``getitem_<k>``
_INDEX_RECORDS = {}  # that name -> the record


def index_op(pattern):
    """The op reading an index of ``pattern`` (one record per pattern, made once)."""
    if pattern not in _INDEX_OPS:
        name = f"getitem_{len(_INDEX_OPS)}"
        _INDEX_OPS[pattern] = name
        _INDEX_RECORDS[name] = index_operation(pattern)
    return _INDEX_OPS[pattern]


def index_record(op):
    """The record of ``index_op``'s ``op``; None for another op."""
    return _INDEX_RECORDS.get(op)


def index_operation(pattern):
    """The record reading ``x[index]`` for an index of ``pattern`` (``index_pattern``):
    its operands are ``x`` and the index's operands, in order."""
    params = ("x",) + _operands(pattern)
    names, text = iter(params[1:]), []
    for part in pattern:
        if part == "v":
            text.append(next(names))
        elif part in ("n", "e"):
            text.append("None" if part == "n" else "...")
        else:
            lower, upper, step = (next(names) if present else "" for present in part[1:4])
            text.append(f"{lower}:{upper}" + (f":{step}" if step else ""))
    forward = f"x[{', '.join(text)}]"
    made = replace(primitive("getitem", forward, (None,) * len(params), None,
                             params=params, ints=params[1:], bridge=forward, cheap=True,
                             scatters=not _only_new_axes(pattern)),
                   array_result=_indexed(pattern), array_vjp=_index_vjp(pattern))
    return replace(made, array_jvp=linear().of(made))  # ``dx[index]``


def _operands(pattern):
    """The names of an index's operands, in order: ``i0``, ``i1``, ..."""
    count = sum(1 for p in pattern if p == "v") + sum(
        sum(1 for b in p[1:4] if b) for p in pattern if isinstance(p, tuple))
    return tuple(f"i{k}" for k in range(count))


def _indexed(pattern):
    """The type rule of ``x[index]``: an integer takes its axis out, a slice keeps it
    (of size one where ``x``'s was, or where its bounds make it so: ``:1``, ``-1:``,
    ``2:3``, ``_one_at_most``), ``None`` puts one of size one in, ``...`` stands for the
    axes the others leave; integer arrays of one axis, next to each other, give one axis
    where they stand (a boolean mask: one axis for its own)."""
    def rule(args, consts):
        x = args[0] if args else None
        if not isinstance(x, t.Array) or None in args:
            return None
        consts = tuple(consts[1:]) + (None,) * (len(args) - len(consts))
        units, position, ndim, block = [], 0, 0, None
        for (part, operands), (_, given) in zip(_parts(pattern, args[1:]),
                                                _parts(pattern, consts)):
            if part == "n":
                units.append(ndim)
                ndim += 1
            elif part == "e":
                for _ in range(x.ndim - _explicit(pattern, args[1:])):
                    units += [ndim] if position in x.unit_axes else []
                    position, ndim = position + 1, ndim + 1
            elif part == "v" and not isinstance(operands[0], t.Array):
                position += 1  # an integer
            elif part == "v":
                index = operands[0]
                if index.ndim != 1 and index.dtype != "bool" or block not in (None, ndim - 1):
                    return None  # of several axes, or advanced indices apart: not read here
                if block is None:
                    block, ndim = ndim, ndim + 1
                position += index.ndim if index.dtype == "bool" else 1
            else:  # a slice
                units += [ndim] if position in x.unit_axes or _one_at_most(part, given) else []
                position, ndim = position + 1, ndim + 1
        if position > x.ndim:
            return None
        for axis in range(position, x.ndim):  # the axes the index leaves out
            units += [ndim] if axis in x.unit_axes else []
            ndim += 1
        return t.Array(x.dtype, ndim, tuple(units)) if ndim else t.NUMPY_FLOAT
    return rule


def _one_at_most(part, given):
    """Whether a slice ``part`` whose operands are the constants ``given`` (None where
    not one) keeps at most one place of an axis of any size, and one of some: an axis
    of size one.  Bounds ``width`` apart, ``k:k + width:step``, keep at most
    ``ceil(width / step)`` places, whatever ``k`` is.  Constant bounds: past ``|lower| + |upper| + 3 |step|``
    each bound stands at a fixed place or at a fixed distance from the end, so the size
    of what it keeps grows with the axis's or no longer changes: the sizes up to there
    decide."""
    bounds, values = iter(given), []
    for present in part[1:4]:
        values.append(next(bounds) if present else None)
    lower, upper, step = values
    if len(part) > 4 and (step is None or type(step) is int and step > 0):
        return 1 <= part[4] <= (step or 1)  # in a window of ``width`` places at most
    if not all(v is None or type(v) is int for v in values) or (
            values[:2] == [None, None] or step == 0):
        return False  # a bound the code computes, or the whole axis, or a step of zero
    last = sum(abs(v) for v in (lower, upper) if v is not None) + 3 * abs(step or 1) + 2
    sizes = {len(range(n)[lower:upper:step]) for n in range(last)}
    return max(sizes) == 1


def _parts(pattern, operands):
    """Each part of ``pattern`` with the operand types it takes."""
    operands = list(operands)
    for part in pattern:
        count = 1 if part == "v" else sum(part[1:4]) if isinstance(part, tuple) else 0
        yield part, operands[:count]
        operands = operands[count:]


def _explicit(pattern, operands):
    """How many of ``x``'s axes the parts of an index other than ``...`` take."""
    count = 0
    for part, taken in _parts(pattern, operands):
        if part == "v" and isinstance(taken[0], t.Array) and taken[0].dtype == "bool":
            count += taken[0].ndim
        elif part not in ("n", "e"):
            count += 1
    return count


def _index_vjp(pattern):
    if _only_new_axes(pattern):
        view = Text(_without_new_axes(pattern), ("x",))  # no operands: no bounds, no integers
        return lambda args, out: (view,) + (None,) * (len(args) - 1)

    def vjp(args, out):
        repeats = any(isinstance(a, t.Array) and a.dtype != "bool" for a in args[1:])
        return (_Scatter(pattern, repeats),) + (None,) * (len(args) - 1)
    return vjp


def _only_new_axes(pattern):
    """Whether an index only puts in axes of size one: ``None``s among whole slices and
    ``...`` (``x[:, None]``, ``x[None]``), a view of all of ``x``."""
    return "n" in pattern and all(part in ("n", "e") or part == ("s", False, False, False)
                                  for part in pattern)


def _without_new_axes(pattern):
    """The adjoint of a read of ``_only_new_axes``: ``g`` with the axes it put in taken
    out again, ``g[:, 0]`` for ``x[:, None]`` (they are of size one: exact, and a view)."""
    parts = ("0" if part == "n" else "..." if part == "e" else ":" for part in pattern)
    return f"g[{', '.join(parts)}]"


@dataclass(frozen=True)
class _Scatter:
    """The adjoint of ``x[index]``: ``g`` at ``index`` of zeros of ``x``'s shape."""

    pattern: tuple
    repeats: bool  # integer arrays among the index: positions may repeat

    def __call__(self, g, args, out, names):
        record = index_operation(self.pattern)
        subscript = instantiate(record.forward, record.params, args, out, names)
        return Scattered(subscript.index, g, self.repeats)


# --- writes: ``x[i] = v``, ``x[:, 0] += v``, as a new array ------------------------------

@dataclass(frozen=True)
class Zeroed:
    """The adjoint ``g`` of an array written at ``index``, with zeros there: what reaches
    the array before the write (the value written took those places)."""

    index: object
    value: object

    def expressions(self):
        """The IR expressions it reads (what ``derivatives.reads`` walks)."""
        return (self.index, self.value)


_WRITE_OPS = {}  # pattern -> the name of its write's op, ``setitem_<k>``
_WRITE_RECORDS = {}


def write_op(pattern):
    """The op writing ``x[index] = v`` for an index of ``pattern``: its value is a new
    array, ``x`` with ``v`` at ``index`` (generated code copies, then writes: the array
    the caller passed is never changed, and the values saved for the reverse stay)."""
    if pattern not in _WRITE_OPS:
        name = f"setitem_{len(_WRITE_OPS)}"
        _WRITE_OPS[pattern] = name
        read = index_operation(pattern)
        params = ("x", "v") + read.params[1:]
        text = read.forward  # ``x[i0, :]``
        _WRITE_RECORDS[name] = replace(
            primitive("setitem", text, (None,) * len(params), None, params=params,
                      ints=params[2:], bridge=text),
            array_result=_written, array_vjp=_write_vjp(pattern, text, params), writes=True,
            array_jvp=_write_jvp(text, params))
    return _WRITE_OPS[pattern]


def write_record(op):
    return _WRITE_RECORDS.get(op)


def _written(args, consts):
    return args[0] if args and isinstance(args[0], t.Array) else None


def _write_vjp(pattern, text, params):
    def vjp(args, out):
        region = _indexed(pattern)((args[0],) + tuple(args[2:]), ())
        value = Text("g" + text[1:], params)
        if isinstance(region, t.Array):
            value = Unbroadcast(value, args[1], region)
        return (_Zero(text, params), value) + (None,) * (len(args) - 2)
    return vjp


def _write_jvp(text, params):
    """The tangents of ``x[index] = v``: ``x``'s with the index's places taken
    (``Zeroed``), ``v``'s at them (``Scattered``); forward mode writes them as one new
    array, ``dx`` copied (or zeros) with ``dv`` (or zero) at the index."""
    def jvp(args, out):
        return (_Zero(text, params), _Put(text, params)) + (None,) * (len(args) - 2)
    return jvp


@dataclass(frozen=True)
class _Put:
    """The tangent ``g`` of ``v`` put at the index; with ``adds``, added there (positions
    repeating add again)."""

    text: str
    params: tuple
    adds: bool = False

    def __call__(self, g, args, out, names):
        read = instantiate(self.text, self.params, args, out, names)
        return Scattered(read.index, g, self.adds)


@dataclass(frozen=True)
class _Zero:
    text: str
    params: tuple

    def __call__(self, g, args, out, names):
        read = instantiate(self.text, self.params, args, out, names)
        return Zeroed(read.index, g)


# --- ``numpy.add.at(x, index, v)``: ``v`` added at ``index``, as a new array --------------

_ADD_OPS = {}  # pattern -> the name of its op, ``add_at_<k>`` (its record among the writes')


def add_at_op(pattern):
    """The op of ``numpy.add.at(x, index, v)`` for an index of ``pattern``: its value is
    a new array, ``x`` with ``v`` added at ``index``, once for each time a position
    repeats (generated code copies, then adds, as for a write).  The adjoint passes to
    ``x`` whole and to ``v`` read at the index; the tangent is ``dx`` with ``dv`` added
    at the index the same way."""
    if pattern not in _ADD_OPS:
        name = f"add_at_{len(_ADD_OPS)}"
        _ADD_OPS[pattern] = name
        read = index_operation(pattern)
        params = ("x", "v") + read.params[1:]
        text = read.forward  # ``x[i0, i1]``: the index, as a write's
        _WRITE_RECORDS[name] = replace(
            primitive("add_at", text, (None,) * len(params), None, params=params,
                      ints=params[2:], bridge=text),
            array_result=_written, array_vjp=_add_vjp(pattern, text, params), writes=True,
            array_jvp=_add_jvp(text, params))
    return _ADD_OPS[pattern]


def adds_at(op):
    """Whether ``op`` is one of ``add_at_op``'s: a write that adds where it writes."""
    return op in _ADD_OPS.values()


def _add_vjp(pattern, text, params):
    def vjp(args, out):
        region = _indexed(pattern)((args[0],) + tuple(args[2:]), ())
        value = Text("g" + text[1:], params)
        if isinstance(region, t.Array):
            value = Unbroadcast(value, args[1], region)
        return (Text("g", params), value) + (None,) * (len(args) - 2)
    return vjp


def _add_jvp(text, params):
    def jvp(args, out):
        return (Text("g", params), _Put(text, params, adds=True)) + (None,) * (len(args) - 2)
    return jvp
