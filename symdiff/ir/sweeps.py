"""The statements of generated code: what ``differentiate`` and ``forward`` write.

Expects expressions from ``symdiff.core.expr`` (frozen data, no Python syntax trees).
Guarantees plain statement classes for the forward and reverse sweeps, which
the optimizer rewrites, and ``backend.to_python`` lowers to the Python tree ``emit``
prints:

    Let(t, e)                 t = e         (t a name, or a place: ``xs[k] = e``)
    AddTo(d, e)               d += e        (in place for numbers; ``negate``: d -= e;
                                             d an adjoint's name, or a place: ``dxs[i] += e``)
    Do(e)                     e             (a call run for its effect)
    NewStack(s, push, pop)    s = []; push, pop = s.append, s.pop
    Push(push, e)             push(e)       (``method``: push.append(e), a list by name)
    Pop(t, pop)               t = pop()     (``method``: t = pop.pop(); t None: the value
                                             is dropped)
    If(test, body, orelse)    if test: ... else: ...
    For(t, bounds, body)      for t in range(*bounds)   (``reverse``: reversed(range(...)))
                              (``over``, bounds empty: for t in over, a dict's keys)
    While(test, body)         while test: ...
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


@dataclass
class AddTo:
    target: object  # a name, or a place (``core.expr.Subscript`` of a name)
    value: object
    negate: bool = False  # ``target -= value``


@dataclass
class Do:
    value: object


@dataclass
class NewStack:
    stack: str
    push: str
    pop: str


@dataclass
class Push:
    stack: str  # the name called: a save stack's ``push``, or a list (``method``)
    value: object
    method: bool = False


@dataclass
class Pop:
    target: str  # None: the value popped is dropped
    stack: str  # the name called: a save stack's ``pop``, or a list (``method``)
    method: bool = False


@dataclass
class If:
    test: object
    body: list
    orelse: list = field(default_factory=list)


@dataclass
class For:
    target: str
    bounds: tuple  # the arguments of ``range``
    body: list
    reverse: bool = False
    over: object = None  # an expression of a dict: the loop runs over its keys


@dataclass
class While:
    test: object
    body: list


@dataclass
class Break:
    pass


@dataclass
class Pass:
    pass


@dataclass
class Check:
    check: object  # an ``ir.nodes.Check``


@dataclass
class Comment:
    text: str


@dataclass
class Raise:
    value: object


@dataclass
class Return:
    value: object


@dataclass
class Function:
    name: str
    params: tuple
    defaults: tuple  # expressions, for the last parameters
    kwarg: str
    body: list


def blocks(stmt):
    """The blocks nested directly in ``stmt``."""
    if isinstance(stmt, If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, (For, While, Function)):
        return [stmt.body]
    return []


def expressions(stmt):
    """The expressions ``stmt`` itself holds."""
    if isinstance(stmt, (Let, AddTo, Do, Push, Raise, Return)):
        return [stmt.value]
    if isinstance(stmt, (If, While)):
        return [stmt.test]
    if isinstance(stmt, For):
        return list(stmt.bounds) + ([] if stmt.over is None else [stmt.over])
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


def own_names(stmt):
    """The names ``stmt`` itself writes or reads (not those of nested statements)."""
    names = []
    if isinstance(stmt, (Let, AddTo)):
        names += place_reads(stmt.target) or [stmt.target]
    elif isinstance(stmt, For):
        names.append(stmt.target)
    elif isinstance(stmt, NewStack):
        names += [stmt.stack, stmt.push, stmt.pop]
    elif isinstance(stmt, Push):
        names.append(stmt.stack)
    elif isinstance(stmt, Pop):
        names += ([stmt.target] if stmt.target else []) + [stmt.stack]
    elif isinstance(stmt, Check):
        names += list(stmt.check.reads)
    for value in expressions(stmt):
        names += ex.names(value)
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


def negated(value):
    """``-value``, without a double negation."""
    if isinstance(value, ex.UnaryOp) and value.op == "-":
        return value.operand
    return ex.UnaryOp("-", value)


def is_zero(value):
    return isinstance(value, ex.Const) and value.text is None and value.value == 0 and (
        not isinstance(value.value, bool))


ZERO = ex.Const(0.0)
