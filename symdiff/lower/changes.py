"""Changes: containers built and changed, and the whole-container calls.

Expects a ``Frame`` and the reading half, ``containers`` (kinds, element reads,
literals).  ``[0.0] * n`` and ``[]`` build lists; ``xs[i] = v`` is a ``SetItem``,
``xs.append(v)`` a ``Push`` and ``xs.pop()`` a ``Pop`` (a list used as a stack is a
list like any other, its methods bound to names too: ``push, pop = s.append, s.pop``);
``sum``/``min``/``max``/``math.fsum``/``math.prod`` of a
container a ``Reduce``, and ``list``/``tuple``/``sorted`` of one a ``Take``; a name a
loop carries, bound again to a list, a ``Share``.  In forward mode (the text of a
gradient read again), rows of any kind are appended and popped (its tapes of lists and
records), and ``xs.insert(k, v)`` is the ``Join`` ``xs[:k] + [v] + xs[k:]``.

    xs = [0.0] * n          ->   xs = [0.0] * n                    (Build, repeat n)
    xs[k + 1] = v           ->   add_xs = k + 1; xs[add_xs] = v     (SetItem)
    top = xs.pop()          ->   top = xs.pop()                    (Pop)
    total = sum(ys, 1.0)    ->   total = sum(ys, 1.0)              (Reduce)
"""

import ast

from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.core import types as t
from symdiff.core.types import element, is_container
from symdiff.lower.containers import (
    _joined,
    _typed,
    container_of,
    index_operand,
    is_container_operand,
    kind_of_operand,
    literal,
    number,
)
from symdiff.lower.filling import filled_kind
from symdiff.lower.placement import built_once
from symdiff.primitives.reductions import in_library

WRITTEN_OUT = ("sum", "min", "max")  # of a container written out in the call, a ``Reduce``
# (``math.fsum([a, b])`` and ``math.prod`` of numbers written out are records of their own)


def copied(frame, call, node, descending, target, keys=None):
    """``list(xs)``, ``tuple(xs)``, ``sorted(xs)``: a ``Take`` of the whole container
    (``keys``: the list ``sorted`` orders it by, ``keyed``'s)."""
    name, path = container_of(frame, node)
    kind = kind_of_operand(frame, ir.Ref(name, path))
    elem = element(kind, None) if isinstance(kind, (t.List, t.Tuple)) else None
    if elem is None or is_container(elem):
        raise frame.error(UnsupportedSyntaxError, node, f"{call}() of a {kind}",
                          f"{call}() reads a list or tuple of numbers")
    built_once(frame, node)
    target = target or frame.namer.fresh(f"{call}_{frame.hint}")
    length = len(kind.elts) if isinstance(kind, t.Tuple) else None
    _typed(frame, node, target, t.Tuple((elem,) * length) if call == "tuple" and length
           is not None else t.List(elem, None))
    frame.emit(ir.Take(target, name, path, (None, None, None), frame.origin, copy=call,
                       descending=descending, keys=keys))
    return ir.Var(target)


def repeated(frame, node, target):
    """``[0.0] * n`` (or ``n * [0.0]``): a list of ``n`` copies of one number; None when
    ``node`` is not one."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return None
    lists = [side for side in (node.left, node.right) if isinstance(side, ast.List)]
    if len(lists) != 1 or len(lists[0].elts) != 1:
        return None
    built_once(frame, node)
    other = node.right if lists[0] is node.left else node.left
    item = number(frame, lists[0].elts[0])
    count = frame.value(other)
    target = target or frame.namer.fresh(frame.hint)
    _typed(frame, node, target, t.List(t.FLOAT, None))
    frame.emit(ir.Build(target, "list", (item,), frame.origin, repeat=count))
    return ir.Var(target)


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
    if source not in frame.unit.made_by_insert:  # (an insert's own list: no alias)
        if {previous.name, source} & frame.unit.inserted:
            raise frame.error(UnsupportedSyntaxError, node, f"{name} is bound in a loop to "
                              "a list inserted into", "insert into a copy: list(...)")
        frame.unit.shared.update((previous.name, source))
    frame.emit(ir.Share(previous.name, source, path, frame.origin))
    return previous


def returned(frame, node):
    """The error for a container returned by the differentiated function, or by a helper
    from inside a branch or a loop."""
    if frame.top and not frame.unit.any_result:
        return frame.error(UnsupportedSyntaxError, node, "a container is returned: a "
                           "gradient is taken of a function returning one number",
                           "return one number (sum(xs), xs[-1]), or use symdiff.jacobian "
                           "for several outputs")
    return frame.error(UnsupportedSyntaxError, node, "a container is returned from inside a "
                       "branch or a loop", "return it once, after the branch or loop")


def empty_list(frame, name):
    """``name = []``: a list filled by ``append``, its kind what is appended first; a
    new list, so one ``name`` held before and was appended to another list is read
    through that list alone."""
    node = frame.statement_node
    built_once(frame, node)
    frame.unit.given.discard(name)
    if name not in frame.unit.containers:  # its kind is what is appended first
        frame.unit.empty.add(name)
        frame.unit.containers[name] = t.List(t.FLOAT, None)
    frame.emit(ir.Build(name, "list", (), frame.origin))
    return ir.Var(name)


def assign_element(frame, target, value_node):
    """``xs[i] = v`` or ``d[k] = v`` (a number under a key the dict has): a ``SetItem``;
    False when ``target`` is not an element of a known list or dict."""
    found = container_of(frame, target.value, filling=True)
    if found is None:
        return False
    name, path = found
    kind = kind_of_operand(frame, ir.Ref(name, path))
    if name in frame.unit.unfilled and not path:  # ``out[k] = v`` fills ``out = {}``
        kind = filled_kind(frame, target, name)
    if not isinstance(kind, (t.List, t.Dict)):
        raise frame.error(UnsupportedSyntaxError, target, f"an element of a {kind} is "
                          "assigned: only a list's elements and a dict's entries change",
                          "build a list instead")
    not_held(frame, target, name)
    index = index_operand(frame, target, name, path)
    frame.hint = name
    row = element(kind, index.value if isinstance(kind, t.Dict) and isinstance(
        index, ir.Const) else None)
    if isinstance(kind, t.Dict) and is_container(row):
        raise frame.error(UnsupportedSyntaxError, target, f"an entry of a {kind} that holds "
                          f"a {row} is replaced", "change its numbers one by one")
    if is_container(row):  # a row replaced by a list of numbers built here
        value = frame.value(value_node)
        if not isinstance(value, ir.Var) or kind_of_operand(frame, value) != row:
            raise frame.error(UnsupportedSyntaxError, value_node, f"a {row} inside a list is "
                              "replaced by something else", "replace it by a list built "
                              "here, of the same kind, or change its numbers one by one")
        frame.unit.given.add(value.name)
    else:
        value = number(frame, value_node)
    frame.emit(ir.SetItem(name, path + (index,), value, frame.origin))
    return True


def not_held(frame, node, name):
    if name in frame.unit.holding:
        raise frame.error(UnsupportedSyntaxError, node, f"{name} is held by name inside "
                          "another container, and is changed", "change a copy: list(...)")


def append(frame, name, value_node):
    """``xs.append(v)`` on a list: a ``Push`` of the number, or of a list
    of numbers built here (``[[a * b for b in xs] for a in xs]``: a list of rows).  A list
    made empty (``[]``) takes the kind of what is first appended to it."""
    frame.hint = name
    not_held(frame, value_node, name)
    if isinstance(value_node, (ast.List, ast.Tuple)):  # a row written out: built first
        value = literal(frame, value_node, frame.namer.fresh(f"{name}_row"))
    else:
        value = frame.value(value_node)
    kind = kind_of_operand(frame, value)
    if is_container(kind):  # (in forward mode, any container by name: a save stack's)
        if not isinstance(value, ir.Var) or not frame.unit.allow_tuple and (
                not isinstance(kind, (t.List, t.Tuple)) or is_container(element(kind, None))):
            raise frame.error(UnsupportedSyntaxError, value_node, "only a list or tuple of "
                              "numbers built in this function can be appended to a list",
                              "append its numbers, or build the row first: row = [...]")
        frame.unit.given.add(value.name)
    undecided = name in frame.unit.empty
    frame.unit.empty.discard(name)
    keys = frame.unit.keys.get(value.name) if isinstance(value, ir.Var) else None
    if keys is not None:  # a loop's key, on a tape of keys: popped, one of those keys
        frame.unit.keys[name] = tuple(dict.fromkeys(frame.unit.keys.get(name, ()) + keys))
    elem = kind if is_container(kind) else t.STR if keys is not None else t.FLOAT
    if undecided:
        frame.unit.containers[name] = t.List(elem, None)
    elif element(frame.unit.containers[name], None) != elem and not (
            elem == t.FLOAT and element(frame.unit.containers[name], None) == t.INT):
        raise frame.error(UnsupportedSyntaxError, value_node, f"a {elem} is appended to a "
                          f"{frame.unit.containers[name]}", "append values of one kind")
    frame.emit(ir.Push(name, value, frame.origin))


def insert(frame, call):
    """In forward mode, ``xs.insert(k, v)`` on a list of numbers: ``xs`` bound to
    ``xs[:k] + [v] + xs[k:]``, Python's insert at every ``k`` (negative, or past either
    end), as two ``Take`` s and a ``Join``; False when ``call`` is no such insert.  The
    list is made anew, so only where no other name holds it: one the function builds
    (not a parameter's), in its own body (not a helper's), that no other name is bound
    to and no loop shares (``bind``: refused there when it is inserted into), as a
    gradient's lists, which forward mode reads again."""
    func = call.func
    if not (frame.unit.allow_tuple and isinstance(func, ast.Attribute) and func.attr ==
            "insert" and isinstance(func.value, ast.Name) and len(call.args) == 2
            and not call.keywords):
        return False
    found = container_of(frame, func.value)
    kind = found and not found[1] and frame.unit.containers.get(found[0])
    if not isinstance(kind, t.List) or is_container(element(kind, None)):
        return False
    name = found[0]
    not_held(frame, call, name)
    others = [n for n, o in frame.mapping.items() if n != func.value.id and (
        o == ir.Var(name) or isinstance(o, ir.Ref) and o.container == name)]
    if not frame.top or name in frame.unit.params or name in frame.unit.shared or others:
        return False
    frame.unit.inserted.add(name)
    frame.hint = func.value.id
    position = frame.value(call.args[0])
    if is_container_operand(frame, position) or (
            isinstance(position, ir.Const) and type(position.value) is not int):
        raise frame.error(UnsupportedSyntaxError, call.args[0], "an insert at a position "
                          "that is not a whole number", "insert at an int: xs.insert(i, v)")
    value = number(frame, call.args[1])
    elem = _joined(element(kind, None), kind_of_operand(frame, value) or t.FLOAT)
    before, after = (frame.namer.fresh(f"{name}_{side}") for side in ("before", "after"))
    for side, bounds in ((before, (None, position, None)), (after, (position, None, None))):
        _typed(frame, call, side, t.List(element(kind, None), None))
        frame.emit(ir.Take(side, name, (), bounds, frame.origin))
    target = frame.namer.fresh(func.value.id)
    frame.unit.made_by_insert.add(target)
    _typed(frame, call, target, t.List(elem, None))
    frame.emit(ir.Join(target, "list", (ir.Ref(before, ()), ir.Literal("list", (value,)),
                                        ir.Ref(after, ())), frame.origin))
    frame.mapping[func.value.id] = bind(frame, func.value.id, ir.Var(target))
    return True


def list_method(frame, func):
    """``(list, "append" | "pop")`` when the callee ``func`` is a method of a list this
    lowering knows, as an attribute (``xs.pop``) or bound to a name (``pop`` after
    ``push, pop = stack.append, stack.pop``); else None."""
    if isinstance(func, ast.Name):
        return frame.methods.get(func.id)
    if not (isinstance(func, ast.Attribute) and func.attr in ("append", "pop")
            and isinstance(func.value, ast.Name)):
        return None
    found = container_of(frame, func.value)
    if found is None or found[1]:
        return None
    return found[0], func.attr


def bind_methods(frame, node):
    """``push, pop = stack.append, stack.pop`` (or one such name): the names stand for
    the methods of that list from here on; False when ``node`` binds no list method."""
    target, value = node.targets[0], node.value
    pairs = [(target, value)]
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(
            target.elts) == len(value.elts):
        pairs = list(zip(target.elts, value.elts))
    if len(node.targets) != 1 or not all(isinstance(alias, ast.Name) and isinstance(
            method, ast.Attribute) for alias, method in pairs):
        return False
    methods = [list_method(frame, v) for _, v in pairs]
    if not all(methods):
        return False
    for (alias, _), method in zip(pairs, methods):
        frame.methods[alias.id] = method
    return True


def pop(frame, name, call, target):
    """``xs.pop()``, ``xs.pop(i)`` of a list of numbers: a ``Pop`` of its last element (or
    of the one at ``i``, an int) into ``target`` (a fresh name when None), the list one
    shorter.  In forward mode, ``row = rows.pop()`` of a list of lists takes the last row
    off, into a name or dropped (a save stack of lists, read again: no other name holds
    the row from then on; reverse mode does not put a row back yet)."""
    if call.keywords or len(call.args) > 1:
        raise frame.error(UnsupportedSyntaxError, call, "this call of pop() is not "
                          "supported", "pop the last element, xs.pop(), or one by its "
                          "position, xs.pop(i)")
    index = frame.value(call.args[0]) if call.args else None
    if isinstance(index, ir.Const) and type(index.value) is not int or (
            is_container_operand(frame, index)):
        raise frame.error(UnsupportedSyntaxError, call.args[0], "a pop at a position that "
                          "is not a whole number", "pop by an int: xs.pop(i)")
    if index == ir.Const(-1):
        index = None
    kind = frame.unit.containers[name]
    row = frame.unit.allow_tuple and isinstance(kind, t.List) and is_container(element(
        kind, None)) and index is None
    if not isinstance(kind, t.List) or is_container(element(kind, None)) and not row:
        raise frame.error(UnsupportedSyntaxError, call, f"pop() of a {kind}", "pop from a "
                          "list of numbers; read a row of a list of rows by its index")
    not_held(frame, call, name)
    target = target or frame.namer.fresh(f"{name}_top" if index is None else f"{name}_popped")
    if name in frame.unit.keys:
        frame.unit.keys[target] = frame.unit.keys[name]
    if row:
        _typed(frame, call, target, element(kind, None))
        frame.unit.empty.discard(target)
        if name in frame.unit.holders:  # perhaps a row a name holds: not changed through it
            frame.unit.holding.add(target)
    frame.emit(ir.Pop(name, target, frame.origin, index=index))
    return ir.Var(target)


def reduction(frame, op, node, start, target):
    """``sum(xs)``, ``sum(xs, start)``, ``min(xs)``, ``max(xs)``, ``math.fsum(xs)``,
    ``math.prod(xs)`` of a list or tuple of numbers (the builtins' of one written out in
    the call too: ``sum([a, b])``); None when ``node`` is not a known container."""
    found = container_of(frame, node, written=op in WRITTEN_OUT or in_library(op))
    if found is None:
        return None
    name, path = found
    kind = kind_of_operand(frame, ir.Ref(name, path))
    if not isinstance(kind, (t.List, t.Tuple)) or is_container(element(kind, None)):
        raise frame.error(UnsupportedSyntaxError, node, f"{op}() of a {kind}",
                          f"{op}() reads a list or tuple of numbers")
    start = None if start is None else number(frame, start)
    target = target or frame.namer.fresh(f"{op.rpartition('.')[2]}_{frame.hint}")
    frame.emit(ir.Reduce(target, op, name, frame.origin, start=start, path=path))
    return ir.Var(target)
