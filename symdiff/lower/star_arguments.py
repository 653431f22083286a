"""Star arguments: ``f(t, x, *p)`` and ``g(x, **options)`` with their values known from
the kinds, and a helper's ``*args`` bound to the values its call passes.

Expects a ``Frame`` and a call of a user helper.  Guarantees ``spread(frame, node)``: the
call with each ``*p`` of a tuple lowering knows (its length is part of its kind) written
as its elements ``p[0], p[1], ...``, and each ``**d`` of a dict of known keys (not an
object's fields; the differentiated function's ``**kwargs``, with the keys of the call
the gradient is generated for; a dict written out) as the keywords ``k=d["k"]``, so
binding reads plain arguments; and
``rest_of(frame, node, reading)``: the tuple a helper's ``*args`` holds, the arguments
past its positional parameters written as a tuple (``()`` when there are none), which
the containers core builds and its body reads, forwards (``f(t, x, *p)``) or indexes;
and ``keywords_of(node, params)``: the dict a helper's ``**options`` holds, the keywords
no parameter takes, which its body reads by key or forwards (``core(x, **options)``).  A
``*xs`` of a list (whose length is read when the gradient runs), of anything but a
container, and a ``**`` of anything but a dict, are located ``UnsupportedSyntaxError``s
with a hint.

    def step(f, t, x, h, *p):            step(rhs, 0.0, x, 0.1, a, b)
        return x + h * f(t, x, *p)   ->  p = (a, b); ... rhs(t, x, p[0], p[1]) inlined
"""

import ast
import copy

from symdiff.core import types as t
from symdiff.core.records import is_record
from symdiff.errors import UnsupportedSyntaxError
from symdiff.ir import nodes as ir
from symdiff.lower import containers, names


def spread(frame, node):
    """``node`` with its ``*p`` and ``**d`` written out (see the module)."""
    if not any(isinstance(a, ast.Starred) for a in node.args) and all(
            k.arg is not None for k in node.keywords):
        return node
    args, keywords = [], []
    for arg in node.args:
        args += _elements(frame, arg.value, arg) if isinstance(arg, ast.Starred) else [arg]
    for keyword in node.keywords:
        keywords += _entries(frame, keyword, ast.unparse(node.func)) if (
            keyword.arg is None) else [keyword]
    call = copy.copy(node)
    call.args, call.keywords = args, keywords
    return call


def rest_of(frame, node, reading):
    """The ``ast.Tuple`` of the arguments of ``node`` past the helper's positional
    parameters (its ``*args``)."""
    rest = node.args[reading.positional:]
    return ast.copy_location(ast.Tuple(list(rest), ast.Load()), rest[0] if rest else node)


def keywords_of(frame, node, fn, params, options):
    """The ``ast.Dict`` of the keywords of ``node`` no parameter of the helper ``fn``
    (``params``) takes: what its ``**options`` holds (``{}`` when there are none).  A
    string, bool or None among them is refused (a dict holds numbers and containers)."""
    extra = [k for k in node.keywords if k.arg not in params]
    for k in extra:
        value = k.value.value if isinstance(k.value, ast.Constant) else 0.0
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise frame.error(UnsupportedSyntaxError, k.value, f"{k.arg}={k.value.value!r} "
                              f"goes into **{options} of {fn.__name__}, a dict, which holds "
                              "numbers and containers here", f"name {k.arg} as a parameter of "
                              f"{fn.__name__}: def {fn.__name__}(..., {k.arg}=..., "
                              f"**{options})")
    keys = [ast.copy_location(ast.Constant(k.arg), k.value) for k in extra]
    return ast.copy_location(ast.Dict(keys, [k.value for k in extra]), node)


def _kind(frame, node):
    found = containers.container_of(frame, node)
    return None if found is None else containers.kind_of_operand(frame, ir.Ref(*found))


def _elements(frame, value, where):
    kind = _kind(frame, value)
    if isinstance(kind, t.Tuple):
        return [_read(ast.Subscript(copy.deepcopy(value), ast.Constant(i), ast.Load()), where)
                for i in range(len(kind.elts))]
    shown = ast.unparse(value)
    if isinstance(kind, t.List):
        raise frame.error(UnsupportedSyntaxError, where, f"*{shown} spreads a list, whose "
                          "length is known only when the gradient runs",
                          "pass a tuple instead (its length is part of its kind), or the "
                          f"elements one by one: {shown}[0], {shown}[1], ...")
    raise frame.error(UnsupportedSyntaxError, where, f"*{shown} spreads no tuple symdiff "
                      "knows here", "pass the values one by one, or as a tuple parameter")


def _entries(frame, keyword, callee):
    value = keyword.value
    if isinstance(value, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(
            k.value, str) for k in value.keys):  # ``**{"scale": 2.0}``: its keywords
        return [ast.keyword(k.value, v) for k, v in zip(value.keys, value.values)]
    shown = ast.unparse(keyword.value)
    if names.is_kwargs(frame, value) and frame.unit.kwargs_keys is not None:
        return [ast.keyword(key, _read(ast.Subscript(copy.deepcopy(value), ast.Constant(key),
                                                     ast.Load()), value))
                for key in frame.unit.kwargs_keys]  # the keys the call gives, read by key
    kind = _kind(frame, keyword.value)
    if not isinstance(kind, t.Dict) or is_record(kind):
        hint = (f"pass the values by name: {callee}(..., k={shown}['k'])" if names.is_kwargs(
            frame, keyword.value) else f"pass the values by name: {callee}(..., k=v)")
        raise frame.error(UnsupportedSyntaxError, keyword.value, f"**{shown} passes no dict "
                          "of keys known when the gradient is built", hint)
    return [ast.keyword(key, _read(ast.Subscript(copy.deepcopy(keyword.value),
                                                 ast.Constant(key), ast.Load()), keyword.value))
            for key, _ in kind.items]


def _read(node, where):
    for part in ast.walk(node):
        ast.copy_location(part, where)
    return node
