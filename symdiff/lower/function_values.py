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
is part of the kind signature, ``core.records.Function``).

    def euler(rhs, x, dt, n):           y = euler(decay, x0, 0.1, 3)
        for i in range(n):          ->  (euler inlined; each rhs(x) inlines decay(x))
            x = x + dt * rhs(x)
        return x
"""

import ast
import copy

from symdiff.frontend.parse import lambda_as_def
from symdiff.frontend.resolve import Meaning
from symdiff.lower import names
from symdiff.lower.scope import Nested


def passed_functions(frame, fn, reading, node):
    """``(call node, {parameter: function})`` for the call ``node`` of ``fn`` (see the
    module); the node itself and ``{}`` when no argument is a function."""
    params = reading.params
    found, args, keywords = {}, list(node.args), list(node.keywords)
    for i, (param, arg) in enumerate(zip(params, node.args)):
        function = function_value(frame, arg, param)
        if function is not None:
            found[param], args[i] = function, _none(arg)
    for i, keyword in enumerate(node.keywords):
        function = function_value(frame, keyword.value, keyword.arg)
        if function is not None and keyword.arg in params:
            found[keyword.arg] = function
            keywords[i] = ast.keyword(keyword.arg, _none(keyword.value))
    if not found:
        return node, {}
    call = copy.copy(node)
    call.args, call.keywords = args, keywords
    return call, found


def function_value(frame, node, param):
    """The meaning of the function ``node`` denotes (a helper, a nested function, a
    parameter bound to one, a lambda written here), or None."""
    if isinstance(node, ast.Lambda):
        return Meaning("nested", Nested(lambda_as_def(node, param or "function"), frame))
    if isinstance(node, ast.Attribute) and _on_module(frame, node):
        meant = names.module_member(frame, node)
    elif isinstance(node, ast.Name):
        meant = names.meaning_of(frame, node.id, node)
    else:
        return None
    return meant if meant.kind in ("function", "nested", "custom", "primitive") else None


def _on_module(frame, node):
    """Whether ``node`` is an attribute of a module (``math.sin``, ``np.linalg.norm``)."""
    root = node.value
    while isinstance(root, ast.Attribute):
        root = root.value
    return isinstance(root, ast.Name) and names.scope_of(frame, root.id) is None and (
        names.meaning_of(frame, root.id, root).kind == "module")


def _none(node):
    return ast.copy_location(ast.Constant(None), node)
