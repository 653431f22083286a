"""Containers: tuples, lists and dicts of numbers, read, built and changed.

Expects a ``Frame`` whose unit knows the kinds of the containers in scope
(``Unit.containers``: generated name -> ``core.types`` type; a parameter's comes from the
call's arguments, ``frontend.kinds``).  A container stays a container in generated
code: an element read is one ``Item``, a literal one ``Build``, an element assignment
one ``SetItem``, a reduction one ``Reduce``; a name bound to a container, or to a
container inside one, is an alias (``ir.Ref``), never a copy, as in Python.

    w, b = layers[i]           ->   w = layers[i][0]; b = layers[i][1]   (desugar, then Item)
    ys = [a, b, a * b]         ->   mul_ys = a * b; ys = [a, b, mul_ys]  (Build)
    xs[k + 1] = v              ->   add_xs = k + 1; xs[add_xs] = v       (SetItem)
    total = sum(ys, 1.0)       ->   total = sum(ys, 1.0)                 (Reduce)

Guarantees a located ``SymdiffError`` for what it does not read: an index that is not
a whole number or a dict's key (``keys``), a tuple indexed by a changing index when its
elements differ in kind, a container where a number is needed, a container built in
one branch of an ``if``.
"""

import ast
import builtins

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.core import types as t
from symdiff.core.types import element, is_container
from symdiff.core.records import is_record
from symdiff.lower import fields, names, records
from symdiff.lower.element_names import element_name
from symdiff.lower.filling import unfilled
from symdiff.lower.keys import dict_key
from symdiff.lower.operands import operand_ast, reads_of
from symdiff.lower.placement import built_once

_KINDS = {ast.List: "list", ast.Tuple: "tuple", ast.Dict: "dict"}
_LITERALS = tuple(_KINDS)


def evaluated(frame, node):
    """The operand of ``node`` evaluated ahead of its use, once (``expressions.value``
    takes it from ``Frame.ahead`` when it reaches ``node``): for a call that may make a
    container, a sum (a join, if its first term is a container), or a container written
    out; None for any other node."""
    if id(node) in frame.ahead:
        return frame.ahead[id(node)]
    if isinstance(node, ast.Call) and not _makes_container(frame, node):
        return None
    if isinstance(node, _LITERALS):
        operand = literal(frame, node, None)
    else:
        operand = frame.value(node)
    frame.ahead[id(node)] = operand
    return operand


def _adds(node):
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)


def _constants(node):
    """Whether ``node`` is a tuple or list written out of number constants: a table, read
    as tables are (``tables``), not a container the function builds."""
    return isinstance(node, (ast.Tuple, ast.List)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) or (
            isinstance(e, ast.UnaryOp) and isinstance(e.operand, ast.Constant))
        for e in node.elts)


def _makes_container(frame, call):
    if not isinstance(call.func, ast.Name):
        return False
    meant = names.meaning_of(frame, call.func.id, call.func)
    return meant.kind in ("function", "nested") or (
        meant.kind == "other" and meant.value in (builtins.list, builtins.tuple,
                                                  builtins.sorted)) or (
        records.maker(frame, call) is not None)


def kind_of_operand(frame, operand):
    """The container type ``operand`` holds, or None for a number."""
    if isinstance(operand, ir.Ref):
        kind = frame.unit.containers.get(operand.container)
        for index in operand.path:
            kind = element(kind, index.value if isinstance(index, ir.Const) else None)
        return kind
    if isinstance(operand, ir.Var):
        return frame.unit.containers.get(operand.name)
    return None


def is_container_operand(frame, operand):
    return isinstance(operand, ir.Ref) or is_container(kind_of_operand(frame, operand))


def container_of(frame, node, written=False, filling=False):
    """``(container name, path)`` when ``node`` names a container (or a container inside
    one) this lowering knows, or is a call that makes one (a helper's, ``list``,
    ``tuple``, ``sorted``) or a join (``xs + ys``), or with ``written`` a container
    written out; else None.  An empty dict is read only once a loop fills it
    (``filling``: the read that does)."""
    if isinstance(node, ast.Call) or _adds(node) or (
            written and isinstance(node, _LITERALS) and not _constants(node)):
        operand = evaluated(frame, node)
        if operand is None or not is_container_operand(frame, operand):
            return None
        return (operand.container, operand.path) if isinstance(operand, ir.Ref) else (
            operand.name, ())
    if isinstance(node, ast.Attribute):  # ``p.w`` of a record is ``p["w"]``
        outer = container_of(frame, node.value)
        kind = outer and kind_of_operand(frame, ir.Ref(*outer))
        if not is_record(kind):
            return None
        return outer[0], outer[1] + (fields.field_key(frame, node, kind),)
    if not isinstance(node, (ast.Name, ast.Subscript)):
        return None
    if isinstance(node, ast.Subscript):
        outer = container_of(frame, node.value, written=True)
        if outer is None:
            return None
        name, path = outer
        if held_array(frame, name, path):
            return None  # ``p["w"][0]``: an array held, indexed as arrays are
        if isinstance(node.slice, ast.Slice):
            return taken(frame, node, name, path), ()
        return name, path + (index_operand(frame, node, name, path),)
    operand = bound_operand(frame, node.id)
    if isinstance(operand, ir.Ref):
        return operand.container, operand.path
    if isinstance(operand, ir.Var) and operand.name in frame.unit.given:
        raise frame.error(UnsupportedSyntaxError, node, f"{node.id} was appended to another "
                          "list, and is read again", "read it through that list, or append "
                          "a copy: list(...)")
    if isinstance(operand, ir.Var) and operand.name in frame.unit.unfilled and not filling:
        raise unfilled(frame, node)
    if isinstance(operand, ir.Var) and operand.name in frame.unit.containers:
        return operand.name, ()
    return None


def bound_operand(frame, name):
    """The operand the user name ``name`` is bound to where lowering stands (in this body
    or a body around it), or None when it names nothing this function assigns."""
    scope = names.scope_of(frame, name)
    if scope is None:
        return None
    operand = frame.mapping.get(name)
    return scope.mapping.get(name) if operand is None else operand


def held_array(frame, name, path):
    """Whether the entry ``name[path]`` is read as an array: so typed, or in array code
    typed a number, as an item written out is (``{"w": np.zeros_like(w)}``: the inference
    tells; a number indexed is refused where it is checked)."""
    kind = kind_of_operand(frame, ir.Ref(name, path))
    return isinstance(kind, t.Array) or bool(path) and frame.unit.array_code and (
        t.is_number(kind))


def index_operand(frame, node, name, path):
    """The operand of ``node.slice``: an int (a constant, or a name holding one), or a
    dict's key (``keys.dict_key``)."""
    kind = kind_of_operand(frame, ir.Ref(name, path))
    index = node.slice
    if is_record(kind):
        return fields.position_key(frame, node, kind)
    if isinstance(kind, t.Dict):
        return dict_key(frame, node, kind)
    operand = frame.value(index)
    if isinstance(operand, ir.Const) and not (isinstance(operand.value, int)
                                              and not isinstance(operand.value, bool)):
        raise frame.error(UnsupportedSyntaxError, index, f"the index {operand.value!r} is not "
                          "a whole number", "index with an int: xs[i]")
    if isinstance(operand, ir.Const) and element(kind, operand.value) is None:
        raise frame.error(UnsupportedSyntaxError, index, f"the index {operand.value} is out "
                          f"of range for a {kind}", "index inside the container")
    if isinstance(operand, ir.Var) and element(kind, None) is None:
        raise frame.error(UnsupportedSyntaxError, index, f"a {kind} is indexed by a value "
                          "known only when the gradient runs, and its elements differ in kind",
                          "index it with constants, or make its elements alike")
    if is_container_operand(frame, operand):
        raise frame.error(UnsupportedSyntaxError, index, "a container is used as an index",
                          "index with an int")
    return operand


def taken(frame, node, name, path):
    """``xs[1:]``, ``xs[:-1]``, ``xs[::2]``: a ``Take`` into a new list (a tuple's slice
    is read as a list of its numbers); the name holding it.  Written once per slice in
    the source, however often lowering asks."""
    made = frame.taken.get(id(node))
    if made is not None:
        return made
    kind = kind_of_operand(frame, ir.Ref(name, path))
    elem = element(kind, None) if isinstance(kind, (t.List, t.Tuple)) else None
    if elem is None:
        raise frame.error(UnsupportedSyntaxError, node, f"a slice of a {kind}",
                          "slice a list or tuple whose elements are alike")
    built_once(frame, node)
    bounds = []
    for part in (node.slice.lower, node.slice.upper, node.slice.step):
        operand = None if part is None else frame.value(part)
        if operand is not None and (is_container_operand(frame, operand) or (
                isinstance(operand, ir.Const) and type(operand.value) is not int)):
            raise frame.error(UnsupportedSyntaxError, part, "a slice bound that is not a "
                              "whole number", "slice with ints: xs[1:], xs[i:j]")
        bounds.append(operand)
    target = frame.namer.fresh(f"{element_name(node.value, path)}_slice"
                               if path else f"{name}_slice")
    _typed(frame, node, target, t.List(elem, None))
    frame.emit(ir.Take(target, name, path, tuple(bounds), frame.origin))
    frame.taken[id(node)] = target
    return target


def element_at(frame, name, path, target):
    """``name[path]`` bound to ``target``: an ``Item`` for a number, an alias for a
    container (a loop over a list of pairs reads each pair in place)."""
    if is_container(kind_of_operand(frame, ir.Ref(name, path))):
        return ir.Ref(name, path)
    frame.emit(ir.Item(target, name, path, frame.origin))
    return ir.Var(target)


def read(frame, node, target):
    """``xs[i]``, ``layers[i][0]``, ``p["w"]``: an ``Item`` for a number, an alias for a
    container; None when ``node`` does not index a known container."""
    found = container_of(frame, node)
    if found is None:
        return None
    name, path = found
    if is_container(kind_of_operand(frame, ir.Ref(name, path))):
        return ir.Ref(name, path)
    earlier = read_before(frame, name, path)
    if earlier is not None and target is None:
        return earlier
    target = target or frame.namer.fresh(element_name(node, path))
    frame.emit(ir.Item(target, name, path, frame.origin))
    return ir.Var(target)


_LOOKBACK = 64  # statements of the block searched for an earlier read of one element


def read_before(frame, name, path):
    """The operand an earlier statement of this very block read ``name[path]`` into,
    when nothing since can have changed it (no loop or branch in between, no change to
    the container, to an index or to that operand): ``x[i] ** 2 + (1 - x[i])`` reads
    ``x[i]`` once.  None otherwise."""
    indices = set(ir.operand_names(path))
    for stmt in reversed(frame.out[-_LOOKBACK:]):
        if isinstance(stmt, ir.Item) and stmt.container == name and stmt.path == path:
            return ir.Var(stmt.target)
        if isinstance(stmt, (ir.If, ir.For, ir.While)) or getattr(stmt, "container", None) == (
                name) or getattr(stmt, "stack", None) == name:
            return None
        written = set(ir.assigned_names([stmt]))
        if name in written or written & indices:
            return None
    return None


def literal(frame, node, target, record=None, maker=None):
    """``[a, b]``, ``(a, b)``, ``{"w": a}``, nested (``[(a, b), (c, d)]``): one
    ``Build`` of the numbers' operands; a dict typed ``record(its type)`` and built by
    calling ``maker`` (``records``: a record built of its fields)."""
    built_once(frame, node)
    made, kind = _literal(frame, node)
    kind = kind if record is None else record(kind)
    if isinstance(kind, t.Dict) and frame.loops:
        shown = "dict" if record is None else kind.cls.__qualname__
        raise frame.error(UnsupportedSyntaxError, node, f"a {shown} built inside a loop is "
                          "not supported", "build it once, before the loop" if record is None
                          else "build it in a function of yours that the loop calls")
    target = target or frame.namer.fresh(frame.hint if made.kind != "tuple"
                                         else f"{frame.hint}_tuple")
    _typed(frame, node, target, kind)
    if kind == t.Dict(()):  # ``{}``: its kind is what a loop fills it with (``filling``)
        frame.unit.unfilled.add(target)
    frame.emit(ir.Build(target, made.kind, made.items, frame.origin, keys=made.keys,
                        maker=maker))
    if any(i in frame.unit.holding for i in ir.operand_names(made.items)):
        frame.unit.holders.add(target)  # a row popped off it may be held by a name
    return ir.Var(target)


def _literal(frame, node):
    """``(Literal, its type)`` of a container written out: a list's length is read when
    the gradient runs; its elements must be alike."""
    kind = _KINDS[type(node)]
    keys = ()
    if kind == "dict":
        if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
            raise frame.error(UnsupportedSyntaxError, node, "a dict whose keys are not all "
                              "string constants", 'write the keys out: {"w": w, "b": b}')
        keys = tuple(k.value for k in node.keys)
        elements = node.values
    else:
        elements = node.elts
    items, kinds = [], []
    for element_node in elements:
        if isinstance(element_node, (ast.List, ast.Tuple, ast.Dict)):
            inner, inner_kind = _literal(frame, element_node)
            items.append(inner)
            kinds.append(inner_kind)
        else:
            operand = frame.value(element_node)
            inner_kind = kind_of_operand(frame, operand)
            if is_container(inner_kind):  # a list of numbers by name: held, not copied
                # (in forward mode, any container: its tangent is held alike)
                if not isinstance(operand, ir.Var) or is_container(element(
                        inner_kind, None)) and not frame.unit.allow_tuple:
                    raise frame.error(UnsupportedSyntaxError, element_node, "a container "
                                      "inside another is held here by name", "hold a list "
                                      "or tuple of numbers of this function, or write it out")
                frame.unit.holding.add(operand.name)
                items.append(operand)
                kinds.append(inner_kind)
                continue
            items.append(operand)
            kinds.append(t.INT if isinstance(operand, ir.Const) and type(operand.value) is int
                         else t.FLOAT)
    if kind == "tuple":
        made_kind = t.Tuple(tuple(kinds))
    elif kind == "dict":
        made_kind = t.Dict(tuple(zip(keys, kinds)))
    else:
        elem = kinds[0] if kinds else t.FLOAT
        for other in kinds[1:]:
            elem = _joined(elem, other)
            if elem is None:
                raise frame.error(UnsupportedSyntaxError, node, "a list of unlike elements",
                                  "make its elements alike, or write a tuple")
        made_kind = t.List(elem, None)
    return ir.Literal(kind, tuple(items), keys), made_kind


def _joined(a, b):
    """One type for two elements of a list (``types.element_join``, which the argument
    kinds use too): ints and floats are floats; containers of the same shape join element
    by element; None when they differ in shape."""
    return t.element_join(a, b)


def number(frame, node):
    """The operand of ``node``, which must be a number, not a container."""
    operand = frame.value(node)
    if is_container_operand(frame, operand):
        raise frame.error(UnsupportedSyntaxError, node, "a container stands where a number "
                          "is needed", "containers of containers are read from arguments; "
                          "build them of numbers here")
    return operand


def _typed(frame, node, name, kind):
    """``name`` holds containers of type ``kind``: the same type at every assignment (a
    parameter's list rebuilt in a loop stays a list of numbers), a new one from here on
    (not one appended to another list before)."""
    frame.unit.given.discard(name)
    known = frame.unit.containers.get(name)
    if known is not None and known != kind:
        raise frame.error(UnsupportedSyntaxError, node, f"{name} held a {known} and is "
                          f"given a {kind}", "give the new value a name of its own")
    frame.unit.containers[name] = kind


def length(frame, node, target=None):
    """``len(xs)``: known now for a tuple or a dict, when the gradient runs for a list;
    None when ``node`` is not a known container."""
    found = container_of(frame, node)
    if found is None:
        return None
    name, path = found
    kind = kind_of_operand(frame, ir.Ref(name, path))
    if isinstance(kind, (t.Tuple, t.Dict)):
        return ir.Const(len(kind.elts) if isinstance(kind, t.Tuple) else len(kind.items))
    if not isinstance(kind, t.List):
        raise frame.error(UnsupportedSyntaxError, node, "len() of a number",
                          "measure a list, tuple or dict")
    expr = ast.Call(ast.Name("len", ast.Load()), [path_ast(name, path)], [])
    target = target or frame.namer.fresh(f"{name}_length")
    return ir.Var(frame.compute(target, expr, (name,) + reads_of(*path)))


def path_ast(name, path):
    node = ast.Name(name, ast.Load())
    for index in path:
        node = ast.Subscript(node, operand_ast(index), ast.Load())
    return node


