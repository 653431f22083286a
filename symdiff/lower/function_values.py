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

from symdiff.errors import UnsupportedSyntaxError
from symdiff.frontend.kinds import is_function as is_function_value
from symdiff.frontend.parse import lambda_as_def
from symdiff.frontend.resolve import Meaning, classify
from symdiff.core.records import Record, is_function, is_record
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
    field = field_function(frame, node) if isinstance(node, ast.Attribute) else None
    if field is not None:  # ``euler(self.rhs, x)`` of a record holding a function
        return field
    method = bound_method(frame, node) if called or isinstance(node, ast.Attribute) else None
    if method is not None:  # ``s.force``, or ``s`` whose class defines ``__call__``
        node = method
    if isinstance(node, ast.Lambda):
        return Meaning("nested", Nested(lambda_as_def(node, param or "function"), frame))
    if isinstance(node, ast.Attribute) and _on_module(frame, node):
        meant = names.module_member(frame, node)
    elif isinstance(node, ast.Name):
        meant = names.meaning_of(frame, node.id, node)
    elif isinstance(node, ast.Subscript):  # ``apply(acts["out"], z)``, ``ACTS["tanh"]``
        meant = _global_element(frame, node) or Meaning("other")
    else:
        return None
    if meant.kind == "local" or isinstance(node, ast.Subscript) and meant.kind == "other":
        element = held_element(frame, node) if isinstance(node, ast.Subscript) else (
            containers.bound_operand(frame, node.id))
        kind = isinstance(element, ir.Ref) and containers.kind_of_operand(frame, element)
        meant = classify(kind.fn) if is_function(kind) else meant  # ``act`` of a loop
    return meant if meant.kind in ("function", "nested", "custom", "primitive") else None


def held_function(frame, node):
    """The call ``node`` read with its function named, where that function is an element
    of a container (``acts["hidden"](z)`` of a dict of functions passed, ``act(h)`` of
    a loop over a list of alike ones, ``ACTS["tanh"](z)`` of a module's table indexed by
    a constant): its callee a name the frame holds as that function (its kind known when
    the gradient is built, ``core.records.Function``); None for any other call."""
    func = node.func
    field = field_function(frame, func) if isinstance(func, ast.Attribute) else None
    if field is not None:  # ``self.act(z)`` of a record holding ``act=np.tanh``
        return _named(frame, node, ast.unparse(func), field)
    if isinstance(func, ast.Name) and (names.scope_of(frame, func.id) is None or (
            names.meaning_of(frame, func.id, func).kind != "local")) or not (
            isinstance(func, (ast.Name, ast.Subscript))):
        return None  # (a function by name already, or no container's element)
    meant = _global_element(frame, func) if isinstance(func, ast.Subscript) else None
    found = None
    if meant is None:
        found = containers.container_of(frame, func)
        kind = found and containers.kind_of_operand(frame, ir.Ref(*found))
        meant = classify(kind.fn) if is_function(kind) else None
        if meant is None and found and found[1]:
            _refuse_unlike(frame, func, found)
    if meant is None:
        return None
    return _named(frame, node, _element_name(func, found), meant)


def _named(frame, node, name, meant):
    """The call ``node`` with its function the name ``name`` (no identifier: it names no
    variable of the user's), which the frame holds as ``meant``."""
    frame.functions[name] = meant
    call = copy.copy(node)
    call.func = ast.copy_location(ast.Name(name, ast.Load()), node.func)
    return call


def field_function(frame, node):
    """The meaning of the function a record's field holds (``self.act`` of a layer built
    with ``act=np.tanh``: part of the record's kind, ``frontend.kinds``), or None."""
    if not isinstance(node.value, (ast.Name, ast.Attribute, ast.Subscript)):
        return None
    found = containers.container_of(frame, node.value)
    kind = found and containers.kind_of_operand(frame, ir.Ref(*found))
    held = dict(kind.constants).get(node.attr) if is_record(kind) else None
    return classify(held) if is_function_value(held) else None


def _element_name(func, found):
    """The name the frame holds the function of ``func`` by: the element as written
    (``acts["out"]``), or for a name bound to one (``act`` of ``for act in acts``) the
    element it is bound to now (``acts[0]``, ``acts[act_index]``); never an identifier."""
    if isinstance(func, ast.Subscript) or found is None:
        return ast.unparse(func)
    return found[0] + "".join(f"[{i.value!r}]" if isinstance(i, ir.Const) else f"[{i.name}]"
                              for i in found[1])


def held_element(frame, node):
    """The ``Ref`` of the element ``node`` reads (``acts[i]``, ``acts["out"]``) where it
    is a function (its kind a ``Function``), which the name assigned it stands for; None
    for any other node."""
    if not isinstance(node, ast.Subscript):
        return None
    found = containers.container_of(frame, node)
    kind = found and containers.kind_of_operand(frame, ir.Ref(*found))
    return ir.Ref(*found) if is_function(kind) else None


def _refuse_unlike(frame, func, found):
    """A located error for ``act(h)`` where ``act`` is an element of a tuple of unlike
    functions taken by an index known only when the gradient runs (a loop's): the
    function called there is not known when the gradient is built."""
    outer = containers.kind_of_operand(frame, ir.Ref(found[0], found[1][:-1]))
    elts = getattr(outer, "elts", ())
    if not any(is_function(e) for e in elts):
        return
    shown = ast.unparse(func)
    raise frame.error(UnsupportedSyntaxError, func, f"{shown} is one of unlike functions "
                      "(a tuple of them), taken by an index known only when the gradient "
                      "runs: the body is written once, for one function",
                      "call each by a constant index (h = acts[0](h); h = acts[1](h)), "
                      "or pass a list of one function")


def _global_element(frame, node):
    """The meaning of ``TABLE[k]``, a module's (or closure's) tuple, list or dict of
    functions indexed by a constant; None where ``node.value`` is no such table.  An
    index known only when the gradient runs is refused where it is written."""
    base, shown = node.value, ast.unparse(node.value)
    if isinstance(base, ast.Attribute) and _on_module(frame, base):  # ``models.ACTS[k]``
        meant = names.module_member(frame, base)
    elif isinstance(base, ast.Name) and names.scope_of(frame, base.id) is None:
        meant = names.meaning_of(frame, base.id, base)
    else:
        return None
    table = meant.value
    if meant.kind != "other" or not isinstance(table, (tuple, list, dict)) or not any(
            is_function_value(v) for v in (table.values() if isinstance(table, dict) else table)):
        return None
    index = node.slice
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) and isinstance(
            index.operand, ast.Constant):
        index = ast.Constant(-index.operand.value)
    if not isinstance(index, ast.Constant):
        raise frame.error(UnsupportedSyntaxError, node.slice, f"{shown} is a table of "
                          "functions, indexed here by a value known only when the gradient "
                          "runs", f"index it by a constant ({shown}[...] written out), or "
                          f"pass the function itself as an argument (act={shown}[...])")
    try:
        held = table[index.value]
    except (KeyError, IndexError, TypeError):
        raise frame.error(UnsupportedSyntaxError, node.slice, f"{shown} has no entry "
                          f"{index.value!r}", "index it by one of its keys") from None
    return classify(held) if is_function_value(held) else None


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
