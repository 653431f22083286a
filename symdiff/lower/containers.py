"""Containers: tuples, lists and dicts of numbers, read, built and changed.

Expects a ``Frame`` whose unit knows the kinds of the containers in scope
(``Unit.containers``: generated name -> ``ir.types`` type; a parameter's comes from the
call's arguments, ``frontend.kinds``).  A container stays a container in generated
code: an element read is one ``Item``, a literal one ``Build``, an element assignment
one ``SetItem``, a reduction one ``Reduce``; a name bound to a container, or to a
container inside one, is an alias (``ir.Ref``), never a copy, as in Python.

    w, b = layers[i]           ->   w = layers[i][0]; b = layers[i][1]   (desugar, then Item)
    ys = [a, b, a * b]         ->   mul_ys = a * b; ys = [a, b, mul_ys]  (Build)
    xs[k + 1] = v              ->   add_xs = k + 1; xs[add_xs] = v       (SetItem)
    total = sum(ys, 1.0)       ->   total = sum(ys, 1.0)                 (Reduce)

Guarantees a located ``SymdiffError`` for what it does not read: an index that is not
a whole number or a constant key, a tuple indexed by a changing index when its elements
differ in kind, a container where a number is needed, a container built in one branch
of an ``if``.
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.kinds import element, is_container
from symdiff.ir import nodes as ir
from symdiff.ir import types as t
from symdiff.lower.operands import operand_ast, reads_of

_KINDS = {ast.List: "list", ast.Tuple: "tuple", ast.Dict: "dict"}


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


def container_of(frame, node):
    """``(container name, path)`` when ``node`` names a container (or a container inside
    one) this lowering knows; else None."""
    if not isinstance(node, (ast.Name, ast.Subscript)):
        return None
    if isinstance(node, ast.Subscript):
        outer = container_of(frame, node.value)
        if outer is None:
            return None
        name, path = outer
        if isinstance(node.slice, ast.Slice):
            return taken(frame, node, name, path), ()
        return name, path + (index_operand(frame, node, name, path),)
    from symdiff.lower import names
    if names.scope_of(frame, node.id) is None:
        return None
    operand = frame.mapping.get(node.id)
    if operand is None:
        scope = names.scope_of(frame, node.id)
        operand = scope.mapping.get(node.id)
    if isinstance(operand, ir.Ref):
        return operand.container, operand.path
    if isinstance(operand, ir.Var) and operand.name in frame.unit.containers:
        return operand.name, ()
    return None


def index_operand(frame, node, name, path):
    """The operand of ``node.slice``: an int (a constant, or a name holding one), or a
    dict's constant key."""
    kind = kind_of_operand(frame, ir.Ref(name, path))
    index = node.slice
    if isinstance(kind, t.Dict):
        if not (isinstance(index, ast.Constant) and isinstance(index.value, str)):
            raise frame.error(UnsupportedSyntaxError, index, "a dict is read with a key that "
                              "is not a string constant", 'write the key out: p["w"]')
        if element(kind, index.value) is None:
            raise frame.error(UnsupportedSyntaxError, index, f"the dict has no key "
                              f"{index.value!r}", "read one of its keys: " + ", ".join(
                                  repr(k) for k, _ in kind.items))
        return ir.Const(index.value)
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
    made = frame.unit.taken.get(id(node))
    if made is not None:
        return made
    kind = kind_of_operand(frame, ir.Ref(name, path))
    elem = element(kind, None) if isinstance(kind, (t.List, t.Tuple)) else None
    if elem is None:
        raise frame.error(UnsupportedSyntaxError, node, f"a slice of a {kind}",
                          "slice a list or tuple whose elements are alike")
    _built_once(frame, node)
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
    frame.unit.taken[id(node)] = target
    return target


def copied(frame, call, node, descending, target):
    """``list(xs)``, ``tuple(xs)``, ``sorted(xs)``: a ``Take`` of the whole container."""
    name, path = container_of(frame, node)
    kind = kind_of_operand(frame, ir.Ref(name, path))
    elem = element(kind, None) if isinstance(kind, (t.List, t.Tuple)) else None
    if elem is None or is_container(elem):
        raise frame.error(UnsupportedSyntaxError, node, f"{call}() of a {kind}",
                          f"{call}() reads a list or tuple of numbers")
    _built_once(frame, node)
    target = target or frame.namer.fresh(f"{call}_{frame.hint}")
    length = len(kind.elts) if isinstance(kind, t.Tuple) else None
    _typed(frame, node, target, t.Tuple((elem,) * length) if call == "tuple" and length
           is not None else t.List(elem, None))
    frame.emit(ir.Take(target, name, path, (None, None, None), frame.origin, copy=call,
                       descending=descending))
    return ir.Var(target)


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


def element_name(node, path):
    """A name for the element ``node`` reads: ``xs[0]`` -> ``xs_0``, ``xs[-1]`` ->
    ``xs_last``, ``layers[i][1]`` -> ``layers_i_1``, ``p["w"]`` -> ``p_w``."""
    while isinstance(node, ast.Subscript):
        node = node.value
    parts = [node.id if isinstance(node, ast.Name) else "element"]
    for index in path:
        value = index.name if isinstance(index, ir.Var) else index.value
        if value == -1:
            value = "last"
        elif isinstance(value, int) and value < 0:
            value = f"last{-value}"
        value = str(value)
        parts.append(value if value.isidentifier() or value.isdigit() else "item")
    return "_".join(parts)


def literal(frame, node, target):
    """``[a, b]``, ``(a, b)``, ``{"w": a}``: a ``Build`` of the numbers' operands."""
    _built_once(frame, node)
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
    items = tuple(number(frame, e) for e in elements)
    target = target or frame.namer.fresh(frame.hint if kind != "tuple" else f"{frame.hint}_tuple")
    if kind == "list":  # a list's length is read when the gradient runs
        _typed(frame, node, target, t.List(t.FLOAT, None))
    elif kind == "tuple":
        _typed(frame, node, target, t.Tuple((t.FLOAT,) * len(items)))
    else:
        if frame.loops:
            raise frame.error(UnsupportedSyntaxError, node, "a dict built inside a loop is "
                              "not supported", "build it once, before the loop")
        _typed(frame, node, target, t.Dict(tuple((k, t.FLOAT) for k in keys)))
    frame.emit(ir.Build(target, kind, items, frame.origin, keys=keys))
    return ir.Var(target)


def repeated(frame, node, target):
    """``[0.0] * n`` (or ``n * [0.0]``): a list of ``n`` copies of one number; None when
    ``node`` is not one."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return None
    lists = [side for side in (node.left, node.right) if isinstance(side, ast.List)]
    if len(lists) != 1 or len(lists[0].elts) != 1:
        return None
    _built_once(frame, node)
    other = node.right if lists[0] is node.left else node.left
    item = number(frame, lists[0].elts[0])
    count = frame.value(other)
    target = target or frame.namer.fresh(frame.hint)
    _typed(frame, node, target, t.List(t.FLOAT, None))
    frame.emit(ir.Build(target, "list", (item,), frame.origin, repeat=count))
    return ir.Var(target)


def number(frame, node):
    """The operand of ``node``, which must be a number, not a container."""
    operand = frame.value(node)
    if is_container_operand(frame, operand):
        raise frame.error(UnsupportedSyntaxError, node, "a container stands where a number "
                          "is needed", "containers of containers are read from arguments; "
                          "build them of numbers here")
    return operand


def _built_once(frame, node):
    """A container is built on every path that reaches the reverse sweep: not in one
    branch of an ``if`` (a loop's body builds a new one each iteration)."""
    parents = getattr(frame, "_parents", None)
    if parents is None:
        parents = frame._parents = {id(child): parent for parent in ast.walk(frame.parsed.tree)
                                    for child in ast.iter_child_nodes(parent)}
    current = parents.get(id(node))
    while current is not None:
        if isinstance(current, (ast.If, ast.IfExp, ast.BoolOp)):
            raise frame.error(UnsupportedSyntaxError, node, "a container built in one branch "
                              "of an if is not supported", "build it before the if, and "
                              "change its elements in the branches")
        current = parents.get(id(current))


def bind(frame, name, operand):
    """What the user name ``name`` stands for once assigned the container ``operand``:
    an alias; or, where a loop carries ``name`` (it holds a container already, read
    before this assignment in the next iteration), a ``Share`` into its variable."""
    previous = frame.mapping.get(name)
    if not (frame.compound and isinstance(previous, ir.Var)
            and previous.name in frame.unit.containers) or operand == previous:
        return operand
    node = frame.statement_node
    kind = kind_of_operand(frame, operand)
    if not isinstance(kind, (t.List, t.Tuple)) or is_container(element(kind, None)):
        raise frame.error(UnsupportedSyntaxError, node, f"{name} is bound again in a loop "
                          f"to a {kind}", "only a list or tuple of numbers can be carried "
                          "from one iteration to the next")
    _typed(frame, node, previous.name, kind)
    source, path = (operand.container, operand.path) if isinstance(operand, ir.Ref) else (
        operand.name, ())
    frame.emit(ir.Share(previous.name, source, path, frame.origin))
    return previous


def returned(frame, node):
    """The error for a container returned by the differentiated function, or by a helper
    from inside a branch or a loop."""
    if frame.top:
        return frame.error(UnsupportedSyntaxError, node, "a container is returned: a "
                           "gradient is taken of a function returning one number",
                           "return one number (sum(xs), xs[-1]), or use symdiff.jacobian "
                           "for several outputs")
    return frame.error(UnsupportedSyntaxError, node, "a container is returned from inside a "
                       "branch or a loop", "return it once, after the branch or loop")


def _typed(frame, node, name, kind):
    """``name`` holds containers of type ``kind``: the same type at every assignment (a
    parameter's list rebuilt in a loop stays a list of numbers)."""
    known = frame.unit.containers.get(name)
    if known is not None and known != kind:
        raise frame.error(UnsupportedSyntaxError, node, f"{name} held a {known} and is "
                          f"given a {kind}", "give the new value a name of its own")
    frame.unit.containers[name] = kind


def empty_list(frame, name):
    """``name = []`` for a list that is filled by ``append`` and read (not a stack)."""
    node = frame.statement_node
    _built_once(frame, node)
    _typed(frame, node, name, t.List(t.FLOAT, None))
    frame.emit(ir.Build(name, "list", (), frame.origin))
    return ir.Var(name)


def assign_element(frame, target, value_node):
    """``xs[i] = v``: a ``SetItem``; False when ``target`` is not an element of a known
    list."""
    found = container_of(frame, target.value)
    if found is None:
        return False
    name, path = found
    kind = kind_of_operand(frame, ir.Ref(name, path))
    if not isinstance(kind, t.List):
        raise frame.error(UnsupportedSyntaxError, target, f"an element of a {kind} is "
                          "assigned: only a list's elements change", "build a list instead")
    index = index_operand(frame, target, name, path)
    if is_container(element(kind, None)):
        raise frame.error(UnsupportedSyntaxError, target, "a container inside a list is "
                          "replaced", "change its numbers one by one")
    frame.hint = name
    value = number(frame, value_node)
    frame.emit(ir.SetItem(name, path + (index,), value, frame.origin))
    return True


def append(frame, name, value_node):
    """``xs.append(v)`` on a list (not a stack): a ``Push`` of the number."""
    frame.hint = name
    frame.emit(ir.Push(name, number(frame, value_node), frame.origin))


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


def reduction(frame, op, node, start, target):
    """``sum(xs)``, ``sum(xs, start)``, ``min(xs)``, ``max(xs)``, ``math.fsum(xs)``,
    ``math.prod(xs)`` of a list or tuple of numbers; None when ``node`` is not a known
    container."""
    found = container_of(frame, node)
    if found is None:
        return None
    name, path = found
    kind = kind_of_operand(frame, ir.Ref(name, path))
    if path:  # a container inside another: read through a name of its own
        raise frame.error(UnsupportedSyntaxError, node, f"{op}() of a container inside "
                          "another is not read yet", f"bind it first: row = {ast.unparse(node)}")
    if not isinstance(kind, (t.List, t.Tuple)) or is_container(element(kind, None)):
        raise frame.error(UnsupportedSyntaxError, node, f"{op}() of a {kind}",
                          f"{op}() reads a list or tuple of numbers")
    start = None if start is None else number(frame, start)
    target = target or frame.namer.fresh(f"{op}_{frame.hint}")
    frame.emit(ir.Reduce(target, op, name, frame.origin, start=start))
    return ir.Var(target)
