"""The records of container operations (element reads, builds, joins, slices, lists bound
again), stated as ``sin``'s is; the reductions' are ``primitives.container_reductions``,
the changes' (``xs[i] = v``, ``append``, ``pop``) ``primitives.changes``.

Expects nothing.  Guarantees a frozen ``Operation`` per container operation symdiff
differentiates by a record (``SHARE``;
``item_operation``, ``build_operation``, ``join_operation`` and ``take_operation``, made
from the static parameters of an ``Item``, ``Build``, ``Join`` or ``Take``: the depth
read, the places built, the parts' shapes, the copy; ``registry.operation_of`` picks
a statement's): its operands (``params``), its type rule
(``result``: the type of its value from its container's type, see ``core.types``), and
one VJP and one JVP builder per operand, as a scalar record's (``derivatives``):
``builder(g, args, out, names) -> value`` over IR expressions, ``None`` for zero.
What a VJP gives a container is a value of the container's shape, said sparsely:

- ``At(path, value)``: zeros but ``value`` at one place (``y = xs[i]``: ``dxs[i] += g``);
- ``Each(value)``: ``value`` at every place, ``value`` reading the position as the
  placeholder ``POSITION`` (``t = sum(xs)``: ``g`` at each; ``math.prod``: the product of
  the others);
- ``Scattered(positions, value)``: ``value``'s elements at the places ``positions``
  names (``tail = xs[1:]``: ``dtail[k]`` at ``range(len(xs))[1:][k]``).

Reverse mode adds such a value into a container's adjoint (one place, or a loop over
every place), forward mode reads the JVP as it is (``dy = dxs[i]``, ``dt = sum(dxs)``;
a build's ``At`` values written out as the list ``[da, 0.0]``).  A record whose ``jvp``
is None has no forward rule yet (forward mode refuses it, as it did).

    item.vjp[0](Name("g"), (Name("xs"), Name("i")), Name("y"), None)
        ->  At((Name("i"),), Name("g"))
    item.jvp[0](Name("dxs"), (Name("xs"), Name("i")), Name("y"), None)
        ->  Subscript(Name("dxs"), Name("i"))
"""

from dataclasses import dataclass

from symdiff.core import expr as ex
from symdiff.core import types as t

POSITION = ex.Name("\0position")  # the position an ``Each`` value reads, as a placeholder


@dataclass(frozen=True)
class At:
    """Zeros of a container's shape, but ``value`` at ``path`` (index expressions)."""

    path: tuple
    value: object


@dataclass(frozen=True)
class Each:
    """``value`` at every place of a flat container (``POSITION``: the place's index);
    ``shared``: ``(placeholder, expression)`` pairs ``value`` reads, each computed once
    before the places are visited; ``running``: a ``Running`` offset ``value`` reads
    (where each part of a concatenation starts and ends), or None."""

    value: object
    shared: tuple = ()
    running: object = None


@dataclass(frozen=True)
class Running:
    """An offset running over the places: ``start`` is ``first`` at the first place,
    ``end`` is ``start + step`` at each (``step`` may read ``POSITION``), and each
    place's ``end`` the next one's ``start``:

        parts_start = 0
        for i in range(len(parts)):
            parts_end = parts_start + parts[i].shape[1]
            dparts[i] += g[:, parts_start:parts_end]
            parts_start = parts_end
    """

    start: object  # placeholders (``ex.Name``) the value reads
    end: object
    first: object
    step: object


@dataclass(frozen=True)
class Scattered:
    """Zeros of a flat container's shape, plus the ``k``-th element of ``value`` (a
    list) at place ``positions[k]`` (``positions``: an expression of a list of ints)."""

    positions: object
    value: object


@dataclass(frozen=True)
class Operation:
    name: str
    params: tuple  # what the builders' ``args`` hold, in order
    result: object  # type rule: (the container's type, the path's constant indices) -> type
    vjp: tuple  # one builder per parameter (None: zero)
    jvp: tuple  # ... (the whole None: forward mode has no rule for it yet, see ``note``)
    note: str = ""


def _named(names, name):
    """The expression generated code calls the builtin ``name`` by (its alias, if any)."""
    found = names(name) if names is not None else None
    return found if found is not None else ex.Name(name)


def _math(names, name):
    module = names("math") if names is not None else None
    return ex.Attribute(module if module is not None else ex.Name("math"), name)


def _element_type(kind, path):
    """The type of ``kind[i][j]...`` for the constant indices of ``path`` (None: one
    known when the gradient runs); None where the types do not decide it."""
    for index in path:
        kind = _element(kind, index)
    return kind


def _element(kind, index):
    if isinstance(kind, t.List):
        return kind.elem
    if isinstance(kind, t.Tuple) and isinstance(index, int):
        return kind.elts[index] if -len(kind.elts) <= index < len(kind.elts) else None
    if isinstance(kind, (t.Tuple, t.Dict)):
        values = dict(kind.items) if isinstance(kind, t.Dict) else None
        if values is not None and index is not None:
            return values.get(index)
        elts = set(kind.elts if values is None else values.values())
        if elts == {t.INT, t.FLOAT} and values is not None:
            return t.FLOAT
        return elts.pop() if len(elts) == 1 else None
    return None


def _number(kind, path):
    """A sum or a product: an int of ints, else a float."""
    return t.INT if _reduced(kind, path) in (t.INT, t.BOOL) else t.FLOAT


def _reduced(kind, path):
    """The element a reduction of ``kind[path]`` returns (``min``, ``max``)."""
    return _element_type(kind, tuple(path) + (None,))


# --- element reads: ``y = xs[i][j]`` -------------------------------------------------------

def _item_vjp(g, args, out, names):
    return At(args[1:], g)


def _item_jvp(tangent, args, out, names):
    for index in args[1:]:
        tangent = ex.Subscript(tangent, index)
    return tangent


def item_operation(depth):
    """The record of an element read ``depth`` indices deep (the indices: no derivative)."""
    return Operation("item", ("container",) + tuple(f"index{i}" for i in range(depth)),
                     _element_type, (_item_vjp,) + (None,) * depth,
                     (_item_jvp,) + (None,) * depth)


# --- builds: ``ys = [a, (b, c)]``, ``{"w": a}``, ``[a] * n`` ------------------------------

def _leaf_vjp(path):
    def vjp(g, args, out, names):
        for step in path:
            g = ex.Subscript(g, ex.Const(step))
        return g
    return vjp


def _leaf_jvp(path):
    def jvp(tangent, args, out, names):
        return At(tuple(ex.Const(step) for step in path), tangent)
    return jvp


def _repeated_vjp(g, args, out, names):
    """``sum(g)`` of the adjoints of ``[v] * n``; ``sum(g, 0.0)`` for a count known only
    when it runs, whose sum of no adjoint would be the int 0."""
    if isinstance(args[-1], ex.Const):
        return ex.Call(_named(names, "sum"), (g,))
    return ex.Call(_named(names, "sum"), (g, ex.Const(0.0)))


def _repeated_jvp(tangent, args, out, names):
    return ex.BinOp("*", ex.List((tangent,)), args[-1])


def _built(kind, path):
    return kind  # the container's type is the build's own (lowering gives it)


def leaf_paths(items, keys=(), path=()):
    """The places of the numbers a build's ``items`` hold (an item with ``items`` of
    its own is a container written out), in order: ``ir.nodes.literal_leaves``'s."""
    found = []
    for position, item in enumerate(items):
        step = path + (keys[position] if keys else position,)
        inner = getattr(item, "items", None)
        found += leaf_paths(inner, item.keys, step) if inner is not None else [step]
    return found


def build_operation(paths, repeat=False):
    """The record of a build of numbers at ``paths`` (constant indices and keys, as
    ``ir.nodes.literal_leaves`` gives them): an element's adjoint is the build's at its
    place, its tangent the build's tangent there; ``[a] * n`` (``repeat``: the last
    operand is ``n``, no derivative) gives ``a`` the sum of the adjoint, and the tangent
    ``[da] * n``."""
    if repeat:
        return Operation("build", ("item", "count"), _built, (_repeated_vjp, None),
                         (_repeated_jvp, None))
    return Operation("build", tuple(f"item{i}" for i in range(len(paths))), _built,
                     tuple(_leaf_vjp(p) for p in paths), tuple(_leaf_jvp(p) for p in paths))


# --- joins: ``zs = xs + [y] + ws`` ----------------------------------------------------------

def _offset(parts, names, args, upto):
    """Where part ``upto`` starts: the lengths of the parts before it, added (None: at 0);
    a container's is ``len`` of its operand, a literal's its count of items."""
    offset, arg = None, 0
    for part in parts[:upto]:
        if part is None:
            size, arg = ex.Call(_named(names, "len"), (args[arg],)), arg + 1
        else:
            size, arg = ex.Const(part), arg + part
        offset = size if offset is None else ex.BinOp("+", offset, size)
    return offset


def _after(offset, position):
    """``offset + position``, without a zero on either side (``offset`` None is zero)."""
    if offset is None:
        return position
    return offset if position == ex.Const(0) else ex.BinOp("+", offset, position)


def _part_vjp(parts, upto, position):
    def vjp(g, args, out, names):
        at = ex.Subscript(g, _after(_offset(parts, names, args, upto), position))
        return Each(at) if position is POSITION else at
    return vjp


def _part_jvp(part, kind):
    """A part's tangent as a stretch of the join's: a container's tangent as it is, an
    item's ``[dy]`` (``(dy,)`` in a tuple); the stretches, added in order, are the
    join's tangent (``dxs + [dy] + dws``)."""
    def jvp(tangent, args, out, names):
        if part is None:
            return tangent
        return (ex.Tuple if kind == "tuple" else ex.List)((tangent,))
    return jvp


def join_operation(parts, kind="list"):
    """The record of a join of ``parts``: None for a container (its operand: the
    container's place), or the count of items of a literal written out (its operands:
    its items).  A container's VJP is its stretch of the join's adjoint, element by
    element (``Each``: ``dzs[len(xs) + i]``); an item's, the adjoint at its place.  The
    JVPs are the stretches of the join's tangent (``_part_jvp``), read with every
    operand's tangent, zeros for one that has none: the join of ``kind`` ("list" or
    "tuple") is linear in them all at once."""
    vjp, jvp = [], []
    for upto, part in enumerate(parts):
        positions = [POSITION] if part is None else [ex.Const(i) for i in range(part)]
        vjp += [_part_vjp(tuple(parts), upto, p) for p in positions]
        jvp += [_part_jvp(part, kind)] * len(positions)
    return Operation("join", tuple(f"operand{i}" for i in range(len(vjp))), _built,
                     tuple(vjp), tuple(jvp))


# --- slices and copies: ``tail = xs[1:]``, ``list(xs)``, ``sorted(xs)`` ----------------

def sorted_positions(source, names, descending, keys=None):
    """``sorted(range(len(xs)), key=xs.__getitem__)``: where each number of ``sorted(xs)``
    came from, a stable sort of its positions (by ``keys``, a list's name, when given)."""
    every = ex.Call(_named(names, "range"), (ex.Call(_named(names, "len"), (source,)),))
    by = source if keys is None else ex.Name(keys)
    return ex.Call(_named(names, "sorted"), (every,), (
        ("key", ex.Attribute(by, "__getitem__")),) + (
        (("reverse", ex.Const(True)),) if descending else ()))


def _taken_vjp(copy, descending, keys):
    def vjp(g, args, out, names):
        source = args[0]
        every = ex.Call(_named(names, "range"), (ex.Call(_named(names, "len"), (source,)),))
        if copy == "sorted":  # where each number came from: a stable sort of positions
            every = sorted_positions(source, names, descending, keys)
        if copy is None:
            every = ex.Subscript(every, ex.Slice(*args[1:]))
        return Scattered(every, g)
    return vjp


def _taken_jvp(copy, descending, keys):
    def jvp(tangent, args, out, names):
        if copy is None:
            return ex.Subscript(tangent, ex.Slice(*args[1:]))
        if copy != "sorted":
            return ex.Call(_named(names, copy), (tangent,))
        at = free_name(args, "k")  # the tangents in the order the sort put the numbers
        order = sorted_positions(args[0], names, descending, keys)
        return ex.ListComp(ex.Subscript(tangent, ex.Name(at)), at, order)
    return jvp


def take_operation(copy=None, descending=False, keys=None):
    """The record of a slice (``copy`` None: its operands the container's place and the
    three bounds, None where left out) or a copy by ``list``, ``tuple`` or ``sorted``
    (``descending``: ``reverse=True``; ``keys``: the name of the list of keys it sorts
    by, ``key=...``): the container's VJP gives each number of the slice's adjoint back
    at the place it was taken from; its JVP is the same slice or copy of the tangent (for
    ``sorted``, the tangents in the sort's order of positions, ties as Python's stable
    sort puts them)."""
    params = ("container",) if copy is not None else ("container", "lower", "upper", "step")
    return Operation("take", params, _built, (_taken_vjp(copy, descending, keys),) + (
        None,) * (len(params) - 1), (_taken_jvp(copy, descending, keys),) + (
        None,) * (len(params) - 1))


def _positions(container, names):
    """``range(len(container))``."""
    return ex.Call(_named(names, "range"), (ex.Call(_named(names, "len"), (container,)),))


def free_name(exprs, stem):
    """``stem``, or ``stem_1``, ...: a name none of ``exprs`` reads (a comprehension's
    variable, which must not hide one of them)."""
    taken = set().union(*(ex.names(e) for e in exprs if e is not None))
    name, n = stem, 0
    while name in taken:
        n += 1
        name = f"{stem}_{n}"
    return name


# --- a name a loop carries bound again to a list: ``x = h`` -------------------------------

def _shared_vjp(g, args, out, names):
    return Each(ex.Subscript(g, POSITION))


def _shared_jvp(tangent, args, out, names):
    return tangent  # the same list, as the name is bound to it


SHARE = Operation("share", ("container",), _built, (_shared_vjp,), (_shared_jvp,))


def reads_position(value):
    """Whether an ``Each`` value (or the expression it holds) differs from place to
    place."""
    if isinstance(value, Each):
        return value.running is not None or reads_position(value.value)
    return POSITION.id in ex.names(value)
