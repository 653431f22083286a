"""The statements of generated code: what ``differentiate`` and ``forward`` write.

Expects expressions from ``symdiff.core.expr`` (frozen data, no Python syntax trees).
Guarantees plain statement classes for the forward and reverse sweeps, which
the optimizer rewrites, and ``backend.to_python`` lowers to the Python tree ``emit``
prints:

    Let(t, e)                 t = e         (t a name, or a place: ``xs[k] = e``)
    AddTo(d, e)               d += e        (in place for numbers and ``owned`` arrays;
                                             ``negate``: d -= e;
                                             d an adjoint's name, or a place: ``dxs[i] += e``)
    Do(e)                     e             (a call run for its effect)
    NewStack(s, push, pop)    s = []; push, pop = s.append, s.pop
    Push(push, e)             push(e)       (``method``: push.append(e), a list by name)
    Pop(t, pop)               t = pop()     (``method``: t = pop.pop(); t None: the value
                                             is dropped; t a tuple of names: a, b = pop(),
                                             the values of one pushed tuple)
    If(test, body, orelse)    if test: ... else: ...
    For(t, bounds, body)      for t in range(*bounds)   (``reverse``: reversed(range(...)))
                              (``over``, bounds empty: for t in over, a dict's keys)
    While(test, body)         while test: ...
    Try(body, catches, caught, error, raised)
                              try: ... except C_k as raised: caught = k; error = raised
                              (one clause per class expression of ``catches``, k from 1;
                              ``error`` None: the exception is not kept; then, in each
                              clause, ``cleanup``)
    Break(), Pass()
    Check(check)              an input check of the program (``ir.nodes.Check``), as written
    Comment(text)             # text        (ties the statements after it to a user line)
    Raise(e)                  raise e
    Return(e)                 return e
    Function(name, params, defaults, kwarg, body)

A target is a name (a ``str``) or a *place*: an ``core.expr.Subscript`` of a name
(``Subscript(Name("xs"), Name("k"))``).  Writing a place reads and partly writes its
container: it is never a copy, it defines nothing a later read of the container could
skip, and it stays as long as the container is needed (``target_name``, ``place_reads``).

``AddTo`` is the one way an adjoint accumulates: a pass can tell a contribution from
a definition without reading the shape of an expression.  ``For`` names ``range`` and
``reversed`` as builtins; ``to_python`` writes them as the generated code calls them.
"""

from dataclasses import dataclass, field

from symdiff.core import expr as ex


@dataclass
class Let:
    target: object  # a name, or a place (``core.expr.Subscript`` of a name)
    value: object
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class AddTo:
    target: object  # a name, or a place (``core.expr.Subscript`` of a name)
    value: object
    negate: bool = False  # ``target -= value``
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)
    owned: bool = False  # into an array only its target holds: in place (``optimize``)


@dataclass
class Do:
    value: object
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class NewStack:
    stack: str
    push: str
    pop: str
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class Push:
    stack: str  # the name called: a save stack's ``push``, or a list (``method``)
    value: object
    method: bool = False
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class Pop:
    target: object  # a name; a tuple of names (a pushed tuple, unpacked); None: dropped
    stack: str  # the name called: a save stack's ``pop``, or a list (``method``)
    method: bool = False
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class If:
    test: object
    body: list
    orelse: list = field(default_factory=list)
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class For:
    target: str
    bounds: tuple  # the arguments of ``range``
    body: list
    reverse: bool = False
    over: object = None  # an expression of a dict: the loop runs over its keys
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)
    loop: int = field(default=None, compare=False)  # the id of the user's loop it runs,
    # forward or back (``ad.control``): a loop and its reverse share it; None: not said


@dataclass
class While:
    test: object
    body: list
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)
    loop: int = field(default=None, compare=False)  # as ``For.loop``


@dataclass
class Try:
    body: list  # may stop part way, where a statement raises an exception a clause catches
    catches: tuple  # per clause, the expression of its class or classes
    caught: str  # set to the number of the clause that caught (from 1)
    error: str = None  # set to the exception caught, where something reads it
    raised: str = None  # the name each clause binds the exception to (with ``error``)
    cleanup: list = field(default_factory=list)  # what each clause runs after those
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class Break:
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class Pass:
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class Check:
    check: object  # an ``ir.nodes.Check``
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class Comment:
    text: str
    heading: bool = False  # the heading of the reverse sweep: where it begins
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class Raise:
    value: object
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class Return:
    value: object
    sid: int = field(default=None, compare=False)  # its id (``number_statements``)


@dataclass
class Function:
    name: str
    params: tuple
    defaults: tuple  # expressions, for the last parameters
    kwarg: str
    body: list
    types: dict = None  # every name the function binds -> its type (``core.types``; None:
    # nothing is known of it); set by ``analysis.sweep_types``
    last_id: int = 0  # the largest statement id given so far
    kwonly: tuple = ()  # the keyword-only parameters: the last of ``params``
    kw_defaults: tuple = ()  # their defaults, an expression or None (none) for each
    vararg: str = None  # the ``*args`` parameter: the last positional one, taken as ``*args``


_SIMPLE = frozenset((Let, AddTo, Do, NewStack, Push, Pop, Break, Pass, Check, Comment, Raise,
                     Return))  # the statements that hold no block (``blocks`` gives none)


def blocks(stmt):
    """The blocks nested directly in ``stmt``."""
    if isinstance(stmt, If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, Try):
        return [stmt.body, stmt.cleanup]
    if isinstance(stmt, (For, While, Function)):
        return [stmt.body]
    return []


def expressions(stmt):
    """The expressions ``stmt`` itself holds (a place's aside: ``evaluated`` has it)."""
    if isinstance(stmt, (Let, AddTo, Do, Push, Raise, Return)):
        return [stmt.value]
    if isinstance(stmt, (If, While)):
        return [stmt.test]
    if isinstance(stmt, For):
        return list(stmt.bounds) + ([] if stmt.over is None else [stmt.over])
    if isinstance(stmt, Try):
        return list(stmt.catches)
    return []


def is_place(target):
    """Whether a ``Let``/``AddTo`` target is a place (an element of a container)."""
    return not isinstance(target, str)


def target_name(target):
    """The name a target writes: itself, or a place's container."""
    while not isinstance(target, str):
        if isinstance(target, ex.Name):
            return target.id
        if not isinstance(target, ex.Subscript):
            raise ValueError(f"not a target: {target!r}")
        target = target.value
    return target


def place_reads(target):
    """The names writing a place reads: its container, then its indices ([] for a name)."""
    if isinstance(target, str):
        return []
    return ex.names(target)


# --- def-use: what each statement reads, binds and changes, said once --------------------
#
# ``reads``: every name the statement itself reads (not those nested in it), once per
# occurrence, in the order Python reads them; ``binds``: the names it assigns whole;
# ``changes``: the names whose value it changes in place (a place's container, a list it
# appends to or pops from).  The optimizer's passes and ``check_sweeps`` read these.

def evaluated(stmt):
    """The expressions ``stmt`` itself evaluates, in Python's order (a place's container
    and index after the value it is given; a check's value, message and cause)."""
    kind = type(stmt)
    if kind is Let or kind is AddTo:
        return [stmt.value] if type(stmt.target) is str else [stmt.value, stmt.target]
    if kind is Check:
        check = stmt.check
        return [e for e in (check.value, check.message, check.cause) if e is not None]
    return expressions(stmt)


_OWN_READS = {  # the names a statement reads besides those of its expressions
    AddTo: lambda s: [] if is_place(s.target) else [s.target],  # ``d += e`` reads d
    Push: lambda s: [s.stack], Pop: lambda s: [s.stack],  # the function (list) it calls
    NewStack: lambda s: [s.stack, s.stack],  # push, pop = stack.append, stack.pop
}

_BINDS = {
    Let: lambda s: [s.target] if type(s.target) is str else [],
    AddTo: lambda s: [s.target] if type(s.target) is str else [],
    For: lambda s: [s.target],
    Try: lambda s: [s.caught] + ([s.error] if s.error else []),
    NewStack: lambda s: [s.stack, s.push, s.pop],
    Pop: lambda s: popped_names(s.target),
}

_CHANGES = {
    Let: lambda s: [] if type(s.target) is str else [target_name(s.target)],
    AddTo: lambda s: [] if type(s.target) is str else [target_name(s.target)],
    Push: lambda s: [s.stack] if s.method else [],  # a save stack is changed by its push
    Pop: lambda s: [s.stack] if s.method else [],
}


def popped_names(target):
    """The names a ``Pop`` binds: none, its target, or each name of a tuple of them."""
    if target is None:
        return []
    return [target] if type(target) is str else list(target)


def name_reads(expr):
    """Every name ``expr`` reads, once per occurrence, in evaluation order (a tuple)."""
    return tuple(ex.name_ids(expr))


def reads(stmt, names_of=name_reads):
    """Every name ``stmt`` itself reads, once per occurrence, in Python's order (a tuple;
    ``names_of`` gives an expression's, as ``name_reads`` does: a pass may remember them)."""
    found = ()
    for expr in evaluated(stmt):
        found += names_of(expr)
    own = _OWN_READS.get(type(stmt))
    return found + tuple(own(stmt)) if own is not None else found


def binds(stmt):
    """The names ``stmt`` itself assigns whole."""
    get = _BINDS.get(type(stmt))
    return [] if get is None else get(stmt)


def changes(stmt):
    """The names whose value ``stmt`` changes in place (a container it writes a place of,
    a list it appends to or pops from)."""
    get = _CHANGES.get(type(stmt))
    return [] if get is None else get(stmt)


def own_names(stmt):
    """The names ``stmt`` itself writes or reads (not those of nested statements)."""
    names = list(reads(stmt)) + binds(stmt) + changes(stmt)
    if isinstance(stmt, Check):
        names += list(stmt.check.reads)
    return names


def mentions(stmt, name):
    """Whether ``stmt``, or a statement nested in it, writes or reads ``name``."""
    stack = [stmt]
    while stack:
        current = stack.pop()
        if name in own_names(current):
            return True
        for block in blocks(current):
            stack.extend(block)
    return False


def walk(block):
    """Every statement of ``block`` and those nested in it, depth first in source order."""
    for stmt in block:
        yield stmt
        if type(stmt) in _SIMPLE:  # most statements: no block inside
            continue
        for inner in blocks(stmt):
            yield from walk(inner)


def number_statements(function):
    """Give every statement of ``function`` without an id the next one (in place)."""
    for stmt in walk(function.body):
        if stmt.sid is None:
            function.last_id += 1
            stmt.sid = function.last_id
    return function


def negated(value):
    """``-value``, without a double negation."""
    if isinstance(value, ex.UnaryOp) and value.op == "-":
        return value.operand
    return ex.UnaryOp("-", value)


def is_zero(value):
    return isinstance(value, ex.Const) and value.text is None and value.value == 0 and (
        not isinstance(value.value, bool))


ZERO = ex.Const(0.0)
