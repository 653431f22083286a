"""The container statements of the normalized program (``symdiff.ir.nodes`` holds the
others and exports these too): a literal, an element read or replaced, a slice or copy,
a join, a name bound to a list a loop carries, and a reduction.  Each names its
container by its generated name; indices and numbers are operands (``ir.operands``).
"""

from dataclasses import dataclass

from symdiff.ir.operands import Origin


@dataclass(frozen=True)
class Ref:
    """A container, or a container inside one, bound to a user name without a copy: the
    generated ``container`` name and the ``path`` of index operands into it
    (``layer = layers[i]`` binds ``layer`` to ``Ref("layers", (Var("i"),))``).  Lowering
    holds them, and so do a ``Join``'s parts and a loop over a dict's keys (``For.over``)."""

    container: str
    path: tuple = ()


@dataclass(frozen=True)
class Literal:
    """A container written out inside another one (``[(a, b), (c, d)]``): its kind,
    its items (operands, or literals again) and a dict's keys.  Only a ``Build``'s items
    hold one."""

    kind: str
    items: tuple
    keys: tuple = ()


@dataclass
class Build:
    """``target = [a, b]``, ``(a, b)`` or ``{"w": a, "b": b}`` (``kind`` "list", "tuple"
    or "dict"), or ``[a] * n`` (``repeat`` the operand ``n``): a container of operands."""

    target: str
    kind: str
    items: tuple  # operands (numbers) or ``Literal``s (containers written out), in order
    origin: Origin
    keys: tuple = ()  # a dict's constant keys, one per item
    repeat: object = None  # ``[a] * n``: the operand n
    sid: int = None  # the statement's id, unique within its Program
    maker: object = None  # a record's dict: the expression of its class, called by field


@dataclass
class Item:
    """``target = container[i][j]``: one number read out of a container; ``path`` holds
    the index operands (ints, or a dict's constant keys)."""

    target: str
    container: str
    path: tuple
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class SetItem:
    """``container[i] = value``: one number of a list replaced in place."""

    container: str
    path: tuple
    value: object
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class Share:
    """``target = container[i]...``: a name a loop carries bound again to a container of
    numbers (the same object, as Python binds it: ``x = h`` at the end of a layer)."""

    target: str
    container: str
    path: tuple
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class Take:
    """``target = container[lower:upper:step]``: a new list (or tuple) of some numbers of
    a list or tuple, as Python's slice makes one; a bound None is left out.  With
    ``copy``, the whole container copied by ``list``, ``tuple`` or ``sorted``
    (``descending``: ``sorted(..., reverse=True)``; ``keys``: the name of a list of one
    key per number, ``sorted(..., key=...)``, which orders them, stably, as Python's)."""

    target: str
    container: str
    path: tuple
    bounds: tuple  # (lower, upper, step): operands or None
    origin: Origin
    copy: str = None  # "list", "tuple" or "sorted"
    descending: bool = False
    keys: str = None
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class Join:
    """``target = a + b + ...``: a new list (``kind`` "list") or tuple ("tuple") of the
    numbers of ``parts``, in order, as Python's ``+`` of lists or tuples makes one.  A
    part is a container (a ``Ref``: its name and the path into it) or a ``Literal``
    written out (``xs + [y]``)."""

    target: str
    kind: str
    parts: tuple
    origin: Origin
    sid: int = None  # the statement's id, unique within its Program


@dataclass
class Reduce:
    """``target = sum(container)`` (``start``: ``sum(container, start)``), or ``fsum``,
    ``prod``, ``min``, ``max`` of the numbers of a list or tuple
    (``primitives.reductions``); or ``np.stack``, ``np.concatenate`` of a list of arrays
    along ``axis`` (``primitives.stacked``)."""

    target: str
    op: str
    container: str
    origin: Origin
    start: object = None
    path: tuple = ()  # of a container inside ``container``: its index operands
    sid: int = None  # the statement's id, unique within its Program
    axis: int = None  # a join's (stack, concatenate), from the front; None for the others
