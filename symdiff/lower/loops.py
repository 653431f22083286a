"""Loops: ``for`` over a range or a table, ``while``, and their ``else``.

Expects a ``Frame``.  A loop is left only through a ``BreakIf`` at the end of its body,
testing the flags its ``break`` (``stop``) and any ``return`` inside it set; a
``continue`` sets ``skip``, which guards the rest of the iteration.  A loop over a table
(``for c in T``, ``reversed(T)``, ``enumerate(T)``, ``zip(A, B)``) is a loop over the
table's positions whose body reads the elements first.  A loop over a dict runs over
its keys (``for k in d:``).  One whose body reads a container of unlike elements by its
variable is lowered once per element (``unrolled``).

    for c in T:              ──►    for c_index in range(3):
        s = s + c                       c = T[c_index]
                                        s = s + c
"""

import ast
import builtins
from contextlib import contextmanager

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.exits import contains
from symdiff.core import expr as ex
from symdiff.ir import nodes as ir
from symdiff.core import types as t
from symdiff.core.records import is_record
from symdiff.lower import containers, control, expressions, names, tables
from symdiff.lower.operands import any_of, operand_ast, reads_of
from symdiff.lower.afresh import fresh_loop_names
from symdiff.lower.scope import Loop
from symdiff.lower.unrolled import unrolled_keys, unrolled_range


def stmt_For(frame, node):
    call = node.iter
    if over_keys(frame, node) is not None:
        key_loop(frame, node)
        return
    if not isinstance(call, ast.Call) or names.meaning_of(
            frame, call.func.id, call.func).value in (enumerate, zip):
        table_loop(frame, node)
        return
    frame.hint = node.target.id
    steps, reverse = node.iter, False
    if names.meaning_of(frame, steps.func.id, steps.func).kind == "reversed":
        steps, reverse = steps.args[0], True
        if not isinstance(steps, ast.Call):  # reversed(TABLE)
            table_loop(frame, node, reverse=True)
            return
    if not isinstance(steps.func, ast.Name) or (
            names.meaning_of(frame, steps.func.id, steps.func).kind != "range"):
        raise loop_refused(frame, node.iter, steps)
    bounds = tuple(frame.value(arg) for arg in steps.args)
    if not reverse and unrolled_range(frame, node, bounds):
        return
    fresh_loop_names(frame, node, _bound(node.target))
    control.enter_compound(frame, node)
    origin = frame.origin
    target = frame.target_name(node.target.id)
    frame.mapping[node.target.id] = ir.Var(target)
    with open_loop(frame, node) as loop:
        body = loop_body(frame, node, loop)
    frame.emit(ir.For(target, bounds, body, origin, reverse))
    loop_else(frame, node, loop)


def _bound(target):
    """The names a loop's target binds every iteration."""
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def over_keys(frame, node):
    """``(dict, reverse, sort)`` when ``node`` loops over a dict's keys (``for k in d``,
    ``for k in reversed(d)``, ``for k in sorted(d)``, as desugar writes every loop over a
    dict); else None."""
    iterable, reverse, sort = node.iter, False, False
    if _calls(frame, iterable, "reversed"):
        iterable, reverse = iterable.args[0], True
    if _calls(frame, iterable, "sorted"):
        iterable, sort = iterable.args[0], True
    if not isinstance(iterable, (ast.Name, ast.Subscript)):
        return None
    found = containers.container_of(frame, iterable)
    kind = None if found is None else containers.kind_of_operand(frame, ir.Ref(*found))
    if isinstance(kind, (t.List, t.Tuple)):  # desugar loops over one by its positions
        raise frame.error(UnsupportedSyntaxError, iterable, f"a loop over the keys of a "
                          f"{kind}: it has no keys", "loop over its elements, `for x in "
                          "xs:`, or its positions, `for i in range(len(xs)):`")
    if is_record(kind):  # a namedtuple iterates its values, a dataclass not at all
        raise frame.error(UnsupportedSyntaxError, iterable, f"a loop over a "
                          f"{kind.cls.__qualname__}: its fields are read by name here",
                          "loop over a tuple of them: for v in (" + ", ".join(
                              f"{ast.unparse(iterable)}.{k}" for k, _ in kind.items) + "):")
    if sort and not isinstance(kind, t.Dict):
        return None  # sorted numbers: a copy (``changes.copied``)
    return (iterable, reverse, sort) if isinstance(kind, t.Dict) else None


def _calls(frame, node, builtin):
    """Whether ``node`` is ``reversed(x)`` or ``sorted(x)`` (``builtin``), one argument."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and len(node.args) == 1 and not node.keywords):
        return False
    meant = names.meaning_of(frame, node.func.id, node.func)
    return meant.kind == builtin or meant.kind == "other" and meant.value is getattr(
        builtins, builtin)


def key_loop(frame, node):
    """``for k in d:`` over a dict's keys, in their order (``reversed(d)``: the other
    way): the loop variable holds each key, and ``d[k]`` (or ``e[k]`` of a dict with
    the same keys) reads an entry by it (``containers.index_operand``)."""
    iterable, reverse, sort = over_keys(frame, node)
    name, path = containers.container_of(frame, iterable)
    if not all(isinstance(index, ir.Const) for index in path):
        raise frame.error(UnsupportedSyntaxError, iterable, "a loop over the keys of a dict "
                          "read by a changing index", "loop over the keys of a dict read "
                          "by constants, or of a dict parameter")
    if not isinstance(node.target, ast.Name):
        raise frame.error(UnsupportedSyntaxError, node.target, "a loop over a dict's keys "
                          "must assign one plain name", "write `for key in d:`")
    frame.hint = node.target.id
    kind = containers.kind_of_operand(frame, ir.Ref(name, path))
    if unrolled_keys(frame, node, kind, reverse, sort):
        return
    fresh_loop_names(frame, node, _bound(node.target))
    control.enter_compound(frame, node)
    origin = frame.origin
    target = frame.target_name(node.target.id)
    frame.mapping[node.target.id] = ir.Var(target)
    frame.unit.keys[target] = tuple(k for k, _ in kind.items)
    with open_loop(frame, node) as loop:
        body = loop_body(frame, node, loop)
    frame.emit(ir.For(target, (), body, origin, reverse, over=ir.Ref(name, path), sort=sort))
    loop_else(frame, node, loop)


def loop_refused(frame, iterable, steps):
    """The error for ``for ... in <iterable>`` whose ``steps`` is no range: in the
    user's terms, a builtin hidden by a name of theirs said as such."""
    name = steps.func.id if isinstance(steps.func, ast.Name) else None
    if name in ("range", "reversed"):
        meant = names.meaning_of(frame, name, steps.func)
        what = ("a variable of this function" if meant.kind == "local"
                else names.describe(meant.value) if meant.kind in ("other", "constant")
                else names.KINDS.get(meant.kind, "another object"))
        return frame.error(UnsupportedSyntaxError, steps.func,
                           f"{name} here is {what}, not the builtin {name}",
                           f"rename the name that hides the builtin {name}")
    return frame.error(UnsupportedSyntaxError, iterable,
                       f"a for loop over {ast.unparse(iterable)} is not supported",
                       "loop over range(...), reversed(range(...)), a table of numbers, "
                       "reversed(TABLE), enumerate(TABLE) or zip(A, B)")


def table_loop(frame, node, reverse=False):
    """``for c in TABLE:``, ``for c in reversed(TABLE):``, ``for i, c in
    enumerate(TABLE):`` or ``for a, b in zip(A, B):``, as a loop over the tables'
    positions whose body starts by reading the elements (values with no derivative):
    ``for i in range(len(TABLE)): c = TABLE[i]; ...`` (``reversed(range(...))`` for
    ``reversed``)."""
    index_user, elements, iterables = None, [node.target], [node.iter]
    if reverse:
        iterables = node.iter.args
    elif isinstance(node.iter, ast.Call):  # enumerate or zip, as fence allows
        if node.iter.func.id == "enumerate":
            index_user, elements = node.target.elts[0], [node.target.elts[1]]
        else:
            elements = node.target.elts
        iterables = node.iter.args
    frame.hint = elements[0].id
    read = [_iterated(frame, iterable) for iterable in iterables]
    length = loop_length(frame, iterables, read)
    fresh_loop_names(frame, node, _bound(node.target))
    control.enter_compound(frame, node)
    origin = frame.origin
    if index_user is not None:
        index = frame.target_name(index_user.id)
        frame.mapping[index_user.id] = ir.Var(index)
    else:
        index = frame.namer.fresh(f"{elements[0].id}_index")
    with open_loop(frame, node) as loop:
        def read_elements():  # each iteration reads its elements first, at the loop's line
            frame.set_origin(node)
            for element, (name, values) in zip(elements, read):
                if isinstance(values, Iterated):  # a container's element: a number or an alias
                    path = values.path + (ir.Var(index),)
                    frame.mapping[element.id] = containers.element_at(
                        frame, name, path, frame.target_name(element.id))
                    continue
                frame.mapping[element.id] = tables.table_entry(
                    frame, name, values, ir.Var(index), frame.target_name(element.id))
        body = loop_body(frame, node, loop, read_elements)
    frame.emit(ir.For(index, (length,), body, origin, reverse))
    loop_else(frame, node, loop)


class Iterated:
    """A container a loop runs over: read by ``containers``, not as a table."""

    def __init__(self, path, node):
        self.path, self.node = path, node


def _iterated(frame, iterable):
    found = containers.container_of(frame, iterable)
    if found is None:
        return tables.table(frame, iterable)
    return found[0], Iterated(found[1], iterable)


def loop_length(frame, iterables, read):
    """How many times a loop over ``iterables`` runs: the shortest one's length."""
    if any(isinstance(values, Iterated) for _, values in read):
        lengths = [containers.length(frame, values.node) if isinstance(values, Iterated)
                   else tables.table_length(frame, iterable)
                   for iterable, (_, values) in zip(iterables, read)]
        if len(lengths) == 1:
            return lengths[0]
        shortest = ast.Call(ast.Name("min", ast.Load()), [operand_ast(n) for n in lengths], [])
        return ir.Var(frame.compute(frame.namer.fresh("length"), shortest, tuple(
            n.name for n in lengths if isinstance(n, ir.Var))))
    if all(values is not None for _, values in read):
        return ir.Const(min(len(values) for _, values in read))
    lengths = [tables.table_length(frame, iterable) for iterable in iterables]
    if len(lengths) == 1:
        return lengths[0]
    shortest = ast.Call(ast.Name("min", ast.Load()), [operand_ast(n) for n in lengths], [])
    return ir.Var(frame.compute(frame.namer.fresh("length"), shortest,
                                tuple(n.name for n in lengths if isinstance(n, ir.Var))))


def stmt_While(frame, node):
    fresh_loop_names(frame, node)
    control.enter_compound(frame, node)
    origin = frame.origin
    with frame.nested():
        frame.hint = "cond"
        pre, test = frame.capture(lambda: expressions.condition(frame, node.test))
        with open_loop(frame, node) as loop:
            body = loop_body(frame, node, loop)
    test_expr, reads = ex.of_operand(test), reads_of(test)
    if len(pre) == 1 and isinstance(pre[0], ir.Compute) and reads == (pre[0].target,):
        test_expr, reads, pre = pre[0].expr, pre[0].reads, []  # `while x > 1:` as written
    frame.emit(ir.While(pre, test_expr, reads, body, origin))
    loop_else(frame, node, loop)


def loop_else(frame, node, loop):
    """A loop's ``else:``, run when the loop ended without ``break`` (or ``return``)."""
    if not node.orelse:
        return
    flags = [loop.stop] if loop.stop else []
    if loop.may_return:
        flags.append(frame.returned_flag())
    if flags:
        control.guarded(frame, flags, node.orelse, node)
    else:
        frame.block(node.orelse)


@contextmanager
def open_loop(frame, node):
    loop = Loop()
    if contains(node.body, ast.Break, into_loops=False):
        loop.stop = frame.namer.fresh("stop")
        frame.emit(frame.flag_set(loop.stop, False))
    if contains(node.body, ast.Continue, into_loops=False):
        loop.skip = frame.namer.fresh("skip")
    frame.loops.append(loop)
    try:
        with frame.nested():
            yield loop
    finally:
        frame.loops.pop()


def loop_body(frame, node, loop, prologue=None):
    """The loop's body; ``prologue()`` emits what each iteration does first."""
    body, _ = frame.capture(lambda: _iteration(frame, node, loop, prologue))
    return body


def _iteration(frame, node, loop, prologue):
    if loop.skip:
        frame.emit(frame.flag_set(loop.skip, False))
    if prologue is not None:
        prologue()
    frame.block(node.body)
    exits = [flag for flag in (loop.stop,) if flag]
    if loop.may_return:
        exits.append(frame.returned_flag())
    if exits:
        frame.flag_reads.update(exits)
        frame.set_origin(node)
        frame.emit(ir.BreakIf(ex.from_ast(any_of(exits)), tuple(exits), frame.origin))
