"""Sweep types: what each name of a generated function certainly holds when it runs.

Expects a ``Generated`` from ``differentiate`` or ``forward`` (its function ``ir.sweeps``
IR) and the types of the program's parameters (``program.types``).  Guarantees
``type_sweeps(generated, types)``: the same ``Generated`` with every statement numbered
(``ir.sweeps.number_statements``) and ``function.types`` set: every name the function
binds or takes, and each number (tuple, list, array of numbers) the module binds
(``SCALE = 2.5``, written into the generated module as it is), mapped to an ``core.types``
type or None (nothing is known of it: a save stack's ``push``, a value of the user's
function with no rule the program knows).  A type here is a fact about
every run, not an assumption:

- a parameter holds what the caller passes: a number the program reads as a float (or
  an int, or a bool) is a ``Number`` (a bool, an int or a float: ``grad_f(3, 2.0)`` is a
  call too), and the numbers in a container parameter are ``Number`` s;
- a name holds the join of the types of the values assigned to it (``sweep_join``: an
  ``Int`` and a ``Float`` join to a ``Number``, not to a ``Float``), found as the least
  fixed point over every assignment (loops feed their values back);
- a value's type follows from its operands' and the records' type rules
  (``value_type``): ``a * b`` is a float when one operand is (it raises or gives a
  float), ``a / b`` of numbers is a float, ``math.sin(x)`` is a float, ``math.floor(x)``
  an int, a comparison of numbers a bool.  Numbers are real: a negative float to a
  fractional power, which Python makes a complex number, is taken as a float, as every
  derivative rule of the registry takes it;
- a value popped from a save stack into a name pushed by name is one the same name held
  before (``taping`` pushes a name's value just before it is overwritten): it adds no
  type of its own; one popped into another name is any value pushed on that stack;
- a list holds what it is built with, appended, extended, inserted or written at a
  place; a dict the program fills by keys known when it runs has the program's keys;
- an adjoint's type comes from its values as any name's does; in reverse mode it is its
  primal's with every number a ``Float`` (a derivative starts from ``1.0`` and every
  contribution multiplies it), in forward mode a number (the caller passes the
  tangents): ``check_sweeps`` verifies it.

    def grad_f(x, n):              x: number, n: number
        y = x * 2.0                y: float
        k = n + 1                  k: number
        dy = 1.0                   dy: float
"""

import builtins
import sys
from dataclasses import dataclass, field

from symdiff.analysis.value_types import (
    UNKNOWN,
    NUMBERS,
    elements_of,
    joined,
    sweep_join,
    value_type,
)
from symdiff.core import expr as ex
from symdiff.core.records import is_record
from symdiff.ir import sweeps as sw
from symdiff.core import types as t

@dataclass(frozen=True)
class Module:
    """The names the generated module calls ``math``, numpy and its helpers by."""

    math: str = "math"
    helpers: frozenset = frozenset()  # each returns a float
    numpy: frozenset = frozenset()
    pops: tuple = ()  # (pop, its save stack) for each save stack of the function
    shadowed: frozenset = frozenset()  # builtins' names the module binds to its own values
    # the type rules' results already found in this run: (op, types, consts, by) -> type;
    # a new dict for each ``Module`` made, so no two runs share it
    rules: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, generated):
        numpy = sys.modules.get("numpy")
        return cls(generated.math_name, frozenset(getattr(generated, "helpers", {}).values()),
                   frozenset(n for n, v in generated.namespace.items()
                             if numpy is not None and v is numpy),
                   save_stacks(generated.function),
                   frozenset(n for n in generated.namespace if hasattr(builtins, n)))


def save_stacks(function):
    """``(pop, stack)`` for each save stack ``function`` makes."""
    return tuple((s.pop, s.stack) for s in sw.walk(function.body) if type(s) is sw.NewStack)


POPPED = object()  # the value of ``t = pop()`` from a save stack: what ``push`` saved


def type_sweeps(generated, types, exact=None):
    """``generated`` with its statements numbered and ``function.types`` set, from the
    program's ``types`` (name -> type) and the adjoint map ``generated.adjoints``;
    ``exact``: parameters whose type is as given, not widened to what a caller may pass
    (a vjp's cotangent: a float's is a float, as the adjoint it seeds)."""
    function = sw.number_statements(generated.function)
    primals = {d: p for p, d in generated.adjoints.items()}  # forward mode: a tangent
    given = {p: as_passed(types.get(p, types.get(primals.get(p)))) for p in function.params}
    if function.kwarg:
        given[function.kwarg] = None
    given.update(exact or {})
    for name, value in generated.namespace.items():  # ``SCALE = 2.5``: the module's
        kind = of_constant(value)
        if kind is not None and name not in given:
            given[name] = kind
    shapes = {name: as_passed(kind) for name, kind in getattr(
        generated, "containers", {}).items() if name not in given and isinstance(kind, t.Dict)}
    floats = numpy_floats(function, types)
    calls = {name: t.NUMPY_FLOAT if name in floats else t.NUMBER
             for name, kind in types.items() if kind in NUMBERS}
    calls.update((name, kind) for name, kind in shapes.items() if is_record(kind))  # built
    calls.update((name, kind) for name, kind in with_arrays({}, types, primals).items()
                 if kind.ndim)  # (a 0-d array's NumPy scalars: typed by the rules)
    function.types = with_arrays(infer(function, given, Module.of(generated), shapes, calls),
                                 types, primals)
    return generated


def numpy_floats(function, types):
    """The names ``function`` binds to a call reading a float array that the program
    types a NumPy float (``total = np.sum(x * y)``): NumPy gives a float array's
    reductions as its float, whatever the numbers met in them (a ``Number`` else)."""
    found = set()
    for stmt in sw.walk(function.body):
        if type(stmt) is sw.Let and type(stmt.value) is ex.Call and isinstance(
                stmt.target, str) and types.get(stmt.target) == t.NUMPY_FLOAT and any(
                isinstance(types.get(n), t.Array) and types[n].dtype.startswith("float")
                for n in ex.names(stmt.value)):
            found.add(stmt.target)
    return found


def with_arrays(found, types, primals):
    """``found`` with the arrays it could not type from the sweeps' text given their
    program's type: a primal's own, an adjoint its primal's (NumPy's calls in the
    sweeps are not typed here)."""
    found = dict(found)
    for name, kind in types.items():
        if isinstance(kind, t.Array) and found.get(name) is None:
            found[name] = kind
    for adjoint, primal in primals.items():
        if isinstance(types.get(primal), t.Array) and found.get(adjoint) is None:
            found[adjoint] = types[primal]
    return found


def of_constant(value):
    """The type of a number, or a tuple or list of them, the module binds (None for
    anything else)."""
    if type(value) in (bool, int, float):
        return t.of_value(value)
    if type(value) in (tuple, list):
        elts = [of_constant(v) for v in value]
        if None in elts:
            return None
        if type(value) is tuple:
            return t.Tuple(tuple(elts))
        found = None
        for e in elts:
            found = sweep_join(found, e)
        return None if found is UNKNOWN else t.List(found, len(elts))
    numpy = sys.modules.get("numpy")
    if numpy is not None and type(value) is numpy.ndarray:
        return t.Array(str(value.dtype), value.ndim)
    return None




def as_passed(kind):
    """The type of a parameter the program reads as ``kind``: what a caller may pass."""
    if kind in NUMBERS:
        return t.NUMBER
    if isinstance(kind, t.List):
        return t.List(as_passed(kind.elem), kind.length)
    if isinstance(kind, t.Tuple):
        return t.Tuple(tuple(as_passed(e) for e in kind.elts))
    if isinstance(kind, t.Dict):
        return t.with_items(kind, tuple((k, as_passed(v)) for k, v in kind.items))
    if isinstance(kind, t.Table):
        return t.Table(as_passed(kind.elem))
    if isinstance(kind, t.Optional):
        return t.Optional(as_passed(kind.of))
    return kind


def infer(function, given, module, shapes=None, calls=None):
    """Every name of ``function`` -> its type (None: unknown), ``given`` the parameters';
    ``shapes``: the program's dicts the function fills by keys known when it runs
    (``updated[k] = v``), their keys as the program knows them, their numbers of any type;
    ``calls``: the names the program computes as numbers, for a value a function of the
    user's returns (``error = masked_error(p, 0.5)``, by its own rule): a ``Number``; and
    its arrays (an adjoint typed as its primal), for a value the rules here do not type.

    First the least fixed point over the values whose type is known (a value reading a
    name with no value yet waits for it); then every value whose type is still not
    known makes its name unknown, and that spreads to the values reading it.  Each is a
    worklist: a value is looked at again only when a name it reads has changed."""
    assigned = _assigned_values(function)
    for name, kind in (shapes or {}).items():
        if name in assigned and kind is not None:
            assigned[name].append(kind)
    env = dict(given)
    items = [(name, value) for name, values in assigned.items() for value in values
             if value is not POPPED]  # (a popped value: one the name held before)
    pops = dict(module.pops)
    readers = {}  # name -> the items whose value reads it
    for index, (_, value) in enumerate(items):
        for read in _reads_of(value, pops):
            readers.setdefault(read, []).append(index)
    waiting = set(range(len(items)))  # the items whose type is not known yet
    for final in (False, True):
        work = sorted(waiting, reverse=True)  # popped first to last
        queued = set(work)
        while work:
            index = work.pop()
            queued.discard(index)
            name, value = items[index]
            kind = _type_of(value, env, module)
            known = (calls or {}).get(name, UNKNOWN)
            if kind is None and isinstance(known, t.Array):
                kind = known  # an array the rules here do not type: the program's
            if kind is None and final:
                kind = known if type(value) is ex.Call else UNKNOWN
            if kind is None:
                waiting.add(index)
                continue  # waits for the names it reads
            waiting.discard(index)
            joined_kind = sweep_join(env.get(name), kind)
            if joined_kind != env.get(name):
                env[name] = joined_kind
                for reader in readers.get(name, ()):
                    if reader not in queued:
                        queued.add(reader)
                        work.append(reader)
    return {name: (None if kind is UNKNOWN else kind)
            for name, kind in {**given, **{n: env.get(n) for n in assigned}}.items()}


def _reads_of(value, pops):
    """The names whose types the type of ``value`` depends on (a save stack's ``pop()``
    reads the stack)."""
    if value is UNKNOWN or isinstance(value, t.Type):
        return ()
    found = list(value.reads) if callable(value) else ex.names(value)
    return found + [pops[n] for n in found if n in pops]


def _type_of(value, env, module):
    if value is UNKNOWN or isinstance(value, t.Type):
        return value
    if callable(value):
        return value(env, module)
    return value_type(value, env, module)


def _assigned_values(function):
    """name -> its assigned values: expressions, ``POPPED``, a type, or a function of the
    environment (a loop variable, an element popped from a list, a list appended to)."""
    values = {}
    names_pushed = {}  # a save stack's push -> the names pushed with it
    stacks = {}  # a save stack's push or pop -> the stack
    for stmt in sw.walk(function.body):
        if type(stmt) is sw.Push and not stmt.method and type(stmt.value) is ex.Name:
            names_pushed.setdefault(stmt.stack, set()).add(stmt.value.id)
        elif type(stmt) is sw.Push and not stmt.method and type(stmt.value) is ex.Tuple:
            names_pushed.setdefault(stmt.stack, set()).update(  # a tuple of saved names
                e.id for e in stmt.value.elts if type(e) is ex.Name)
        elif type(stmt) is sw.NewStack:
            stacks[stmt.push] = stacks[stmt.pop] = stmt.stack
    pushes = {s.pop: s.push for s in sw.walk(function.body) if type(s) is sw.NewStack}

    def add(name, value):
        values.setdefault(name, []).append(value)

    for stmt in sw.walk(function.body):
        for expr in sw.evaluated(stmt):  # ``xs.extend(ys)``, ``xs.insert(0, v)``
            for node in ex.walk(expr):
                grown = _grown(node)
                if grown is not None:
                    add(*grown)
        kind = type(stmt)
        if kind is sw.Let and type(stmt.target) is str:
            add(stmt.target, stmt.value)
        elif kind is sw.AddTo and type(stmt.target) is str:
            add(stmt.target, ex.BinOp("-" if stmt.negate else "+", ex.Name(stmt.target),
                                      stmt.value))
        elif (kind is sw.Let or kind is sw.AddTo) and type(stmt.target.value) is ex.Name:
            value = stmt.value if kind is sw.Let else ex.BinOp(
                "-" if stmt.negate else "+", stmt.target, stmt.value)
            add(stmt.target.value.id, _written(stmt.target, value))
        elif kind is sw.Let or kind is sw.AddTo:  # an element of an element: unknown
            add(sw.target_name(stmt.target), UNKNOWN)
        elif kind is sw.For:
            add(stmt.target, t.INT if stmt.over is None else _keys_of(stmt.over))
        elif kind is sw.Try:  # the clause that caught, and the exception it keeps
            add(stmt.caught, t.INT)
            if stmt.error:
                add(stmt.error, UNKNOWN)
        elif kind is sw.NewStack:  # a list, and its bound methods
            add(stmt.stack, t.List(None, 0))
            add(stmt.push, UNKNOWN)
            add(stmt.pop, UNKNOWN)
        elif kind is sw.Push:
            add(stacks.get(stmt.stack, stmt.stack), _appended(stmt.value))
        elif kind is sw.Pop and type(stmt.target) is tuple:  # each popped as it was pushed
            for name in stmt.target:
                add(name, POPPED)
        elif kind is sw.Pop and stmt.target is not None:
            if stmt.method:
                add(stmt.target, _elements_of(stmt.stack))
            elif stmt.target in names_pushed.get(pushes.get(stmt.stack), ()):
                add(stmt.target, POPPED)
            else:
                add(stmt.target, _elements_of(stacks.get(stmt.stack, stmt.stack)))
    return values


def _grown(node):
    """``(list, its new type)`` for a call adding to a list by name (``append``,
    ``extend``, ``insert``), else None."""
    if not (type(node) is ex.Call and type(node.func) is ex.Attribute
            and type(node.func.value) is ex.Name):
        return None
    name, method, args = node.func.value.id, node.func.attr, node.args
    if method == "append" and len(args) == 1:
        return name, _appended(args[0])
    if method == "insert" and len(args) == 2:
        return name, _appended(args[1])
    if method == "extend" and len(args) == 1:
        def extended(env, module):
            kind = value_type(args[0], env, module)
            elts = elements_of(kind)
            return None if kind is None else UNKNOWN if elts is None else t.List(
                joined(elts))
        extended.reads = ex.names(args[0])
        return name, extended
    return None


def _written(place, value):
    """A container with ``value`` written at ``place``: a list holds it among its
    elements, a dict at a key written out; anything else becomes unknown."""
    def written(env, module):
        kind = env.get(place.value.id)
        new = value_type(value, env, module)
        if kind is None or new is None:
            return None  # not known yet
        if isinstance(kind, t.List):
            return t.List(new, kind.length)
        index = place.index
        if isinstance(kind, t.Dict) and type(index) is ex.Const and index.text is None:
            return t.with_items(kind, tuple((k, new if k == index.value else v)
                                            for k, v in kind.items)
                                ) if index.value in dict(kind.items) else UNKNOWN
        if isinstance(kind, t.Dict):  # a key known at run time: any of them
            return t.with_items(kind, tuple((k, new) for k, _ in kind.items))
        return UNKNOWN
    written.reads = [place.value.id] + ex.names(value)
    return written


def _appended(value):
    def appended(env, module):
        elem = value_type(value, env, module)
        return None if elem is None else t.List(elem)
    appended.reads = ex.names(value)
    return appended


def _keys_of(over):
    def keys(env, module):
        kind = env.get(over.id) if type(over) is ex.Name else UNKNOWN
        if kind is None:
            return None  # not known yet
        if isinstance(kind, t.Dict) and kind.items:
            found = None
            for key, _ in kind.items:
                found = sweep_join(found, t.of_value(key))
            return found
        return UNKNOWN
    keys.reads = [over.id] if type(over) is ex.Name else []
    return keys


def _elements_of(stack):
    def elements(env, module):
        kind = env.get(stack)
        if kind is None or isinstance(kind, t.List) and kind.elem is None:
            return None  # not known yet
        return kind.elem if isinstance(kind, t.List) else UNKNOWN
    elements.reads = [stack]
    return elements
