"""The seed of a vector-Jacobian product: the reverse sweep started from a cotangent.

Used by ``differentiate`` (``ad.reverse``) when it writes ``vjp_f`` rather than
``grad_f``.  Expects the ``Environment`` of a program whose result may be a number, an
array, or a tuple, list or dict of them, nested (``lower`` with ``any_result``; its type
is type inference's, never read off a run of ``f``).  Guarantees:

- ``Seed.param``, a fresh parameter name the generated function takes after ``f``'s
  parameters, the cotangent of the result, in the result's structure;
- ``Seed.statements``, the statement that binds the result's adjoint to it where grad
  binds it to ``1.0``: the number itself; an array as it is, or a copy where the reverse
  adds into its adjoint in place (the array is read by index); a container as the mutable
  structure the reverse adds into (a list for a tuple, a dict for a dict), its arrays
  copied, so the caller's cotangent is never changed; ``read_only`` binds it to the
  cotangent itself where no statement of the reverse sweep changes the adjoint (it is
  only read: ``dresult[0]``);
- ``kept_value``, the value returned: the result as it is, or a copy of its containers
  where the reverse sweep changes a container back (``ys.pop()`` undoing an append that
  a later sum read), so the value is the one the forward sweep ended with;
- ``refuse_arrays_read_back``: a located error where an array is put in a list or dict
  built here whose type still holds a number there (type inference gives an element the
  type of the array put in it, ``analysis.held_types``; this catches any place it does
  not) and the container is then read or changed: the arrays read back would be taken
  for numbers (a broadcast not undone), a wrong gradient.  A
  container of arrays built and returned, as a training step returns its new
  parameters, is read by no statement, and its reverse only reads the cotangent's
  entries: it is differentiated;
- ``without_result``, the container facts (``ad.facts``) with the result left out of the
  shortcuts that assume a container's adjoint comes only from the reads of it (a sum's
  adjoint spread over it, an element's adjoint standing for its place): the seed gives
  the result's adjoint a value of its own.

    def step(p, x):                def vjp_step(p, x, cotangent):
        new = {"w": p["w"] * x}        ...   (the forward sweep)
        return new                     dmul_new = cotangent['w']   (read only: no copy)
                                       dp['w'] += dmul_new * x
                                       ...
    ys.append(s); return ys            dys = list(cotangent)   (the reverse pops from it)
"""

from dataclasses import dataclass, replace
from types import MappingProxyType

from symdiff.ad.environment import adjoint, builtin
from symdiff.core import expr as ex
from symdiff.core import types as t
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.ir import sweeps as sw


@dataclass(frozen=True)
class Seed:
    param: str  # the cotangent parameter
    kind: object  # the result's type: the cotangent's
    statements: tuple  # the result's adjoint bound to the cotangent


def result_name(program):
    """The variable the program's result is held in (None for a constant)."""
    return program.result.name if isinstance(program.result, ir.Var) else None


def seed(env):
    """The cotangent parameter of ``env``'s program and the statement seeding the
    adjoint of its result (none where the result is not active)."""
    program = env.program
    param = env.names.fresh("cotangent")
    name = result_name(program)
    kind = built_kind(program, name) if name is not None else t.FLOAT
    if name is None or name not in env.active:
        return Seed(param, kind, ())
    numpy = ex.Name(program.numpy_name) if program.numpy_name else None
    value = ex.Name(param)
    if isinstance(kind, t.Array):
        value = _copied(value) if name in env.indexed else value
    elif isinstance(kind, (t.List, t.Tuple, t.Dict)):
        value = mutable(env, kind, value, numpy)
    return Seed(param, kind, (sw.Let(adjoint(env, name), value),))


def built_kind(program, name):
    """The type of ``name`` with the arrays it was built of where type inference says
    numbers (it types the elements of a container built here so): the cotangent's type,
    so the reverse sweep treats its arrays as arrays (adds to them out of place)."""
    kind = program.types.get(name)
    for stmt in ir.walk(program.body):
        if isinstance(stmt, ir.Build) and stmt.target == name and stmt.repeat is None:
            for path, item in ir.literal_leaves(stmt.items, stmt.keys):
                if isinstance(item, ir.Var):
                    found = built_kind(program, item.name) if (
                        item.name in program.containers and item.name != name) else (
                        program.types.get(item.name))
                    if isinstance(found, (t.Array, t.List, t.Tuple, t.Dict)):
                        kind = _with_leaf(kind, path, found)
    return kind


def _with_leaf(kind, path, leaf):
    """``kind`` with the element at ``path`` (constant indices, keys) of type ``leaf``."""
    if not path:
        return leaf
    head, rest = path[0], path[1:]
    if isinstance(kind, t.Dict):
        return t.Dict(tuple((k, _with_leaf(v, rest, leaf) if k == head else v)
                            for k, v in kind.items))
    if isinstance(kind, t.Tuple):
        return t.Tuple(tuple(_with_leaf(e, rest, leaf) if i == head else e
                             for i, e in enumerate(kind.elts)))
    if isinstance(kind, t.List):
        return t.List(_with_leaf(kind.elem, rest, leaf), kind.length)
    return kind


def read_only(start, reverse, adjoint_name):
    """``reverse`` with the seed's copy left out where no statement after it changes the
    result's adjoint ``adjoint_name`` (adds into a place of it, pops from it)."""
    if not start.statements or isinstance(start.statements[0].value, ex.Name):
        return reverse
    seeded = start.statements[0]
    at = next(i for i, stmt in enumerate(reverse) if stmt is seeded)
    if any(_changes(stmt, {adjoint_name}, inside=True) for stmt in sw.walk(reverse[at + 1:])):
        return reverse
    return reverse[:at] + [sw.Let(seeded.target, ex.Name(start.param))] + reverse[at + 1:]


def mutable(env, kind, value, numpy=None):
    """The expression of ``value`` (of type ``kind``) as a container adjoint: lists for
    tuples and lists, dicts for dicts, nested alike, arrays copied (the reverse adds into
    them in place), numbers as they are."""
    if isinstance(kind, t.Array):
        return _copied(value)
    if isinstance(kind, t.Dict):
        if not any(_nested(v) for _, v in kind.items):
            return ex.Call(ex.Name(builtin(env, "dict")), (value,))
        return ex.Dict(tuple(ex.Const(k) for k, _ in kind.items), tuple(
            mutable(env, v, ex.Subscript(value, ex.Const(k)), numpy) for k, v in kind.items))
    if isinstance(kind, t.List):
        if not _nested(kind.elem):
            return ex.Call(ex.Name(builtin(env, "list")), (value,))
        item = env.names.fresh("item")
        return ex.ListComp(mutable(env, kind.elem, ex.Name(item), numpy), item, value)
    if isinstance(kind, t.Tuple):
        if not any(_nested(e) for e in kind.elts):
            return ex.Call(ex.Name(builtin(env, "list")), (value,))
        return ex.List(tuple(mutable(env, e, ex.Subscript(value, ex.Const(i)), numpy)
                             for i, e in enumerate(kind.elts)))
    return value


def kept_value(env, value, reverse, adjoints):
    """``value`` (the result's expression), copied where ``reverse`` (the reverse sweep's
    statements) changes a container other than an adjoint (``adjoints``): a list popped,
    an element assigned back."""
    kind = env.program.types.get(result_name(env.program))
    if not _holds_containers(kind) or not any(
            _changes(stmt, adjoints) for stmt in sw.walk(reverse)):
        return value
    return snapshot(env, kind, value)


_CHANGING = ("append", "pop", "insert", "extend")  # the list methods sweeps call


def _changes(stmt, names, inside=False):
    """Whether ``stmt`` changes a container in place: one not among ``names``, or with
    ``inside`` one among them (``Do``, a call, may change any)."""
    if isinstance(stmt, sw.Do):
        return True
    if isinstance(stmt, (sw.Pop, sw.Push)) and stmt.method and (
            stmt.stack in names) == inside:
        return True
    if isinstance(stmt, (sw.Let, sw.AddTo)):
        if sw.is_place(stmt.target) and (sw.target_name(stmt.target) in names) == inside:
            return True
        return any(isinstance(node, ex.Call) and isinstance(node.func, ex.Attribute)
                   and node.func.attr in _CHANGING and isinstance(node.func.value, ex.Name)
                   and (node.func.value.id in names) == inside
                   for node in ex.walk(stmt.value))
    return False


def _holds_containers(kind):
    return isinstance(kind, (t.List, t.Tuple, t.Dict)) and (
        not isinstance(kind, t.Tuple) or any(_holds_containers(e) for e in kind.elts))


def snapshot(env, kind, value):
    """A copy of the containers of ``value`` (of type ``kind``) that can change: lists and
    dicts, nested alike; numbers, arrays and tuples of them as they are."""
    if isinstance(kind, t.List):
        if not _holds_containers(kind.elem):
            return ex.Call(ex.Name(builtin(env, "list")), (value,))
        item = env.names.fresh("item")
        return ex.ListComp(snapshot(env, kind.elem, ex.Name(item)), item, value)
    if isinstance(kind, t.Dict):
        if not any(_holds_containers(v) for _, v in kind.items):
            return ex.Call(ex.Name(builtin(env, "dict")), (value,))
        return ex.Dict(tuple(ex.Const(k) for k, _ in kind.items), tuple(
            snapshot(env, v, ex.Subscript(value, ex.Const(k))) for k, v in kind.items))
    if isinstance(kind, t.Tuple) and _holds_containers(kind):
        return ex.Tuple(tuple(snapshot(env, e, ex.Subscript(value, ex.Const(i)))
                              for i, e in enumerate(kind.elts)))
    return value


def _nested(kind):
    """Whether ``mutable`` writes ``kind`` other than as it is."""
    return isinstance(kind, (t.List, t.Tuple, t.Dict, t.Array))


def _copied(value):
    return ex.Call(ex.Attribute(value, "copy"))


def refuse_arrays_read_back(program):
    """A located error where a container built here holds an array its type takes for a
    number, and a statement reads or changes that container (see the module)."""
    holding = {}  # container -> the statement that put an array in it
    for stmt in ir.walk(program.body):
        if isinstance(stmt, ir.Build):
            kind = program.types.get(stmt.target)
            if any(_array(program, item) and t.is_number(_element(kind, path))
                   for path, item in ir.literal_leaves(stmt.items, stmt.keys)):
                holding.setdefault(stmt.target, stmt)
        elif isinstance(stmt, ir.SetItem) and _array(program, stmt.value) and t.is_number(
                _element(program.types.get(stmt.container), tuple(
                    getattr(i, "value", None) for i in stmt.path))):
            holding.setdefault(stmt.container, stmt)
        elif isinstance(stmt, ir.Push) and _array(program, stmt.value) and t.is_number(
                t.element(program.types.get(stmt.stack), None)):  # ``ys.append(h)``
            holding.setdefault(stmt.stack, stmt)
    for stmt in ir.walk(program.body):
        read = [name for name in _containers_read(stmt) if name in holding
                and not (isinstance(stmt, ir.Push) and _array(program, stmt.value))]
        if read:
            origin = stmt.origin
            raise UnsupportedSyntaxError(
                f"an array put in the container {read[0]} at line "
                f"{holding[read[0]].origin.lineno} is read from it again: symdiff does not "
                "follow arrays through a list or dict built in the function yet",
                filename=origin.filename, lineno=origin.lineno,
                col_offset=origin.col_offset, source_line=origin.line,
                hint="keep each array in a name of its own and build the container once, "
                     "where it is returned")


def _array(program, operand):
    return isinstance(operand, ir.Var) and isinstance(program.types.get(operand.name),
                                                      t.Array)


def _element(kind, path):
    for step in path:
        if kind is None:
            return None
        kind = t.element(kind, step)
    return kind


def _containers_read(stmt):
    if isinstance(stmt, (ir.Item, ir.SetItem, ir.Share, ir.Take, ir.Reduce)):
        return [stmt.container]
    if isinstance(stmt, ir.Join):
        return [part.container for part in stmt.parts if isinstance(part, ir.Ref)]
    if isinstance(stmt, (ir.Push, ir.Pop)):
        return [stmt.stack]
    return []


def without_result(facts, program):
    """``facts`` with the program's result left out of ``summed_only``, ``started`` and
    ``forwarded`` (its adjoint starts from the cotangent, not from its reads alone)."""
    name = result_name(program)
    if name is None:
        return facts
    return replace(
        facts, started=facts.started - {name},
        summed_only=MappingProxyType({k: v for k, v in facts.summed_only.items()
                                      if k != name}),
        forwarded=MappingProxyType({k: v for k, v in facts.forwarded.items()
                                    if v[0] != name}))
