"""To Python: the generated function as IR (``ir.sweeps``) -> a Python syntax tree.

Expects a ``Generated`` whose ``function`` is an ``ir.sweeps.Function`` (what
``differentiate`` and ``forward`` give).  Guarantees the same ``Generated`` with the
``function`` a plain ``ast.FunctionDef``, the tree ``emit`` prints:
each statement becomes the Python statement ``ir.sweeps`` says it stands for, each
expression is written by ``core.expr.to_ast``, a target that is a place
(``xs[k]``) as a subscript, a ``Comment`` becomes an
``ir.syntax.Comment``, and ``range``/``reversed`` are called by the names the generated
code has for them (an alias where the user's code shadows one).  Nothing is added,
dropped or reordered, but the parts of one call read in order are written as the call
unpacked (``backend.unpacking``).

With ``target="numba"`` the same statements are written in the subset ``numba.njit``
compiles (``backend.numba_target``): each save stack is one list per type of value it
saves, pushed and popped by its methods (no ``push, pop`` aliases), and a reversed
range is a ``range`` with a negative step, and a tuple made of a list is written out.
"""

import ast
import sys
from dataclasses import replace

from symdiff.backend.fields import attribute_reads
from symdiff.backend.methods import reductions_as_methods
from symdiff.backend.unpacking import unpacked
from symdiff.errors import InternalError
from symdiff.ir import sweeps as sw
from symdiff.backend.numba_spellings import tables_as_tuples
from symdiff.backend.numba_target import (plan_stacks, refusal, reversed_range, user_line,
                                          written_for_numba)
from symdiff.core.expr import to_ast
from symdiff.ir.syntax import (
    attr,
    call,
    call_method,
    comment,
    function_def,
    store,
)
from symdiff.core import expr as ex
from symdiff.core import types as t


def to_python(generated, target="python", origin=None, scalars=None):
    """``generated`` with its function written as a Python syntax tree (``target``:
    ``"python"``, or ``"numba"`` for the subset numba compiles; ``origin``: the user's
    file, where a construct that subset lacks is refused; ``scalars``: the number
    parameters passed as NumPy scalars of a narrow dtype, ``Program.scalars``, which the
    numba text computes in)."""
    names = {b: alias for alias, b in generated.builtins.items()}
    owned = set(generated.adjoints.values()) | set(getattr(generated, "counters", ()))
    written, namespace, stacks = generated.function, generated.namespace, None
    if target == "python":
        written = reductions_as_methods(written, _numpy_names(namespace))
    if target == "numba":
        written, numpy, narrow = written_for_numba(
            written, generated.builtins, namespace, generated.adjoints, generated.math_name,
            scalars)
        stacks = plan_stacks(written, origin, namespace, numpy, narrow)
        numpy = stacks.numpy or numpy
        namespace = tables_as_tuples(namespace)
        if numpy is not None and numpy not in namespace:  # for the arrays and spellings
            namespace = {**namespace, numpy: sys.modules["numpy"]}
    tree = function(written, names, owned, stacks, origin)
    return replace(generated, function=attribute_reads(tree, written.types, set(
        generated.adjoints.values())), namespace=namespace)


def _numpy_names(namespace):
    """The names the generated module reads numpy by (none where numpy is not loaded)."""
    numpy = sys.modules.get("numpy")
    return frozenset(n for n, v in namespace.items() if numpy is not None and v is numpy)


class _Names(dict):
    """The names builtins are called by, with the function's types and the buffers the
    gradient allocated (``owned``): what writing an ``AddTo`` reads."""

    types = {}
    owned = frozenset()
    stacks = None  # the numba target's ``StackPlan``; None: plain Python
    origin = None
    line = None  # the user's line of the last comment written (where a refusal points)


def function(fn, builtins=None, owned=(), stacks=None, origin=None):
    """The ``ast.FunctionDef`` of an ``ir.sweeps.Function`` (``owned``: the names of the
    buffers the gradient allocated itself; ``stacks``: for the numba target, the lists
    its save stacks are split into)."""
    kwarg = ast.arg(fn.kwarg, None) if fn.kwarg else None
    positional = fn.params[:len(fn.params) - len(fn.kwonly)]
    vararg = getattr(fn, "vararg", None)  # the last positional parameter, taken as ``*args``
    positional = [p for p in positional if p != vararg]
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg(p, None) for p in positional],
                              vararg=ast.arg(vararg, None) if vararg else None, kwonlyargs=[ast.arg(p, None) for p in fn.kwonly],
                              kw_defaults=[None if d is None else to_ast(d)
                                           for d in fn.kw_defaults],
                              kwarg=kwarg, defaults=[to_ast(d) for d in fn.defaults])
    names = _Names(builtins or {})
    names.types, names.owned = fn.types or {}, frozenset(owned)
    names.stacks, names.origin = stacks, origin
    return function_def(fn.name, arguments, statements(fn.body, names))


def statements(block, builtins=None):
    """The Python statements of an IR block."""
    builtins = builtins if isinstance(builtins, _Names) else _Names(builtins or {})
    out = []
    for stmt in block:
        out += _WRITERS.get(type(stmt), _unknown)(stmt, builtins)
    return unpacked(out)


def _assign(target, value):
    return ast.Assign([_store(target)], value, None)


def _store(target):
    """A target written: a name, or a place (``xs[k]``: its container and index read)."""
    if isinstance(target, str):
        return store(target)
    return ast.Subscript(value=to_ast(target.value), slice=to_ast(target.index),
                         ctx=ast.Store())


def _steps(stmt, builtins):
    if stmt.over is not None:
        keys = to_ast(stmt.over)
        if stmt.reverse and builtins.stacks is not None:
            raise refusal("a loop over a dict's keys", builtins.origin, builtins.line)
        return call(builtins.get("reversed", "reversed"), keys) if stmt.reverse else keys
    if stmt.reverse and builtins.stacks is not None:
        return call(builtins.get("range", "range"),
                    *[to_ast(b) for b in reversed_range(stmt.bounds)])
    steps = call(builtins.get("range", "range"), *[to_ast(b) for b in stmt.bounds])
    return call(builtins.get("reversed", "reversed"), steps) if stmt.reverse else steps


def _add_to(stmt, names):
    op = ast.Sub() if stmt.negate else ast.Add()
    if in_place(stmt, names.types, names.owned):
        return [ast.AugAssign(_store(stmt.target), op, to_ast(stmt.value))]
    target = stmt.target
    current = to_ast(ex.Name(target) if isinstance(target, str) else target)
    return [ast.Assign([_store(target)], ast.BinOp(current, op, to_ast(stmt.value)), None)]


def in_place(stmt, types, owned):
    """Whether the ``AddTo`` ``stmt`` adds in place: its target holds a number, or is (a
    place of) a buffer the gradient allocated; never where the types leave it open."""
    name = sw.target_name(stmt.target)
    kind = types.get(name)
    if stmt.owned:  # an array the gradient allocated and no other name holds
        return True
    if isinstance(kind, t.Array):  # an array adjoint bound to another's value: a new one
        return sw.is_place(stmt.target)  # (but into a place of zeros it allocated)
    if name in owned or not types:  # (sweeps without types: as written, as before)
        return True
    if sw.is_place(stmt.target):
        return isinstance(kind, (t.List, t.Dict, t.Tuple)) and _numbers_inside(kind)
    return kind in t.NUMBERS


def _numbers_inside(kind):
    if isinstance(kind, t.List):
        return kind.elem in t.NUMBERS
    items = kind.elts if isinstance(kind, t.Tuple) else [v for _, v in kind.items]
    return all(i in t.NUMBERS for i in items)


def _push(stmt, builtins):
    value = to_ast(stmt.value)
    if builtins.stacks is not None and not stmt.method:  # onto its type's list
        into = builtins.stacks.list_for(stmt.stack, builtins.types.get(stmt.value.id))
        if into in builtins.stacks.arrays:  # at its count, which grows by one
            top = builtins.stacks.arrays[into][2]
            return [ast.Assign([_store(ex.Subscript(ex.Name(into), ex.Name(top)))], value,
                               None), _count(top, ast.Add())]
        return [ast.Expr(call_method(into, "append", value))]
    made = call_method(stmt.stack, "append", value) if stmt.method else call(stmt.stack, value)
    return [ast.Expr(made)]


def _pop(stmt, builtins):
    if builtins.stacks is not None and not stmt.method:  # off its type's list
        into = builtins.stacks.list_for(stmt.stack, builtins.types.get(stmt.target))
        if into in builtins.stacks.arrays:  # the count goes back by one, to the value
            top = builtins.stacks.arrays[into][2]
            return [_count(top, ast.Sub()), _assign(stmt.target, to_ast(
                ex.Subscript(ex.Name(into), ex.Name(top))))]
        made = call_method(into, "pop")
    else:
        made = call_method(stmt.stack, "pop") if stmt.method else call(stmt.stack)
    if type(stmt.target) is tuple:  # the values of one pushed tuple: a, b = pop()
        unpacked = ast.Tuple([store(name) for name in stmt.target], ast.Store())
        return [ast.Assign([unpacked], made, None)]
    return [ast.Expr(made) if stmt.target is None else _assign(stmt.target, made)]


def _count(top, op):
    return ast.AugAssign(store(top), op, to_ast(ex.Const(1)))


def _new_stack(stmt, builtins):
    if builtins.stacks is not None:
        return [made for name in builtins.stacks.made[stmt.stack]
                for made in _new_list(name, builtins.stacks)]
    return [_assign(stmt.stack, ast.List([], ast.Load())),
            ast.Assign([ast.Tuple([store(stmt.push), store(stmt.pop)], ast.Store())],
                       ast.Tuple([attr(stmt.stack, "append"), attr(stmt.stack, "pop")],
                                 ast.Load()))]


def _new_list(name, stacks):
    """A save list: empty, or an array of its capacity with its count at zero."""
    if name not in stacks.arrays:
        return [_assign(name, ast.List([], ast.Load()))]
    capacity, dtype, top = stacks.arrays[name]
    args = (capacity,) + (() if dtype is None else (ex.Attribute(ex.Name(stacks.numpy),
                                                                 dtype),))
    empty = ex.Call(ex.Attribute(ex.Name(stacks.numpy), "empty"), args)
    return [_assign(name, to_ast(empty)), _assign(top, to_ast(ex.Const(0)))]


def _comment(stmt, builtins):
    builtins.line = user_line(stmt.text, builtins.line)
    return [comment(stmt.text)]


def _try(stmt, builtins):
    """``try: body`` with one clause per class expression, each recording its number (and
    keeping the exception where ``error`` is set); numba matches no exception class."""
    if builtins.stacks is not None:
        raise refusal("a try statement", builtins.origin, builtins.line)
    handlers = []
    for number, classes in enumerate(stmt.catches, start=1):
        body = [_assign(stmt.caught, to_ast(ex.Const(number)))]
        if stmt.error:
            body.append(_assign(stmt.error, ast.Name(stmt.raised, ast.Load())))
        body += statements(stmt.cleanup, builtins)
        handlers.append(ast.ExceptHandler(to_ast(classes), stmt.raised if stmt.error else None,
                                          body))
    return [ast.Try(statements(stmt.body, builtins), handlers, [], [])]


def _unknown(stmt, builtins):
    raise InternalError("to_python", f"not a statement of generated code: {stmt!r}")


_WRITERS = {
    sw.Let: lambda s, b: [_assign(s.target, to_ast(s.value))],
    sw.AddTo: _add_to,
    sw.Do: lambda s, b: [ast.Expr(to_ast(s.value))],
    sw.NewStack: _new_stack,
    sw.Push: _push,
    sw.Pop: _pop,
    sw.If: lambda s, b: [ast.If(to_ast(s.test), statements(s.body, b),
                                statements(s.orelse, b))],
    sw.For: lambda s, b: [ast.For(store(s.target), _steps(s, b), statements(s.body, b), [],
                                  None)],
    sw.While: lambda s, b: [ast.While(to_ast(s.test), statements(s.body, b), [])],
    sw.Try: _try,
    sw.Break: lambda s, b: [ast.Break()],
    sw.Pass: lambda s, b: [ast.Pass()],
    sw.Check: lambda s, b: [s.check.to_ast()],
    sw.Comment: lambda s, b: _comment(s, b),
    sw.Raise: lambda s, b: [ast.Raise(to_ast(s.value), None)],
    sw.Return: lambda s, b: [ast.Return(to_ast(s.value))],
}


def python_names(stmt, builtins=None):
    """The names in the Python statement ``stmt`` stands for, in ``ast.walk``'s order."""
    return [n.id for s in _WRITERS.get(type(stmt), _unknown)(stmt, _Names(builtins or {}))
            for n in ast.walk(s) if isinstance(n, ast.Name)]


__all__ = ["function", "python_names", "statements", "to_python"]
