"""Function values: a function passed to a helper, inlined where the helper calls it.

Expects a ``Frame`` and a call of a user helper whose arguments may be functions: a
function of the module (``euler(rhs, x0, dt, n)``), a nested ``def`` or a parameter
bound to a function (forwarded), or a lambda written in the call (``euler(lambda x: -k
* x, x0, dt, n)``, read as a nested function of the caller: its free names mean what
they mean in the caller at the call).  Guarantees ``passed_functions(frame, fn, node)``:
the call with those arguments replaced by ``None`` (the helper's number parameters are
bound as before) and ``{parameter: the function's meaning}`` (``frontend.resolve``), which the helper's frame holds as its
functions, so its calls of the parameter inline the function passed (the function is
known when the gradient is built: for the differentiated function's own parameters it
is part of the kind signature, ``core.records.Function``).  An object read as data
(``lower.objects``: ``integrate(system, x)``, the receiver of ``system.energy(v)``) is
passed the same way, as ``Meaning("object")``: the helper's ``self.mass`` reads its field.

    def euler(rhs, x, dt, n):           y = euler(decay, x0, 0.1, 3)
        for i in range(n):          ->  (euler inlined; each rhs(x) inlines decay(x))
            x = x + dt * rhs(x)
        return x
"""

import ast
import copy
import inspect

from symdiff.frontend.parse import lambda_as_def
from symdiff.frontend.resolve import Meaning
from symdiff.core.records import Record, is_record
from symdiff.ir import nodes as ir
from symdiff.lower import containers, names
from symdiff.lower.scope import Nested


def passed_functions(frame, fn, reading, node):
    """``(call node, {parameter: function})`` for the call ``node`` of ``fn`` (see the
    module); the node itself and ``{}`` when no argument is a function."""
    params = reading.params
    called = {n.func.id for n in ast.walk(reading.tree) if isinstance(n, ast.Call) and (
        isinstance(n.func, ast.Name))}  # (an object with ``__call__`` is a function there)
    found, args, keywords = {}, list(node.args), list(node.keywords)
    for i, (param, arg) in enumerate(zip(params, node.args)):
        function = function_value(frame, arg, param, param in called, param in reading.tables)
        if function is not None:
            found[param], args[i] = function, _none(arg)
    for i, keyword in enumerate(node.keywords):
        function = function_value(frame, keyword.value, keyword.arg, keyword.arg in called,
                                  keyword.arg in reading.tables)
        if function is not None and keyword.arg in params:
            found[keyword.arg] = function
            keywords[i] = ast.keyword(keyword.arg, _none(keyword.value))
    if not found:
        return node, {}
    call = copy.copy(node)
    call.args, call.keywords = args, keywords
    return call, found


def function_value(frame, node, param, called=False, as_table=False):
    """The meaning of the function ``node`` denotes (a helper, a nested function, a
    parameter bound to one, a lambda written here, a bound method; with ``called``, the
    parameter is called where it goes: an object whose class defines ``__call__``), or
    None.  An object read as data (``integrate(system, x)``, ``self`` of a method) is
    passed as the object, unless the helper reads the parameter as a table (``as_table``:
    a namedtuple of numbers indexed, as any tuple of them)."""
    held = names.held_object(frame, node) if isinstance(node, (ast.Name, ast.Attribute)) and (
        not as_table) else None
    if held is not None:
        return Meaning("object", *held)
    method = bound_method(frame, node) if called or isinstance(node, ast.Attribute) else None
    if method is not None:  # ``s.force``, or ``s`` whose class defines ``__call__``
        node = method
    if isinstance(node, ast.Lambda):
        return Meaning("nested", Nested(lambda_as_def(node, param or "function"), frame))
    if isinstance(node, ast.Attribute) and _on_module(frame, node):
        meant = names.module_member(frame, node)
    elif isinstance(node, ast.Name):
        meant = names.meaning_of(frame, node.id, node)
    else:
        return None
    return meant if meant.kind in ("function", "nested", "custom", "primitive") else None


def bound_method(frame, node):
    """``lambda x: s.force(x)`` for the bound method ``s.force`` of a record ``s`` (its
    class's function, with the parameters after ``self``), and ``lambda x:
    s.__call__(x)`` for a record whose class defines ``__call__``; None for any other
    node."""
    receiver, name = (node.value, node.attr) if isinstance(node, ast.Attribute) else (
        node, "__call__")
    found = containers.container_of(frame, receiver) if isinstance(
        receiver, (ast.Name, ast.Attribute, ast.Subscript)) else None
    kind = found and containers.kind_of_operand(frame, ir.Ref(*found))
    held = None if found else names.held_object(frame, receiver) if isinstance(
        receiver, (ast.Name, ast.Attribute)) else None
    if held is not None:  # ``system.rhs`` of an object read as data
        kind = Record((), type(held[0]), tuple(vars(held[0]) if hasattr(
            held[0], "__dict__") else ()))
    if not is_record(kind) or not isinstance(kind.cls, type) or name in dict(kind.items) or (
            name in kind.static):
        return None
    try:
        function = inspect.getattr_static(kind.cls, name)
    except AttributeError:
        return None
    if not inspect.isfunction(function):
        return None
    params = list(inspect.signature(function).parameters)[1:]
    call = ast.Call(ast.Attribute(receiver, name, ast.Load()),
                    [ast.Name(p, ast.Load()) for p in params], [])
    spec = ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, [])
    return ast.copy_location(ast.Lambda(spec, call), node)


def _on_module(frame, node):
    """Whether ``node`` is an attribute of a module (``math.sin``, ``np.linalg.norm``)."""
    root = node.value
    while isinstance(root, ast.Attribute):
        root = root.value
    return isinstance(root, ast.Name) and names.scope_of(frame, root.id) is None and (
        names.meaning_of(frame, root.id, root).kind == "module")


def _none(node):
    return ast.copy_location(ast.Constant(None), node)
